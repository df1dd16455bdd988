// ReplicationControllers (pkg/registry/core/replicationcontroller): core/v1's ReplicaSet, with a
// map selector defaulted from the template's labels, and orphaning deletes for compatibility.
import { defaultPodSpec } from '../defaults.js';
import { COLUMNS, replicaRow } from '../table.js';
import { isObj } from '../../core/guards.js';
import { validateRCSpec, validateReplicaStatus } from '../validation-core.js';
import { ALL_VERBS, SCALE, STATUS, type Kind } from './kind.js';
import { templateListStrategy } from './pod-template.js';

export const replicationcontrollers: Kind = {
  name: 'replicationcontrollers',
  singularName: 'replicationcontroller',
  kind: 'ReplicationController',
  listKind: 'ReplicationControllerList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['rc'],
  categories: ['all'],
  subresources: { status: STATUS, scale: SCALE },
  generation: true,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Orphan',
  storageVersionHash: 'Jond2If31h0=',
  protobuf: 'core.v1.ReplicationController',
  // SetDefaults_ReplicationController: selector and labels default to the template's labels.
  defaults(o) {
    o.spec ??= {};
    o.spec.replicas ??= 1;
    const tl = o.spec.template?.metadata?.labels;
    if (tl && Object.keys(tl).length) {
      if (!o.spec.selector || Object.keys(o.spec.selector).length === 0) o.spec.selector = { ...tl };
      if (!o.metadata.labels || Object.keys(o.metadata.labels).length === 0) o.metadata.labels = { ...tl };
    }
    if (isObj(o.spec.template)) defaultPodSpec(o.spec.template.spec, false);
  },
  // status.replicas, 0 when absent (ReplicaSetToSelectableFields / ControllerToSelectableFields)
  selectableFields: { 'status.replicas': (o) => String(o.status?.replicas ?? 0) },
  createStatus: () => ({ replicas: 0 }),
  seedStatus: () => ({ replicas: 0 }),
  validate(o, errs) {
    validateRCSpec(o, errs);
    validateReplicaStatus(o, errs);
  },
  validateStatus: validateReplicaStatus,
  // replicationControllerColumnDefinitions are replicaSetColumnDefinitions' (printers.go)
  columns: COLUMNS.replicasets,
  row: (o, now) => replicaRow(o, now, true),
  listStrategy: templateListStrategy,
  // A map selector: labels.SelectorFromSet(…).String(), keys sorted.
  scaleSelector: (o) =>
    Object.entries((o.spec?.selector ?? {}) as Record<string, string>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
};
