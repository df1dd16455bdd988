// The pod informer's indexers and the listers `run` reads through them (client-go's Indexers and
// ByIndex): by namespace, by controller uid, orphans by namespace, and by `namespace/key=value`
// label. The controller's InformerCandidatePods answers "which pods may this sync read" from them.

import { controllerRef } from '../core/pod.js';
import type { Pod } from '../core/types.js';
import type { Indexer } from './cache.js';

const nsOf = (p: Pod): string => p.metadata.namespace ?? 'default';

export const POD_INDEXERS: Record<string, Indexer<Pod>> = {
  namespace: (p) => [nsOf(p)],
  controllerUid: (p) => {
    const ref = controllerRef(p);
    return ref ? [ref.uid] : [];
  },
  orphans: (p) => (controllerRef(p) ? [] : [nsOf(p)]),
  label: (p) => Object.entries(p.metadata.labels ?? {}).map(([k, v]) => `${nsOf(p)}/${k}=${v}`),
};

/** The pod listers over a cache indexed by POD_INDEXERS (src/controller's PodListers). */
export function podListersOf(cache: { byIndex(index: string, value: string): Pod[] }) {
  return {
    inNamespace: (ns: string) => cache.byIndex('namespace', ns),
    controlledBy: (uid: string) => cache.byIndex('controllerUid', uid),
    orphans: (ns: string) => cache.byIndex('orphans', ns),
    withLabel: (ns: string, key: string, value: string) => cache.byIndex('label', `${ns}/${key}=${value}`),
  };
}
