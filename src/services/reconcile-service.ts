// `reconcile` applied: the decisions of the plan the user saw (and confirmed, or saved) carried out
// controller by controller through the same sync `run` uses, then, when converging, follow-up
// syncs of the plan's controllers, each on fresh state, until `diff` on them would exit 0 and what
// it wrote has settled. Interrupted, it sends no further write and reports what it wrote.

import { hostname } from 'node:os';
import { KubeControllerAPI, userAgentFor } from '../cluster/controller-api.js';
import { InterruptedError, interruptible, type ActionOutcome, type ControllerAPI } from '../runtime/api.js';
import { syncController, type SyncOutcome } from '../controller/sync.js';
import type { SyncDecision } from '../core/sync-decision.js';
import type { Plan, PlanController } from '../core/plan-types.js';
import { TokenBucket } from '../runtime/rate-limiter.js';
import { realClock } from '../runtime/clock.js';
import { UserError } from '../errors.js';
import { minReadySeconds, namespaceOf } from '../core/controller.js';
import { firstNames } from '../core/messages.js';
import { entryKey, staleness } from '../core/plan-compare.js';
import type { Controller, Pod } from '../core/types.js';
import { isPodActive, isPodAvailable, isPodReady, isPodTerminating } from '../core/pod.js';
import { readSavedPlan } from '../input/plan-file.js';
import { planInSync, preparePlan, type ModelOptions, type PlanContext, type PlanIO, type SourceOptions } from './plan-service.js';
import type { Target } from './targets.js';
import { metaNamespaceKey } from '../core/object-key.js';

export type DryRun = 'none' | 'client' | 'server';

interface ControllerOutcome {
  actions: ActionOutcome[]; // every sync's, in order
  error: string | null;
  statusWritten: boolean;
  dryRun: DryRun;
  syncs: number; // syncs carried out (the first, then the follow-ups of converging)
  inSync: boolean; // by the last plan read (the plan's own view when not converging)
  notice: string | null; // why converging stopped short
  /** What the syncs started so far set out to do (the plan of each), for "created 148 of 254". */
  planned: { adopt: number; release: number; create: number; delete: number; status: number };
}

type ReconcileEntry = PlanController & { outcome: ControllerOutcome };
/**
 * `stopped`: why the apply ended before its work was done: the user interrupted it (no write was
 * sent after that), or an error no sync reports stopped it. null when it ran to its end.
 */
export type ReconcileReport = Omit<Plan, 'controllers'> & {
  controllers: ReconcileEntry[];
  dryRun: DryRun;
  failed: number;
  converged: boolean | null;
  stopped: { reason: 'interrupted' } | { reason: 'error'; message: string } | null;
};

export interface ApplyOptions {
  dryRun: DryRun;
  qps: number;
  burst: number;
  workers: number;
  onAction?: (a: ActionOutcome, c: PlanController) => void;
  api?: ControllerAPI; // tests may pass their own
  clock?: () => number;
  /**
   * Go on syncing the controllers of the plan on fresh state, as the controller would on the
   * events its writes cause, until `diff` on them would exit 0 and the pods it created or deleted
   * have settled, or the deadline passes. Not with a dry run.
   */
  converge?: ConvergeOptions;
  /** Aborted (Ctrl-C): no further write is sent, and the report says what was written. */
  signal?: AbortSignal;
}

interface ConvergeOptions {
  /** Fresh state for these controllers (a new read of the cluster, planned at a new `now`, as diff plans it). */
  refresh: (keys: Set<string>) => Promise<PlanContext>;
  timeoutMs: number;
  /**
   * Pods the user agreed to see deleted or released. A follow-up sync that would delete or
   * release any other pod is not carried out: its controller stops converging, with a notice.
   * Undefined: no limit (--yes).
   */
  confirmed?: { delete: Set<string>; release: Set<string> };
  /** Waits between rounds (the next round starts when the last one's writes can be read). */
  sleep?: (ms: number) => Promise<void>;
}

const emptyPlanned = () => ({ adopt: 0, release: 0, create: 0, delete: 0, status: 0 });

