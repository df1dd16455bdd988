// The wall clock behind core's Clock interface (core never reads time itself).
import type { Clock, TimerHandle } from '../core/clock.js';

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn: () => void, ms: number): TimerHandle => setTimeout(fn, Math.max(0, ms)),
  clearTimer: (h: TimerHandle) => clearTimeout(h as NodeJS.Timeout),
};
