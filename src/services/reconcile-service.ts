// `reconcile` applied: the decisions of the plan the user saw (and confirmed, or saved) carried out
// controller by controller through the same sync `run` uses, then, when converging, follow-up
// syncs of the controllers written to, each on fresh state, until they are in sync.

import { hostname } from 'node:os';
import { KubeControllerAPI, userAgentFor } from '../cluster/controller-api.js';
import type { ActionOutcome, ControllerAPI } from '../runtime/api.js';
import { syncController, type SyncOutcome } from '../controller/sync.js';
import type { SyncDecision } from '../core/plan.js';
import type { Plan, PlanController } from '../core/plan-types.js';
import { TokenBucket } from '../runtime/rate-limiter.js';
import { realClock } from '../runtime/clock.js';
import { UserError } from '../errors.js';
import { namespaceOf } from '../core/controller.js';
import { firstNames } from '../core/messages.js';
import { entryKey, staleness } from '../core/plan-compare.js';
import type { Controller } from '../core/types.js';
import { readSavedPlan } from '../input/plan-file.js';
import { preparePlan, type ModelOptions, type PlanContext, type PlanIO, type SourceOptions } from './plan-service.js';
import type { Target } from './targets.js';

export type DryRun = 'none' | 'client' | 'server';

export interface ControllerOutcome {
  actions: ActionOutcome[]; // every sync's, in order
  error: string | null;
  statusWritten: boolean;
  dryRun: DryRun;
  syncs: number; // syncs carried out (the first, then the follow-ups of converging)
  inSync: boolean; // by the last plan read (the plan's own view when not converging)
  notice: string | null; // why converging stopped short
}

export type ReconcileEntry = PlanController & { outcome: ControllerOutcome };
export type ReconcileReport = Omit<Plan, 'controllers'> & { controllers: ReconcileEntry[]; dryRun: DryRun; failed: number; converged: boolean | null };

export interface ApplyOptions {
  dryRun: DryRun;
  qps: number;
  burst: number;
  workers: number;
  onAction?: (a: ActionOutcome, c: PlanController) => void;
  api?: ControllerAPI; // tests may pass their own
  clock?: () => number;
  /**
   * Go on syncing the controllers this sync wrote to, on fresh state, as the controller would on
   * the events its writes cause, until each is in sync or the deadline passes. Not with a dry run.
   */
  converge?: ConvergeOptions;
}

export interface ConvergeOptions {
  /** Fresh state for these controllers (a new read of the cluster, planned at a new `now`). */
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


/** One sync of each controller that is not in sync, `workers` at a time: the decisions of `ctx`. */
async function syncRound(ctx: PlanContext, pending: PlanController[], api: ControllerAPI, opts: ApplyOptions, outcomes: Map<string, ControllerOutcome>): Promise<void> {
  const decisions = new Map<string, SyncDecision>();
  for (const d of ctx.decisions) decisions.set(entryKey(d.entry), d);
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const entry = pending[next++];
      const decision = decisions.get(entryKey(entry));
      if (!decision) throw new Error(`internal error: the plan of ${entryKey(entry)} was prepared without its decision (keepDecisions)`);
      const o = outcomes.get(entryKey(entry))!;
      const res: SyncOutcome = await syncController(ctx.planner, decision, {
        api,
        behaviour: ctx.behaviour,
        onAction: (a) => opts.onAction?.(a, entry),
      });
      o.actions.push(...res.actions);
      o.syncs++;
      if (res.error) o.error = res.error.message;
      if (res.statusWritten) o.statusWritten = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.workers, pending.length)) }, worker));
}

const needsSync = (e: PlanController) => !e.inSync && e.skip?.reason !== 'InvalidSelector';
const failedIn = (o: ControllerOutcome) => o.error !== null || o.actions.some((a) => !a.ok);

/** Pods a follow-up sync would delete or release that the user did not agree to. */
function unconfirmed(e: PlanController, confirmed: NonNullable<ConvergeOptions['confirmed']>): string[] {
  const out = e.delete.filter((d) => !confirmed.delete.has(`${e.namespace}/${d.name}`)).map((d) => `delete ${d.name}`);
  for (const p of e.pods) if (p.decision === 'release' && !confirmed.release.has(`${e.namespace}/${p.name}`)) out.push(`release ${p.name}`);
  return out;
}

/**
 * Applies the plan: every controller that is not in sync gets one sync, `workers` at a time,
 * carrying out exactly the decisions the plan shows. With `converge`, the controllers it wrote to
 * are synced again on fresh state until each is in sync, fails, or the deadline passes.
 */
