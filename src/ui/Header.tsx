// The two header lines: where we look (context, namespace scope), how (mode), what we see
// (controllers, drifted, pods) and when (last update; the snapshot time for -f).

import { Box } from 'ink';
import type { PlanController } from '../core/plan-types.js';
import { formatTime } from '../core/time.js';
import { Line, type Seg } from './line.js';
import { agoText, isDrifted, SORT_LABELS, type PlanFrame, type SortKey, type WatchMeta } from './state.js';

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

export function headerLines(p: HeaderProps): [Seg[], Seg[]] {
  const first: Seg[] = [];
  if (p.paused)
    first.push(
      { text: p.waiting > 0 ? ` PAUSED (${p.waiting} update${p.waiting === 1 ? '' : 's'} waiting) ` : ' PAUSED ', color: 'yellow', inverse: true, bold: true },
      { text: ' ' },
    );
  first.push(
    { text: 'rs-reconcile watch', bold: true },
    { text: '  context ', dim: true },
    { text: p.meta.context || '-' },
    { text: '  ', dim: true },
    { text: p.meta.scope },
    { text: '  mode ', dim: true },
    { text: p.meta.mode, color: MODE_COLOR[p.meta.mode], bold: true },
  );
  const second: Seg[] = [];
  if (!p.frame) {
    second.push({ text: 'waiting for the first snapshot…', dim: true });
    return [first, second];
  }
  const c = frameCounts(p.frame);
  second.push({ text: 'controllers ', dim: true }, { text: String(c.controllers), bold: true });
  if (p.filter !== '') second.push({ text: ` (${p.shown} shown)`, dim: true });
  second.push({ text: '  drifted ', dim: true }, { text: String(c.drifted), bold: true, color: c.drifted > 0 ? 'yellow' : 'green' });
  if (c.waiting > 0) second.push({ text: '  waiting ', dim: true }, { text: String(c.waiting), bold: true, color: 'cyan' });
  if (c.skipped > 0) second.push({ text: '  skipped ', dim: true }, { text: String(c.skipped), bold: true, color: 'red' });
  second.push({ text: '  pods ', dim: true }, { text: String(p.frame.pods), bold: true });
  if (p.meta.mode === 'snapshot') {
    second.push({ text: '  snapshot at ', dim: true }, { text: p.frame.plan.now });
  } else {
    second.push({ text: '  updated ', dim: true }, { text: clockTime(p.frame.at) }, { text: ` (${agoText(p.now - p.frame.at)})`, dim: true });
  }
  second.push({ text: '  sort ', dim: true }, { text: SORT_LABELS[p.sort] });
  return [first, second];
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
