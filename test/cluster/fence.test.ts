// The leader-election write fence: no write of a leading instance leaves once
// now - (start of the last successful renewal) >= renewDeadline by its own clock, even when no
// timer has fired yet (a process resumed after SIGSTOP); leading stopping cancels what is queued
// behind the rate limiter or in flight; the sync treats a refused write as "stop", not as a failure.
// Clocks are fake: a JumpClock moves `now()` without running any timer, as a frozen process
// finds the time on waking.
import { afterEach, describe, expect, it } from 'vitest';
import { KubeControllerAPI } from '../../src/cluster/controller-api.js';
import { LeaseFence, runLeaderElection } from '../../src/cluster/lease.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { namespaceOf } from '../../src/core/controller.js';
import { TokenBucket } from '../../src/runtime/rate-limiter.js';
import type { ControllerKind, Labels, Pod, ReplicaSet, ControllerObject } from '../../src/core/types.js';
import { defaultBehaviour } from '../../src/core/versions.js';
import { ApiError, FencedError, type ActionOutcome, type ControllerAPI, type WriteFence } from '../../src/runtime/api.js';
import { ReplicaSetController, type Listers } from '../../src/controller/controller.js';
import { WRITE_VERBS } from '../../src/sandbox/audit.js';
import { startRunEnv, waitFor, type RunEnv } from './run-env.js';

/** A fake clock whose now() can jump ahead while no timer runs (a process frozen, then resumed). */
class JumpClock extends FakeClock {
  skew = 0;
  override now(): number {
    return super.now() + this.skew;
  }
}

let env: RunEnv | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});

const labels: Labels = { app: 'web' };
function rs(replicas: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1' }] } },
    },
  } as ReplicaSet;
}

const quiet = () => {
  const errors: string[] = [];
  return { errors, log: { info() {}, error: (m: string) => void errors.push(m), v: () => ({ info() {} }) } };
};

/** Listers over fixed objects (the sync reads nothing else). */
function listers(controllers: ControllerObject[], pods: Pod[] = []): Listers {
  return {
    pods: {
      inNamespace: (ns) => pods.filter((p) => namespaceOf(p) === ns),
      controlledBy: (uid) => pods.filter((p) => p.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid)),
      orphans: () => [],
      withLabel: () => [],
    },
    controllers: {
      get: (ns, name) => controllers.find((c) => namespaceOf(c) === ns && c.metadata.name === name),
      inNamespace: (ns) => controllers.filter((c) => namespaceOf(c) === ns),
      all: () => controllers,
      ownedBy: () => [],
    },
  };
}

const writes = (e: RunEnv, from = 0) =>
  e.sb
    .audit()
    .slice(from)
    .filter((x) => WRITE_VERBS.has(x.verb));

