// Recent changes (informer adds, updates, deletes, scales), Events and controller actions: the
// newest lines of a ring buffer, newest at the bottom.

import { Box } from 'ink';
import { clockTime } from './Header.js';
import { Line, titleSegs, type Seg } from './line.js';
import type { LogEntry, LogLevel } from './state.js';

const LEVEL_COLOR: Record<LogLevel, string | undefined> = { info: undefined, change: undefined, action: 'green', warn: 'yellow', error: 'red' };

export function logLineSegs(e: LogEntry): Seg[] {
  return [
    { text: clockTime(e.at) + ' ', dim: true },
    { text: e.text, color: LEVEL_COLOR[e.level] },
  ];
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
  const entries = p.entries.slice(Math.max(0, p.entries.length - room));
  return (
    <Box flexDirection="column" height={p.rows}>
      <Line segs={titleSegs('Log', p.width, p.paused ? [{ text: ' (paused)', color: 'yellow' }] : [])} width={p.width} />
      {entries.length === 0 ? <Line segs={[{ text: 'no changes yet', dim: true }]} width={p.width} /> : null}
      {entries.map((e, i) => (
        <Line key={`${p.total - entries.length + i}`} segs={logLineSegs(e)} width={p.width} />
      ))}
    </Box>
  );
}
