// The state container between the sources (plans, logs, keys) and ink: actions are reduced at
// once, but subscribers (the React tree) are told through a Throttle, so however fast plans,
// log lines and keys arrive, the screen is redrawn at most once per interval (100 ms: ~10
// renders a second) with the newest state.

import type { Clock } from '../runtime/clock.js';
import { reduce, type Action, type WatchState } from './state.js';
import { Throttle } from '../runtime/throttle.js';

const RENDER_INTERVAL_MS = 100;

export class WatchStore {
  private state: WatchState;
  private published: WatchState;
  private readonly listeners = new Set<() => void>();
  private readonly throttle: Throttle;
  /** How many times subscribers were told (each one is at most one React render). */
  publishes = 0;

  constructor(initial: WatchState, clock: Clock, intervalMs = RENDER_INTERVAL_MS) {
    this.state = initial;
    this.published = initial;
    this.throttle = new Throttle(() => this.publish(), intervalMs, clock);
  }

  dispatch(action: Action): void {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    this.throttle.request();
  }

  /** The newest state (may not be on screen yet). */
  getState(): WatchState {
    return this.state;
  }

  /** The state on screen: what React renders (stable between publishes). */
  getSnapshot = (): WatchState => this.published;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Publishes a pending change now. */
  flush(): void {
    this.throttle.flush();
  }

  dispose(): void {
    this.throttle.dispose();
    this.listeners.clear();
  }

  private publish(): void {
    if (this.published === this.state) return;
    this.published = this.state;
    this.publishes++;
    for (const l of [...this.listeners]) l();
  }
}
