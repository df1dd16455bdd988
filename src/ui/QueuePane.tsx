// Reconcile mode: the controller's workqueues (depth, in flight, retries, adds), the
// expectations still pending per controller, and the latest actions it took.

import { Box } from 'ink';
import { humanDuration, kindShort } from '../render/text.js';
import { logLines } from './LogPane.js';
import { Line, titleSegs, wrapSegs, type Seg } from './line.js';
import type { LogEntry, QueueInfo } from '../services/watch/contract.js';

const SHORT_QUEUE: Record<string, string> = { replicaset: 'rs', replicationmanager: 'rc' };

/** One line for the queues; below 100 columns with short names and without the adds. */
function queueSegs(q: QueueInfo | null, width = 100): Seg[] {
  if (!q || q.queues.length === 0) return [{ text: 'workqueue: starting…', dim: true }];
  const wide = width >= 100;
  const segs: Seg[] = [];
  q.queues.forEach((x, i) => {
    if (i > 0) segs.push({ text: '   ' });
    segs.push(
      { text: wide ? x.name : (SHORT_QUEUE[x.name] ?? x.name), bold: true },
      { text: ' depth ', dim: true },
      { text: String(x.depth), color: x.depth > 0 ? 'yellow' : undefined },
      { text: ' in flight ', dim: true },
      { text: String(x.inFlight) },
      { text: ' retries ', dim: true },
      { text: String(x.retries), color: x.retries > 0 ? 'red' : undefined },
    );
    if (wide) segs.push({ text: ' adds ', dim: true }, { text: String(x.adds) });
  });
  return segs;
}

function expectationSegs(q: QueueInfo | null): Seg[] {
  const pending = q?.expectations ?? [];
  if (pending.length === 0) return [{ text: 'expectations: none pending', dim: true }];
  const segs: Seg[] = [{ text: `expectations pending (${pending.length}):`, bold: true }];
  for (const e of pending) {
    segs.push({ text: ` ${kindShort(e.kind)}/${e.key}`, color: 'yellow' }, { text: ` +${e.add}/-${e.del} (${humanDuration(e.ageMs / 1000)})`, dim: true });
  }
  return segs;
}

export interface QueuePaneProps {
  queue: QueueInfo | null;
  /** Newest actions, oldest first. */
  actions: LogEntry[];
  rows: number;
  width: number;
}

export function QueuePane(p: QueuePaneProps) {
  if (p.rows <= 0) return null;
  // the queues and the expectations wrap at their words; the actions below take what is left
  const lines: Seg[][] = [
    titleSegs('Controller', p.width),
    ...wrapSegs(queueSegs(p.queue, p.width), p.width, 2),
    ...wrapSegs(expectationSegs(p.queue), p.width, 2),
  ];
  const room = p.rows - lines.length;
  if (room > 0) {
    if (p.actions.length === 0) lines.push([{ text: 'no actions yet', dim: true }]);
    else lines.push(...logLines(p.actions, room, p.width));
  }
  return (
    <Box flexDirection="column" height={p.rows}>
      {lines.slice(0, p.rows).map((segs, i) => (
        <Line key={i} segs={segs} width={p.width} />
      ))}
    </Box>
  );
}
