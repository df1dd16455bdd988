// Recent changes (informer adds, updates, deletes, scales), Events and controller actions: the
// newest lines of a ring buffer, newest at the bottom. An entry wider than the pane wraps at its
// words, under its text (not under the time).

import { Box } from 'ink';
import { clockTime } from './Header.js';
import { Line, titleSegs, wrapSegs, type Seg } from './line.js';
import type { LogEntry, LogLevel } from '../services/watch/contract.js';

const LEVEL_COLOR: Record<LogLevel, string | undefined> = { info: undefined, change: undefined, action: 'green', warn: 'yellow', error: 'red' };

function logLineSegs(e: LogEntry): Seg[] {
  return [
    { text: clockTime(e.at) + ' ', dim: true },
    { text: e.text, color: LEVEL_COLOR[e.level] },
  ];
}

/** Width of the time and its space, where a wrapped entry's next lines start. */
const TIME_WIDTH = 9;

/**
 * The lines of the newest entries that fit `room` lines of `width`, oldest first: whole entries,
 * wrapped at words; when even the newest does not fit, its first lines.
 */
export function logLines(entries: LogEntry[], room: number, width: number): Seg[][] {
  const out: Seg[][] = [];
  for (let i = entries.length - 1; i >= 0 && out.length < room; i--) {
    const lines = wrapSegs(logLineSegs(entries[i]), width, TIME_WIDTH);
    if (out.length + lines.length > room) {
      if (out.length === 0) out.push(...lines.slice(0, room));
      break;
    }
    out.unshift(...lines);
  }
  return out;
}

export interface LogPaneProps {
  /** The newest entries, oldest first (at most rows - 1 are shown). */
  entries: LogEntry[];
  total: number;
  rows: number;
  width: number;
  paused: boolean;
}

export function LogPane(p: LogPaneProps) {
  if (p.rows <= 0) return null;
  const room = p.rows - 1;
  const lines = logLines(p.entries, room, p.width);
  return (
    <Box flexDirection="column" height={p.rows}>
      <Line segs={titleSegs('Log', p.width, p.paused ? [{ text: ' (paused)', color: 'yellow' }] : [])} width={p.width} />
      {p.entries.length === 0 ? <Line segs={[{ text: 'no changes yet', dim: true }]} width={p.width} /> : null}
      {lines.map((segs, i) => (
        // keyed by the place from the bottom: the newest line is always the last
        <Line key={`${p.total}-${lines.length - i}`} segs={segs} width={p.width} />
      ))}
    </Box>
  );
}
