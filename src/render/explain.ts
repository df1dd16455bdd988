// `explain`: the story of one controller, for a terminal. Every fact comes from the
// ExplainModel (the plan entry plus the per-pod facts the planner looked at); this file only
// lays it out: a header, the pods, the deletion order, the creation batches, the status before
// and after, warnings and the skip explanation.

import type { ChalkInstance } from 'chalk';
import { type DeploymentTree, type DeploymentTreeReplicaSet, REVISION_ANNOTATION } from '../core/explain-deployment.js';
import type { ExplainModel, ExplainPodRow } from '../core/explain-types.js';
import { whatIfFlags } from '../core/plan.js';
import type { Plan, PlanController, PlanWarning, WhatIf } from '../core/plan-types.js';
import {
  type Cell,
  type Column,
  humanDuration,
  naturalWidths,
  plural,
  renderTable,
  sanitize,
  sanitizeDeep,
  shortSeconds,
  statusPath,
  tableWidth,
  truncate,
  visibleLength,
  wrap,
} from './text.js';

export interface ExplainOptions {
  chalk: ChalkInstance;
  /** Terminal width; defaults to 100, never less than 80. */
  width?: number;
}

export const DEFAULT_WIDTH = 100;
export const MIN_WIDTH = 80;

const INDENT = '  ';
const LABEL_WIDTH = 20;

function effectiveWidth(width: number | undefined): number {
  if (width === undefined || !Number.isFinite(width)) return DEFAULT_WIDTH;
  return Math.max(MIN_WIDTH, Math.floor(width));
}

function title(model: { kind: string; namespace: string; name: string }): string {
  return `${model.kind} ${model.namespace}/${model.name}`;
}

function labelsText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}

/** Indented, wrapped paragraph; `style` colours every produced line. */
function para(text: string, width: number, style?: (s: string) => string, indent = INDENT): string[] {
  return wrap(text, width, indent, indent).map((l) => (style ? indent + style(l.slice(indent.length)) : l));
}

/** `Label:   value` with the value wrapped under itself. */
function field(label: string, value: string, width: number, chalk: ChalkInstance, style?: (s: string) => string): string[] {
  const head = INDENT + `${label}:`.padEnd(LABEL_WIDTH);
  const lines = wrap(value, width, head, ' '.repeat(head.length));
  return lines.map((l, i) => {
    const prefixLen = head.length;
    const prefix = l.slice(0, prefixLen);
    const body = l.slice(prefixLen);
    return (i === 0 ? INDENT + chalk.bold(prefix.slice(INDENT.length)) : prefix) + (style ? style(body) : body);
  });
}

// ---------------------------------------------------------------------------------------------
// What-ifs: every line they change says "as if"

/** `scaled to 1`, `at 2026-01-01T00:00:00Z`, or both: what the what-ifs pretend. */
function asIfWords(w: WhatIf): string {
  const parts: string[] = [];
  if (w.replicas !== undefined) parts.push(`scaled to ${w.replicas}`);
  if (w.now !== undefined) parts.push(`at ${w.now}`);
  return parts.join(' and ');
}

/** `, as if scaled to 1` for a section title under a what-if; '' otherwise. */
function asIfTitle(model: ExplainModel): string {
  return model.whatIf ? `, as if ${asIfWords(model.whatIf)}` : '';
}

// ---------------------------------------------------------------------------------------------
// Pods

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

