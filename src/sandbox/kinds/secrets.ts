// Secrets (pkg/registry/core/secret): the v1 conversion folds stringData into data; type is
// immutable, and data when `immutable: true`.
import { convertSecret } from '../defaults.js';
import { count, COLUMNS } from '../table.js';
import { sinceAge } from '../util.js';
import { validateSecret, validateSecretUpdate } from '../validation-core.js';
import { ALL_VERBS, type Kind } from './kind.js';

export const secrets: Kind = {
  name: 'secrets',
  singularName: 'secret',
  kind: 'Secret',
  listKind: 'SecretList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'S6u1pOWzb84=',
  protobuf: 'core.v1.Secret',
  defaults(o) {
    convertSecret(secrets, o);
  },
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  columns: COLUMNS.secrets,
  row: (o, now) => [o.metadata.name, o.type ?? '', count(o.data), sinceAge(o.metadata.creationTimestamp, now)],
  zero: () => ({ metadata: {} }),
};
