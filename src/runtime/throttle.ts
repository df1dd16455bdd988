// Coalescing throttle: any number of requests inside one interval run the work once. The first
// request after a quiet interval runs at once (leading edge, so a key press shows immediately);
// requests that arrive sooner are folded into one run at the end of the interval (trailing edge,
// so the last change is never lost). With a 100 ms interval the work runs at most 10 times in
// any second. Time comes from a Clock, so tests drive it with core's FakeClock.

import type { Clock, TimerHandle } from './clock.js';

export class Throttle {
  private lastRun = -Infinity;
  private timer: TimerHandle | null = null;
  private dirty = false;
  private disposed = false;

  constructor(
    private readonly work: () => void,
    private intervalMs: number,
    private readonly clock: Clock,
  ) {
    if (!(intervalMs >= 0)) throw new RangeError(`throttle interval must be >= 0, got ${intervalMs}`);
  }

  get interval(): number {
    return this.intervalMs;
  }

  /** Changes the interval from the next request on (e.g. to back off when the work is slow). */
  set interval(ms: number) {
    if (!(ms >= 0)) throw new RangeError(`throttle interval must be >= 0, got ${ms}`);
    this.intervalMs = ms;
  }

  /** Asks for a run; it happens now, or once at the end of the current interval. */
  request(): void {
    if (this.disposed) return;
    this.dirty = true;
    if (this.timer !== null) return;
    const wait = this.lastRun + this.intervalMs - this.clock.now();
    if (wait <= 0) this.run();
    else this.timer = this.clock.setTimer(() => this.run(), wait);
  }

  /** Runs the pending work now, if any (the interval restarts from here). */
  flush(): void {
    if (this.timer !== null) {
      this.clock.clearTimer(this.timer);
      this.timer = null;
    }
    this.run();
  }

  get pending(): boolean {
    return this.dirty;
  }

  /** Drops pending work and ignores later requests. */
  dispose(): void {
    this.disposed = true;
    this.dirty = false;
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  private run(): void {
    this.timer = null;
    if (!this.dirty || this.disposed) return;
    this.dirty = false;
    this.lastRun = this.clock.now();
    this.work();
  }
}
