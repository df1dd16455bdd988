// The controllers list, virtualised: only the rows in the window [top, top + rows) are built
// and rendered, whatever the number of controllers. Columns: drift marker, kind, name, desired /
// current / ready / available, adopt / release / create / delete, and a ready/desired bar.

import { Box } from 'ink';
import type { PlanController } from '../core/plan-types.js';
import { kindShort, truncateMiddle } from '../render/text.js';
import { Line, type Seg } from './line.js';
import { claimCounts, isDrifted, type PlanFrame } from './state.js';

export interface ControllerColumns {
  name: number;
  bar: number;
}

const NUM_WIDTH = 4;
const NUMERIC = ['DES', 'CUR', 'RDY', 'AVL', 'ADP', 'REL', 'CRT', 'DEL'] as const;
/** cursor + space + marker + space, kind + space, a space and a number per numeric column. */
const FIXED = 4 + 3 + NUMERIC.length * (NUM_WIDTH + 1);

export function controllerColumns(width: number): ControllerColumns {
  const bar = width >= 120 ? 20 : width >= 70 ? 10 : 0;
  const name = Math.max(8, width - FIXED - (bar > 0 ? bar + 1 : 0));
  return { name, bar };
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

export function controllerHeaderSegs(width: number): Seg[] {
  const cols = controllerColumns(width);
  const segs: Seg[] = [{ text: '    ' + 'K  ' + 'NAME'.padEnd(cols.name), bold: true }];
  for (const h of NUMERIC) segs.push({ text: ' ' + h.padStart(NUM_WIDTH), bold: true });
  if (cols.bar > 0) segs.push({ text: ' ' + (cols.bar >= 13 ? 'READY/DESIRED' : 'RDY/DES'), bold: true });
  return segs;
}

export function controllerRowSegs(c: PlanController, width: number, selected: boolean, showNamespace: boolean): Seg[] {
  const cols = controllerColumns(width);
  const drift = isDrifted(c);
  // ~: held back by its expectations (waiting for its own creates or deletes), not skipped for good
  const marker: Seg =
    c.skip?.reason === 'ExpectationsPending' ? { text: '~', color: 'cyan', bold: true }
    : c.skip !== null ? { text: '!', color: 'red', bold: true } : drift ? { text: '*', color: 'yellow', bold: true } : { text: ' ' };
  const { adopt, release } = claimCounts(c);
  const ready = c.status.readyReplicas;
  const desired = c.replicas.desired;
  const segs: Seg[] = [
    { text: selected ? '>' : ' ', bold: true },
    { text: ' ' },
    marker,
    { text: ' ' },
    { text: kindShort(c.kind).padEnd(3), dim: true },
    { text: truncateMiddle(controllerName(c, showNamespace), cols.name).padEnd(cols.name), bold: selected },
    num(desired),
    num(c.replicas.current),
    { ...num(ready), color: ready < desired ? 'yellow' : undefined },
    num(c.status.availableReplicas),
    num(adopt, 'cyan'),
    num(release, 'magenta'),
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
  const lines: { key: string; segs: Seg[]; inverse?: boolean }[] = [{ key: 'h', segs: controllerHeaderSegs(p.width) }];
  const room = Math.max(0, p.rows - 1);
  if (!p.frame) lines.push({ key: 'e', segs: [{ text: '    waiting for the first snapshot…', dim: true }] });
  else if (p.frame.plan.controllers.length === 0) lines.push({ key: 'e', segs: [{ text: '    No ReplicaSets or ReplicationControllers in scope.', dim: true }] });
  else if (p.order.length === 0) lines.push({ key: 'e', segs: [{ text: `    No controller matches "${p.filter}" (Esc clears the filter).`, dim: true }] });
  else {
    const end = Math.min(p.order.length, p.top + room);
    for (let i = p.top; i < end; i++) {
      const c = p.frame.plan.controllers[p.order[i]];
      lines.push({ key: `${c.kind}/${c.namespace}/${c.name}`, segs: controllerRowSegs(c, p.width, i === p.cursor, p.showNamespace), inverse: i === p.cursor });
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
