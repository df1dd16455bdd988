// Model-based property tests: random sequences of queue operations are run against the real
// WorkQueue (on a FakeClock) and against a deliberately naive reference model of client-go's
// semantics; after every step the two must agree and the queue's invariants must hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { ItemExponentialFailureRateLimiter } from '../../src/runtime/rate-limiter.js';
import { WorkQueue, type GetResult } from '../../src/runtime/workqueue.js';

type Key = 'a' | 'b' | 'c' | 'd';
const KEYS: Key[] = ['a', 'b', 'c', 'd'];
const BASE_MS = 3;
const MAX_MS = 40;

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Model {
  now: number;
  queue: Key[];
  dirty: Set<Key>;
  processing: Set<Key>;
  /** Ids of get() calls still waiting, oldest first. */
  waitingGets: number[];
  nextGetId: number;
  delayed: Map<Key, { readyAt: number; seq: number }>;
  seq: number;
  failures: Map<Key, number>;
  shutting: boolean;
  /** What each get() call (by id) received, in the order they were answered. */
  delivered: Delivery[];
  adds: number;
  retries: number;
}

type Delivery = { get: number; result: GetResult<Key> };

interface Real {
  clock: FakeClock;
  q: WorkQueue<Key>;
  nextGetId: number;
  delivered: Delivery[];
  held: Set<Key>;
  violations: string[];
}

// ---- the reference model: plain arrays and sets, no cleverness -----------------------------

function modelAdd(m: Model, k: Key): void {
  if (m.shutting || m.dirty.has(k)) return;
  m.dirty.add(k);
  m.adds++;
  if (m.processing.has(k)) return;
  m.queue.push(k);
  modelDispatch(m);
}

function modelHandOut(m: Model): Key {
  const k = m.queue.shift() as Key;
  m.processing.add(k);
  m.dirty.delete(k);
  return k;
}

function modelDispatch(m: Model): void {
  while (m.waitingGets.length > 0 && m.queue.length > 0) {
    const get = m.waitingGets.shift() as number;
    m.delivered.push({ get, result: { item: modelHandOut(m), shutdown: false } });
  }
}

function modelGet(m: Model): void {
  const get = m.nextGetId++;
  if (m.queue.length > 0) m.delivered.push({ get, result: { item: modelHandOut(m), shutdown: false } });
  else if (m.shutting) m.delivered.push({ get, result: { shutdown: true } });
  else m.waitingGets.push(get);
}

function modelDone(m: Model, k: Key): void {
  if (!m.processing.has(k)) return;
  m.processing.delete(k);
  if (m.dirty.has(k)) {
    m.queue.push(k);
    modelDispatch(m);
  }
}

function modelAddAfter(m: Model, k: Key, d: number): void {
  if (m.shutting) return;
  m.retries++;
  if (d <= 0) return modelAdd(m, k);
  const readyAt = m.now + d;
  const existing = m.delayed.get(k);
  if (existing === undefined) m.delayed.set(k, { readyAt, seq: m.seq++ });
  else if (readyAt < existing.readyAt) m.delayed.set(k, { readyAt, seq: m.seq++ });
}

function modelAdvance(m: Model, ms: number): void {
  const target = m.now + ms;
  for (;;) {
    const due = [...m.delayed.entries()].filter(([, e]) => e.readyAt <= target).sort(([, x], [, y]) => x.readyAt - y.readyAt || x.seq - y.seq);
    if (due.length === 0) break;
    const [k, e] = due[0];
    m.now = e.readyAt;
    m.delayed.delete(k);
    modelAdd(m, k);
  }
  m.now = target;
}

function modelRateLimitedDelay(m: Model, k: Key): number {
  const n = m.failures.get(k) ?? 0;
  m.failures.set(k, n + 1);
  return Math.min(BASE_MS * 2 ** n, MAX_MS);
}

function modelShutDown(m: Model): void {
  m.shutting = true;
  m.delayed.clear();
  for (const get of m.waitingGets.splice(0)) m.delivered.push({ get, result: { shutdown: true } });
}

// ---- the real system ----------------------------------------------------------------------

