// The selected controller: its pods with the decision, the reason and the facts the ranking
// reads (node, phase, ready, restarts, age, deletion cost), the deletion order, and the sentence
// why for the pod under the cursor. The pod table is virtualised like the controllers list; the
// column widths are fitted once per explain model and width, not per frame, in the layout's
// order (POD_ORDER): a pod row is one line at every width, and the sentences wrap at words.

import { Box } from 'ink';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import type { PlanController, PlanPod } from '../core/plan-types.js';
import { formatDeletionCost } from '../render/explain-pods.js';
import { humanDuration, sanitize, shortSeconds, truncate, truncateMiddle, wrap } from '../render/text.js';
import { detailLayout, fitTable, POD_ORDER, scrollTo, type ColumnSpec, type LineItem } from './layout.js';
import { fitLineItems, fitSegs, len, Line, titleSegs, wrapSegs, type Seg } from './line.js';
import { claimCounts } from './state.js';
import type { AwaitedWrites } from '../services/watch/contract.js';

/** Spaces between pod columns: 1 on narrow terminals, 2 from 100 columns. */
function podGap(width: number): number {
  return width < 100 ? 1 : 2;
}

const POD_HEADERS = ['NAME', 'DECISION', 'REASON', 'NODE', 'PHASE', 'READY', 'RST', 'AGE', 'COST', 'DEL'] as const;
/** Narrowest a pod name (cut in the middle: its distinguishing end stays) and a reason are cut to. */
const CUT_FLOOR: Record<string, number> = { NAME: 12, REASON: 8 };
/** Abbreviated widths: READY without its duration, PHASE to 7 (`Succee…`). */
const NARROW: Record<string, number> = { READY: 3, PHASE: 7 };
/** A column whose every cell is this says nothing. */
const EMPTY: Record<string, (cell: string) => boolean> = { COST: (t) => t === '-' || t === '', RST: (t) => t === '0' || t === '' };

/** A pod row, from the explain model or (when there is none) from the plan entry alone. */
type PodRow = Pick<ExplainPodRow, 'name' | 'decision' | 'reason' | 'message'> & Partial<ExplainPodRow>;

/** What the row's DECISION says: a pod in the deletion order is deleted, whatever claim kept it. */
function decisionOf(r: PodRow): string {
  return r.deleteIndex != null ? 'delete' : r.decision;
}

/** The cells of a row; the texts read from the pod are sanitized, the words and numbers formatted here need not be. */
function podCells(r: PodRow): string[] {
  const full = r.phase !== undefined;
  return [
    sanitize(r.name),
    decisionOf(r),
    r.reason,
    full ? (r.node == null ? '<none>' : sanitize(r.node)) : '',
    full ? (r.phase ? sanitize(r.phase) : '-') : '',
    full ? (r.ready ? (r.readySeconds != null ? `yes ${humanDuration(r.readySeconds)}` : 'yes') : 'no') : '',
    full ? (r.sidecarRestarts ? `${r.restarts}+${r.sidecarRestarts}` : String(r.restarts ?? 0)) : '',
    full ? humanDuration(r.ageSeconds ?? null) : '',
    full ? formatDeletionCost({ deletionCost: r.deletionCost ?? 0, deletionCostAnnotation: r.deletionCostAnnotation ?? null }) : '',
    r.deleteIndex != null ? `#${r.deleteIndex + 1}` : '',
  ];
}

interface PodTable {
  /** Indexes into POD_HEADERS of the columns shown. */
  shown: number[];
  widths: number[];
  gap: number;
  rows: PodRow[];
}

const tableCache = new WeakMap<object, Map<number, PodTable>>();

/** Rows, the columns shown and their fitted widths, once per model (or plan entry) and width. */
export function podTable(source: ExplainModel | PlanController, width: number): PodTable {
  let byWidth = tableCache.get(source);
  if (!byWidth) {
    byWidth = new Map();
    tableCache.set(source, byWidth);
  }
  let t = byWidth.get(width);
  if (!t) {
    const rows: PodRow[] = 'plan' in source ? source.pods : deleteIndexed(source);
    t = fitPodTable(rows, width);
    byWidth.set(width, t);
  }
  return t;
}

