// The controllers list, virtualised: only the rows in the window [top, top + rows) are built
// and rendered, whatever the number of controllers. Columns: drift marker, kind, name, desired /
// current / ready / available, adopt / release / create / delete, and a ready/desired bar. A row
// whose name is wider than the terminal leaves takes more than one line: names are never cut.

import { Box } from 'ink';
import type { PlanController } from '../core/plan-types.js';
import { kindShort } from '../render/text.js';
import { wrappedWindow } from './layout.js';
import { Line, wrapSegs, type Seg } from './line.js';
import { claimCounts, isDrifted, type PlanFrame } from './state.js';

export interface ControllerColumns {
  name: number;
  bar: number;
  /** ADP and REL: dropped when no controller of the frame adopts or releases and names need room. */
  claims: boolean;
}

/** What the columns are fitted to: the longest name of the frame, and whether any row claims pods. */
export interface ControllerFacts {
  longest: number;
  anyClaims: boolean;
}

const NUM_WIDTH = 4;
const NUMERIC = ['DES', 'CUR', 'RDY', 'AVL', 'ADP', 'REL', 'CRT', 'DEL'] as const;
const CLAIMS = new Set<string>(['ADP', 'REL']);

/**
 * Names are never cut (they are what people copy): the name column is as wide as the longest name.
 * When that does not fit, the low-value columns go first (the ready bar, then ADP/REL when all are
 * zero), and a row still too wide wraps, as kubectl's rows do in a terminal.
 */
export function controllerColumns(width: number, facts: ControllerFacts = { longest: 0, anyClaims: true }): ControllerColumns {
  const need = Math.max(8, facts.longest);
  let bar = width >= 120 ? 20 : width >= 70 ? 10 : 0;
  let claims = true;
  // cursor + space + marker + space, kind + space, then a space and a number per numeric column
  const room = () => width - 7 - (NUMERIC.length - (claims ? 0 : CLAIMS.size)) * (NUM_WIDTH + 1) - (bar > 0 ? bar + 1 : 0);
  if (room() < need) bar = 0;
  if (room() < need && !facts.anyClaims) claims = false;
  return { name: Math.max(need, room()), bar, claims };
}

const factsCache = new WeakMap<readonly PlanController[], Map<boolean, ControllerFacts>>();

/** The facts of a frame's controllers, once per frame (the plan's controllers array) and namespace mode. */
export function controllerFacts(controllers: readonly PlanController[], showNamespace: boolean): ControllerFacts {
  let byMode = factsCache.get(controllers);
  if (!byMode) factsCache.set(controllers, (byMode = new Map()));
  let f = byMode.get(showNamespace);
  if (!f) {
    f = { longest: 0, anyClaims: false };
    for (const c of controllers) {
      f.longest = Math.max(f.longest, [...controllerName(c, showNamespace)].length);
      const { adopt, release } = claimCounts(c);
      if (adopt > 0 || release > 0) f.anyClaims = true;
    }
    byMode.set(showNamespace, f);
  }
  return f;
}

