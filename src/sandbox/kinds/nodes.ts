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
  // NodeSpec.PodCIDRs `patchStrategy:"merge"` (a set of strings), NodeStatus.Addresses by type; taints are replaced.
  listStrategy: (path) => {
    const p = path.join('.');
    if (p === 'status.addresses') return { merge: true, mergeKey: 'type' };
    return p === 'spec.podCIDRs' ? { merge: true } : undefined;
  },
  zero: () => ({ metadata: {}, spec: {}, status: {} }),
};
