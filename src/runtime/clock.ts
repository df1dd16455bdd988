// The clocks behind core's Clock interface (core never reads time itself): the runtime's, below
// everything that waits or stamps (cluster, controller, services, ui).
import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from '../core/clock.js';

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