/** A count in 4 columns: 12, 9999, 12k, 1.2M. */
export function compact(n: number): string {
  if (n < 10_000) return String(n);
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `███████░░░`: ready out of desired (full when nothing is desired and nothing is ready). */
export function readyBar(ready: number, desired: number, width: number): { filled: string; empty: string } {
  if (width <= 0) return { filled: '', empty: '' };
  const ratio = desired <= 0 ? 1 : Math.min(1, ready / desired);
  const n = Math.round(ratio * width);
  return { filled: '█'.repeat(n), empty: '░'.repeat(width - n) };
}

function num(n: number, color?: string): Seg {
  return { text: ' ' + compact(n).padStart(NUM_WIDTH), color: n > 0 ? color : undefined, dim: n === 0 && color !== undefined };
}

export function controllerName(c: PlanController, showNamespace: boolean): string {
  return showNamespace ? `${c.namespace}/${c.name}` : c.name;
}

export function controllerHeaderSegs(cols: ControllerColumns): Seg[] {
  const segs: Seg[] = [{ text: '    ' + 'K  ' + 'NAME'.padEnd(cols.name), bold: true }];
  for (const h of NUMERIC) if (cols.claims || !CLAIMS.has(h)) segs.push({ text: ' ' + h.padStart(NUM_WIDTH), bold: true });
  if (cols.bar > 0) segs.push({ text: ' ' + (cols.bar >= 13 ? 'READY/DESIRED' : 'RDY/DES'), bold: true });
  return segs;
}

export function controllerRowSegs(c: PlanController, cols: ControllerColumns, selected: boolean, showNamespace: boolean): Seg[] {
  const drift = isDrifted(c);
  // ~: held back by its expectations (waiting for its own creates or deletes), not skipped for good
  const marker: Seg =
    c.skip?.reason === 'ExpectationsPending'
      ? { text: '~', color: 'cyan', bold: true }
      : c.skip !== null
        ? { text: '!', color: 'red', bold: true }
        : drift
          ? { text: '*', color: 'yellow', bold: true }
          : { text: ' ' };
  const { adopt, release } = claimCounts(c);
  const ready = c.status.readyReplicas;
  const desired = c.replicas.desired;
  const segs: Seg[] = [
    { text: selected ? '>' : ' ', bold: true },
    { text: ' ' },
    marker,
    { text: ' ' },
    { text: kindShort(c.kind).padEnd(3), dim: true },
    { text: controllerName(c, showNamespace).padEnd(cols.name), bold: selected },
    num(desired),
    num(c.replicas.current),
    { ...num(ready), color: ready < desired ? 'yellow' : undefined },
    num(c.status.availableReplicas),
    ...(cols.claims ? [num(adopt, 'cyan'), num(release, 'magenta')] : []),
    num(c.create.count, 'green'),
    num(c.delete.length, 'red'),
  ];
  if (cols.bar > 0) {
    const bar = readyBar(ready, desired, cols.bar);
    segs.push({ text: ' ' }, { text: bar.filled, color: ready >= desired ? 'green' : 'yellow' }, { text: bar.empty, dim: true });
  }
  return segs;
}

export interface ControllersPaneProps {
  frame: PlanFrame | null;
  order: number[];
  top: number;
  cursor: number;
  /** Height of the pane: the column header plus rows - 1 controllers. */
  rows: number;
  width: number;
  showNamespace: boolean;
  filter: string;
}

export function ControllersPane(p: ControllersPaneProps) {
  const lines: { key: string; segs: Seg[]; inverse?: boolean }[] = [];
  const room = Math.max(0, p.rows - 1);
  const f = p.frame;
  const cols = controllerColumns(p.width, f ? controllerFacts(f.plan.controllers, p.showNamespace) : undefined);
  for (const [i, segs] of wrapSegs(controllerHeaderSegs(cols), p.width).entries()) lines.push({ key: `h${i}`, segs });
  if (!f) lines.push({ key: 'e', segs: [{ text: '    waiting for the first snapshot…', dim: true }] });
  else if (f.plan.controllers.length === 0) lines.push({ key: 'e', segs: [{ text: '    No ReplicaSets or ReplicationControllers in scope.', dim: true }] });
  else if (p.order.length === 0) lines.push({ key: 'e', segs: [{ text: `    No controller matches "${p.filter}" (Esc clears the filter).`, dim: true }] });
  else {
    const rowLines = new Map<number, Seg[][]>();
    const linesOf = (i: number) => {
      let l = rowLines.get(i);
      if (!l) rowLines.set(i, (l = wrapSegs(controllerRowSegs(f.plan.controllers[p.order[i]], cols, i === p.cursor, p.showNamespace), p.width)));
      return l;
    };
    const { start, end } = wrappedWindow(p.top, p.cursor, p.order.length, (i) => linesOf(i).length, room - (lines.length - 1));
    for (let i = start; i < end; i++) {
      const c = f.plan.controllers[p.order[i]];
      for (const [j, segs] of linesOf(i).entries()) lines.push({ key: `${c.kind}/${c.namespace}/${c.name}/${j}`, segs, inverse: i === p.cursor });
    }
  }
  return (
    <Box flexDirection="column" height={p.rows}>
      {lines.slice(0, p.rows).map((l) => (
        <Line key={l.key} segs={l.segs} width={p.width} inverse={l.inverse} />
      ))}
    </Box>
  );
}
