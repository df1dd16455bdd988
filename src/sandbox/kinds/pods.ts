// Pods (pkg/registry/core/pod): graceful deletion, a status strategy that also keeps
// ownerReferences, updates limited to images and a few fields (ValidatePodUpdate).
import { defaultPodSpec, podQOS } from '../defaults.js';
import { COLUMNS, podRow } from '../table.js';
import { isObj } from '../../core/guards.js';
import { clone } from '../util.js';
import { validatePodSpec, validatePodStatus, validatePodUpdate } from '../validation-core.js';
import { ALL_VERBS, fieldBool, fieldString, STATUS, type Kind } from './kind.js';
import { podSpecListStrategy } from './pod-template.js';

export const pods: Kind = {
  name: 'pods',
  singularName: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['po'],
  categories: ['all'],
  subresources: { status: STATUS, binding: { verbs: ['create'], kind: 'Binding' } },
  generation: true,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'xPOwRZ+Yhw8=',
  protobuf: 'core.v1.Pod',
  gracefulDelete: true,
  // pod.ToSelectableFields
  selectableFields: {
    'spec.nodeName': fieldString('spec.nodeName'),
    'spec.restartPolicy': fieldString('spec.restartPolicy'),
    'spec.schedulerName': fieldString('spec.schedulerName'),
    'spec.serviceAccountName': fieldString('spec.serviceAccountName'),
    'spec.hostNetwork': fieldBool('spec.hostNetwork'),
    'status.phase': fieldString('status.phase'),
    'status.podIP': fieldString('status.podIP'),
    'status.nominatedNodeName': fieldString('status.nominatedNodeName'),
  },
  defaults(o, opts) {
    defaultPodSpec(o.spec, opts.admission !== false);
    if (opts.admission === false && isObj(o.spec) && (o.spec.serviceAccountName || o.spec.serviceAccount)) {
      o.spec.serviceAccountName ||= o.spec.serviceAccount; // the v1 conversion of PodSpec
      o.spec.serviceAccount = o.spec.serviceAccountName;
    }
  },
  // podStrategy.PrepareForCreate: status starts Pending, with the QoS class of the spec.
  createStatus: (o) => ({ phase: 'Pending', qosClass: podQOS(o.spec) }),
  seedStatus: () => ({ phase: 'Pending' }),
  // podStatusStrategy.PrepareForUpdate: ownerReferences are the stored ones too.
  prepareForStatusUpdate(next, old) {
    if (old.metadata.ownerReferences === undefined) delete next.metadata.ownerReferences;
    else next.metadata.ownerReferences = clone(old.metadata.ownerReferences);
  },
  validate: (o, errs) => validatePodSpec(o.spec, 'spec', errs),
  validateUpdate: validatePodUpdate,
  validateStatus: validatePodStatus,
  columns: COLUMNS.pods,
  row: podRow,
  listStrategy(path) {
    const p = path.join('.');
    if (p === 'status.podIPs' || p === 'status.hostIPs') return { merge: true, mergeKey: 'ip' };
    if (p === 'status.resourceClaimStatuses') return { merge: true, mergeKey: 'name' };
    return path[0] === 'spec' ? podSpecListStrategy(path.slice(1)) : undefined;
  },
  // PodSpec.Containers has no omitempty: the zero pod has `containers: null`, so no "." for the list.
  zero: () => ({ metadata: {}, spec: { containers: null }, status: {} }),
};
