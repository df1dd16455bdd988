import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { ItemExponentialFailureRateLimiter, type RateLimiter } from '../../src/runtime/rate-limiter.js';
import { WorkQueue, type GetResult, type MetricEvent } from '../../src/runtime/workqueue.js';

type Key = string;

/** Lets every settled promise run its callbacks (no timers, no real waiting). */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A get() whose outcome can be inspected synchronously after a flush. */
function track<T>(p: Promise<GetResult<T>>): { result: GetResult<T> | undefined } {
  const box: { result: GetResult<T> | undefined } = { result: undefined };
  void p.then((r) => {
    box.result = r;
  });
  return box;
}

function newQueue(extra: Partial<ConstructorParameters<typeof WorkQueue<Key>>[0]> = {}) {
  const clock = new FakeClock(1_000_000);
  const events: MetricEvent[] = [];
  const q = new WorkQueue<Key>({ clock, name: 'test', onMetric: (e) => events.push(e), ...extra });
  return { clock, q, events };
}

async function getItem(q: WorkQueue<Key>): Promise<Key> {
  const r = await q.get();
  if (r.shutdown) throw new Error('unexpected shutdown');
  return r.item;
}

/** Takes everything currently queued, without marking it done. */
async function takeAll(q: WorkQueue<Key>): Promise<Key[]> {
  const out: Key[] = [];
  while (q.len() > 0) out.push(await getItem(q));
  return out;
}

describe('WorkQueue: fair and stingy', () => {
  it('hands items out first in, first out', async () => {
    const { q } = newQueue();
    for (const k of ['a', 'b', 'c', 'd']) q.add(k);
    expect(q.len()).toBe(4);
    expect(await takeAll(q)).toEqual(['a', 'b', 'c', 'd']);
    expect(q.len()).toBe(0);
  });

  it('an item added many times before it is processed is processed once, keeping its first place', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    q.add('c');
    q.add('a');
    q.add('b');
    expect(q.len()).toBe(3);
    expect(await takeAll(q)).toEqual(['a', 'b', 'c']);
  });

  it('get() takes the item out synchronously, before the promise settles', () => {
    const { q } = newQueue();
    q.add('a');
    const p = q.get();
    expect(q.len()).toBe(0);
    expect(q.metrics().inFlight).toBe(1);
    return expect(p).resolves.toEqual({ item: 'a', shutdown: false });
  });

  it('get() waits for an item, and pending get() calls are served in call order', async () => {
    const { q } = newQueue();
    const g1 = track(q.get());
    const g2 = track(q.get());
    const g3 = track(q.get());
    await flush();
    expect([g1.result, g2.result, g3.result]).toEqual([undefined, undefined, undefined]);
    q.add('x');
    q.add('y');
    await flush();
    expect(g1.result).toEqual({ item: 'x', shutdown: false });
    expect(g2.result).toEqual({ item: 'y', shutdown: false });
    expect(g3.result).toBeUndefined();
    expect(q.len()).toBe(0);
    q.add('z');
    await flush();
    expect(g3.result).toEqual({ item: 'z', shutdown: false });
  });

  it('a new get() does not overtake an earlier waiting one', async () => {
    const { q } = newQueue();
    const early = track(q.get());
    q.add('x');
    const late = track(q.get());
    q.add('y');
    await flush();
    expect(early.result).toEqual({ item: 'x', shutdown: false });
    expect(late.result).toEqual({ item: 'y', shutdown: false });
  });

  it('len() counts only queued items (not in-flight ones)', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    await getItem(q);
    expect(q.len()).toBe(1);
  });
});

