// Leader election on a Lease against the sandbox API server, over HTTPS with the real client-node.
// Durations are short (lease 1500 ms → 2 s on the wire, renew deadline 1000 ms, retry 200 ms).
// Where a test is about when something happens, the candidate runs on a FakeClock: its retries,
// deadlines and lease expiry move only when the test advances that clock, and the assertions are
// on that clock, never on elapsed wall time.
import { afterEach, describe, expect, it } from 'vitest';
import { formatMicroTime, runLeaderElection, type LeaderElectionConfig } from '../../src/cluster/lease.js';
import { FakeClock } from '../../src/runtime/clock.js';
import type { ApiError } from '../../src/runtime/api.js';
import { sleep, startRunEnv, waitFor, type RunEnv } from './run-env.js';

const NS = 'kube-system';
const NAME = 'rs-reconcile';
const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

let env: RunEnv | null = null;
const running: Candidate[] = [];
afterEach(async () => {
  for (const c of running.splice(0)) {
    c.ac.abort();
    await c.done.catch(() => undefined);
  }
  await env?.close();
  env = null;
});

/** Who leads right now, across candidates: never more than one. */
class Tracker {
  current = new Set<string>();
  maxAtOnce = 0;
  start(id: string) {
    this.current.add(id);
    this.maxAtOnce = Math.max(this.maxAtOnce, this.current.size);
  }
  stop(id: string) {
    this.current.delete(id);
  }
}

interface Candidate {
  id: string;
  ac: AbortController;
  done: Promise<void>;
  resolved: boolean;
  startedAt: number | null;
  stoppedAt: number | null;
  /** The candidate's own clock when it started leading. */
  startedOnClock: number | null;
  starts: number;
  stops: number;
  leadSignal: AbortSignal | null;
  newLeaders: string[];
  errors: { code: number; during: string }[];
}

function candidate(e: RunEnv, id: string, tracker: Tracker, extra: Partial<LeaderElectionConfig> = {}): Candidate {
  const c: Candidate = {
    id,
    ac: new AbortController(),
    done: Promise.resolve(),
    resolved: false,
    startedAt: null,
    stoppedAt: null,
    startedOnClock: null,
    starts: 0,
    stops: 0,
    leadSignal: null,
    newLeaders: [],
    errors: [],
  };
  const cfg: LeaderElectionConfig = {
    conn: e.conn,
    namespace: NS,
    name: NAME,
    identity: id,
    leaseDurationMs: 1500,
    renewDeadlineMs: 1000,
    retryPeriodMs: 200,
    onStartedLeading(signal) {
      c.starts++;
      c.startedAt = Date.now();
      c.startedOnClock = (extra.clock ?? { now: () => Date.now() }).now();
      c.leadSignal = signal;
      tracker.start(id);
    },
    onStoppedLeading() {
      c.stops++;
      c.stoppedAt = Date.now();
      tracker.stop(id);
    },
    onNewLeader: (who) => c.newLeaders.push(who),
    onError: (err: ApiError, during) => c.errors.push({ code: err.code, during }),
    ...extra,
  };
  c.done = runLeaderElection(cfg, c.ac.signal).then(() => {
    c.resolved = true;
  });
  running.push(c);
  return c;
}

const readLease = async (e: RunEnv) => (await e.coord.readNamespacedLease({ namespace: NS, name: NAME })).spec!;

/** node-a leads, node-b stands by; each on its own clock when given (the wall clock otherwise). */
async function twoCandidates(extra: Partial<LeaderElectionConfig> = {}, clocks: { a?: FakeClock; b?: FakeClock } = {}) {
  env = await startRunEnv();
  const tracker = new Tracker();
  const a = candidate(env, 'node-a', tracker, { ...extra, ...(clocks.a ? { clock: clocks.a } : {}) });
  const leader = await waitFor(() => (a.startedAt ? a : null), 'node-a to lead');
  const b = candidate(env, 'node-b', tracker, { ...extra, ...(clocks.b ? { clock: clocks.b } : {}) });
  // Its attempt done, node-b sleeps: on a FakeClock, its next attempt waits for the test.
  await waitFor(() => b.newLeaders.includes('node-a'), 'node-b to see node-a');
  return { e: env, tracker, a: leader, b };
}

/** Lease requests a candidate sent (its identity is in the User-Agent). */
const leaseRequestsOf = (e: RunEnv, id: string) => e.sb.audit().filter((x) => x.resource === 'leases' && (x.userAgent ?? '').endsWith(`leader-election/${id}`));

/** Advances `clock` in small steps, letting requests complete in between, until `done` holds. */
async function advanceUntil(clock: FakeClock, done: () => boolean, what: string, stepMs = 100): Promise<void> {
  const limit = clock.now() + 60_000;
  while (!done()) {
    if (clock.now() >= limit) throw new Error(`${what}: not within 60 s on the fake clock`);
    clock.advance(stepMs);
    await sleep(15);
  }
}

