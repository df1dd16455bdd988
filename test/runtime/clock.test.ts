import { describe, expect, it } from 'vitest';
import { FakeClock, type Clock, type TimerHandle } from '../../src/runtime/clock.js';

describe('FakeClock', () => {
  it('starts at the given time (default 0) and only moves in advance()', () => {
    expect(new FakeClock().now()).toBe(0);
    const c = new FakeClock(1_000);
    expect(c.now()).toBe(1_000);
    c.advance(250);
    expect(c.now()).toBe(1_250);
    c.advance(0);
    expect(c.now()).toBe(1_250);
  });

  it('rejects negative or non-finite steps and starts', () => {
    const c = new FakeClock();
    expect(() => c.advance(-1)).toThrow(RangeError);
    expect(() => c.advance(Number.NaN)).toThrow(RangeError);
    expect(() => c.advance(Infinity)).toThrow(RangeError);
    expect(() => new FakeClock(Number.NaN)).toThrow(RangeError);
  });

  it('fires due timers in time order, each seeing now() at its due time', () => {
    const c = new FakeClock(100);
    const seen: [string, number][] = [];
    c.setTimer(() => seen.push(['c', c.now()]), 30);
    c.setTimer(() => seen.push(['a', c.now()]), 10);
    c.setTimer(() => seen.push(['b', c.now()]), 20);
    c.setTimer(() => seen.push(['late', c.now()]), 100);
    expect(c.pending()).toBe(4);
    c.advance(25);
    expect(seen).toEqual([
      ['a', 110],
      ['b', 120],
    ]);
    expect(c.now()).toBe(125);
    c.advance(5);
    expect(seen.at(-1)).toEqual(['c', 130]);
    expect(c.pending()).toBe(1);
    expect(c.nextDueAt()).toBe(200);
  });

  it('breaks ties in scheduling order', () => {
    const c = new FakeClock();
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) c.setTimer(() => seen.push(i), 10);
    c.advance(10);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('fires timers scheduled by callbacks when they fall due within the same step', () => {
    const c = new FakeClock();
    const seen: [string, number][] = [];
    c.setTimer(() => {
      seen.push(['first', c.now()]);
      c.setTimer(() => seen.push(['chained', c.now()]), 5);
      c.setTimer(() => seen.push(['zero', c.now()]), 0);
      c.setTimer(() => seen.push(['beyond', c.now()]), 100);
    }, 10);
    c.advance(20);
    expect(seen).toEqual([
      ['first', 10],
      ['zero', 10],
      ['chained', 15],
    ]);
    expect(c.pending()).toBe(1);
    c.advance(90);
    expect(seen.at(-1)).toEqual(['beyond', 110]);
  });

  it('treats zero, negative and NaN delays as due now (fired by advance(0))', () => {
    const c = new FakeClock(5);
    const seen: number[] = [];
    c.setTimer(() => seen.push(1), 0);
    c.setTimer(() => seen.push(2), -10);
    c.setTimer(() => seen.push(3), Number.NaN);
    expect(seen).toEqual([]);
    c.advance(0);
    expect(seen).toEqual([1, 2, 3]);
    expect(c.now()).toBe(5);
  });

  it('clearTimer cancels, also from a callback firing earlier in the same step; unknown handles are ignored', () => {
    const c = new FakeClock();
    const seen: string[] = [];
    const later = c.setTimer(() => seen.push('later'), 20);
    c.setTimer(() => {
      seen.push('early');
      c.clearTimer(later);
    }, 10);
    const cleared = c.setTimer(() => seen.push('cleared'), 5);
    c.clearTimer(cleared);
    c.clearTimer(cleared);
    c.clearTimer(undefined);
    c.clearTimer({ id: 'x' });
    c.clearTimer(42);
    c.advance(50);
    expect(seen).toEqual(['early']);
    expect(c.pending()).toBe(0);
    expect(c.nextDueAt()).toBeUndefined();
  });

  it('a throwing callback propagates and leaves now() at its due time', () => {
    const c = new FakeClock();
    c.setTimer(() => {
      throw new Error('boom');
    }, 10);
    const seen: number[] = [];
    c.setTimer(() => seen.push(c.now()), 20);
    expect(() => c.advance(30)).toThrow('boom');
    expect(c.now()).toBe(10);
    c.advance(20);
    expect(seen).toEqual([20]);
  });

  it('the Clock interface is trivially implementable over Date.now/setTimeout', () => {
    // Type-level check only: the real clock lives outside core.
    const real: Clock = {
      now: () => Date.now(),
      setTimer: (fn, ms): TimerHandle => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    const h = real.setTimer(() => undefined, 1_000_000);
    real.clearTimer(h);
    expect(typeof real.now()).toBe('number');
  });
});

describe('FakeClock guard', () => {
  it('reports a zero-delay timer loop instead of hanging', () => {
    const c = new FakeClock();
    let fired = 0;
    const rearm = (): void => {
      fired++;
      c.setTimer(rearm, 0);
    };
    c.setTimer(rearm, 10);
    expect(() => c.advance(20)).toThrow(/re-arming itself/);
    expect(fired).toBe(FakeClock.MAX_TIMERS_PER_INSTANT);
    expect(c.now()).toBe(10);
  });

  it('many timers at distinct instants are fine', () => {
    const c = new FakeClock();
    let fired = 0;
    const step = (): void => {
      fired++;
      if (fired < 200_000) c.setTimer(step, 1);
    };
    c.setTimer(step, 1);
    c.advance(300_000);
    expect(fired).toBe(200_000);
  });
});
