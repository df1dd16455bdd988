// Decide once: for random snapshots, what `run`'s sync does (ReplicaSetController.syncKey over
// its listers, writing through a recording ControllerAPI) is exactly what `diff` prints for the
// same state and the same `now` (planSnapshot over the whole snapshot): the same pods adopted and
// released, the same number created, the same pods deleted in the same order, the same status
// written (or none), the same requeue. The recorder is our own interface, not the Kubernetes
// client (the client is exercised over HTTPS in the integration tests).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { namespaceOf } from '../../src/core/controller.js';
import { planSnapshot } from '../../src/core/plan.js';
import type { Plan, PlanController } from '../../src/core/plan-types.js';
import { controllerRef } from '../../src/core/pod.js';
import type { Controller, ControllerKind, Labels, Pod, ReplicaSet, ReplicationController, Snapshot, ControllerObject } from '../../src/core/types.js';
import { behaviourFor } from '../../src/core/versions.js';
import type { ControllerAPI } from '../../src/runtime/api.js';
import { ReplicaSetController, type Listers } from '../../src/controller/controller.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };
const ago = (ms: number) => new Date(NOW - ms).toISOString().replace(/\.000Z$/, 'Z');
const TIMES = [10_000, 60_000, 3_600_000, 86_400_000, 30 * 86_400_000];

interface Done {
  adopt: string[];
  release: string[];
  create: number;
  delete: string[];
  status: Record<string, unknown> | null;
}

/** Listers over a snapshot, and a ControllerAPI that records what each controller's sync sends. */
class Recorder implements ControllerAPI {
  done = new Map<string, Done>();
  private readonly byUid = new Map<string, string>();
  constructor(readonly snapshot: Snapshot) {
    for (const c of [...snapshot.controllers.ReplicaSet, ...snapshot.controllers.ReplicationController])
      this.byUid.set(c.metadata.uid, `${namespaceOf(c)}/${c.metadata.name}`);
  }
  of(key: string): Done {
    let d = this.done.get(key);
    if (!d) this.done.set(key, (d = { adopt: [], release: [], create: 0, delete: [], status: null }));
    return d;
  }
  current = '';
  listers(kind: ControllerKind): Listers {
    const pods = this.snapshot.pods;
    const ctrls: ControllerObject[] = kind === 'ReplicaSet' ? this.snapshot.controllers.ReplicaSet : this.snapshot.controllers.ReplicationController;
    return {
      pods: {
        inNamespace: (ns) => pods.filter((p) => namespaceOf(p) === ns),
        controlledBy: (uid) => pods.filter((p) => controllerRef(p)?.uid === uid),
        orphans: (ns) => pods.filter((p) => namespaceOf(p) === ns && !controllerRef(p)),
        withLabel: (ns, k, v) => pods.filter((p) => namespaceOf(p) === ns && p.metadata.labels?.[k] === v),
      },
      controllers: {
        get: (ns, name) => ctrls.find((c) => namespaceOf(c) === ns && c.metadata.name === name),
        inNamespace: (ns) => ctrls.filter((c) => namespaceOf(c) === ns),
        all: () => ctrls,
        ownedBy: (uid) => ctrls.filter((c) => controllerRef(c)?.uid === uid),
      },
    };
  }
  async createPod(_ns: string, p: Pod): Promise<Pod> {
    this.of(this.current).create++;
    return { ...p, metadata: { ...p.metadata, name: `${p.metadata.generateName}x`, uid: 'new' } };
  }
  async deletePod(_ns: string, name: string): Promise<void> {
    this.of(this.current).delete.push(name);
  }
  async patchPod(_ns: string, name: string, patch: { metadata?: { ownerReferences?: { $patch?: string }[] } }): Promise<void> {
    const release = patch.metadata?.ownerReferences?.[0]?.$patch === 'delete';
    this.of(this.current)[release ? 'release' : 'adopt'].push(name);
  }
  async getController(kind: ControllerKind, ns: string, name: string): Promise<ControllerObject> {
    return (kind === 'ReplicaSet' ? this.snapshot.controllers.ReplicaSet : this.snapshot.controllers.ReplicationController).find(
      (c) => namespaceOf(c) === ns && c.metadata.name === name,
    )!;
  }
  async updateControllerStatus(_kind: ControllerKind, obj: ControllerObject): Promise<ControllerObject> {
    this.of(this.current).status = obj.status as Record<string, unknown>;
    return obj;
  }
  async recordEvent(_c: Controller): Promise<void> {}
}

