// ServiceAccounts (pkg/registry/core/serviceaccount): no spec, no status.
import { COLUMNS } from '../table.js';
import { sinceAge } from '../util.js';
import { ALL_VERBS, type Kind } from './kind.js';

export const serviceaccounts: Kind = {
  name: 'serviceaccounts',
  singularName: 'serviceaccount',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['sa'],
  subresources: {},
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'pbx9ZvyFpBE=',
  protobuf: 'core.v1.ServiceAccount',
  columns: COLUMNS.serviceaccounts,
  // ServiceAccount.Secrets `patchStrategy:"merge" patchMergeKey:"name"`; imagePullSecrets is replaced.
  listStrategy: (path) => (path.join('.') === 'secrets' ? { merge: true, mergeKey: 'name' } : undefined),
  row: (o, now) => [o.metadata.name, Array.isArray(o.secrets) ? o.secrets.length : 0, sinceAge(o.metadata.creationTimestamp, now)],
  zero: () => ({ metadata: {} }),
};
