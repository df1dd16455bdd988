// The resources the sandbox serves, with what discovery says about them.

export interface ResourceDef {
  /** Plural resource name, as in URLs. */
  name: string;
  singularName: string;
  kind: string;
  listKind: string;
  group: string;
  version: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** Subresources with their own verbs; scale is served as autoscaling/v1 Scale. */
  subresources: Record<string, { verbs: string[]; group?: string; version?: string; kind?: string }>;
  /** Whether metadata.generation is tracked (bumped on spec changes). */
  generation: boolean;
  /** Whether a PUT may create the object (Events allow it). */
  allowCreateOnUpdate: boolean;
  /** Default propagation when a DELETE does not say (RCs in core/v1 orphan for compatibility). */
  defaultPropagation: 'Background' | 'Orphan';
  storageVersionHash: string;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = { verbs: ['get', 'patch', 'update'] };
const SCALE = { verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' };

export const RESOURCES: ResourceDef[] = [
  {
    name: 'namespaces', singularName: 'namespace', kind: 'Namespace', listKind: 'NamespaceList', group: '', version: 'v1',
    namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'],
    subresources: { status: STATUS, finalize: { verbs: ['update'] } }, generation: false, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: 'Q3oi5N2YM8M=',
  },
  {
    name: 'pods', singularName: 'pod', kind: 'Pod', listKind: 'PodList', group: '', version: 'v1', namespaced: true,
    verbs: ALL_VERBS, shortNames: ['po'], categories: ['all'],
    subresources: { status: STATUS, binding: { verbs: ['create'], kind: 'Binding' } }, generation: true,
    allowCreateOnUpdate: false, defaultPropagation: 'Background', storageVersionHash: 'xPOwRZ+Yhw8=',
  },
  {
    name: 'nodes', singularName: 'node', kind: 'Node', listKind: 'NodeList', group: '', version: 'v1', namespaced: false,
    verbs: ALL_VERBS, shortNames: ['no'], subresources: { status: STATUS }, generation: false, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: 'XwShjMxG9Fs=',
  },
  {
    name: 'events', singularName: 'event', kind: 'Event', listKind: 'EventList', group: '', version: 'v1', namespaced: true,
    verbs: ALL_VERBS, shortNames: ['ev'], subresources: {}, generation: false, allowCreateOnUpdate: true,
    defaultPropagation: 'Background', storageVersionHash: 'r2yiGXH7wu8=',
  },
  {
    name: 'configmaps', singularName: 'configmap', kind: 'ConfigMap', listKind: 'ConfigMapList', group: '', version: 'v1',
    namespaced: true, verbs: ALL_VERBS, shortNames: ['cm'], subresources: {}, generation: false, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: 'qFsyl6wFWjQ=',
  },
  {
    name: 'secrets', singularName: 'secret', kind: 'Secret', listKind: 'SecretList', group: '', version: 'v1', namespaced: true,
    verbs: ALL_VERBS, subresources: {}, generation: false, allowCreateOnUpdate: false, defaultPropagation: 'Background',
    storageVersionHash: 'S6u1pOWzb84=',
  },
  {
    name: 'serviceaccounts', singularName: 'serviceaccount', kind: 'ServiceAccount', listKind: 'ServiceAccountList', group: '',
    version: 'v1', namespaced: true, verbs: ALL_VERBS, shortNames: ['sa'], subresources: {}, generation: false,
    allowCreateOnUpdate: false, defaultPropagation: 'Background', storageVersionHash: 'pbx9ZvyFpBE=',
  },
  {
    name: 'replicationcontrollers', singularName: 'replicationcontroller', kind: 'ReplicationController',
    listKind: 'ReplicationControllerList', group: '', version: 'v1', namespaced: true, verbs: ALL_VERBS,
    shortNames: ['rc'], categories: ['all'], subresources: { status: STATUS, scale: SCALE }, generation: true,
    allowCreateOnUpdate: false, defaultPropagation: 'Orphan', storageVersionHash: 'Jond2If31h0=',
  },
  {
    name: 'deployments', singularName: 'deployment', kind: 'Deployment', listKind: 'DeploymentList', group: 'apps',
    version: 'v1', namespaced: true, verbs: ALL_VERBS, shortNames: ['deploy'], categories: ['all'],
    subresources: { status: STATUS, scale: SCALE }, generation: true, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: '8aSe+NMegvE=',
  },
  {
    name: 'replicasets', singularName: 'replicaset', kind: 'ReplicaSet', listKind: 'ReplicaSetList', group: 'apps',
    version: 'v1', namespaced: true, verbs: ALL_VERBS, shortNames: ['rs'], categories: ['all'],
    subresources: { status: STATUS, scale: SCALE }, generation: true, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: 'P1RzHs8/mWQ=',
  },
  {
    name: 'leases', singularName: 'lease', kind: 'Lease', listKind: 'LeaseList', group: 'coordination.k8s.io',
    version: 'v1', namespaced: true, verbs: ALL_VERBS, subresources: {}, generation: false, allowCreateOnUpdate: false,
    defaultPropagation: 'Background', storageVersionHash: 'gqkMMb/YqFM=',
  },
];

export function apiVersionOf(r: ResourceDef): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function findResource(group: string, version: string, name: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.name === name);
}

export function resourceByName(name: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.name === name);
}

/** The resource of an object's apiVersion and kind (`apps/v1` + `ReplicaSet`). */
export function resourceForKind(apiVersion: string | undefined, kind: string | undefined): ResourceDef | undefined {
  if (!kind) return undefined;
  return RESOURCES.find((r) => r.kind === kind && (apiVersion === undefined || apiVersionOf(r) === apiVersion));
}

export function groupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of RESOURCES) seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()];
}
