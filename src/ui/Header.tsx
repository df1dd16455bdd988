// The two header lines: where we look (context, namespace scope), how (mode), what we see
// (controllers, drifted, pods) and when (last update; the snapshot time for -f).

import { Box } from 'ink';
import type { PlanController } from '../core/plan-types.js';
import { formatTime } from '../core/time.js';
import type { LineItem } from './layout.js';
import { fitLineItems, Line, type Seg } from './line.js';
import { agoText, isDrifted, SORT_LABELS } from './state.js';
import type { SortKey } from './list-rows.js';
import type { PlanFrame, WatchMeta } from '../services/watch/contract.js';

export interface FrameCounts {
  controllers: number;
  drifted: number;
  skipped: number;
  /** Skipped only while waiting for their own creates or deletes (reconcile mode). */
  waiting: number;
  namespaces: number;
}

const countsCache = new WeakMap<PlanFrame, FrameCounts>();

/** Per-plan counts, computed once per frame (not per render). */
export function frameCounts(frame: PlanFrame): FrameCounts {
  let c = countsCache.get(frame);
  if (!c) {
    const ns = new Set<string>();
    let drifted = 0;
    let skipped = 0;
    let waiting = 0;
    for (const x of frame.plan.controllers as PlanController[]) {
      ns.add(x.namespace);
      if (isDrifted(x)) drifted++;
      else if (x.skip?.reason === 'ExpectationsPending') waiting++;
      else if (x.skip !== null) skipped++;
    }
    c = { controllers: frame.plan.controllers.length, drifted, skipped, waiting, namespaces: ns.size };
    countsCache.set(frame, c);
  }
  return c;
}

export interface HeaderProps {
  meta: WatchMeta;
  frame: PlanFrame | null;
  now: number;
  paused: boolean;
  waiting: number;
  sort: SortKey;
  filter: string;
  shown: number;
  width: number;
}

const MODE_COLOR: Record<WatchMeta['mode'], string> = { 'read-only': 'cyan', reconcile: 'magenta', snapshot: 'blue' };

/** `12:00:05` (UTC) of a time. */
export function clockTime(ms: number): string {
  return formatTime(ms).slice(11, 19);
}

const ALWAYS = Number.POSITIVE_INFINITY;

/**
 * The two header lines at `p.width`. What goes first when they do not fit: line 1 the title, the
 * scope, the context (the mode stays); line 2 the sort, the "(2s ago)", the update time, the pods,
 * the waiting and skipped counts (controllers and drifted stay).
 */
export function headerLines(p: HeaderProps): [Seg[], Seg[]] {
  const first: LineItem<Seg>[] = [];
  if (p.paused)
    first.push({
      segs: [
        {
          text: p.waiting > 0 ? ` PAUSED (${p.waiting} update${p.waiting === 1 ? '' : 's'} waiting) ` : ' PAUSED ',
          color: 'yellow',
          inverse: true,
          bold: true,
        },
        { text: ' ' },
      ],
      keep: ALWAYS,
    });
  first.push(
    { segs: [{ text: 'rs-reconcile watch', bold: true }], keep: 1 },
    { segs: [{ text: '  context ', dim: true }, { text: p.meta.context || '-' }], keep: 3 },
    { segs: [{ text: '  ', dim: true }, { text: p.meta.scope }], keep: 2 },
    {
      segs: [
        { text: '  mode ', dim: true },
        { text: p.meta.mode, color: MODE_COLOR[p.meta.mode], bold: true },
      ],
      keep: ALWAYS,
    },
  );
  const second: LineItem<Seg>[] = [];
  if (!p.frame) {
    second.push({ segs: [{ text: 'waiting for the first snapshot…', dim: true }], keep: ALWAYS });
    return [fitLineItems(first, p.width), fitLineItems(second, p.width)];
  }
  const c = frameCounts(p.frame);
  const item = (keep: number, ...segs: Seg[]) => second.push({ segs, keep });
  item(ALWAYS, { text: 'controllers ', dim: true }, { text: String(c.controllers), bold: true });
  if (p.filter !== '') item(ALWAYS, { text: ` (${p.shown} shown)`, dim: true });
  item(ALWAYS, { text: '  drifted ', dim: true }, { text: String(c.drifted), bold: true, color: c.drifted > 0 ? 'yellow' : 'green' });
  if (c.waiting > 0) item(5, { text: '  waiting ', dim: true }, { text: String(c.waiting), bold: true, color: 'cyan' });
  if (c.skipped > 0) item(5, { text: '  skipped ', dim: true }, { text: String(c.skipped), bold: true, color: 'red' });
  item(4, { text: '  pods ', dim: true }, { text: String(p.frame.pods), bold: true });
  if (p.meta.mode === 'snapshot') {
    item(3, { text: '  snapshot at ', dim: true }, { text: p.frame.plan.now });
  } else {
    item(3, { text: '  updated ', dim: true }, { text: clockTime(p.frame.at) });
    item(2, { text: ` (${agoText(p.now - p.frame.at)})`, dim: true });
  }
  item(1, { text: '  sort ', dim: true }, { text: SORT_LABELS[p.sort] });
  return [fitLineItems(first, p.width), fitLineItems(second, p.width)];
}

export function Header(p: HeaderProps) {
  const [a, b] = headerLines(p);
  return (
    <Box flexDirection="column" height={2}>
      <Line segs={a} width={p.width} />
      <Line segs={b} width={p.width} />
    </Box>
  );
}
