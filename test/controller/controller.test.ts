// The controller loop in the style of sample-controller's tests: preload caches, run one sync,
// compare the recorded API actions. The ControllerAPI here is an in-memory recorder (our own
// interface, not the Kubernetes client: the client is exercised over HTTP elsewhere).
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { namespaceOf } from '../../src/core/controller.js';
import { controllerRef } from '../../src/core/pod.js';
import type { Controller, ControllerKind, Pod, ReplicaSet, ControllerObject } from '../../src/core/types.js';
import { behaviourFor, defaultBehaviour, type Behaviour } from '../../src/core/versions.js';
import { ApiError, type ControllerAPI } from '../../src/runtime/api.js';
import { ReplicaSetController, type Listers } from '../../src/controller/controller.js';
import type { ActionOutcome } from '../../src/runtime/api.js';
import { actionLogLine } from '../../src/services/run-service.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };

function rs(name: string, replicas: number, extra: Partial<ReplicaSet['metadata']> = {}, minReadySeconds = 0): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, generation: 1, resourceVersion: '1', ...extra },
    spec: {
      replicas,
      minReadySeconds,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c' }] } },
    },
    status: { replicas: 0, observedGeneration: 1 },
  };
}

let podSeq = 0;
function pod(name: string, owner: ReplicaSet | null, labels: Record<string, string>, ready = true, rv = '1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `pod-uid-${name}-${podSeq++}`,
      resourceVersion: rv,
      creationTimestamp: '2025-12-01T00:00:00Z',
      labels,
      ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }] : [],
    },
    spec: { nodeName: 'n1' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2025-12-01T00:01:00Z' }] },
  };
}

class World implements ControllerAPI {
  controllers = new Map<string, ControllerObject>();
  pods = new Map<string, Pod>();
  actions: string[] = [];
  failCreates = false;
  created = 0;

  listers(): Listers {
    return {
      pods: {
        inNamespace: (ns) => [...this.pods.values()].filter((p) => namespaceOf(p) === ns),
        controlledBy: (uid) => [...this.pods.values()].filter((p) => controllerRef(p)?.uid === uid),
        orphans: (ns) => [...this.pods.values()].filter((p) => namespaceOf(p) === ns && !controllerRef(p)),
        withLabel: (ns, k, v) => [...this.pods.values()].filter((p) => namespaceOf(p) === ns && p.metadata.labels?.[k] === v),
      },
      controllers: {
        get: (ns, name) => this.controllers.get(`${ns}/${name}`),
        inNamespace: (ns) => [...this.controllers.values()].filter((c) => namespaceOf(c) === ns),
        all: () => [...this.controllers.values()],
        ownedBy: (uid) => [...this.controllers.values()].filter((c) => controllerRef(c)?.uid === uid),
      },
    };
  }
  add(...objs: (ControllerObject | Pod)[]) {
    for (const o of objs) (o.kind === 'Pod' ? this.pods : this.controllers).set(`${namespaceOf(o)}/${o.metadata.name}`, o as never);
  }
  async createPod(_ns: string, p: Pod): Promise<Pod> {
    this.actions.push(`create ${p.metadata.generateName}`);
    if (this.failCreates) throw new ApiError('boom', 500, 'InternalError');
    return { ...p, metadata: { ...p.metadata, name: `${p.metadata.generateName}${this.created++}`, uid: `new-${this.created}` } };
  }
  async deletePod(_ns: string, name: string): Promise<void> {
    this.actions.push(`delete ${name}`);
  }
  async patchPod(_ns: string, name: string, patch: object): Promise<void> {
    this.actions.push(`patch ${name} ${JSON.stringify(patch)}`);
  }
  async getController(_kind: ControllerKind, ns: string, name: string): Promise<ControllerObject> {
    this.actions.push(`get ${name}`);
    const c = this.controllers.get(`${ns}/${name}`);
    if (!c) throw new ApiError('not found', 404, 'NotFound');
    return c;
  }
  async updateControllerStatus(_kind: ControllerKind, obj: ControllerObject): Promise<ControllerObject> {
    this.actions.push(`status ${obj.metadata.name} replicas=${obj.status?.replicas}`);
    return obj;
  }
  async recordEvent(_c: Controller, _type: string, reason: string): Promise<void> {
    this.actions.push(`event ${reason}`);
  }
}

