// The pods a sync of `run` may read, answered by the informer indexers (client-go's Indexer
// ByIndex) rather than a scan: owned pods through the controller-uid index, matching pods through
// the label index of the selector's most selective equality term. One of the three CandidatePods
// caches (core/candidate-pods.ts).

import { filedUnder, type CandidatePods } from '../core/candidate-pods.js';
import { namespaceOf } from '../core/controller.js';
import { indexableTerms, type Selector } from '../core/selector.js';
import type { Pod } from '../core/types.js';

/** The pod indexes `run` keeps (run-service.ts builds them on the pod informer). */
export interface PodListers {
  inNamespace(ns: string): Pod[];
  controlledBy(uid: string): Pod[];
  orphans(ns: string): Pod[];
  /** Pods of a namespace carrying the label key=value. */
  withLabel(ns: string, key: string, value: string): Pod[];
}

/**
 * upstream's informer cache lists in no set order; pods are ordered by name here (they are unique
 * in a namespace), so a sync's claims and plans are reproducible.
 */
export class InformerCandidatePods implements CandidatePods {
  constructor(private readonly pods: PodListers) {}

  controlledBy(ns: string, uid: string, owner?: { kind: string; name: string }): Pod[] {
    return this.pods
      .controlledBy(uid)
      .filter((p) => namespaceOf(p) === ns && filedUnder(p, owner))
      .sort(byName);
  }

  matching(ns: string, selector: Selector): Pod[] {
    if (selector.nothing) return [];
    // one label of the selector required by equality narrows the list to its index entry
    const term = indexableTerms(selector).find((t) => t.values !== null && t.values.length === 1);
    const listed = term ? this.pods.withLabel(ns, term.key, term.values![0]) : this.pods.inNamespace(ns);
    return listed.filter((p) => selector.matches(p.metadata.labels)).sort(byName);
  }

  compare(a: Pod, b: Pod): number {
    return byName(a, b);
  }
}

function byName(a: Pod, b: Pod): number {
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