describe('WorkQueue: processing set', () => {
  it('never hands an item being processed to a second consumer', async () => {
    const { q } = newQueue();
    q.add('a');
    expect(await getItem(q)).toBe('a');
    q.add('a');
    expect(q.len()).toBe(0); // dirty, not queued
    const second = track(q.get());
    await flush();
    expect(second.result).toBeUndefined();
    q.done('a');
    await flush();
    expect(second.result).toEqual({ item: 'a', shutdown: false });
  });

  it('adding an in-flight item many times re-queues it exactly once on done()', async () => {
    const { q } = newQueue();
    q.add('a');
    await getItem(q);
    for (let i = 0; i < 5; i++) q.add('a');
    q.add('b');
    expect(q.len()).toBe(1);
    q.done('a');
    expect(q.len()).toBe(2);
    expect(await takeAll(q)).toEqual(['b', 'a']); // it goes to the back, behind b
  });

  it('done() of a clean item does not re-queue it, and it can be added again later', async () => {
    const { q } = newQueue();
    q.add('a');
    await getItem(q);
    q.done('a');
    expect(q.len()).toBe(0);
    q.add('a');
    expect(await getItem(q)).toBe('a');
  });

  it('done() of an item not being processed (unknown, twice, or still queued) is ignored', async () => {
    const { q } = newQueue();
    q.done('ghost');
    q.add('a');
    q.done('a'); // queued, not handed out: must not be queued a second time
    expect(q.len()).toBe(1);
    await getItem(q);
    q.add('a');
    q.done('a');
    q.done('a');
    expect(q.len()).toBe(1);
    expect(await takeAll(q)).toEqual(['a']);
    expect(q.len()).toBe(0);
  });

  it('different items are processed concurrently', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    const [x, y] = await Promise.all([getItem(q), getItem(q)]);
    expect([x, y]).toEqual(['a', 'b']);
    expect(q.metrics().inFlight).toBe(2);
  });

  it('many workers over many events: a key is never in flight twice, and every add is followed by a sync', async () => {
    const { q } = newQueue();
    const inFlight = new Set<Key>();
    const lastAdd = new Map<Key, number>();
    const lastSyncStart = new Map<Key, number>();
    let syncs = 0;
    let tick = 0;
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const worker = async (): Promise<void> => {
      for (;;) {
        const r = await q.get();
        if (r.shutdown) return;
        expect(inFlight.has(r.item)).toBe(false);
        inFlight.add(r.item);
        lastSyncStart.set(r.item, tick++);
        syncs++;
        await flush(); // the "sync" takes a while; events keep arriving meanwhile
        inFlight.delete(r.item);
        q.done(r.item);
      }
    };
    const workers = Array.from({ length: 3 }, () => worker());
    for (let round = 0; round < 60; round++) {
      const k = keys[(round * 7) % keys.length];
      q.add(k);
      lastAdd.set(k, tick++);
      if (round % 10 === 9) await flush();
    }
    while (q.len() > 0 || inFlight.size > 0) await flush();
    q.shutDown();
    await Promise.all(workers);
    for (const k of keys) expect(lastSyncStart.get(k) ?? -1).toBeGreaterThan(lastAdd.get(k) ?? Infinity);
    expect(syncs).toBeLessThan(60); // collapsed: events during a sync cost one more sync, not one each
  });
});

