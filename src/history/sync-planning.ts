// How a controller's sync is planned: on the state just before its first write, on an earlier
// state of the window its informer may have shown it, or on the latest state ranked at an earlier
// time. Pure: the state and the times come in, the decisions go out.

import { emptySnapshot } from '../core/controller.js';
import { ClusterPlanner } from '../core/plan.js';
import { writtenStatus } from '../core/status.js';
import type { SyncDecision } from '../core/sync-decision.js';
import type { ControllerKind } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import { JOURNAL_MS, type NamespaceState, type Sync, type WrittenStatus } from './journal-state.js';
import { MAX_RANKING_TIMES, rankingTimes } from './ranking-times.js';
import type { ApiWrite, CauseStep, HistoryControllerRef } from './types.js';
import type { Verdict } from './verdicts.js';

export interface ReplayOptions {
  /** The rules a sync is planned with, unless rulesFor names those of the controller that wrote it. */
  behaviour: Behaviour;
  /** The rules of the controller that sent this write (the version it names), or null for `behaviour`. */
  rulesFor?: (w: ApiWrite) => Behaviour | null;
  /**
   * Where the input does not name the version of the controller that sent this write: the rules
   * of every minor it may have run, one entry per distinct set of rules. A write on which they
   * differ has the verdict null. null (or absent): the version is known.
   */
  candidateRules?: (w: ApiWrite) => readonly CandidateRules[] | null;
  /** More users whose writes are the controllers' (e.g. a kube-controller-manager without per-controller credentials). */
  controllerUsers?: readonly string[];
  /**
   * The writes' times are when an observer saw them (a recording's informers), not when the server
   * made them: a controller's own informer may lag that observer by more than its previous write
   * or the cause the log names, so only JOURNAL_MS bounds the states a sync may have been planned on.
   */
  observedTimes?: boolean;
  /** Plan each sync on every pod of the namespace rather than on the indexed candidates (tests compare the two). */
  wholeNamespace?: boolean;
}

/** The rules of some minors that are the same rules (`1.24–1.31`), for a log that does not say which ran. */
export interface CandidateRules {
  versions: string;
  behaviour: Behaviour;
}

/**
 * A sync planned on the state just before `w`, or, with `asOf`, on the state before the changes
 * made at that time (ms) and after (with `podsOnly`, the pods of then and the controllers of now);
 * with `rankedAt`, the latest state as the rules see it at that time (ms).
 */
export function planSync(
  opts: SyncRules,
  ns: NamespaceState,
  controller: HistoryControllerRef,
  w: ApiWrite,
  cause: CauseStep[] | null,
  asOf?: number,
  rankedAt?: number,
  podsOnly = false,
): Sync {
  const behaviour = opts.rulesFor?.(w) ?? opts.behaviour;
  const sync: Sync = { controller, decision: null, unknown: null, creates: 0, last: Date.parse(w.time), done: false, behaviour, cause, alternatives: [] };
  const firstUnknown = ns.unknown.entries().next();
  if (!firstUnknown.done) {
    sync.unknown = firstUnknown.value[1];
    return sync;
  }
  const now = rankedAt ?? asOf ?? Date.parse(w.time);
  const past = asOf === undefined ? null : ns.stateAt(asOf);
  const controllers = past && !podsOnly ? past.controllers : ns.controllers;
  const snapshot = emptySnapshot(past ? [...past.pods.values()] : opts.wholeNamespace ? [...ns.pods.values()] : []);
  // keyed `${kind}/${name}` (kindKey)
  for (const [key, c] of controllers) snapshot.controllers[key.slice(0, key.indexOf('/')) as ControllerKind].push(c);
  // the state of the moment, or (asked for) every pod of the namespace, through a snapshot's
  // index; the latest state through the journal state's own indexes
  const plan = (rules: Behaviour): SyncDecision | null => {
    const planner = new ClusterPlanner(
      snapshot,
      { now, behaviour: rules, source: 'file', warnings: false, controllersComplete: true },
      past || opts.wholeNamespace ? undefined : ns,
    );
    const c = planner.find(controller.kind, controller.namespace, controller.name)[0];
    return c ? planner.planController(c) : null;
  };
  sync.decision = plan(behaviour);
  if (!sync.decision) {
    sync.unknown = `${controller.kind} ${controller.name} was not in the log before this write`;
    return sync;
  }
  // the version that wrote it unknown: the same state planned with the rules of every candidate
  const rulesOf = (b: Behaviour) => JSON.stringify({ ...b, version: undefined, minor: undefined });
  const own = rulesOf(behaviour);
  for (const alt of opts.candidateRules?.(w) ?? []) {
    if (rulesOf(alt.behaviour) === own) continue;
    const decision = plan(alt.behaviour);
    if (decision) sync.alternatives.push({ versions: alt.versions, behaviour: alt.behaviour, decision });
  }
  return sync;
}