function realGet(r: Real): void {
  const get = r.nextGetId++;
  void r.q.get().then((res) => {
    r.delivered.push({ get, result: res });
    if (res.shutdown) return;
    if (r.held.has(res.item)) r.violations.push(`${res.item} handed out while already in flight`);
    r.held.add(res.item);
  });
}

function realDone(r: Real, k: Key): void {
  r.held.delete(k);
  r.q.done(k);
}

function assertAgree(m: Model, r: Real): void {
  expect(r.violations).toEqual([]);
  expect(r.delivered).toEqual(m.delivered);
  expect(r.clock.now()).toBe(m.now);
  expect(r.q.len()).toBe(m.queue.length);
  expect(r.q.shuttingDown()).toBe(m.shutting);
  expect([...r.held].sort()).toEqual([...m.processing].sort());
  expect(r.q.metrics()).toMatchObject({
    depth: m.dirty.size,
    inFlight: m.processing.size,
    delayed: m.delayed.size,
    adds: m.adds,
    retries: m.retries,
  });
  for (const k of KEYS) expect(r.q.numRequeues(k)).toBe(m.failures.get(k) ?? 0);
  // Exactly one timer while anything is delayed, for the earliest ready time.
  const earliest = Math.min(...[...m.delayed.values()].map((e) => e.readyAt));
  expect(r.clock.pending()).toBe(m.delayed.size > 0 ? 1 : 0);
  expect(r.clock.nextDueAt()).toBe(m.delayed.size > 0 ? earliest : undefined);
  // The model's own structural invariants (upstream's comment on `queue`).
  expect(new Set(m.queue).size).toBe(m.queue.length);
  for (const k of m.queue) {
    expect(m.dirty.has(k)).toBe(true);
    expect(m.processing.has(k)).toBe(false);
  }
  // Someone waits only while there is nothing to hand out.
  if (m.waitingGets.length > 0) expect(m.queue.length).toBe(0);
}

type Cmd = fc.AsyncCommand<Model, Real>;

function command(name: string, check: (m: Readonly<Model>) => boolean, apply: (m: Model, r: Real) => void): Cmd {
  return {
    check,
    async run(m, r) {
      apply(m, r);
      await flush();
      assertAgree(m, r);
    },
    toString: () => name,
  };
}

const key = fc.constantFrom<Key>(...KEYS);
const delay = fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 0 }), fc.integer({ min: 1, max: 60 }));

const commandArbs = [
  key.map((k) =>
    command(
      `add(${k})`,
      () => true,
      (m, r) => (modelAdd(m, k), r.q.add(k)),
    ),
  ),
  fc.constant(
    command(
      'get()',
      () => true,
      (m, r) => (modelGet(m), realGet(r)),
    ),
  ),
  fc.nat(7).map((i) =>
    command(
      `done(#${i})`,
      (m) => m.processing.size > 0,
      (m, r) => {
        const inFlight = [...m.processing].sort();
        const k = inFlight[i % inFlight.length];
        modelDone(m, k);
        realDone(r, k);
      },
    ),
  ),
  key.map((k) =>
    command(
      `strayDone(${k})`,
      (m) => !m.processing.has(k),
      (m, r) => (modelDone(m, k), r.q.done(k)),
    ),
  ),
  fc.tuple(key, delay).map(([k, d]) =>
    command(
      `addAfter(${k}, ${d})`,
      () => true,
      (m, r) => (modelAddAfter(m, k, d), r.q.addAfter(k, d)),
    ),
  ),
  key.map((k) =>
    command(
      `addRateLimited(${k})`,
      () => true,
      (m, r) => {
        modelAddAfter(m, k, modelRateLimitedDelay(m, k));
        r.q.addRateLimited(k);
      },
    ),
  ),
  key.map((k) =>
    command(
      `forget(${k})`,
      () => true,
      (m, r) => (m.failures.delete(k), r.q.forget(k)),
    ),
  ),
  fc.integer({ min: 0, max: 50 }).map((ms) =>
    command(
      `advance(${ms})`,
      () => true,
      (m, r) => (modelAdvance(m, ms), r.clock.advance(ms)),
    ),
  ),
];

