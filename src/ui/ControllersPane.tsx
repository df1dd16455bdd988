// The controllers list, virtualised: only the rows in the window [top, top + rows) are built
// and rendered, whatever the number of controllers. The Deployments in scope come first, each with
// its ReplicaSets under it (deployment-rows.ts). Columns: drift marker, kind, name, desired /
// current / ready / available, adopt / release / create / delete, and a ready/desired bar. A row
// is one line at every width: the columns give way in the layout's order (LIST_ORDER).

import { Box } from 'ink';
import type { PlanController } from '../core/plan-types.js';
import { kindShort, truncate } from '../render/text.js';
import { fitTable, LIST_ORDER, scrollTo, type ColumnSpec } from './layout.js';
import { deploymentReplicaSetRowSegs, deploymentRowSegs } from './deployment-rows.js';
import { Line, type Seg } from './line.js';
import { rowKey, type ListRow } from './list-rows.js';
import { claimCounts, isDrifted } from './state.js';
import type { PlanFrame } from '../services/watch/contract.js';

export interface ControllerColumns {
  name: number;
  /** Width of each numeric column shown, in NUMERIC's order (a dropped one is absent). */
  numbers: Map<string, number>;
  bar: number;
}

/** What the columns are fitted to: the longest name of the frame, the widest count, whether any row claims pods. */
export interface ControllerFacts {
  longest: number;
  anyClaims: boolean;
  /** The widest count of the frame, as drawn (12, 9999, 12k). */
  widestCount: number;
}

const NUM_WIDTH = 4;
const NUMERIC = ['DES', 'CUR', 'RDY', 'AVL', 'ADP', 'REL', 'CRT', 'DEL'] as const;
/** Cursor, space, marker, space, and the kind with its space. */
const LEAD = 7;
/** The shortest a name is cut to (with "…") before anything else is given up. */
const NAME_FLOOR = 12;

/**
 * The columns at `width`: the name column as wide as the longest name, the counts 4 wide and a
 * 20-character bar; what does not fit gives way in LIST_ORDER, and the name takes what is left.
 */
export function controllerColumns(width: number, facts: ControllerFacts = { longest: 0, anyClaims: true, widestCount: NUM_WIDTH }): ControllerColumns {
  const columns: ColumnSpec[] = [
    { id: 'NAME', natural: Math.max(4, facts.longest), cut: NAME_FLOOR },
    ...NUMERIC.map((id) => ({ id, natural: NUM_WIDTH, narrow: Math.max(3, facts.widestCount), empty: (id === 'ADP' || id === 'REL') && !facts.anyClaims })),
    { id: 'BAR', natural: 20, narrow: 10 },
  ];
  // the name is the first column after the lead: a space before each other column
  const fit = fitTable(columns, LIST_ORDER, width, { gap: 1, fixed: LEAD });
  const numbers = new Map(NUMERIC.filter((id) => fit.widths.has(id)).map((id) => [id, fit.widths.get(id) ?? NUM_WIDTH]));
  const bar = fit.widths.get('BAR') ?? 0;
  const used = LEAD + [...numbers.values()].reduce((n, w) => n + w + 1, 0) + (bar > 0 ? bar + 1 : 0);
  // the name takes what is left: its whole width when it fits, what the cut left it otherwise
  return { name: Math.max(1, width - used), numbers, bar };
}

const factsCache = new WeakMap<readonly PlanController[], Map<boolean, ControllerFacts>>();