/** What a sync is planned with: the options of the replay that bear on the rules and the pods read. */
export type SyncRules = Pick<ReplayOptions, 'behaviour' | 'rulesFor' | 'candidateRules' | 'wholeNamespace' | 'observedTimes'>;

/** How many earlier states a write the rules do not do on the latest one is planned on. */
const MAX_EARLIER_STATES = 16;

const isoMs = (ms: number): string => new Date(ms).toISOString();

/** A sync of the window on which the rules do the write, or why the window was not searched whole (null: it was). */
export interface WindowAnswer {
  found: { sync: Sync; verdict: Verdict } | null;
  untried: string | null;
}

/** The verdict of one write on a sync. */
export type VerdictOf = (d: SyncDecision, sync: Sync) => Verdict;

/**
 * The controller ranks pods at the moment it decides, which may be any time after the state's
 * last change and before the write reaches the log: a pod's age may cross a bucket edge in
 * between. The latest state, ranked at each time of that window where buckets change, the
 * latest first. Every sync planned on is added to `tried`.
 */
export function rankedInWindow(opts: SyncRules, ns: NamespaceState, sync: Sync, w: ApiWrite, verdict: VerdictOf, tried: Sync[]): WindowAnswer {
  const at = Date.parse(w.time);
  if (!sync.decision) return { found: null, untried: null };
  const from = Math.max(at - JOURNAL_MS, ns.changeTimes(-Infinity)[0] ?? -Infinity);
  const times = rankingTimes(sync.decision, from, at);
  for (const t of times.slice(-MAX_RANKING_TIMES).reverse()) {
    const ranked = planSync(opts, ns, sync.controller, w, sync.cause, undefined, t);
    if (!ranked.decision || ranked.unknown !== null) continue;
    tried.push(ranked);
    const v = verdict(ranked.decision, ranked);
    if (!v.ok) continue;
    const message = `${v.message} (ranked at ${isoMs(t)}: the controller deciding ${((at - t) / 1000).toFixed(3)} s before this write, on the state of then)`;
    return { found: { sync: ranked, verdict: { ...v, message } }, untried: null };
  }
  const left = times.length - MAX_RANKING_TIMES;
  if (left <= 0) return { found: null, untried: null };
  return {
    found: null,
    untried: `the controller may have ranked the pods at a time not tried: ${left} of the times in the window before this write where their ages cross a bucket edge were not ranked at`,
  };
}

/**
 * The controller may have planned on the state of a moment before (its informer a little behind
 * the log, a reconcile that listed before the kubelet's last report): after its previous sync
 * (`previous`, ms) and after what caused this one, within JOURNAL_MS. Seen by an observer, a
 * write's times bound nothing the controller saw: only the window does, and a window not searched
 * whole leaves the write unknown. A status write is planned apart (statusOnEarlierPods).
 */
