/// <reference lib="dom" />
// What the reader does on the page: filter by namespace, controller and pod name; zoom (ctrl+wheel,
// + and −, the buttons) and pan (drag, shift+wheel); click a mark to read it; keys to go from one
// write of a controller to the next (← →) and from controller to controller (↑ ↓).

import { fit, pan, tOf, zoom, type Scale } from '../scale.js';
import { AXIS_H, ROW_H, type ChartView } from './chart.js';

export interface Page {
  view: ChartView;
  svg: SVGSVGElement;
  container: HTMLElement;
  spacer: HTMLElement;
  detail: HTMLElement;
  scale: Scale | null;
  draw(): void;
  show(mark: number): void;
}

/** Redraws once a frame, however many events asked for it. */
function scheduler(page: Page): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      page.draw();
    });
  };
}

function applyFilters(page: Page): void {
  const ns = (document.getElementById('f-namespace') as HTMLSelectElement).value;
  const ctl = (document.getElementById('f-controller') as HTMLInputElement).value.trim().toLowerCase();
  const pod = (document.getElementById('f-pod') as HTMLInputElement).value.trim().toLowerCase();
  const { rows } = page.view.model;
  const laneOk = (lane: number, group: number): boolean =>
    ctl === '' || rows[lane].name.toLowerCase().includes(ctl) || (group >= 0 && rows[group].name.toLowerCase().includes(ctl));
  // a lane or Deployment stays when one of its pods does, so a pod is always seen under its controller
  const podOk = rows.map(
    (r) => r.kind === 'pod' && (ns === '*' || r.namespace === ns) && laneOk(r.lane, r.group) && (pod === '' || r.name.toLowerCase().includes(pod)),
  );
  const keepLane = new Set<number>();
  const keepGroup = new Set<number>();
  rows.forEach((r, i) => {
    const own = r.kind === 'controller' && (ns === '*' || r.namespace === ns) && laneOk(r.lane, r.group) && pod === '';
    if (podOk[i] || own) {
      keepLane.add(r.lane);
      if (r.group >= 0) keepGroup.add(r.group);
    }
  });
  page.view.shown = rows.flatMap((r, i) => ((r.kind === 'pod' ? podOk[i] : r.kind === 'controller' ? keepLane.has(i) : keepGroup.has(i)) ? [i] : []));
  page.container.scrollTop = 0;
  page.draw();
}

function zoomBy(page: Page, factor: number, at?: number): void {
  const w = page.view.window;
  page.view.window = zoom(w, factor, at ?? (w.from + w.to) / 2, page.view.model);
  page.draw();
}

/** Selects a mark: its row scrolled into view, its time in the window, the panel filled. */
function select(page: Page, mark: number): void {
  const { view } = page;
  if (mark < 0 || mark >= view.model.marks.length) return;
  view.selected = mark;
  const m = view.model.marks[mark];
  const w = view.window;
  if (m.time < w.from || m.time > w.to) view.window = pan(w, m.time - (w.from + w.to) / 2, view.model);
  const k = view.shown.indexOf(m.row);
  if (k >= 0) {
    const y = AXIS_H + k * ROW_H;
    const c = page.container;
    if (y - AXIS_H < c.scrollTop || y + ROW_H > c.scrollTop + c.clientHeight) c.scrollTop = Math.max(0, y - c.clientHeight / 2);
  }
  page.show(mark);
  page.draw();
}

/** The selected mark's controller lane, by index in model.lanes. */
function laneOf(page: Page, mark: number): number {
  const { model } = page.view;
  const row = model.rows[model.marks[mark].row];
  return model.lanes.findIndex((l) => l.row === row.lane);
}

function step(page: Page, key: string): boolean {
  const { view } = page;
  const { model } = view;
  if (key === '+' || key === '=') return (zoomBy(page, 0.5), true);
  if (key === '-' || key === '_') return (zoomBy(page, 2), true);
  if (key === '0') return ((view.window = fit(model)), page.draw(), true);
  const sel = view.selected >= 0 && model.marks[view.selected].event >= 0 ? view.selected : -1;
  const shown = new Set(view.shown);
  const lanes = model.lanes.filter((l) => shown.has(l.row) && l.marks.length > 0);
  if (lanes.length === 0) return false;
  if (sel < 0) {
    if (!['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'].includes(key)) return false;
    select(page, lanes[0].marks[0]);
    return true;
  }
  const lane = model.lanes[laneOf(page, sel)];
  const at = lane.marks.indexOf(sel);
  if (key === 'ArrowRight' || key === 'ArrowLeft') {
    const next = lane.marks[at + (key === 'ArrowRight' ? 1 : -1)];
    if (next !== undefined) select(page, next);
    return true;
  }
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    const li = lanes.indexOf(lane) + (key === 'ArrowDown' ? 1 : -1);
    const other = lanes[li];
    // the other controller's write nearest in time
    if (other)
      select(
        page,
        nearest(other.marks, model.marks[sel].time, (i) => model.marks[i].time),
      );
    return true;
  }
  return false;
}

