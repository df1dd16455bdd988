// One feed for every mode: a FeedSource (a snapshot file, the cluster read-only, or the cluster
// with the controller running) opened when the feed starts, and one WatchSession planning it.

import type { Behaviour } from '../../core/versions.js';
import type { Clock } from '../../runtime/clock.js';
import { fanOutSignal } from '../../runtime/signal.js';
import type { QueueInfo, WatchFeed, WatchMeta, WatchSink } from './contract.js';
import { planFrame, type FrameOptions } from './frame.js';
import { liveHistoryDocument } from './live-history.js';
import type { WatchScope } from './scope.js';
import { WatchSession } from './session.js';
import type { WatchSource } from './sources.js';

/** What a started source hands the session: the snapshots, and the controller's expectations in reconcile mode. */
interface OpenedSource extends Pick<FrameOptions, 'expectationsSatisfied' | 'expectationsPending'> {
  source: WatchSource;
}

/** Where a feed's snapshots come from, and what runs beside them until the feed stops. */
export interface FeedSource {
  meta: WatchMeta;
  /** false: one static snapshot; true: a live cluster (plans at the wall clock, a history pane). */
  live: boolean;
  /** Reconcile mode: the workqueues and expectations now. */
  queue: (() => QueueInfo) | null;
  /** Starts what the source needs (informers, the controller, recorders); resolves when the session may start. */
  open(sink: WatchSink, signal: AbortSignal): Promise<OpenedSource>;
  /** Resolves once everything `open` started has stopped. */
  stopped(): Promise<void>;
}

export interface FeedPlanOptions {
  behaviour: Behaviour;
  scope: WatchScope;
  burstReplicas?: number;
  /** The evaluation time of every plan (--now, or a snapshot's read time); absent: each plan's wall clock. */
  nowMs?: number;
  clock: Clock;
}

/** The feed of `source`, planned with `o`; nothing runs until `start`. */
export function feedOf(source: FeedSource, o: FeedPlanOptions): WatchFeed {
  let session: WatchSession | null = null;
  return {
    meta: source.meta,
    live: source.live,
    ...(source.live ? { historyDocument: liveHistoryDocument(o.behaviour) } : {}),
    queue: source.queue,
    setPaused: (p) => session?.setPaused(p),
    stopped: () => source.stopped(),
    async start(sink, stop) {
      const signal = fanOutSignal(stop);
      const opened = await source.open(sink, signal);
      session = new WatchSession({
        source: opened.source,
        clock: o.clock,
        plan: (snapshot, first) =>
          planFrame(snapshot, {
            behaviour: o.behaviour,
            nowMs: o.nowMs ?? o.clock.now(),
            at: o.clock.now(),
            source: source.live ? 'cluster' : 'file',
            burstReplicas: o.burstReplicas,
            scope: o.scope,
            expectationsSatisfied: opened.expectationsSatisfied,
            expectationsPending: opened.expectationsPending,
            strictTargets: first,
          }),
        onFrame: sink.frame,
        onLog: sink.log,
        onNews: sink.news,
      });
      await session.start(signal);
    },
  };
}
