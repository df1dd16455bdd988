// `diff` views: one kubectl-like row per controller and a one-line summary. Every value comes
// from the plan; nothing here re-derives controller decisions.

import type { ChalkInstance } from 'chalk';
import { whatIfFlags } from '../core/plan.js';
import { metaNamespaceKey } from '../core/object-key.js';
import type { Plan, PlanController, SkipReason } from '../core/plan-types.js';
import { type Cell, type Column, kindShort, naturalWidths, plural, renderTable, sanitize, tableWidth } from './text.js';

export interface TableOptions {
  /** `-o wide`: adds READY, AVAILABLE, OBSERVED-GEN, BATCHES and FIRST-DELETE. */
  wide: boolean;
  /** `--no-headers`. */
  noHeaders: boolean;
  chalk: ChalkInstance;
  /**
   * Show the NAMESPACE column (default true). Commands follow kubectl get's rule: only with `-A`
   * (namespaceColumnShown).
   */
  namespaceColumn?: boolean;
  /**
   * Terminal width. Nothing is ever cut (names are what people copy, reasons what they read):
   * to fit, ADOPT and RELEASE columns that are all zero are left out, then the column gap is
   * narrowed to 2; a table still too wide is printed whole and the terminal wraps it, as
   * kubectl's are. Undefined: no limit (pipes, files).
   */
  width?: number;
  /**
   * The `status.observedGeneration` before the sync, when the caller knows it (the plan only
   * holds the written value). With it OBSERVED-GEN shows `3→4`; without it, the written value.
   */
  observedGenerationBefore?: (controller: PlanController) => number | null | undefined;
}

/** kubectl get's rule for the NAMESPACE column: shown with `-A` (all namespaces), never otherwise. */
export function namespaceColumnShown(allNamespaces: boolean): boolean {
  return allNamespaces;
}

/**
 * What kubectl get prints on stderr when nothing is found: `No resources found` with `-A`,
 * `No resources found in shop namespace.` in one namespace. A snapshot read without `-n` has no
 * namespace to name: `No resources found in the snapshot.`
 */
