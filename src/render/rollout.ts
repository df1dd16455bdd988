// `explain deploy/NAME --image C=IMAGE` (or --replicas, --set-template-label, --undo): the rollout
// foreseen, as a header, a timeline of the ReplicaSet sizes and every step of both controllers with
// its reason.

import type { RolloutPrediction, RolloutStep } from '../core/deployment/rollout.js';
import type { RolloutChange } from '../core/deployment/rollout-change.js';
import type { Deployment } from '../core/types.js';
import { maxSurge, maxSurgeValue, maxUnavailable, maxUnavailableValue, deploymentReplicas, strategyType } from '../core/deployment/util.js';
import { type ExplainOptions, effectiveWidth, field, INDENT, para } from './explain-text.js';
import { type Cell, type Column, plural, renderTable, sanitizeDeep } from './text.js';

/** `image app=nginx:1.27, replicas 6`: the change in kubectl's words. */
export function changeWords(change: RolloutChange): string {
  const parts: string[] = [];
  if (change.undo) parts.push(change.undo.toRevision === 0 ? 'rollout undo' : `rollout undo --to-revision ${change.undo.toRevision}`);
  if (change.image)
    parts.push(
      `set image ${Object.entries(change.image)
        .map(([c, i]) => `${c}=${i}`)
        .join(' ')}`,
    );
  if (change.templateLabels)
    parts.push(
      `template label ${Object.entries(change.templateLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
    );
  if (change.replicas !== undefined) parts.push(`scale --replicas ${change.replicas}`);
  return parts.join(', ');
}

/** The strategy's bounds in the controller's own arithmetic. */
function strategyWords(d: Deployment): string {
  const type = strategyType(d);
  if (type === 'Recreate') return 'Recreate: every old pod is gone before the new ReplicaSet scales up';
  const replicas = deploymentReplicas(d);
  const surge = maxSurge(d);
  const unavailable = maxUnavailable(d);
  const of = (v: unknown) => (typeof v === 'string' && v.endsWith('%') ? `${v} of ${replicas} = ` : '');
  return (
    `RollingUpdate: maxSurge ${of(maxSurgeValue(d))}${surge} (rounded up), so at most ${replicas + surge} pods; ` +
    `maxUnavailable ${of(maxUnavailableValue(d))}${unavailable} (rounded down), so at least ${Math.max(0, replicas - unavailable)} available`
  );
}

/** What the prediction assumes of the kubelet, in words (also the html page's header). */
export function assumptionWords(p: RolloutPrediction): string {
  const a = p.assumptions;
  const ready = a.podReadyAfterSeconds === null ? 'new pods never turn ready' : `new pods turn ready ${a.podReadyAfterSeconds}s after they are created`;
  const gone = a.podGoneAfterSeconds > 0 ? `deleted pods are gone ${a.podGoneAfterSeconds}s after the delete` : 'deleted pods are gone at once';
  return `${ready}; ${gone}; the pods that exist keep their state; new pods are named NAME-newN in place of the server's random suffix`;
}

/** How the prediction ends, with its counts of writes, in words. */
export function endWords(p: RolloutPrediction): string {
  const creates = p.steps.filter((s) => s.controller === 'replicaset' && s.verb === 'create').reduce((n, s) => n + (s as { pods: number }).pods, 0);
  const deletes = p.steps.filter((s) => s.controller === 'replicaset' && s.verb === 'delete').length;
  const scalings = p.steps.filter((s) => s.controller === 'deployment').length;
  const counts = `${plural(scalings, 'ReplicaSet write')}, ${plural(creates, 'pod')} created, ${plural(deletes, 'pod')} deleted`;
  const e = p.end;
  if (e.state === 'complete') return `complete after ${e.at}s: ${counts}`;
  if (e.state === 'stalled') return `stalls at ${e.at}s (${e.reason}): ${e.message}; ${counts} until then`;
  return `not followed further at ${e.at}s: ${e.message}; ${counts} until then`;
}

function stepWords(s: RolloutStep): string {
  if (s.controller === 'deployment') {
    if (s.verb === 'create') return `create ${s.replicaSet} with ${plural(s.replicas, 'replica')}`;
    if (s.verb === 'scale') return `scale ${s.replicaSet} ${s.from} → ${s.to}`;
    return `delete ${s.replicaSet}`;
  }
  if (s.verb === 'create') return `${s.replicaSet} creates ${plural(s.pods, 'pod')}`;
  return `${s.replicaSet} deletes ${s.pod} (${s.reason})`;
}

/** The whole prediction as text. */
export function renderRolloutPrediction(input: RolloutPrediction, deployment: Deployment, changeNotes: readonly string[], opts: ExplainOptions): string {
  const p = sanitizeDeep(input);
  const width = effectiveWidth(opts.width);
  const { chalk } = opts;
  const out = [chalk.bold(`Rollout of Deployment ${p.deployment.namespace}/${p.deployment.name}: ${changeWords(p.change)}`)];
  for (const note of changeNotes) out.push(...field('Change', note, width, chalk));
  out.push(...field('Strategy', strategyWords(deployment), width, chalk));
  out.push(...field('Assumes', assumptionWords(p), width, chalk));
  out.push(...field('Kubernetes', `${p.kubernetesVersion} (behaviour emulated)`, width, chalk));
  out.push(...field('Evaluated at', p.now, width, chalk));
  out.push(...field('Result', endWords(p), width, chalk, p.complete ? chalk.green : chalk.bold.yellow));

  const names = [...new Set(p.sizes.flatMap((s) => Object.keys(s).filter((k) => k !== 'at')))].sort((a, b) =>
    a === p.newReplicaSet ? -1 : b === p.newReplicaSet ? 1 : a < b ? -1 : 1,
  );
  out.push('', chalk.bold('ReplicaSet sizes') + chalk.dim(' (spec.replicas after each write of the deployment controller)'));
  if (p.sizes.length === 0) out.push(...para('none: the deployment controller writes no ReplicaSet size', width, chalk.dim));
  else {
    const columns: Column[] = [{ header: 'AT' }, ...names.map((n) => ({ header: n === p.newReplicaSet ? `${n} (new)` : n }))];
    const rows: Cell[][] = p.sizes.map((s) => [{ text: `${s.at}s` }, ...names.map((n) => ({ text: s[n] === undefined ? '-' : String(s[n]) }))]);
    out.push(
      ...renderTable(columns, rows, { gap: 2 })
        .trimEnd()
        .split('\n')
        .map((l) => INDENT + l),
    );
  }

  out.push('', chalk.bold('Steps') + chalk.dim(' (every write of either controller, in time order)'));
  for (const s of p.steps) {
    const head = `${INDENT}${`${s.at}s`.padEnd(7)}${s.controller.padEnd(11)}`;
    out.push(head + (s.verb === 'delete' ? chalk.red(stepWords(s)) : stepWords(s)));
    const message = 'message' in s ? s.message : '';
    if (message) out.push(...para(message, width, chalk.dim, ' '.repeat(head.length)));
  }
  return `${out.join('\n')}\n`;
}