function decisionStyle(chalk: ChalkInstance, decision: ExplainPodRow['outcome']): ((s: string) => string) | undefined {
  switch (decision) {
    case 'delete':
    case 'adopt+delete':
      return chalk.bold.red;
    case 'adopt':
      return chalk.cyan;
    case 'release':
      return chalk.yellow;
    case 'ignore':
      return chalk.dim;
    case 'keep':
      return undefined;
  }
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

type PodColumn =
  | 'NAME'
  | 'DECISION'
  | 'REASON'
  | 'NODE'
  | 'PHASE'
  | 'READY'
  | 'RESTARTS'
  | 'AGE'
  | 'DELETION-COST'
  | 'ORDER';

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

function podsSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
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
    const legend =
      "RESTARTS (+n): n restarts of sidecar init containers, compared only when the containers' counts are equal";
    out.push(...para(legend, width, chalk.dim));
  }

  const explained = model.pods.filter((p) => p.decision !== 'keep');
  if (explained.length > 0) {
    out.push('');
    for (const p of explained) {
      const head = `${INDENT}${p.name} ${p.decision}: `;
      const lines = wrap(p.message, width, head, INDENT + '    ');
      const style = decisionStyle(chalk, p.decision) ?? ((s: string) => s);
      out.push(
        ...lines.map((l, i) =>
          i === 0 ? INDENT + chalk.bold(p.name) + ' ' + style(p.decision + ':') + l.slice(head.length - 1) : l,
        ),
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Creation and deletion

function numbered(prefix: string, text: string, width: number): string[] {
  return wrap(text, width, prefix, ' '.repeat(visibleLength(prefix)));
}

function deletionSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const plan = model.plan;
  const victims = plan.delete;
  const out = [chalk.bold(`Deletion order (delete ${victims.length} of ${plural(plan.replicas.current, 'active pod')})${asIfTitle(model)}`)];
  const scaleToZero = victims.some((d) => d.reason === 'ScaleToZero');
  if (scaleToZero) {
    out.push(
      ...para(
        `scale to zero: all ${plural(victims.length, 'active pod')} go. Upstream deletes them all at once, ` +
          'without ranking them (in cache-listing order), so there is no order to show.',
        width,
      ),
    );
    for (const d of victims) {
      const prefix = `${INDENT}- `;
      const lines = numbered(prefix, `${d.name} — ${d.reason}: ${d.message}`, width);
      out.push(...lines.map((l, i) => (i === 0 ? prefix + chalk.red(d.name) + l.slice(prefix.length + d.name.length) : l)));
    }
  } else {
    victims.forEach((d, i) => {
      const prefix = `${INDENT}${i + 1}. `;
      const lines = numbered(prefix, `${d.name} — ${d.reason}: ${d.message}`, width);
      out.push(
        ...lines.map((l, j) =>
          j === 0 ? prefix + chalk.red(d.name) + l.slice(prefix.length + visibleLength(d.name)) : l,
        ),
      );
    });
    const stays = model.pods.filter(
      (p) => (p.decision === 'keep' || p.decision === 'adopt') && p.deleteIndex === null,
    );
    const staysText =
      stays.length === 0 ? 'no pod' : `${stays.map((p) => p.name).join(', ')} (${plural(stays.length, 'pod')})`;
    const lines = wrap(staysText, width, `${INDENT}stays: `, INDENT + '       ');
    out.push(...lines.map((l, i) => (i === 0 ? INDENT + chalk.green('stays:') + l.slice(INDENT.length + 6) : l)));
  }
  const excess = plan.replicas.current - plan.replicas.desired;
  if (excess > victims.length) {
    out.push(
      ...para(
        `capped by the burst limit: ${excess} pods are too many, ${victims.length} are deleted in this sync, ` +
          'the rest in later syncs',
        width,
        chalk.yellow,
      ),
    );
  }
  return out;
}

function creationSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const plan = model.plan;
  const { count, batches } = plan.create;
  const out = [chalk.bold(`Creation${asIfTitle(model)}`)];
  const what = `create ${plural(count, 'pod')}`;
  let text: string;
  if (batches.length <= 1) text = `${what} in one batch`;
  else
    text =
      `${what} in slow-start batches ${batches.join(', ')} ` +
      '(a batch starts only when every create of the previous one succeeded)';
  out.push(...para(text, width).map((l) => l.replace(what, chalk.green(what))));
  const missing = plan.replicas.desired - plan.replicas.current;
  if (count < missing) {
    out.push(
      ...para(
        `capped by the burst limit: ${missing} pods are missing, ${count} are created in this sync, ` +
          'the rest in later syncs',
        width,
        chalk.yellow,
      ),
    );
  }
  return out;
}

function noScaleSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const plan = model.plan;
  const { desired, current } = plan.replicas;
  let text: string;
  if (plan.skip) text = `nothing is created or deleted: skipped (${plan.skip.reason})`;
  else if (desired === current) text = `nothing to create or delete: ${current} current = ${desired} desired`;
  else text = `nothing is created or deleted in this sync (desired ${desired}, current ${current})`;
  return [chalk.bold(`Create / delete${asIfTitle(model)}`), ...para(text, width)];
}