const labelArb: fc.Arbitrary<Labels> = fc.record({ app: fc.constantFrom('x', 'y'), tier: fc.constantFrom('1', '2') }, { requiredKeys: [] });

const worldArb = fc
  .record({
    rss: fc.array(
      fc.record({
        ns: fc.constantFrom('a', 'b'),
        owner: fc.constantFrom(undefined, 'd1', 'd2'),
        replicas: fc.integer({ min: 0, max: 5 }),
        selector: labelArb,
        template: labelArb,
        deleting: fc.integer({ min: 0, max: 9 }).map((n) => n < 1),
        minReady: fc.constantFrom(0, 0, 30, 600),
        generation: fc.integer({ min: 1, max: 2 }),
        statusReplicas: fc.integer({ min: 0, max: 3 }),
        failure: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    rcs: fc.array(fc.record({ ns: fc.constantFrom('a', 'b'), replicas: fc.integer({ min: 0, max: 3 }), selector: labelArb, template: labelArb }), {
      maxLength: 2,
    }),
    pods: fc.array(
      fc.record({
        ns: fc.constantFrom('a', 'b'),
        labels: labelArb,
        owner: fc.integer({ min: -2, max: 5 }), // <0: none or a ghost owner; else an index into the controllers
        node: fc.constantFrom('', 'n1', 'n1', 'n2', 'n3'),
        phase: fc.constantFrom('Running', 'Running', 'Running', 'Pending', 'Unknown', 'Succeeded', 'Failed'),
        deleting: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
        ready: fc.option(fc.boolean(), { nil: undefined }),
        readyIdx: fc.integer({ min: 0, max: TIMES.length - 1 }),
        createdIdx: fc.integer({ min: 0, max: TIMES.length - 1 }),
        cost: fc.constantFrom(undefined, undefined, undefined, '0', '5', '-5'),
        restarts: fc.constantFrom(0, 0, 1, 3),
      }),
      { maxLength: 14 },
    ),
  })
  .map(({ rss, rcs, pods }): Snapshot => {
    const replicaSets: ReplicaSet[] = rss.map((r, i) => {
      const o: ReplicaSet = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: `rs${i}`, namespace: r.ns, uid: `rs-${i}`, generation: r.generation, resourceVersion: '1' },
        spec: {
          replicas: r.replicas,
          minReadySeconds: r.minReady,
          selector: { matchLabels: { ...r.selector, app: r.selector.app ?? 'x' } },
          template: { metadata: { labels: { ...r.selector, ...r.template, app: r.selector.app ?? 'x' } }, spec: { containers: [{ name: 'c' }] } },
        },
        status: {
          replicas: r.statusReplicas,
          observedGeneration: 1,
          ...(r.failure
            ? { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: ago(60_000) }] }
            : {}),
        },
      };
      if (r.owner) o.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: r.owner, uid: r.owner, controller: true }];
      if (r.deleting) o.metadata.deletionTimestamp = ago(60_000);
      return o;
    });
    const replicationControllers: ReplicationController[] = rcs.map((r, i) => ({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: `rc${i}`, namespace: r.ns, uid: `rc-${i}`, generation: 1, resourceVersion: '1' },
      spec: {
        replicas: r.replicas,
        selector: { ...r.selector, tier: r.selector.tier ?? '1' },
        template: { metadata: { labels: { ...r.template, ...r.selector, tier: r.selector.tier ?? '1' } }, spec: { containers: [{ name: 'c' }] } },
      },
      status: { replicas: 0, observedGeneration: 1 },
    }));
    const owners = [...replicaSets, ...replicationControllers];
    const ps: Pod[] = pods.map((p, i) => {
      const conditions: NonNullable<Pod['status']>['conditions'] = [];
      if (p.ready !== undefined) conditions.push({ type: 'Ready', status: p.ready ? 'True' : 'False', lastTransitionTime: ago(TIMES[p.readyIdx]) });
      const o = owners[p.owner];
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `pod${String(i).padStart(2, '0')}`,
          namespace: p.ns,
          uid: `pod-${String(i).padStart(2, '0')}`,
          labels: p.labels,
          creationTimestamp: ago(TIMES[p.createdIdx]),
          resourceVersion: '1',
          ...(o && namespaceOf(o) === p.ns
            ? { ownerReferences: [{ apiVersion: o.apiVersion!, kind: o.kind!, name: o.metadata.name, uid: o.metadata.uid, controller: true }] }
            : {}),
          ...(p.owner === -1 ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'ghost', uid: 'ghost', controller: true }] } : {}),
          ...(p.deleting ? { deletionTimestamp: ago(1000) } : {}),
          ...(p.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': p.cost } } : {}),
        },
        spec: { nodeName: p.node || undefined, containers: [{ name: 'c' }] },
        status: { phase: p.phase, conditions, containerStatuses: [{ name: 'c', restartCount: p.restarts }] },
      };
      return pod;
    });
    return { controllers: { ReplicaSet: replicaSets, ReplicationController: replicationControllers }, pods: ps };
  });

