// `h`: the selected controller's last writes, explained as `history` explains them (who, the
// verb, the pod, the reason, whether the rules predict a controller write), in place of the log.

import { Box } from 'ink';
import { clockTime } from './Header.js';
import { truncate, truncateMiddle } from '../render/text.js';
import { fitTable, HISTORY_ORDER, type ColumnSpec } from './layout.js';
import { Line, titleSegs, type Seg } from './line.js';
import type { HistoryRow } from '../services/watch/contract.js';

/** "replicaset-controller" for kube-controller-manager's service accounts: the column is narrow. */
export function shortWho(who: string): string {
  const sa = /^system:serviceaccount:[^:]+:(.+)$/.exec(who);
  return sa ? sa[1] : who;
}

function predictedSegs(p: boolean | null): Seg {
  return p === null ? { text: '-', dim: true } : p ? { text: 'yes', color: 'green' } : { text: 'NO', color: 'red', bold: true };
}

/** The widths of the history's columns at `width` (HISTORY_ORDER), for these rows; a dropped column is absent. */
function historyColumns(rows: HistoryRow[], width: number): Map<string, number> {
  const longest = (texts: string[]) => Math.max(1, ...texts.map((t) => [...t].length));
  const columns: ColumnSpec[] = [
    { id: 'TIME', natural: 8 },
    { id: 'WHO', natural: Math.min(24, Math.max(4, longest(rows.map((r) => shortWho(r.who))))), cut: 8 },
    { id: 'VERB', natural: Math.max(6, longest(rows.map((r) => r.verb))) },
    { id: 'POD', natural: longest(rows.map((r) => r.pod ?? '-')), cut: 12 },
    { id: 'REASON', natural: longest(rows.map((r) => r.reason ?? '-')), cut: 8 },
    { id: 'PREDICTED', natural: 3 },
  ];
  return fitTable(columns, HISTORY_ORDER, width, { gap: 1, fixed: 0 }).widths;
}

function historyRowSegs(r: HistoryRow, cols: Map<string, number>): Seg[] {
  const cell = (id: string, text: string, middle = false) => {
    const w = cols.get(id) ?? 0;
    return (middle ? truncateMiddle(text, w) : truncate(text, w)).padEnd(w + 1);
  };
  const segs: Seg[] = [];
  if (cols.has('TIME')) segs.push({ text: cell('TIME', clockTime(r.at)), dim: true });
  segs.push(
    { text: cell('WHO', shortWho(r.who)), bold: r.controller },
    { text: cell('VERB', r.verb) },
    { text: cell('POD', r.pod ?? '-', true) },
    { text: cell('REASON', r.reason ?? '-'), color: r.reason ? 'cyan' : undefined },
    predictedSegs(r.predicted),
  );
  return segs;
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
  const cols = historyColumns(rows, p.width);
  // after a `w`, where the page went takes the place of the columns' names
  const extra: Seg[] = p.note
    ? [
        { text: ` ${p.title ?? 'no controller selected'} · `, dim: true },
        { text: p.note, color: 'cyan' },
        { text: ' · h: log', dim: true },
      ]
    : [
        { text: ` ${p.title ?? 'no controller selected'}`, dim: true },
        { text: ' · who verb pod reason predicted', dim: true },
        { text: ' · w: timeline page · h: log', dim: true },
      ];
  if (p.paused) extra.push({ text: ' (paused)', color: 'yellow' });
  return (
    <Box flexDirection="column" height={p.height}>
      <Line segs={titleSegs('History', p.width, extra)} width={p.width} />
      {rows.length === 0 ? <Line segs={[{ text: p.title ? 'no write seen since the watch started' : '', dim: true }]} width={p.width} /> : null}
      {rows.map((r, i) => (
        <Line key={`${p.total - rows.length + i}`} segs={historyRowSegs(r, cols)} width={p.width} />
      ))}
    </Box>
  );
}
