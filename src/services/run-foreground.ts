// The process around the controllers for `run`: connect, pick the upstream version, refuse to
// fight a running upstream controller, serve metrics and health, lead (or not) through a Lease,
// and stop cleanly on a signal, on --until-synced, or when leadership is lost.

import { connect, type Connection } from '../cluster/kubeconfig.js';
import type { ConnectionFlags } from '../cluster/config-overrides.js';
import { getServerVersion } from '../cluster/read.js';
import { runLeaderElection } from '../cluster/lease.js';
import { refuseBesideUpstreamController } from '../cluster/upstream-detect.js';
import { createLogger } from '../runtime/log.js';
import { controllerMetrics, Metrics, serveMetrics, workQueueMetricSink } from '../runtime/metrics.js';
import { realClock } from '../runtime/clock.js';
import type { WriteFence } from '../runtime/api.js';
import type { ControllerKind } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
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
  /** Also run the deployment controller (--controllers deployment). */
  deployment?: boolean;
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

/**
 * Runs until stopped; returns the exit status. As kube-controller-manager starts: the version
 * emulated, no fight with an upstream controller, metrics and health served, then the
 * controllers, led through a Lease or not, until a signal, --until-synced or a lost lease.
 */
export async function runForeground(o: ForegroundOptions): Promise<number> {
  const stream = o.stream ?? process.stderr;
  const log = createLogger({
    format: o.logFormat,
    verbosity: o.verbosity,
    stream,
    clock: realClock,
    color: (stream as NodeJS.WriteStream).isTTY === true && !process.env.NO_COLOR,
  });
  const conn = connect({ ...o.connection, namespace: o.namespace });
  const namespace = o.allNamespaces ? null : conn.namespace;

  const notices: string[] = [];
  const { behaviour } = await resolveBehaviour(o, notices, async () => (await getServerVersion(conn)).minor);
  for (const n of notices) log.info(`Warning: ${n}`);

  if (!o.force) await refuseBesideUpstreamController(conn, namespace, (w) => log.info(`Warning: ${w}`));
  // a stop that came while the server was asked (version, an upstream controller) ends it here
  if (o.signal?.aborted) return 0;
  return new Foreground(o, { log, conn, namespace, behaviour }).run();
}

/** What the controllers run with, settled before they start. */
interface Setting {
  log: Logger;
  conn: Connection;
  namespace: string | null;
  behaviour: Behaviour;
}

/** One run of the controllers in the foreground: its metrics, its stop, its exit status. */
class Foreground {
  private readonly metrics = new Metrics();
  private readonly m = controllerMetrics(this.metrics);
  private readonly queueSink = workQueueMetricSink(this.m);
  private readonly stop = new AbortController();
  private handle: ControllersHandle | null = null;
  private leading: boolean;
  private exitCode = 0;

  constructor(
    private readonly o: ForegroundOptions,
    private readonly set: Setting,
  ) {
    this.leading = !o.leaderElect;
  }