/** A leader on a FakeClock between two renewals: its next timer is the retry, retryMs ahead. */
const renewIdle = (clock: FakeClock, retryMs = 200) =>
  waitFor(() => clock.nextDueAt() === clock.now() + retryMs, 'the leader to be waiting for its next renewal');

describe('formatMicroTime', () => {
  it('prints RFC 3339 UTC with six fractional digits', () => {
    expect(formatMicroTime(Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000000Z');
    expect(formatMicroTime(Date.parse('2026-03-04T05:06:07.089Z'))).toBe('2026-03-04T05:06:07.089000Z');
    expect(formatMicroTime(Date.parse('2026-03-04T05:06:07.089Z') + 0.25)).toBe('2026-03-04T05:06:07.089250Z');
  });
});

describe('runLeaderElection', () => {
  it('creates the lease, lets one of two candidates lead and keeps renewing it', async () => {
    // Fake clocks: on a loaded machine a real 2 s lease can run out between two renewals, and the
    // standby would rightly take over. Here node-a's clock moves only to its next renewal, with no
    // request in flight, and node-b's stands still (the lease never expires on it).
    const start = Date.parse('2026-01-01T00:00:00Z');
    const ca = new FakeClock(start);
    const { e, tracker, a, b } = await twoCandidates({}, { a: ca, b: new FakeClock(start) });
    const first = await readLease(e);
    expect(first.holderIdentity).toBe('node-a');
    expect(first.leaseDurationSeconds).toBe(2);
    expect(first.leaseTransitions).toBe(0);
    expect(String(first.acquireTime)).toMatch(MICRO);
    expect(String(first.renewTime)).toMatch(MICRO);
    const updates = () => leaseRequestsOf(e, 'node-a').filter((x) => x.verb === 'update').length;
    const before = updates();
    await renewIdle(ca);
    ca.advance(200);
    await waitFor(() => updates() > before, 'a renewal');
    const later = await readLease(e);
    expect(later.holderIdentity).toBe('node-a');
    expect(Date.parse(String(later.renewTime))).toBeGreaterThan(Date.parse(String(first.renewTime)));
    expect(String(later.acquireTime)).toBe(String(first.acquireTime));
    expect(later.leaseTransitions).toBe(0);
    expect(b.starts).toBe(0);
    expect(a.starts).toBe(1);
    expect(a.stops).toBe(0);
    expect(tracker.maxAtOnce).toBe(1);
    expect(a.newLeaders).toEqual(['node-a']);
    expect(e.sb.audit().filter((x) => x.resource === 'leases' && x.verb === 'create' && x.code === 201)).toHaveLength(1);
  });

  it('without release, the standby takes over one lease duration after it last saw the record change', async () => {
    const ca = new FakeClock(0);
    const cb = new FakeClock(0);
    // node-a never renews (its clock stands still); node-b saw its record at 0 on its clock.
    const { e, tracker, a, b } = await twoCandidates({ releaseOnCancel: false }, { a: ca, b: cb });
    a.ac.abort();
    await a.done;
    expect(a.stops).toBe(1);
    expect(a.leadSignal?.aborted).toBe(true);
    expect((await readLease(e)).holderIdentity).toBe('node-a'); // not released
    await advanceUntil(cb, () => b.startedAt !== null, 'node-b to lead');
    // The record has not changed since 0: the 2 s lease is valid until then on node-b's clock.
    expect(b.startedOnClock).toBeGreaterThanOrEqual(2000);
    // node-b kept trying meanwhile (one read per attempt), and was held off by the lease.
    expect(leaseRequestsOf(e, 'node-b').filter((x) => x.verb === 'get').length).toBeGreaterThan(3);
    const lease = await readLease(e);
    expect(lease.holderIdentity).toBe('node-b');
    expect(lease.leaseTransitions).toBe(1);
    expect(b.newLeaders).toEqual(['node-a', 'node-b']);
    expect(tracker.maxAtOnce).toBe(1);
  });

  it('releases the lease on cancel so the standby acquires at its next retry', async () => {
    const cb = new FakeClock(0);
    const { e, tracker, a, b } = await twoCandidates({}, { b: cb });
    a.ac.abort();
    await a.done;
    expect(a.stops).toBe(1);
    const released = await readLease(e).catch(() => null);
    // node-b may already have taken it; if not, it is released as client-go leaves it.
    if (released && released.holderIdentity !== 'node-b') {
      expect(released.holderIdentity ?? '').toBe('');
      expect(released.leaseDurationSeconds).toBe(1);
    }
    // One jittered retry at most (200 ms × up to 2.2), far from the 2 s lease node-b saw at 0.
    cb.advance(440);
    await waitFor(() => b.startedAt, 'node-b to lead at its next attempt');
    expect(b.startedOnClock).toBeLessThanOrEqual(440);
    const lease = await readLease(e);
    expect(lease.holderIdentity).toBe('node-b');
    expect(lease.leaseTransitions).toBe(1);
    expect(tracker.maxAtOnce).toBe(1);
  });

  it('a released lease has no holder, a one-second duration and the same transitions', async () => {
    env = await startRunEnv();
    const c = candidate(env, 'solo', new Tracker());
    await waitFor(() => c.startedAt, 'solo to lead');
    const held = await readLease(env);
    c.ac.abort();
    await c.done;
    const lease = await readLease(env);
    expect(lease.holderIdentity ?? '').toBe('');
    expect(lease.leaseDurationSeconds).toBe(1);
    expect(lease.leaseTransitions).toBe(held.leaseTransitions);
    expect(String(lease.renewTime)).toMatch(MICRO);
  });

  it('releaseOnCancel: false leaves the lease held', async () => {
    env = await startRunEnv();
    const c = candidate(env, 'solo', new Tracker(), { releaseOnCancel: false });
    await waitFor(() => c.startedAt, 'solo to lead');
    c.ac.abort();
    await c.done;
    expect(c.stops).toBe(1);
    const lease = await readLease(env);
    expect(lease.holderIdentity).toBe('solo');
    expect(lease.leaseDurationSeconds).toBe(2);
  });

  it('stops leading at once when renewals fail for the renew deadline', async () => {
    const ca = new FakeClock(0);
    const { e, a, b } = await twoCandidates({}, { a: ca }); // node-a acquired at 0 on its clock
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 1, code: 500 });
    ca.advance(200); // first renewal: fails
    await waitFor(() => a.errors.some((x) => x.code === 500 && x.during === 'renew'), 'a failed renewal');
    await renewIdle(ca);
    ca.advance(799); // 999: a renewal more (at 400), failing too; still within the deadline
    expect(a.stops).toBe(0);
    expect(a.leadSignal?.aborted).toBe(false);
    ca.advance(1); // 1000: the renew deadline, one renew deadline after the last renewal (the acquire)
    expect(a.stops).toBe(1); // at once, whatever request is in flight
    expect(a.leadSignal?.aborted).toBe(true);
    await waitFor(() => a.resolved, 'runLeaderElection of node-a to resolve');
    expect(b.starts).toBe(0); // updates fail for everybody
    e.sb.faults.clear();
    await waitFor(() => b.startedAt, 'node-b to take the expired lease', 10_000);
    expect((await readLease(e)).holderIdentity).toBe('node-b');
  });

  it('stops at the deadline even while a renewal hangs, and then releases nothing', async () => {
    const ca = new FakeClock(0);
    const { e, a } = await twoCandidates({}, { a: ca });
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 0, code: 500, latencyMs: 60_000 });
    ca.advance(200); // a renewal that hangs
    await sleep(50);
    ca.advance(800); // 1000: the deadline
    expect(a.stops).toBe(1);
    expect(a.leadSignal?.aborted).toBe(true);
    // The hanging renewal is aborted; past the deadline the lease may be another's: no release.
    await waitFor(() => a.resolved, 'runLeaderElection of node-a to resolve');
    expect(a.errors.filter((x) => x.during !== 'acquire')).toEqual([]); // an aborted renewal is no error
    e.sb.faults.clear();
    expect((await readLease(e)).holderIdentity).toBe('node-a');
    expect(leaseRequestsOf(e, 'node-a').filter((x) => x.verb === 'update' && x.code === 200)).toEqual([]);
  });

  it('rides out conflicts and server errors shorter than the renew deadline', async () => {
    const ca = new FakeClock(0);
    const cb = new FakeClock(0); // node-b stands by, its clock still: it never takes over here
    const { e, a, b } = await twoCandidates({}, { a: ca, b: cb });
    const before = await readLease(e);
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 1, code: 409, count: 2 });
    e.sb.faults.set({ verb: 'get', resource: 'leases', errorRate: 1, code: 500, count: 1 });
    ca.advance(200); // update: 409, re-read: 500
    await waitFor(() => a.errors.some((x) => x.code === 500), 'the failed re-read');
    await renewIdle(ca);
    ca.advance(200); // at 400: update 409, re-read, update: renewed
    await renewIdle(ca);
    expect(a.errors.filter((x) => x.code === 409)).toHaveLength(2);
    ca.advance(800); // 1200: past the deadline the acquire set, within the one the renewal at 400 set
    expect(a.stops).toBe(0);
    await renewIdle(ca);
    const after = await readLease(e);
    expect(after.holderIdentity).toBe('node-a');
    expect(Date.parse(String(after.renewTime))).toBeGreaterThan(Date.parse(String(before.renewTime)));
    expect(after.leaseTransitions).toBe(0);
    expect(b.starts).toBe(0);
  });

  it('stops at its next renewal when somebody else has written the lease', async () => {
    const ca = new FakeClock(0);
    const { e, a } = await twoCandidates({}, { a: ca });
    const lease = await e.coord.readNamespacedLease({ namespace: NS, name: NAME });
    lease.spec = { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 30 };
    await e.coord.replaceNamespacedLease({ namespace: NS, name: NAME, body: lease });
    ca.advance(200); // one renewal; the 1 s deadline is never reached on node-a's clock
    await waitFor(() => a.stoppedAt, 'node-a to stop leading');
    expect(ca.now()).toBe(200);
    expect(a.newLeaders).toEqual(['node-a', 'intruder']);
    await waitFor(() => a.resolved, 'runLeaderElection of node-a to resolve', 2000);
    expect((await readLease(e)).holderIdentity).toBe('intruder'); // no release of a lease not ours
    expect(a.errors.some((x) => x.code === 409)).toBe(true);
  });

  it('candidates racing to create the lease: exactly one leads', async () => {
    env = await startRunEnv();
    const tracker = new Tracker();
    const cs = ['r1', 'r2', 'r3'].map((id) => candidate(env!, id, tracker));
    await waitFor(() => cs.some((c) => c.startedAt), 'a leader');
    await sleep(600);
    const leaders = cs.filter((c) => c.starts > 0);
    expect(leaders).toHaveLength(1);
    expect((await readLease(env)).holderIdentity).toBe(leaders[0].id);
    expect(tracker.maxAtOnce).toBe(1);
    const creates = env.sb.audit().filter((x) => x.resource === 'leases' && x.verb === 'create');
    expect(creates.filter((x) => x.code === 201)).toHaveLength(1);
    // Every loser of the create race saw the 409 AlreadyExists.
    expect(creates.filter((x) => x.code === 409).length).toBe(creates.length - 1);
  });

  it('waits a full lease duration from its own observation before taking an expired lease', async () => {
    env = await startRunEnv({
      seed: [
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: NAME, namespace: NS },
          spec: {
            holderIdentity: 'gone',
            leaseDurationSeconds: 1,
            acquireTime: '2020-01-01T00:00:00.000000Z',
            renewTime: '2020-01-01T00:00:00.000000Z',
            leaseTransitions: 5,
          },
        },
      ],
    });
    const clock = new FakeClock(0);
    const c = candidate(env, 'node-a', new Tracker(), { clock });
    await advanceUntil(clock, () => c.startedAt !== null, 'node-a to lead');
    // renewTime is six years old, but expiry counts from when node-a first read the record (at
    // 0 or later on its clock): one second on the wire.
    expect(c.startedOnClock).toBeGreaterThanOrEqual(1000);
    const lease = await readLease(env);
    expect(lease.holderIdentity).toBe('node-a');
    expect(lease.leaseTransitions).toBe(6);
    expect(lease.leaseDurationSeconds).toBe(2);
    expect(c.newLeaders).toEqual(['gone', 'node-a']);
  });

  it('rejects an inconsistent configuration', async () => {
    env = await startRunEnv();
    const base = { conn: env.conn, namespace: NS, name: NAME, identity: 'x', onStartedLeading() {}, onStoppedLeading() {} };
    const signal = new AbortController().signal;
    await expect(runLeaderElection({ ...base, leaseDurationMs: 1000, renewDeadlineMs: 1000 }, signal)).rejects.toThrow(
      /leaseDurationMs must be greater than renewDeadlineMs/,
    );
    await expect(runLeaderElection({ ...base, renewDeadlineMs: 2000, retryPeriodMs: 2000 }, signal)).rejects.toThrow(
      /renewDeadlineMs must be greater than retryPeriodMs\*1.2/,
    );
    await expect(runLeaderElection({ ...base, identity: '' }, signal)).rejects.toThrow(/identity/);
    expect(env.sb.audit().filter((x) => x.resource === 'leases')).toEqual([]);
  });

  it('a throwing onStartedLeading stops leading, releases, and rejects', async () => {
    env = await startRunEnv();
    let stopped = 0;
    const done = runLeaderElection(
      {
        conn: env.conn,
        namespace: NS,
        name: NAME,
        identity: 'boom',
        leaseDurationMs: 1500,
        renewDeadlineMs: 1000,
        retryPeriodMs: 200,
        onStartedLeading() {
          throw new Error('cannot start');
        },
        onStoppedLeading: () => stopped++,
      },
      new AbortController().signal,
    );
    await expect(done).rejects.toThrow('cannot start');
    expect(stopped).toBe(1);
    const lease = await readLease(env);
    expect(lease.holderIdentity ?? '').toBe('');
    expect(lease.leaseDurationSeconds).toBe(1);
  });
});
