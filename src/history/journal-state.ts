// The state of one namespace as a replayed audit log has shown it: the pods and controllers that
// exist, indexes by owner and label, and a short journal of changes so a sync can be planned on
// the state a moment before its first write. It answers "which pods may this sync read" as the
// third CandidatePods cache (core/candidate-pods.ts), beside a snapshot's and the informers'.

import { filedUnder, type CandidatePods } from '../core/candidate-pods.js';
import { controllerRef } from '../core/pod.js';
import { indexableTerms, labelSelectorAsSelector, selectorFromSet, type Selector } from '../core/selector.js';
import type { SyncDecision } from '../core/sync-decision.js';
import type { Pod, ReplicaSet, ReplicationController } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import type { CauseStep, HistoryControllerRef } from './types.js';

/** How far back a sync may have seen the state from (an informer's lag behind the log, a reconcile's list). */
export const JOURNAL_MS = 10_000;

/** What one namespace holds, as far as the log has shown it. */
export class NamespaceState implements CandidatePods {
  /** The pods that exist, in the order they were first seen (the planner's cache order). */
  readonly pods = new Map<string, Pod>();
  readonly controllers = new Map<string, Controllerish>(); // `${kind}/${name}`
  /** Objects (or '*') whose state the log lost, with the first reason: planning waits for them. */
  readonly unknown = new Map<string, string>();
  /** Pod names the log has shown that may still exist: a controller write on another is a gap. */
  readonly seenPods = new Set<string>();
  /**
   * The sync each controller is in (`${kind}/${name}`). Syncs of different controllers interleave
   * in the log (kube-controller-manager runs five workers per controller, and the scheduler, the
   * kubelets and the deployment controller write between them), and each runs on the state it
   * started from: upstream computes even its status from the pods of its start.
   */
  readonly syncs = new Map<string, Sync>();
  /** The last status each controller wrote that the rules predict, keyed `${kind}/${name}` (kindKey): later views start no earlier. */
  readonly statusWritten = new Map<string, WrittenStatus>();
  /** Controllers whose last status write by the controller the server refused with 409 Conflict. */
  readonly conflicted = new Set<string>();
  /**
   * Controllers (`${kind}/${name}`) whose status the log lost (a status write cut from it), with
   * why: a write to the status subresource cannot change the spec, so only the next status
   * verdicts rest on it, until a body shows the status again.
   */
  readonly statusUnknown = new Map<string, string>();
  // Indexes, so that planning one sync reads the pods it may claim rather than the namespace.
  private readonly byOwner = new Map<string, Set<string>>(); // controller uid → pod names
  private readonly byLabel = new Map<string, Set<string>>(); // `key=value` → pod names
  /** Each pod object's place in first-seen order (an update keeps the place of the pod it replaces). */
  private readonly firstSeen = new WeakMap<Pod, number>();
  private seen = 0;

  /** The time of the write being applied (ms): the journal's entries are stamped with it. */
  now = 0;

  /**
   * The next write's time. With `apart` (changes seen by an observer, a recording's), those seen
   * within one millisecond get times a microsecond apart, in their order: the controller's own
   * informer may have shown it the state between them.
   */
  advance(ms: number, apart: boolean): void {
    this.now = !apart || Number.isNaN(ms) || ms > this.now ? ms : this.now + 0.001;
  }
  /**
   * The changes of the last JOURNAL_MS, oldest first, with the value each replaced: a sync may have
   * been planned on the state a moment before its first write (an informer a little behind, a
   * reconcile that listed before the kubelet's last report), and stateAt() rebuilds that state.
   */
  private readonly journal: { at: number; pod: boolean; key: string; prev: Pod | Controllerish | undefined }[] = [];

  private note(pod: boolean, key: string, prev: Pod | Controllerish | undefined): void {
    this.journal.push({ at: this.now, pod, key, prev });
    let old = 0;
    while (old < this.journal.length && this.journal[old].at < this.now - JOURNAL_MS) old++;
    if (old > 0) this.journal.splice(0, old);
  }

  /** The distinct times of the journal's changes after `since` (ms), newest first. */
  changeTimes(since: number): number[] {
    const out: number[] = [];
    for (let i = this.journal.length - 1; i >= 0; i--) {
      const at = this.journal[i].at;
      if (at <= since) break;
      if (out.at(-1) !== at) out.push(at);
    }
    return out;
  }

  /** The pods and controllers as they were just before the changes made at `at` (ms) and after. */
  stateAt(at: number): { pods: Map<string, Pod>; controllers: Map<string, Controllerish> } {
    const pods = new Map(this.pods);
    const controllers = new Map(this.controllers);
    for (let i = this.journal.length - 1; i >= 0 && this.journal[i].at >= at; i--) {
      const j = this.journal[i];
      const m = (j.pod ? pods : controllers) as Map<string, Pod | Controllerish>;
      if (j.prev === undefined) m.delete(j.key);
      else m.set(j.key, j.prev);
    }
    return { pods, controllers };
  }

  setController(key: string, c: Controllerish): void {
    this.note(false, key, this.controllers.get(key));
    this.controllers.set(key, c);
  }