/** What the plan says each controller's sync does, in the recorder's terms. */
function planned(e: PlanController): Done {
  return {
    adopt: e.pods.filter((p) => p.decision === 'adopt').map((p) => p.name),
    release: e.pods.filter((p) => p.decision === 'release').map((p) => p.name),
    create: e.create.count,
    delete: e.delete.map((d) => d.name),
    status: e.statusChanged ? wire(e.status) : null,
  };
}

/** The plan's status as the sync writes it (no empty conditions list). */
function wire(s: PlanController['status']): Record<string, unknown> {
  const { conditions, ...rest } = s;
  return conditions.length ? { ...rest, conditions } : rest;
}

async function runSyncs(snapshot: Snapshot, minor: number): Promise<{ plan: Plan; done: Map<string, Done>; requeues: Map<string, number | null> }> {
  const behaviour = behaviourFor(minor).behaviour;
  const plan = planSnapshot(snapshot, { now: NOW, behaviour, source: 'cluster' });
  const rec = new Recorder(snapshot);
  const requeues = new Map<string, number | null>();
  for (const kind of ['ReplicaSet', 'ReplicationController'] as const) {
    const ctrl = new ReplicaSetController({
      kind,
      listers: rec.listers(kind),
      api: rec,
      behaviour,
      burstReplicas: 500,
      clock: new FakeClock(NOW),
      log: quiet,
      onSync: (key, outcome) => requeues.set(`${kind}/${key}`, outcome.requeueAfterMs),
    });
    for (const c of kind === 'ReplicaSet' ? snapshot.controllers.ReplicaSet : snapshot.controllers.ReplicationController) {
      const key = `${namespaceOf(c)}/${c.metadata.name}`;
      rec.current = `${kind}/${key}`;
      rec.of(rec.current);
      await ctrl.syncKey(key);
    }
  }
  return { plan, done: rec.done, requeues };
}

describe('decide once: the sync carries out exactly the plan', () => {
  for (const minor of [24, 32, 35]) {
    it(`on random snapshots (${minor === 35 ? 'newest' : `1.${minor}`}), run's sync = diff's plan at the same now`, async () => {
      let acted = 0;
      await fc.assert(
        fc.asyncProperty(worldArb, async (snapshot) => {
          const { plan, done, requeues } = await runSyncs(snapshot, minor);
          for (const e of plan.controllers) {
            const key = `${e.kind}/${e.namespace}/${e.name}`;
            const got = done.get(key)!;
            expect({ key, ...got, adopt: [...got.adopt].sort(), release: [...got.release].sort() }).toEqual({ key, ...planned(e) });
            if (got.create || got.delete.length || got.adopt.length || got.release.length) acted++;
            const r = requeues.get(key);
            expect(r === undefined ? null : r).toBe(e.requeueAfterSeconds === null ? null : e.requeueAfterSeconds * 1000);
          }
        }),
        { numRuns: 250, seed: 20261125 + minor },
      );
      expect(acted).toBeGreaterThan(50); // the snapshots make controllers act, not only sit in sync
    });
  }
});
