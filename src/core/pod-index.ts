// The pod cache of the planner: pods by namespace, by controller uid, and (lazily) by label, so
// planning a whole cluster is O(pods + controllers) instead of a namespace scan per controller.

import { namespaceOf } from './controller.js';
import { controllerRef } from './pod.js';
import { equalityTerms, type Selector } from './selector.js';
import type { Pod } from './types.js';

const SCAN_BELOW = 64; // below this many pods a namespace is scanned rather than indexed

class LabelPostings {
  private readonly postings = new Map<string, Pod[]>();
  constructor(pods: readonly Pod[]) {
    for (const p of pods) {
      const labels = p.metadata.labels;
      if (!labels) continue;
      for (const k in labels) {
        const key = k + '\u0000' + labels[k];
        const list = this.postings.get(key);
        if (list) list.push(p);
        else this.postings.set(key, [p]);
      }
    }
  }
  get(key: string, value: string): readonly Pod[] {
    return this.postings.get(key + '\u0000' + value) ?? [];
  }
}

export class PodIndex {
  private readonly byNamespace = new Map<string, Pod[]>();
  private readonly orphansByNamespace = new Map<string, Pod[]>();
  private readonly byControllerUid = new Map<string, Pod[]>();
  private readonly postings = new Map<string, LabelPostings>();
  private readonly orphanPostings = new Map<string, LabelPostings>();

  constructor(pods: readonly Pod[]) {
    for (const p of pods) {
      const ns = namespaceOf(p);
      push(this.byNamespace, ns, p);
      const ref = controllerRef(p);
      if (ref) push(this.byControllerUid, ref.uid, p);
      else push(this.orphansByNamespace, ns, p);
    }
  }

  namespaces(): string[] {
    return [...this.byNamespace.keys()];
  }

  inNamespace(ns: string): readonly Pod[] {
    return this.byNamespace.get(ns) ?? [];
  }

  orphans(ns: string): readonly Pod[] {
    return this.orphansByNamespace.get(ns) ?? [];
  }

  /** Pods whose controller reference carries this uid (any namespace: callers filter). */
  controlledBy(uid: string): readonly Pod[] {
    return this.byControllerUid.get(uid) ?? [];
  }

  /** Pods of a namespace matching a selector, in cache order. */
  matching(ns: string, selector: Selector, orphansOnly = false): Pod[] {
    if (selector.nothing) return [];
    const all = orphansOnly ? this.orphans(ns) : this.inNamespace(ns);
    const terms = equalityTerms(selector);
    if (terms.length === 0 || all.length < SCAN_BELOW) return all.filter((p) => selector.matches(p.metadata.labels));
    const cache = orphansOnly ? this.orphanPostings : this.postings;
    let idx = cache.get(ns);
    if (!idx) {
      idx = new LabelPostings(all);
      cache.set(ns, idx);
    }
    let smallest: readonly Pod[] | null = null;
    for (const [k, v] of terms) {
      const list = idx.get(k, v);
      if (smallest === null || list.length < smallest.length) smallest = list;
      if (list.length === 0) return [];
    }
    return smallest!.filter((p) => selector.matches(p.metadata.labels));
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