export function plannedOnEarlierStates(
  opts: SyncRules,
  ns: NamespaceState,
  sync: Sync,
  w: ApiWrite,
  previous: number | undefined,
  verdict: VerdictOf,
  tried: Sync[],
): WindowAnswer {
  const at = Date.parse(w.time);
  const since = opts.observedTimes
    ? at - JOURNAL_MS
    : Math.max(at - JOURNAL_MS, previous ?? -Infinity, sync.cause ? Date.parse(sync.cause[0].time) - 1 : -Infinity);
  const times = ns.changeTimes(since);
  for (const t of times.slice(0, MAX_EARLIER_STATES)) {
    const earlier = planSync(opts, ns, sync.controller, w, sync.cause, t);
    if (!earlier.decision || earlier.unknown !== null) continue;
    tried.push(earlier);
    const v = verdict(earlier.decision, earlier);
    if (!v.ok) continue;
    const message = `${v.message} (planned on the state before ${isoMs(t)}: the controller's view ${((at - t) / 1000).toFixed(3)} s before this write)`;
    return { found: { sync: earlier, verdict: { ...v, message } }, untried: null };
  }
  return { found: null, untried: untriedStates(opts, times.length) };
}

/**
 * A status write is an update at the controller's resourceVersion (a 409 makes the controller read
 * it again), so the controller it was computed for is the latest one; its pods are those of the
 * pod informer, which may lag the log by any time within JOURNAL_MS: the cause is only the log's
 * latest change that explains the write, not necessarily one the controller had seen. An informer
 * only moves forward: pods older than the controller's previous status write (`previous`) explain
 * this one only if that status too is what some pods no newer than them give; else the write is
 * unknown (the log cannot tell how far the informer lagged), not false.
 */
export function statusOnEarlierPods(
  opts: SyncRules,
  ns: NamespaceState,
  sync: Sync,
  w: ApiWrite,
  previous: WrittenStatus | undefined,
  verdict: VerdictOf,
  tried: Sync[],
): WindowAnswer {
  const at = Date.parse(w.time);
  const times = ns.changeTimes(at - JOURNAL_MS);
  const podsAt = (t: number) => planSync(opts, ns, sync.controller, w, sync.cause, t, undefined, true);
  for (const t of times.slice(0, MAX_EARLIER_STATES)) {
    const earlier = podsAt(t);
    if (!earlier.decision || earlier.unknown !== null) continue;
    tried.push(earlier);
    const v = verdict(earlier.decision, earlier);
    if (!v.ok) continue;
    const view = `the pods before ${isoMs(t)}: the controller's view ${((at - t) / 1000).toFixed(3)} s before this write`;
    const behind = previous !== undefined && !opts.observedTimes && t <= previous.at;
    // the previous status from pods no newer than these (newest first, as many as the window is searched)
    const asOld = times.filter((t0) => t0 <= t).slice(0, MAX_EARLIER_STATES);
    if (behind && !asOld.some((t0) => givesStatus(podsAt(t0), previous.status)))
      return {
        found: null,
        untried: `the rules write it from ${view}, and its previous status (${isoMs(previous.at)}) is what no pods as old as those give: its informer would have gone back, or lagged further than the log shows`,
      };
    return { found: { sync: earlier, verdict: { ...v, message: `${v.message} (planned on ${view})` } }, untried: null };
  }
  return { found: null, untried: untriedStates(opts, times.length) };
}

/** Whether the status the sync computes counts its pods as `written` does (the fields the pods give). */
function givesStatus(sync: Sync, written: Record<string, unknown>): boolean {
  // biome-ignore lint/plugin/double-assertion: PlanStatus has no index signature; read by the names below, as `written` is
  const s = (sync.decision ? writtenStatus(sync.decision.status) : undefined) as unknown as Record<string, unknown> | undefined;
  if (!s || sync.unknown !== null) return false;
  return ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'].every((f) => (s[f] ?? 0) === (written[f] ?? 0));
}

/** Why a window was not searched whole (null: it was, or the log's own times bound it). */
function untriedStates(opts: SyncRules, states: number): string | null {
  const left = states - MAX_EARLIER_STATES;
  if (left <= 0 || !opts.observedTimes) return null;
  return `the controller may have planned on a state older still: ${left} earlier state${left === 1 ? '' : 's'} of the ${(JOURNAL_MS / 1000).toFixed(0)} s before this write were not planned on`;
}