const shutDownCmd = command(
  'shutDown()',
  () => true,
  (m, r) => (modelShutDown(m), r.q.shutDown()),
);

function setup(): { model: Model; real: Real } {
  const clock = new FakeClock(0);
  return {
    model: {
      now: 0,
      queue: [],
      dirty: new Set(),
      processing: new Set(),
      waitingGets: [],
      nextGetId: 0,
      delayed: new Map(),
      seq: 0,
      failures: new Map(),
      shutting: false,
      delivered: [],
      adds: 0,
      retries: 0,
    },
    real: {
      clock,
      q: new WorkQueue<Key>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter<Key>(BASE_MS, MAX_MS) }),
      nextGetId: 0,
      delivered: [],
      held: new Set(),
      violations: [],
    },
  };
}

describe('WorkQueue model-based', () => {
  it('agrees with the reference model on random add/get/done/addAfter/addRateLimited/forget/advance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs, { maxCommands: 60 }), (cmds) => fc.asyncModelRun(setup, cmds)),
      { numRuns: 300 },
    );
  });

  it('agrees with the model across a shutdown', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs, { maxCommands: 25 }), fc.commands(commandArbs, { maxCommands: 25 }), async (before, after) => {
        await fc.asyncModelRun(setup, [...before, shutDownCmd, ...after]);
      }),
      { numRuns: 150 },
    );
  });
});

// A property on the real queue alone, phrased as the guarantees themselves rather than a model.
type Op = { op: 'add'; k: Key } | { op: 'take' } | { op: 'finish'; i: number };

describe('WorkQueue guarantees (property)', () => {
  it('stingy and live: never two at once, at most one sync per add, and every add is followed by a sync', async () => {
    const ops = fc.array(
      fc.oneof(
        { weight: 3, arbitrary: key.map((k): Op => ({ op: 'add', k })) },
        { weight: 2, arbitrary: fc.constant<Op>({ op: 'take' }) },
        { weight: 2, arbitrary: fc.nat(7).map((i): Op => ({ op: 'finish', i })) },
      ),
      { maxLength: 80 },
    );
    await fc.assert(
      fc.asyncProperty(ops, async (script) => {
        const q = new WorkQueue<Key>({ clock: new FakeClock() });
        const inFlight: Key[] = [];
        const addsOf = new Map<Key, number>();
        const syncsOf = new Map<Key, number>();
        const lastAdd = new Map<Key, number>();
        const lastSync = new Map<Key, number>();
        let step = 0;
        const take = async (): Promise<void> => {
          if (q.len() === 0) return; // no blocking here: the model test covers waiting
          const r = await q.get();
          if (r.shutdown) throw new Error('unexpected shutdown');
          expect(inFlight).not.toContain(r.item);
          inFlight.push(r.item);
          syncsOf.set(r.item, (syncsOf.get(r.item) ?? 0) + 1);
          lastSync.set(r.item, step++);
        };
        const finish = (i: number): void => {
          if (inFlight.length === 0) return;
          const [k] = inFlight.splice(i % inFlight.length, 1);
          q.done(k);
        };
        for (const o of script) {
          if (o.op === 'add') {
            q.add(o.k);
            addsOf.set(o.k, (addsOf.get(o.k) ?? 0) + 1);
            lastAdd.set(o.k, step++);
          } else if (o.op === 'take') await take();
          else finish(o.i);
        }
        // Drain: finish everything, take whatever comes back, until idle.
        for (let rounds = 0; inFlight.length > 0 || q.len() > 0; rounds++) {
          // Each key can come back at most once after its last add: this ends quickly or never.
          expect(rounds).toBeLessThan(KEYS.length + 2);
          while (inFlight.length > 0) finish(0);
          while (q.len() > 0) await take();
        }
        for (const k of KEYS) {
          expect(syncsOf.get(k) ?? 0).toBeLessThanOrEqual(addsOf.get(k) ?? 0);
          if (lastAdd.has(k)) expect(lastSync.get(k) ?? -1).toBeGreaterThan(lastAdd.get(k) as number);
        }
      }),
      { numRuns: 300 },
    );
  });
});