function fitPodTable(rows: PodRow[], width: number): PodTable {
  const gap = podGap(width);
  // one pass over the rows: each column's widest cell, and whether every cell says nothing
  const natural = POD_HEADERS.map((header) => len(header));
  const empty = POD_HEADERS.map(() => true);
  let full = false;
  for (const r of rows) {
    if (r.phase !== undefined) full = true;
    const cells = podCells(r);
    for (let i = 0; i < cells.length; i++) {
      const n = len(cells[i]);
      if (n > natural[i]) natural[i] = n;
      if (empty[i] && !EMPTY[POD_HEADERS[i]]?.(cells[i])) empty[i] = false;
    }
  }
  const columns: ColumnSpec[] = POD_HEADERS.map((header, i) => ({
    id: header,
    natural: natural[i],
    narrow: NARROW[header] === undefined ? undefined : Math.max(NARROW[header], len(header)),
    empty: EMPTY[header] ? empty[i] : undefined,
    cut: CUT_FLOOR[header],
  })).filter((c) => full || !['NODE', 'PHASE', 'READY', 'RST', 'AGE', 'COST'].includes(c.id));
  const fit = fitTable(columns, POD_ORDER, width, { gap, fixed: 2 });
  const shown = fit.shown.map((id) => POD_HEADERS.indexOf(id as (typeof POD_HEADERS)[number]));
  return { shown, widths: fit.shown.map((id) => fit.widths.get(id) ?? 0), gap, rows };
}

/** A cell in its column's width: a name cut in the middle, READY narrowed to yes/no, others cut at the end. */
function cellText(text: string, col: number, w: number): string {
  const h = POD_HEADERS[col];
  if (len(text) <= w) return text;
  if (h === 'NAME') return truncateMiddle(text, w);
  if (h === 'READY') return truncate(text.split(' ')[0], w);
  return truncate(text, w);
}

function deleteIndexed(c: PlanController): PodRow[] {
  const order = new Map(c.delete.map((d, i) => [d.uid, i]));
  return c.pods.map((p: PlanPod) => ({ ...p, deleteIndex: order.get(p.uid) ?? null }));
}

function cellsText(cells: string[], t: PodTable): string {
  return t.shown
    .map((col, i) => {
      const cut = cellText(cells[col], col, t.widths[i]);
      return i === t.shown.length - 1 ? cut : cut.padEnd(t.widths[i] + t.gap);
    })
    .join('')
    .trimEnd();
}

const DECISION_COLOR: Record<string, string | undefined> = { adopt: 'cyan', release: 'magenta', ignore: 'gray', delete: 'red', keep: undefined };

export function podRowSegs(r: PodRow, t: PodTable, selected: boolean): Seg[] {
  const cells = podCells(r);
  const segs: Seg[] = [{ text: selected ? '> ' : '  ', bold: true }];
  t.shown.forEach((col, i) => {
    const cut = cellText(cells[col], col, t.widths[i]);
    const pad = i === t.shown.length - 1 ? cut : cut.padEnd(t.widths[i] + t.gap);
    const h = POD_HEADERS[col];
    const color = h === 'DECISION' ? DECISION_COLOR[decisionOf(r)] : h === 'DEL' ? 'red' : h === 'READY' && r.ready === false ? 'yellow' : undefined;
    segs.push({ text: pad, color, bold: h === 'DEL' });
  });
  return segs;
}

/**
 * The two title lines at `width`: the controller and its counts stay; what the pod table or the
 * list also says goes first (line 1: owner, selector, warnings; line 2: status, available,
 * ready, current, requeue, then adopt and release).
 */
