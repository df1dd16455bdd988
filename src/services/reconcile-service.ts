// One sync of every controller in scope, applied to the cluster: the plan is computed on fresh
// state, then carried out controller by controller through the same sync `run` uses.

import { hostname } from 'node:os';
import { KubeControllerAPI } from '../cluster/controller-api.js';
import type { ActionOutcome, ControllerAPI } from '../runtime/api.js';
import { syncController, type SyncOutcome } from '../controller/sync.js';
import { controllerKey } from '../core/controller.js';
import type { Plan, PlanController } from '../core/plan-types.js';
import { TokenBucket } from '../core/rate-limiter.js';
import type { Controller } from '../core/types.js';
import { realClock } from '../runtime/clock.js';
import type { PlanContext } from './plan-service.js';

export type DryRun = 'none' | 'client' | 'server';

export interface ControllerOutcome {
  actions: ActionOutcome[];
  error: string | null;
  statusWritten: boolean;
  dryRun: DryRun;
}

export type ReconcileEntry = PlanController & { outcome: ControllerOutcome };
export type ReconcileReport = Omit<Plan, 'controllers'> & { controllers: ReconcileEntry[]; dryRun: DryRun; failed: number };

export interface ApplyOptions {
  dryRun: DryRun;
  qps: number;
  burst: number;
  workers: number;
  onAction?: (a: ActionOutcome, c: PlanController) => void;
  api?: ControllerAPI; // tests may pass their own
  clock?: () => number;
}

/** Applies the plan: every controller that is not in sync gets one sync, `workers` at a time. */
export async function applyPlan(ctx: PlanContext, opts: ApplyOptions): Promise<ReconcileReport> {
  const clock = opts.clock ?? Date.now;
  const byKey = new Map<string, Controller>(ctx.selected.map((c) => [`${c.kind}/${controllerKey(c)}`, c]));
  const outcomes = new Map<PlanController, ControllerOutcome>();
  const pending = ctx.plan.controllers.filter((e) => !e.inSync && e.skip?.reason !== 'InvalidSelector');
  for (const e of ctx.plan.controllers) outcomes.set(e, { actions: [], error: null, statusWritten: false, dryRun: opts.dryRun });

  if (opts.dryRun !== 'client' && pending.length) {
    if (!ctx.connection && !opts.api) throw new Error('reconcile needs a cluster connection');
    const limiter = new TokenBucket(realClock, opts.qps, opts.burst);
    const api = opts.api ?? new KubeControllerAPI(ctx.connection!.kc, { dryRun: opts.dryRun === 'server', limiter, hostname: hostname(), now: clock });
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const entry = pending[next++];
        const c = byKey.get(`${entry.kind}/${entry.namespace}/${entry.name}`)!;
        const o = outcomes.get(entry)!;
        const res: SyncOutcome = await syncController(ctx.planner, c, {
          api,
          behaviour: ctx.behaviour,
          burstReplicas: ctx.planner.burstReplicas,
          now: clock,
          onAction: (a) => opts.onAction?.(a, entry),
        });
        o.actions = res.actions;
        o.error = res.error ? res.error.message : null;
        o.statusWritten = res.statusWritten;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.workers, pending.length)) }, worker));
    await api.flush?.(); // the events still on their way
  }
  const controllers = ctx.plan.controllers.map((e) => ({ ...e, outcome: outcomes.get(e)! }));
  const failed = controllers.filter((e) => e.outcome.error !== null || e.outcome.actions.some((a) => !a.ok)).length;
  return { ...ctx.plan, controllers, dryRun: opts.dryRun, failed };
}

/** Counts of what was done, for the closing line. */
export function tally(report: ReconcileReport): Record<string, number> {
  const t: Record<string, number> = { adopt: 0, release: 0, create: 0, delete: 0, status: 0, failed: 0 };
  for (const c of report.controllers) {
    for (const a of c.outcome.actions) {
      if (a.ok) t[a.action]++;
      else t.failed++;
    }
  }
  return t;
}
