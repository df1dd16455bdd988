// `?`: the keys and what the columns mean, in place of the main pane.

import { Box } from 'ink';
import { Line, titleSegs, wrapSegs, type Seg } from './line.js';

export const HELP_LINES: [string, string][] = [
  ['↑ ↓  j k', 'move (in the detail view: the pod cursor)'],
  ['PgUp PgDn  g G', 'page, first, last'],
  ['Enter', "open the selected controller: its pods, the deletion order and why; a Deployment: its strategy's arithmetic, its ReplicaSets and the next step"],
  ['Esc', 'back to the list; in the list: clear the filter'],
  ['/', 'filter by namespace/name substring (Enter keeps it, Esc clears it)'],
  ['s', 'cycle the sort: name, drift first, desired'],
  ['p', 'pause: freeze the screen (updates are kept and shown on resume)'],
  ['h', "history in place of the log: the selected controller's last writes, who made them, and whether the rules predict the controller's"],
  ['w', "in the history pane: write the selected controller's kept writes as a timeline page (history -o html) to the current directory, and say its path"],
  ['?', 'this help (Esc or ? closes it)'],
  ['q  Ctrl-C', 'quit'],
  ['', ''],
  ['* ~ !', 'drifted (the controller would act or write status); waiting for its own creates or deletes; skipped (e.g. invalid selector)'],
  ['DES CUR', 'desired replicas; pods the controller owns after claiming'],
  ['RDY AVL', 'ready and available replicas (the status it would write)'],
  ['ADP REL', 'pods it would adopt / release'],
  ['CRT DEL', 'pods it would create / delete in this sync'],
  ['bar', 'ready out of desired'],
  ['deploy/NAME', "a Deployment: updated out of desired, available, the strategy and the deployment controller's next step"],
  [
    '├ └ rows',
    'under it, its ReplicaSets (NAME 3/3 → 2): current / desired replicas, then what the next sync sets; revision, new or old, ready, available, image',
  ],
];

/** The help's lines at `width`: each key, then what it does wrapped at words under itself. */
export function helpLines(width: number): Seg[][] {
  // the sentences start after the indent, the key and two spaces; below 60 columns the keys take
  // less room (a longer key then ends in one space): the sentences need it more
  const longest = Math.max(...HELP_LINES.map(([k]) => k.length));
  const keyRoom = width >= 60 ? longest + 2 : Math.min(longest + 2, Math.max(6, Math.floor(width / 4)));
  const lines: Seg[][] = [titleSegs('Help', width, [{ text: ' (Esc or ? to close)', dim: true }])];
  for (const [k, v] of HELP_LINES) {
    const key = k.length + 2 <= keyRoom ? k.padEnd(keyRoom) : `${k} `;
    lines.push(...wrapSegs([{ text: '  ' + key, bold: true }, { text: v }], width, 2 + keyRoom));
  }
  return lines;
}

export function HelpOverlay({ rows, width }: { rows: number; width: number }) {
  const lines = helpLines(width);
  return (
    <Box flexDirection="column" height={rows}>
      {lines.slice(0, rows).map((segs, i) => (
        <Line key={i} segs={segs} width={width} />
      ))}
    </Box>
  );
}