  removeController(key: string): void {
    this.statusUnknown.delete(key);
    if (!this.controllers.has(key)) return;
    this.note(false, key, this.controllers.get(key));
    this.controllers.delete(key);
  }

  setPod(name: string, p: Pod): void {
    const old = this.pods.get(name);
    this.note(true, name, old);
    if (old) this.unindex(name, old);
    this.firstSeen.set(p, old ? (this.firstSeen.get(old) ?? 0) : this.seen++);
    this.pods.set(name, p);
    this.seenPods.add(name);
    const owner = controllerRef(p)?.uid;
    if (owner) addTo(this.byOwner, owner, name);
    for (const [k, v] of Object.entries(p.metadata.labels ?? {})) addTo(this.byLabel, `${k}=${v}`, name);
  }

  removePod(name: string): void {
    const old = this.pods.get(name);
    if (old) this.note(true, name, old);
    if (old) this.unindex(name, old);
    this.pods.delete(name);
    this.seenPods.delete(name);
    this.unknown.delete(name);
  }

  /** The pods whose controller reference carries `uid` (from the owner index, not a scan). */
  ownedBy(uid: string): Pod[] {
    return [...(this.byOwner.get(uid) ?? [])].map((n) => this.pods.get(n)!);
  }

  private unindex(name: string, p: Pod): void {
    const owner = controllerRef(p)?.uid;
    if (owner) removeFrom(this.byOwner, owner, name);
    for (const [k, v] of Object.entries(p.metadata.labels ?? {})) removeFrom(this.byLabel, `${k}=${v}`, name);
  }

  // CandidatePods over the journal state: a NamespaceState holds one namespace, so `ns` is the
  // one it holds; cache order is the order pods were first seen, as the whole namespace lists them.

  controlledBy(_ns: string, uid: string, owner?: { kind: string; name: string }): Pod[] {
    return this.inOrder(this.byOwner.get(uid)).filter((p) => filedUnder(p, owner));
  }

  /** Pods matching the selector: read from the label index of its most selective equality term. */
  matching(_ns: string, selector: Selector): Pod[] {
    if (selector.nothing) return [];
    let smallest: Set<string> | undefined;
    for (const t of indexableTerms(selector)) {
      if (t.values === null || t.values.length !== 1) continue;
      const set = this.byLabel.get(`${t.key}=${t.values[0]}`);
      if (!set) return [];
      if (!smallest || set.size < smallest.size) smallest = set;
    }
    const listed = smallest ? this.inOrder(smallest) : [...this.pods.values()];
    return listed.filter((p) => selector.matches(p.metadata.labels));
  }

  compare(a: Pod, b: Pod): number {
    return (this.firstSeen.get(a) ?? 0) - (this.firstSeen.get(b) ?? 0);
  }

  private inOrder(names: Set<string> | undefined): Pod[] {
    if (!names || names.size === 0) return [];
    return [...names].map((n) => this.pods.get(n)!).sort((a, b) => this.compare(a, b));
  }

  /** The controllers (`${kind}/${name}`) whose selector matches these labels. */
  selecting(labels: Record<string, string> | null | undefined): string[] {
    const out: string[] = [];
    for (const [key, c] of this.controllers) if (selectorOf(c).matches(labels)) out.push(key);
    return out;
  }
}

/**
 * One sync of one controller: its writes from the first one the decision explains, on the state
 * just before that first write, to its status write (or the first write the decision does not explain).
 */
export interface Sync {
  controller: HistoryControllerRef;
  decision: SyncDecision | null;
  unknown: string | null; // why no decision could be taken
  creates: number;
  last: number; // when its last write was received (ms)
  done: boolean; // its status write was seen: upstream's sync ends with it
  behaviour: Behaviour; // the rules of the controller that wrote it
  cause: CauseStep[] | null; // why it acted (causes.ts)
  /** Where the input does not name the version that wrote it: the other candidate rules' decisions on the same state. */
  alternatives: { versions: string; behaviour: Behaviour; decision: SyncDecision }[];
}

export type Controllerish = ReplicaSet | ReplicationController;

/** A status a controller wrote: when (ms) and what. */
export interface WrittenStatus {
  at: number;
  status: Record<string, unknown>;
}

const selectors = new WeakMap<Controllerish, Selector>();
const NOTHING: Selector = {
  nothing: true,
  everything: false,
  requirements: [],
  matches: () => false,
  explainMismatch: () => 'nil selector',
  toString: () => '<none>',
};

/** The controller's selector, compiled once per object (an invalid one selects nothing, as upstream's claim). */
function selectorOf(c: Controllerish): Selector {
  let sel = selectors.get(c);
  if (!sel) {
    const r =
      c.kind === 'ReplicationController'
        ? { ok: true as const, selector: selectorFromSet((c.spec?.selector ?? null) as Record<string, string> | null) }
        : labelSelectorAsSelector((c as ReplicaSet).spec?.selector);
    sel = r.ok ? r.selector : NOTHING;
    selectors.set(c, sel);
  }
  return sel;
}

function addTo(m: Map<string, Set<string>>, k: string, v: string): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

function removeFrom(m: Map<string, Set<string>>, k: string, v: string): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}
