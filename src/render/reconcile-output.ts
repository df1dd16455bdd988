// What `reconcile` says: the question it asks before writing (naming the pods it adopts, releases
// and deletes, the first ten of each, then "and N more", so a yes is a yes to these pods), why a
// saved plan is stale, the closing line, and the failures and notices for stderr.

import { firstNames } from '../core/messages.js';
import type { PlanController } from '../core/plan-types.js';

/** What these lines read of a reconcile report (the services' ReconcileReport has this shape). */
export interface ReconcileReportView {
  dryRun: 'none' | 'client' | 'server';
  converged: boolean | null;
  controllers: Array<{
    kind: string;
    namespace: string;
    name: string;
    outcome: {
      actions: Array<{ action: 'adopt' | 'release' | 'create' | 'delete' | 'status'; pod?: string; ok: boolean; error?: string }>;
      syncs: number;
      error: string | null;
      notice: string | null;
    };
  }>;
}

export const NAMED_PODS = 10;

/** "a, b, c" or "a, …, j and 5 more". */
export function namedList(names: string[], max = NAMED_PODS): string {
  return firstNames(names, max);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lines above the prompt, and the prompt itself. */
export function confirmationText(work: PlanController[], where: string): string {
  const manyNamespaces = new Set(work.map((c) => c.namespace)).size > 1;
  const podName = (c: PlanController, name: string) => (manyNamespaces ? `${c.namespace}/${name}` : name);
  const adopt: string[] = [];
  const release: string[] = [];
  const del: string[] = [];
  let create = 0;
  let status = 0;
  for (const c of work) {
    for (const p of c.pods) {
      if (p.decision === 'adopt') adopt.push(podName(c, p.name));
      else if (p.decision === 'release') release.push(podName(c, p.name));
    }
    for (const d of c.delete) del.push(podName(c, d.name));
    create += c.create.count;
    if (c.statusChanged) status++;
  }
  const lines: string[] = [];
  if (adopt.length) lines.push(`  adopt ${plural(adopt.length, 'pod')}: ${namedList(adopt)}`);
  if (release.length) lines.push(`  release ${plural(release.length, 'pod')}: ${namedList(release)}`);
  if (del.length) lines.push(`  delete ${plural(del.length, 'pod')}: ${namedList(del)}`);
  if (create) lines.push(`  create ${plural(create, 'pod')}`);
  if (status) lines.push(`  write the status of ${plural(status, 'controller')}`);
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
  return `reconciled ${plural(work, 'controller')}${mode}: adopted ${t.adopt}, released ${t.release}, created ${t.create}, deleted ${t.delete}, status written ${t.status}, failed ${t.failed}${tail}`;
}

/** Counts of what was done, for the closing line. */
export function tally(report: ReconcileReportView): Record<'adopt' | 'release' | 'create' | 'delete' | 'status' | 'failed', number> {
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
    if (c.outcome.notice) out.push(`warning: ${who}: ${c.outcome.notice}\n`);
  }
  return out.join('');
}
