import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { Throttle } from '../../src/runtime/throttle.js';

describe('Throttle (fake clock)', () => {
  it('100 requests in 1 s run the work at most 10 times in any second, and the last request is never lost', () => {
    const clock = new FakeClock(0);
    const runs: number[] = [];
    let value = 0;
    let seen = -1;
    const t = new Throttle(
      () => {
        runs.push(clock.now());
        seen = value;
      },
      100,
      clock,
    );
    for (let i = 0; i < 100; i++) {
      value = i;
      t.request();
      clock.advance(10);
    }
    clock.advance(200);
    for (const start of runs) expect(runs.filter((r) => r >= start && r < start + 1000).length).toBeLessThanOrEqual(10);
    expect(runs.filter((r) => r < 1000).length).toBeLessThanOrEqual(10);
    expect(runs.length).toBeGreaterThanOrEqual(9);
    expect(seen).toBe(99);
    for (let i = 1; i < runs.length; i++) expect(runs[i] - runs[i - 1]).toBeGreaterThanOrEqual(100);
  });

  it('runs at once after a quiet interval (leading edge)', () => {
    const clock = new FakeClock(5000);
    let n = 0;
    const t = new Throttle(() => n++, 100, clock);
    t.request();
    expect(n).toBe(1);
    clock.advance(500);
    t.request();
    expect(n).toBe(2);
  });

  it('folds a burst into one trailing run', () => {
    const clock = new FakeClock(0);
    let n = 0;
    const t = new Throttle(() => n++, 100, clock);
    t.request(); // leading
    for (let i = 0; i < 50; i++) t.request();
    expect(n).toBe(1);
    expect(t.pending).toBe(true);
    clock.advance(99);
    expect(n).toBe(1);
    clock.advance(1);
    expect(n).toBe(2);
    expect(t.pending).toBe(false);
    clock.advance(1000);
    expect(n).toBe(2);
  });

  it('flush runs pending work now; dispose drops it', () => {
    const clock = new FakeClock(0);
    let n = 0;
    const t = new Throttle(() => n++, 100, clock);
    t.request();
    t.request();
    t.flush();
    expect(n).toBe(2);
    t.flush();
    expect(n).toBe(2);
    t.request();
    t.dispose();
    clock.advance(1000);
    t.request();
    expect(n).toBe(2);
    expect(clock.pending()).toBe(0);
  });
});
