// The informer's reflector on its own: a ListerWatcher held in memory and a FakeClock, no server
// and no waiting on real time. Each step moves the fake clock or drives the fake watch, then lets
// the informer's promises run (settle), and checks what it asked and what its handlers got.
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterError, ResourceExpiredError, RetryAfterError } from '../../src/cluster/errors.js';
import { Informer, type InformerMetric, type InformerOptions } from '../../src/cluster/informer.js';
import type { Pod, Tombstone } from '../../src/core/types.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { FAKE_CONNECTION, FakeListerWatcher, fakePod, settle } from './fake-lister-watcher.js';
import { Recorder, nameOf } from './informer-helpers.js';

interface Harness {
  informer: Informer<Pod>;
  lw: FakeListerWatcher;
  clock: FakeClock;
  rec: Recorder<Pod>;
  metrics: InformerMetric[];
  errors: Error[];
  ac: AbortController;
  done: Promise<void>;
}

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    h.ac.abort();
    await h.done;
  }
});

/** An informer of pods on a fake clock at 0 and the fake ListerWatcher; random() is 0 unless given. */
function start(lw: FakeListerWatcher, o: Partial<InformerOptions> = {}): Harness {
  const clock = new FakeClock(0);
  const metrics: InformerMetric[] = [];
  const errors: Error[] = [];
  const informer = new Informer<Pod>({
    conn: FAKE_CONNECTION,
    resource: 'pods',
    namespace: null,
    listerWatcher: lw,
    clock,
    random: () => 0,
    onMetric: (m) => metrics.push(m),
    onError: (e) => errors.push(e),
    ...o,
  });
  const rec = new Recorder<Pod>();
  informer.addHandlers(rec);
  const ac = new AbortController();
  const h: Harness = { informer, lw, clock, rec, metrics, errors, ac, done: informer.run(ac.signal) };
  harnesses.push(h);
  return h;
}

const details = (h: Harness, event: InformerMetric['event']) => h.metrics.filter((m) => m.event === event).map((m) => m.detail);
const rvOf = (o: Pod | Tombstone<Pod>) => ('tombstone' in o ? o.obj : o).metadata.resourceVersion;

/** Moves the fake clock by `ms` and lets the informer act on what fell due. */
async function advance(h: Harness, ms: number): Promise<void> {
  h.clock.advance(ms);
  await settle();
}

function podsAt(lw: FakeListerWatcher, rv: string, ...names: [string, string][]): void {
  lw.objects = names.map(([name, v]) => fakePod(name, v));
  lw.resourceVersion = rv;
}

describe('initial list', () => {
  it('lists in pages, adds every object, syncs, then watches from the list resourceVersion with bookmarks', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '3'], ['b', '5'], ['c', '7'], ['d', '9'], ['e', '10']);
    const h = start(lw, { pageSize: 2, random: () => 0.5 });
    await settle();
    expect(lw.lists).toEqual([{ limit: 2 }, { limit: 2, continue: '2' }, { limit: 2, continue: '4' }]);
    expect(h.informer.hasSynced()).toBe(true);
    await h.informer.waitForSync();
    expect(h.rec.names('add')).toEqual(['a', 'b', 'c', 'd', 'e']);
    const a = h.informer.cache.get('default/a');
    expect(a?.kind).toBe('Pod');
    expect(a?.apiVersion).toBe('v1');
    expect(details(h, 'list')).toEqual(['5 pods in 3 pages at resourceVersion 10']);
    // client-go's minWatchTimeout × [1, 2): random() 0.5 gives 450 s
    expect(lw.watches.map((w) => w.options)).toEqual([{ resourceVersion: '10', timeoutSeconds: 450, allowWatchBookmarks: true }]);
    expect(details(h, 'watch')).toEqual(['resourceVersion=10']);
    expect(h.errors).toEqual([]);
  });

  it('a page size of 0 lists without pages; an expired continue token falls back to one full list', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '4', ['a', '2'], ['b', '3'], ['c', '4']);
    const whole = start(lw, { pageSize: 0 });
    await settle();
    expect(lw.lists).toEqual([{}]);
    expect(whole.rec.names('add')).toEqual(['a', 'b', 'c']);

    const lw2 = new FakeListerWatcher();
    podsAt(lw2, '4', ['a', '2'], ['b', '3'], ['c', '4']);
    const list = lw2.list.bind(lw2);
    lw2.list = (request, signal) => {
      if (request.continue === undefined) return list(request, signal);
      lw2.lists.push(request);
      return Promise.reject(new ResourceExpiredError('the continue token expired'));
    };
    const paged = start(lw2, { pageSize: 2 });
    await settle();
    expect(lw2.lists).toEqual([{ limit: 2 }, { limit: 2, continue: '2' }, {}]);
    // the first page's items are let go: each object is added once, from the full list
    expect(paged.rec.names('add')).toEqual(['a', 'b', 'c']);
    expect(details(paged, 'list')).toEqual(['3 pods in 1 page at resourceVersion 4']);
    expect(paged.errors).toEqual([]);
  });

  it('leaves out (and reports) a listed object without a name or uid', async () => {
    const lw = new FakeListerWatcher();
    lw.objects = [fakePod('a', '1'), { metadata: { name: 'no-uid', namespace: 'default' } }];
    const h = start(lw);
    await settle();
    expect(h.rec.names('add')).toEqual(['a']);
    expect(h.errors.map((e) => e.message)).toEqual(['the server at https://fake.invalid sent a Pod without a name or uid; ignored']);
  });
});

