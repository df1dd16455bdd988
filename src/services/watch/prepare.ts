// `watch`: from options to a feed for the dashboard or the plain stream. It reads the snapshot
// (or connects), picks the emulated version and the source; feedOf does the rest the same way
// for every mode. Nothing runs until the feed starts.

import type { Connection } from '../../cluster/kubeconfig.js';
import { controllersOf } from '../../core/controller.js';
import type { Behaviour } from '../../core/versions.js';
import { UserError, oneLine } from '../../errors.js';
import type { RecordedResource } from '../../history/recording.js';
import { realClock, type Clock } from '../../runtime/clock.js';
import { chooseBehaviour, resolveBehaviour } from '../behaviour.js';
import { parseNow, readSnapshot, selectControllers, type ModelOptions, type SourceOptions } from '../plan-service.js';
import type { Progress } from '../progress.js';
import type { RecordingSession } from '../record-service.js';
import type { Target } from '../targets.js';
import type { WatchFeed, WatchMeta } from './contract.js';
import { feedOf, type FeedSource } from './feed.js';
import { LiveHistory, attachRecorders, fanOut, startHistoryFeed, type RecordableInformers } from './live-history.js';
import { createDeploymentSource } from './deployment-source.js';
import { reconcileFeedSource } from './reconcile.js';
import { clusterScopeText, fileScopeText, scopePredicate, type WatchScope } from './scope.js';
import { createInformers, informerSource, staticSource } from './sources.js';

export interface WatchOptions {
  /** What is read (-f files, or the cluster), and the NAME…, deploy/NAME… arguments. */
  source: SourceOptions & { targets: Target[] };
  model: Pick<ModelOptions, 'now' | 'kubeVersion' | 'featureGates' | 'burstReplicas'>;
  /** --reconcile: run the controller (as `run` does) and show its queue and actions. */
  reconcile?: { workers: number; qps: number; burst: number; force: boolean };
  /** --record FILE: also write every change seen as `record` does (docs/recording-format.md). */
  record?: string;
}

