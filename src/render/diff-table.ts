// `diff` views: one kubectl-like row per controller and a one-line summary. Every value comes
// from the plan; nothing here re-derives controller decisions.

import type { ChalkInstance } from 'chalk';
import type { Plan, PlanController, SkipReason } from '../core/plan-types.js';
import { type Cell, type Column, fitColumns, kindShort, plural, renderTable, sanitize, tableWidth } from './text.js';

export interface TableOptions {
  /** `-o wide`: adds READY, AVAILABLE, OBSERVED-GEN, BATCHES and FIRST-DELETE. */
  wide: boolean;
  /** `--no-headers`. */
  noHeaders: boolean;
  chalk: ChalkInstance;
  /**
   * Show the NAMESPACE column (default true). Like `kubectl get` without `-A`, a command may
   * leave it out when every controller is in the one namespace it asked for.
   */
  namespaceColumn?: boolean;
  /**
   * Terminal width: NAMESPACE, NAME, BATCHES, FIRST-DELETE and SYNC cells are truncated with "…"
   * (and the column gap narrowed to 2) to fit. The headers are never cut, so the table needs
   * about 90 columns with NAMESPACE and 80 without. Undefined: no limit (pipes, files).
   */
  width?: number;
  /**
   * The `status.observedGeneration` before the sync, when the caller knows it (the plan only
   * holds the written value). With it OBSERVED-GEN shows `3→4`; without it, the written value.
   */
  observedGenerationBefore?: (controller: PlanController) => number | null | undefined;
}

type Action = 'adopt' | 'release' | 'create' | 'delete';

function actionStyle(chalk: ChalkInstance, action: Action): (s: string) => string {
  switch (action) {
    case 'adopt':
      return chalk.cyan;
    case 'release':
      return chalk.yellow;
    case 'create':
      return chalk.green;
    case 'delete':
      return chalk.red;
  }
}

function countCell(chalk: ChalkInstance, n: number, action: Action): Cell {
  return n === 0 ? { text: '0', style: chalk.dim } : { text: String(n), style: actionStyle(chalk, action) };
}

export function actionCounts(c: PlanController): Record<Action, number> {
  let adopt = 0;
  let release = 0;
  for (const p of c.pods) {
    if (p.decision === 'adopt') adopt++;
    else if (p.decision === 'release') release++;
  }
  return { adopt, release, create: c.create.count, delete: c.delete.length };
}

/** `in sync`, `drift` or `skipped: <reason>`. */
export function syncLabel(c: PlanController): string {
  if (c.skip) return `skipped: ${c.skip.reason}`;
  return c.inSync ? 'in sync' : 'drift';
}

function syncCell(chalk: ChalkInstance, c: PlanController): Cell {
  const text = syncLabel(c);
  if (c.skip) return { text, style: chalk.bold.magenta };
  return c.inSync ? { text, style: chalk.green } : { text, style: chalk.bold.yellow };
}

function listWithMore(names: string[], shown: number): string {
  if (names.length === 0) return '-';
  const head = names.slice(0, shown).join(',');
  return names.length > shown ? `${head} +${names.length - shown} more` : head;
}

/**
 * The `diff` table: NAMESPACE, KIND (`rs`/`rc`), NAME, DESIRED, CURRENT, ADOPT, RELEASE,
 * CREATE, DELETE, STATUS (`update`/`-`), [wide: READY, AVAILABLE, OBSERVED-GEN, BATCHES,
 * FIRST-DELETE], SYNC (`in sync` / `drift` / `skipped: <reason>`). Empty string for a plan
 * without controllers when headers are off; the header line alone when they are on.
 */