describe('watch events', () => {
  it('are applied in order: add, update with the old object, delete with the final state, bookmark', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '10']);
    const h = start(lw);
    await settle();
    h.rec.clear();
    const w = lw.current;
    w.events.onOpen();
    w.events.onEvent('ADDED', fakePod('b', '11'));
    w.events.onEvent('MODIFIED', fakePod('a', '12', { app: 'web', tier: 'front' }));
    w.events.onEvent('DELETED', fakePod('b', '13'));
    w.events.onEvent('DELETED', fakePod('never-seen', '14'));
    expect(h.informer.lastResourceVersion()).toBe('14');
    w.events.onEvent('BOOKMARK', { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '20' } });

    expect(h.rec.events.map((e) => [e.type, nameOf(e.obj), rvOf(e.obj)])).toEqual([
      ['add', 'b', '11'],
      ['update', 'a', '12'],
      ['delete', 'b', '13'],
    ]);
    const update = h.rec.of('update')[0];
    if (update.type !== 'update') throw new Error('not an update');
    expect(update.old.metadata.resourceVersion).toBe('10');
    expect(update.old.metadata.labels).toEqual({ app: 'web' });
    expect(h.informer.cache.keys()).toEqual(['default/a']);
    expect(h.informer.lastResourceVersion()).toBe('20');
    expect(details(h, 'bookmark')).toEqual(['resourceVersion=20']);
  });

  it('an event of an unknown type ends the watch with an error; the next watch starts from the last resourceVersion', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '10']);
    const h = start(lw);
    await settle();
    lw.current.events.onOpen();
    lw.current.events.onEvent('ADDED', fakePod('b', '11'));
    lw.current.events.onEvent('SURPRISE', {});
    await settle();
    expect(lw.watches[0].stopped).toBe(true);
    expect(h.errors.map((e) => e.message)).toEqual(['the server at https://fake.invalid sent a watch event of unknown type "SURPRISE"']);
    // an error always backs off; it delivered an event (healthy), so from the first step
    expect(details(h, 'reconnect')).toEqual(['in 800ms']);
    await advance(h, 800);
    expect(lw.watches.map((w) => w.options.resourceVersion)).toEqual(['10', '11']);
    expect(lw.lists).toHaveLength(1);
  });
});

