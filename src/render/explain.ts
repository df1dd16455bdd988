// `explain`: the story of one controller, for a terminal. Every fact comes from the
// ExplainModel (the plan entry plus the per-pod facts the planner looked at); this file only
// lays it out: a header, the pods (explain-pods.ts), the deletion order, the creation batches,
// the status before and after (explain-status.ts), warnings and the skip explanation.

import type { ChalkInstance } from 'chalk';
import type { ExplainModel } from '../core/explain-types.js';
import { whatIfFlags } from '../core/plan.js';
import type { Plan, PlanController, PlanWarning } from '../core/plan-types.js';
import { podsSection } from './explain-pods.js';
import { statusSection } from './explain-status.js';
import { INDENT, type ExplainOptions, asIfTitle, asIfWords, effectiveWidth, field, para, title } from './explain-text.js';
import { plural, sanitize, sanitizeDeep, visibleLength, wrap } from './text.js';

function labelsText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
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
      out.push(...lines.map((l, j) => (j === 0 ? prefix + chalk.red(d.name) + l.slice(prefix.length + visibleLength(d.name)) : l)));
    });
    const stays = model.pods.filter((p) => (p.decision === 'keep' || p.decision === 'adopt') && p.deleteIndex === null);
    const staysText = stays.length === 0 ? 'no pod' : `${stays.map((p) => p.name).join(', ')} (${plural(stays.length, 'pod')})`;
    const lines = wrap(staysText, width, `${INDENT}stays: `, INDENT + '       ');
    out.push(...lines.map((l, i) => (i === 0 ? INDENT + chalk.green('stays:') + l.slice(INDENT.length + 6) : l)));
  }
  const excess = plan.replicas.current - plan.replicas.desired;
  if (excess > victims.length) {
    out.push(
      ...para(
        `capped by the burst limit: ${excess} pods are too many, ${victims.length} ${victims.length === 1 ? 'is' : 'are'} deleted in this sync, ` +
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
  else text = `${what} in slow-start batches ${batches.join(', ')} ` + '(a batch starts only when every create of the previous one succeeded)';
  out.push(...para(text, width).map((l) => l.replace(what, chalk.green(what))));
  const missing = plan.replicas.desired - plan.replicas.current;
  if (count < missing) {
    out.push(
      ...para(
        `capped by the burst limit: ${missing} pods are missing, ${count} ${count === 1 ? 'is' : 'are'} created in this sync, ` + 'the rest in later syncs',
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

/** `a, b and c`. */
function andList(parts: string[]): string {
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/**
 * The one-line verdict the story opens with: what this sync would write, in the plan's counts
 * (`this sync would adopt 1, release 1, create 1 and write status`), or `in sync: this sync
 * would write nothing`. A skipped controller says so first.
 */
export function verdictText(plan: PlanController): string {
  let adopt = 0;
  let release = 0;
  for (const p of plan.pods) {
    if (p.decision === 'adopt') adopt++;
    else if (p.decision === 'release') release++;
  }
  const writes: string[] = [];
  if (adopt > 0) writes.push(`adopt ${adopt}`);
  if (release > 0) writes.push(`release ${release}`);
  if (plan.create.count > 0) writes.push(`create ${plan.create.count}`);
  if (plan.delete.length > 0) writes.push(`delete ${plan.delete.length}`);
  if (plan.statusChanged) writes.push('write status');
  const would = writes.length === 0 ? 'this sync would write nothing' : `this sync would ${andList(writes)}`;
  if (plan.skip) return `skipped (${plan.skip.reason}): ${would}`;
  return plan.inSync ? `in sync: ${would}` : would;
}

function headerSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const head = title(model);
  // the verdict line wraps as prose does, under the title
  const out = wrap(`${head}: ${verdictText(model.plan)}`, width, '', INDENT).map((l, i) => (i === 0 ? chalk.bold(head) + l.slice(head.length) : l));
  if (model.whatIf) {
    const text = `as if ${asIfWords(model.whatIf)} (${whatIfFlags(model.whatIf)}): no object says so, and nothing is written`;
    out.push(...field('What-if', text, width, chalk, chalk.bold.italic));
  }
  out.push(...field('Owner', ownerText(model), width, chalk, model.owner?.found === false ? chalk.yellow : undefined));
  if (model.siblings.length > 0) {
    out.push(...field('Siblings', `${model.siblings.join(', ')} (same owner: their pods count when pods on one node are compared)`, width, chalk));
  }
  const { desired, current } = model.plan.replicas;
  const scaled = model.whatIf?.replicas !== undefined;
  const desiredText = !scaled
    ? `desired ${desired}`
    : desired === model.object.replicas
      ? `desired ${desired} (as if scaled to it: it already is)`
      : `desired ${desired} as if scaled from ${model.object.replicas}`;
  out.push(
    ...field(
      'Replicas',
      `${desiredText}, current ${current} (active pods it owns after adopt/release)`,
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
  const generation =
    model.generation === model.object.generation
      ? String(model.generation)
      : `${model.generation} as if scaled (the object has ${model.object.generation}: a scale bumps it)`;
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
