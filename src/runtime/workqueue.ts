// The controller's work queue, after client-go `util/workqueue` (queue.go, delaying_queue.go,
// rate_limiting_queue.go, metrics.go), folded into one class.
//
// The contract, as upstream's package doc states it:
// - fair: items are processed in the order they were added;
// - stingy: an item added many times before it is processed is processed once (dirty set);
// - an item is never handed to two consumers at once (processing set); adding an item that is
//   being processed only marks it dirty, and `done()` re-queues it, once.
// Single-threaded JavaScript makes every method atomic; `get()` hands an item out synchronously
// (it is out of the queue and in the processing set before the promise settles), so waiting
// consumers can never race for it.

import type { Clock, TimerHandle } from './clock.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/**
 * Longest single timer the queue asks for: platform timers overflow past 2^31−1 ms (Node fires
 * them after 1 ms). Longer delays re-arm on expiry; an infinite delay never fires.
 */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export type GetResult<T> = { item: T; shutdown: false } | { shutdown: true };

/** Point-in-time counters (upstream's gauges and counters; latencies arrive as events). */
export interface WorkQueueMetrics {
  /** Items waiting to be processed, including ones re-added while processing (upstream `depth`). */
  depth: number;
  /** Total accepted adds (upstream `adds_total`: each insertion into the dirty set). */
  adds: number;
  /** Total `addAfter`/`addRateLimited` calls accepted (upstream `retries_total`). */
  retries: number;
  /** Items handed out and not yet `done()`. */
  inFlight: number;
  /** Items scheduled by `addAfter` and not yet added. */
  delayed: number;
  /** Sum of the ages of in-flight items (upstream `unfinished_work_seconds`, in ms). */
  unfinishedWorkMs: number;
  /** Age of the oldest in-flight item (upstream `longest_running_processor_seconds`, in ms). */
  longestRunningProcessorMs: number;
}

export type MetricEvent =
  | { type: 'adds'; name: string; item: string; total: number }
  | { type: 'depth'; name: string; depth: number }
  /** Time from the add that made the item dirty to the `get` that handed it out. */
  | { type: 'queue_latency'; name: string; item: string; ms: number }
  /** Time from `get` to `done`. */
  | { type: 'work_duration'; name: string; item: string; ms: number }
  | { type: 'retries'; name: string; item: string; total: number }
  | { type: 'unfinished_work'; name: string; unfinishedWorkMs: number; longestRunningProcessorMs: number };

export interface WorkQueueOptions<T> {
  clock: Clock;
  /** Used by `addRateLimited`; defaults to client-go's default controller rate limiter. */
  rateLimiter?: RateLimiter<T>;
  /** Queue name, carried on metric events (upstream: `replicaset`, `replicationmanager`). */
  name?: string;
  /**
   * Metric sink. It runs inside queue operations: an exception it throws is swallowed so that
   * metrics can never corrupt the queue (upstream metrics cannot fail either).
   */
  onMetric?: (e: MetricEvent) => void;
  /**
   * If > 0 and `onMetric` is set, emit `unfinished_work` every this many ms through the clock
   * until shutdown (upstream polls every 500 ms). Off by default so an idle queue holds no timer;
   * `reportUnfinishedWork()` emits one on demand.
   */
  unfinishedWorkPeriodMs?: number;
}

interface DelayedEntry<T> {
  readonly item: T;
  readyAt: number;
  /** Tie-break among equal ready times: the order in which they were (re)scheduled. */
  seq: number;
  index: number;
}

/** Min-heap on (readyAt, seq) with an index by item, so an entry can be moved earlier in place. */
class DelayHeap<T> {
  private readonly heap: DelayedEntry<T>[] = [];
  private readonly byItem = new Map<T, DelayedEntry<T>>();
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  peek(): DelayedEntry<T> | undefined {
    return this.heap[0];
  }

  /** Schedules `item` at `readyAt`; if it is already scheduled, the earlier time wins. */
  schedule(item: T, readyAt: number): void {
    const existing = this.byItem.get(item);
    if (existing !== undefined) {
      if (readyAt < existing.readyAt) {
        existing.readyAt = readyAt;
        existing.seq = this.seq++;
        this.up(existing.index);
      }
      return;
    }
    const entry: DelayedEntry<T> = { item, readyAt, seq: this.seq++, index: this.heap.length };
    this.heap.push(entry);
    this.byItem.set(item, entry);
    this.up(entry.index);
  }

  pop(): DelayedEntry<T> | undefined {
    const top = this.heap[0];
    if (top === undefined) return undefined;
    const last = this.heap.pop() as DelayedEntry<T>;
    if (last !== top) {
      this.heap[0] = last;
      last.index = 0;
      this.down(0);
    }
    this.byItem.delete(top.item);
    return top;
  }