describe('410 Gone', () => {
  it('relists with replace semantics: tombstones for vanished objects, updates with the old objects, adds', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '7', ['a', '5'], ['b', '6'], ['c', '7']);
    const h = start(lw);
    await settle();
    const before = new Map(h.informer.cache.list().map((p) => [p.metadata.name, p]));
    h.rec.clear();
    lw.current.events.onOpen();
    lw.current.events.onEvent('MODIFIED', fakePod('c', '8'));
    podsAt(lw, '12', ['a', '9'], ['c', '8'], ['d', '12']);
    lw.current.events.onEvent('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 7 (8)' });
    await settle();

    expect(details(h, 'relist')).toEqual(['watch of pods expired: too old resource version: 7 (8)']);
    expect(lw.lists).toHaveLength(2);
    expect(details(h, 'list')[1]).toBe('3 pods in 1 page at resourceVersion 12 (relist)');
    const relisted = h.rec.events.slice(1); // after the MODIFIED of c
    expect(relisted.map((e) => [e.type, nameOf(e.obj)])).toEqual([
      ['add', 'd'],
      ['update', 'a'],
      ['update', 'c'],
      ['delete', 'b'],
    ]);
    const tombstone = relisted[3].obj as Tombstone<Pod>;
    expect(tombstone).toEqual({ tombstone: true, key: 'default/b', obj: before.get('b') });
    const updateA = relisted[1];
    if (updateA.type !== 'update') throw new Error('not an update');
    expect(updateA.old).toBe(before.get('a'));
    expect(lw.current.options.resourceVersion).toBe('12');
    expect(h.errors).toEqual([]); // 410 is no error
    expect(details(h, 'reconnect')).toEqual([]); // a healthy watch relists at once
  });

  it("when the list's own resourceVersion is already gone, backs off before relisting (no list → 410 → list loop)", async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '7', ['a', '7']);
    const h = start(lw);
    await settle();
    lw.current.events.onDone(new ResourceExpiredError('watch answered 410 Gone'));
    await settle();
    expect(details(h, 'relist')).toEqual(['watch answered 410 Gone']);
    expect(details(h, 'reconnect')).toEqual(['in 800ms']);
    await advance(h, 799);
    expect(lw.lists).toHaveLength(1);
    await advance(h, 1);
    expect(lw.lists).toHaveLength(2);
    expect(lw.watches).toHaveLength(2);
  });
});

describe('watch ended', () => {
  it('a healthy watch closed by the server: watched again at once from the last resourceVersion, no relist', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '10']);
    const h = start(lw);
    await settle();
    lw.current.events.onOpen();
    await advance(h, 1000); // open for a second: healthy even without events
    lw.current.events.onDone(null);
    await settle();
    expect(lw.watches.map((w) => w.options.resourceVersion)).toEqual(['10', '10']);
    lw.current.events.onOpen();
    lw.current.events.onEvent('MODIFIED', fakePod('a', '15'));
    lw.current.events.onDone(null);
    await settle();
    expect(lw.watches.map((w) => w.options.resourceVersion)).toEqual(['10', '10', '15']);
    expect(lw.lists).toHaveLength(1);
    expect(details(h, 'reconnect')).toEqual([]);
    expect(h.rec.names('add')).toEqual(['a']);
  });

  it('a watch that ends at once having delivered nothing is not healthy: backoff first, then the same resourceVersion', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '10']);
    const h = start(lw);
    await settle();
    lw.current.events.onOpen();
    await advance(h, 999);
    lw.current.events.onDone(null);
    await settle();
    expect(details(h, 'reconnect')).toEqual(['in 800ms']);
    await advance(h, 799);
    expect(lw.watches).toHaveLength(1);
    await advance(h, 1);
    expect(lw.watches.map((w) => w.options.resourceVersion)).toEqual(['10', '10']);
    expect(lw.lists).toHaveLength(1);
  });

  it('a watch request without an answer in 30 s is given up, and one that outlives its timeout too', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '10', ['a', '10']);
    const h = start(lw);
    await settle();
    await advance(h, 29_999);
    expect(lw.watches[0].stopped).toBe(false);
    await advance(h, 1);
    expect(lw.watches[0].stopped).toBe(true);
    expect(h.errors.map((e) => e.message)).toEqual(['no answer to the watch of pods from https://fake.invalid in 30s']);
    await advance(h, 800);
    expect(lw.watches).toHaveLength(2);
    lw.current.events.onOpen();
    // timeoutSeconds 300 (random() 0), given up 30 s after the server should have ended it
    await advance(h, 329_999);
    expect(lw.watches[1].stopped).toBe(false);
    await advance(h, 1);
    expect(lw.watches[1].stopped).toBe(true);
    expect(h.errors[1]).toBeInstanceOf(ClusterError);
    expect(h.errors[1].message).toBe('the watch of pods outlived its 300s timeout; watching again');
    // healthy (open long enough): the backoff starts again from its first step
    expect(details(h, 'reconnect')).toEqual(['in 800ms', 'in 800ms']);
    await advance(h, 800);
    expect(lw.watches).toHaveLength(3);
  });
});

