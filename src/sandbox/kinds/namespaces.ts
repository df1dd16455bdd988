// Namespaces (pkg/registry/core/namespace): cluster-scoped, names are DNS-1123 labels, and a
// delete goes through the namespace lifecycle (finalizers, then the namespace controller).
import { COLUMNS } from '../table.js';
import { clone, sinceAge } from '../util.js';
import { dnsLabelErrors } from '../validation.js';
import { fieldString, STATUS, type Kind } from './kind.js';

export const namespaces: Kind = {
  name: 'namespaces',
  singularName: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  group: '',
  version: 'v1',
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['ns'],
  subresources: { status: STATUS, finalize: { verbs: ['update'] } },
  generation: false,
  allowCreateOnUpdate: false,
  defaultPropagation: 'Background',
  storageVersionHash: 'Q3oi5N2YM8M=',
  protobuf: 'core.v1.Namespace',
  namespaceLifecycle: true,
  selectableFields: { 'status.phase': fieldString('status.phase') },
  // ValidateNamespace: ValidateNamespaceName is a DNS-1123 label.
  nameErrors: dnsLabelErrors,
  // SetDefaults_NamespaceSpec (the kubernetes finalizer) and the NamespaceDefaultLabelName label.
  defaults(o) {
    o.spec ??= {};
    o.spec.finalizers ??= ['kubernetes'];
    o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name };
  },
  createStatus: () => ({ phase: 'Active' }),
  seedStatus: () => ({ phase: 'Active' }),
  // namespaceStatusStrategy.PrepareForUpdate: the spec (its finalizers) is the stored one.
  prepareForStatusUpdate(next, old) {
    next.spec = clone(old.spec);
  },
  columns: COLUMNS.namespaces,
  row: (o, now) => [o.metadata.name, o.status?.phase ?? '', sinceAge(o.metadata.creationTimestamp, now)],
};
