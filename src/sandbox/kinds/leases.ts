// Leases (pkg/registry/coordination/lease): what leader election writes.
import { COLUMNS } from '../table.js';
import { sinceAge } from '../util.js';
import { validateLease } from '../validation.js';
import { ALL_VERBS, type Kind } from './kind.js';

export const leases: Kind = {
  name: 'leases',
  singularName: 'lease',
  kind: 'Lease',
  listKind: 'LeaseList',
  group: 'coordination.k8s.io',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'gqkMMb/YqFM=',
  protobuf: 'coordination.v1.Lease',
  validate: validateLease,
  columns: COLUMNS.leases,
  row: (o, now) => [o.metadata.name, o.spec?.holderIdentity ?? '', sinceAge(o.metadata.creationTimestamp, now)],
};