function setup(world: World, behaviour: Behaviour = defaultBehaviour()) {
  const clock = new FakeClock(NOW);
  const ctrl = new ReplicaSetController({ kind: 'ReplicaSet', listers: world.listers(), api: world, behaviour, burstReplicas: 500, clock, log: quiet });
  return { clock, ctrl };
}

describe('syncReplicaSet through the controller', () => {
  it('creates the missing pods and expects them (TestSyncReplicaSetCreateFailures-style)', async () => {
    const w = new World();
    w.add(rs('foo', 3));
    const { ctrl } = setup(w);
    expect(await ctrl.syncKey('default/foo')).toBeNull();
    expect(w.actions.filter((a) => a.startsWith('create'))).toEqual(['create foo-', 'create foo-', 'create foo-']);
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(false);
    // status counts the pods before this sync's creates (pitfall 1)
    expect(w.actions).toContain('status foo replicas=0');
  });

  it('dormancy: while creations are expected, a sync creates nothing but still writes status', async () => {
    const w = new World();
    w.add(rs('foo', 2));
    const { ctrl } = setup(w);
    await ctrl.syncKey('default/foo');
    w.actions = [];
    const r = rs('foo', 2);
    r.metadata.generation = 2;
    w.add(r);
    await ctrl.syncKey('default/foo');
    expect(w.actions.filter((a) => a.startsWith('create'))).toEqual([]);
    expect(w.actions.some((a) => a.startsWith('status'))).toBe(true);
  });

  it('observed creations satisfy the expectations, then it manages again', async () => {
    const w = new World();
    const foo = rs('foo', 2);
    w.add(foo);
    const { ctrl } = setup(w);
    await ctrl.syncKey('default/foo');
    const p1 = pod('foo-a', foo, { app: 'foo' });
    const p2 = pod('foo-b', foo, { app: 'foo' });
    w.add(p1, p2);
    ctrl.addPod(p1);
    ctrl.addPod(p2);
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(true);
    expect(ctrl.queue.len()).toBe(1); // two events, one key (dedup)
  });

  it('expectations expire after 5 minutes', async () => {
    const w = new World();
    w.add(rs('foo', 2));
    const { ctrl, clock } = setup(w);
    await ctrl.syncKey('default/foo');
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(false);
    clock.advance(5 * 60 * 1000 + 1);
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(true);
  });

  it('a failed create stops slow start, lowers the expectations for the skipped pods, and returns the error', async () => {
    const w = new World();
    w.add(rs('foo', 10));
    w.failCreates = true;
    const { ctrl } = setup(w);
    const err = await ctrl.syncKey('default/foo');
    expect(err?.message).toBe('boom');
    expect(w.actions.filter((a) => a.startsWith('create'))).toHaveLength(1);
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(true);
    expect(w.actions).toContain('event FailedCreate');
  });

  it('deletions are tracked by pod key and observed once (TestDeletionTimestamp)', async () => {
    const w = new World();
    const foo = rs('foo', 1);
    const a = pod('foo-a', foo, { app: 'foo' });
    const b = pod('foo-b', foo, { app: 'foo' }, false);
    w.add(foo, a, b);
    const { ctrl } = setup(w);
    await ctrl.syncKey('default/foo');
    expect(w.actions).toContain('delete foo-b'); // not ready goes first
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(false);
    const terminating = { ...b, metadata: { ...b.metadata, deletionTimestamp: '2026-01-01T00:00:01Z', resourceVersion: '2' } };
    ctrl.updatePod(b, terminating);
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(true);
    ctrl.deletePod(terminating); // the real delete later: observed once only
    expect(ctrl.expectations.getExpectations('default/foo')?.del).toBe(0);
  });

  it('a deleted controller drops its expectations; a tombstone still wakes the owner', async () => {
    const w = new World();
    const foo = rs('foo', 1);
    const a = pod('foo-a', foo, { app: 'foo' });
    w.add(foo, a);
    const { ctrl } = setup(w);
    ctrl.expectations.expectDeletions('default/foo', ['default/foo-a']);
    ctrl.deletePod({ tombstone: true, key: 'default/foo-a', obj: a });
    expect(ctrl.expectations.satisfiedExpectations('default/foo')).toBe(true);
    expect(ctrl.queue.len()).toBe(1);
    w.controllers.clear();
    expect(await ctrl.syncKey('default/foo')).toBeNull();
    expect(ctrl.expectations.getExpectations('default/foo')).toBeUndefined();
  });

  it("logs upstream's clobbering of expected deletions with the controller's key and the keys it drops", () => {
    const errors: { msg: string; fields?: Record<string, unknown> }[] = [];
    const log = { ...quiet, error: (msg: string, fields?: Record<string, unknown>) => errors.push({ msg, fields }) };
    const ctrl = new ReplicaSetController({
      kind: 'ReplicaSet',
      listers: new World().listers(),
      api: new World(),
      behaviour: defaultBehaviour(),
      burstReplicas: 500,
      clock: new FakeClock(NOW),
      log,
    });
    ctrl.expectations.expectDeletions('default/foo', ['default/foo-b', 'default/foo-a']);
    expect(errors).toEqual([]);
    ctrl.expectations.expectDeletions('default/foo', ['default/foo-c']);
    expect(errors).toEqual([{ msg: 'Clobbering existing delete keys', fields: { key: 'default/foo', existing: ['default/foo-a', 'default/foo-b'] } }]);
  });

  it('routes orphan pods to every matching controller and ignores resyncs', () => {
    const w = new World();
    const foo = rs('foo', 1);
    w.add(foo);
    const { ctrl } = setup(w);
    const orphan = pod('stray', null, { app: 'foo' });
    ctrl.addPod(orphan);
    expect(ctrl.queue.len()).toBe(1);
    const unlabelled = pod('bare', null, {});
    const { ctrl: c2 } = setup(w);
    c2.addPod(unlabelled);
    expect(c2.queue.len()).toBe(0);
    c2.updatePod(orphan, orphan); // same resourceVersion: a resync, ignored
    expect(c2.queue.len()).toBe(0);
  });

  // updatePod in pkg/controller/replicaset/replica_set.go: up to release-1.33 a pod turning ready
  // enqueues its ReplicaSet after (MinReadySeconds)*time.Second + time.Second ("Add a second to
  // avoid milliseconds skew in AddAfter"); from release-1.34 (the availability requeue of PR
  // #132121) after MinReadySeconds exactly.
  async function readyRequeueAt(minor: number, minReadySeconds: number): Promise<number> {
    const w = new World();
    const foo = rs('foo', 1, {}, minReadySeconds);
    w.add(foo);
    const { ctrl, clock } = setup(w, behaviourFor(minor).behaviour);
    ctrl.updatePod(pod('foo-a', foo, { app: 'foo' }, false, '1'), pod('foo-a', foo, { app: 'foo' }, true, '2'));
    expect(ctrl.queue.len()).toBe(1); // the plain enqueue of every owned pod update
    const first = await ctrl.queue.get();
    if (!first.shutdown) ctrl.queue.done(first.item);
    let waited = 0;
    while (ctrl.queue.len() === 0 && waited < 60_000) {
      clock.advance(1);
      waited++;
    }
    return waited;
  }

  it('a pod turning ready re-enqueues after minReadySeconds + 1 s up to 1.33', async () => {
    expect(await readyRequeueAt(33, 10)).toBe(11_000);
    expect(await readyRequeueAt(24, 3)).toBe(4_000);
  });

  it('a pod turning ready re-enqueues after exactly minReadySeconds from 1.34', async () => {
    expect(await readyRequeueAt(34, 10)).toBe(10_000);
    expect(await readyRequeueAt(35, 3)).toBe(3_000);
  });

  it('a failing adopt aborts the sync: no create, no status', async () => {
    const w = new World();
    const foo = rs('foo', 3);
    w.add(foo, pod('stray', null, { app: 'foo' }));
    w.controllers.set('default/foo', { ...foo, metadata: { ...foo.metadata } });
    const { ctrl } = setup(w);
    // the uncached GET returns a different uid: the original is gone
    w.getController = async () => ({ ...foo, metadata: { ...foo.metadata, uid: 'other' } });
    const err = await ctrl.syncKey('default/foo');
    expect(err?.message).toMatch(/is gone: got uid other, wanted uid-foo/);
    expect(w.actions.filter((a) => a.startsWith('create') || a.startsWith('status'))).toEqual([]);
  });

  it('ranks by colocation with pods of sibling ReplicaSets (same owner), found through the indexes', async () => {
    const w = new World();
    const owner = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'dep-1', controller: true }];
    const a = rs('a', 1, { ownerReferences: owner });
    const b = rs('b', 1, { ownerReferences: owner });
    const a1 = pod('a-1', a, { app: 'a' });
    a1.spec = { nodeName: 'n2' };
    const a2 = pod('a-2', a, { app: 'a' }); // on n1, like b-1: without the sibling, a-1 would go (tie, first)
    const b1 = pod('b-1', b, { app: 'b' });
    w.add(a, b, a1, a2, b1);
    const { ctrl } = setup(w);
    await ctrl.syncKey('default/a');
    expect(w.actions.filter((x) => x.startsWith('delete'))).toEqual(['delete a-2']);
  });

  it('workers process keys and stop on shutdown', async () => {
    const w = new World();
    w.add(rs('foo', 1), rs('bar', 1));
    const { ctrl } = setup(w);
    const ac = new AbortController();
    const done = ctrl.run(2, ac.signal);
    ctrl.addController(w.controllers.get('default/foo')!);
    ctrl.addController(w.controllers.get('default/bar')!);
    for (let i = 0; i < 50 && w.actions.filter((a) => a.startsWith('create')).length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    await done;
    expect(w.actions.filter((a) => a.startsWith('create')).sort()).toEqual(['create bar-', 'create foo-']);
  });
});

