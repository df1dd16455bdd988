// `explain`: one controller's story (or a Deployment's ReplicaSets', as a tree) and one pod's,
// from the plan `diff` computes. The decisions are the planner's; nothing is decided here.

import type { DeploymentTree } from '../core/explain-deployment.js';
import type { ExplainModel } from '../core/explain-types.js';
import type { Plan } from '../core/plan-types.js';
import type { PodExplanation } from '../core/pod-explain-types.js';
import { buildPodExplanation, findPods, podExplanationActs } from '../core/pod-explain.js';
import { UserError } from '../errors.js';
import { diffInSync, explainModels, preparePlan, type ModelOptions, type PlanIO, type SourceOptions } from './plan-service.js';
import type { Target } from './targets.js';

export interface ControllerStory {
  /** Exactly the selected controllers, as diff -o json prints them. */
  plan: Plan;
  notices: string[];
  /** The stories and, for deploy/NAME, the trees: built when drawn (-o json prints the plan). */
  stories(): { models: ExplainModel[]; trees: DeploymentTree[] };
  /** Whether the sync would act: --exit-code's 1. */
  acts: boolean;
}

/** explain NAME, rs/NAME, rc/NAME, deploy/NAME: the plan of one controller (or one Deployment's ReplicaSets). */
export async function explainController(src: SourceOptions, model: ModelOptions, target: Target, io: PlanIO): Promise<ControllerStory> {
  // the stories tell the decisions the plan shows
  const ctx = await preparePlan(src, { ...model, keepDecisions: true }, [target], io);
  // one controller, or the ReplicaSets of one Deployment: in one namespace either way
  const namespaces = [...new Set(ctx.selected.map((c) => c.metadata.namespace ?? 'default'))].sort();
  if (namespaces.length > 1 || (target.kind !== 'Deployment' && ctx.selected.length > 1)) {
    throw new UserError(`"${target.name}" exists in several namespaces (${namespaces.join(', ')}): choose one with -n`);
  }
  return { plan: ctx.plan, notices: ctx.notices, stories: () => explainModels(ctx, target), acts: !diffInSync(ctx.plan) };
}

export interface PodStory {
  explanation: PodExplanation;
  notices: string[];
  /** Whether a controller would adopt, release or delete the pod: --exit-code's 1. */
  acts: boolean;
}

/**
 * explain pod/NAME: every controller's view of one pod. --replicas applies to the controller
 * that counts the pod, which only the pod's story finds: the plan is read without it.
 */
export async function explainPod(src: SourceOptions, model: ModelOptions, name: string, io: PlanIO): Promise<PodStory> {
  const { replicas, ...unscaled } = model;
  // plan no controller yet: which ones list the pod is the model's question
  const ctx = await preparePlan(src, unscaled, [], io, () => false);
  const namespace = ctx.source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : ctx.namespace;
  const pods = findPods(ctx.snapshot, name, namespace);
  if (pods.length === 0)
    throw new UserError(`pods "${name}" not found${namespace === null ? (ctx.source === 'file' ? ' in the snapshot' : '') : ` in ${namespace} namespace`}`);
  if (pods.length > 1) {
    const where = pods
      .map((p) => p.metadata.namespace ?? 'default')
      .sort()
      .join(', ');
    throw new UserError(`pod "${name}" exists in several namespaces (${where}): choose one with -n`);
  }
  const explanation = buildPodExplanation({
    snapshot: ctx.snapshot,
    options: { now: ctx.nowMs, behaviour: ctx.behaviour, source: ctx.source, burstReplicas: ctx.planner.burstReplicas },
    planner: ctx.planner,
    pod: pods[0],
    replicas,
  });
  return { explanation, notices: ctx.notices, acts: podExplanationActs(explanation) };
}
