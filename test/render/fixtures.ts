// Hand-built plans and explain models for the renderer tests: realistic, self-consistent
// values as the planner would produce them.

import { podOutcome } from '../../src/core/explain.js';
import { summarize } from '../../src/core/plan.js';
import type { ExplainModel, ExplainPodRow } from '../../src/core/explain-types.js';
import type { Plan, PlanController, PlanStatus } from '../../src/core/plan-types.js';

export const NOW = '2026-01-01T00:00:00Z';

function status(partial: Partial<PlanStatus>): PlanStatus {
  return {
    replicas: 0,
    fullyLabeledReplicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    observedGeneration: 1,
    terminatingReplicas: 0,
    conditions: [],
    ...partial,
  };
}

function controller(partial: Partial<PlanController> & Pick<PlanController, 'name'>): PlanController {
  return {
    kind: 'ReplicaSet',
    namespace: 'shop',
    uid: `uid-${partial.name}`,
    inSync: false,
    skip: null,
    replicas: { desired: 0, current: 0 },
    pods: [],
    create: { count: 0, batches: [] },
    delete: [],
    status: status({}),
    statusChanged: false,
    requeueAfterSeconds: null,
    warnings: [],
    ...partial,
  };
}

/** shop/web-7d4f8: adopts an orphan, releases a pod that stopped matching, deletes the unscheduled one. */
export const webRs = controller({
  name: 'web-7d4f8',
  uid: '5f0c2a9e-1d2b-4c3d-9e8f-0a1b2c3d4e5f',
  replicas: { desired: 3, current: 4 },
  pods: [
    { name: 'old-job-1', uid: 'p-0', decision: 'ignore', reason: 'Inactive', message: 'phase Succeeded: inactive pods are never counted, adopted or deleted' },
    { name: 'web-7d4f8-a', uid: 'p-1', decision: 'keep', reason: 'OwnedMatching', message: 'owned by this ReplicaSet and matches its selector' },
    { name: 'web-7d4f8-b', uid: 'p-2', decision: 'keep', reason: 'OwnedMatching', message: 'owned by this ReplicaSet and matches its selector' },
    {
      name: 'web-7d4f8-q',
      uid: 'p-3',
      decision: 'release',
      reason: 'OwnedNotMatching',
      message: 'owned by this ReplicaSet but its labels (app=web-debug) no longer match app=web: its owner reference is removed',
    },
    {
      name: 'web-7d4f8-x',
      uid: 'p-4',
      decision: 'adopt',
      reason: 'OrphanMatching',
      message: 'has no controller owner and matches app=web: an owner reference to this ReplicaSet is added',
    },
    { name: 'web-7d4f8-z', uid: 'p-5', decision: 'keep', reason: 'OwnedMatching', message: 'owned by this ReplicaSet and matches its selector' },
  ],
  delete: [{ name: 'web-7d4f8-z', uid: 'p-5', reason: 'Unscheduled', message: 'it has no node, while web-7d4f8-a (the first pod that stays) runs on node-1' }],
  status: status({ replicas: 4, fullyLabeledReplicas: 4, readyReplicas: 3, availableReplicas: 2, observedGeneration: 5 }),
  statusChanged: true,
  requeueAfterSeconds: 10,
  warnings: [
    {
      code: 'OverlappingSelectors',
      message: 'selector app=web overlaps with ReplicaSet shop/web-legacy: both try to adopt the same orphans',
      pods: ['web-7d4f8-x'],
    },
  ],
});

/** shop/api: 4 missing pods. */
export const apiRs = controller({
  name: 'api',
  replicas: { desired: 4, current: 0 },
  create: { count: 4, batches: [1, 2, 1] },
  status: status({ replicas: 0, observedGeneration: 2 }),
  statusChanged: true,
});

