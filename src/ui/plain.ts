// Not a terminal (piped, CI) or --plain: a plain-text update stream, one line per change,
// printed only when a controller's line differs from the last one printed for it.
//
//   2026-01-01T00:00:05Z shop/web rs desired=5 current=4 adopt=1 release=0 create=1 delete=0 drift
//
// and one per Deployment, its ReplicaSets' sizes and the deployment controller's next step:
//
//   2026-01-01T00:00:05Z shop/web deploy replicas=4 updated=2 available=4 replicasets=web-7d9c5b6f4:2/2,web-5f6b4c8d9:3/3→2 drift next: scale …

import { entryKey } from '../core/plan-compare.js';
import type { Plan, PlanController } from '../core/plan-types.js';
import { kindShort, sanitize } from '../render/text.js';
import type { DeploymentView, AwaitedWrites, LogEntry, WatchFeed } from '../services/watch/contract.js';
import { nextStep, replicaSetName, sizesText } from './deployment-words.js';
import { deploymentKeyOf } from './list-rows.js';
import { newsEntry } from './news.js';
import { claimCounts, isDrifted } from './state.js';

function plainState(c: PlanController, awaited: AwaitedWrites | null = null): string {
  if (awaited) return `waiting-for=${awaited.replace(' and ', ',')}`;
  if (c.skip !== null) return `skipped=${c.skip.reason}`;
  return isDrifted(c) ? 'drift' : 'in-sync';
}

/** A controller's line, without the time stamp. */
export function plainLine(c: PlanController, awaited: AwaitedWrites | null = null): string {
  const { adopt, release } = claimCounts(c);
  return sanitize(
    `${c.namespace}/${c.name} ${kindShort(c.kind)} desired=${c.replicas.desired} current=${c.replicas.current} adopt=${adopt} release=${release} create=${c.create.count} delete=${c.delete.length} ${plainState(c, awaited)}`,
  );
}

/** A Deployment's state word: skipped=Reason, drift (its next sync writes), paused, or in-sync. */
function deploymentState(v: DeploymentView): string {
  const d = v.decision;
  if (d.skip) return `skipped=${d.skip.reason}`;
  const words = [d.inSync ? 'in-sync' : 'drift'];
  if (d.paused) words.push('paused');
  if (v.deadlineExceeded) words.push('progress-deadline-exceeded');
  return words.join(' ');
}

/** A Deployment's line, without the time stamp: its counts, its ReplicaSets' sizes (`name:current/desired→next`), then the next step. */
export function plainDeploymentLine(v: DeploymentView): string {
  const d = v.decision;
  const rss = v.replicaSets.map((rs) => `${replicaSetName(rs)}:${sizesText(rs).replace(' → ', '→')}`).join(',');
  return sanitize(
    `${d.namespace}/${d.name} deploy replicas=${v.replicas} updated=${d.status.updatedReplicas} available=${d.status.availableReplicas} replicasets=${rss || '-'} ${deploymentState(v)} next: ${nextStep(v).text}`,
  );
}

export class PlainStream {
  /** The last line printed per controller or Deployment key, and the line saying it is gone. */
  private readonly last = new Map<string, { line: string; gone: string }>();

  /** The lines to print for this plan: controllers whose line changed, and those now gone. */
  update(plan: Plan, stamp: string, waiting?: ReadonlyMap<string, AwaitedWrites>, deployments: readonly DeploymentView[] | null = null): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const v of deployments ?? []) {
      const key = deploymentKeyOf(v);
      seen.add(key);
      const line = plainDeploymentLine(v);
      if (this.last.get(key)?.line === line) continue;
      this.last.set(key, { line, gone: sanitize(`${v.decision.namespace}/${v.decision.name} deploy gone`) });
      out.push(`${stamp} ${line}`);
    }
    for (const c of plan.controllers) {
      const key = entryKey(c);
      seen.add(key);
      const line = plainLine(c, c.skip?.reason === 'ExpectationsPending' ? (waiting?.get(key) ?? 'creates') : null);
      if (this.last.get(key)?.line === line) continue;
      this.last.set(key, { line, gone: sanitize(`${c.namespace}/${c.name} ${kindShort(c.kind)} gone`) });
      out.push(`${stamp} ${line}`);
    }
    for (const [key, { gone }] of this.last) {
      if (seen.has(key)) continue;
      this.last.delete(key);
      out.push(`${stamp} ${gone}`);
    }
    return out;
  }
}

export interface PlainIO {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
  /** Aborted on SIGINT: a live stream ends there. */
  signal: AbortSignal;
}

/** Stamp of a frame: the plan's time for a snapshot, the update's wall-clock second when live. */
export function frameStamp(live: boolean, frame: { plan: Plan; at: number }): string {
  return live ? secondStamp(frame.at) : frame.plan.now;
}

/** RFC 3339 to the second, UTC: 2026-01-01T00:00:05Z. */
function secondStamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Prints the update stream; returns after the first plan for a snapshot, on abort when live. */
export async function runPlain(feed: WatchFeed, io: PlainIO): Promise<void> {
  const stream = new PlainStream();
  const log = (entry: LogEntry) => {
    if (entry.level === 'action') io.out.write(`${secondStamp(entry.at)} ${sanitize(entry.text)}\n`);
    else if (entry.level === 'error' || entry.level === 'warn') io.err.write(`Warning: ${sanitize(entry.text)}\n`);
  };
  await feed.start(
    {
      frame: (frame) => {
        const lines = stream.update(frame.plan, frameStamp(feed.live, frame), frame.waiting, frame.deployments);
        if (lines.length) io.out.write(lines.join('\n') + '\n');
      },
      log,
      news: (at, news) => {
        const entry = newsEntry(at, news);
        if (entry) log(entry);
      },
    },
    io.signal,
  );
  if (!feed.live) return;
  if (!io.signal.aborted) await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  // the controller (reconcile mode) finishes the syncs in flight; do not wait for ever
  await Promise.race([feed.stopped(), new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
}

const STOP_GRACE_MS = 10_000;