  async run(): Promise<number> {
    const { o, set } = this;
    const server = await this.serveMetrics();
    const onSignal = () => {
      set.log.info('Shutting down: no new work, finishing syncs in flight');
      this.stop.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    // an AbortSignal aborted already never fires 'abort' again: a stop during start-up is not lost
    if (o.signal?.aborted) this.stop.abort();
    else o.signal?.addEventListener('abort', () => this.stop.abort(), { once: true });
    const expectationsTimer = setInterval(() => {
      if (this.handle) this.m.expectationsPending.set(this.handle.controllers.reduce((n, c) => n + c.expectations.pending().length, 0));
    }, 1000);
    expectationsTimer.unref();
    try {
      if (o.leaderElect) await this.leadWhileElected();
      else await this.lead(this.stop.signal);
      // bound the wait for syncs in flight
      await Promise.race([this.handle ? this.handle.done : Promise.resolve(), grace()]);
    } catch (err) {
      if (err instanceof UserError) throw err;
      set.log.error(`controller failed: ${oneLine(err)}`);
      this.exitCode = 2;
    } finally {
      clearInterval(expectationsTimer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await server?.close();
    }
    return this.exitCode;
  }

  /** /metrics, /healthz and /readyz (ready: a standby, or a leader whose pod cache has synced). */
  private async serveMetrics(): Promise<{ close(): Promise<void> } | null> {
    if (this.o.metricsBindAddress === '0') return null;
    const server = await serveMetrics(this.metrics, this.o.metricsBindAddress, {
      healthz: () => true,
      readyz: () => !this.leading || this.handle?.informers.pods.hasSynced() === true,
    });
    this.set.log.info('Serving metrics', { address: `${server.address}:${server.port}` });
    return server;
  }

  /** Runs the controllers until `signal` aborts; resolves once they stopped. */
  private async lead(signal: AbortSignal, fence?: WriteFence): Promise<void> {
    const { o, set } = this;
    const h = startControllers(
      {
        fence,
        identity: fence ? o.identity : undefined,
        trackWrittenPods: o.untilSynced,
        conn: set.conn,
        namespace: set.namespace,
        selector: o.selector,
        kinds: o.kinds,
        deployment: o.deployment,
        workers: o.workers,
        burstReplicas: o.burstReplicas,
        behaviour: set.behaviour,
        qps: o.qps,
        burst: o.burst,
        resyncMs: o.resyncMs,
        log: set.log,
        metrics: {
          onQueueMetric: (_queue, e) => this.queueSink(e),
          onRequest: (verb, resource, code) => this.m.apiRequests.inc({ verb, resource, code: String(code) }),
          onSync: (_kind, ms) => this.m.syncDuration.observe(ms / 1000),
        },
      },
      signal,
    );
    this.handle = h;
    if (o.untilSynced) void this.stopOnceSynced(h, signal, Date.now() + o.timeoutMs);
    await h.done;
  }

  /**
   * --until-synced: stops with 0 once every controller is in sync, nothing it wrote is still
   * settling and `diff` on a fresh read agrees; with 1 once the deadline passed first.
   */
  private async stopOnceSynced(h: ControllersHandle, signal: AbortSignal, deadline: number): Promise<void> {
    const { o, set } = this;
    try {
      await h.synced;
    } catch {
      return;
    }
    while (!signal.aborted) {
      const unsettled = h.unsettledPods();
      // The caches say done; `diff` on the same scope, on a fresh read, must say so too.
      if (h.allInSync() && !unsettled.notReady.length && !unsettled.notGone.length && (await diffDrift(o, set.log))?.length === 0) {
        set.log.info('Every controller in scope is in sync and no expectation is pending');
        this.stop.abort();
        return;
      }
      if (Date.now() > deadline) {
        const drift = await diffDrift(o, set.log);
        set.log.error(
          `not in sync after ${Math.round(o.timeoutMs / 1000)}s${describeUnsettled(unsettled)}${drift?.length ? `; diff: ${firstNames(drift, 5)}` : ''}`,
        );
        this.exitCode = 1;
        this.stop.abort();
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** --leader-elect: the controllers run while this instance holds the Lease. */
  private async leadWhileElected(): Promise<void> {
    const { o, set } = this;
    const leaseNamespace = o.leaseNamespace ?? set.namespace ?? 'default';
    let running: Promise<void> | null = null;
    // On a stop (signal, --until-synced) the leader keeps its lease, and renews it, while the
    // syncs in flight finish: their writes pass the fence. Only then is the election cancelled
    // and the lease released. A lost lease ends leading at once instead, writes and all.
    const election = new AbortController();
    this.stop.signal.addEventListener(
      'abort',
      () =>
        void (async () => {
          if (running) await Promise.race([running, grace()]);
          election.abort();
        })(),
      { once: true },
    );
    this.m.leader.set(0);
    await runLeaderElection(
      {
        conn: set.conn,
        namespace: leaseNamespace,
        name: o.leaseName,
        identity: o.identity,
        leaseDurationMs: o.leaseDurationMs,
        renewDeadlineMs: o.renewDeadlineMs,
        retryPeriodMs: o.retryPeriodMs,
        onStartedLeading: (signal, fence) => {
          this.leading = true;
          this.m.leader.set(1);
          set.log.info('Became the leader', { lease: `${leaseNamespace}/${o.leaseName}`, identity: o.identity });
          running = this.lead(AbortSignal.any([signal, this.stop.signal]), fence);
        },
        onStoppedLeading: () => {
          this.m.leader.set(0);
          if (!election.signal.aborted) {
            // As kube-controller-manager (klog.FlushAndExit(…, 1) on "leaderelection lost"):
            // exit 1 at once, its restart stands by. The fence refuses every write from here.
            set.log.error('Leader election lost: stopping at once');
            this.exitCode = 1;
            this.stop.abort();
          }
        },
        onNewLeader: (id) => {
          if (id !== o.identity) set.log.info('Another instance leads', { identity: id });
        },
        onError: (err, during) => set.log.v(2).info(`lease ${during} failed`, { err: err.message }),
      },
      election.signal,
    );
    if (running) await Promise.race([running, grace()]);
  }
}

/** How long a stop waits for the syncs in flight. */
function grace(): Promise<void> {
  return new Promise<void>((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref());
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