/** shop/cache: nothing to do. */
export const cacheRs = controller({
  name: 'cache',
  inSync: true,
  replicas: { desired: 2, current: 2 },
  pods: [
    { name: 'cache-1', uid: 'c-1', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' },
    { name: 'cache-2', uid: 'c-2', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' },
  ],
  status: status({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 3 }),
});

/** shop/broken: invalid selector, upstream does nothing. */
export const brokenRs = controller({
  name: 'broken',
  inSync: false, // upstream never syncs it
  skip: { reason: 'InvalidSelector', message: 'selector tier notin (): values: must be non-empty for operator NotIn' },
  replicas: { desired: 2, current: 0 },
  status: status({ replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 }),
  warnings: [{ code: 'InvalidSelector', message: 'invalid selector: tier notin (): values: must be non-empty for operator NotIn' }],
});

/** batch/worker: scaled to zero. */
export const workerRs = controller({
  name: 'worker',
  namespace: 'batch',
  replicas: { desired: 0, current: 2 },
  pods: [
    { name: 'worker-1', uid: 'w-1', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' },
    { name: 'worker-2', uid: 'w-2', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' },
  ],
  delete: [
    { name: 'worker-1', uid: 'w-1', reason: 'ScaleToZero', message: 'every active pod is deleted: no pod is kept' },
    { name: 'worker-2', uid: 'w-2', reason: 'ScaleToZero', message: 'every active pod is deleted: no pod is kept' },
  ],
  status: status({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 7 }),
  statusChanged: true,
});

/** batch/leaving: being deleted; status still written (ReplicaFailure removed). */
export const leavingRs = controller({
  name: 'leaving',
  namespace: 'batch',
  skip: { reason: 'ControllerDeleting', message: 'the ReplicaSet has a deletionTimestamp (2025-12-31T23:59:00Z)' },
  replicas: { desired: 3, current: 1 },
  pods: [
    { name: 'leaving-1', uid: 'l-1', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' },
    {
      name: 'stray',
      uid: 'l-2',
      decision: 'ignore',
      reason: 'ControllerDeleting',
      message: 'an orphan that matches, but a controller being deleted adopts nothing',
    },
  ],
  status: status({ replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 }),
  statusChanged: true,
});

/** default/db: a ReplicationController with one pod to create. */
export const dbRc = controller({
  kind: 'ReplicationController',
  namespace: 'default',
  name: 'db',
  replicas: { desired: 2, current: 1 },
  pods: [{ name: 'db-abc', uid: 'd-1', decision: 'keep', reason: 'OwnedMatching', message: 'owned and matching' }],
  create: { count: 1, batches: [1] },
  status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1, conditions: [] },
  statusChanged: false,
});

export function planOf(controllers: PlanController[]): Plan {
  return {
    apiVersion: 'rs-reconcile/v1alpha1',
    kind: 'ReconcilePlan',
    now: NOW,
    kubernetesVersion: '1.35',
    source: 'file',
    whatIf: null,
    summary: summarize(controllers),
    controllers,
  };
}

/** Every controller above, sorted by namespace, kind, name like the planner does. */
export const fullPlan = planOf(
  [workerRs, leavingRs, dbRc, apiRs, brokenRs, cacheRs, webRs].sort(
    (a, b) => a.namespace.localeCompare(b.namespace) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name),
  ),
);

function pod(partial: Partial<ExplainPodRow> & Pick<ExplainPodRow, 'name'>, plan: PlanController): ExplainPodRow {
  const p = plan.pods.find((x) => x.name === partial.name);
  if (!p) throw new Error(`fixture: ${partial.name} is not in the plan`);
  const deleteIndex = plan.delete.findIndex((d) => d.name === partial.name);
  return {
    uid: p.uid,
    decision: p.decision,
    reason: p.reason,
    message: p.message,
    node: 'node-1',
    phase: 'Running',
    ready: true,
    restarts: 0,
    sidecarRestarts: 0,
    creationTimestamp: '2025-12-31T20:56:00Z',
    ageSeconds: 3 * 3600 + 4 * 60,
    readySeconds: 3 * 3600,
    deletionCost: 0,
    deletionCostAnnotation: null,
    colocated: 1,
    deleteIndex: deleteIndex === -1 ? null : deleteIndex,
    outcome: podOutcome(p.decision, deleteIndex !== -1),
    ...partial,
  };
}

export const webModel: ExplainModel = {
  kind: 'ReplicaSet',
  namespace: 'shop',
  name: 'web-7d4f8',
  now: NOW,
  kubernetesVersion: '1.35',
  selector: 'app=web,pod-template-hash=7d4f8',
  selectorError: null,
  templateLabels: { app: 'web', 'pod-template-hash': '7d4f8' },
  minReadySeconds: 10,
  generation: 5,
  object: { replicas: webRs.replicas.desired, generation: 5 },
  whatIf: null,
  owner: { kind: 'Deployment', name: 'web', uid: '0b6f3c1e-8a7d-4e2f-b1c0-9d8e7f6a5b4c', found: true },
  siblings: ['web-6c9f1'],
  pods: [
    pod({ name: 'old-job-1', phase: 'Succeeded', ready: false, readySeconds: null, ageSeconds: 120 * 86400 }, webRs),
    pod({ name: 'web-7d4f8-a', deletionCostAnnotation: '-007', deletionCost: -7, colocated: 2 }, webRs),
    pod(
      { name: 'web-7d4f8-b', node: 'node-2', readySeconds: 0, ageSeconds: 45, restarts: 2, sidecarRestarts: 1, deletionCostAnnotation: '+5', deletionCost: 0 },
      webRs,
    ),
    pod({ name: 'web-7d4f8-q', node: 'node-3', ageSeconds: 12 * 60, readySeconds: 11 * 60 }, webRs),
    pod({ name: 'web-7d4f8-x', node: 'node-1', ageSeconds: 2 * 86400 + 5 * 3600, readySeconds: 2 * 86400 }, webRs),
    pod(
      { name: 'web-7d4f8-z', node: null, phase: 'Pending', ready: false, readySeconds: null, ageSeconds: 30, creationTimestamp: '2025-12-31T23:59:30Z' },
      webRs,
    ),
  ],
  statusBefore: {
    replicas: 3,
    fullyLabeledReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    observedGeneration: 4,
    terminatingReplicas: 0,
    conditions: [],
  },
  plan: webRs,
};

export const brokenModel: ExplainModel = {
  kind: 'ReplicaSet',
  namespace: 'shop',
  name: 'broken',
  now: NOW,
  kubernetesVersion: '1.35',
  selector: 'tier notin ()',
  selectorError: 'values: must be non-empty for operator NotIn',
  templateLabels: { tier: 'x' },
  minReadySeconds: 0,
  generation: 1,
  object: { replicas: brokenRs.replicas.desired, generation: 1 },
  whatIf: null,
  owner: null,
  siblings: [],
  pods: [],
  statusBefore: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1, terminatingReplicas: 0, conditions: [] },
  plan: brokenRs,
};

export const workerModel: ExplainModel = {
  kind: 'ReplicaSet',
  namespace: 'batch',
  name: 'worker',
  now: NOW,
  kubernetesVersion: '1.35',
  selector: 'app=worker',
  selectorError: null,
  templateLabels: { app: 'worker' },
  minReadySeconds: 0,
  generation: 7,
  object: { replicas: workerRs.replicas.desired, generation: 7 },
  whatIf: null,
  owner: { kind: 'Deployment', name: 'worker', uid: 'd-worker', found: false },
  siblings: [],
  pods: [pod({ name: 'worker-1' }, workerRs), pod({ name: 'worker-2', node: 'node-2' }, workerRs)],
  statusBefore: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 6, terminatingReplicas: 0, conditions: [] },
  plan: workerRs,
};

export const leavingModel: ExplainModel = {
  kind: 'ReplicaSet',
  namespace: 'batch',
  name: 'leaving',
  now: NOW,
  kubernetesVersion: '1.35',
  selector: 'app=leaving',
  selectorError: null,
  templateLabels: { app: 'leaving' },
  minReadySeconds: 0,
  generation: 2,
  object: { replicas: leavingRs.replicas.desired, generation: 2 },
  whatIf: null,
  owner: null,
  siblings: [],
  pods: [pod({ name: 'leaving-1' }, leavingRs), pod({ name: 'stray', node: 'node-9' }, leavingRs)],
  statusBefore: {
    replicas: 1,
    fullyLabeledReplicas: 1,
    readyReplicas: 1,
    availableReplicas: 1,
    observedGeneration: 2,
    terminatingReplicas: 0,
    conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "leaving-" is forbidden: exceeded quota' }],
  },
  plan: leavingRs,
};

export const dbModel: ExplainModel = {
  kind: 'ReplicationController',
  namespace: 'default',
  name: 'db',
  now: NOW,
  kubernetesVersion: '1.35',
  selector: 'app=db',
  selectorError: null,
  templateLabels: { app: 'db' },
  minReadySeconds: 0,
  generation: 1,
  object: { replicas: dbRc.replicas.desired, generation: 1 },
  whatIf: null,
  owner: null,
  siblings: [],
  pods: [pod({ name: 'db-abc' }, dbRc)],
  statusBefore: {
    replicas: 1,
    fullyLabeledReplicas: 1,
    readyReplicas: 1,
    availableReplicas: 1,
    observedGeneration: 1,
    terminatingReplicas: null,
    conditions: [],
  },
  plan: dbRc,
};

/** An api model with a burst-capped create (1200 missing, 500 created). */
export function burstModel(): ExplainModel {
  const plan = controller({
    name: 'big',
    replicas: { desired: 1200, current: 0 },
    create: { count: 500, batches: [1, 2, 4, 8, 16, 32, 64, 128, 245] },
    status: status({ replicas: 0, observedGeneration: 1 }),
    warnings: [{ code: 'BurstCapped', message: '1200 pods are missing; at most 500 are created per sync' }],
  });
  return {
    ...dbModel,
    kind: 'ReplicaSet',
    name: 'big',
    namespace: 'shop',
    selector: 'app=big',
    templateLabels: { app: 'big' },
    pods: [],
    plan,
    statusBefore: { ...dbModel.statusBefore, replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, terminatingReplicas: 0 },
  };
}