/** One sync of each controller that is not in sync, `workers` at a time: the decisions of `ctx`. */
async function syncRound(
  ctx: PlanContext,
  pending: PlanController[],
  api: ControllerAPI,
  opts: ApplyOptions,
  outcomes: Map<string, ControllerOutcome>,
): Promise<void> {
  const decisions = new Map<string, SyncDecision>();
  for (const d of ctx.decisions) decisions.set(controllerEntryKey(d.controller), d);
  let next = 0;
  const worker = async () => {
    while (next < pending.length && !opts.signal?.aborted) {
      const entry = pending[next++];
      const decision = decisions.get(entryKey(entry));
      if (!decision) throw new Error(`internal error: the plan of ${entryKey(entry)} was prepared without its decision (keepDecisions)`);
      const o = outcomes.get(entryKey(entry))!;
      addPlanned(o.planned, entry);
      // actions are kept as they happen: an interrupted sync throws, and what it wrote is still told
      const res: SyncOutcome = await syncController(ctx.planner, decision, {
        api,
        behaviour: ctx.behaviour,
        onAction: (a) => {
          o.actions.push(a);
          opts.onAction?.(a, entry);
        },
      });
      o.syncs++;
      if (res.error) o.error = res.error.message;
      if (res.statusWritten) o.statusWritten = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.workers, pending.length)) }, worker));
}

function addPlanned(p: ControllerOutcome['planned'], e: PlanController): void {
  for (const pod of e.pods) {
    if (pod.decision === 'adopt') p.adopt++;
    else if (pod.decision === 'release') p.release++;
  }
  p.create += e.create.count;
  p.delete += e.delete.length;
  if (e.statusChanged) p.status++;
}

const needsSync = (e: PlanController) => !e.inSync && e.skip?.reason !== 'InvalidSelector';
const failedIn = (o: ControllerOutcome) => o.error !== null || o.actions.some((a) => !a.ok);

/** Pods a follow-up sync would delete or release that the user did not agree to. */
function unconfirmed(e: PlanController, confirmed: NonNullable<ConvergeOptions['confirmed']>): string[] {
  const out = e.delete.filter((d) => !confirmed.delete.has(metaNamespaceKey(e.namespace, d.name))).map((d) => `delete ${d.name}`);
  for (const p of e.pods) if (p.decision === 'release' && !confirmed.release.has(metaNamespaceKey(e.namespace, p.name))) out.push(`release ${p.name}`);
  return out;
}

/**
 * Applies the plan: every controller that is not in sync gets one sync, `workers` at a time,
 * carrying out exactly the decisions the plan shows. With `converge`, the controllers of the plan
 * are synced again on fresh state until `diff` on them would exit 0, or the deadline passes.
 */
export async function applyPlan(ctx: PlanContext, opts: ApplyOptions): Promise<ReconcileReport> {
  const clock = opts.clock ?? Date.now;
  const outcomes = new Map<string, ControllerOutcome>();
  for (const e of ctx.plan.controllers)
    outcomes.set(entryKey(e), {
      actions: [],
      error: null,
      statusWritten: false,
      dryRun: opts.dryRun,
      syncs: 0,
      inSync: e.inSync,
      notice: null,
      planned: emptyPlanned(),
    });
  const pending = ctx.plan.controllers.filter(needsSync);
  let converged: boolean | null = null;
  let stopped: ReconcileReport['stopped'] = null;

  const conv = opts.dryRun === 'none' ? opts.converge : undefined;
  // Converging also tells of controllers it cannot sync (not in sync, and skipped): diff exits 1 for them.
  if (opts.dryRun !== 'client' && (pending.length || (conv && !planInSync(ctx.plan)))) {
    if (!ctx.connection && !opts.api) throw new Error('reconcile needs a cluster connection');
    const limiter = new TokenBucket(realClock, opts.qps, opts.burst);
    // Named as run names the controller (userAgentFor), so that an audit log tells its writes as the controller's.
    const base =
      opts.api ??
      new KubeControllerAPI(ctx.connection!.kc, {
        dryRun: opts.dryRun === 'server',
        limiter,
        hostname: hostname(),
        now: clock,
        userAgent: userAgentFor('replicaset-controller', `reconcile@${hostname()}`, ctx.behaviour.version),
      });
    const api = opts.signal ? interruptible(base, opts.signal) : base;
    try {
      if (pending.length) await syncRound(ctx, pending, api, opts, outcomes);
      if (conv && !opts.signal?.aborted) converged = await converge(ctx, api, opts, conv, outcomes, clock);
    } catch (e) {
      // What was written is in the outcomes; the report says why it stopped there.
      stopped = e instanceof InterruptedError ? { reason: 'interrupted' } : { reason: 'error', message: (e as Error).message.split('\n')[0] };
      if (conv) converged = false;
    }
    if (!stopped && opts.signal?.aborted) stopped = { reason: 'interrupted' };
    await api.flush?.(); // the events still on their way
  }
  const controllers = ctx.plan.controllers.map((e) => ({ ...e, outcome: outcomes.get(entryKey(e))! }));
  const failed = controllers.filter((e) => failedIn(e.outcome)).length;
  return { ...ctx.plan, controllers, dryRun: opts.dryRun, failed, converged, stopped };
}

