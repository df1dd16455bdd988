import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import {
  BucketRateLimiter,
  DEFAULT_MAX_DELAY_MS,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  TokenBucket,
  defaultControllerRateLimiter,
  type RateLimiter,
} from '../../src/runtime/rate-limiter.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Upstream's ItemFastSlowRateLimiter, for the MaxOf test (as in default_rate_limiters_test.go). */
class FastSlow implements RateLimiter<string> {
  private readonly failures = new Map<string, number>();
  constructor(
    private readonly fast: number,
    private readonly slow: number,
    private readonly maxFast: number,
  ) {}
  when(item: string): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFast ? this.fast : this.slow;
  }
  numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
  forget(item: string): void {
    this.failures.delete(item);
  }
}

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles per failure, per item, and forget resets (TestItemExponentialFailureRateLimiter)', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(1, 1 * SECOND);
    expect([1, 2, 3, 4, 5].map(() => l.when('one'))).toEqual([1, 2, 4, 8, 16]);
    expect(l.numRequeues('one')).toBe(5);
    expect([l.when('two'), l.when('two')]).toEqual([1, 2]);
    expect(l.numRequeues('two')).toBe(2);
    l.forget('one');
    expect(l.numRequeues('one')).toBe(0);
    expect(l.when('one')).toBe(1);
    expect(l.numRequeues('two')).toBe(2);
  });

  it('caps at the maximum and never overflows (TestItemExponentialFailureRateLimiterOverFlow)', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(1, 1000 * SECOND);
    for (let i = 0; i < 5; i++) l.when('one');
    expect(l.when('one')).toBe(32);
    for (let i = 0; i < 1000; i++) l.when('overflow1');
    expect(l.when('overflow1')).toBe(1000 * SECOND);

    const l2 = new ItemExponentialFailureRateLimiter<string>(1 * MINUTE, 1000 * HOUR);
    for (let i = 0; i < 2; i++) l2.when('two');
    expect(l2.when('two')).toBe(4 * MINUTE);
    for (let i = 0; i < 1000; i++) l2.when('overflow2');
    expect(l2.when('overflow2')).toBe(1000 * HOUR);
    // Far past 2^1023 the arithmetic is Infinity; the answer must still be the cap.
    for (let i = 0; i < 2000; i++) expect(Number.isFinite(l2.when('overflow3'))).toBe(true);
    expect(l2.when('overflow3')).toBe(1000 * HOUR);
  });

  it('defaults to 5 ms doubling up to 1000 s', () => {
    const l = new ItemExponentialFailureRateLimiter<string>();
    const delays = Array.from({ length: 20 }, () => l.when('k'));
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(delays[17]).toBe(5 * 2 ** 17); // 655.36 s, the last uncapped step
    expect(delays[18]).toBe(DEFAULT_MAX_DELAY_MS);
    expect(delays[19]).toBe(DEFAULT_MAX_DELAY_MS);
  });

  it('rejects negative delays', () => {
    expect(() => new ItemExponentialFailureRateLimiter<string>(-1, 10)).toThrow(RangeError);
    expect(() => new ItemExponentialFailureRateLimiter<string>(1, Number.NaN)).toThrow(RangeError);
  });
});

