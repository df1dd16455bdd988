// The history pane: the informers' changes read as `history --recording` reads a recording, and
// the controllers' Events that name who created or deleted a pod. The same recorders feed
// `watch --record`'s file.

import type { InformerMetric } from '../../cluster/informer.js';
import type { Connection } from '../../cluster/kubeconfig.js';
import { CONTROLLER_KINDS } from '../../core/controller.js';
import { entryKey } from '../../core/plan-compare.js';
import type { Behaviour } from '../../core/versions.js';
import { oneLine } from '../../errors.js';
import { RecordingConverter, RS_RECONCILE_USER, type RecordedResource, type RecordingLine } from '../../history/recording.js';
import { HistoryReplay } from '../../history/replay.js';
import type { Clock } from '../../runtime/clock.js';
import { EVENT_RESOURCE, Recorder, eventsUnreadable, type RecordableInformer } from '../record-service.js';
import type { HistoryRow, WatchFeed } from './contract.js';

/** Informers by resource, as the recorders attach to them. */
export type RecordableInformers = Record<string, RecordableInformer> & { pods: RecordableInformer };
/**
 * Changes in (as recording lines), the writes they stand for replayed (src/history/replay.ts),
 * every event about a controller or its pods out, as a HistoryRow for that controller. Memory:
 * the replay's state (the objects that exist), no events: the UI keeps the last few per controller.
 */
export class LiveHistory {
  readonly recorder: Recorder;
  private readonly converter = new RecordingConverter();
  private readonly replay: HistoryReplay;

  constructor(
    behaviour: Behaviour,
    private readonly clock: Clock,
    private readonly emit: (key: string, row: HistoryRow) => void,
  ) {
    this.replay = new HistoryReplay({ behaviour, controllerUsers: [RS_RECONCILE_USER] });
    this.recorder = new Recorder({ now: () => clock.now(), write: (l) => this.push(l) });
  }

  push(line: RecordingLine): void {
    this.deliver(this.converter.push(line));
  }

  /** A create or delete that waited for its controller's Event in vain goes, though no new change comes. */
  tick(): void {
    this.deliver(this.converter.tick(new Date(this.clock.now()).toISOString()));
  }

  private deliver(writes: ReturnType<RecordingConverter['push']>): void {
    for (const { write, stateOnly } of writes) {
      const events = this.replay.push(write);
      if (stateOnly) continue;
      for (const e of events) {
        if (!e.controller) continue;
        const row: HistoryRow = {
          at: Date.parse(e.time),
          who: e.actor.user,
          controller: e.actor.controller,
          verb: e.verb,
          pod: e.pod,
          reason: e.reason,
          predicted: e.predicted,
          message: e.message,
          event: e,
        };
        this.emit(entryKey(e.controller), row);
      }
    }
  }
}

/** The history contract's document of a live session's writes, read as `history --recording` reads one. */
export function liveHistoryDocument(behaviour: Behaviour): NonNullable<WatchFeed['historyDocument']> {
  const replay = new HistoryReplay({ behaviour, controllerUsers: [RS_RECONCILE_USER] });
  return (events, missing) => replay.history('recording', events, { format: 'recording', truncated: 0, duplicates: 0, missing });
}

/** Every recorder hears an informer's relists. */
export function fanOut(recorders: Recorder[], resource: RecordedResource): (m: InformerMetric) => void {
  const each = recorders.map((r) => r.metric(resource));
  return (m) => {
    for (const f of each) f(m);
  };
}

export function attachRecorders(recorders: Recorder[], informers: RecordableInformers): void {
  for (const rec of recorders) {
    rec.attach('pods', informers.pods);
    for (const k of CONTROLLER_KINDS) {
      const inf = informers[k.resource];
      if (inf) rec.attach(k.resource as RecordedResource, inf);
    }
  }
}

/** How often a live history lets go what waited for an Event in vain (the window itself is 30 s of changes' time). */
const HISTORY_TICK_MS = 5000;

/**
 * The controllers' Events (the evidence of who created or deleted a pod) for the live histories
 * and the --record file, and the live histories' tick; a refusal of Events only warns.
 */
export async function startHistoryFeed(
  conn: Connection,
  namespace: string | null,
  lives: LiveHistory[],
  signal: AbortSignal,
  warn: (text: string) => void,
  file?: Recorder,
): Promise<void> {
  const { Informer } = await import('../../cluster/informer.js');
  const recorders = [...lives.map((l) => l.recorder), ...(file ? [file] : [])];
  const stop = new AbortController();
  signal.addEventListener('abort', () => stop.abort(), { once: true });
  const events = new Informer({
    conn,
    resource: EVENT_RESOURCE,
    namespace,
    onMetric: fanOut(recorders, 'events'),
    onError: (e) => {
      if (events.hasSynced()) return warn(`events: ${oneLine(e)}`);
      warn(eventsUnreadable(e));
      stop.abort();
    },
  });
  for (const rec of recorders) rec.attach('events', events);
  void events.run(stop.signal);
  if (lives.length) {
    const timer = setInterval(() => {
      for (const l of lives) l.tick();
    }, HISTORY_TICK_MS);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }
}
