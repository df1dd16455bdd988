// The session: source → (at most every 100 ms) plan → sink. Every informer event marks the
// snapshot dirty; the session re-plans from the caches at most every REPLAN_INTERVAL_MS, and
// slower when planning itself is slow.

import type { Clock } from '../../runtime/clock.js';
import { Throttle } from '../../runtime/throttle.js';
import type { Snapshot } from '../../core/types.js';
import { oneLine } from '../../errors.js';
import type { LogEntry, PlanFrame, WatchNews } from './contract.js';
import type { WatchSource } from './sources.js';

const REPLAN_INTERVAL_MS = 100;
/** The longest the session waits between plans when planning is slow. */
const MAX_REPLAN_INTERVAL_MS = 2000;

export interface SessionOptions {
  source: WatchSource;
  /** Plans a snapshot; `first` is true for the first plan (named controllers must exist then). */
  plan: (snapshot: Snapshot, first: boolean) => PlanFrame;
  clock: Clock;
  intervalMs?: number;
  onFrame: (frame: PlanFrame) => void;
  onLog: (entry: LogEntry) => void;
  onNews: (at: number, news: WatchNews) => void;
}

export class WatchSession {
  /** Plans computed so far. */
  plans = 0;

  /** The current minimum time between plans (grows when planning is slow). */
  get interval(): number {
    return this.throttle.interval;
  }
  private paused = false;
  private readonly throttle: Throttle;
  private started = false;

  constructor(private readonly o: SessionOptions) {
    this.throttle = new Throttle(() => this.replan(), o.intervalMs ?? REPLAN_INTERVAL_MS, o.clock);
  }

  /** Starts the source and plans the first snapshot (errors of that first plan are thrown). */
  async start(signal: AbortSignal): Promise<PlanFrame> {
    signal.addEventListener('abort', () => this.throttle.dispose(), { once: true });
    await this.o.source.start(
      {
        changed: () => {
          if (this.started && !this.paused) this.throttle.request();
        },
        log: (level, text) => this.o.onLog({ at: this.o.clock.now(), level, text }),
        news: (news) => this.o.onNews(this.o.clock.now(), news),
      },
      signal,
    );
    const snapshot = this.o.source.snapshot();
    const first = this.o.plan(snapshot, true);
    this.plans++;
    this.started = true;
    if (!this.o.source.live) {
      const n = first.plan.controllers.length;
      this.o.onLog({
        at: this.o.clock.now(),
        level: 'info',
        text: `snapshot: ${n} controller${n === 1 ? '' : 's'} in scope, ${first.pods} pod${first.pods === 1 ? '' : 's'} (static: no updates)`,
      });
    }
    for (const c of first.plan.controllers) {
      if (c.skip?.reason === 'InvalidSelector')
        this.o.onLog({ at: this.o.clock.now(), level: 'warn', text: `${c.kind} ${c.namespace}/${c.name}: ${c.skip.message}` });
    }
    this.o.onFrame(first);
    return first;
  }

  /** While paused no plan is computed; changes seen meanwhile are planned on resume. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (!paused && this.o.source.live && this.started) this.throttle.request();
  }

  private replan(): void {
    try {
      const t0 = this.o.clock.now();
      const frame = this.o.plan(this.o.source.snapshot(), false);
      this.plans++;
      this.o.onFrame(frame);
      // A plan that takes longer than the interval would keep the process busy planning: leave
      // at least as much time as planning took for keys and rendering (up to 2 s between plans).
      const took = this.o.clock.now() - t0;
      const base = this.o.intervalMs ?? REPLAN_INTERVAL_MS;
      this.throttle.interval = Math.max(base, Math.min(MAX_REPLAN_INTERVAL_MS, 2 * took));
    } catch (err) {
      this.o.onLog({ at: this.o.clock.now(), level: 'error', text: `planning failed: ${oneLine(err)}` });
    }
  }
}
