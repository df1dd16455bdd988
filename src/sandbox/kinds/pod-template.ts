// What a pod and the kinds that carry a pod template (ReplicaSet, ReplicationController,
// Deployment) share: the strategic-merge-patch strategies of PodSpec's lists (the
// `patchStrategy:"merge" patchMergeKey:"…"` tags of core/v1 types.go) and the zero template.
import type { ListStrategy } from './kind.js';

const POD_SPEC_LISTS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  schedulingGates: 'name',
};
const CONTAINER_LISTS: Record<string, string> = {
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  // resizePolicy, envFrom, command, args: no patchStrategy (`+listType=atomic`), so replaced whole.
};

/** The strategy of a list inside a PodSpec, by its path relative to the spec. */
export function podSpecListStrategy(rel: readonly string[]): ListStrategy | undefined {
  if (rel.length === 1 && POD_SPEC_LISTS[rel[0]]) return { merge: true, mergeKey: POD_SPEC_LISTS[rel[0]] };
  if (rel.length === 2 && ['containers', 'initContainers', 'ephemeralContainers'].includes(rel[0]) && CONTAINER_LISTS[rel[1]]) {
    return { merge: true, mergeKey: CONTAINER_LISTS[rel[1]] };
  }
  return undefined;
}

/** The lists of `spec.template` (its ObjectMeta's and its PodSpec's), for the templated kinds. */
export function templateListStrategy(path: readonly string[]): ListStrategy | undefined {
  const p = path.join('.');
  if (path[0] === 'spec' && path[1] === 'template' && path[2] === 'spec') return podSpecListStrategy(path.slice(3));
  if (p === 'spec.template.metadata.ownerReferences') return { merge: true, mergeKey: 'uid' };
  if (p === 'spec.template.metadata.finalizers') return { merge: true };
  return undefined;
}

/** A PodTemplateSpec's Go zero value: PodSpec.Containers has no omitempty, so it is `null`. */
export const zeroTemplate = (): { metadata: object; spec: { containers: null } } => ({ metadata: {}, spec: { containers: null } });