describe('WorkQueue: shutdown', () => {
  it('shutDown(): waiting get() calls resolve {shutdown:true}; later adds are ignored', async () => {
    const { q } = newQueue();
    const g1 = track(q.get());
    const g2 = track(q.get());
    expect(q.shuttingDown()).toBe(false);
    q.shutDown();
    expect(q.shuttingDown()).toBe(true);
    await flush();
    expect(g1.result).toEqual({ shutdown: true });
    expect(g2.result).toEqual({ shutdown: true });
    q.add('late');
    expect(q.len()).toBe(0);
    expect(await q.get()).toEqual({ shutdown: true });
    q.shutDown(); // idempotent
    expect(await q.get()).toEqual({ shutdown: true });
  });

  it('items already queued are still handed out; shutdown is reported once the queue is empty', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    expect(await q.get()).toEqual({ item: 'a', shutdown: false });
    expect(await q.get()).toEqual({ item: 'b', shutdown: false });
    expect(await q.get()).toEqual({ shutdown: true });
  });

  it('done() after shutdown still re-queues an item that was dirtied before it (as upstream)', async () => {
    const { q } = newQueue();
    q.add('a');
    await getItem(q);
    q.add('a');
    q.shutDown();
    expect(await q.get()).toEqual({ shutdown: true });
    q.done('a');
    expect(await q.get()).toEqual({ item: 'a', shutdown: false });
  });

  it('shutDownWithDrain() waits until every handed-out item is done, and stops adds meanwhile', async () => {
    const { q } = newQueue();
    q.add('a');
    q.add('b');
    await getItem(q);
    await getItem(q);
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    expect(q.shuttingDown()).toBe(true);
    q.add('c');
    expect(q.len()).toBe(0);
    q.done('a');
    await flush();
    expect(drained).toBe(false);
    q.done('b');
    await drain;
    expect(drained).toBe(true);
    expect(await q.get()).toEqual({ shutdown: true });
  });

  it('shutDownWithDrain() resolves at once when nothing is in flight, and resolves waiting get() calls', async () => {
    const { q } = newQueue();
    const g = track(q.get());
    await q.shutDownWithDrain();
    await flush();
    expect(g.result).toEqual({ shutdown: true });
  });

  it('shutDownWithDrain(): an item dirtied in flight is re-queued by done() and still handed out', async () => {
    const { q } = newQueue();
    q.add('a');
    await getItem(q);
    q.add('a');
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    // A worker still draining calls get() again and finds the re-queued item.
    const next = track(q.get());
    await flush();
    expect(next.result).toEqual({ shutdown: true }); // queue empty at that point: a dirty item is not queued
    q.done('a'); // a is queued again; nothing in flight
    await drain;
    expect(drained).toBe(true);
    expect(await q.get()).toEqual({ item: 'a', shutdown: false });
  });

  it('shutDown() ends a pending drain at once (forced shutdown), for every waiter', async () => {
    const { q } = newQueue();
    q.add('a');
    await getItem(q);
    let count = 0;
    const d1 = q.shutDownWithDrain().then(() => count++);
    const d2 = q.shutDownWithDrain().then(() => count++);
    await flush();
    expect(count).toBe(0);
    q.shutDown();
    await Promise.all([d1, d2]);
    expect(count).toBe(2);
  });

  it('shutdown drops delayed items and releases every timer', async () => {
    const { q, clock } = newQueue({ unfinishedWorkPeriodMs: 500 });
    q.addAfter('a', 100);
    q.addAfter('b', 200);
    expect(clock.pending()).toBe(2); // one delay timer + the metrics ticker
    q.shutDown();
    expect(clock.pending()).toBe(0);
    q.addAfter('c', 10);
    q.addAfter('d', 0);
    q.addRateLimited('e');
    expect(clock.pending()).toBe(0);
    clock.advance(1_000);
    expect(q.len()).toBe(0);
    expect(q.metrics().delayed).toBe(0);
  });

  it('shutDownWithDrain also drops delayed items', async () => {
    const { q, clock } = newQueue();
    q.addAfter('a', 100);
    await q.shutDownWithDrain();
    clock.advance(1_000);
    expect(q.len()).toBe(0);
    expect(clock.pending()).toBe(0);
  });
});

