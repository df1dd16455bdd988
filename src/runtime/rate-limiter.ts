// Requeue delays for the workqueue, after client-go `util/workqueue/default_rate_limiters.go`,
// and the token bucket behind them, after `golang.org/x/time/rate` (`Reserve().Delay()`).
// All durations are milliseconds; time is read from the injected Clock.

import type { Clock } from './clock.js';

export interface RateLimiter<T> {
  /** How long `item` should wait before its next attempt; calling it records one more attempt. */
  when(item: T): number;
  /** The item is done being retried (success or given up): stop tracking it. */
  forget(item: T): void;
  /** How many times `item` has been requeued since it was last forgotten. */
  numRequeues(item: T): number;
}

const DEFAULT_BASE_DELAY_MS = 5;
export const DEFAULT_MAX_DELAY_MS = 1000 * 1000;
const DEFAULT_BUCKET_QPS = 10;
const DEFAULT_BUCKET_BURST = 100;

/**
 * `baseDelay · 2^failures`, capped at `maxDelay`, failures counted per item and bumped on every
 * `when`. Expiry and a maximum number of retries are the caller's business, as upstream.
 */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseDelayMs: number = DEFAULT_BASE_DELAY_MS,
    private readonly maxDelayMs: number = DEFAULT_MAX_DELAY_MS,
  ) {
    if (!(baseDelayMs >= 0) || !(maxDelayMs >= 0)) {
      throw new RangeError(`delays must be >= 0 (base ${baseDelayMs} ms, max ${maxDelayMs} ms)`);
    }
  }

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    // 2^exp overflows to Infinity after ~1023 failures; like upstream's MaxInt64 guard, an
    // unrepresentable backoff is simply the maximum.
    const backoff = this.baseDelayMs * 2 ** exp;
    if (!Number.isFinite(backoff) || backoff > this.maxDelayMs) return this.maxDelayMs;
    return backoff;
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }
}

/**
 * A token bucket refilled at `qps` tokens per second up to `burst`, starting full. `take()`
 * always reserves a token and returns how long to wait for it; the debt is carried, so callers
 * queued behind a reservation wait longer (x/time/rate `Reserve().Delay()`).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly clock: Clock,
    readonly qps: number,
    readonly burst: number,
  ) {
    if (Number.isNaN(qps) || qps <= 0) throw new RangeError(`qps must be > 0 (Infinity for unlimited), got ${qps}`);
    if (qps !== Infinity && (!Number.isInteger(burst) || burst < 1)) {
      throw new RangeError(`burst must be an integer >= 1, got ${burst}`);
    }
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Reserves one token; returns the milliseconds to wait before using it (0 = now). */
  take(): number {
    if (this.qps === Infinity) return 0;
    const now = this.clock.now();
    const tokens = this.available(now) - 1;
    this.tokens = tokens;
    this.last = now;
    return tokens < 0 ? (-tokens * 1000) / this.qps : 0;
  }

  /** Takes a token only if one is available now (x/time/rate `Allow()`). */
  tryTake(): boolean {
    if (this.qps === Infinity) return true;
    const now = this.clock.now();
    const tokens = this.available(now);
    if (tokens < 1) return false;
    this.tokens = tokens - 1;
    this.last = now;
    return true;
  }

  /** Tokens in the bucket right now; negative while reservations are outstanding. */
  tokensAvailable(): number {
    return this.qps === Infinity ? Infinity : this.available(this.clock.now());
  }

  private available(now: number): number {
    // A clock that went backwards refills nothing (x/time/rate clamps `last` the same way).
    const elapsed = Math.max(0, now - this.last);
    return Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
  }
}

/** One bucket shared by every item: an overall retry rate, not a per-item one. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  readonly bucket: TokenBucket;

  constructor(clock: Clock, qps: number = DEFAULT_BUCKET_QPS, burst: number = DEFAULT_BUCKET_BURST) {
    this.bucket = new TokenBucket(clock, qps, burst);
  }

  when(_item: T): number {
    return this.bucket.take();
  }

  numRequeues(_item: T): number {
    return 0;
  }

  forget(_item: T): void {
    // The bucket is shared: forgetting one item does not give tokens back.
  }
}

/**
 * The worst case of several limiters. Every limiter is consulted on each `when` (so each one's
 * per-item count and the bucket both advance), as upstream.
 */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let worst = 0;
    for (const limiter of this.limiters) worst = Math.max(worst, limiter.when(item));
    return worst;
  }

  numRequeues(item: T): number {
    let most = 0;
    for (const limiter of this.limiters) most = Math.max(most, limiter.numRequeues(item));
    return most;
  }

  forget(item: T): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }
}

/** client-go `DefaultControllerRateLimiter`: max(per-item 5 ms·2^n capped at 1000 s, 10 qps / burst 100). */
export function defaultControllerRateLimiter<T>(clock: Clock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS),
    new BucketRateLimiter<T>(clock, DEFAULT_BUCKET_QPS, DEFAULT_BUCKET_BURST),
  );
}