describe('LeaseFence', () => {
  it('refuses once now - lastRenew reaches the renew deadline, with no timer involved', () => {
    const clock = new FakeClock(10_000);
    let expired = 0;
    const fence = new LeaseFence(clock, 1000, clock.now(), () => expired++);
    clock.advance(999);
    expect(() => fence.check()).not.toThrow();
    fence.renewed(10_500); // a renewal that started at 10 500 succeeded
    clock.advance(500); // 11 499: 999 ms after that renewal
    expect(() => fence.check()).not.toThrow();
    clock.advance(1); // 11 500: the deadline, by the clock read now
    expect(() => fence.check()).toThrow(FencedError);
    expect(expired).toBe(1);
    expect(fence.signal.aborted).toBe(true);
    // The term is over: later checks refuse without ending it again, and renewals do not revive it.
    fence.renewed(clock.now());
    expect(() => fence.check()).toThrow(FencedError);
    expect(expired).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('ends when leading stops, whatever the clock says', () => {
    const clock = new FakeClock(0);
    const fence = new LeaseFence(clock, 1000, 0);
    fence.end(new Error('another instance holds the lease'));
    expect(fence.signal.aborted).toBe(true);
    expect(() => fence.check()).toThrow(/not leading \(another instance holds the lease\)/);
  });
});

describe('runLeaderElection with a frozen clock', () => {
  /** node-a's election on the test sandbox: lease 1.5 s, renew deadline 1 s, retry 200 ms, on `clock`. */
  const electionOf = (e: NonNullable<typeof env>, clock: JumpClock) => ({
    conn: e.conn,
    namespace: 'kube-system',
    name: 'rs-reconcile',
    identity: 'node-a',
    leaseDurationMs: 1500,
    renewDeadlineMs: 1000,
    retryPeriodMs: 200,
    clock,
  });

  it('a write past the renew deadline stops leading before any timer ran; no renewal or release is sent', async () => {
    env = await startRunEnv();
    const clock = new JumpClock(0);
    let fence: WriteFence | null = null;
    let leadSignal: AbortSignal | null = null;
    let stops = 0;
    const ac = new AbortController();
    const done = runLeaderElection(
      {
        ...electionOf(env, clock),
        onStartedLeading: (signal, f) => {
          leadSignal = signal;
          fence = f;
        },
        onStoppedLeading: () => stops++,
      },
      ac.signal,
    );
    const f = await waitFor(() => fence, 'node-a to lead');
    expect(() => f.check()).not.toThrow();
    const mark = env.sb.audit().length;

    clock.skew = 1000; // frozen for the renew deadline: on waking, no timer has run yet
    expect(() => f.check()).toThrow(FencedError);
    expect(stops).toBe(1); // leading stopped there and then
    expect(leadSignal!.aborted).toBe(true);
    expect(f.signal).toBe(leadSignal);

    await done; // the renew loop ends on the aborted term, without a timer
    expect(stops).toBe(1);
    expect(writes(env, mark)).toEqual([]); // neither a renewal nor a release
    expect((await env.coord.readNamespacedLease({ namespace: 'kube-system', name: 'rs-reconcile' })).spec!.holderIdentity).toBe('node-a');
  });

  it('a renewal found past the deadline when its retry timer fires is not sent', async () => {
    env = await startRunEnv();
    const clock = new JumpClock(0);
    let stops = 0;
    let leading = false;
    const done = runLeaderElection(
      {
        ...electionOf(env, clock),
        onStartedLeading: () => (leading = true),
        onStoppedLeading: () => stops++,
      },
      new AbortController().signal,
    );
    await waitFor(() => leading, 'node-a to lead');
    const mark = env.sb.audit().length;
    clock.skew = 5000; // frozen well past the deadline
    clock.advance(200); // the retry timer runs first (the deadline timer is due later by the fake timeline)
    await done;
    expect(stops).toBe(1);
    expect(env.sb.audit().slice(mark)).toEqual([]); // not even a read: the term was over on waking
  });
});

describe('KubeControllerAPI behind a fence', () => {
  it('sends writes while the lease is held, refuses every kind of write after, reaching no server', async () => {
    env = await startRunEnv({ seed: [rs(1)] });
    const clock = new FakeClock(0);
    const fence = new LeaseFence(clock, 1000, 0);
    const api = new KubeControllerAPI(env.conn.kc, { fence, userAgent: 'rs-reconcile-test replicaset-controller/node-a' });
    const c = await api.getController('ReplicaSet', 'default', 'web');
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'web-', namespace: 'default', labels },
      spec: { containers: [{ name: 'app', image: 'x' }] },
    } as Pod;
    const created = await api.createPod('default', pod);
    await api.recordEvent({ ...(c as ReplicaSet), kind: 'ReplicaSet', metadata: c.metadata } as never, 'Normal', 'SuccessfulCreate', 'Created pod');
    const sent = writes(env);
    expect(sent.map((x) => `${x.verb} ${x.resource} ${x.code}`)).toEqual(['create pods 201', 'create events 201']);
    expect(sent.every((x) => x.userAgent === 'rs-reconcile-test replicaset-controller/node-a')).toBe(true);

    clock.advance(1000); // the renew deadline; nothing else happens
    const mark = env.sb.audit().length;
    await expect(api.createPod('default', pod)).rejects.toBeInstanceOf(FencedError);
    await expect(api.deletePod('default', created.metadata.name)).rejects.toBeInstanceOf(FencedError);
    await expect(api.patchPod('default', created.metadata.name, { metadata: { labels: { x: 'y' } } })).rejects.toBeInstanceOf(FencedError);
    await expect(api.updateControllerStatus('ReplicaSet', { ...c, status: { replicas: 1 } } as ControllerObject)).rejects.toBeInstanceOf(FencedError);
    await api.recordEvent({ ...(c as ReplicaSet), kind: 'ReplicaSet' } as never, 'Normal', 'SuccessfulDelete', 'Deleted pod'); // never rejects
    await api.flush();
    expect(env.sb.audit().slice(mark)).toEqual([]);
  });

  it('a request in flight when leading stops is cut short', async () => {
    env = await startRunEnv();
    const clock = new FakeClock(0);
    const fence = new LeaseFence(clock, 1000, 0);
    const api = new KubeControllerAPI(env.conn.kc, { fence });
    env.sb.faults.set({ verb: 'create', resource: 'pods', errorRate: 0, code: 500, latencyMs: 120_000 });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'web-', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'x' }] },
    } as Pod;
    const pending = api.createPod('default', pod);
    let settled = false;
    void pending.catch(() => undefined).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50)); // let the request leave
    expect(settled).toBe(false);
    fence.end(new Error('leader election: failed to renew the lease within 1000ms'));
    // Settles although the server would answer only in two minutes (past this test's timeout).
    await expect(pending).rejects.toThrow(/not leading \(leader election: failed to renew/);
    env.sb.faults.clear();
  });
});

