// explain's pods section: one row per candidate pod, with its claim decision, the facts the
// deletion ranking compares, and its place in the deletion order.

import type { ChalkInstance } from 'chalk';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import { INDENT, asIfTitle, decisionStyle, para } from './explain-text.js';
import { type Cell, type Column, humanDuration, naturalWidths, renderTable, sanitize, tableWidth, truncate, wrap } from './text.js';

/**
 * The DELETION-COST cell: `-` when the annotation is absent, the raw value when it is valid
 * (`-007 (= -7)` when it reads differently), `<raw> (invalid → 0)` when upstream ignores it.
 * Validity is read from the model: the effective cost must be what the raw text spells under
 * upstream's rule (an int32 in base 10 starting with `-`, `1`–`9`, or exactly `0`).
 */
export function formatDeletionCost(row: Pick<ExplainPodRow, 'deletionCost' | 'deletionCostAnnotation'>): string {
  const raw = row.deletionCostAnnotation;
  if (raw === null) return row.deletionCost === 0 ? '-' : String(row.deletionCost);
  const shown = truncate(sanitize(raw === '' ? '""' : raw), 12);
  const spelled = /^(0|-\d+|[1-9]\d*)$/.test(raw) ? Number.parseInt(raw, 10) : null;
  const valid = spelled !== null && spelled === row.deletionCost && spelled >= -2147483648 && spelled <= 2147483647;
  if (!valid) return `${shown} (invalid → 0)`;
  return String(row.deletionCost) === raw ? shown : `${shown} (= ${row.deletionCost})`;
}
/** `no`, `yes`, or `yes 3h` (ready for 3h) when the Ready transition time is known. */
function readyText(p: ExplainPodRow): string {
  if (!p.ready) return 'no';
  return p.readySeconds === null ? 'yes' : `yes ${humanDuration(p.readySeconds)}`;
}

/** `2`, or `2 (+1)` when sidecar init containers restarted too. */
function restartsText(p: ExplainPodRow): string {
  return p.sidecarRestarts > 0 ? `${p.restarts} (+${p.sidecarRestarts})` : String(p.restarts);
}

type PodColumn = 'NAME' | 'DECISION' | 'REASON' | 'NODE' | 'PHASE' | 'READY' | 'RESTARTS' | 'AGE' | 'DELETION-COST' | 'ORDER';

// Nothing in these tables is ever cut: names are what people copy, reasons what they read. A
// table too wide for one terminal line is split in two, and then left for the terminal to wrap.
const POD_COLUMNS_SINGLE: Column[] = [
  { header: 'NAME' },
  { header: 'DECISION' },
  { header: 'REASON' },
  { header: 'NODE' },
  { header: 'PHASE' },
  { header: 'READY' },
  { header: 'RESTARTS' },
  { header: 'AGE' },
  { header: 'DELETION-COST' },
  { header: 'ORDER' },
];

const POD_COLUMNS_DECISION: Column[] = [{ header: 'NAME' }, { header: 'DECISION' }, { header: 'REASON' }, { header: 'ORDER' }];

const POD_COLUMNS_FACTS: Column[] = [
  { header: 'NAME' },
  { header: 'NODE' },
  { header: 'PHASE' },
  { header: 'READY' },
  { header: 'RESTARTS' },
  { header: 'AGE' },
  { header: 'DELETION-COST' },
];

export function podsSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const out = [chalk.bold(`Pods (${model.pods.length})${asIfTitle(model)}`)];
  if (model.pods.length === 0) {
    out.push(
      ...para(
        model.selectorError !== null
          ? 'none listed: with an invalid selector no pod is considered'
          : 'none: no pod of the namespace matches the selector or names this controller as its controller owner',
        width,
        chalk.dim,
      ),
    );
    return out;
  }
  const cells = model.pods.map((p) => {
    const cost = formatDeletionCost(p);
    const victim = p.deleteIndex !== null;
    const cell: Record<PodColumn, Cell> = {
      NAME: { text: p.name, style: victim ? chalk.red : undefined },
      DECISION: { text: p.outcome, style: decisionStyle(chalk, p.outcome) },
      REASON: { text: p.reason, style: p.decision === 'ignore' ? chalk.dim : undefined },
      NODE: p.node === null ? { text: '<none>', style: chalk.dim } : { text: p.node },
      PHASE: p.phase === '' ? { text: '<none>', style: chalk.dim } : { text: p.phase },
      READY: { text: readyText(p), style: p.ready ? chalk.green : chalk.yellow },
      RESTARTS: { text: restartsText(p) },
      AGE: { text: humanDuration(p.ageSeconds) },
      'DELETION-COST': {
        text: cost,
        style: cost.includes('invalid') ? chalk.yellow : cost === '-' ? chalk.dim : undefined,
      },
      ORDER: victim ? { text: `#${(p.deleteIndex ?? 0) + 1}`, style: chalk.bold.red } : { text: '-', style: chalk.dim },
    };
    return cell;
  });
  const layout = { gap: 2, indent: INDENT.length };
  const table = (columns: Column[]): string[] =>
    renderTable(
      columns,
      cells.map((c) => columns.map((col) => c[col.header as PodColumn])),
      layout,
    )
      .trimEnd()
      .split('\n');

  // One table when it fits; otherwise the claim decision and the ranking facts as two tables.
  const single = POD_COLUMNS_SINGLE;
  const plain = cells.map((c) => single.map((col) => sanitize(c[col.header as PodColumn].text)));
  if (tableWidth(naturalWidths(single, plain), layout) <= width) {
    out.push(...table(single));
  } else {
    out.push(...table(POD_COLUMNS_DECISION), '', ...table(POD_COLUMNS_FACTS));
  }
  if (model.pods.some((p) => p.sidecarRestarts > 0)) {
    const legend = "RESTARTS (+n): n restarts of sidecar init containers, compared only when the containers' counts are equal";
    out.push(...para(legend, width, chalk.dim));
  }

  const explained = model.pods.filter((p) => p.decision !== 'keep');
  if (explained.length > 0) {
    out.push('');
    for (const p of explained) {
      const head = `${INDENT}${p.name} ${p.decision}: `;
      const lines = wrap(p.message, width, head, INDENT + '    ');
      const style = decisionStyle(chalk, p.decision) ?? ((s: string) => s);
      out.push(...lines.map((l, i) => (i === 0 ? INDENT + chalk.bold(p.name) + ' ' + style(p.decision + ':') + l.slice(head.length - 1) : l)));
    }
  }
  return out;
}
