/// <reference lib="dom" />
// The timeline drawn as SVG, only what is visible: the rows in the scrolled window (a fixed row
// height, so they are a slice of the filtered list) and, in each, the marks within the time window
// (a binary search in the row's marks, which are in time order). A row with more marks than
// pixels to tell them apart draws one mark a pixel, saying how many it stands for; zoom in to see
// each. Everything is drawn again from the model on each change: the cost follows the screen,
// not the history.

import type { Mark, Row, TimelineModel } from '../model.js';
import { xOf, ticks, visibleRange, type Scale, type TimeWindow } from '../scale.js';
import { STATE_COLOR, STATE_LABEL } from './style.js';

export const ROW_H = 22;
export const AXIS_H = 24;
const LABEL_W = 230;
/** Marks a row draws one by one; above, one a pixel column. */
const MAX_MARKS_PER_ROW = 600;

export interface ChartView {
  model: TimelineModel;
  window: TimeWindow;
  /** The rows the filters let through, in order. */
  shown: number[];
  selected: number;
  /** What each mark says on hover (its write, in short). */
  title(mark: number): string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const KIND_SHORT: Record<string, string> = { ReplicaSet: 'rs', ReplicationController: 'rc' };

function labelOf(r: Row): string {
  if (r.kind === 'deployment') return `deploy/${r.name}  (${r.namespace})`;
  if (r.kind === 'controller')
    return r.name === ''
      ? `no controller (${r.namespace || 'namespace unknown'})`
      : `${KIND_SHORT[r.controllerKind ?? ''] ?? r.controllerKind}/${r.name}${r.group < 0 ? `  (${r.namespace})` : ''}`;
  return r.name;
}

/** The static part of the SVG: the hatch of unknown state, the clip of the plot. */
export function chartDefs(): string {
  return (
    '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="6" height="6" fill="#f4f5f7"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9aa3ad" stroke-width="2"/></pattern>' +
    '<clipPath id="plot-clip"><rect id="plot-clip-rect" x="0" y="0" width="0" height="0"/></clipPath>' +
    `<clipPath id="label-clip"><rect x="0" y="0" width="${LABEL_W - 8}" height="100000"/></clipPath></defs><g id="dyn"></g>`
  );
}

function barSvg(v: ChartView, s: Scale, r: Row, y: number): string {
  const b = v.model.bars[r.bar!];
  const xa = Math.max(s.x0, xOf(s, b.start));
  const xb = Math.min(s.x1, xOf(s, b.end));
  let out = '';
  for (const seg of b.segments) {
    const a = Math.max(s.x0, xOf(s, seg.from));
    const z = Math.min(s.x1, xOf(s, seg.to));
    if (z <= a) continue;
    const fill = seg.state === 'unknown' ? 'url(#hatch)' : STATE_COLOR[seg.state];
    out += `<rect class="seg" data-state="${seg.state}" x="${a.toFixed(1)}" y="${y + 5}" width="${(z - a).toFixed(1)}" height="${ROW_H - 10}" fill="${fill}"><title>${esc(STATE_LABEL[seg.state])}</title></rect>`;
  }
  // one outline a pod, where its life is, even when scrolled out of the window (then 0 wide at an edge)
  const w = Math.max(0, xb - xa);
  out += `<rect class="bar bar-outline" data-pod="${esc(b.name)}" data-namespace="${esc(b.namespace)}" data-start="${b.start}" data-end="${b.end}" data-created-in-log="${b.createdInLog}" data-deleted-in-log="${b.deletedInLog}" x="${xa.toFixed(1)}" y="${y + 5}" width="${w.toFixed(1)}" height="${ROW_H - 10}"/>`;
  return out;
}

function markSvg(v: ChartView, i: number, m: Mark, x: number, y: number): string {
  const cls = `mark ${m.event >= 0 ? 'write' : 'cause-step'}${i === v.selected ? ' selected' : ''}`;
  const attrs = `data-mark="${i}" data-event="${m.event}" data-writer="${m.writer}" data-verb="${m.verb}"${m.verdict ? ` data-verdict="${m.verdict}"` : ''} data-time="${m.time}"`;
  const title = `<title>${esc(v.title(i))}</title>`;
  if (m.event < 0) return `<circle class="${cls}" ${attrs} cx="${x.toFixed(1)}" cy="${y + ROW_H / 2}" r="4">${title}</circle>`;
  return `<rect class="${cls}" ${attrs} x="${(x - 4).toFixed(1)}" y="${y + 3}" width="8" height="${ROW_H - 6}" rx="2">${title}</rect>`;
}

function marksSvg(v: ChartView, s: Scale, row: number, y: number): string {
  const idx = v.model.rowMarks[row];
  const marks = v.model.marks;
  const [a, b] = visibleRange(idx, (i) => marks[i].time, v.window);
  let out = '';
  if (b - a <= MAX_MARKS_PER_ROW) {
    for (let k = a; k < b; k++) out += markSvg(v, idx[k], marks[idx[k]], xOf(s, marks[idx[k]].time), y);
    return out;
  }
  // too many to tell apart: one mark a pixel column, the first write there, with the count
  let k = a;
  while (k < b) {
    const px = Math.round(xOf(s, marks[idx[k]].time));
    let n = 0;
    const first = idx[k];
    while (k < b && Math.round(xOf(s, marks[idx[k]].time)) === px) k++, n++;
    const m = marks[first];
    out += `<rect class="mark cluster" data-mark="${first}" data-count="${n}" data-writer="${m.writer}" x="${px - 1}" y="${y + 3}" width="3" height="${ROW_H - 6}"><title>${n} writes: zoom in to tell them apart</title></rect>`;
  }
  return out;
}

function axisSvg(s: Scale, height: number): string {
  let out = '';
  for (const t of ticks(s)) {
    const x = xOf(s, t.t).toFixed(1);
    out += `<g class="tick"><line x1="${x}" x2="${x}" y1="${AXIS_H - 4}" y2="${height}"/><text x="${x}" y="${AXIS_H - 8}" text-anchor="middle">${esc(t.label)}</text></g>`;
  }
  return out;
}

/** Draws the visible rows into the SVG; the scroll container's spacer gets the whole height. */
export function drawChart(svg: SVGSVGElement, container: HTMLElement, spacer: HTMLElement, v: ChartView): Scale {
  const width = container.clientWidth;
  const height = container.clientHeight;
  spacer.style.height = `${Math.max(0, AXIS_H + v.shown.length * ROW_H - height)}px`;
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const s: Scale = { ...v.window, x0: LABEL_W, x1: Math.max(LABEL_W + 50, width - 12) };
  svg.dataset.from = String(v.window.from);
  svg.dataset.to = String(v.window.to);
  svg.dataset.x0 = String(s.x0);
  svg.dataset.x1 = String(s.x1);
  const clip = svg.querySelector('#plot-clip-rect')!;
  clip.setAttribute('x', String(s.x0 - 5));
  clip.setAttribute('width', String(s.x1 - s.x0 + 10));
  clip.setAttribute('height', String(height));
  const top = container.scrollTop;
  const first = Math.max(0, Math.floor(top / ROW_H));
  const last = Math.min(v.shown.length, Math.ceil((top + height) / ROW_H) + 1);
  let rows = '';
  let labels = '';
  for (let k = first; k < last; k++) {
    const ri = v.shown[k];
    const r = v.model.rows[ri];
    const y = AXIS_H + k * ROW_H - top;
    rows += `<g class="row" data-row="${ri}" data-kind="${r.kind}"><rect class="row-bg ${r.kind}" x="0" y="${y}" width="${width}" height="${ROW_H}"/>`;
    rows += `<g clip-path="url(#plot-clip)">${r.kind === 'pod' ? barSvg(v, s, r, y) : ''}${marksSvg(v, s, ri, y)}</g></g>`;
    const indent = r.kind === 'pod' ? 22 : r.kind === 'controller' && r.group >= 0 ? 12 : 4;
    labels += `<text class="row-label ${r.kind}" x="${indent}" y="${y + ROW_H / 2 + 4}">${esc(labelOf(r))}</text>`;
  }
  const axis = `<rect x="0" y="0" width="${width}" height="${AXIS_H}" fill="#fff"/>${axisSvg(s, height)}`;
  svg.querySelector('#dyn')!.innerHTML = `${rows}<g clip-path="url(#label-clip)">${labels}</g>${axis}`;
  return s;
}
