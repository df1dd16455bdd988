// `explain deploy/NAME --image C=IMAGE` (--replicas, --set-template-label, --undo): the rollout the
// change starts, foreseen with both controllers' rules. The decisions are core/deployment's.

import { predictRollout, rolloutPrediction, type RolloutAssumptions, type RolloutPrediction } from '../core/deployment/rollout.js';
import { applyRolloutChange, type RolloutChange } from '../core/deployment/rollout-change.js';
import type { Deployment } from '../core/types.js';
import { UserError } from '../errors.js';
import { preparePlan, type ModelOptions, type PlanIO, type SourceOptions } from './plan-service.js';

export interface RolloutStory {
  prediction: RolloutPrediction;
  /** The Deployment as the change leaves it (the prediction's starting point). */
  deployment: Deployment;
  /** What the change wrote, in words, where it is not plain from the flags (rollout undo). */
  changeNotes: string[];
  notices: string[];
}

export async function explainRollout(
  src: SourceOptions,
  model: ModelOptions,
  name: string,
  change: RolloutChange,
  assumptions: RolloutAssumptions,
  io: PlanIO,
): Promise<RolloutStory> {
  const { replicas: _replicas, ...unscaled } = model;
  // no ReplicaSet is planned here: the snapshot, the behaviour and the clock are what the prediction reads
  const ctx = await preparePlan({ ...src, deployments: true }, unscaled, [], io, () => false);
  const all = ctx.snapshot.deployments;
  if (all === null)
    throw new UserError(`the Deployment ${name} could not be read (deployments.apps is not listable with these credentials): there is nothing to foresee from`);
  const namespace = ctx.source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : ctx.namespace;
  const found = (all ?? []).filter((d) => d.metadata.name === name && (namespace === null || (d.metadata.namespace ?? 'default') === namespace));
  if (found.length === 0) {
    const where = namespace === null ? (ctx.source === 'file' ? ' in the snapshot' : '') : ` in namespace "${namespace}"`;
    const hint = ctx.source === 'file' ? ' (a snapshot for a rollout holds it: kubectl get deploy,rs,pods -o yaml)' : '';
    throw new UserError(`deployments.apps "${name}" not found${where}${hint}`);
  }
  if (found.length > 1) {
    const where = found.map((d) => d.metadata.namespace ?? 'default').sort();
    throw new UserError(`deployment "${name}" exists in several namespaces (${where.join(', ')}): choose one with -n`);
  }
  const before = found[0];
  const ns = before.metadata.namespace ?? 'default';
  const inNamespace = <T extends { metadata: { namespace?: string } }>(xs: T[]) => xs.filter((x) => (x.metadata.namespace ?? 'default') === ns);
  const replicaSets = inNamespace(ctx.snapshot.controllers.ReplicaSet);
  const changed = applyRolloutChange(before, replicaSets, change);
  if (!changed.ok) throw new UserError(changed.error);
  const result = predictRollout({
    deployment: changed.deployment,
    replicaSets,
    pods: inNamespace(ctx.snapshot.pods),
    nowMs: ctx.nowMs,
    behaviour: ctx.behaviour,
    assumptions,
    burstReplicas: ctx.planner.burstReplicas,
  });
  const prediction = rolloutPrediction(
    { nowMs: ctx.nowMs, behaviour: ctx.behaviour, source: ctx.source, deployment: changed.deployment, change, assumptions },
    result,
  );
  return { prediction, deployment: changed.deployment, changeNotes: changed.notes, notices: ctx.notices };
}
