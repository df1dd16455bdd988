// Time as an injected dependency. The runtime machinery (workqueue, rate limiter, expectations,
// leader election, logs) reads a `Clock`, so it runs under a `FakeClock` in tests and under the
// wall clock or the monotonic clock in production. The rules in `src/core` read no clock: they
// are given `now`.
import { performance } from 'node:perf_hooks';

/** An opaque timer token: whatever `setTimer` returned, handed back to `clearTimer`. */
export type TimerHandle = { readonly id: number } | unknown;

export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Runs `fn` once, `ms` milliseconds from now (a non-positive `ms` means "as soon as possible"). */
  setTimer(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer that has not fired yet; unknown or already fired handles are ignored. */
  clearTimer(h: TimerHandle): void;
}

interface FakeTimer {
  readonly id: number;
  readonly dueAt: number;
  readonly fn: () => void;
}

/**
 * A manual clock. Time only moves in `advance`, which fires every timer that falls due on the way,
 * earliest first (ties in scheduling order), each with `now()` set to its due time — including
 * timers that fired callbacks schedule, when they fall due before the end of the step.
 */
export class FakeClock implements Clock {
  /** Guard against a callback that re-arms itself at zero delay forever (a hang in a test). */
  static readonly MAX_TIMERS_PER_INSTANT = 100_000;

  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();

  constructor(startMs = 0) {
    if (!Number.isFinite(startMs)) throw new RangeError(`FakeClock start must be finite, got ${startMs}`);
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    const timer: FakeTimer = { id: this.nextId++, dueAt: this.current + delay, fn };
    this.timers.set(timer.id, timer);
    return { id: timer.id };
  }

  clearTimer(h: TimerHandle): void {
    const id = fakeTimerId(h);
    if (id !== undefined) this.timers.delete(id);
  }

  /**
   * Moves time forward by `ms`, firing due timers in time order. A callback that throws stops
   * the step there: the error propagates and `now()` stays at that timer's due time. More than
   * MAX_TIMERS_PER_INSTANT timers firing at one instant is reported as an error, not a hang.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`FakeClock.advance needs a finite ms >= 0, got ${ms}`);
    const target = this.current + ms;
    let firedAtInstant = 0;
    for (let next = this.nextDue(target); next !== undefined; next = this.nextDue(target)) {
      firedAtInstant = next.dueAt === this.current ? firedAtInstant + 1 : 1;
      if (firedAtInstant > FakeClock.MAX_TIMERS_PER_INSTANT) {
        throw new Error(`FakeClock: over ${FakeClock.MAX_TIMERS_PER_INSTANT} timers fired at t=${this.current}; a timer keeps re-arming itself with no delay`);
      }
      this.timers.delete(next.id);
      this.current = next.dueAt;
      next.fn();
    }
    this.current = target;
  }

  /** Number of timers scheduled and not yet fired or cleared. */
  pending(): number {
    return this.timers.size;
  }

  /** Due time of the earliest pending timer, if any (handy for "run until idle" loops). */
  nextDueAt(): number | undefined {
    return this.nextDue(Infinity)?.dueAt;
  }

  private nextDue(limit: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.dueAt > limit) continue;
      if (best === undefined || t.dueAt < best.dueAt || (t.dueAt === best.dueAt && t.id < best.id)) best = t;
    }
    return best;
  }
}

function fakeTimerId(h: TimerHandle): number | undefined {
  if (typeof h !== 'object' || h === null || !('id' in h)) return undefined;
  const id = (h as { id: unknown }).id;
  return typeof id === 'number' ? id : undefined;
}

// ---- the production clocks
const setTimer = (fn: () => void, ms: number): TimerHandle => setTimeout(fn, Math.max(0, ms));
const clearTimer = (h: TimerHandle) => clearTimeout(h as NodeJS.Timeout);

/** Wall time (Date.now): for stamps that leave the process. */
export const realClock: Clock = { now: () => Date.now(), setTimer, clearTimer };

/**
 * Monotonic time on the epoch scale (performance.timeOrigin + performance.now()): never steps
 * with NTP or a changed system clock, and read afresh at each call (not the event loop's cached
 * time), so a process resumed after SIGSTOP sees the time it was stopped at once, before any
 * timer has fired. For durations and deadlines (leader election, the write fence).
 */
export const monotonicClock: Clock = { now: () => performance.timeOrigin + performance.now(), setTimer, clearTimer };
