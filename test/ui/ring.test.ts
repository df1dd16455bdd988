import { describe, expect, it } from 'vitest';
import { RingBuffer } from '../../src/ui/ring.js';

describe('RingBuffer', () => {
  it('keeps the newest N items, oldest first', () => {
    const r = new RingBuffer<number>(3);
    expect(r.toArray()).toEqual([]);
    r.push(1);
    r.push(2);
    expect(r.toArray()).toEqual([1, 2]);
    r.push(3);
    r.push(4);
    r.push(5);
    expect(r.size).toBe(3);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.last(2)).toEqual([4, 5]);
    expect(r.last(10)).toEqual([3, 4, 5]);
    expect(r.last(0)).toEqual([]);
  });

  it('stays at its capacity however much is pushed', () => {
    const r = new RingBuffer<string>(100);
    for (let i = 0; i < 100_000; i++) r.push(`line ${i}`);
    expect(r.size).toBe(100);
    expect(r.last(1)).toEqual(['line 99999']);
    expect(r.toArray()[0]).toBe('line 99900');
  });

  it('clears, and refuses a capacity that is not a positive integer', () => {
    const r = new RingBuffer<number>(2);
    r.push(1);
    r.clear();
    expect(r.size).toBe(0);
    r.push(7);
    expect(r.toArray()).toEqual([7]);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});
