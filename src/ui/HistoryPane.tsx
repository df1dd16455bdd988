// `h`: the selected controller's last writes, explained as `history` explains them (who, the
// verb, the pod, the reason, whether the rules predict a controller write), in place of the log.

import { Box } from 'ink';
import { clockTime } from './Header.js';
import { Line, titleSegs, type Seg } from './line.js';
import type { HistoryRow } from './state.js';

const VERB_WIDTH = 8;

/** "replicaset-controller" for kube-controller-manager's service accounts: the column is narrow. */
export function shortWho(who: string): string {
  const sa = /^system:serviceaccount:[^:]+:(.+)$/.exec(who);
  return sa ? sa[1] : who;
}

export function predictedSegs(p: boolean | null): Seg {
  return p === null ? { text: '-', dim: true } : p ? { text: 'yes', color: 'green' } : { text: 'NO', color: 'red', bold: true };
}

export function historyRowSegs(r: HistoryRow, whoWidth: number): Seg[] {
  return [
    { text: clockTime(r.at) + ' ', dim: true },
    {
      text: shortWho(r.who)
        .slice(0, whoWidth)
        .padEnd(whoWidth + 1),
      bold: r.controller,
    },
    { text: r.verb.padEnd(VERB_WIDTH) },
    { text: (r.pod ?? '-') + ' ' },
    { text: (r.reason ?? '-') + ' ', color: r.reason ? 'cyan' : undefined },
    predictedSegs(r.predicted),
  ];
}

export interface HistoryPaneProps {
  /** The selected controller (`rs shop/web`), or null. */
  title: string | null;
  /** Its newest writes, oldest first (at most rows - 1 are shown). */
  rows: HistoryRow[];
  height: number;
  width: number;
  paused: boolean;
  /** Total rows received for it: keys the lines. */
  total: number;
  /** What the last `w` did: the timeline page's path. */
  note?: string | null;
}

export function HistoryPane(p: HistoryPaneProps) {
  if (p.height <= 0) return null;
  const room = p.height - 1;
  const rows = p.rows.slice(Math.max(0, p.rows.length - room));
  const whoWidth = Math.min(24, Math.max(4, ...rows.map((r) => shortWho(r.who).length)));
  // after a `w`, where the page went takes the place of the columns' names
  const extra: Seg[] = p.note
    ? [
        { text: ` ${p.title ?? 'no controller selected'} · `, dim: true },
        { text: p.note, color: 'cyan' },
        { text: ' · h: log', dim: true },
      ]
    : [{ text: ` ${p.title ?? 'no controller selected'} · who verb pod reason predicted · w: timeline page · h: log`, dim: true }];
  if (p.paused) extra.push({ text: ' (paused)', color: 'yellow' });
  return (
    <Box flexDirection="column" height={p.height}>
      <Line segs={titleSegs('History', p.width, extra)} width={p.width} />
      {rows.length === 0 ? <Line segs={[{ text: p.title ? 'no write seen since the watch started' : '', dim: true }]} width={p.width} /> : null}
      {rows.map((r, i) => (
        <Line key={`${p.total - rows.length + i}`} segs={historyRowSegs(r, whoWidth)} width={p.width} />
      ))}
    </Box>
  );
}
