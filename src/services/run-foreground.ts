// The process around the controllers for `run`: connect, pick the upstream version, refuse to
// fight a running upstream controller, serve metrics and health, lead (or not) through a Lease,
// and stop cleanly on a signal, on --until-synced, or when leadership is lost.

import { connect, type ConnectionFlags } from '../cluster/kubeconfig.js';
import { getServerVersion } from '../cluster/read.js';
import { runLeaderElection } from '../cluster/lease.js';
import { refuseBesideUpstreamController } from '../cluster/upstream-detect.js';
import { createLogger } from '../runtime/log.js';
import { controllerMetrics, Metrics, serveMetrics, workQueueMetricSink } from '../runtime/metrics.js';
import { realClock } from '../runtime/clock.js';
import type { WriteFence } from '../runtime/api.js';
import type { ControllerKind } from '../core/types.js';
import { UserError, oneLine } from '../errors.js';
import { firstNames } from '../core/messages.js';
import { resolveBehaviour } from './behaviour.js';
import { planInSync, preparePlan } from './plan-service.js';
import { describeWork } from './reconcile-service.js';
import type { Logger } from '../runtime/log.js';
import { startControllers, type ControllersHandle } from './run-service.js';

export interface ForegroundOptions {
  connection: ConnectionFlags;
  namespace?: string;
  allNamespaces: boolean;
  selector?: string;
  kinds: ControllerKind[];
  workers: number;
  burstReplicas: number;
  kubeVersion?: string;
  featureGates?: string;
  qps: number;
  burst: number;
  resyncMs: number;
  leaderElect: boolean;
  leaseName: string;
  leaseNamespace?: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  identity: string;
  force: boolean;
  logFormat: 'text' | 'json';
  verbosity: number;
  metricsBindAddress: string;
  untilSynced: boolean;
  timeoutMs: number;
  /** For tests: stop when this aborts (signals are handled too). */
  signal?: AbortSignal;
  stream?: NodeJS.WritableStream;
}

const SHUTDOWN_GRACE_MS = 10_000;

