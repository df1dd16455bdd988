// watch --reconcile: the controller runs (as `run` runs it, from run-service's startControllers)
// and the dashboard plans from its informers, samples its workqueues and expectations, and shows
// its actions as it reports them (values, worded by the dashboard with src/render/watch-log.ts).

import type { Connection } from '../../cluster/kubeconfig.js';
import { CONTROLLER_KINDS, controllerKindInfo, type ControllerKindInfo } from '../../core/controller.js';
import type { ControllerKind } from '../../core/types.js';
import type { Behaviour } from '../../core/versions.js';
import type { ControllerLogger } from '../../controller/controller.js';
import { oneLine } from '../../errors.js';
import type { Clock } from '../../runtime/clock.js';
import type { RecordingSession } from '../record-service.js';
import type { ControllersHandle } from '../run-service.js';
import type { LogEntry, LogLevel, PendingExpectation, QueueInfo, WatchMeta } from './contract.js';
import { LiveHistory, attachRecorders, startHistoryFeed, type RecordableInformers } from './live-history.js';
import type { FeedSource } from './feed.js';
import { createDeploymentSource } from './deployment-source.js';
import { informerSource } from './sources.js';

/** The part of ReplicaSetController the dashboard samples. */
export interface ControllerLike {
  readonly kind: ControllerKind;
  /** Its registry entry (default: the one CONTROLLER_KINDS has for kind). */
  readonly info?: Pick<ControllerKindInfo, 'queueName'>;
  queue: { metrics(): { depth: number; inFlight: number; retries: number; adds: number } };
  expectations: { pending(): { key: string; add: number; del: number; ageMs: number }[] };
}

export function queueInfo(controllers: readonly ControllerLike[]): QueueInfo {
  const queues = controllers.map((c) => {
    const m = c.queue.metrics();
    return { name: (c.info ?? controllerKindInfo(c.kind)).queueName, depth: m.depth, inFlight: m.inFlight, retries: m.retries, adds: m.adds };
  });
  const expectations: PendingExpectation[] = [];
  for (const c of controllers)
    for (const e of c.expectations.pending()) expectations.push({ kind: c.kind, key: e.key, add: e.add, del: e.del, ageMs: e.ageMs });
  expectations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { queues, expectations };
}

/** The creates and deletes still expected for a key, over the controllers whose expectations hold it back. */
export function expectationsPendingBy(
  controllers: readonly {
    expectations: { satisfiedExpectations(key: string): boolean; getExpectations(key: string): { add: number; del: number } | undefined };
  }[],
): (key: string) => { add: number; del: number } {
  return (key) => {
    let add = 0;
    let del = 0;
    for (const c of controllers) {
      if (c.expectations.satisfiedExpectations(key)) continue;
      const r = c.expectations.getExpectations(key);
      add += Math.max(0, r?.add ?? 0);
      del += Math.max(0, r?.del ?? 0);
    }
    return { add, del };
  };
}

/** Expectations satisfied for a key in every controller (keys are ns/name, as upstream's). */
export function expectationsSatisfiedBy(controllers: readonly { expectations: { satisfiedExpectations(key: string): boolean } }[]): (key: string) => boolean {
  return (key) => controllers.every((c) => c.expectations.satisfiedExpectations(key));
}

/** The controller's log, into the dashboard's log pane (klog -v 0: info and errors only). */
export function uiLogger(push: (level: LogLevel, text: string) => void): ControllerLogger {
  const fields = (f?: Record<string, unknown>) =>
    f && Object.keys(f).length
      ? ' ' +
        Object.entries(f)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' ')
      : '';
  const quiet = { info: () => {} };
  const info = (msg: string, f?: Record<string, unknown>) => push('info', msg + fields(f));
  return {
    info,
    error: (msg, f) => push('error', msg + fields(f)),
    v: (level) => (level <= 0 ? { info } : quiet),
  };
}

export interface ReconcileFeedOptions {
  conn: Connection;
  namespace: string | null;
  selector?: string;
  burstReplicas?: number;
  behaviour: Behaviour;
  workers: number;
  qps: number;
  burst: number;
  /** --record: opened already (a file that cannot be written fails before the dashboard draws). */
  recording: RecordingSession | null;
  clock: Clock;
  meta: WatchMeta;
}

/** A recording's read errors, as warnings in the log pane. */
function recordErrors(sink: { log(e: LogEntry): void }, clock: Clock) {
  return (e: Error, resource: string, listed: boolean) =>
    sink.log({
      at: clock.now(),
      level: 'warn',
      text: resource === 'events' && !listed ? `record: ${oneLine(e)} (who deleted a pod will show as <unknown user>)` : `record: ${oneLine(e)}`,
    });
}

/** The controller running, its informers the snapshot; its actions come in through onAction only. */
export function reconcileFeedSource(o: ReconcileFeedOptions): FeedSource {
  let handle: ControllersHandle | null = null;
  return {
    meta: o.meta,
    live: true,
    queue: () => (handle ? queueInfo(handle.controllers) : { queues: [], expectations: [] }),
    stopped: async () => {
      await handle?.done;
      await o.recording?.close();
    },
    async open(sink, signal) {
      const push = (level: LogLevel, text: string) => sink.log({ at: o.clock.now(), level, text });
      // The controller's informers drop managedFields (memory): the recording lists and watches on its own.
      if (o.recording) await o.recording.start({ core: signal, events: signal }, recordErrors(sink, o.clock));
      // loaded when the feed starts: read-only and snapshot watches never load the controller
      const { startControllers } = await import('../run-service.js');
      const h = startControllers(
        {
          conn: o.conn,
          namespace: o.namespace,
          selector: o.selector,
          kinds: CONTROLLER_KINDS.map((k) => k.kind),
          workers: o.workers,
          burstReplicas: o.burstReplicas ?? 500,
          behaviour: o.behaviour,
          qps: o.qps,
          burst: o.burst,
          log: uiLogger(push),
          onAction: (kind, key, outcome) => sink.news(o.clock.now(), { type: 'action', kind, key, outcome }),
        },
        signal,
      );
      handle = h;
      if (sink.history) {
        const live = new LiveHistory(o.behaviour, o.clock, sink.history.bind(sink));
        attachRecorders([live.recorder], h.informers as RecordableInformers);
        await startHistoryFeed(o.conn, o.namespace, [live], signal, (text) => push('warn', text));
      }
      const deployments = await createDeploymentSource(
        o.conn,
        o.namespace,
        (e) => push('warn', `watch: ${oneLine(e)}`),
        (text) => push('warn', text),
      );
      return {
        source: informerSource(h.informers, { run: false, controllerStatus: false, deployments }),
        expectationsSatisfied: expectationsSatisfiedBy(h.controllers),
        expectationsPending: expectationsPendingBy(h.controllers),
      };
    },
  };
}