/** What a controller's fresh plan waits for before `diff` stays at 0: pods it wrote still changing, a requeue. */
interface Unsettled {
  notReady: string[]; // pods it created, active and not ready yet
  notAvailable: string[]; // pods it created, ready but not for minReadySeconds yet (a requeue of updatePod, as upstream)
  notGone: string[]; // pods it deleted, still there (terminating pods count in the status)
  requeueMs: number | null; // minReadySeconds: the status changes then, as upstream's requeue
}

/** The pods a controller created and deleted (names in its namespace). */
interface WrittenPods {
  created: Set<string>;
  deleted: Set<string>;
}

/** The pods each controller created and deleted, by the controller's entry key. */
type Written = Map<string, WrittenPods>;

function writtenPods(outcomes: Map<string, ControllerOutcome>): Written {
  const out: Written = new Map();
  for (const [k, o] of outcomes) {
    const w = { created: new Set<string>(), deleted: new Set<string>() };
    for (const a of o.actions) {
      if (!a.ok || !a.pod) continue;
      if (a.action === 'create') w.created.add(a.pod);
      else if (a.action === 'delete') w.deleted.add(a.pod);
    }
    out.set(k, w);
  }
  return out;
}

/**
 * What the fresh state still waits for, for the controller `e`; `pods` by namespace/name, `c` the
 * controller as read (its minReadySeconds).
 */
function unsettledOf(ctx: PlanContext, pods: Map<string, Pod>, e: PlanController, c: Controller | undefined, written: WrittenPods | undefined): Unsettled {
  const notReady: string[] = [];
  const notAvailable: string[] = [];
  const notGone: string[] = [];
  const minReady = c ? minReadySeconds(c) : 0;
  for (const name of written?.created ?? []) {
    const p = pods.get(metaNamespaceKey(e.namespace, name));
    if (!p) continue;
    if (isPodTerminating(p) || (isPodActive(p) && !isPodReady(p))) notReady.push(name);
    else if (isPodActive(p) && minReady > 0 && !isPodAvailable(p, minReady, ctx.nowMs, ctx.behaviour.availabilityInclusive)) notAvailable.push(name);
  }
  // Terminating pods change the status only where the emulated version counts them.
  if (e.status.terminatingReplicas !== undefined)
    for (const name of written?.deleted ?? []) if (pods.has(metaNamespaceKey(e.namespace, name))) notGone.push(name);
  return { notReady, notAvailable, notGone, requeueMs: e.requeueAfterSeconds === null ? null : e.requeueAfterSeconds * 1000 };
}

const isSettled = (u: Unsettled) => !u.notReady.length && !u.notAvailable.length && !u.notGone.length && u.requeueMs === null;
/** Work that is a status write alone: deferred while the pods it counts are still changing. */
const statusOnly = (e: PlanController) =>
  e.statusChanged && !e.create.count && !e.delete.length && !e.pods.some((p) => p.decision === 'adopt' || p.decision === 'release');

/** Re-reads while waiting on pods start this often and slow down to POLL_MAX_MS, as a watch would wake it. */
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 1000;

/**
 * The follow-up syncs, as the controller's own would run on the events its writes cause (a pod it
 * created turning ready, a pod it deleted gone, the minReadySeconds requeue): each round reads the
 * plan's controllers afresh and plans them as `diff` does. It ends when `diff` on them would exit
 * 0 and nothing it wrote is still changing, or at the deadline. True when it ended in sync.
 */