describe('WorkQueue: addAfter (delaying queue)', () => {
  it('adds the item once the delay has elapsed on the clock (TestSimpleQueue)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('foo', 50);
    expect(q.len()).toBe(0);
    clock.advance(49);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.len()).toBe(1);
    expect(await getItem(q)).toBe('foo');
    q.done('foo');
    clock.advance(1_000);
    expect(q.len()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('non-positive delays add at once', () => {
    const { q, clock } = newQueue();
    q.addAfter('zero', 0);
    q.addAfter('neg', -5);
    expect(q.len()).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('dedups a waiting item: a later time is ignored (TestDeduping)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('foo', 50);
    q.addAfter('foo', 70);
    expect(q.metrics().delayed).toBe(1);
    clock.advance(60);
    expect(q.len()).toBe(1);
    q.done(await getItem(q));
    clock.advance(20);
    expect(q.len()).toBe(0);
  });

  it('dedups a waiting item: an earlier time wins (TestDeduping)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('foo', 70);
    q.addAfter('foo', 50);
    clock.advance(50);
    expect(q.len()).toBe(1);
    q.done(await getItem(q));
    clock.advance(100);
    expect(q.len()).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('fires a later-scheduled earlier item first (TestAddTwoFireEarly)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('foo', 1_000);
    q.addAfter('bar', 50);
    clock.advance(60);
    expect(await takeAll(q)).toEqual(['bar']);
    q.addAfter('foo', 10);
    clock.advance(10);
    expect(await takeAll(q)).toEqual(['foo']);
    clock.advance(2_000);
    expect(q.len()).toBe(0);
  });

  it('adds in ready-time order whatever the scheduling order (TestCopyShifting)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('foo', 3_000);
    q.addAfter('bar', 2_000);
    q.addAfter('baz', 1_000);
    clock.advance(3_000);
    expect(await takeAll(q)).toEqual(['baz', 'bar', 'foo']);
  });

  it('equal ready times are added in scheduling order', async () => {
    const { q, clock } = newQueue();
    for (const k of ['c', 'a', 'b']) q.addAfter(k, 100);
    clock.advance(100);
    expect(await takeAll(q)).toEqual(['c', 'a', 'b']);
  });

  it('keeps a single timer armed, for the earliest item', () => {
    const { q, clock } = newQueue();
    for (let i = 0; i < 50; i++) q.addAfter(`k${i}`, 1_000 - i);
    expect(clock.pending()).toBe(1);
    expect(clock.nextDueAt()).toBe(clock.now() + 951);
    clock.advance(951);
    expect(q.len()).toBe(1);
    expect(clock.pending()).toBe(1);
    clock.advance(49);
    expect(q.len()).toBe(50);
    expect(clock.pending()).toBe(0);
  });

  it('delays beyond what a platform timer holds are re-armed; an infinite delay never fires', () => {
    const { q, clock } = newQueue();
    const thirtyDays = 30 * 24 * 3600 * 1000;
    q.addAfter('far', thirtyDays);
    q.addAfter('never', Infinity);
    expect(clock.nextDueAt()).toBe(clock.now() + 2 ** 31 - 1);
    clock.advance(thirtyDays - 1);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.len()).toBe(1);
    clock.advance(10 * thirtyDays);
    expect(q.len()).toBe(1);
    expect(q.metrics().delayed).toBe(1);
    expect(clock.pending()).toBe(1);
  });

  it('a delayed add wakes a waiting get()', async () => {
    const { q, clock } = newQueue();
    const g = track(q.get());
    q.addAfter('a', 10);
    await flush();
    expect(g.result).toBeUndefined();
    clock.advance(10);
    await flush();
    expect(g.result).toEqual({ item: 'a', shutdown: false });
  });

  it('a delayed add of an item that is already queued is deduplicated when it fires', async () => {
    const { q, clock } = newQueue();
    q.add('a');
    q.addAfter('a', 10);
    clock.advance(10);
    expect(q.len()).toBe(1);
    expect(await takeAll(q)).toEqual(['a']);
  });

  it('a delayed add still fires after the item was processed in between (upstream keeps waiting entries)', async () => {
    const { q, clock } = newQueue();
    q.addAfter('a', 10);
    q.add('a');
    q.done(await getItem(q));
    clock.advance(10);
    expect(await takeAll(q)).toEqual(['a']);
  });

  it('a delayed add of an in-flight item marks it dirty: re-queued on done()', async () => {
    const { q, clock } = newQueue();
    q.add('a');
    await getItem(q);
    q.addAfter('a', 10);
    clock.advance(10);
    expect(q.len()).toBe(0);
    q.done('a');
    expect(await takeAll(q)).toEqual(['a']);
  });

  it('re-arms correctly if a real timer fires early', async () => {
    // A clock whose timers fire 1 ms early, as real timers sometimes do.
    let now = 0;
    const timers: { due: number; fn: () => void }[] = [];
    const clock = {
      now: () => now,
      setTimer: (fn: () => void, ms: number) => {
        const t = { due: now + ms - 1, fn };
        timers.push(t);
        return t;
      },
      clearTimer: (h: unknown) => {
        const i = timers.indexOf(h as (typeof timers)[number]);
        if (i >= 0) timers.splice(i, 1);
      },
    };
    const q = new WorkQueue<Key>({ clock });
    q.addAfter('a', 10);
    now = 9;
    const t = timers.shift();
    t?.fn();
    expect(q.len()).toBe(0);
    expect(timers).toHaveLength(1);
    now = 10;
    timers.shift()?.fn();
    expect(await takeAll(q)).toEqual(['a']);
  });
});

