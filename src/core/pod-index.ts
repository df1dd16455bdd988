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
  private readonly byPair = new Map<string, Pod[]>();
  private readonly byKey = new Map<string, Pod[]>();
  private readonly positions = new Map<Pod, number>();

  constructor(pods: readonly Pod[]) {
    let i = 0;
    for (const p of pods) {
      this.positions.set(p, i++);
      const labels = p.metadata.labels;
      if (!labels) continue;
      for (const k in labels) {
        push(this.byPair, k + '\u0000' + labels[k], p);
        push(this.byKey, k, p);
      }
    }
  }
  /** Pods carrying key with one of the values (or the key at all when values is null). */
  lookup(key: string, values: readonly string[] | null): readonly Pod[] {
    if (values === null) return this.byKey.get(key) ?? [];
    if (values.length === 1) return this.byPair.get(key + '\u0000' + values[0]) ?? [];
    const out: Pod[] = [];
    for (const v of values) out.push(...(this.byPair.get(key + '\u0000' + v) ?? []));
    return out; // a pod has one value per key, so the union has no duplicates
  }
  size(key: string, values: readonly string[] | null): number {
    if (values === null) return this.byKey.get(key)?.length ?? 0;
    let n = 0;
    for (const v of values) n += this.byPair.get(key + '\u0000' + v)?.length ?? 0;
    return n;
  }
}

export class PodIndex implements CandidatePods {
  private readonly byNamespace = new Map<string, Pod[]>();
  private readonly orphansByNamespace = new Map<string, Pod[]>();
  /** Keyed by `namespace/uid`: a namespace name holds no `/`, and upstream lists one namespace. */
  private readonly byController = new Map<string, Pod[]>();
  private readonly postings = new Map<string, LabelPostings>();
  private readonly orphanPostings = new Map<string, LabelPostings>();

  private readonly positions = new Map<Pod, number>();

  constructor(pods: readonly Pod[]) {
    let i = 0;
    for (const p of pods) {
      this.positions.set(p, i++);
      const ns = namespaceOf(p);
      push(this.byNamespace, ns, p);
      const ref = controllerRef(p);
      if (ref) push(this.byController, `${ns}/${ref.uid}`, p);
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

  /**
   * Pods of a namespace whose controller reference carries this uid, in cache order; given the
   * controller's kind and name, only those whose reference also names them (upstream's pod index
   * from 1.34, keyed by namespace, kind, name and uid).
   */
  controlledBy(ns: string, uid: string, owner?: { kind: string; name: string }): readonly Pod[] {
    const pods = this.byController.get(`${ns}/${uid}`) ?? [];
    if (!owner || !pods.some((p) => namesOther(p, owner))) return pods;
    return pods.filter((p) => !namesOther(p, owner));
  }

  /** Pods of a namespace matching a selector, in cache order. */
  matching(ns: string, selector: Selector, orphansOnly = false): Pod[] {
    if (selector.nothing) return [];
    const all = orphansOnly ? this.orphans(ns) : this.inNamespace(ns);
    const terms = indexableTerms(selector);
    if (terms.length === 0 || all.length < SCAN_BELOW) return all.filter((p) => selector.matches(p.metadata.labels));
    const cache = orphansOnly ? this.orphanPostings : this.postings;
    let idx = cache.get(ns);
    if (!idx) {
      idx = new LabelPostings(all);
      cache.set(ns, idx);
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