function selectFirstWrite(page: Page, row: number): void {
  const { model } = page.view;
  const first = model.rowMarks[row]?.find((i) => model.marks[i].event >= 0);
  if (first !== undefined) select(page, first);
}

function nearest(idx: number[], t: number, timeOf: (i: number) => number): number {
  let best = idx[0];
  for (const i of idx) if (Math.abs(timeOf(i) - t) < Math.abs(timeOf(best) - t)) best = i;
  return best;
}

function attachPointer(page: Page, redraw: () => void): void {
  let drag: { x: number; from: number; to: number; moved: boolean } | null = null;
  page.svg.addEventListener('pointerdown', (ev) => {
    drag = { x: ev.clientX, from: page.view.window.from, to: page.view.window.to, moved: false };
  });
  window.addEventListener('pointermove', (ev) => {
    if (!drag || !page.scale) return;
    const dx = ev.clientX - drag.x;
    if (Math.abs(dx) < 3 && !drag.moved) return;
    drag.moved = true;
    page.svg.classList.add('panning');
    const msPerPx = (drag.to - drag.from) / (page.scale.x1 - page.scale.x0);
    page.view.window = pan({ from: drag.from, to: drag.to }, -dx * msPerPx, page.view.model);
    redraw();
  });
  window.addEventListener('pointerup', (ev) => {
    const d = drag;
    drag = null;
    page.svg.classList.remove('panning');
    if (!d || d.moved) return;
    const hit = ev.target as Element | null;
    const target = hit?.closest?.('[data-mark]');
    // a pod's bar opens its story at its first write
    const row = !target && hit?.closest?.('.seg, .bar') ? Number(hit.closest('[data-row]')?.getAttribute('data-row')) : NaN;
    if (!Number.isNaN(row)) return selectFirstWrite(page, row);
    if (!target) return;
    if (target.classList.contains('cluster') && page.scale) return zoomBy(page, 0.1, tOf(page.scale, ev.clientX - page.svg.getBoundingClientRect().left));
    select(page, Number(target.getAttribute('data-mark')));
  });
  page.svg.addEventListener(
    'wheel',
    (ev) => {
      if (!page.scale) return;
      if (ev.ctrlKey || ev.metaKey) {
        ev.preventDefault();
        zoomBy(page, Math.exp(ev.deltaY / 300), tOf(page.scale, ev.clientX - page.svg.getBoundingClientRect().left));
      } else if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
        ev.preventDefault();
        const d = ev.shiftKey && ev.deltaX === 0 ? ev.deltaY : ev.deltaX;
        page.view.window = pan(page.view.window, (d * (page.view.window.to - page.view.window.from)) / (page.scale.x1 - page.scale.x0), page.view.model);
        redraw();
      }
    },
    { passive: false },
  );
}

export function attachControls(page: Page): void {
  const redraw = scheduler(page);
  page.container.addEventListener('scroll', redraw);
  window.addEventListener('resize', redraw);
  for (const id of ['f-namespace', 'f-controller', 'f-pod']) document.getElementById(id)!.addEventListener('input', () => applyFilters(page));
  document.getElementById('zoom-in')!.addEventListener('click', () => zoomBy(page, 0.5));
  document.getElementById('zoom-out')!.addEventListener('click', () => zoomBy(page, 2));
  document.getElementById('zoom-fit')!.addEventListener('click', () => ((page.view.window = fit(page.view.model)), page.draw()));
  attachPointer(page, redraw);
  page.detail.addEventListener('click', (ev) => {
    const a = (ev.target as Element).closest('[data-goto]');
    if (!a) return;
    ev.preventDefault();
    const to = Number(a.getAttribute('data-goto'));
    if (to >= 0) select(page, to);
  });
  document.addEventListener('keydown', (ev) => {
    if ((ev.target as Element).closest('input,select')) return;
    if (ev.key === 'Escape') {
      page.view.selected = -1;
      page.draw();
      return;
    }
    if (step(page, ev.key)) ev.preventDefault();
  });
}