// ---------------------------------------------------------------------------------------------
// Status

type Condition = ExplainModel['statusBefore']['conditions'][number];

function conditionsText(conditions: Condition[]): string {
  if (conditions.length === 0) return '<none>';
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join('; ');
}

function sameConditions(a: Condition[], b: Condition[]): boolean {
  if (a.length !== b.length) return false;
  return a.every(
    (c, i) =>
      c.type === b[i].type &&
      c.status === b[i].status &&
      (c.reason ?? '') === (b[i].reason ?? '') &&
      (c.message ?? '') === (b[i].message ?? ''),
  );
}

function requeueText(model: ExplainModel): string | null {
  const after = model.plan.requeueAfterSeconds;
  if (after === null) return null;
  const min = model.minReadySeconds;
  // Name the pod whose availability the re-check waits for: a claimed, ready pod that has not
  // yet been ready for minReadySeconds, and whose remaining time is the requeue delay.
  let best: { name: string; remaining: number } | null = null;
  for (const p of model.pods) {
    if (p.decision !== 'keep' && p.decision !== 'adopt') continue;
    if (!p.ready || p.readySeconds === null || p.readySeconds >= min) continue;
    const remaining = min - p.readySeconds;
    if (best === null || remaining < best.remaining) best = { name: p.name, remaining };
  }
  if (best !== null && Math.abs(best.remaining - after) < 1) {
    return `re-checked in ${shortSeconds(after)}, when ${best.name} has been ready for minReadySeconds (${min}s)`;
  }
  return `re-checked in ${shortSeconds(after)} (minReadySeconds), to count ready pods that have become available`;
}

function statusSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const plan = model.plan;
  const before = model.statusBefore;
  const after = plan.status;
  const out = [chalk.bold(`Status (before → after)${asIfTitle(model)}`)];
  const unset = '<unset>';
  const rows: { field: string; before: string; after: string; changed: boolean }[] = [];
  const num = (field: string, b: number | null | undefined, a: number | null | undefined): void => {
    const bs = b === null || b === undefined ? unset : String(b);
    const as = a === null || a === undefined ? unset : String(a);
    rows.push({ field, before: bs, after: as, changed: bs !== as });
  };
  num('replicas', before.replicas, after.replicas);
  num('fullyLabeledReplicas', before.fullyLabeledReplicas, after.fullyLabeledReplicas);
  num('readyReplicas', before.readyReplicas, after.readyReplicas);
  num('availableReplicas', before.availableReplicas, after.availableReplicas);
  num('observedGeneration', before.observedGeneration, after.observedGeneration);
  if (before.terminatingReplicas !== null || after.terminatingReplicas !== undefined) {
    num('terminatingReplicas', before.terminatingReplicas, after.terminatingReplicas);
  }
  const condChanged = !sameConditions(before.conditions, after.conditions);
  rows.push({
    field: 'conditions',
    before: conditionsText(before.conditions),
    after: conditionsText(after.conditions),
    changed: condChanged,
  });

  const columns: Column[] = [
    { header: 'FIELD' },
    { header: 'BEFORE' },
    { header: 'AFTER' },
    { header: '' },
  ];
  const cells: Cell[][] = rows.map((r) => [
    { text: r.field },
    { text: r.before, style: r.changed ? chalk.dim : undefined },
    { text: r.after, style: r.changed ? chalk.bold.yellow : undefined },
    r.changed ? { text: 'changed', style: chalk.yellow } : { text: '' },
  ]);
  out.push(
    ...renderTable(columns, cells, { gap: 2, indent: INDENT.length })
      .trimEnd()
      .split('\n'),
  );

  if (condChanged) {
    for (const c of after.conditions) {
      const same = before.conditions.find((b) => b.type === c.type);
      if (same && sameConditions([same], [c])) continue;
      const text = `condition ${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''} set${c.message ? `: ${c.message}` : ''}`;
      out.push(...para(text, width));
    }
    for (const b of before.conditions) {
      if (!after.conditions.some((c) => c.type === b.type)) out.push(...para(`condition ${b.type} removed`, width));
    }
  }

  if (plan.skip?.reason === 'InvalidSelector') {
    out.push(...para('no status write: upstream skips a controller whose selector is invalid', width, chalk.dim));
  } else if (plan.statusChanged) {
    const line = `status write: PUT ${statusPath(plan.kind, plan.namespace, plan.name)}`;
    out.push(...para(line, width).map((l) => l.replace('status write:', chalk.blue('status write:'))));
  } else {
    out.push(...para('no status write: nothing changed', width, chalk.dim));
  }
  const requeue = requeueText(model);
  if (requeue !== null) out.push(...para(requeue, width));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Warnings and skip

