// The selected controller: its pods with the decision, the reason and the facts the ranking
// reads (node, phase, ready, restarts, age, deletion cost), the deletion order, and the sentence
// why for the pod under the cursor. The pod table is virtualised like the controllers list; the
// column widths are fitted once per explain model and width, not per frame.

import { Box } from 'ink';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import type { PlanController, PlanPod } from '../core/plan-types.js';
import { formatDeletionCost } from '../render/explain-pods.js';
import { fitColumns, humanDuration, sanitize, shortSeconds, truncate, wrap, type Column } from '../render/text.js';
import { detailLayout, wrappedWindow } from './layout.js';
import { Line, fitSegs, titleSegs, wrapSegs, type Seg } from './line.js';
import { claimCounts, type AwaitedWrites } from './state.js';

/** Spaces between pod columns: 1 on narrow terminals, 2 from 100 columns. */
export function podGap(width: number): number {
  return width < 100 ? 1 : 2;
}

// NAME, REASON and NODE are never cut (names and reasons are what people copy); the other
// columns may be abbreviated, and COST and RST are dropped when they say nothing (no cost set, no
// restart) and the table needs the room. A row still too wide wraps, as a terminal wraps kubectl's.
const POD_COLUMNS: Column[] = [
  { header: 'NAME' },
  { header: 'DECISION' },
  { header: 'REASON' },
  { header: 'NODE' },
  { header: 'PHASE', shrink: [7] },
  { header: 'READY', shrink: [5] },
  { header: 'RST', shrink: [3] },
  { header: 'AGE', shrink: [5, 3] },
  { header: 'COST', shrink: [5, 4] },
  { header: 'DEL', shrink: [3] },
];

/** Columns dropped, in this order, when every cell of theirs is the default and room is short. */
const DROPPABLE: { header: string; empty: (cell: string) => boolean }[] = [
  { header: 'COST', empty: (t) => t === '-' || t === '' },
  { header: 'RST', empty: (t) => t === '0' || t === '' },
];

/** A pod row, from the explain model or (when there is none) from the plan entry alone. */
type PodRow = Pick<ExplainPodRow, 'name' | 'decision' | 'reason' | 'message'> & Partial<ExplainPodRow>;

/** What the row's DECISION says: a pod in the deletion order is deleted, whatever claim kept it. */
function decisionOf(r: PodRow): string {
  return r.deleteIndex != null ? 'delete' : r.decision;
}

export function podCells(r: PodRow): string[] {
  const full = r.phase !== undefined;
  return [
    r.name,
    decisionOf(r),
    r.reason,
    full ? (r.node ?? '<none>') : '',
    full ? r.phase || '-' : '',
    full ? (r.ready ? (r.readySeconds != null ? `yes ${humanDuration(r.readySeconds)}` : 'yes') : 'no') : '',
    full ? (r.sidecarRestarts ? `${r.restarts}+${r.sidecarRestarts}` : String(r.restarts ?? 0)) : '',
    full ? humanDuration(r.ageSeconds ?? null) : '',
    full ? formatDeletionCost({ deletionCost: r.deletionCost ?? 0, deletionCostAnnotation: r.deletionCostAnnotation ?? null }) : '',
    r.deleteIndex != null ? `#${r.deleteIndex + 1}` : '',
  ].map((t) => sanitize(String(t)));
}

interface PodTable {
  /** Indexes into POD_COLUMNS of the columns shown. */
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
  const cells = rows.map(podCells);
  let shown = POD_COLUMNS.map((_, i) => i);
  const fit = () =>
    fitColumns(
      shown.map((i) => POD_COLUMNS[i]),
      cells.map((r) => shown.map((i) => r[i])),
      { width: width - 2, gap },
    );
  let widths = fit();
  const total = () => widths.reduce((n, w) => n + w, 0) + gap * (widths.length - 1);
  for (const d of DROPPABLE) {
    if (total() <= width - 2) break;
    const col = POD_COLUMNS.findIndex((c) => c.header === d.header);
    if (!cells.every((r) => d.empty(r[col]))) continue;
    shown = shown.filter((i) => i !== col);
    widths = fit();
  }
  // Cutting the small columns is only worth it when the row then fits: otherwise it wraps whole.
  if (total() > width - 2)
    widths = fitColumns(
      shown.map((i) => POD_COLUMNS[i]),
      cells.map((r) => shown.map((i) => r[i])),
      { gap },
    );
  return { shown, widths, gap, rows };
}

function deleteIndexed(c: PlanController): PodRow[] {
  const order = new Map(c.delete.map((d, i) => [d.uid, i]));
  return c.pods.map((p: PlanPod) => ({ ...p, deleteIndex: order.get(p.uid) ?? null }));
}

function cellsText(cells: string[], t: PodTable): string {
  return t.shown
    .map((col, i) => {
      const cut = truncate(cells[col], t.widths[i]);
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
    // only the shrinkable columns can be narrower than their text; truncate leaves the rest whole
    const cut = truncate(cells[col], t.widths[i]);
    const pad = i === t.shown.length - 1 ? cut : cut.padEnd(t.widths[i] + t.gap);
    const h = POD_COLUMNS[col].header;
    const color = h === 'DECISION' ? DECISION_COLOR[decisionOf(r)] : h === 'DEL' ? 'red' : h === 'READY' && r.ready === false ? 'yellow' : undefined;
    segs.push({ text: pad, color, bold: h === 'DEL' });
  });
  return segs;
}