export async function applyPlan(ctx: PlanContext, opts: ApplyOptions): Promise<ReconcileReport> {
  const clock = opts.clock ?? Date.now;
  const outcomes = new Map<string, ControllerOutcome>();
  for (const e of ctx.plan.controllers) outcomes.set(entryKey(e), { actions: [], error: null, statusWritten: false, dryRun: opts.dryRun, syncs: 0, inSync: e.inSync, notice: null });
  const pending = ctx.plan.controllers.filter(needsSync);
  let converged: boolean | null = null;

  if (opts.dryRun !== 'client' && pending.length) {
    if (!ctx.connection && !opts.api) throw new Error('reconcile needs a cluster connection');
    const limiter = new TokenBucket(realClock, opts.qps, opts.burst);
    // Named as run names the controller (userAgentFor), so that an audit log tells its writes as the controller's.
    const api = opts.api ?? new KubeControllerAPI(ctx.connection!.kc, { dryRun: opts.dryRun === 'server', limiter, hostname: hostname(), now: clock, userAgent: userAgentFor('replicaset-controller', `reconcile@${hostname()}`, ctx.behaviour.version) });
    await syncRound(ctx, pending, api, opts, outcomes);
    const conv = opts.dryRun === 'none' ? opts.converge : undefined;
    if (conv) converged = await converge(pending, api, opts, conv, outcomes, clock);
    await api.flush?.(); // the events still on their way
  }
  const controllers = ctx.plan.controllers.map((e) => ({ ...e, outcome: outcomes.get(entryKey(e))! }));
  const failed = controllers.filter((e) => failedIn(e.outcome)).length;
  return { ...ctx.plan, controllers, dryRun: opts.dryRun, failed, converged };
}

/** The follow-up syncs; true when every controller written to is in sync at the end. */
async function converge(first: PlanController[], api: ControllerAPI, opts: ApplyOptions, conv: ConvergeOptions, outcomes: Map<string, ControllerOutcome>, clock: () => number): Promise<boolean> {
  const deadline = clock() + conv.timeoutMs;
  const sleep = conv.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Only controllers whose sync went through are followed: a failed one is reported as failed.
  let active = new Set(first.map(entryKey).filter((k) => !failedIn(outcomes.get(k)!)));
  let wait = 0;
  while (active.size) {
    if (wait) await sleep(Math.min(wait, Math.max(0, deadline - clock())));
    let ctx: PlanContext;
    try {
      ctx = await conv.refresh(active);
    } catch (e) {
      // The writes are done; what is missing is the proof that they converged.
      for (const k of active) outcomes.get(k)!.notice = `not known to be in sync: reading fresh state failed: ${(e as Error).message.split('\n')[0]}`;
      return false;
    }
    const fresh = new Map(ctx.plan.controllers.map((e) => [entryKey(e), e]));
    const next: PlanController[] = [];
    for (const k of active) {
      const o = outcomes.get(k)!;
      const e = fresh.get(k);
      o.inSync = e?.inSync ?? true; // a controller deleted meanwhile has nothing left to do
      if (!e || !needsSync(e)) {
        active.delete(k);
        continue;
      }
      const extra = conv.confirmed ? unconfirmed(e, conv.confirmed) : [];
      if (extra.length) {
        o.notice = `not in sync: its next sync would ${firstNames(extra, 3)}, which was not confirmed; run reconcile again`;
        active.delete(k);
        continue;
      }
      next.push(e);
    }
    if (!next.length) break;
    if (clock() >= deadline) {
      for (const e of next) outcomes.get(entryKey(e))!.notice = `not in sync after ${formatSeconds(conv.timeoutMs)} (--timeout): ${describeWork(e)}`;
      return false;
    }
    await syncRound(ctx, next, api, opts, outcomes);
    active = new Set(next.map(entryKey).filter((k) => !failedIn(outcomes.get(k)!)));
    // Writes are read back at once from a real API server; a short pause only when a round made
    // no progress (e.g. waiting on a status conflict), growing as upstream's per-item backoff.
    wait = wait ? Math.min(wait * 2, 1000) : 5;
  }
  return [...outcomes.values()].every((o) => o.inSync || o.syncs === 0);
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
export async function startReconcile(src: SourceOptions, model: ModelOptions, targets: Target[], io: PlanIO, savedPlan?: { path: string; maxInputBytes: number }): Promise<ReconcileStart | null> {
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
  const refresh = (keys: Set<string>) => preparePlan(src, { ...model, keepDecisions: true }, [], io, (c) => keys.has(controllerEntryKey(c)) && (!restrict || restrict(c)));
  return { ctx, saved, stale, refresh };
}

/** The pods a confirmation (or a saved plan) named for deletion and release, as namespace/name. */
export function confirmedPods(work: PlanController[]): { delete: Set<string>; release: Set<string> } {
  const del = new Set<string>();
  const release = new Set<string>();
  for (const c of work) {
    for (const d of c.delete) del.add(`${c.namespace}/${d.name}`);
    for (const p of c.pods) if (p.decision === 'release') release.add(`${c.namespace}/${p.name}`);
  }
  return { delete: del, release };
}

const controllerEntryKey = (c: Controller): string => entryKey({ kind: c.kind, namespace: namespaceOf(c), name: c.metadata.name });