function warningLines(warnings: PlanWarning[], width: number, chalk: ChalkInstance): string[] {
  const out: string[] = [];
  for (const w of warnings) {
    const lines = wrap(w.message, width, `${INDENT}! `, INDENT + '  ');
    out.push(...lines.map((l, i) => (i === 0 ? INDENT + chalk.bold.yellow('!') + l.slice(INDENT.length + 1) : l)));
    if (w.pods && w.pods.length > 0) out.push(...wrap(`pods: ${w.pods.join(', ')}`, width, INDENT + '  '));
  }
  return out;
}

const SKIP_EXPLANATION: Record<string, (kind: string) => string> = {
  InvalidSelector: (kind) =>
    `Upstream does nothing at all for this ${kind}: no pod is claimed (nothing adopted or released), ` +
    'nothing is created or deleted, no status is written and nothing is requeued, until the selector is fixed.',
  ControllerDeleting: (kind) =>
    `The ${kind} is being deleted: nothing is created, deleted, adopted or released. Pods it owns that ` +
    'still match are counted, and the status is still written.',
  ExpectationsPending: (kind) =>
    `The ${kind} still waits for earlier creates or deletes to be observed (expectations): pods are ` +
    'claimed and the status is written, but nothing is created or deleted in this sync.',
};

function skipSection(plan: PlanController, kind: string, width: number, chalk: ChalkInstance): string[] {
  if (!plan.skip) return [];
  const out = [chalk.bold.magenta(`Skipped: ${plan.skip.reason}`)];
  if (plan.skip.message !== '') out.push(...para(plan.skip.message, width));
  const explain = SKIP_EXPLANATION[plan.skip.reason];
  if (explain) out.push(...para(explain(kind), width, chalk.magenta));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Header

function ownerText(model: ExplainModel): string {
  const o = model.owner;
  if (o === null) return 'standalone (no controller owner)';
  let text = `controlled by ${o.kind} ${model.namespace}/${o.name} (uid ${o.uid})`;
  if (o.found === false) text += ` — this ${o.kind} does not exist`;
  return text;
}

function headerSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const out = [chalk.bold(title(model))];
  if (model.whatIf) {
    const text = `as if ${asIfWords(model.whatIf)} (${whatIfFlags(model.whatIf)}): no object says so, and nothing is written`;
    out.push(...field('What-if', text, width, chalk, chalk.bold.italic));
  }
  out.push(...field('Owner', ownerText(model), width, chalk, model.owner?.found === false ? chalk.yellow : undefined));
  if (model.siblings.length > 0) {
    out.push(
      ...field(
        'Siblings',
        `${model.siblings.join(', ')} (same owner: their pods count when pods on one node are compared)`,
        width,
        chalk,
      ),
    );
  }
  const { desired, current } = model.plan.replicas;
  const scaled = model.whatIf?.replicas !== undefined;
  const desiredText = !scaled ? `desired ${desired}` : desired === model.object.replicas ? `desired ${desired} (as if scaled to it: it already is)` : `desired ${desired} as if scaled from ${model.object.replicas}`;
  out.push(
    ...field(
      'Replicas',
      `${desiredText}, current ${current}`,
      width,
      chalk,
      desired !== current ? chalk.bold : undefined,
    ),
  );
  out.push(...field('Selector', model.selector === '' ? '<empty: matches every pod>' : model.selector, width, chalk));
  if (model.selectorError !== null) {
    out.push(...field('Invalid selector', model.selectorError, width, chalk, chalk.bold.red));
    if (model.plan.skip?.reason !== 'InvalidSelector') {
      out.push(...para(SKIP_EXPLANATION.InvalidSelector(model.kind), width, chalk.red));
    }
  }
  out.push(...field('Template labels', labelsText(model.templateLabels), width, chalk));
  out.push(...field('Min ready seconds', String(model.minReadySeconds), width, chalk));
  const generation = model.generation === model.object.generation ? String(model.generation) : `${model.generation} as if scaled (the object has ${model.object.generation}: a scale bumps it)`;
  out.push(...field('Generation', generation, width, chalk));
  out.push(...field('Kubernetes', `${model.kubernetesVersion} (behaviour emulated)`, width, chalk));
  out.push(...field('Evaluated at', model.whatIf?.now !== undefined ? `${model.now} as if it were now (--now)` : model.now, width, chalk));
  return out;
}

