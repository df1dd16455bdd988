import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS, UIDTrackingControllerExpectations } from '../../src/runtime/expectations.js';

const RS = 'default/frontend';

describe('ControllerExpectations', () => {
  it('has a 5 minute timeout', () => {
    expect(EXPECTATIONS_TIMEOUT_MS).toBe(300_000);
  });

  it('TestControllerExpectations: counts down, overshoots to -1, resets, and expires after 5 minutes', () => {
    const clock = new FakeClock(1_700_000_000_000);
    const e = new ControllerExpectations(clock);
    const adds = 10;
    const dels = 30;
    e.setExpectations(RS, adds, dels);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    for (let i = 0; i < adds + 1; i++) e.creationObserved(RS);
    // Deletions are still expected.
    expect(e.satisfiedExpectations(RS)).toBe(false);
    for (let i = 0; i < dels + 1; i++) e.deletionObserved(RS);
    expect(e.getExpectations(RS)).toEqual({ add: -1, del: -1, timestamp: 1_700_000_000_000 });
    expect(e.satisfiedExpectations(RS)).toBe(true);

    // Next sync: old expectations are replaced, and stamped with the current time.
    clock.advance(1_000);
    e.setExpectations(RS, 1, 2);
    expect(e.getExpectations(RS)).toEqual({ add: 1, del: 2, timestamp: 1_700_000_001_000 });
    expect(e.satisfiedExpectations(RS)).toBe(false);

    clock.advance(EXPECTATIONS_TIMEOUT_MS);
    expect(e.satisfiedExpectations(RS)).toBe(false); // exactly 5 min is not yet "older than"
    clock.advance(1);
    expect(e.satisfiedExpectations(RS)).toBe(true);
    // Expiry does not remove or alter the record.
    expect(e.getExpectations(RS)).toMatchObject({ add: 1, del: 2 });
  });

  it('a missing record is satisfied; observations and raise/lower on it are no-ops', () => {
    const e = new ControllerExpectations(new FakeClock());
    expect(e.getExpectations('ns/missing')).toBeUndefined();
    expect(e.satisfiedExpectations('ns/missing')).toBe(true);
    e.creationObserved('ns/missing');
    e.deletionObserved('ns/missing');
    e.raiseExpectations('ns/missing', 3, 3);
    e.lowerExpectations('ns/missing', 1, 1);
    expect(e.getExpectations('ns/missing')).toBeUndefined();
    expect(e.satisfiedExpectations('ns/missing')).toBe(true);
    e.deleteExpectations('ns/missing');
    expect(e.pending()).toEqual([]);
  });

  it('expectCreations/expectDeletions set one side and zero the other', () => {
    const e = new ControllerExpectations(new FakeClock(7));
    e.setExpectations(RS, 4, 4);
    e.expectCreations(RS, 3);
    expect(e.getExpectations(RS)).toEqual({ add: 3, del: 0, timestamp: 7 });
    e.expectDeletions(RS, 2);
    expect(e.getExpectations(RS)).toEqual({ add: 0, del: 2, timestamp: 7 });
    e.deletionObserved(RS);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    e.deletionObserved(RS);
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('raise/lower adjust both counters without restamping; counters may go negative', () => {
    const clock = new FakeClock(100);
    const e = new ControllerExpectations(clock);
    e.setExpectations(RS, 1, 0);
    clock.advance(4 * 60_000);
    e.raiseExpectations(RS, 2, 1);
    expect(e.getExpectations(RS)).toEqual({ add: 3, del: 1, timestamp: 100 });
    e.lowerExpectations(RS, 5, 3);
    expect(e.getExpectations(RS)).toEqual({ add: -2, del: -2, timestamp: 100 });
    expect(e.satisfiedExpectations(RS)).toBe(true);
    // A raise does not refresh the timestamp, so the record still expires on the original clock.
    e.raiseExpectations(RS, 5, 0);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    clock.advance(60_001);
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('a negative side does not mask the other side', () => {
    const e = new ControllerExpectations(new FakeClock());
    e.setExpectations(RS, -3, 1);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    e.deletionObserved(RS);
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('getExpectations returns a copy', () => {
    const e = new ControllerExpectations(new FakeClock());
    e.expectCreations(RS, 2);
    const r = e.getExpectations(RS);
    if (r) r.add = 0;
    expect(e.getExpectations(RS)?.add).toBe(2);
  });

  it('deleteExpectations drops the record (then satisfied)', () => {
    const e = new ControllerExpectations(new FakeClock());
    e.expectCreations(RS, 2);
    e.deleteExpectations(RS);
    expect(e.getExpectations(RS)).toBeUndefined();
    expect(e.satisfiedExpectations(RS)).toBe(true);
    e.creationObserved(RS);
    expect(e.getExpectations(RS)).toBeUndefined();
  });

  it('keys are independent', () => {
    const e = new ControllerExpectations(new FakeClock());
    e.expectCreations('a/x', 1);
    e.expectCreations('b/x', 1);
    e.creationObserved('a/x');
    expect(e.satisfiedExpectations('a/x')).toBe(true);
    expect(e.satisfiedExpectations('b/x')).toBe(false);
  });

  it('pending() lists the records holding their controller back, by key, with age', () => {
    const clock = new FakeClock(0);
    const e = new ControllerExpectations(clock);
    e.expectCreations('ns/old', 1);
    clock.advance(EXPECTATIONS_TIMEOUT_MS + 1);
    e.expectCreations('ns/zeta', 2);
    e.expectDeletions('ns/alpha', 1);
    e.setExpectations('ns/done', 0, 0);
    clock.advance(1_500);
    expect(e.pending()).toEqual([
      { key: 'ns/alpha', add: 0, del: 1, ageMs: 1_500 },
      { key: 'ns/zeta', add: 2, del: 0, ageMs: 1_500 },
    ]);
  });
});

describe('UIDTrackingControllerExpectations', () => {
  it('TestUIDExpectations: each expected pod key lowers the count once; the set empties', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    const rcs = ['ns/rc-0', 'ns/rc-1', 'ns/rc-2'];
    const podsByRc = new Map(rcs.map((rc, i) => [rc, Array.from({ length: i + 2 }, (_, j) => `ns/${rc.slice(3)}-pod-${j}`)]));
    for (const [rc, pods] of podsByRc) {
      e.expectDeletions(rc, pods);
      expect(e.getExpectations(rc)).toMatchObject({ add: 0, del: pods.length });
      expect(e.getUIDs(rc)).toEqual(new Set(pods));
      expect(e.satisfiedExpectations(rc)).toBe(false);
    }
    for (const [rc, pods] of podsByRc) {
      for (const [i, pod] of pods.entries()) {
        expect(e.satisfiedExpectations(rc)).toBe(false);
        e.deletionObserved(rc, pod);
        expect(e.getUIDs(rc)?.has(pod)).toBe(false);
        expect(e.getExpectations(rc)?.del).toBe(pods.length - i - 1);
      }
      expect(e.satisfiedExpectations(rc)).toBe(true);
      expect(e.getUIDs(rc)?.size).toBe(0);
      e.deleteExpectations(rc);
      expect(e.getUIDs(rc)).toBeUndefined();
      expect(e.getExpectations(rc)).toBeUndefined();
    }
  });

  it('TestDeletionTimestamp: a pod seen terminating and then deleted is observed once', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, ['default/pod-a', 'default/pod-b']);
    // updatePod: pod-a got a deletionTimestamp → deletePod path.
    e.deletionObserved(RS, 'default/pod-a');
    expect(e.getExpectations(RS)?.del).toBe(1);
    // deletePod: pod-a really gone; must not count again.
    e.deletionObserved(RS, 'default/pod-a');
    expect(e.getExpectations(RS)?.del).toBe(1);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    e.deletionObserved(RS, 'default/pod-b');
    expect(e.getExpectations(RS)?.del).toBe(0);
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('ignores deletions of pods it did not expect, and deletions for unknown controllers', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, ['default/pod-a']);
    e.deletionObserved(RS, 'default/someone-else');
    e.deletionObserved(RS, 'other-ns/pod-a');
    e.deletionObserved('default/unknown', 'default/pod-a');
    expect(e.getExpectations(RS)?.del).toBe(1);
    expect(e.getUIDs('default/unknown')).toBeUndefined();
    expect(e.getExpectations('default/unknown')).toBeUndefined();
    expect(e.satisfiedExpectations('default/unknown')).toBe(true);
  });

  it('de-duplicates the keys: the count is the size of the set', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, ['default/p', 'default/p', 'default/q']);
    expect(e.getExpectations(RS)?.del).toBe(2);
    e.deletionObserved(RS, 'default/p');
    e.deletionObserved(RS, 'default/q');
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('overwrites an existing non-empty set and reports it; an empty or missing set is silent', () => {
    const errors: { message: string; key: string; existing: string[] }[] = [];
    const e = new UIDTrackingControllerExpectations(new FakeClock(), {
      onError: (message, ctx) => errors.push({ message, ...ctx }),
    });
    e.expectDeletions(RS, ['default/a']);
    expect(errors).toEqual([]);
    e.expectDeletions(RS, ['default/c', 'default/b']);
    expect(errors).toEqual([{ message: 'Clobbering existing delete keys', key: RS, existing: ['default/a'] }]);
    expect(e.getUIDs(RS)).toEqual(new Set(['default/b', 'default/c']));
    expect(e.getExpectations(RS)?.del).toBe(2);
    // The old key no longer counts.
    e.deletionObserved(RS, 'default/a');
    expect(e.getExpectations(RS)?.del).toBe(2);
    e.deletionObserved(RS, 'default/b');
    e.deletionObserved(RS, 'default/c');
    // Set now empty: re-expecting is not a clobber.
    e.expectDeletions(RS, ['default/d']);
    expect(errors).toHaveLength(1);
    // Without a callback, clobbering is still allowed.
    const quiet = new UIDTrackingControllerExpectations(new FakeClock());
    quiet.expectDeletions(RS, ['default/a']);
    quiet.expectDeletions(RS, ['default/b']);
    expect(quiet.getUIDs(RS)).toEqual(new Set(['default/b']));
  });

  it('expectDeletions replaces pending creations (the record becomes (0, n))', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectCreations(RS, 3);
    e.expectDeletions(RS, ['default/a']);
    expect(e.getExpectations(RS)).toMatchObject({ add: 0, del: 1 });
  });

  it('an empty deletion list is immediately satisfied', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, []);
    expect(e.getExpectations(RS)).toMatchObject({ add: 0, del: 0 });
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('getUIDs returns a copy', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, ['default/a']);
    e.getUIDs(RS)?.delete('default/a');
    expect(e.getUIDs(RS)?.has('default/a')).toBe(true);
  });

  it('passes creations, raise/lower, set and pending through, and times out like the plain one', () => {
    const clock = new FakeClock();
    const e = new UIDTrackingControllerExpectations(clock);
    e.expectCreations(RS, 2);
    e.creationObserved(RS);
    expect(e.satisfiedExpectations(RS)).toBe(false);
    e.raiseExpectations(RS, 1, 0);
    e.lowerExpectations(RS, 2, 0);
    expect(e.getExpectations(RS)?.add).toBe(0);
    expect(e.satisfiedExpectations(RS)).toBe(true);
    e.setExpectations(RS, 0, 1);
    expect(e.pending()).toEqual([{ key: RS, add: 0, del: 1, ageMs: 0 }]);
    clock.advance(EXPECTATIONS_TIMEOUT_MS + 1);
    expect(e.satisfiedExpectations(RS)).toBe(true);
    expect(e.pending()).toEqual([]);
  });

  it('deleteExpectations also drops the key set, so later observations do nothing', () => {
    const e = new UIDTrackingControllerExpectations(new FakeClock());
    e.expectDeletions(RS, ['default/a']);
    e.deleteExpectations(RS);
    expect(e.getUIDs(RS)).toBeUndefined();
    e.deletionObserved(RS, 'default/a');
    expect(e.getExpectations(RS)).toBeUndefined();
    expect(e.satisfiedExpectations(RS)).toBe(true);
  });

  it('can wrap a supplied ControllerExpectations', () => {
    const clock = new FakeClock();
    const inner = new ControllerExpectations(clock);
    const e = new UIDTrackingControllerExpectations(clock, { expectations: inner });
    e.expectDeletions(RS, ['default/a']);
    expect(inner.getExpectations(RS)).toMatchObject({ add: 0, del: 1 });
  });
});