/** The facts of a frame's controllers, once per frame (the plan's controllers array) and namespace mode. */
function controllerFacts(controllers: readonly PlanController[], showNamespace: boolean): ControllerFacts {
  let byMode = factsCache.get(controllers);
  if (!byMode) factsCache.set(controllers, (byMode = new Map()));
  let f = byMode.get(showNamespace);
  if (!f) {
    f = { longest: 0, anyClaims: false, widestCount: 1 };
    for (const c of controllers) {
      f.longest = Math.max(f.longest, [...controllerName(c, showNamespace)].length);
      const { adopt, release } = claimCounts(c);
      if (adopt > 0 || release > 0) f.anyClaims = true;
      for (const n of [
        c.replicas.desired,
        c.replicas.current,
        c.status.readyReplicas,
        c.status.availableReplicas,
        adopt,
        release,
        c.create.count,
        c.delete.length,
      ])
        f.widestCount = Math.max(f.widestCount, compact(n).length);
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

function num(n: number, w: number, color?: string): Seg {
  return { text: ' ' + compact(n).padStart(w), color: n > 0 ? color : undefined, dim: n === 0 && color !== undefined };
}

function controllerName(c: PlanController, showNamespace: boolean): string {
  return showNamespace ? `${c.namespace}/${c.name}` : c.name;
}

function controllerHeaderSegs(cols: ControllerColumns): Seg[] {
  const segs: Seg[] = [{ text: '    ' + 'K  ' + 'NAME'.padEnd(cols.name), bold: true }];
  for (const [h, w] of cols.numbers) segs.push({ text: ' ' + h.padStart(w), bold: true });
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
  const w = (id: string) => cols.numbers.get(id) ?? NUM_WIDTH;
  const segs: Seg[] = [
    { text: selected ? '>' : ' ', bold: true },
    { text: ' ' },
    marker,
    { text: ' ' },
    { text: kindShort(c.kind).padEnd(3), dim: true },
    { text: truncate(controllerName(c, showNamespace), cols.name).padEnd(cols.name), bold: selected },
  ];
  const count: Record<(typeof NUMERIC)[number], [number, string | undefined]> = {
    DES: [desired, undefined],
    CUR: [c.replicas.current, undefined],
    RDY: [ready, undefined],
    AVL: [c.status.availableReplicas, undefined],
    ADP: [adopt, 'cyan'],
    REL: [release, 'magenta'],
    CRT: [c.create.count, 'green'],
    DEL: [c.delete.length, 'red'],
  };
  for (const id of NUMERIC) {
    if (!cols.numbers.has(id)) continue;
    const cell = num(count[id][0], w(id), count[id][1]);
    segs.push(id === 'RDY' ? { ...cell, color: ready < desired ? 'yellow' : undefined } : cell);
  }
  if (cols.bar > 0) {
    const bar = readyBar(ready, desired, cols.bar);
    segs.push({ text: ' ' }, { text: bar.filled, color: ready >= desired ? 'green' : 'yellow' }, { text: bar.empty, dim: true });
  }
  return segs;
}

export interface ControllersPaneProps {
  frame: PlanFrame | null;
  /** The list's rows (state.ts), the cursor an index there. */
  rows: ListRow[];
  top: number;
  cursor: number;
  /** Height of the pane: the column header plus rows - 1 controllers. */
  height: number;
  width: number;
  showNamespace: boolean;
  filter: string;
}

/** One row's segments: a controller's in the table's columns, a Deployment's or one of its ReplicaSets' in their own. */
function rowSegs(f: PlanFrame, row: ListRow, cols: ControllerColumns, selected: boolean, p: ControllersPaneProps): Seg[] {
  if (row.type === 'controller') return controllerRowSegs(f.plan.controllers[row.index], cols, selected, p.showNamespace);
  const v = f.deployments?.[row.type === 'deployment' ? row.index : row.deployment];
  if (!v) return [];
  return row.type === 'deployment' ? deploymentRowSegs(v, p.width, selected, p.showNamespace) : deploymentReplicaSetRowSegs(v, row.index, p.width, selected);
}

export function ControllersPane(p: ControllersPaneProps) {
  const lines: { key: string; segs: Seg[]; inverse?: boolean }[] = [];
  const room = Math.max(0, p.height - 1);
  const f = p.frame;
  const cols = controllerColumns(p.width, f ? controllerFacts(f.plan.controllers, p.showNamespace) : undefined);
  lines.push({ key: 'h', segs: controllerHeaderSegs(cols) });
  if (!f) lines.push({ key: 'e', segs: [{ text: '    waiting for the first snapshot…', dim: true }] });
  else if (f.plan.controllers.length === 0 && !f.deployments?.length)
    lines.push({ key: 'e', segs: [{ text: '    No Deployments, ReplicaSets or ReplicationControllers in scope.', dim: true }] });
  else if (p.rows.length === 0) lines.push({ key: 'e', segs: [{ text: `    No controller matches "${p.filter}" (Esc clears the filter).`, dim: true }] });
  else {
    const start = scrollTo(p.top, p.cursor, room, p.rows.length);
    for (let i = start; i < Math.min(p.rows.length, start + room); i++) {
      const row = p.rows[i];
      lines.push({ key: `${row.type}:${rowKey(f, row)}`, segs: rowSegs(f, row, cols, i === p.cursor, p), inverse: i === p.cursor });
    }
  }
  return (
    <Box flexDirection="column" height={p.height}>
      {lines.slice(0, p.height).map((l) => (
        <Line key={l.key} segs={l.segs} width={p.width} inverse={l.inverse} />
      ))}
    </Box>
  );
}