async function converge(
  first: PlanContext,
  api: ControllerAPI,
  opts: ApplyOptions,
  conv: ConvergeOptions,
  outcomes: Map<string, ControllerOutcome>,
  clock: () => number,
): Promise<boolean> {
  const deadline = clock() + conv.timeoutMs;
  const sleep = conv.sleep ?? ((ms: number) => abortableSleep(ms, opts.signal));
  const scope = new Set(first.plan.controllers.map(entryKey));
  // Controllers no longer followed: a failed sync (reported as failed), an unconfirmed next sync.
  const left = new Set([...scope].filter((k) => failedIn(outcomes.get(k)!)));
  let backoff = 0;
  let poll = POLL_MIN_MS;
  for (;;) {
    if (opts.signal?.aborted) throw new InterruptedError();
    let ctx: PlanContext;
    try {
      ctx = await conv.refresh(scope);
    } catch (e) {
      // The writes are done; what is missing is the proof that they converged.
      for (const k of scope)
        if (!left.has(k)) outcomes.get(k)!.notice = `not known to be in sync: reading fresh state failed: ${(e as Error).message.split('\n')[0]}`;
      return false;
    }
    const round = followUps(ctx, outcomes, left, conv);
    if (!round.next.length && !round.waiting.length) return planInSync(ctx.plan);
    if (clock() >= deadline) {
      const after = `not in sync after ${formatSeconds(conv.timeoutMs)} (--timeout)`;
      for (const e of round.next) outcomes.get(entryKey(e))!.notice = `${after}: ${describeWork(e)}`;
      for (const [e, u] of round.waiting) outcomes.get(entryKey(e))!.notice = `${after}: ${e.inSync ? '' : `${describeWork(e)}; `}${describeUnsettled(u)}`;
      return false;
    }
    if (round.next.length) {
      if (backoff) await sleep(Math.min(backoff, Math.max(0, deadline - clock())));
      await syncRound(ctx, round.next, api, opts, outcomes);
      for (const e of round.next) if (failedIn(outcomes.get(entryKey(e))!)) left.add(entryKey(e));
      // Writes are read back at once from a real API server; a short pause only when rounds go on
      // (e.g. waiting on a status conflict), growing as upstream's per-item backoff.
      backoff = backoff ? Math.min(backoff * 2, 1000) : 5;
      poll = POLL_MIN_MS;
      continue;
    }
    // Only waiting: on pods it wrote (re-listed, as an informer would tell of them) or a requeue.
    await sleep(Math.max(10, Math.min(poll, round.requeueMs, deadline - clock())));
    poll = Math.min(poll * 2, POLL_MAX_MS);
  }
}

/**
 * One look at fresh state: the controllers to sync now, and those waiting on pods they wrote or
 * on a requeue. A status write alone waits while the pods it counts are still changing, so one
 * write counts them settled (as a workqueue folds many events of a key into one sync).
 */