describe('WorkQueue: rate limiting', () => {
  it('addRateLimited waits for limiter.when(); forget and numRequeues go to the limiter (TestRateLimitingQueue)', async () => {
    const { q, clock } = newQueue({ rateLimiter: new ItemExponentialFailureRateLimiter<Key>(1, 1_000) });
    const t0 = clock.now();
    q.addRateLimited('one');
    expect(clock.nextDueAt()).toBe(t0 + 1);
    clock.advance(1);
    q.done(await getItem(q));
    q.addRateLimited('one');
    expect(clock.nextDueAt()).toBe(t0 + 1 + 2);
    expect(q.numRequeues('one')).toBe(2);
    q.addRateLimited('two');
    q.addRateLimited('two'); // still waiting at +1: the later +2 does not replace it
    expect(q.numRequeues('two')).toBe(2);
    clock.advance(2);
    expect(await takeAll(q)).toEqual(['two', 'one']);
    q.forget('one');
    expect(q.numRequeues('one')).toBe(0);
    expect(q.numRequeues('two')).toBe(2);
    const t1 = clock.now();
    q.addRateLimited('one');
    expect(clock.nextDueAt()).toBe(t1 + 1);
  });

  it('passes exactly the limiter delay to addAfter', () => {
    const calls: Key[] = [];
    const limiter: RateLimiter<Key> = {
      when: (item) => {
        calls.push(item);
        return item === 'now' ? 0 : 250;
      },
      forget: () => undefined,
      numRequeues: () => 7,
    };
    const { q, clock } = newQueue({ rateLimiter: limiter });
    q.addRateLimited('now');
    q.addRateLimited('later');
    expect(calls).toEqual(['now', 'later']);
    expect(q.len()).toBe(1);
    clock.advance(249);
    expect(q.len()).toBe(1);
    clock.advance(1);
    expect(q.len()).toBe(2);
    expect(q.numRequeues('x')).toBe(7);
  });

  it('defaults to the controller rate limiter (5 ms, doubling, per item)', () => {
    const { q, clock } = newQueue();
    const t0 = clock.now();
    q.addRateLimited('k');
    expect(clock.nextDueAt()).toBe(t0 + 5);
    clock.advance(5);
    q.addRateLimited('k'); // dirty already; schedules nonetheless (it counts as a failure)
    expect(clock.nextDueAt()).toBe(t0 + 5 + 10);
    expect(q.numRequeues('k')).toBe(2);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
  });
});