describe('TokenBucket', () => {
  it('starts full: burst tokens are free, then one every 1/qps, the debt carried forward', () => {
    const clock = new FakeClock(1_000);
    const b = new TokenBucket(clock, 10, 3);
    expect([b.take(), b.take(), b.take()]).toEqual([0, 0, 0]);
    expect(b.take()).toBeCloseTo(100, 9);
    expect(b.take()).toBeCloseTo(200, 9);
    expect(b.tokensAvailable()).toBeCloseTo(-2, 9);
    clock.advance(100);
    // One token refilled, still one owed: the next reservation waits 200 ms.
    expect(b.take()).toBeCloseTo(200, 9);
  });

  it('refills at qps and never beyond burst', () => {
    const clock = new FakeClock();
    const b = new TokenBucket(clock, 2, 5);
    for (let i = 0; i < 5; i++) expect(b.take()).toBe(0);
    clock.advance(1_000);
    expect(b.tokensAvailable()).toBeCloseTo(2, 9);
    clock.advance(HOUR);
    expect(b.tokensAvailable()).toBe(5);
    for (let i = 0; i < 5; i++) expect(b.take()).toBe(0);
    expect(b.take()).toBeCloseTo(500, 9);
  });

  it('tryTake takes only an available token and reserves nothing otherwise', () => {
    const clock = new FakeClock();
    const b = new TokenBucket(clock, 1, 1);
    expect(b.tryTake()).toBe(true);
    expect(b.tryTake()).toBe(false);
    expect(b.tokensAvailable()).toBeCloseTo(0, 9);
    clock.advance(999);
    expect(b.tryTake()).toBe(false);
    clock.advance(1);
    expect(b.tryTake()).toBe(true);
  });

  it('a clock going backwards refills nothing', () => {
    let now = 10_000;
    const clock = { now: () => now, setTimer: () => 0, clearTimer: () => undefined };
    const b = new TokenBucket(clock, 10, 1);
    expect(b.take()).toBe(0);
    now = 5_000;
    expect(b.take()).toBeCloseTo(100, 9);
  });

  it('Infinity qps is unlimited', () => {
    const b = new TokenBucket(new FakeClock(), Infinity, 0);
    for (let i = 0; i < 1000; i++) expect(b.take()).toBe(0);
    expect(b.tryTake()).toBe(true);
    expect(b.tokensAvailable()).toBe(Infinity);
  });

  it('validates qps and burst', () => {
    const c = new FakeClock();
    expect(() => new TokenBucket(c, 0, 1)).toThrow(RangeError);
    expect(() => new TokenBucket(c, -5, 1)).toThrow(RangeError);
    expect(() => new TokenBucket(c, Number.NaN, 1)).toThrow(RangeError);
    expect(() => new TokenBucket(c, 5, 0)).toThrow(RangeError);
    expect(() => new TokenBucket(c, 5, 1.5)).toThrow(RangeError);
  });
});

describe('BucketRateLimiter', () => {
  it('shares one bucket across items and tracks no per-item state', () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter<string>(clock, 10, 2);
    expect([l.when('a'), l.when('b')]).toEqual([0, 0]);
    expect(l.when('c')).toBeCloseTo(100, 9);
    expect(l.numRequeues('a')).toBe(0);
    l.forget('a');
    expect(l.when('a')).toBeCloseTo(200, 9);
  });
});

describe('MaxOfRateLimiter', () => {
  it('returns the worst case and forwards forget/numRequeues (TestMaxOfRateLimiter)', () => {
    const l = new MaxOfRateLimiter<string>(new FastSlow(5, 3 * SECOND, 3), new ItemExponentialFailureRateLimiter<string>(1, 1 * SECOND));
    expect([1, 2, 3, 4, 5].map(() => l.when('one'))).toEqual([5, 5, 5, 3 * SECOND, 3 * SECOND]);
    expect(l.numRequeues('one')).toBe(5);
    expect([l.when('two'), l.when('two')]).toEqual([5, 5]);
    expect(l.numRequeues('two')).toBe(2);
    l.forget('one');
    expect(l.numRequeues('one')).toBe(0);
    expect(l.when('one')).toBe(5);
  });

  it('consults every limiter on each when(), even when an earlier one already dominates', () => {
    const a = new ItemExponentialFailureRateLimiter<string>(1000, 1000);
    const b = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    const l = new MaxOfRateLimiter(a, b);
    l.when('x');
    l.when('x');
    expect(b.numRequeues('x')).toBe(2);
  });

  it('with no limiters is zero', () => {
    const l = new MaxOfRateLimiter<string>();
    expect(l.when('x')).toBe(0);
    expect(l.numRequeues('x')).toBe(0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is max(per-item 5 ms·2^n, shared 10 qps / burst 100)', () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter<string>(clock);
    // One failing key: the exponential dominates while the bucket still has tokens.
    expect([1, 2, 3, 4].map(() => l.when('hot'))).toEqual([5, 10, 20, 40]);
    expect(l.numRequeues('hot')).toBe(4);
    // 96 more first failures drain the bucket (100 tokens in all) at the per-item base.
    for (let i = 0; i < 96; i++) expect(l.when(`k${i}`)).toBe(5);
    // The 101st retry overall waits for the bucket, whatever its own backoff.
    expect(l.when('fresh')).toBeCloseTo(100, 9);
    expect(l.when('fresh2')).toBeCloseTo(200, 9);
    l.forget('hot');
    expect(l.numRequeues('hot')).toBe(0);
    // Forget resets the item's backoff but returns no tokens.
    expect(l.when('hot')).toBeCloseTo(300, 9);
    clock.advance(10 * SECOND);
    expect(l.when('hot')).toBe(10);
  });
});
