// The one key of an object in a cache, a workqueue or the expectations: client-go's
// MetaNamespaceKeyFunc, and SplitMetaNamespaceKey to read one back. Where objects of several kinds
// share one map, the key has the kind in front (kindKey): `Kind/namespace/name` across
// namespaces, `Kind/name` in a map of one namespace.

/** `namespace/name`, or `name` for a cluster-scoped object (no namespace), as MetaNamespaceKeyFunc. */
export function metaNamespaceKey(namespace: string | null | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * The namespace ('' for none) and name of a metaNamespaceKey, as SplitMetaNamespaceKey; null for
 * a key of another shape (more than one '/', where SplitMetaNamespaceKey returns an error).
 */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } | null {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  return null;
}

/** `Kind/key`: an object's key (a metaNamespaceKey, or its name in a map of one namespace) with its kind in front. */
export function kindKey(kind: string, key: string): string {
  return `${kind}/${key}`;
}

/** `verb/key`: a write's evidence key in history, its verb (create, delete) in front of the object's key. */
export function verbKey(verb: string, key: string): string {
  return `${verb}/${key}`;
}
