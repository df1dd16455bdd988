// What `reconcile` says: the question it asks before writing (per controller, naming the pods it
// deletes with why, adopts and releases, the first ten of each, then "and N more", so a yes is a
// yes to these pods), what an interrupted apply had written, why a
// saved plan is stale, the closing line, and the failures and notices for stderr.

import { firstNames } from '../core/messages.js';
import type { PlanController } from '../core/plan-types.js';

/** What these lines read of a reconcile report (the services' ReconcileReport has this shape). */
export interface ReconcileReportView {
  dryRun: 'none' | 'client' | 'server';
  converged: boolean | null;
  stopped?: { reason: 'interrupted' } | { reason: 'error'; message: string } | null;
  controllers: Array<{
    kind: string;
    namespace: string;
    name: string;
    outcome: {
      actions: Array<{ action: 'adopt' | 'release' | 'create' | 'delete' | 'status'; pod?: string; ok: boolean; error?: string }>;
      syncs: number;
      error: string | null;
      notice: string | null;
      planned?: { adopt: number; release: number; create: number; delete: number; status: number };
      statusWritten?: boolean;
    };
  }>;
}

const NAMED_PODS = 10;

/** "a, b, c" or "a, …, j and 5 more". */
export function namedList(names: string[], max = NAMED_PODS): string {
  return firstNames(names, max);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The lines above the prompt, one group a controller (so a yes is a yes to each controller's own
 * pods), and the prompt itself. Each delete says why the plan ranks that pod first: the reason and
 * sentence of the one decision the sync carries out, never ranked again here.
 */
export function confirmationText(work: PlanController[], where: string): string {
  const lines: string[] = [];
  for (const c of work) {
    lines.push(`  ${c.kind} ${c.namespace}/${c.name}:`);
    const adopt = c.pods.filter((p) => p.decision === 'adopt').map((p) => p.name);
    const release = c.pods.filter((p) => p.decision === 'release').map((p) => p.name);
    if (c.delete.length) {
      lines.push(`    delete ${plural(c.delete.length, 'pod')}:`);
      for (const d of c.delete.slice(0, NAMED_PODS)) lines.push(`      ${d.name} (${d.reason}: ${d.message})`);
      if (c.delete.length > NAMED_PODS) lines.push(`      and ${c.delete.length - NAMED_PODS} more`);
    }
    if (adopt.length) lines.push(`    adopt ${plural(adopt.length, 'pod')}: ${namedList(adopt)}`);
    if (release.length) lines.push(`    release ${plural(release.length, 'pod')}: ${namedList(release)}`);
    if (c.create.count) lines.push(`    create ${plural(c.create.count, 'pod')}`);
    if (c.statusChanged) lines.push('    write its status');
  }
  return `${lines.join('\n')}\nApply ${plural(work.length, 'controller sync')}${where}? [y/N] `;
}

/** Why a saved plan is refused: one line each, after the error line. */
export function renderStaleness(differences: string[]): string {
  return `error: the saved plan is stale, nothing was written: planning again on fresh state gives another plan:\n${differences.map((l) => `  ${l}\n`).join('')}`;
}

/** The closing line of the human output. `work`: how many controllers were not in sync. */
export function reconcileSummary(report: ReconcileReportView, work: number): string {
  const mode = report.dryRun === 'client' ? ' (dry run: nothing sent)' : report.dryRun === 'server' ? ' (server dry run: nothing changed)' : '';
  if (!work) return 'nothing to do: every controller is in sync';
  if (report.dryRun === 'client') return `would sync ${plural(work, 'controller')}${mode}`;
  const t = tally(report);
  const syncs = report.controllers.reduce((n, c) => n + c.outcome.syncs, 0);
  const tail = report.converged === true && syncs > work ? `; in sync after ${syncs} syncs` : '';
  const verb = !report.stopped
    ? 'reconciled'
    : report.stopped.reason === 'interrupted'
      ? 'interrupted while reconciling'
      : 'stopped by an error while reconciling';
  return `${verb} ${plural(work, 'controller')}${mode}: adopted ${t.adopt}, released ${t.release}, created ${t.create}, deleted ${t.delete}, status written ${t.status}, failed ${t.failed}${tail}`;
}

/** Counts of what was done, for the closing line. */
function tally(report: ReconcileReportView): Record<'adopt' | 'release' | 'create' | 'delete' | 'status' | 'failed', number> {
  const t = { adopt: 0, release: 0, create: 0, delete: 0, status: 0, failed: 0 };
  for (const c of report.controllers) {
    for (const a of c.outcome.actions) {
      if (a.ok) t[a.action]++;
      else t.failed++;
    }
  }
  return t;
}

/** Every failed action, a sync error no action explains, and why converging stopped short. */
export function reconcileProblems(report: ReconcileReportView): string {
  const out: string[] = [];
  for (const c of report.controllers) {
    const who = `${c.kind} ${c.namespace}/${c.name}`;
    for (const a of c.outcome.actions) if (!a.ok) out.push(`error: ${who}: ${a.action}${a.pod ? ' ' + a.pod : ''} failed: ${a.error}\n`);
    if (c.outcome.error && !c.outcome.actions.some((a) => !a.ok)) out.push(`error: ${who}: ${c.outcome.error}\n`);
    if (c.outcome.notice) out.push(`Warning: ${who}: ${c.outcome.notice}\n`);
  }
  return out.join('');
}

/**
 * What an apply stopped midway had written, for stderr, one line a controller: after Ctrl-C or an
 * error no sync reports, each controller it had started on ("interrupted: ReplicaSet shop/web:
 * created 148 of 254 pods, deleted 0 of 0, status not written"); otherwise each controller whose
 * sync failed ("failed: …"). Empty when every sync ran to its end.
 */
export function stoppedSummary(report: ReconcileReportView): string {
  const stopped = report.stopped;
  const out: string[] = [];
  if (stopped?.reason === 'error') out.push(`error: ${stopped.message}\n`);
  const head = !stopped ? 'failed' : stopped.reason === 'interrupted' ? 'interrupted' : 'stopped by an error';
  for (const c of report.controllers) {
    const p = c.outcome.planned;
    if (!p || p.adopt + p.release + p.create + p.delete + p.status === 0) continue;
    if (!stopped && c.outcome.error === null && c.outcome.actions.every((a) => a.ok)) continue;
    const done = { adopt: 0, release: 0, create: 0, delete: 0 };
    let statusWritten = c.outcome.statusWritten ?? false;
    for (const a of c.outcome.actions) {
      if (!a.ok) continue;
      if (a.action === 'status') statusWritten = true;
      else done[a.action]++;
    }
    const parts = [`created ${done.create} of ${plural(p.create, 'pod')}`, `deleted ${done.delete} of ${p.delete}`];
    if (p.adopt) parts.push(`adopted ${done.adopt} of ${p.adopt}`);
    if (p.release) parts.push(`released ${done.release} of ${p.release}`);
    parts.push(statusWritten ? 'status written' : 'status not written');
    out.push(`${head}: ${c.kind} ${c.namespace}/${c.name}: ${parts.join(', ')}\n`);
  }
  return out.join('');
}