function detailTitle(c: PlanController, model: ExplainModel | null, awaited: AwaitedWrites | null = null, width = Number.POSITIVE_INFINITY): [Seg[], Seg[]] {
  const first: LineItem<Seg>[] = [{ segs: [{ text: `${c.kind} ${c.namespace}/${c.name}`, bold: true }], keep: Number.POSITIVE_INFINITY }];
  if (c.warnings.length)
    first.push({ segs: [{ text: `  warnings: ${[...new Set(c.warnings.map((w) => w.code))].join(', ')}`, color: 'yellow', bold: true }], keep: 3 });
  if (model) {
    first.push({ segs: [{ text: '  selector ', dim: true }, { text: model.selector }], keep: 2 });
    if (model.owner) first.push({ segs: [{ text: '  owner ', dim: true }, { text: `${model.owner.kind}/${model.owner.name}` }], keep: 1 });
  }
  const second: LineItem<Seg>[] = [];
  const kv = (k: string, v: string, keep: number, color?: string) =>
    second.push({
      segs: [
        { text: second.length ? `  ${k} ` : `${k} `, dim: true },
        { text: v, color, bold: color !== undefined },
      ],
      keep,
    });
  const always = Number.POSITIVE_INFINITY;
  kv('desired', String(c.replicas.desired), always);
  kv('current', String(c.replicas.current), 5);
  kv('ready', String(c.status.readyReplicas), 4);
  kv('available', String(c.status.availableReplicas), 3);
  if (c.skip) {
    second.push({
      segs: [awaited ? { text: `  waiting for its ${awaited}`, color: 'cyan', bold: true } : { text: `  skipped: ${c.skip.reason}`, color: 'red', bold: true }],
      keep: always,
    });
  } else {
    const { adopt, release } = claimCounts(c);
    kv('adopt', String(adopt), 7, adopt ? 'cyan' : undefined);
    kv('release', String(release), 7, release ? 'magenta' : undefined);
    kv('create', c.create.count ? `${c.create.count} [${c.create.batches.join(',')}]` : '0', always, c.create.count ? 'green' : undefined);
    kv('delete', String(c.delete.length), always, c.delete.length ? 'red' : undefined);
    kv('status', c.statusChanged ? 'update' : '-', 2);
    if (c.requeueAfterSeconds !== null) kv('requeue', shortSeconds(c.requeueAfterSeconds), 6);
    if (c.inSync) second.push({ segs: [{ text: '  in sync', color: 'green', bold: true }], keep: always });
  }
  return [fitLineItems(first, width), fitLineItems(second, width)];
}

/** The sentence for one pod: why it goes (and in which place), or why it is kept / claimed. */
export function whyText(c: PlanController, r: PodRow | undefined, awaited: AwaitedWrites | null = null): string {
  if (c.skip) return `${awaited ? `waiting for its ${awaited}` : c.skip.reason}: ${c.skip.message}`;
  if (!r) return 'no pods match or belong to this controller';
  let text: string;
  if (r.deleteIndex != null) {
    const d = c.delete[r.deleteIndex];
    text = `#${r.deleteIndex + 1} in the deletion order: ${d?.message ?? ''}`;
  } else text = `${r.decision} (${r.reason}): ${r.message}`;
  for (const w of c.warnings) if (w.pods?.includes(r.name)) text += ` Warning ${w.code}: ${w.message}`;
  return text;
}

/** One entry of the deletion order, wrapped at words under its text. */
function deletionEntry(d: PlanController['delete'][number], i: number, width: number): Seg[][] {
  return wrapSegs(
    [{ text: `#${i + 1} `, color: 'red', bold: true }, { text: d.name }, { text: `  ${d.reason}: `, dim: true }, { text: d.message }],
    width,
    `#${i + 1} `.length,
  );
}

/** The deletion order in `room` lines: its title, then whole entries (wrapped at words), then "… N more". */
function deletionLines(c: PlanController, room: number, width: number): { key: string; segs: Seg[] }[] {
  const out: { key: string; segs: Seg[] }[] = [
    {
      key: 'dt',
      segs: titleSegs(`Deletion order (${c.delete.length} of ${c.replicas.current} go)`, width, [
        { text: ' why each goes before the first pod that stays', dim: true },
      ]),
    },
  ];
  let left = room - 1;
  let i = 0;
  for (; i < c.delete.length; i++) {
    const d = c.delete[i];
    const entry = deletionEntry(d, i, width);
    // the last entry may use the line "… N more" would take; the others leave it free
    const reserve = i === c.delete.length - 1 ? 0 : 1;
    if (entry.length + reserve > left) {
      // not even the first fits whole: its first lines (the name and reason lead), the Why pane has the rest
      if (i === 0 && left > 0) {
        entry.slice(0, left).forEach((segs, j) => {
          out.push({ key: `d:0:${j}`, segs: j === left - 1 ? fitSegs([...segs, { text: ' …', dim: true }], width) : segs });
        });
        left = 0;
      }
      break;
    }
    entry.forEach((segs, j) => {
      out.push({ key: `d:${i}:${j}`, segs });
    });
    left -= entry.length;
  }
  if (i < c.delete.length && left > 0)
    out.push({ key: 'd:more', segs: [{ text: `… ${c.delete.length - i} more: select a pod (#N in DEL) for its sentence`, dim: true }] });
  return out;
}

