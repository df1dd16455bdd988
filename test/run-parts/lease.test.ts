// Leader election on a Lease against the sandbox API server, over HTTPS with the real client-node.
// Durations are short (lease 1500 ms → 2 s on the wire, renew deadline 1000 ms, retry 200 ms).
import { afterEach, describe, expect, it } from 'vitest';
import { formatMicroTime, runLeaderElection, type LeaderElectionConfig } from '../../src/cluster/lease.js';
import type { ApiError } from '../../src/controller/api.js';
import { sleep, startRunEnv, waitFor, type RunEnv } from './helpers.js';

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
  starts: number;
  stops: number;
  leadSignal: AbortSignal | null;
  newLeaders: string[];
  errors: { code: number; during: string }[];
}

function candidate(e: RunEnv, id: string, tracker: Tracker, extra: Partial<LeaderElectionConfig> = {}): Candidate {
  const c: Candidate = { id, ac: new AbortController(), done: Promise.resolve(), resolved: false, startedAt: null, stoppedAt: null, starts: 0, stops: 0, leadSignal: null, newLeaders: [], errors: [] };
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

async function twoCandidates(extra: Partial<LeaderElectionConfig> = {}) {
  env = await startRunEnv();
  const tracker = new Tracker();
  const a = candidate(env, 'node-a', tracker, extra);
  const leader = await waitFor(() => (a.startedAt ? a : null), 'node-a to lead');
  const b = candidate(env, 'node-b', tracker, extra);
  await waitFor(() => b.newLeaders.includes('node-a'), 'node-b to see node-a');
  return { e: env, tracker, a: leader, b };
}

describe('formatMicroTime', () => {
  it('prints RFC 3339 UTC with six fractional digits', () => {
    expect(formatMicroTime(Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000000Z');
    expect(formatMicroTime(Date.parse('2026-03-04T05:06:07.089Z'))).toBe('2026-03-04T05:06:07.089000Z');
    expect(formatMicroTime(Date.parse('2026-03-04T05:06:07.089Z') + 0.25)).toBe('2026-03-04T05:06:07.089250Z');
  });
});

describe('runLeaderElection', () => {
  it('creates the lease, lets one of two candidates lead and keeps renewing it', async () => {
    const { e, tracker, a, b } = await twoCandidates();
    const first = await readLease(e);
    expect(first.holderIdentity).toBe('node-a');
    expect(first.leaseDurationSeconds).toBe(2);
    expect(first.leaseTransitions).toBe(0);
    expect(String(first.acquireTime)).toMatch(MICRO);
    expect(String(first.renewTime)).toMatch(MICRO);
    await sleep(700);
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

  it('without release, the standby takes over about one lease duration after the leader stops', async () => {
    const { e, tracker, a, b } = await twoCandidates({ releaseOnCancel: false });
    const abortedAt = Date.now();
    a.ac.abort();
    await a.done;
    expect(a.stops).toBe(1);
    expect(a.leadSignal?.aborted).toBe(true);
    expect((await readLease(e)).holderIdentity).toBe('node-a'); // not released
    await waitFor(() => b.startedAt, 'node-b to lead', 5000);
    const took = b.startedAt! - abortedAt;
    // The standby saw the record change at most one jittered retry (≤ 440 ms) before the leader
    // stopped; it waits the 2 s lease from then.
    expect(took).toBeGreaterThan(1400);
    expect(took).toBeLessThan(3000);
    const lease = await readLease(e);
    expect(lease.holderIdentity).toBe('node-b');
    expect(lease.leaseTransitions).toBe(1);
    expect(b.newLeaders).toEqual(['node-a', 'node-b']);
    expect(tracker.maxAtOnce).toBe(1);
  });

  it('releases the lease on cancel so the standby acquires at its next retry', async () => {
    const { e, tracker, a, b } = await twoCandidates();
    const abortedAt = Date.now();
    a.ac.abort();
    await a.done;
    expect(a.stops).toBe(1);
    const released = await readLease(e).catch(() => null);
    // node-b may already have taken it; if not, it is released as client-go leaves it.
    if (released && released.holderIdentity !== 'node-b') {
      expect(released.holderIdentity ?? '').toBe('');
      expect(released.leaseDurationSeconds).toBe(1);
    }
    await waitFor(() => b.startedAt, 'node-b to lead', 3000);
    expect(b.startedAt! - abortedAt).toBeLessThan(1000); // ≤ one jittered retry (440 ms) plus requests
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
    const { e, a, b } = await twoCandidates();
    const faultAt = Date.now();
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 1, code: 500 });
    await waitFor(() => a.stoppedAt, 'node-a to stop leading', 3000);
    const after = a.stoppedAt! - faultAt;
    // The last good renewal was at most one retry (200 ms) before the fault; the deadline is 1 s.
    expect(after).toBeGreaterThan(700);
    expect(after).toBeLessThan(1200);
    expect(a.leadSignal?.aborted).toBe(true);
    expect(a.errors.some((x) => x.code === 500 && x.during === 'renew')).toBe(true);
    await waitFor(() => a.resolved, 'runLeaderElection of node-a to resolve', 2000);
    expect(b.starts).toBe(0); // updates fail for everybody
    e.sb.faults.clear();
    await waitFor(() => b.startedAt, 'node-b to take the expired lease', 4000);
    expect((await readLease(e)).holderIdentity).toBe('node-b');
  });

  it('stops at the deadline even while a renewal hangs', async () => {
    const { e, a } = await twoCandidates();
    const faultAt = Date.now();
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 0, code: 500, latencyMs: 2500 });
    await waitFor(() => a.stoppedAt, 'node-a to stop leading', 2500);
    expect(a.stoppedAt! - faultAt).toBeLessThan(1200);
    // The release is bounded by the renew deadline too.
    await waitFor(() => a.resolved, 'runLeaderElection of node-a to resolve', 1500);
    // The aborted renewal is not an error; the release that timed out is.
    expect(a.errors.filter((x) => x.during !== 'acquire')).toEqual([{ code: 0, during: 'release' }]);
    e.sb.faults.clear();
  });

  it('rides out conflicts and server errors shorter than the renew deadline', async () => {
    const { e, a, b } = await twoCandidates();
    e.sb.faults.set({ verb: 'update', resource: 'leases', errorRate: 1, code: 409, count: 2 });
    e.sb.faults.set({ verb: 'get', resource: 'leases', errorRate: 1, code: 500, count: 1 });
    await waitFor(() => a.errors.filter((x) => x.code === 409).length >= 2, 'node-a to meet two conflicts', 3000);
    const before = await readLease(e);
    await sleep(1200);
    const after = await readLease(e);
    expect(a.stops).toBe(0);
    expect(b.starts).toBe(0);
    expect(after.holderIdentity).toBe('node-a');
    expect(Date.parse(String(after.renewTime))).toBeGreaterThan(Date.parse(String(before.renewTime)));
    expect(after.leaseTransitions).toBe(0);
  });

  it('stops at once when somebody else has written the lease', async () => {
    const { e, a } = await twoCandidates();
    const lease = await e.coord.readNamespacedLease({ namespace: NS, name: NAME });
    lease.spec = { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 30 };
    await e.coord.replaceNamespacedLease({ namespace: NS, name: NAME, body: lease });
    const wroteAt = Date.now();
    await waitFor(() => a.stoppedAt, 'node-a to stop leading', 2000);
    expect(a.stoppedAt! - wroteAt).toBeLessThan(700); // the next renewal, not the 1 s deadline
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
          spec: { holderIdentity: 'gone', leaseDurationSeconds: 1, acquireTime: '2020-01-01T00:00:00.000000Z', renewTime: '2020-01-01T00:00:00.000000Z', leaseTransitions: 5 },
        },
      ],
    });
    const began = Date.now();
    const c = candidate(env, 'node-a', new Tracker());
    await waitFor(() => c.startedAt, 'node-a to lead', 4000);
    // renewTime is six years old, but expiry counts from when node-a first read the record.
    expect(c.startedAt! - began).toBeGreaterThanOrEqual(1000);
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
    await expect(runLeaderElection({ ...base, leaseDurationMs: 1000, renewDeadlineMs: 1000 }, signal)).rejects.toThrow(/leaseDurationMs must be greater than renewDeadlineMs/);
    await expect(runLeaderElection({ ...base, renewDeadlineMs: 2000, retryPeriodMs: 2000 }, signal)).rejects.toThrow(/renewDeadlineMs must be greater than retryPeriodMs\*1.2/);
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
