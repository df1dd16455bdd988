// The selected controller: its pods with the decision, the reason and the facts the ranking
// reads (node, phase, ready, restarts, age, deletion cost), the deletion order, and the sentence
// why for the pod under the cursor. The pod table is virtualised like the controllers list; the
// column widths are fitted once per explain model and width, not per frame.

import { Box } from 'ink';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import type { PlanController, PlanPod } from '../core/plan-types.js';
import { formatDeletionCost } from '../render/explain.js';
import { fitColumns, humanDuration, sanitize, shortSeconds, truncate, truncateMiddle, wrap, type Column } from '../render/text.js';
import { detailLayout } from './layout.js';
import { Line, titleSegs, type Seg } from './line.js';
import { claimCounts, type AwaitedWrites } from './state.js';

/** Spaces between pod columns: 1 on narrow terminals, 2 from 100 columns. */
export function podGap(width: number): number {
  return width < 100 ? 1 : 2;
}

const POD_COLUMNS: Column[] = [
  { header: 'NAME', shrink: [24, 18, 12], ellipsis: 'middle' },
  { header: 'DECISION' },
  { header: 'REASON', shrink: [13, 10, 8] },
  { header: 'NODE', shrink: [12, 8, 6], ellipsis: 'middle' },
  { header: 'PHASE', shrink: [7] },
  { header: 'READY', shrink: [5] },
  { header: 'RST', shrink: [3] },
  { header: 'AGE', shrink: [5, 3] },
  { header: 'COST', shrink: [5, 4] },
  { header: 'DEL', shrink: [3] },
];

/** A pod row, from the explain model or (when there is none) from the plan entry alone. */
type PodRow = Pick<ExplainPodRow, 'name' | 'decision' | 'reason' | 'message'> & Partial<ExplainPodRow>;

export function podCells(r: PodRow): string[] {
  const full = r.phase !== undefined;
  return [
    r.name,
    r.decision,
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
  widths: number[];
  gap: number;
  rows: PodRow[];
}

const tableCache = new WeakMap<object, Map<number, PodTable>>();

/** Rows and fitted column widths, once per model (or plan entry) and width. */
export function podTable(source: ExplainModel | PlanController, width: number): PodTable {
  let byWidth = tableCache.get(source);
  if (!byWidth) {
    byWidth = new Map();
    tableCache.set(source, byWidth);
  }
  let t = byWidth.get(width);
  if (!t) {
    const rows: PodRow[] = 'plan' in source ? source.pods : deleteIndexed(source);
    const gap = podGap(width);
    const widths = fitColumns(POD_COLUMNS, rows.map(podCells), { width: width - 2, gap });
    t = { widths, gap, rows };
    byWidth.set(width, t);
  }
  return t;
}

function deleteIndexed(c: PlanController): PodRow[] {
  const order = new Map(c.delete.map((d, i) => [d.uid, i]));
  return c.pods.map((p: PlanPod) => ({ ...p, deleteIndex: order.get(p.uid) ?? null }));
}

function cellsText(cells: string[], widths: number[], gap: number): string {
  return cells
    .map((text, i) => {
      const cut = POD_COLUMNS[i].ellipsis === 'middle' ? truncateMiddle(text, widths[i]) : truncate(text, widths[i]);
      return i === cells.length - 1 ? cut : cut.padEnd(widths[i] + gap);
    })
    .join('')
    .trimEnd();
}

const DECISION_COLOR: Record<string, string | undefined> = { adopt: 'cyan', release: 'magenta', ignore: 'gray', keep: undefined };

export function podRowSegs(r: PodRow, widths: number[], gap: number, selected: boolean): Seg[] {
  const cells = podCells(r);
  const segs: Seg[] = [{ text: selected ? '> ' : '  ', bold: true }];
  cells.forEach((text, i) => {
    const cut = POD_COLUMNS[i].ellipsis === 'middle' ? truncateMiddle(text, widths[i]) : truncate(text, widths[i]);
    const pad = i === cells.length - 1 ? cut : cut.padEnd(widths[i] + gap);
    const h = POD_COLUMNS[i].header;
    const color = h === 'DECISION' ? DECISION_COLOR[r.decision] : h === 'DEL' ? 'red' : h === 'READY' && r.ready === false ? 'yellow' : undefined;
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
  const kv = (k: string, v: string, color?: string) => second.push({ text: second.length ? `  ${k} ` : `${k} `, dim: true }, { text: v, color, bold: color !== undefined });
  kv('desired', String(c.replicas.desired));
  kv('current', String(c.replicas.current));
  kv('ready', String(c.status.readyReplicas));
  kv('available', String(c.status.availableReplicas));
  if (c.skip) {
    second.push(awaited ? { text: `  waiting for its ${awaited}`, color: 'cyan', bold: true } : { text: `  skipped: ${c.skip.reason}`, color: 'red', bold: true });
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
  lines.push({ key: 'ph', segs: [{ text: '  ' + cellsText(POD_COLUMNS.map((x) => x.header), table.widths, table.gap), bold: true }] });
  const end = Math.min(table.rows.length, p.podTop + dl.pods);
  for (let i = p.podTop; i < end; i++) {
    const r = table.rows[i];
    lines.push({ key: `p:${r.name}`, segs: podRowSegs(r, table.widths, table.gap, i === p.podCursor), inverse: i === p.podCursor });
  }
  if (table.rows.length === 0) lines.push({ key: 'p:none', segs: [{ text: '  (no pods match or belong to this controller)', dim: true }] });
  for (let i = end - p.podTop + (table.rows.length === 0 ? 1 : 0); i < dl.pods; i++) lines.push({ key: `p:pad${i}`, segs: [] });

  if (dl.deletion > 0) {
    lines.push({ key: 'dt', segs: titleSegs(`Deletion order (${c.delete.length} of ${c.replicas.current} go)`, p.width, [{ text: ' why each goes before the first pod that stays', dim: true }]) });
    const room = dl.deletion - 1;
    const shown = c.delete.length > room ? room - 1 : room;
    for (let i = 0; i < Math.min(shown, c.delete.length); i++) {
      const d = c.delete[i];
      lines.push({ key: `d:${i}`, segs: [{ text: `#${i + 1} `, color: 'red', bold: true }, { text: d.name }, { text: `  ${d.reason}: `, dim: true }, { text: d.message }] });
    }
    if (c.delete.length > shown && room > 0) lines.push({ key: 'd:more', segs: [{ text: `… ${c.delete.length - shown} more: select a pod (#N in DEL) for its sentence`, dim: true }] });
  }
  if (dl.why > 0) {
    const r = table.rows[p.podCursor];
    lines.push({ key: 'wt', segs: titleSegs(r ? `Why: ${r.name}` : 'Why', p.width) });
    const room = dl.why - 1;
    const wrapped = wrap(whyText(c, r, p.awaited ?? null), p.width - 1, ' ', ' ');
    const shown = wrapped.slice(0, room);
    if (wrapped.length > room && room > 0) shown[room - 1] = truncate(shown[room - 1], p.width - 3).replace(/…$/, '') + '…';
    shown.forEach((text, i) => lines.push({ key: `w:${i}`, segs: [{ text }] }));
  }
  return (
    <Box flexDirection="column" height={p.rows}>
      {lines.slice(0, p.rows).map((l) => (
        <Line key={l.key} segs={l.segs} width={p.width} inverse={l.inverse} />
      ))}
    </Box>
  );
}