export interface WatchIO {
  stdin?: NodeJS.ReadableStream;
  progress: Progress;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

export type PreparedWatch = WatchFeed & { notices: string[] };

/** Flags that do not go together fail before anything is read. */
function refuseCombinations(o: WatchOptions): void {
  const files = !!o.source.filename?.length;
  if (o.reconcile && files) throw new UserError('--reconcile runs the controller against a cluster: it cannot be combined with -f (a snapshot)');
  if (o.reconcile && o.source.targets.length) throw new UserError('--reconcile controls every controller in scope: choose them with -n/-A and -l, not by name');
  if (o.reconcile && o.model.now !== undefined) throw new UserError('--now cannot be combined with --reconcile: the controller acts at the real time');
  if (o.record !== undefined && files) throw new UserError('--record writes what a live cluster does: it cannot be combined with -f (a snapshot)');
}

/** Reads (or connects), picks the emulated version, and returns the feed; nothing runs yet. */
export async function prepareWatch(o: WatchOptions, io: WatchIO): Promise<PreparedWatch> {
  const clock = io.clock ?? realClock;
  refuseCombinations(o);
  const fixedNow = o.model.now === undefined ? undefined : parseNow(o.model.now, () => clock.now());
  if (o.source.selector !== undefined) scopePredicate({ namespace: null, selector: o.source.selector, targets: [] }); // a bad -l fails now
  return o.source.filename?.length ? prepareSnapshot(o, io, clock, fixedNow) : prepareCluster(o, io, clock, fixedNow);
}

/** -f: one snapshot, planned once at --now (or the time it was read). */
async function prepareSnapshot(o: WatchOptions, io: WatchIO, clock: Clock, fixedNow: number | undefined): Promise<PreparedWatch> {
  const src = o.source;
  const read = await readSnapshot(src, { stdin: io.stdin, progress: io.progress });
  const notices = [...read.notices];
  const behaviour = chooseBehaviour(o.model, null, notices);
  const namespace = src.allNamespaces ? null : (src.namespace ?? null);
  // a snapshot does not change: an unknown name fails now, and a -l that matches nothing is said
  // before the (empty) stream starts, as diff says it
  const controllers = controllersOf(read.snapshot);
  selectControllers({ controllers }, src, src.targets, null, 'file', notices);
  const source: FeedSource = {
    meta: { context: '-', scope: fileScopeText(src.filename ?? [], namespace), mode: 'snapshot' },
    live: false,
    queue: null,
    open: async () => ({ source: staticSource(read.snapshot) }),
    stopped: async () => {},
  };
  const scope: WatchScope = { namespace, selector: src.selector, targets: src.targets };
  return { notices, ...feedOf(source, { behaviour, scope, burstReplicas: o.model.burstReplicas, nowMs: fixedNow ?? clock.now(), clock }) };
}

/** The live cluster: read-only, or with the controller running (--reconcile). */
async function prepareCluster(o: WatchOptions, io: WatchIO, clock: Clock, fixedNow: number | undefined): Promise<PreparedWatch> {
  const src = o.source;
  const notices: string[] = [];
  const { connect } = await import('../../cluster/kubeconfig.js');
  const { getServerVersion } = await import('../../cluster/read.js');
  const conn = connect({ ...src.connection, namespace: src.namespace }, io.env ?? process.env);
  const namespace = src.allNamespaces ? null : conn.namespace;
  const { behaviour } = await resolveBehaviour(o.model, notices, async () => (await getServerVersion(conn)).minor);
  const scope: WatchScope = { namespace, selector: src.selector, targets: src.targets };
  const meta: WatchMeta = { context: conn.contextName || conn.server, scope: clusterScopeText(namespace), mode: o.reconcile ? 'reconcile' : 'read-only' };
  // Opened now: a file that cannot be written fails before the dashboard draws.
  const recording =
    o.record !== undefined
      ? await (await import('../record-service.js')).RecordingSession.open(conn, namespace, o.record, { rulesVersion: behaviour.version })
      : null;
  const plan = { behaviour, scope, burstReplicas: o.model.burstReplicas, clock };
  if (!o.reconcile) return { notices, ...feedOf(readOnlyFeedSource({ conn, namespace, behaviour, recording, clock, meta }), { ...plan, nowMs: fixedNow }) };
  const r = o.reconcile;
  if (!r.force) {
    const { refuseBesideUpstreamController } = await import('../../cluster/upstream-detect.js');
    await refuseBesideUpstreamController(conn, namespace, (w) => notices.push(w));
  }
  const source = reconcileFeedSource({
    conn,
    namespace,
    selector: src.selector,
    burstReplicas: o.model.burstReplicas,
    behaviour,
    workers: r.workers,
    qps: r.qps,
    burst: r.burst,
    recording,
    clock,
    meta,
  });
  return { notices, ...feedOf(source, plan) };
}

/**
 * Informers of its own, run by the feed. The history pane and --record read them (managedFields
 * kept for --record), and one informer of the controllers' Events.
 */
function readOnlyFeedSource(o: {
  conn: Connection;
  namespace: string | null;
  behaviour: Behaviour;
  recording: RecordingSession | null;
  clock: Clock;
  meta: WatchMeta;
}): FeedSource {
  const { conn, namespace, behaviour, recording, clock, meta } = o;
  return {
    meta,
    live: true,
    queue: null,
    stopped: async () => {
      await recording?.close();
    },
    async open(sink, signal) {
      const warn = (text: string) => sink.log({ at: clock.now(), level: 'warn', text });
      const live = sink.history ? new LiveHistory(behaviour, clock, sink.history.bind(sink)) : null;
      const recorders = [...(live ? [live.recorder] : []), ...(recording ? [recording.recorder] : [])];
      const informers = await createInformers(
        conn,
        namespace,
        (e) => warn(`watch: ${oneLine(e)}`),
        undefined,
        (r) => (recorders.length ? { keepManagedFields: recording !== null, onMetric: fanOut(recorders, r as RecordedResource) } : {}),
      );
      if (recorders.length) {
        attachRecorders(recorders, informers as RecordableInformers);
        await startHistoryFeed(conn, namespace, live ? [live] : [], signal, warn, recording?.recorder);
      }
      const deployments = await createDeploymentSource(conn, namespace, (e) => warn(`watch: ${oneLine(e)}`), warn);
      return { source: informerSource(informers, { run: true, deployments }) };
    },
  };
}
