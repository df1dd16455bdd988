// client-go's EventCorrelator (tools/record/events_cache.go) under a fake clock: what is sent for
// each recorded event. A small in-memory "server" plays the sink as client-go's recordToSink does
// (create / patch, then UpdateState with the answer), so counts and names carry over as upstream.
import { describe, expect, it } from 'vitest';
import {
  AGGREGATE_MESSAGE_PREFIX,
  EventCorrelator,
  LruCache,
  MAX_LRU_CACHE_ENTRIES,
  rfc3339,
  type CoreEvent,
  type EventAction,
} from '../../src/runtime/event-correlator.js';

const T0 = Date.UTC(2026, 10, 25, 6, 0, 0);
const MIN = 60_000;

interface Rec {
  object?: string;
  uid?: string;
  type?: 'Normal' | 'Warning';
  reason?: string;
  message: string;
}

/** What KubeControllerAPI.recordEvent builds (makeEvent), at `now`. */
function makeEvent(c: EventCorrelator, now: number, r: Rec): CoreEvent {
  const name = r.object ?? 'web';
  return {
    metadata: { name: c.eventName(name, now), namespace: 'shop' },
    involvedObject: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name, namespace: 'shop', uid: r.uid ?? `uid-${name}`, resourceVersion: '7' },
    reason: r.reason ?? 'SuccessfulCreate',
    message: r.message,
    type: r.type ?? 'Normal',
    count: 1,
    firstTimestamp: rfc3339(now),
    lastTimestamp: rfc3339(now),
    source: { component: 'rs-reconcile' },
    reportingComponent: 'rs-reconcile',
    reportingInstance: 'node-a',
  };
}

/** The correlator with a sink that stores what it is sent, as the API server would. */
function harness(opts: ConstructorParameters<typeof EventCorrelator>[0] = {}) {
  const c = new EventCorrelator(opts);
  const stored = new Map<string, CoreEvent>();
  let rv = 100;
  const record = (now: number, r: Rec): EventAction => {
    const action = c.correlate(makeEvent(c, now, r), now);
    if (action.kind === 'create') {
      const saved = { ...action.event, metadata: { ...action.event.metadata, resourceVersion: String(rv++) } };
      stored.set(saved.metadata.name, saved);
      c.updateState(saved);
    } else if (action.kind === 'patch') {
      const cur = stored.get(action.name);
      if (!cur) throw new Error(`patch of unknown event ${action.name}`);
      const saved = { ...cur, ...action.patch, metadata: { ...cur.metadata, resourceVersion: String(rv++) } };
      stored.set(action.name, saved);
      c.updateState(saved);
    }
    return action;
  };
  return { c, stored, record };
}

const created = (i: number) => ({ message: `Created pod: web-${i}` });
const brief = (a: EventAction) => (a.kind === 'drop' ? 'drop' : a.kind === 'create' ? `create ${a.event.message}` : `patch ${a.patch.count}`);