export function noResourcesFound(scope: { allNamespaces: boolean; namespace: string | null; snapshot: boolean }): string {
  if (scope.allNamespaces) return 'No resources found\n';
  if (scope.namespace !== null) return `No resources found in ${scope.namespace} namespace.\n`;
  return scope.snapshot ? 'No resources found in the snapshot.\n' : 'No resources found\n';
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

function actionCounts(c: PlanController): Record<Action, number> {
  let adopt = 0;
  let release = 0;
  for (const p of c.pods) {
    if (p.decision === 'adopt') adopt++;
    else if (p.decision === 'release') release++;
  }
  return { adopt, release, create: c.create.count, delete: c.delete.length };
}

/** `in sync`, `drift` or `skipped: <reason>`. */
function syncLabel(c: PlanController): string {
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

/** `rs/api-canary,rc/db`: the controllers whose selectors overlap this one's, from its warnings. */
function overlapsOf(c: PlanController): string[] {
  const out: string[] = [];
  for (const w of c.warnings) if (w.code === 'OverlappingSelectors' && w.controller) out.push(`${kindShort(w.controller.kind)}/${w.controller.name}`);
  return out;
}

/**
 * The `diff` table: NAMESPACE, KIND (`rs`/`rc`), NAME, DESIRED, CURRENT, ADOPT, RELEASE,
 * CREATE, DELETE, STATUS (`update`/`-`), [wide: READY, AVAILABLE, OBSERVED-GEN, BATCHES,
 * FIRST-DELETE], [OVERLAPS, when a selector overlaps another], SYNC (`in sync` / `drift` /
 * `skipped: <reason>`). DESIRED reads `1 (as if)` under --replicas. Empty string for a plan
 * without controllers when headers are off; the header line alone when they are on.
 */
export function renderDiffTable(plan: Plan, opts: TableOptions): string {
  const { chalk } = opts;
  const columns: Column[] = [
    { header: 'NAMESPACE' },
    { header: 'KIND' },
    { header: 'NAME' },
    { header: 'DESIRED' },
    { header: 'CURRENT' },
    { header: 'ADOPT' },
    { header: 'RELEASE' },
    { header: 'CREATE' },
    { header: 'DELETE' },
    { header: 'STATUS' },
  ];
  if (opts.wide) columns.push({ header: 'READY' }, { header: 'AVAILABLE' }, { header: 'OBSERVED-GEN' }, { header: 'BATCHES' }, { header: 'FIRST-DELETE' });
  // "are they fighting?" on the row itself, not only in -o json and on stderr
  const overlapping = plan.controllers.some((c) => overlapsOf(c).length > 0);
  if (overlapping) columns.push({ header: 'OVERLAPS' });
  columns.push({ header: 'SYNC' });
  const asIf = plan.whatIf?.replicas !== undefined;

  const rows: Cell[][] = plan.controllers.map((c) => {
    const n = actionCounts(c);
    const row: Cell[] = [
      { text: c.namespace },
      { text: kindShort(c.kind) },
      { text: c.name, style: c.skip ? chalk.magenta : undefined },
      asIf ? { text: `${c.replicas.desired} (as if)`, style: chalk.italic } : { text: String(c.replicas.desired) },
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
    if (opts.wide) row.push(...wideCells(c, opts));
    if (overlapping) {
      const others = overlapsOf(c);
      row.push(others.length ? { text: others.join(','), style: chalk.bold.yellow } : { text: '-', style: chalk.dim });
    }
    row.push(syncCell(chalk, c));
    return row;
  });

  if (opts.namespaceColumn === false) dropColumn(columns, rows, 'NAMESPACE');
  // kubectl's three spaces between columns; to fit a terminal, first leave out ADOPT and RELEASE
  // when they say nothing (all zero), then two spaces; never a cut name: the terminal wraps.
  let gap = 3;
  const fits = () =>
    opts.width === undefined ||
    tableWidth(
      naturalWidths(
        columns,
        rows.map((r) => r.map((x) => sanitize(x.text))),
        opts.noHeaders,
      ),
      { gap },
    ) <= opts.width;
  for (const action of ['release', 'adopt'] as const) {
    if (fits()) break;
    if (plan.controllers.every((c) => actionCounts(c)[action] === 0)) dropColumn(columns, rows, action.toUpperCase());
  }
  if (!fits()) gap = 2;
  return renderTable(columns, rows, { noHeaders: opts.noHeaders, gap });
}

/** -o wide: READY, AVAILABLE, OBSERVED-GEN, BATCHES, FIRST-DELETE. */
function wideCells(c: PlanController, opts: TableOptions): Cell[] {
  const { chalk } = opts;
  const written = c.status.observedGeneration;
  const before = opts.observedGenerationBefore?.(c);
  let gen: Cell;
  if (before === undefined || before === written) gen = { text: String(written) };
  else gen = { text: `${before ?? '<unset>'}→${written}`, style: chalk.blue };
  return [
    { text: String(c.status.readyReplicas) },
    { text: String(c.status.availableReplicas) },
    gen,
    c.create.batches.length > 0 ? { text: c.create.batches.join(','), style: chalk.green } : { text: '-', style: chalk.dim },
    c.delete.length > 0
      ? {
          text: listWithMore(
            c.delete.map((d) => d.name),
            3,
          ),
          style: chalk.red,
        }
      : { text: '-', style: chalk.dim },
  ];
}

function dropColumn(columns: Column[], rows: Cell[][], header: string): void {
  const i = columns.findIndex((c) => c.header === header);
  if (i < 0) return;
  columns.splice(i, 1);
  for (const row of rows) row.splice(i, 1);
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

/** The orphans two or more controllers of the plan would adopt (the planner's ContestedAdoption warnings). */
function contestedPods(plan: Plan): number {
  const pods = new Set<string>();
  for (const c of plan.controllers) {
    for (const w of c.warnings) if (w.code === 'ContestedAdoption') for (const p of w.pods ?? []) pods.add(metaNamespaceKey(c.namespace, p));
  }
  return pods.size;
}

/**
 * `3 controllers: 1 in sync, 2 drifted — adopt 2, release 1, create 4, delete 0, status updates 2`
 * plus `; 1 skipped (InvalidSelector)` when some controller was skipped. From `plan.summary`:
 * adopt and release count pods, so an orphan two controllers want is one (and says so). A
 * skipped controller that is not in sync is counted as skipped, not as drifted; under a what-if
 * the line starts `as if --replicas 1:`.
 */
export function renderSummary(plan: Plan, chalk: ChalkInstance): string {
  const s = plan.summary;
  if (s.controllers === 0) return 'no controllers: nothing to reconcile\n';
  const skippedOut = plan.controllers.filter((c) => c.skip && !c.inSync).length;
  const drifted = s.controllers - s.inSync - skippedOut;
  const num = (n: number, style: (x: string) => string): string => (n === 0 ? String(n) : style(String(n)));
  const asIf = plan.whatIf ? chalk.italic(`as if ${whatIfFlags(plan.whatIf)}: `) : '';
  const head = `${asIf}${plural(s.controllers, 'controller')}: ` + `${num(s.inSync, chalk.green)} in sync, ${num(drifted, chalk.bold.yellow)} drifted`;
  const contested = contestedPods(plan);
  const contestNote =
    contested === 0 ? '' : ` (${contested === 1 ? '1 of them is' : `${contested} of them are`} wanted by more than one controller: counted once)`;
  const actions = [
    `adopt ${num(s.adopt, chalk.cyan)}${contestNote}`,
    `release ${num(s.release, chalk.yellow)}`,
    `create ${num(s.create, chalk.green)}`,
    `delete ${num(s.delete, chalk.red)}`,
    `${s.statusUpdates === 1 ? 'status update' : 'status updates'} ${num(s.statusUpdates, chalk.blue)}`,
  ].join(', ');
  const skipped = skippedNote(plan);
  return `${head} — ${actions}${skipped === '' ? '' : chalk.magenta(skipped)}\n`;
}

/**
 * One kubectl-style `Warning:` line per pair of controllers whose selectors overlap, for stderr
 * (`-o json` carries the same as warnings on each controller): the pods they share, and the
 * orphans both would adopt. Empty string when no selector overlaps.
 */
export function renderOverlapWarnings(plan: Plan, chalk: ChalkInstance): string {
  const seen = new Set<string>();
  let out = '';
  for (const c of plan.controllers) {
    for (const w of c.warnings) {
      if (w.code !== 'OverlappingSelectors' || !w.controller) continue;
      const self = `${c.kind} ${c.namespace}/${c.name}`;
      const other = `${w.controller.kind} ${c.namespace}/${w.controller.name}`;
      const key = [self, other].sort().join('\0');
      if (seen.has(key)) continue;
      seen.add(key);
      const pods = w.pods ?? [];
      const contest = c.warnings.find(
        (x) => x.code === 'ContestedAdoption' && x.controller?.kind === w.controller!.kind && x.controller.name === w.controller!.name,
      );
      const fight = contest?.pods?.length
        ? `; both would adopt the orphan${contest.pods.length === 1 ? '' : 's'} ${contest.pods.join(', ')}: only the first to patch ${contest.pods.length === 1 ? 'it' : 'each'} adopts it, the other's sync fails and is retried`
        : '';
      out +=
        chalk.bold.yellow('Warning:') +
        ' ' +
        sanitize(
          `${self} and ${other} select the same ${plural(pods.length, 'pod')} (${pods.join(', ')}): overlapping selectors are a user error upstream, and the controllers may fight over them${fight}`,
        ) +
        '\n';
    }
  }
  return out;
}