/**
 * The whole story of one controller, as terminal text ending in a newline. Plain text (no escape
 * codes) with a level-0 chalk; prose wraps to `width`; tables never cut a cell (a pods table
 * too wide is split in two, and a row still too wide is left for the terminal to wrap).
 */
export function renderExplain(input: ExplainModel, opts: ExplainOptions): string {
  const model = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const plan = model.plan;
  const sections: string[][] = [headerSection(model, width, chalk)];
  const skip = skipSection(plan, model.kind, width, chalk);
  if (skip.length > 0) sections.push(skip);
  sections.push(podsSection(model, width, chalk));
  if (plan.delete.length > 0) sections.push(deletionSection(model, width, chalk));
  if (plan.create.count > 0) sections.push(creationSection(model, width, chalk));
  if (plan.delete.length === 0 && plan.create.count === 0) sections.push(noScaleSection(model, width, chalk));
  sections.push(statusSection(model, width, chalk));
  if (plan.warnings.length > 0) {
    sections.push([chalk.bold(`Warnings (${plan.warnings.length})`), ...warningLines(plan.warnings, width, chalk)]);
  }
  return sections.map((s) => s.join('\n')).join('\n\n') + '\n';
}

/**
 * Warnings of a whole plan for stderr, one `Warning: ReplicaSet shop/web: message` line each
 * (kubectl's prefix). A skipped InvalidSelector controller always gets one, even when the
 * planner did not add an InvalidSelector warning of its own. Empty string when there is none.
 */
