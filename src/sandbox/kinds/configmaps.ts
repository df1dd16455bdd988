// ConfigMaps (pkg/registry/core/configmap): data must be a map of strings, and is immutable
// when `immutable: true`.
import { stringMap } from '../defaults.js';
import { count, COLUMNS } from '../table.js';
import { sinceAge } from '../util.js';
import { validateConfigMap, validateImmutableData } from '../validation-core.js';
import { ALL_VERBS, type Kind } from './kind.js';

export const configmaps: Kind = {
  name: 'configmaps',
  singularName: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  group: '',
  version: 'v1',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['cm'],
  subresources: {},
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'qFsyl6wFWjQ=',
  protobuf: 'core.v1.ConfigMap',
  defaults(o) {
    stringMap(configmaps, o, 'data');
  },
  validate: validateConfigMap,
  validateUpdate: (o, old, errs) => validateImmutableData(o, old, ['data', 'binaryData'], errs),
  columns: COLUMNS.configmaps,
  row: (o, now) => [o.metadata.name, count(o.data) + count(o.binaryData), sinceAge(o.metadata.creationTimestamp, now)],
  zero: () => ({ metadata: {} }),
};
