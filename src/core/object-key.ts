// The one key of an object in a cache, a workqueue or the expectations: client-go's
// MetaNamespaceKeyFunc. Keys that start with a kind (`Kind/name`, `Kind/namespace/name`) name
// another concept and are built where they are used.

/** `namespace/name`, or `name` for a cluster-scoped object (no namespace), as MetaNamespaceKeyFunc. */
export function metaNamespaceKey(namespace: string | null | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
