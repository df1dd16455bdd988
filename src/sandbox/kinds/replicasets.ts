// ReplicaSets (pkg/registry/apps/replicaset): the kind rs-reconcile's controller manages; the
// selector is immutable in apps/v1, and status starts at `replicas: 0`.
import { defaultPodSpec } from '../defaults.js';
import { COLUMNS, replicaRow } from '../table.js';
import { isObj } from '../../core/guards.js';
import { validateReplicaSetSpec, validateSelectorImmutable } from '../validation-apps.js';
import { validateReplicaStatus } from '../validation-core.js';
import { ALL_VERBS, SCALE, STATUS, type Kind } from './kind.js';
import { templateListStrategy, zeroTemplate } from './pod-template.js';

export const replicasets: Kind = {
  name: 'replicasets',
  singularName: 'replicaset',
  kind: 'ReplicaSet',
  listKind: 'ReplicaSetList',
  group: 'apps',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['rs'],
  categories: ['all'],
  subresources: { status: STATUS, scale: SCALE },
  generation: true,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'P1RzHs8/mWQ=',
  protobuf: 'apps.v1.ReplicaSet',
  // SetDefaults_ReplicaSet (apps/v1): one replica; the template's pod spec as a pod's, without admission.
  defaults(o) {
    o.spec ??= {};
    o.spec.replicas ??= 1;
    if (isObj(o.spec.template)) defaultPodSpec(o.spec.template.spec, false);
  },
  // status.replicas, 0 when absent (ReplicaSetToSelectableFields / ControllerToSelectableFields)
  selectableFields: { 'status.replicas': (o) => String(o.status?.replicas ?? 0) },
  createStatus: () => ({ replicas: 0 }),
  seedStatus: () => ({ replicas: 0 }),
  validate(o, errs) {
    validateReplicaSetSpec(o, errs);
    validateReplicaStatus(o, errs);
  },
  validateUpdate: validateSelectorImmutable,
  validateStatus: validateReplicaStatus,
  columns: COLUMNS.replicasets,
  row: (o, now) => replicaRow(o, now, false),
  listStrategy: templateListStrategy,
  zero: () => ({ metadata: {}, spec: { template: zeroTemplate() }, status: {} }),
};