describe('the sync behind a fence', () => {
  async function slowScaleUp() {
    env = await startRunEnv({ seed: [rs(7)] });
    const clock = new JumpClock(0);
    let stops = 0;
    const fence = new LeaseFence(clock, 1000, 0, () => stops++);
    // One request per second, burst 1: the slow start's creates queue behind the limiter.
    const api = new KubeControllerAPI(env.conn.kc, { fence, limiter: new TokenBucket(clock, 1, 1), clock });
    const obj = await new KubeControllerAPI(env.conn.kc).getController('ReplicaSet', 'default', 'web');
    const { errors, log } = quiet();
    const actions: ActionOutcome[] = [];
    const ctrl = new ReplicaSetController({
      kind: 'ReplicaSet',
      listers: listers([obj]),
      api,
      behaviour: defaultBehaviour(),
      burstReplicas: 500,
      clock,
      log,
      onAction: (_k, a) => actions.push(a),
    });
    const e = env;
    const sync = ctrl.syncKey('default/web');
    // The first batch (one create) went out at once; the next ones wait for tokens.
    await waitFor(() => e.sb.audit().some((x) => x.verb === 'create' && x.resource === 'pods' && x.code === 201), 'the first create');
    await waitFor(() => clock.pending() >= 3, 'the event and the second batch to queue behind the limiter');
    return { e, clock, fence, sync, errors, actions, stops: () => stops };
  }

  const creates = (e: RunEnv) => e.sb.audit().filter((x) => x.verb === 'create' && x.resource === 'pods').length;

  it('leading stops: the creates and the event queued behind the rate limiter are cancelled at once', async () => {
    const { e, clock, fence, sync, errors, actions } = await slowScaleUp();
    fence.end(new Error('leader election: failed to renew the lease within 1000ms'));
    const err = await sync; // without moving the clock: the waits were aborted
    expect(err).toBeInstanceOf(FencedError);
    expect(clock.pending()).toBe(0);
    clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(creates(e)).toBe(1);
    expect(writes(e).map((x) => x.resource)).toEqual(['pods']); // no event, no status write
    expect(actions.filter((a) => !a.ok)).toEqual([]); // a refused write is not a failed action
    expect(errors).toEqual([]);
  });

  it('the deadline passes while creates wait: refused when their wait ends, before any timer of the election', async () => {
    const { e, clock, sync, errors, actions, stops } = await slowScaleUp();
    clock.skew = 1000; // frozen for the renew deadline
    clock.advance(5000); // the limiter's waits end first
    const err = await sync;
    expect(err).toBeInstanceOf(FencedError);
    expect(stops()).toBe(1); // the first refused write ended the term (once)
    expect(creates(e)).toBe(1);
    expect(writes(e).map((x) => x.resource)).toEqual(['pods']);
    expect(actions.filter((a) => !a.ok)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the controller and a refused write', () => {
  /** An API whose writes are all refused by the fence. */
  class Fenced implements ControllerAPI {
    calls: string[] = [];
    private refuse(what: string): never {
      this.calls.push(what);
      throw new FencedError('write refused: not leading');
    }
    async createPod(): Promise<Pod> {
      return this.refuse('create');
    }
    async deletePod(_ns: string, name: string): Promise<void> {
      this.refuse(`delete ${name}`);
    }
    async patchPod(_ns: string, name: string): Promise<void> {
      this.refuse(`patch ${name}`);
    }
    async getController(_k: ControllerKind, _ns: string, name: string): Promise<ControllerObject> {
      this.calls.push(`get ${name}`);
      throw new ApiError('unexpected', 500, 'InternalError');
    }
    async updateControllerStatus(): Promise<ControllerObject> {
      return this.refuse('status');
    }
    async recordEvent(_c: unknown, _t: string, reason: string): Promise<void> {
      this.calls.push(`event ${reason}`);
    }
  }

  const owned = (name: string, owner: ReplicaSet): Pod =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `uid-${name}`,
        labels,
        creationTimestamp: '2025-12-01T00:00:00Z',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: owner.metadata.uid, controller: true }],
      },
      spec: { nodeName: 'n1' },
      status: { phase: 'Running' },
    }) as Pod;

  function controller(api: ControllerAPI, objs: ControllerObject[], pods: Pod[] = []) {
    const { errors, log } = quiet();
    const actions: ActionOutcome[] = [];
    const ctrl = new ReplicaSetController({
      kind: 'ReplicaSet',
      listers: listers(objs, pods),
      api,
      behaviour: defaultBehaviour(),
      burstReplicas: 500,
      clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')),
      log,
      onAction: (_k, a) => actions.push(a),
    });
    return { ctrl, errors, actions };
  }

  const withUid = (r: ReplicaSet): ReplicaSet => ({
    ...r,
    metadata: { ...r.metadata, uid: 'uid-web', generation: 1, resourceVersion: '1' },
    status: { replicas: 0 },
  });

  it('a refused create ends the sync: no more creates, no FailedCreate event, no status write', async () => {
    const api = new Fenced();
    const { ctrl, actions } = controller(api, [withUid(rs(5))]);
    const err = await ctrl.syncKey('default/web');
    expect(err).toBeInstanceOf(FencedError);
    expect(api.calls).toEqual(['create']); // the slow start's first batch failed: nothing after it
    expect(actions).toEqual([]);
  });

  it('a refused delete or status write ends the sync the same way', async () => {
    const owner = withUid(rs(1));
    const api = new Fenced();
    const { ctrl, actions } = controller(api, [owner], [owned('a', owner), owned('b', owner)]);
    expect(await ctrl.syncKey('default/web')).toBeInstanceOf(FencedError);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]).toMatch(/^delete [ab]$/);
    expect(actions).toEqual([]);

    const api2 = new Fenced();
    const synced = controller(api2, [withUid(rs(2))], [owned('a', owner), owned('b', owner)]);
    expect(await synced.ctrl.syncKey('default/web')).toBeInstanceOf(FencedError);
    expect(api2.calls).toEqual(['status']); // no GET-and-retry of a refused status write
    expect(synced.actions).toEqual([]);
  });

  it('the worker drops the key: not retried, nothing logged per key', async () => {
    const api = new Fenced();
    const { ctrl, errors } = controller(api, [withUid(rs(3))]);
    const ac = new AbortController();
    const run = ctrl.run(2, ac.signal);
    ctrl.queue.add('default/web');
    await waitFor(() => api.calls.length > 0 && !ctrl.busy(), 'the sync to end');
    expect(ctrl.queue.numRequeues('default/web')).toBe(0);
    expect(ctrl.queue.len()).toBe(0);
    expect(errors).toEqual([]);
    ac.abort();
    await run;
    expect(api.calls).toEqual(['create']);
  });
});