describe('backoff', () => {
  it('steps from initialMs doubling up to maxMs, stretched by the jitter, and resets after a list', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '3', ['a', '3']);
    const failure = () => new ClusterError('server error (500) from https://fake.invalid (list pods): boom', 'server-error', 500);
    for (let i = 0; i < 7; i++) lw.failures.push(failure());
    const h = start(lw, { random: () => 0.5, backoff: { initialMs: 1000, maxMs: 10_000 } });
    await settle();
    // 1000 × 2^n, at most 10 000, each × 1.25 (random() 0.5 × the 50 % jitter)
    const expected = [1250, 2500, 5000, 10_000, 12_500, 12_500, 12_500];
    for (const [n, delay] of expected.entries()) {
      expect(details(h, 'reconnect')[n]).toBe(`in ${delay}ms`);
      await advance(h, delay - 1);
      expect(lw.lists, `list ${n + 2} before the backoff of ${delay} ms ended`).toHaveLength(n + 1);
      await advance(h, 1);
      expect(lw.lists).toHaveLength(n + 2);
    }
    expect(h.informer.hasSynced()).toBe(true);
    expect(h.errors).toHaveLength(7);
    // a successful list resets the steps: a failing watch starts again from initialMs
    lw.current.events.onDone(new ClusterError('cannot reach the cluster at https://fake.invalid: ECONNRESET', 'unreachable'));
    await settle();
    expect(details(h, 'reconnect').at(-1)).toBe('in 1250ms');
  });

  it('waits as long as a Retry-After asks when that is longer than the step', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '3', ['a', '3']);
    const throttled = new ClusterError('too many requests: slow down (list pods)', 'too-many-requests', 429);
    lw.failures.push(new RetryAfterError(throttled, 5000));
    const h = start(lw);
    await settle();
    expect(details(h, 'reconnect')).toEqual(['in 5000ms']);
    expect((h.errors[0] as ClusterError).reason).toBe('too-many-requests');
    await advance(h, 4999);
    expect(lw.lists).toHaveLength(1);
    await advance(h, 1);
    expect(lw.lists).toHaveLength(2);
    expect(h.informer.hasSynced()).toBe(true);
  });
});

describe('resync', () => {
  it('update(obj, obj) for every cached object every resyncMs on the clock, none once stopped', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '3', ['a', '2'], ['b', '3']);
    const h = start(lw, { resyncMs: 1000 });
    await settle();
    lw.current.events.onOpen();
    await advance(h, 999);
    expect(h.rec.of('update')).toEqual([]);
    await advance(h, 1);
    expect(h.rec.names('update')).toEqual(['a', 'b']);
    for (const u of h.rec.of('update')) if (u.type === 'update') expect(u.old).toBe(u.obj);
    await advance(h, 2000);
    expect(h.rec.names('update')).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    h.ac.abort();
    await h.done;
    expect(h.clock.pending()).toBe(0); // the resync timer, the watch's timers: all cleared
    await advance(h, 5000);
    expect(h.rec.of('update')).toHaveLength(6);
  });

  it('is off by default', async () => {
    const lw = new FakeListerWatcher();
    podsAt(lw, '3', ['a', '2']);
    const h = start(lw);
    await settle();
    lw.current.events.onOpen();
    await advance(h, 300_000);
    expect(h.rec.of('update')).toEqual([]);
  });
});

describe('stopping', () => {
  it('abort stops the watch, ends run(), clears every timer and rejects waitForSync before a sync', async () => {
    const lw = new FakeListerWatcher();
    lw.failures.push(new ClusterError('boom', 'server-error', 500));
    const h = start(lw, { backoff: { initialMs: 600_000 } });
    const waiting = h.informer.waitForSync();
    await settle();
    expect(details(h, 'reconnect')).toEqual(['in 600000ms']);
    h.ac.abort(new Error('stopped by the test'));
    await h.done;
    await expect(waiting).rejects.toThrow('stopped by the test');
    expect(h.clock.pending()).toBe(0);

    const lw2 = new FakeListerWatcher();
    podsAt(lw2, '1', ['a', '1']);
    const watching = start(lw2);
    await settle();
    lw2.current.events.onOpen();
    watching.ac.abort();
    await watching.done;
    expect(lw2.current.stopped).toBe(true);
    expect(watching.clock.pending()).toBe(0);
  });
});
