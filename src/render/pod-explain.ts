// `explain pod/NAME`: one pod's story for a terminal. Every fact comes from the PodExplanation
// (src/core/pod-explain.ts); this file only lays it out: the pod and its owner, why it is
// orphaned, each controller's decision, its place in the deletion order and the cost that keeps it.

import { isControllerKind } from '../core/controller.js';
import type { ChalkInstance } from 'chalk';
import type { DeletionCase, PodExplanation } from '../core/pod-explain-types.js';
import { podOutcome } from '../core/explain.js';
import type { PodOutcome } from '../core/explain-types.js';
import { plural, sanitizeDeep, wrap } from './text.js';

export interface PodExplainOptions {
  chalk: ChalkInstance;
  /** Terminal width; defaults to 100, never less than 80. */
  width?: number;
}

const INDENT = '  ';
const LABEL_WIDTH = 20;

function effectiveWidth(width: number | undefined): number {
  if (width === undefined || !Number.isFinite(width)) return 100;
  return Math.max(80, Math.floor(width));
}

/** `Label:   value` with the value wrapped under itself. */
function field(label: string, value: string, width: number, chalk: ChalkInstance, style?: (s: string) => string): string[] {
  const head = INDENT + `${label}:`.padEnd(LABEL_WIDTH);
  return wrap(value, width, head, ' '.repeat(head.length)).map((l, i) => {
    const prefix = l.slice(0, head.length);
    const body = l.slice(head.length);
    return (i === 0 ? INDENT + chalk.bold(prefix.slice(INDENT.length)) : prefix) + (style ? style(body) : body);
  });
}

function para(text: string, width: number, indent = INDENT, style?: (s: string) => string): string[] {
  return wrap(text, width, indent, indent).map((l) => (style ? indent + style(l.slice(indent.length)) : l));
}

function bullet(text: string, width: number, indent = INDENT): string[] {
  return wrap(text, width, indent + '- ', indent + '  ');
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function headerSection(e: PodExplanation, width: number, chalk: ChalkInstance): string[] {
  const p = e.pod;
  const out = [chalk.bold(`Pod ${p.namespace}/${p.name}`)];
  const state = `${p.phase ?? 'no phase'}, ${p.ready ? 'ready' : 'not ready'}, ${p.node ? `on ${p.node}` : 'not scheduled'}`;
  out.push(...field('State', state, width, chalk));
  if (e.owner === null) {
    out.push(...field('Owner', 'none (no controller reference)', width, chalk, chalk.yellow));
  } else {
    const o = e.owner;
    const ours = isControllerKind(o.kind);
    const where = o.found
      ? 'exists'
      : !ours
        ? `not read here (rs-reconcile reads ReplicaSets and ReplicationControllers)`
        : e.source === 'cluster'
          ? 'does not exist'
          : 'not in the input';
    out.push(...field('Owner', `${o.kind} ${o.name} (uid ${o.uid}): ${where}`, width, chalk, o.found || !ours ? undefined : chalk.yellow));
  }
  out.push(...field('Kubernetes', `${e.kubernetesVersion} (behaviour emulated)`, width, chalk));
  out.push(...field('Evaluated at', e.now, width, chalk));
  return out;
}

function orphanSection(e: PodExplanation, width: number, chalk: ChalkInstance): string[] {
  const o = e.orphan!;
  const out = [chalk.bold(e.owner === null ? 'Why it is orphaned' : 'Why its owner is gone')];
  out.push(...para(o.message.replace(/^./, (c) => c.toUpperCase()) + '.', width));
  out.push(INDENT + chalk.bold(o.likely ? 'Evidence (circumstantial):' : 'Evidence:'));
  for (const ev of o.evidence) out.push(...bullet(ev, width, INDENT + INDENT));
  return out;
}

const DECISION_STYLE: Record<PodOutcome, (c: ChalkInstance) => (s: string) => string> = {
  keep: (c) => c.green,
  adopt: (c) => c.cyan,
  release: (c) => c.yellow,
  ignore: (c) => c.dim,
  delete: (c) => c.bold.red,
  'adopt+delete': (c) => c.bold.red,
};

function controllersSection(e: PodExplanation, width: number, chalk: ChalkInstance): string[] {
  if (e.controllers.length === 0) {
    return [
      chalk.bold('Controllers'),
      ...para('No ReplicaSet or ReplicationController in its namespace selects or owns this pod: none will adopt, release or delete it.', width),
    ];
  }
  const whatIf = e.deletion?.whatIf ? `, as if ${e.deletion.kind} ${e.deletion.name} were scaled to ${e.deletion.whatIf.replicas}` : '';
  const out = [chalk.bold(`Controllers (${e.controllers.length})${whatIf}`)];
  for (const c of e.controllers) {
    // a pod this sync deletes reads "delete", not the "keep" of its claim
    const outcome = podOutcome(c.decision, c.delete !== null);
    out.push(INDENT + `${c.kind} ${c.name}: ` + DECISION_STYLE[outcome](chalk)(outcome) + ` (${c.reason})`);
    out.push(...para(c.message, width, INDENT + INDENT));
    if (c.delete)
      out.push(
        ...para(`Deleted by this sync, ${ordinal(c.delete.order)} in its order (${c.delete.reason}): ${c.delete.message}`, width, INDENT + INDENT, chalk.red),
      );
  }
  return out;
}

function caseLines(label: string, k: DeletionCase, width: number, chalk: ChalkInstance): string[] {
  const goes = k.pickedAtOrBelow === 0 ? 'only a scale to 0 picks it' : `a scale to ${k.pickedAtOrBelow} or fewer picks it`;
  const sync = k.deletes === 0 ? 'this sync deletes no pod' : `this sync deletes ${plural(k.deletes, 'pod')}`;
  const verdict = k.picked ? chalk.red('it is picked') : 'it stays';
  const text = `${k.replicas} desired, ${plural(k.pods, 'pod')} counted: it ranks ${ordinal(k.rank)} of ${k.pods} to go (${goes}); ${sync}: ${verdict}.`;
  const out = field(label, text, width, chalk);
  if (k.keep.blockedBy !== 'NotPicked') out.push(...field('To keep it', k.keep.message, width, chalk));
  return out;
}

function deletionSection(e: PodExplanation, width: number, chalk: ChalkInstance): string[] {
  const d = e.deletion!;
  const out = [chalk.bold(`Deletion order in ${d.kind} ${d.name}`)];
  out.push(...caseLines('Now', d.now, width, chalk));
  if (d.whatIf) out.push(...caseLines(`With --replicas ${d.whatIf.replicas}`, d.whatIf, width, chalk));
  return out;
}

/** The whole story of one pod, as terminal text ending in a newline. */
export function renderPodExplanation(input: PodExplanation, opts: PodExplainOptions): string {
  const e = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const sections: string[][] = [headerSection(e, width, chalk)];
  if (e.orphan) sections.push(orphanSection(e, width, chalk));
  sections.push(controllersSection(e, width, chalk));
  if (e.deletion) sections.push(deletionSection(e, width, chalk));
  if (e.notes.length > 0) sections.push([chalk.bold('Notes'), ...e.notes.flatMap((n) => bullet(n, width))]);
  return sections.map((s) => s.join('\n')).join('\n\n') + '\n';
}