describe('WorkQueue: metrics', () => {
  const of = <K extends MetricEvent['type']>(events: MetricEvent[], type: K) => events.filter((e): e is Extract<MetricEvent, { type: K }> => e.type === type);

  it('follows upstream TestMetrics: adds, depth, latency, work duration, unfinished work', async () => {
    const { q, clock, events } = newQueue();
    q.add('foo');
    expect(q.metrics()).toMatchObject({ adds: 1, depth: 1 });
    clock.advance(50);
    const i = await getItem(q);
    expect(of(events, 'queue_latency')).toEqual([{ type: 'queue_latency', name: 'test', item: 'foo', ms: 50 }]);
    expect(q.metrics().depth).toBe(0);
    // Re-added while processing; repeated adds are de-duplicated.
    for (let n = 0; n < 5; n++) q.add(i);
    expect(q.metrics()).toMatchObject({ adds: 2, depth: 1 });
    clock.advance(25);
    q.done(i);
    expect(of(events, 'work_duration')).toEqual([{ type: 'work_duration', name: 'test', item: 'foo', ms: 25 }]);
    expect(q.metrics().depth).toBe(1);
    await getItem(q);
    // Latency of the second round runs from the re-add (while processing) to this get.
    expect(of(events, 'queue_latency').map((e) => e.ms)).toEqual([50, 25]);
    expect(q.metrics().depth).toBe(0);
    clock.advance(1);
    expect(q.metrics()).toMatchObject({ unfinishedWorkMs: 1, longestRunningProcessorMs: 1, inFlight: 1 });
    expect(of(events, 'adds').map((e) => e.total)).toEqual([1, 2]);
    expect(of(events, 'depth').map((e) => e.depth)).toEqual([1, 0, 1, 0]);
  });

  it('latency runs from the first of several deduplicated adds', async () => {
    const { q, clock, events } = newQueue();
    q.add('a');
    clock.advance(30);
    q.add('a');
    clock.advance(20);
    await getItem(q);
    expect(of(events, 'queue_latency').map((e) => e.ms)).toEqual([50]);
  });

  it('counts retries on every accepted addAfter/addRateLimited, including immediate ones', () => {
    const { q, events } = newQueue();
    q.addAfter('a', 0);
    q.addAfter('a', 100);
    q.addRateLimited('b');
    expect(q.metrics().retries).toBe(3);
    expect(of(events, 'retries').map((e) => [e.item, e.total])).toEqual([
      ['a', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect(q.metrics().delayed).toBe(2);
    q.shutDown();
    q.addAfter('c', 10);
    expect(q.metrics().retries).toBe(3);
  });

  it('sums unfinished work over in-flight items and reports the longest one', async () => {
    const { q, clock, events } = newQueue();
    q.add('a');
    q.add('b');
    await getItem(q);
    clock.advance(100);
    await getItem(q);
    clock.advance(50);
    q.reportUnfinishedWork();
    expect(of(events, 'unfinished_work')).toEqual([{ type: 'unfinished_work', name: 'test', unfinishedWorkMs: 200, longestRunningProcessorMs: 150 }]);
    q.done('a');
    q.done('b');
    expect(q.metrics()).toMatchObject({ unfinishedWorkMs: 0, longestRunningProcessorMs: 0, inFlight: 0 });
  });

  it('optionally emits unfinished work on a clock-driven tick until shutdown', async () => {
    const { q, clock, events } = newQueue({ unfinishedWorkPeriodMs: 500 });
    q.add('a');
    await getItem(q);
    clock.advance(1_200);
    expect(of(events, 'unfinished_work').map((e) => e.unfinishedWorkMs)).toEqual([500, 1_000]);
    q.shutDown();
    clock.advance(5_000);
    expect(of(events, 'unfinished_work')).toHaveLength(2);
    expect(clock.pending()).toBe(0);
  });

  it('no ticker without a metric sink', () => {
    const clock = new FakeClock();
    const q = new WorkQueue<Key>({ clock, unfinishedWorkPeriodMs: 500 });
    expect(clock.pending()).toBe(0);
    q.add('a');
    expect(q.name).toBe('');
  });

  it('a throwing metric sink cannot break the queue', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<Key>({
      clock,
      onMetric: () => {
        throw new Error('sink down');
      },
    });
    const g = track(q.get());
    q.add('a');
    await flush();
    expect(g.result).toEqual({ item: 'a', shutdown: false });
    q.add('a');
    q.done('a');
    expect(q.len()).toBe(1);
    q.addAfter('b', 5);
    clock.advance(5);
    expect(q.len()).toBe(2);
  });
});
