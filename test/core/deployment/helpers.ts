// Builders for the deployment controller's rule tests: a Deployment and its ReplicaSets with only
// the fields the rules read. The cases carry over upstream's own tests (pkg/controller/deployment
// *_test.go): their inputs and expected numbers, not their code.

import { decideDeployment } from '../../../src/core/deployment/controller.js';
import type { DeploymentDecision } from '../../../src/core/deployment/types.js';
import type { Deployment, DeploymentCondition, IntOrString, Pod, ReplicaSet } from '../../../src/core/types.js';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import { ago, bh, NOW } from '../rules/helpers.js';

export { ago, bh, NOW };

export const TEMPLATE = (image = 'nginx:1.27') => ({
  metadata: { labels: { app: 'web' } as Record<string, string> },
  spec: { containers: [{ name: 'c', image }] },
});

export interface DeployOpts {
  name?: string;
  replicas?: number;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  strategy?: 'RollingUpdate' | 'Recreate';
  image?: string;
  generation?: number;
  paused?: boolean;
  revisionHistoryLimit?: number | null;
  progressDeadlineSeconds?: number | null;
  minReadySeconds?: number;
  status?: Deployment['status'];
  annotations?: Record<string, string>;
  deletionTimestamp?: string;
}

export function deploy(o: DeployOpts = {}): Deployment {
  const strategy =
    o.strategy === 'Recreate'
      ? { type: 'Recreate' }
      : { type: 'RollingUpdate', rollingUpdate: { maxSurge: o.maxSurge ?? '25%', maxUnavailable: o.maxUnavailable ?? '25%' } };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: o.name ?? 'web',
      namespace: 'default',
      uid: 'deploy-uid',
      generation: o.generation ?? 1,
      annotations: o.annotations ?? null,
      creationTimestamp: ago(86400000),
      deletionTimestamp: o.deletionTimestamp ?? null,
    },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      template: TEMPLATE(o.image),
      strategy,
      minReadySeconds: o.minReadySeconds ?? 0,
      revisionHistoryLimit: o.revisionHistoryLimit === undefined ? 10 : o.revisionHistoryLimit,
      paused: o.paused ?? false,
      progressDeadlineSeconds: o.progressDeadlineSeconds === undefined ? 600 : o.progressDeadlineSeconds,
    },
    status: o.status ?? {},
  };
}

export interface RSOpts {
  name: string;
  replicas: number;
  /** status.replicas (default: replicas) */
  actual?: number;
  available?: number;
  ready?: number;
  image?: string;
  revision?: number;
  /** seconds before NOW it was created (older ReplicaSets: larger) */
  ageSeconds?: number;
  desired?: number;
  max?: number;
  owner?: string | null;
  generation?: number;
  observedGeneration?: number;
  deletionTimestamp?: string;
  terminating?: number;
  minReadySeconds?: number;
  annotations?: Record<string, string>;
}

export function rs(o: RSOpts): ReplicaSet {
  const annotations: Record<string, string> = { ...(o.annotations ?? {}) };
  if (o.revision !== undefined) annotations[REVISION_ANNOTATION] = String(o.revision);
  if (o.desired !== undefined) annotations[DESIRED_REPLICAS_ANNOTATION] = String(o.desired);
  if (o.max !== undefined) annotations[MAX_REPLICAS_ANNOTATION] = String(o.max);
  const template = TEMPLATE(o.image ?? 'nginx:1.27');
  template.metadata.labels = { ...template.metadata.labels, 'pod-template-hash': o.name.replace(/^web-/, '') };
  const actual = o.actual ?? o.replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: o.name,
      namespace: 'default',
      uid: `uid-${o.name}`,
      generation: o.generation ?? 1,
      labels: { ...template.metadata.labels },
      annotations,
      creationTimestamp: ago((o.ageSeconds ?? 3600) * 1000),
      deletionTimestamp: o.deletionTimestamp ?? null,
      ownerReferences:
        o.owner === null
          ? null
          : [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: o.owner ?? 'deploy-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: { replicas: o.replicas, minReadySeconds: o.minReadySeconds ?? 0, selector: { matchLabels: { ...template.metadata.labels } }, template },
    status: {
      replicas: actual,
      fullyLabeledReplicas: actual,
      readyReplicas: o.ready ?? o.available ?? actual,
      availableReplicas: o.available ?? actual,
      observedGeneration: o.observedGeneration ?? o.generation ?? 1,
      ...(o.terminating !== undefined ? { terminatingReplicas: o.terminating } : {}),
    },
  };
}

export function decide(d: Deployment, rss: ReplicaSet[], o: { minor?: number; pods?: Pod[] | null; nowMs?: number } = {}): DeploymentDecision {
  return decideDeployment({ deployment: d, replicaSets: rss, pods: o.pods ?? null, nowMs: o.nowMs ?? NOW, behaviour: bh(o.minor ?? 35) });
}

/** The actions as short strings: "create ?=1", "scale web-a 4→3", "delete web-b". */
export function acts(dec: DeploymentDecision): string[] {
  return dec.actions.map((a) =>
    a.verb === 'create'
      ? `create ${a.replicaSet ?? '?'}=${a.replicas}`
      : a.verb === 'scale'
        ? `scale ${a.replicaSet} ${a.from}→${a.to}`
        : `delete ${a.replicaSet}`,
  );
}

export function cond(type: string, status: string, reason: string, updatedAgoMs = 0, transitionAgoMs = updatedAgoMs): DeploymentCondition {
  return { type, status, reason, message: '', lastUpdateTime: ago(updatedAgoMs), lastTransitionTime: ago(transitionAgoMs) };
}