export function detailTitle(c: PlanController, model: ExplainModel | null, awaited: AwaitedWrites | null = null): [Seg[], Seg[]] {
  const first: Seg[] = [{ text: `${c.kind} ${c.namespace}/${c.name}`, bold: true }];
  if (c.warnings.length) first.push({ text: `  warnings: ${[...new Set(c.warnings.map((w) => w.code))].join(', ')}`, color: 'yellow', bold: true });
  if (model) {
    first.push({ text: '  selector ', dim: true }, { text: model.selector });
    if (model.owner) first.push({ text: '  owner ', dim: true }, { text: `${model.owner.kind}/${model.owner.name}` });
  }
  const second: Seg[] = [];
  const kv = (k: string, v: string, color?: string) =>
    second.push({ text: second.length ? `  ${k} ` : `${k} `, dim: true }, { text: v, color, bold: color !== undefined });
  kv('desired', String(c.replicas.desired));
  kv('current', String(c.replicas.current));
  kv('ready', String(c.status.readyReplicas));
  kv('available', String(c.status.availableReplicas));
  if (c.skip) {
    second.push(
      awaited ? { text: `  waiting for its ${awaited}`, color: 'cyan', bold: true } : { text: `  skipped: ${c.skip.reason}`, color: 'red', bold: true },
    );
    return [first, second];
  }
  const { adopt, release } = claimCounts(c);
  kv('adopt', String(adopt), adopt ? 'cyan' : undefined);
  kv('release', String(release), release ? 'magenta' : undefined);
  kv('create', c.create.count ? `${c.create.count} [${c.create.batches.join(',')}]` : '0', c.create.count ? 'green' : undefined);
  kv('delete', String(c.delete.length), c.delete.length ? 'red' : undefined);
  kv('status', c.statusChanged ? 'update' : '-');
  if (c.requeueAfterSeconds !== null) kv('requeue', shortSeconds(c.requeueAfterSeconds));
  if (c.inSync) second.push({ text: '  in sync', color: 'green', bold: true });
  return [first, second];
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

/** The deletion order in `room` lines: its title, then whole entries (wrapped, never cut), then "… N more". */
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
    const entry = wrapSegs(
      [{ text: `#${i + 1} `, color: 'red', bold: true }, { text: d.name }, { text: `  ${d.reason}: `, dim: true }, { text: d.message }],
      width,
    );
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

export function DetailPane(p: DetailPaneProps) {
  const c = p.controller;
  const dl = detailLayout(p.rows, c.delete.length);
  const table = podTable(p.model ?? c, p.width);
  const lines: { key: string; segs: Seg[]; inverse?: boolean }[] = [];
  const [t1, t2] = detailTitle(c, p.model, p.awaited ?? null);
  if (dl.title >= 1) lines.push({ key: 't1', segs: t1 });
  if (dl.title >= 2) lines.push({ key: 't2', segs: t2 });
  for (const [j, segs] of wrapSegs(
    [
      {
        text:
          '  ' +
          cellsText(
            POD_COLUMNS.map((x) => x.header),
            table,
          ),
        bold: true,
      },
    ],
    p.width,
  ).entries())
    lines.push({ key: `ph${j}`, segs });
  const headerExtra = lines.length - dl.title - 1;
  const rowLines = new Map<number, Seg[][]>();
  const linesOf = (i: number) => {
    let l = rowLines.get(i);
    if (!l) rowLines.set(i, (l = wrapSegs(podRowSegs(table.rows[i], table, i === p.podCursor), p.width)));
    return l;
  };
  const podRoom = Math.max(0, dl.pods - headerExtra);
  const { start, end } = wrappedWindow(p.podTop, p.podCursor, table.rows.length, (i) => linesOf(i).length, podRoom);
  let used = 0;
  for (let i = start; i < end; i++) {
    for (const [j, segs] of linesOf(i).entries()) {
      if (used++ >= podRoom) break;
      lines.push({ key: `p:${table.rows[i].name}:${j}`, segs, inverse: i === p.podCursor });
    }
  }
  if (table.rows.length === 0) {
    lines.push({ key: 'p:none', segs: [{ text: '  (no pods match or belong to this controller)', dim: true }] });
    used++;
  }
  for (let i = used; i < podRoom; i++) lines.push({ key: `p:pad${i}`, segs: [] });

  if (dl.deletion > 0) lines.push(...deletionLines(c, dl.deletion, p.width));
  if (dl.why > 0) {
    const r = table.rows[p.podCursor];
    lines.push({ key: 'wt', segs: titleSegs(r ? `Why: ${r.name}` : 'Why', p.width) });
    const room = dl.why - 1;
    const wrapped = wrap(whyText(c, r, p.awaited ?? null), p.width - 1, ' ', ' ');
    const shown = wrapped.slice(0, room);
    if (wrapped.length > room && room > 0) shown[room - 1] = truncate(shown[room - 1], p.width - 3).replace(/…$/, '') + '…';
    shown.forEach((text, i) => {
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