export function renderDiffTable(plan: Plan, opts: TableOptions): string {
  const { chalk } = opts;
  const columns: Column[] = [
    { header: 'NAMESPACE', shrink: [16, 9, 6] },
    { header: 'KIND' },
    { header: 'NAME', shrink: [24, 10, 6], ellipsis: 'middle' },
    { header: 'DESIRED' },
    { header: 'CURRENT' },
    { header: 'ADOPT' },
    { header: 'RELEASE' },
    { header: 'CREATE' },
    { header: 'DELETE' },
    { header: 'STATUS' },
  ];
  if (opts.wide) {
    columns.push(
      { header: 'READY' },
      { header: 'AVAILABLE' },
      { header: 'OBSERVED-GEN' },
      { header: 'BATCHES', shrink: [16, 7] },
      { header: 'FIRST-DELETE', shrink: [24, 12] },
    );
  }
  columns.push({ header: 'SYNC', shrink: [24, 24, 24, 12] });

  const rows: Cell[][] = plan.controllers.map((c) => {
    const n = actionCounts(c);
    const row: Cell[] = [
      { text: c.namespace },
      { text: kindShort(c.kind) },
      { text: c.name, style: c.skip ? chalk.magenta : undefined },
      { text: String(c.replicas.desired) },
      {
        text: String(c.replicas.current),
        style: c.replicas.current !== c.replicas.desired ? chalk.bold : undefined,
      },
      countCell(chalk, n.adopt, 'adopt'),
      countCell(chalk, n.release, 'release'),
      countCell(chalk, n.create, 'create'),
      countCell(chalk, n.delete, 'delete'),
      c.statusChanged ? { text: 'update', style: chalk.blue } : { text: '-', style: chalk.dim },
    ];
    if (opts.wide) {
      const written = c.status.observedGeneration;
      const before = opts.observedGenerationBefore?.(c);
      let gen: Cell;
      if (before === undefined) gen = { text: String(written) };
      else if (before === written) gen = { text: String(written) };
      else gen = { text: `${before ?? '<unset>'}→${written}`, style: chalk.blue };
      row.push(
        { text: String(c.status.readyReplicas) },
        { text: String(c.status.availableReplicas) },
        gen,
        c.create.batches.length > 0
          ? { text: c.create.batches.join(','), style: chalk.green }
          : { text: '-', style: chalk.dim },
        c.delete.length > 0
          ? { text: listWithMore(c.delete.map((d) => d.name), 3), style: chalk.red }
          : { text: '-', style: chalk.dim },
      );
    }
    row.push(syncCell(chalk, c));
    return row;
  });

  if (opts.namespaceColumn === false) {
    columns.shift();
    for (const row of rows) row.shift();
  }
  // kubectl's three spaces between columns; two rather than cutting names down to a few letters.
  let gap = 3;
  if (opts.width !== undefined) {
    const plainRows = rows.map((row) => row.map((cell) => sanitize(cell.text)));
    const layout = { noHeaders: opts.noHeaders, width: opts.width, gap };
    if (tableWidth(fitColumns(columns, plainRows, layout, 1), layout) > opts.width) gap = 2;
  }
  return renderTable(columns, rows, { noHeaders: opts.noHeaders, width: opts.width, gap });
}

function skippedNote(plan: Plan): string {
  const byReason = new Map<SkipReason, number>();
  for (const c of plan.controllers) {
    if (c.skip) byReason.set(c.skip.reason, (byReason.get(c.skip.reason) ?? 0) + 1);
  }
  if (byReason.size === 0) return '';
  const total = [...byReason.values()].reduce((a, b) => a + b, 0);
  const parts = [...byReason.entries()].map(([reason, n]) => (byReason.size === 1 ? reason : `${n} ${reason}`));
  return `; ${total} skipped (${parts.join(', ')})`;
}

/**
 * `3 controllers: 1 in sync, 2 drifted — adopt 2, release 1, create 4, delete 0, status updates 2`
 * plus `; 1 skipped (InvalidSelector)` when some controller was skipped. From `plan.summary`.
 */
export function renderSummary(plan: Plan, chalk: ChalkInstance): string {
  const s = plan.summary;
  if (s.controllers === 0) return 'no controllers: nothing to reconcile\n';
  const drifted = s.controllers - s.inSync;
  const num = (n: number, style: (x: string) => string): string => (n === 0 ? String(n) : style(String(n)));
  const head =
    `${plural(s.controllers, 'controller')}: ` +
    `${num(s.inSync, chalk.green)} in sync, ${num(drifted, chalk.bold.yellow)} drifted`;
  const actions = [
    `adopt ${num(s.adopt, chalk.cyan)}`,
    `release ${num(s.release, chalk.yellow)}`,
    `create ${num(s.create, chalk.green)}`,
    `delete ${num(s.delete, chalk.red)}`,
    `${s.statusUpdates === 1 ? 'status update' : 'status updates'} ${num(s.statusUpdates, chalk.blue)}`,
  ].join(', ');
  const skipped = skippedNote(plan);
  return `${head} — ${actions}${skipped === '' ? '' : chalk.magenta(skipped)}\n`;
}
