// The pod cache of the planner over a snapshot: pods by namespace, by controller uid, and (lazily)
// by label, so planning a whole cluster is O(pods + controllers) instead of a namespace scan per
// controller. One of the three CandidatePods caches (core/candidate-pods.ts).

import type { CandidatePods } from './candidate-pods.js';
import { namespaceOf } from './controller.js';
import { controllerRef } from './pod.js';
import { indexableTerms, type Selector } from './selector.js';
import type { Pod } from './types.js';

const SCAN_BELOW = 64; // below this many pods a namespace is scanned rather than indexed

class LabelPostings {
  /** Per label key: the pods carrying it, and those pods by the key's value; each list in cache order. */
  private readonly byKey = new Map<string, { all: Pod[]; byValue: Map<string, Pod[]> }>();

  constructor(pods: readonly Pod[]) {
    for (const p of pods) {
      const labels = p.metadata.labels;
      if (!labels) continue;
      for (const k in labels) {
        let postings = this.byKey.get(k);
        if (!postings) this.byKey.set(k, (postings = { all: [], byValue: new Map() }));
        postings.all.push(p);
        push(postings.byValue, labels[k], p);
      }
    }
  }
  /** Pods carrying key with one of the values (or the key at all when values is null). */
  lookup(key: string, values: readonly string[] | null): readonly Pod[] {
    const postings = this.byKey.get(key);
    if (!postings) return [];
    if (values === null) return postings.all;
    if (values.length === 1) return postings.byValue.get(values[0]) ?? [];
    const out: Pod[] = [];
    for (const v of values) out.push(...(postings.byValue.get(v) ?? []));
    return out; // a pod has one value per key, so the union has no duplicates
  }
  size(key: string, values: readonly string[] | null): number {
    const postings = this.byKey.get(key);
    if (!postings) return 0;
    if (values === null) return postings.all.length;
    let n = 0;
    for (const v of values) n += postings.byValue.get(v)?.length ?? 0;
    return n;
  }
}

export class PodIndex implements CandidatePods {
  private readonly byNamespace = new Map<string, Pod[]>();
  /** By namespace, then by the uid of the pod's controller reference: upstream lists one namespace. */
  private readonly byController = new Map<string, Map<string, Pod[]>>();
  private readonly postings = new Map<string, LabelPostings>();
  /**
   * The pods each selector matched, per namespace. The index never changes after it is built, so
   * a selector asked again (a controller's candidates, its overlaps, its siblings' colocation) gets
   * the same pods without a second lookup.
   */
  private readonly matched = new Map<string, Map<Selector, readonly Pod[]>>();

  /** Each pod's place in cache order: made on the first comparison (most syncs need none). */
  private positions: Map<Pod, number> | undefined;

  /** The pods in cache order, as they were when the index was built. */
  private readonly pods: readonly Pod[];

  constructor(pods: readonly Pod[]) {
    this.pods = pods.slice();
    for (const p of pods) {
      const ns = namespaceOf(p);
      push(this.byNamespace, ns, p);
      const ref = controllerRef(p);
      if (!ref) continue;
      let byUid = this.byController.get(ns);
      if (!byUid) this.byController.set(ns, (byUid = new Map()));
      push(byUid, ref.uid, p);
    }
  }

  inNamespace(ns: string): readonly Pod[] {
    return this.byNamespace.get(ns) ?? [];
  }

  /**
   * Pods of a namespace whose controller reference carries this uid, in cache order; given the
   * controller's kind and name, only those whose reference also names them (upstream's pod index
   * from 1.34, keyed by namespace, kind, name and uid).
   */
  controlledBy(ns: string, uid: string, owner?: { kind: string; name: string }): readonly Pod[] {
    const pods = this.byController.get(ns)?.get(uid) ?? [];
    if (!owner || !pods.some((p) => namesOther(p, owner))) return pods;
    return pods.filter((p) => !namesOther(p, owner));
  }

  /** Pods of a namespace matching a selector, in cache order. */
  matching(ns: string, selector: Selector): readonly Pod[] {
    let bySelector = this.matched.get(ns);
    if (!bySelector) this.matched.set(ns, (bySelector = new Map()));
    let pods = bySelector.get(selector);
    if (!pods) bySelector.set(selector, (pods = this.select(ns, selector)));
    return pods;
  }

  /** The namespace's pods the selector matches: scanned in a small namespace, else looked up by its most selective term. */
  private select(ns: string, selector: Selector): Pod[] {
    if (selector.nothing) return [];
    const all = this.inNamespace(ns);
    const terms = indexableTerms(selector);
    if (terms.length === 0 || all.length < SCAN_BELOW) return all.filter((p) => selector.matches(p.metadata.labels));
    let idx = this.postings.get(ns);
    if (!idx) {
      idx = new LabelPostings(all);
      this.postings.set(ns, idx);
    }
    let best = terms[0];
    let bestSize = idx.size(best.key, best.values);
    for (const t of terms.slice(1)) {
      const n = idx.size(t.key, t.values);
      if (n < bestSize) (best = t), (bestSize = n);
    }
    if (bestSize === 0) return [];
    const found = idx.lookup(best.key, best.values).filter((p) => selector.matches(p.metadata.labels));
    // an `in` over several values unions postings: restore cache order
    if (best.values !== null && best.values.length > 1) found.sort((a, b) => this.position(a) - this.position(b));
    return found;
  }

  /** Where the pod stands in cache (listing) order. */
  position(p: Pod): number {
    if (!this.positions) {
      this.positions = new Map();
      for (let i = 0; i < this.pods.length; i++) this.positions.set(this.pods[i], i);
    }
    return this.positions.get(p) ?? 0;
  }

  compare(a: Pod, b: Pod): number {
    return this.position(a) - this.position(b);
  }
}

function namesOther(p: Pod, owner: { kind: string; name: string }): boolean {
  const ref = controllerRef(p)!;
  return ref.kind !== owner.kind || ref.name !== owner.name;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