function followUps(ctx: PlanContext, outcomes: Map<string, ControllerOutcome>, left: Set<string>, conv: ConvergeOptions) {
  const written = writtenPods(outcomes);
  const pods = new Map(ctx.snapshot.pods.map((p) => [metaNamespaceKey(namespaceOf(p), p.metadata.name), p]));
  const controllers = new Map(ctx.decisions.map((d) => [controllerEntryKey(d.controller), d.controller]));
  const next: PlanController[] = [];
  const waiting: [PlanController, Unsettled][] = [];
  let requeueMs = Infinity;
  const seen = new Set<string>();
  for (const e of ctx.plan.controllers) {
    const k = entryKey(e);
    seen.add(k);
    const o = outcomes.get(k);
    if (!o) continue;
    o.inSync = e.inSync;
    if (left.has(k)) continue;
    const u = unsettledOf(ctx, pods, e, controllers.get(k), written.get(k));
    const deferred = statusOnly(e) && (u.notReady.length > 0 || u.notAvailable.length > 0 || u.notGone.length > 0);
    if (needsSync(e) && !deferred) {
      const extra = conv.confirmed ? unconfirmed(e, conv.confirmed) : [];
      if (extra.length) {
        o.notice = `not in sync: its next sync would ${firstNames(extra, 3)}, which was not confirmed; run reconcile again`;
        left.add(k);
      } else next.push(e);
    } else if (!e.inSync && !needsSync(e)) {
      o.notice = `not in sync: ${e.skip?.message ?? 'skipped'}`;
      left.add(k);
    } else if (!e.inSync || !isSettled(u)) {
      waiting.push([e, u]);
      if (u.requeueMs !== null) requeueMs = Math.min(requeueMs, u.requeueMs);
    }
  }
  // a controller deleted meanwhile has nothing left to do
  for (const [k, o] of outcomes) if (!seen.has(k)) o.inSync = true;
  return { next, waiting, requeueMs };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/** What a controller still has to do, in a few words. */
export function describeWork(e: PlanController): string {
  const parts: string[] = [];
  const adopt = e.pods.filter((p) => p.decision === 'adopt').length;
  const release = e.pods.filter((p) => p.decision === 'release').length;
  if (adopt) parts.push(`adopt ${adopt}`);
  if (release) parts.push(`release ${release}`);
  if (e.create.count) parts.push(`create ${e.create.count}`);
  if (e.delete.length) parts.push(`delete ${e.delete.length}`);
  if (e.statusChanged) parts.push('write its status');
  return parts.join(', ') || 'nothing';
}

/** What the status still waits for, in a few words. */
function describeUnsettled(u: Unsettled): string {
  const parts: string[] = [];
  const pods = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;
  if (u.notReady.length) parts.push(`${pods(u.notReady.length)} it created not ready yet: ${firstNames(u.notReady, 5)}`);
  if (u.notAvailable.length) parts.push(`${pods(u.notAvailable.length)} it created not available yet (minReadySeconds): ${firstNames(u.notAvailable, 5)}`);
  if (u.notGone.length) parts.push(`${pods(u.notGone.length)} it deleted not gone yet: ${firstNames(u.notGone, 5)}`);
  if (u.requeueMs !== null) parts.push(`pods becoming available (minReadySeconds) in ${formatSeconds(Math.ceil(u.requeueMs / 100) * 100)}`);
  return `waiting for ${parts.join('; ')}`;
}

/** What `reconcile` works from: the plan of fresh state and, with --plan, the saved one. */
export interface ReconcileStart {
  ctx: PlanContext;
  /** The saved plan (--plan), or null. */
  saved: Plan | null;
  /** Why the saved plan cannot be applied (empty: it can). */
  stale: string[];
  /** Fresh state for follow-up syncs of these controllers (same scope, same model). */
  refresh: (keys: Set<string>) => Promise<PlanContext>;
}

/**
 * Plans fresh state for `reconcile`. With a saved plan its controllers and namespaces are the
 * scope (names, -n, -A, -l and -f are refused), it is planned again on fresh state and compared.
 * Returns null for a saved plan that holds no controller.
 */
export async function startReconcile(
  src: SourceOptions,
  model: ModelOptions,
  targets: Target[],
  io: PlanIO,
  savedPlan?: { path: string; maxInputBytes: number },
): Promise<ReconcileStart | null> {
  let saved: Plan | null = null;
  let restrict: ((c: Controller) => boolean) | undefined;
  if (savedPlan) {
    if (targets.length || src.selector !== undefined || src.filename?.length || src.namespace !== undefined || src.allNamespaces)
      throw new UserError('--plan takes its controllers and namespaces from the plan: drop the names, -n, -A, -l and -f');
    if (model.kubeVersion !== undefined) throw new UserError("--plan is checked against the cluster's own Kubernetes version: drop --kube-version");
    saved = await readSavedPlan(savedPlan.path, { stdin: io.stdin, maxInputBytes: savedPlan.maxInputBytes });
    if (saved.controllers.length === 0) return null;
    const keys = new Set(saved.controllers.map(entryKey));
    const namespaces = [...new Set(saved.controllers.map((c) => c.namespace))];
    src = { ...src, namespace: namespaces.length === 1 ? namespaces[0] : undefined, allNamespaces: namespaces.length !== 1 };
    restrict = (c) => keys.has(controllerEntryKey(c));
  }
  const ctx = await preparePlan(src, { ...model, keepDecisions: true }, targets, io, restrict);
  const stale = saved ? staleness(saved, ctx.plan) : [];
  const refresh = (keys: Set<string>) =>
    preparePlan(src, { ...model, keepDecisions: true }, [], io, (c) => keys.has(controllerEntryKey(c)) && (!restrict || restrict(c)));
  return { ctx, saved, stale, refresh };
}

/** The pods a confirmation (or a saved plan) named for deletion and release, as namespace/name. */
export function confirmedPods(work: PlanController[]): { delete: Set<string>; release: Set<string> } {
  const del = new Set<string>();
  const release = new Set<string>();
  for (const c of work) {
    for (const d of c.delete) del.add(metaNamespaceKey(c.namespace, d.name));
    for (const p of c.pods) if (p.decision === 'release') release.add(metaNamespaceKey(c.namespace, p.name));
  }
  return { delete: del, release };
}

const controllerEntryKey = (c: Controller): string => entryKey({ kind: c.kind, namespace: namespaceOf(c), name: c.metadata.name });