export interface DetailPaneProps {
  controller: PlanController;
  model: ExplainModel | null;
  /** What the controller waits for, when its expectations hold it back (reconcile mode). */
  awaited?: AwaitedWrites | null;
  podCursor: number;
  podTop: number;
  rows: number;
  width: number;
}

/** The first lines of a sentence wrapped in `room` lines; when it goes on, the last one ends in " …" after a whole word. */
function firstLines(lines: string[], room: number, width: number): string[] {
  if (lines.length <= room || room <= 0) return lines.slice(0, Math.max(0, room));
  const shown = lines.slice(0, room);
  let last = shown[room - 1];
  while (len(last) + 2 > width && last.trim().includes(' ')) last = last.slice(0, last.trimEnd().lastIndexOf(' '));
  shown[room - 1] = len(last) + 2 <= width ? `${last} …` : truncate(last, width);
  return shown;
}

export function DetailPane(p: DetailPaneProps) {
  const c = p.controller;
  const dl = detailLayout(p.rows, c.delete.length);
  const table = podTable(p.model ?? c, p.width);
  const lines: { key: string; segs: Seg[]; inverse?: boolean }[] = [];
  const [t1, t2] = detailTitle(c, p.model, p.awaited ?? null, p.width);
  if (dl.title >= 1) lines.push({ key: 't1', segs: t1 });
  if (dl.title >= 2) lines.push({ key: 't2', segs: t2 });
  lines.push({ key: 'ph', segs: [{ text: `  ${cellsText([...POD_HEADERS], table)}`, bold: true }] });
  // lines the pods do not need go to the sentences below: the deletion order's entries, then the why
  let spare = Math.max(0, dl.pods - Math.max(1, table.rows.length));
  const podRoom = Math.max(0, dl.pods - spare);
  let deletionRoom = dl.deletion;
  if (dl.deletion > 0 && spare > 0) {
    const need = 1 + c.delete.reduce((n, d, i) => n + deletionEntry(d, i, p.width).length, 0);
    const more = Math.min(spare, Math.max(0, need - dl.deletion));
    deletionRoom += more;
    spare -= more;
  }
  const whyRoom = dl.why > 0 ? dl.why + spare : 0;
  const start = scrollTo(p.podTop, p.podCursor, podRoom, table.rows.length);
  let used = 0;
  for (let i = start; i < Math.min(table.rows.length, start + podRoom); i++, used++)
    lines.push({ key: `p:${table.rows[i].name}`, segs: podRowSegs(table.rows[i], table, i === p.podCursor), inverse: i === p.podCursor });
  if (table.rows.length === 0) {
    lines.push({ key: 'p:none', segs: [{ text: '  (no pods match or belong to this controller)', dim: true }] });
    used++;
  }
  for (let i = used; i < podRoom; i++) lines.push({ key: `p:pad${i}`, segs: [] });

  if (deletionRoom > 0) lines.push(...deletionLines(c, deletionRoom, p.width));
  if (whyRoom > 0) {
    const r = table.rows[p.podCursor];
    lines.push({ key: 'wt', segs: titleSegs(r ? `Why: ${r.name}` : 'Why', p.width) });
    firstLines(wrap(whyText(c, r, p.awaited ?? null), p.width - 1, ' ', ' '), whyRoom - 1, p.width).forEach((text, i) => {
      lines.push({ key: `w:${i}`, segs: [{ text }] });
    });
  }
  return (
    <Box flexDirection="column" height={p.rows}>
      {lines.slice(0, p.rows).map((l) => (
        <Line key={l.key} segs={l.segs} width={p.width} inverse={l.inverse} />
      ))}
    </Box>
  );
}