describe('the reason of a delete', () => {
  it("each delete carries the ranking reason of the sync's decision, and the run log says it", async () => {
    const w = new World();
    const foo = rs('foo', 1);
    w.add(foo, pod('foo-a', foo, { app: 'foo' }), pod('foo-b', foo, { app: 'foo' }, false));
    const actions: ActionOutcome[] = [];
    const ctrl = new ReplicaSetController({
      kind: 'ReplicaSet',
      listers: w.listers(),
      api: w,
      behaviour: defaultBehaviour(),
      burstReplicas: 500,
      clock: new FakeClock(NOW),
      log: quiet,
      onAction: (_k, a) => actions.push(a),
    });
    await ctrl.syncKey('default/foo');
    const del = actions.find((a) => a.action === 'delete')!;
    expect(del.pod).toBe('foo-b');
    expect(del.reason).toEqual({
      code: 'NotReady',
      message: 'foo-b is not ready, while foo-a (the first pod that stays) is ready: pods that are not ready go first',
    });
    expect(actionLogLine('ReplicaSet', 'default/foo', del)).toBe(
      'ReplicaSet default/foo: delete pod foo-b (NotReady: foo-b is not ready, while foo-a (the first pod that stays) is ready: pods that are not ready go first)',
    );
    // other actions keep their short line
    expect(actionLogLine('ReplicaSet', 'default/foo', actions.find((a) => a.action === 'status')!)).toMatch(
      /^ReplicaSet default\/foo: update status \(replicas 2, ready 1, available 1\)$/,
    );
    expect(
      actionLogLine('ReplicaSet', 'default/foo', { action: 'delete', pod: 'x', ok: false, code: 500, error: 'boom', reason: { code: 'Tie', message: 'm' } }),
    ).toBe('ReplicaSet default/foo: delete pod x failed (Tie: m)');
  });
});

describe('allInSync (run --until-synced)', () => {
  it('is false while a minReadySeconds requeue waits, even when the plan is in sync now', async () => {
    const w = new World();
    const foo = rs('foo', 1, {}, 60);
    const p = pod('foo-a', foo, { app: 'foo' });
    // ready 30 s before NOW: not available until 30 s later
    p.status!.conditions![0].lastTransitionTime = '2025-12-31T23:59:30Z';
    // the status the sync computes at NOW, already written: nothing to write, a requeue to wait for
    foo.status = { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 0, observedGeneration: 1, terminatingReplicas: 0 };
    w.add(foo, p);
    const { ctrl, clock } = setup(w);
    expect(await ctrl.syncKey('default/foo')).toBeNull();
    expect(w.actions.filter((a) => a.startsWith('status'))).toEqual([]);
    expect(ctrl.queue.waiting()).toBe(1);
    expect(ctrl.allInSync()).toBe(false);
    // once due, the key is handed out again: the availability is re-checked
    clock.advance(30_000);
    expect(ctrl.queue.waiting()).toBe(0);
    expect(ctrl.queue.len()).toBe(1);
  });
});