  clear(): void {
    this.heap.length = 0;
    this.byItem.clear();
  }

  private less(a: DelayedEntry<T>, b: DelayedEntry<T>): boolean {
    return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i];
    const b = this.heap[j];
    this.heap[i] = b;
    this.heap[j] = a;
    a.index = j;
    b.index = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.heap[i], this.heap[parent])) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < n && this.less(this.heap[l], this.heap[min])) min = l;
      if (r < n && this.less(this.heap[r], this.heap[min])) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }
}

/** FIFO with O(1) amortised dequeue. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export class WorkQueue<T extends string> {
  readonly name: string;
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<T>;
  private readonly onMetric: ((e: MetricEvent) => void) | undefined;

  // Every element of `queue` is in `dirty` and not in `processing` (upstream's invariant).
  private readonly queue = new Fifo<T>();
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly getters: ((r: GetResult<T>) => void)[] = [];

  private shutting = false;
  private drain = false;
  private drainWaiters: (() => void)[] = [];

  private readonly delayed = new DelayHeap<T>();
  private delayTimer: TimerHandle = undefined;
  /** Ready time the delay timer is armed for; undefined when no timer is armed. */
  private delayTimerAt: number | undefined;

  private unfinishedTimer: TimerHandle = undefined;
  private unfinishedTimerArmed = false;

  // Metrics bookkeeping, as upstream's defaultQueueMetrics.
  private addsTotal = 0;
  private retriesTotal = 0;
  private readonly addTimes = new Map<T, number>();
  private readonly processingStartTimes = new Map<T, number>();

  constructor(opts: WorkQueueOptions<T>) {
    this.clock = opts.clock;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>(opts.clock);
    this.name = opts.name ?? '';
    this.onMetric = opts.onMetric;
    const period = opts.unfinishedWorkPeriodMs ?? 0;
    if (this.onMetric !== undefined && period > 0) this.startUnfinishedWorkTicker(period);
  }

  /** Marks `item` as needing processing. Ignored after shutdown. */
  add(item: T): void {
    if (this.shutting) return;
    if (this.dirty.has(item)) return;
    this.dirty.add(item);
    this.addsTotal++;
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.clock.now());
    // An item being processed is only marked dirty: `done()` queues it.
    const queued = !this.processing.has(item);
    if (queued) this.queue.push(item);
    this.emit({ type: 'adds', name: this.name, item, total: this.addsTotal });
    this.emit({ type: 'depth', name: this.name, depth: this.dirty.size });
    if (queued) this.dispatch();
  }

  /** Items waiting for their `addAfter` time (a requeue or a backoff not yet due). */
  waiting(): number {
    return this.delayed.size;
  }

  /** Items queued and not handed out (informational only, as upstream's `Len`). */
  len(): number {
    return this.queue.length;
  }

  /**
   * The next item, once one is available. While shutting down, items still queued are handed
   * out; `{ shutdown: true }` comes only when the queue is empty. Pending calls are served in
   * call order. Call `done(item)` when finished with it.
   */
  get(): Promise<GetResult<T>> {
    const item = this.queue.shift();
    if (item !== undefined) return Promise.resolve(this.handOut(item));
    if (this.shutting) return Promise.resolve({ shutdown: true });
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /**
   * Finishes processing `item`; if it was added again meanwhile it is queued again (once).
   * An item that is not being processed is ignored (upstream would queue a dirty item a second
   * time, breaking "at most once in the queue").
   */
  done(item: T): void {
    if (!this.processing.has(item)) return;
    this.processing.delete(item);
    const started = this.processingStartTimes.get(item);
    if (started !== undefined) {
      this.processingStartTimes.delete(item);
      this.emit({ type: 'work_duration', name: this.name, item, ms: this.clock.now() - started });
    }
    if (this.dirty.has(item)) {
      this.queue.push(item);
      this.dispatch();
    }
    if (this.processing.size === 0 && this.drain) this.releaseDrainWaiters();
  }

  /** Adds `item` after `delayMs` (≤ 0: now). If it is already waiting, the earlier time wins. */
  addAfter(item: T, delayMs: number): void {
    if (this.shutting) return;
    this.retriesTotal++;
    this.emit({ type: 'retries', name: this.name, item, total: this.retriesTotal });
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    this.delayed.schedule(item, this.clock.now() + delayMs);
    this.armDelayTimer();
  }

  /** `addAfter(item, rateLimiter.when(item))`. */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Resets the item's rate-limiter history (it stops counting as failing). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * Stops accepting adds and drops delayed items. Pending `get()` calls resolve
   * `{ shutdown: true }`; items already queued are still handed out. Idempotent; also ends a
   * pending `shutDownWithDrain()` wait at once.
   */
  shutDown(): void {
    this.drain = false;
    this.stop();
    this.releaseDrainWaiters();
  }

  /**
   * Like `shutDown`, then waits until every item handed out has been `done()`. Workers must keep
   * calling `done()`; calling `shutDown()` meanwhile ends the wait.
   */
  shutDownWithDrain(): Promise<void> {
    this.drain = true;
    this.stop();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.shutting;
  }

  metrics(): WorkQueueMetrics {
    const { unfinishedWorkMs, longestRunningProcessorMs } = this.unfinishedWork();
    return {
      depth: this.dirty.size,
      adds: this.addsTotal,
      retries: this.retriesTotal,
      inFlight: this.processing.size,
      delayed: this.delayed.size,
      unfinishedWorkMs,
      longestRunningProcessorMs,
    };
  }

  /** Emits an `unfinished_work` event now (for callers that drive their own metrics tick). */
  reportUnfinishedWork(): void {
    this.emit({ type: 'unfinished_work', name: this.name, ...this.unfinishedWork() });
  }

  private handOut(item: T): GetResult<T> {
    this.processing.add(item);
    this.dirty.delete(item);
    const now = this.clock.now();
    this.processingStartTimes.set(item, now);
    this.emit({ type: 'depth', name: this.name, depth: this.dirty.size });
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.addTimes.delete(item);
      this.emit({ type: 'queue_latency', name: this.name, item, ms: now - added });
    }
    return { item, shutdown: false };
  }

  /** Serves waiting `get()` calls, oldest first, while there are items. */
  private dispatch(): void {
    while (this.getters.length > 0 && this.queue.length > 0) {
      const resolve = this.getters.shift() as (r: GetResult<T>) => void;
      resolve(this.handOut(this.queue.shift() as T));
    }
  }

  private stop(): void {
    this.shutting = true;
    // Upstream's waiting loop exits on shutdown: delayed items are never added.
    this.delayed.clear();
    this.disarmDelayTimer();
    if (this.unfinishedTimerArmed) {
      this.clock.clearTimer(this.unfinishedTimer);
      this.unfinishedTimerArmed = false;
    }
    // Getters only wait while the queue is empty, so each of them now sees "empty and shutting".
    const getters = this.getters.splice(0);
    for (const resolve of getters) resolve({ shutdown: true });
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Keeps exactly one timer armed, for the earliest delayed item. */
  private armDelayTimer(): void {
    const head = this.delayed.peek();
    if (head === undefined) {
      this.disarmDelayTimer();
      return;
    }
    if (this.delayTimerAt === head.readyAt) return;
    this.disarmDelayTimer();
    this.delayTimerAt = head.readyAt;
    const wait = Math.min(MAX_TIMER_DELAY_MS, Math.max(0, head.readyAt - this.clock.now()));
    this.delayTimer = this.clock.setTimer(() => this.onDelayTimer(), wait);
  }

  private disarmDelayTimer(): void {
    if (this.delayTimerAt === undefined) return;
    this.clock.clearTimer(this.delayTimer);
    this.delayTimer = undefined;
    this.delayTimerAt = undefined;
  }

  private onDelayTimer(): void {
    this.delayTimer = undefined;
    this.delayTimerAt = undefined;
    if (this.shutting) return;
    const now = this.clock.now();
    for (let head = this.delayed.peek(); head !== undefined && head.readyAt <= now; head = this.delayed.peek()) {
      this.delayed.pop();
      this.add(head.item);
    }
    // A timer that fired early (real clocks may) simply re-arms for the remainder.
    this.armDelayTimer();
  }

  private startUnfinishedWorkTicker(periodMs: number): void {
    const tick = (): void => {
      this.unfinishedTimerArmed = false;
      if (this.shutting) return;
      this.reportUnfinishedWork();
      this.unfinishedTimer = this.clock.setTimer(tick, periodMs);
      this.unfinishedTimerArmed = true;
    };
    this.unfinishedTimer = this.clock.setTimer(tick, periodMs);
    this.unfinishedTimerArmed = true;
  }

  private unfinishedWork(): { unfinishedWorkMs: number; longestRunningProcessorMs: number } {
    const now = this.clock.now();
    let total = 0;
    let oldest = 0;
    for (const started of this.processingStartTimes.values()) {
      const age = now - started;
      total += age;
      if (age > oldest) oldest = age;
    }
    return { unfinishedWorkMs: total, longestRunningProcessorMs: oldest };
  }

  private emit(e: MetricEvent): void {
    if (this.onMetric === undefined) return;
    try {
      this.onMetric(e);
    } catch {
      // Deliberately ignored: see WorkQueueOptions.onMetric.
    }
  }
}
