// `explain deploy/NAME`: a Deployment's header and its tree (Deployment → ReplicaSets → pods),
// with what the sync of each ReplicaSet does.

import { REVISION_ANNOTATION } from '../core/deployment/util.js';
import type { DeploymentTree, DeploymentTreeReplicaSet } from '../core/explain-deployment.js';
import type { PlanController, PlanDeployment } from '../core/plan-types.js';
import { actionWords } from './deployment-diff.js';
import { type ExplainOptions, decisionStyle, effectiveWidth, field, para } from './explain-text.js';
import { type Cell, type Column, renderTable, sanitizeDeep } from './text.js';

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
export function renderDeploymentTree(input: DeploymentTree, opts: ExplainOptions, decision: PlanDeployment | null = null): string {
  const tree = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const out = [chalk.bold(`Deployment ${tree.namespace}/${tree.name}`)];
  out.push(...field('UID', `${tree.uid} (${decision ? 'the Deployment' : "from its ReplicaSets' owner references"})`, width, chalk));
  const newest = tree.replicaSets.find((r) => r.role === 'new');
  const olds = tree.replicaSets.filter((r) => r.role !== 'new').map((r) => r.name);
  if (newest) out.push(...field('New ReplicaSet', newest.name, width, chalk));
  out.push(...field(newest ? 'Old ReplicaSets' : 'ReplicaSets', olds.length ? olds.join(', ') : '<none>', width, chalk));
  if (!newest) out.push(...para(`which ReplicaSet is new is not known: no single one carries the highest ${REVISION_ANNOTATION}`, width, chalk.dim));
  if (decision) out.push(...decisionLines(sanitizeDeep(decision), opts));

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

/**
 * The deployment controller's next sync, in its own words: the strategy, each write to a
 * ReplicaSet with its arithmetic, the writes that are not actions, the status write, the requeue.
 */
function decisionLines(d: PlanDeployment, opts: ExplainOptions): string[] {
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const out: string[] = [];
  const what = d.skip
    ? `skips it (${d.skip.reason}): ${d.skip.message}`
    : d.inSync
      ? 'writes nothing (in sync)'
      : `${d.actions.length ? `makes ${d.actions.length} ReplicaSet write${d.actions.length === 1 ? '' : 's'}` : 'resizes no ReplicaSet'}${d.statusChanged ? ' and writes the status' : ''}`;
  out.push(
    ...field(
      'Next sync',
      `the deployment controller (${d.strategy}${d.paused ? ', paused' : ''}) ${what}`,
      width,
      chalk,
      d.inSync ? chalk.green : chalk.bold.yellow,
    ),
  );
  for (const [i, a] of d.actions.entries()) out.push(...para(`${i + 1}. ${actionWords(a)}: ${a.message}`, width));
  for (const n of d.notes) out.push(...para(n, width));
  if (d.statusChanged) {
    const progressing = d.status.conditions.find((c) => c.type === 'Progressing');
    const cond = progressing ? `, Progressing ${progressing.status} ${progressing.reason ?? ''}`.trimEnd() : '';
    out.push(...para(`status: replicas ${d.status.replicas}, updated ${d.status.updatedReplicas}, available ${d.status.availableReplicas}${cond}`, width));
  }
  if (d.error) out.push(...para(`then the sync ends: ${d.error} (requeued with backoff)`, width, chalk.dim));
  else if (d.requeueAfterSeconds !== null) out.push(...para(`progress check again in ${d.requeueAfterSeconds} s (progressDeadlineSeconds)`, width, chalk.dim));
  return out;
}

/** `explain deploy/NAME` of a Deployment that controls no ReplicaSet yet: its header and decision. */
export function renderDeploymentDecision(input: PlanDeployment, opts: ExplainOptions): string {
  const d = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const out = [opts.chalk.bold(`Deployment ${d.namespace}/${d.name}`)];
  out.push(...field('UID', d.uid, width, opts.chalk));
  out.push(...field('ReplicaSets', '<none>', width, opts.chalk));
  out.push(...decisionLines(d, opts));
  return out.join('\n') + '\n';
}