export function renderWarnings(plan: Plan, chalk: ChalkInstance): string {
  let out = '';
  const prefix = chalk.bold.yellow('Warning:');
  for (const c of plan.controllers) {
    const warnings = [...c.warnings];
    if (c.skip?.reason === 'InvalidSelector' && !warnings.some((w) => w.code === 'InvalidSelector')) {
      warnings.unshift({ code: 'InvalidSelector', message: c.skip.message });
    }
    for (const w of warnings) {
      const pods = w.pods && w.pods.length > 0 ? ` (pods: ${w.pods.join(', ')})` : '';
      out += `${prefix} ${sanitize(title(c))}: ${sanitize(w.message)}${sanitize(pods)}\n`;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A Deployment: header and tree

/** `create 1, status update`, `in sync`, `skipped: InvalidSelector`: a ReplicaSet's sync in a few words. */
function syncWords(plan: PlanController): string {
  if (plan.skip?.reason === 'InvalidSelector') return `skipped: ${plan.skip.reason}`;
  const adopt = plan.pods.filter((p) => p.decision === 'adopt').length;
  const release = plan.pods.filter((p) => p.decision === 'release').length;
  const parts: string[] = [];
  if (adopt) parts.push(`adopt ${adopt}`);
  if (release) parts.push(`release ${release}`);
  if (plan.create.count) parts.push(`create ${plan.create.count}`);
  if (plan.delete.length) parts.push(`delete ${plan.delete.length}`);
  if (plan.statusChanged) parts.push('status update');
  const words = parts.length ? parts.join(', ') : 'in sync';
  return plan.skip ? `${words} (skipped: ${plan.skip.reason})` : words;
}

/** The role column: `3 (new)`, `2 (old)`, `3`, or `<none>` without a revision annotation. */
function revisionText(r: DeploymentTreeReplicaSet): string {
  if (r.revision === null) return '<none>';
  return r.role ? `${r.revision} (${r.role})` : String(r.revision);
}

/**
 * `explain deploy/NAME`: a Deployment header, then its tree as kubectl-tree draws one
 * (Deployment → ReplicaSets, newest revision first → their pods, with what the sync does to each,
 * its place in the deletion order and the reason). Names are never cut: a row too wide wraps.
 */
export function renderDeploymentTree(input: DeploymentTree, opts: ExplainOptions): string {
  const tree = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const out = [chalk.bold(`Deployment ${tree.namespace}/${tree.name}`)];
  out.push(...field('UID', `${tree.uid} (from its ReplicaSets' owner references)`, width, chalk));
  const newest = tree.replicaSets.find((r) => r.role === 'new');
  const olds = tree.replicaSets.filter((r) => r.role !== 'new').map((r) => r.name);
  if (newest) out.push(...field('New ReplicaSet', newest.name, width, chalk));
  out.push(...field(newest ? 'Old ReplicaSets' : 'ReplicaSets', olds.length ? olds.join(', ') : '<none>', width, chalk));
  if (!newest) out.push(...para(`which ReplicaSet is new is not known: no single one carries the highest ${REVISION_ANNOTATION}`, width, chalk.dim));

  const columns: Column[] = ['NAME', 'REVISION', 'DESIRED', 'CURRENT', 'SYNC', 'ORDER', 'REASON'].map((header) => ({ header }));
  const blank: Cell = { text: '' };
  const rows: Cell[][] = [[{ text: `Deployment/${tree.name}`, style: chalk.bold }, blank, blank, blank, blank, blank, blank]];
  tree.replicaSets.forEach((r, i) => {
    const lastRs = i === tree.replicaSets.length - 1;
    const words = syncWords(r.plan);
    rows.push([
      { text: `${lastRs ? '└─' : '├─'}ReplicaSet/${r.name}` },
      { text: revisionText(r), style: r.role === 'new' ? chalk.green : undefined },
      { text: String(r.plan.replicas.desired) },
      { text: String(r.plan.replicas.current), style: r.plan.replicas.current !== r.plan.replicas.desired ? chalk.bold : undefined },
      { text: words, style: words === 'in sync' ? chalk.green : r.plan.skip ? chalk.bold.magenta : chalk.bold.yellow },
      blank,
      blank,
    ]);
    r.pods.forEach((p, j) => {
      const branch = `${lastRs ? '  ' : '│ '}${j === r.pods.length - 1 ? '└─' : '├─'}`;
      rows.push([
        { text: `${branch}Pod/${p.name}`, style: p.order !== null ? chalk.red : undefined },
        blank,
        blank,
        blank,
        { text: p.outcome, style: decisionStyle(chalk, p.outcome) },
        p.order === null ? { text: '-', style: chalk.dim } : { text: `#${p.order}`, style: chalk.bold.red },
        { text: p.reason, style: p.outcome === 'keep' ? chalk.dim : undefined },
      ]);
    });
  });
  out.push('', ...renderTable(columns, rows, { gap: 2 }).trimEnd().split('\n'));
  return out.join('\n') + '\n';
}