/** Runs until stopped; returns the exit status. */
export async function runForeground(o: ForegroundOptions): Promise<number> {
  const stream = o.stream ?? process.stderr;
  const log = createLogger({ format: o.logFormat, verbosity: o.verbosity, stream, clock: realClock, color: (stream as NodeJS.WriteStream).isTTY === true && !process.env.NO_COLOR });
  const conn = connect({ ...o.connection, namespace: o.namespace });
  const namespace = o.allNamespaces ? null : conn.namespace;

  const notices: string[] = [];
  const { behaviour } = await resolveBehaviour(o, notices, async () => (await getServerVersion(conn)).minor);
  for (const n of notices) log.info(`warning: ${n}`);

  if (!o.force) await refuseBesideUpstreamController(conn, namespace, (w) => log.info(`warning: ${w}`));

  const metrics = new Metrics();
  const m = controllerMetrics(metrics);
  const queueSink = workQueueMetricSink(m);
  let handle: ControllersHandle | null = null;
  let leading = !o.leaderElect;
  const server =
    o.metricsBindAddress !== '0'
      ? await serveMetrics(metrics, o.metricsBindAddress, {
          healthz: () => true,
          readyz: () => !leading || (handle !== null && handle.informers.pods.hasSynced()),
        })
      : null;
  if (server) log.info('Serving metrics', { address: `${server.address}:${server.port}` });

  const stop = new AbortController();
  const onSignal = () => {
    log.info('Shutting down: no new work, finishing syncs in flight');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  o.signal?.addEventListener('abort', () => stop.abort(), { once: true });

  let exitCode = 0;
  const expectationsTimer = setInterval(() => {
    if (handle) m.expectationsPending.set(handle.controllers.reduce((n, c) => n + c.expectations.pending().length, 0));
  }, 1000);
  expectationsTimer.unref();

  /** Runs the controllers until `signal` aborts; resolves once they stopped. */
  const lead = async (signal: AbortSignal, fence?: WriteFence): Promise<void> => {
    handle = startControllers(
      {
        fence,
        identity: fence ? o.identity : undefined,
        trackWrittenPods: o.untilSynced,
        conn,
        namespace,
        selector: o.selector,
        kinds: o.kinds,
        workers: o.workers,
        burstReplicas: o.burstReplicas,
        behaviour,
        qps: o.qps,
        burst: o.burst,
        resyncMs: o.resyncMs,
        log,
        metrics: {
          onQueueMetric: (_queue, e) => queueSink(e),
          onRequest: (verb, resource, code) => m.apiRequests.inc({ verb, resource, code: String(code) }),
          onSync: (_kind, ms) => m.syncDuration.observe(ms / 1000),
        },
      },
      signal,
    );
    const h = handle;
    if (o.untilSynced) {
      const deadline = Date.now() + o.timeoutMs;
      void (async () => {
        try {
          await h.synced;
        } catch {
          return;
        }
        while (!signal.aborted) {
          const unsettled = h.unsettledPods();
          // The caches say done; `diff` on the same scope, on a fresh read, must say so too.
          if (h.allInSync() && !unsettled.notReady.length && !unsettled.notGone.length && (await diffDrift(o, log))?.length === 0) {
            log.info('Every controller in scope is in sync and no expectation is pending');
            stop.abort();
            return;
          }
          if (Date.now() > deadline) {
            const drift = await diffDrift(o, log);
            log.error(`not in sync after ${Math.round(o.timeoutMs / 1000)}s${describeUnsettled(unsettled)}${drift?.length ? `; diff: ${firstNames(drift, 5)}` : ''}`);
            exitCode = 1;
            stop.abort();
            return;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      })();
    }
    await h.done;
  };

  try {
    if (!o.leaderElect) {
      await lead(stop.signal);
    } else {
      const leaseNamespace = o.leaseNamespace ?? namespace ?? 'default';
      let running: Promise<void> | null = null;
      const grace = () => new Promise<void>((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref());
      // On a stop (signal, --until-synced) the leader keeps its lease, and renews it, while the
      // syncs in flight finish: their writes pass the fence. Only then is the election cancelled
      // and the lease released. A lost lease ends leading at once instead, writes and all.
      const election = new AbortController();
      stop.signal.addEventListener(
        'abort',
        () =>
          void (async () => {
            if (running) await Promise.race([running, grace()]);
            election.abort();
          })(),
        { once: true },
      );
      m.leader.set(0);
      await runLeaderElection(
        {
          conn,
          namespace: leaseNamespace,
          name: o.leaseName,
          identity: o.identity,
          leaseDurationMs: o.leaseDurationMs,
          renewDeadlineMs: o.renewDeadlineMs,
          retryPeriodMs: o.retryPeriodMs,
          onStartedLeading: (signal, fence) => {
            leading = true;
            m.leader.set(1);
            log.info('Became the leader', { lease: `${leaseNamespace}/${o.leaseName}`, identity: o.identity });
            running = lead(AbortSignal.any([signal, stop.signal]), fence);
          },
          onStoppedLeading: () => {
            m.leader.set(0);
            if (!election.signal.aborted) {
              // As kube-controller-manager (klog.FlushAndExit(…, 1) on "leaderelection lost"):
              // exit 1 at once, its restart stands by. The fence refuses every write from here.
              log.error('Leader election lost: stopping at once');
              exitCode = 1;
              stop.abort();
            }
          },
          onNewLeader: (id) => {
            if (id !== o.identity) log.info('Another instance leads', { identity: id });
          },
          onError: (err, during) => log.v(2).info(`lease ${during} failed`, { err: err.message }),
        },
        election.signal,
      );
      if (running) await Promise.race([running, grace()]);
    }
    // bound the wait for syncs in flight
    await Promise.race([handle ? (handle as ControllersHandle).done : Promise.resolve(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
  } catch (err) {
    if (err instanceof UserError) throw err;
    log.error(`controller failed: ${oneLine(err)}`);
    exitCode = 2;
  } finally {
    clearInterval(expectationsTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server?.close();
  }
  return exitCode;
}

const quiet = { update() {}, done() {} };

/**
 * `diff`'s decision on the scope `run` controls: a fresh read planned as `diff` plans it. Empty
 * when `diff` would exit 0 (planInSync), else what each controller not in sync still needs. null
 * when the read failed (not in sync yet: the next look tries again).
 */
async function diffDrift(o: ForegroundOptions, log: Logger): Promise<string[] | null> {
  try {
    const ctx = await preparePlan(
      { namespace: o.namespace, allNamespaces: o.allNamespaces, selector: o.selector, connection: o.connection },
      { kubeVersion: o.kubeVersion, featureGates: o.featureGates, burstReplicas: o.burstReplicas },
      [],
      { progress: quiet },
      (c) => o.kinds.includes(c.kind),
    );
    if (planInSync(ctx.plan)) return [];
    return ctx.plan.controllers.filter((c) => !c.inSync).map((c) => `${c.kind} ${c.namespace}/${c.name} (${c.skip ? c.skip.message : describeWork(c)})`);
  } catch (err) {
    log.v(2).info('reading the scope to confirm it is in sync failed', { err: oneLine(err) });
    return null;
  }
}

function describeUnsettled(u: { notReady: string[]; notGone: string[] }): string {
  const parts: string[] = [];
  const pods = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;
  if (u.notReady.length) parts.push(`${pods(u.notReady.length)} it created not ready yet: ${firstNames(u.notReady, 5)}`);
  if (u.notGone.length) parts.push(`${pods(u.notGone.length)} it deleted not gone yet: ${firstNames(u.notGone, 5)}`);
  return parts.length ? `: waiting for ${parts.join('; ')}` : '';
}