describe('EventCorrelator: aggregation of similar events', () => {
  it('9 similar events are created as they are; the 10th is one combined event; later ones patch its count', () => {
    const { record } = harness();
    const out = Array.from({ length: 12 }, (_, i) => record(T0 + i * 100, created(i + 1)));
    expect(out.slice(0, 9).map(brief)).toEqual(Array.from({ length: 9 }, (_, i) => `create Created pod: web-${i + 1}`));
    const combined = out[9];
    expect(combined.kind).toBe('create');
    if (combined.kind !== 'create') return;
    expect(combined.event).toEqual({
      metadata: { name: expect.stringMatching(/^web\.[0-9a-f]+$/), namespace: 'shop' },
      involvedObject: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', namespace: 'shop', uid: 'uid-web', resourceVersion: '7' },
      reason: 'SuccessfulCreate',
      message: `${AGGREGATE_MESSAGE_PREFIX}Created pod: web-10`,
      type: 'Normal',
      count: 1,
      firstTimestamp: rfc3339(T0 + 900),
      lastTimestamp: rfc3339(T0 + 900),
      source: { component: 'rs-reconcile' },
    }); // as upstream: no reportingController / reportingInstance on the combined event
    expect(out[10]).toEqual({
      kind: 'patch',
      name: combined.event.metadata.name,
      namespace: 'shop',
      patch: { count: 2, lastTimestamp: rfc3339(T0 + 1000), message: `${AGGREGATE_MESSAGE_PREFIX}Created pod: web-11` },
      event: expect.objectContaining({ count: 2, firstTimestamp: rfc3339(T0 + 900) }),
    });
    expect(out[11]).toMatchObject({
      kind: 'patch',
      name: combined.event.metadata.name,
      patch: { count: 3, message: `${AGGREGATE_MESSAGE_PREFIX}Created pod: web-12` },
    });
  });

  it('120 SuccessfulCreate on one ReplicaSet in a burst: 9 creates, 1 combined create, 15 patches, then dropped (25 requests)', () => {
    const { record, stored } = harness();
    const out = Array.from({ length: 120 }, (_, i) => record(T0 + i * 20, created(i + 1)));
    expect(out.map((a) => a.kind)).toEqual([...Array(10).fill('create'), ...Array(15).fill('patch'), ...Array(95).fill('drop')]);
    expect(out.slice(10, 25).map((a) => (a.kind === 'patch' ? a.patch.count : 0))).toEqual(Array.from({ length: 15 }, (_, i) => i + 2));
    // what the server holds: 9 single events and the combined one at count 16
    const events = [...stored.values()];
    expect(events).toHaveLength(10);
    expect(events.filter((e) => e.count === 1).map((e) => e.message)).toEqual(Array.from({ length: 9 }, (_, i) => `Created pod: web-${i + 1}`));
    expect(events[9]).toMatchObject({ count: 16, message: `${AGGREGATE_MESSAGE_PREFIX}Created pod: web-25` });
  });

  it('a dropped event still counts: the next patch the budget allows carries every occurrence', () => {
    const { record } = harness();
    for (let i = 1; i <= 120; i++) record(T0, created(i));
    // 5 minutes later one token is back; the aggregate is still within its 10 minutes
    expect(record(T0 + 5 * MIN, created(121))).toMatchObject({ kind: 'patch', patch: { count: 112 } });
    expect(record(T0 + 5 * MIN, created(122)).kind).toBe('drop');
  });

  it('similar events more than 10 minutes apart start over; exactly 10 minutes still aggregates', () => {
    const apart = harness();
    for (let i = 1; i <= 9; i++) apart.record(T0, created(i));
    expect(brief(apart.record(T0 + 10 * MIN + 1, created(10)))).toBe('create Created pod: web-10');
    // the window slides with every similar event: 8 more within it make 9 again, not 10
    for (let i = 11; i <= 18; i++) expect(apart.record(T0 + 10 * MIN + 1, created(i)).kind).toBe('create');
    expect(brief(apart.record(T0 + 10 * MIN + 1, created(19)))).toBe(`create ${AGGREGATE_MESSAGE_PREFIX}Created pod: web-19`);

    const edge = harness();
    for (let i = 1; i <= 9; i++) edge.record(T0, created(i));
    expect(brief(edge.record(T0 + 10 * MIN, created(10)))).toBe(`create ${AGGREGATE_MESSAGE_PREFIX}Created pod: web-10`);
  });

  it('after the window expires the combined event is no longer patched: a new round of single events', () => {
    const { record } = harness();
    for (let i = 1; i <= 11; i++) record(T0, created(i));
    expect(brief(record(T0 + 11 * MIN, created(12)))).toBe('create Created pod: web-12');
  });

  it('groups by source, object, type, reason and reporting controller / instance; not by message', () => {
    const { record } = harness();
    for (let i = 1; i <= 9; i++) record(T0, created(i));
    // a different reason, type or object is another group: no aggregation yet
    expect(brief(record(T0, { reason: 'SuccessfulDelete', message: 'Deleted pod: web-1' }))).toBe('create Deleted pod: web-1');
    expect(brief(record(T0, { type: 'Warning', message: 'Created pod: web-x' }))).toBe('create Created pod: web-x');
    expect(brief(record(T0, { object: 'api', message: 'Created pod: api-1' }))).toBe('create Created pod: api-1');
    expect(brief(record(T0, created(10)))).toBe(`create ${AGGREGATE_MESSAGE_PREFIX}Created pod: web-10`);
  });
});

describe('EventCorrelator: identical events', () => {
  it('an identical event patches count and lastTimestamp of the first one, which keeps its name and firstTimestamp', () => {
    const { record, stored } = harness();
    const first = record(T0, { type: 'Warning', reason: 'FailedCreate', message: 'Error creating: quota exceeded' });
    expect(first.kind).toBe('create');
    const name = first.kind === 'create' ? first.event.metadata.name : '';
    const second = record(T0 + 2000, { type: 'Warning', reason: 'FailedCreate', message: 'Error creating: quota exceeded' });
    expect(second).toEqual({
      kind: 'patch',
      name,
      namespace: 'shop',
      patch: { count: 2, lastTimestamp: rfc3339(T0 + 2000), message: 'Error creating: quota exceeded' },
      event: expect.objectContaining({ metadata: { name, namespace: 'shop', resourceVersion: '100' }, firstTimestamp: rfc3339(T0), count: 2 }),
    });
    for (let i = 3; i <= 12; i++)
      expect(record(T0 + i * 1000, { type: 'Warning', reason: 'FailedCreate', message: 'Error creating: quota exceeded' })).toMatchObject({
        kind: 'patch',
        name,
        patch: { count: i },
      });
    // one message is one local key: identical repeats never aggregate
    expect(stored.size).toBe(1);
    expect(stored.get(name)).toMatchObject({ count: 12, firstTimestamp: rfc3339(T0), lastTimestamp: rfc3339(T0 + 12_000) });
  });

  it("the count follows the server's answer (UpdateState)", () => {
    const c = new EventCorrelator();
    const e = makeEvent(c, T0, created(1));
    const first = c.correlate(e, T0);
    if (first.kind !== 'create') throw new Error('expected a create');
    c.updateState({ ...first.event, count: 40, metadata: { ...first.event.metadata, resourceVersion: '9' } });
    expect(c.correlate(makeEvent(c, T0 + 1, created(1)), T0 + 1)).toMatchObject({
      kind: 'patch',
      patch: { count: 41 },
      event: { metadata: { resourceVersion: '9' } },
    });
  });
});

