// Nodes (pkg/registry/core/node): cluster-scoped, written by the simulated kubelet.
import { COLUMNS, nodeRow } from '../table.js';
import { ALL_VERBS, fieldBool, STATUS, type Kind } from './kind.js';

export const nodes: Kind = {
  name: 'nodes',
  singularName: 'node',
  kind: 'Node',
  listKind: 'NodeList',
  group: '',
  version: 'v1',
  namespaced: false,
  verbs: ALL_VERBS,
  shortNames: ['no'],
  subresources: { status: STATUS },
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'XwShjMxG9Fs=',
  protobuf: 'core.v1.Node',
  selectableFields: { 'spec.unschedulable': fieldBool('spec.unschedulable') },
  columns: COLUMNS.nodes,
  row: nodeRow,
  listStrategy: (path) => (path.join('.') === 'status.addresses' ? { merge: true, mergeKey: 'type' } : undefined),
  zero: () => ({ metadata: {}, spec: {}, status: {} }),
};
