// `diff`'s lines for the Deployments whose next sync writes something: one line per Deployment
// not in sync, then its actions, each with the controller's arithmetic. Nothing when all are.

import type { ChalkInstance } from 'chalk';
import type { Plan, PlanDeployment } from '../core/plan-types.js';

/** "create checkout-<hash> with 1", "scale checkout-6b8d 4 → 3", "delete checkout-1a2b". */
export function actionWords(a: PlanDeployment['actions'][number]): string {
  if (a.verb === 'create') return `create ${a.replicaSet ?? 'a new ReplicaSet (name not computed)'} with ${a.replicas}`;
  if (a.verb === 'scale') return `scale ${a.replicaSet} ${a.from} → ${a.to}`;
  return `delete ${a.replicaSet}`;
}

function headline(d: PlanDeployment): string {
  if (d.skip) return `skipped (${d.skip.reason}): ${d.skip.message}`;
  if (d.actions.length === 0) return d.statusChanged ? 'status update only' : 'annotations only';
  return `${d.actions.length} action${d.actions.length === 1 ? '' : 's'}${d.statusChanged ? ' and a status update' : ''}`;
}

export function renderDeploymentDiff(plan: Plan, chalk: ChalkInstance): string {
  const out = (plan.deployments ?? []).filter((d) => !d.inSync);
  if (out.length === 0) return '';
  const lines: string[] = ['', chalk.bold("Deployments (the deployment controller's next sync):")];
  for (const d of out) {
    lines.push(`deployment.apps/${d.name} (${d.namespace}, ${d.strategy}${d.paused ? ', paused' : ''}): ${headline(d)}`);
    for (const a of d.actions) lines.push(`  ${actionWords(a)}: ${a.message}`);
    for (const n of d.notes) lines.push(`  ${n}`);
    if (d.error) lines.push(`  then the sync ends: ${d.error}`);
  }
  return `${lines.join('\n')}\n`;
}