describe('EventCorrelator: spam filter', () => {
  it('25 events per object and type, then dropped; one more every 5 minutes, up to 25 again', () => {
    const { record } = harness();
    // distinct reasons: no aggregation, every one its own Event
    const rec = (now: number, i: number) => record(now, { reason: `Reason${i}`, message: `m${i}` });
    for (let i = 0; i < 25; i++) expect(rec(T0, i).kind).toBe('create');
    expect(rec(T0, 25).kind).toBe('drop');
    expect(rec(T0 + 299_000, 26).kind).toBe('drop');
    expect(rec(T0 + 300_000, 27).kind).toBe('create');
    expect(rec(T0 + 300_000, 28).kind).toBe('drop');
    // refused events take no token: 25 × 5 minutes after the last accepted one the bucket is full, and no fuller
    const later = T0 + 300_000 + 25 * 300_000;
    for (let i = 0; i < 25; i++) expect(rec(later, 100 + i).kind).toBe('create');
    expect(rec(later, 200).kind).toBe('drop');
  });

  it('another object, or the other type, has a budget of its own', () => {
    const { record } = harness();
    for (let i = 0; i < 26; i++) record(T0, { reason: `R${i}`, message: `m${i}` });
    expect(record(T0, { reason: 'R99', message: 'm' }).kind).toBe('drop');
    expect(record(T0, { object: 'api', reason: 'R99', message: 'm' }).kind).toBe('create');
    expect(record(T0, { uid: 'uid-web-2', reason: 'R99', message: 'm' }).kind).toBe('create'); // a new object of the same name
    expect(record(T0, { type: 'Warning', reason: 'R99', message: 'm' }).kind).toBe('create');
  });
});

describe('EventCorrelator: bounded memory', () => {
  it('LruCache keeps the newest entries; get makes an entry the newest', () => {
    const lru = new LruCache<number>(3);
    for (const k of ['a', 'b', 'c']) lru.add(k, 1);
    expect(lru.get('a')).toBe(1);
    lru.add('d', 1); // evicts b, the least recently used
    expect(lru.size).toBe(3);
    expect(lru.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => lru.get(k))).toEqual([1, 1, 1]);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });

  it(`remembers ${MAX_LRU_CACHE_ENTRIES} objects: the oldest is forgotten (created anew), the newest still patched`, () => {
    const { record } = harness();
    const n = MAX_LRU_CACHE_ENTRIES + 1;
    for (let i = 0; i < n; i++) record(T0, { object: `rs-${i}`, message: 'Created pod: x' });
    expect(record(T0, { object: `rs-${n - 1}`, message: 'Created pod: x' }).kind).toBe('patch');
    expect(record(T0, { object: 'rs-0', message: 'Created pod: x' }).kind).toBe('create');
  });

  it('the cache size is an option (the same bound on all three caches)', () => {
    const { record } = harness({ lruCacheSize: 2 });
    record(T0, { object: 'a', message: 'm' });
    record(T0, { object: 'b', message: 'm' });
    expect(record(T0, { object: 'a', message: 'm' }).kind).toBe('patch');
    record(T0, { object: 'c', message: 'm' });
    expect(record(T0, { object: 'b', message: 'm' }).kind).toBe('create');
  });
});

describe('EventCorrelator.eventName (util.GenerateEventName)', () => {
  it('<object>.<hex unix nanoseconds>, strictly increasing within one millisecond', () => {
    const c = new EventCorrelator();
    const names = Array.from({ length: 3 }, () => c.eventName('web', T0));
    expect(names[0]).toBe(`web.${(BigInt(T0) * 1_000_000n).toString(16)}`);
    expect(names[1]).toBe(`web.${(BigInt(T0) * 1_000_000n + 1n).toString(16)}`);
    expect(new Set(names).size).toBe(3);
    expect(c.eventName('web', T0 - 5)).toBe(`web.${(BigInt(T0) * 1_000_000n + 3n).toString(16)}`); // a clock stepping back
  });

  it('a UUID when the object name leaves no room for a valid name', () => {
    const c = new EventCorrelator({ uuid: () => '6b1f0c8e-3c56-4a49-9a53-1d0c8d9e2f10' });
    expect(c.eventName('a'.repeat(250), T0)).toBe('6b1f0c8e-3c56-4a49-9a53-1d0c8d9e2f10');
    expect(c.eventName('a'.repeat(236), T0)).toMatch(/^a{236}\.[0-9a-f]{16}$/);
  });
});
