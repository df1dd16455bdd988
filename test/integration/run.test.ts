// `run` against the embedded API server with its simulated scheduler and kubelet, over real HTTPS
// with the real client-node: convergence, adoption and release driven by label edits, scale
// down, deletion of the controller, leader election failover, and a bounded chaos soak.
import { CoordinationV1Api, type CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ForegroundOptions } from '../../src/services/run-foreground.js';
import { foregroundOptions, sandboxTests, until as untilIn } from './env.js';
import { planInSync, preparePlan } from '../../src/services/plan-service.js';

const t = sandboxTests('rs-run-');

const labels = { app: 'web' };
function rs(name: string, replicas: number, extra: object = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1' }] } },
    },
    ...extra,
  };
}

async function setup(seed: object[] = [], kubelet = { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 }) {
  const { kubeconfig, kc, core, apps } = await t.start({ nodes: 3, kubelet, seed });
  return { kubeconfig, core, apps, coord: kc.makeApiClient(CoordinationV1Api) };
}

/** The options of a `run` on the sandbox: fast rate limits and leases, verbose logs. */
function options(kubeconfig: string, extra: Partial<ForegroundOptions> = {}): ForegroundOptions {
  return {
    ...foregroundOptions(kubeconfig, {
      namespace: 'default',
      qps: 1000,
      burst: 1000,
      leaseDurationMs: 1500,
      renewDeadlineMs: 1000,
      retryPeriodMs: 200,
      verbosity: 2,
    }),
    ...extra,
  };
}

const until = <T>(what: string, fn: () => Promise<T | false | undefined | null>, ms = 15_000) => untilIn(what, fn, ms, 50);

const livePods = async (core: CoreV1Api) =>
  (await core.listNamespacedPod({ namespace: 'default' })).items.filter(
    (p) => !p.metadata!.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''),
  );

describe('run on the sandbox', () => {
  it('--until-synced: creates with slow start, writes status, exits 0 once in sync', async () => {
    const { kubeconfig, core, apps } = await setup([rs('web', 7)]);
    const code = await t.run(options(kubeconfig, { untilSynced: true })).done;
    expect(code).toBe(0);
    const pods = await livePods(core);
    expect(pods).toHaveLength(7);
    const created = t.sandbox.audit().filter((a) => a.verb === 'create' && a.resource === 'pods' && !a.subresource); // not the scheduler's bindings
    expect(created).toHaveLength(7); // expectations: never more creates than needed
    const status = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status!;
    expect(status).toMatchObject({ replicas: 7, readyReplicas: 7, availableReplicas: 7, observedGeneration: 1 });
  });

  it("--until-synced ends only when diff would exit 0: with the sandbox's own kubelet delays, the pods it created are ready and counted", async () => {
    // the `sandbox` command's delays: pods turn ready some hundred ms after their creation
    const { kubeconfig, apps } = await setup([rs('web', 8)], { scheduleDelayMs: 50, runDelayMs: 200, readyDelayMs: 200 });
    expect(await t.run(options(kubeconfig, { untilSynced: true })).done).toBe(0);
    const status = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status!;
    expect(status).toMatchObject({ replicas: 8, readyReplicas: 8, availableReplicas: 8 });
    const diff = await preparePlan({ namespace: 'default', connection: { kubeconfig } }, {}, [], { progress: { update() {}, done() {} } });
    expect(planInSync(diff.plan)).toBe(true);
  });

  it('--until-synced waits for the minReadySeconds requeue, as upstream: the status ends with the pods available', async () => {
    const { kubeconfig, apps } = await setup([{ ...rs('web', 3), spec: { ...rs('web', 3).spec, minReadySeconds: 1 } }]);
    expect(await t.run(options(kubeconfig, { untilSynced: true })).done).toBe(0);
    const status = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status!;
    expect(status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
  });

  it('--until-synced with pods that never turn ready: exit 1 at --timeout, naming them', async () => {
    const { kubeconfig } = await setup([rs('web', 2)], { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 3_600_000 });
    const { logs, done } = t.run(options(kubeconfig, { untilSynced: true, timeoutMs: 2000 }));
    expect(await done).toBe(1);
    expect(logs.join('')).toMatch(/not in sync after 2s: waiting for 2 pods it created not ready yet: default\/web-\w+, default\/web-\w+"/);
  });

  it('--until-synced when the status cannot be written: exit 1 at --timeout, saying what diff still sees', async () => {
    const { kubeconfig } = await setup([rs('web', 1)]);
    t.sandbox.faults.set({ verb: 'update', resource: 'replicasets/status', errorRate: 1, code: 500 });
    const { logs, done } = t.run(options(kubeconfig, { untilSynced: true, timeoutMs: 2000 }));
    expect(await done).toBe(1);
    expect(logs.join('')).toMatch(/not in sync after 2s; diff: ReplicaSet default\/web \(write its status\)"/);
  });

  it('a stop during start-up is not lost: stopped at once, or while it asks the server, it ends with 0 and creates nothing', async () => {
    const { kubeconfig, core } = await setup([rs('web', 3)]);
    const atOnce = t.run(options(kubeconfig));
    atOnce.stop.abort();
    expect(await atOnce.done).toBe(0);
    const soon = t.run(options(kubeconfig));
    await Promise.resolve();
    soon.stop.abort();
    expect(await soon.done).toBe(0);
    expect(await livePods(core)).toHaveLength(0);
  });

  it('adopts an orphan, releases a relabelled pod and replaces it; scales down; stops cleanly', async () => {
    const { kubeconfig, core, apps } = await setup([rs('web', 3)]);
    const { stop, logs, done } = t.run(options(kubeconfig));
    await until('3 pods', async () => (await livePods(core)).length === 3);
    // an orphan that matches: adopted, and then one pod too many is deleted
    await core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'stray', labels }, spec: { containers: [{ name: 'app', image: 'x' }] } },
    });
    await until('back to 3 owned pods', async () => {
      const pods = await livePods(core);
      return pods.length === 3 && pods.every((p) => p.metadata!.ownerReferences?.[0]?.name === 'web');
    });
    // relabel an owned pod: released (owner reference removed) and replaced
    const victim = (await livePods(core))[0].metadata!.name!;
    await core.patchNamespacedPod(
      { namespace: 'default', name: victim, body: { metadata: { labels: { app: 'debug' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('released and replaced', async () => {
      const pods = await livePods(core);
      const released = pods.find((p) => p.metadata!.name === victim);
      return released && (released.metadata!.ownerReferences ?? []).length === 0 && pods.filter((p) => p.metadata!.labels?.app === 'web').length === 3;
    });
    // scale down
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'default', name: 'web', body: { spec: { replicas: 1 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('scaled to 1', async () => (await livePods(core)).filter((p) => p.metadata!.labels?.app === 'web').length === 1);
    // each delete of the scale-down is logged with the ranking reason of its sync's decision
    const messages = logs
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    const deletes = messages.filter((m) => m.startsWith('ReplicaSet default/web: delete pod '));
    expect(deletes.length).toBeGreaterThanOrEqual(2);
    for (const l of deletes)
      expect(l).toMatch(
        /delete pod \S+ \((Unscheduled|Phase|NotReady|LowerDeletionCost|MoreOnSameNode|ReadyShorter|MoreRestarts|Newer|UidOrder|Tie|ScaleToZero): .+\)$/,
      );
    // no write ever touched the released pod after its release, nor any pod not ours
    stop.abort();
    expect(await done).toBe(0);
  });

  it('a controller being deleted manages nothing; the sandbox collects its dependents', async () => {
    // a finalizer holds the ReplicaSet in its deletion, so the controller is seen to sync it there
    const { kubeconfig, core, apps } = await setup([
      rs('web', 2, { metadata: { name: 'web', namespace: 'default', labels, finalizers: ['example.com/hold'] } }),
    ]);
    const { stop, done } = t.run(options(kubeconfig));
    const pods = await until('2 pods', async () => {
      const live = await livePods(core);
      return live.length === 2 && live;
    });
    await apps.deleteNamespacedReplicaSet({ namespace: 'default', name: 'web' });
    // deletion bumps the generation: once the status observes it, the controller's cache has the
    // ReplicaSet with its deletionTimestamp (the two came in one object)
    await until('the deletion observed', async () => {
      const r = await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' });
      return r.metadata!.deletionTimestamp !== undefined && r.status?.observedGeneration === r.metadata!.generation;
    });
    await core.deleteNamespacedPod({ namespace: 'default', name: pods[0].metadata!.name!, gracePeriodSeconds: 0 });
    // the sync on that delete counts one pod and replaces none
    await until('status replicas 1', async () => (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status?.replicas === 1);
    await apps.patchNamespacedReplicaSet(
      { namespace: 'default', name: 'web', body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('pods collected', async () => (await livePods(core)).length === 0);
    const creates = t.sandbox.audit().filter((a) => a.verb === 'create' && a.resource === 'pods' && !a.subresource);
    expect(creates).toHaveLength(2);
    stop.abort();
    expect(await done).toBe(0);
  });

  it('refuses to start when the upstream controller is active, unless --force', async () => {
    const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const { kubeconfig } = await setup([
      rs('web', 1),
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: 'default' },
        involvedObject: { kind: 'ReplicaSet', name: 'web', namespace: 'default' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: web-abcde',
        type: 'Normal',
        source: { component: 'replicaset-controller' },
        firstTimestamp: recent,
        lastTimestamp: recent,
        count: 1,
      },
    ]);
    const opts = options(kubeconfig, { untilSynced: true });
    await expect(t.run(opts).done).rejects.toThrow(/upstream ReplicaSet controller is active.*replicaset-controller.*--force/);
    const forced = t.run({ ...opts, force: true });
    expect(await forced.done, forced.logs.join('')).toBe(0);
  });

  it('leader election: only the leader acts; a standby takes over when it goes', async () => {
    const { kubeconfig, core, coord, apps } = await setup([rs('web', 2)]);
    // leases long enough that a loaded machine never misses a renewal: a stops releasing its lease
    const lease = { leaderElect: true, leaseDurationMs: 8000, renewDeadlineMs: 6000, retryPeriodMs: 200 };
    const a = t.run(options(kubeconfig, { ...lease, identity: 'instance-a' }));
    await until('a leads', async () => (await livePods(core)).length === 2);
    const b = t.run(options(kubeconfig, { ...lease, identity: 'instance-b' }));
    await new Promise((r) => setTimeout(r, 500));
    expect((await coord.readNamespacedLease({ namespace: 'default', name: 'rs-reconcile' })).spec!.holderIdentity).toBe('instance-a');
    expect(b.logs.join('')).not.toMatch(/Became the leader/);
    a.stop.abort();
    expect(await a.done).toBe(0);
    await until('b leads', async () => (await coord.readNamespacedLease({ namespace: 'default', name: 'rs-reconcile' })).spec!.holderIdentity === 'instance-b');
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'default', name: 'web', body: { spec: { replicas: 4 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('b scales up', async () => (await livePods(core)).length === 4);
    b.stop.abort();
    expect(await b.done).toBe(0);
  });

  it('chaos soak: 10% injected errors, dropped watches and forced 410s; converges with no surplus pods', async () => {
    const { kubeconfig, core, apps } = await setup([rs('web', 6)]);
    const { stop, logs, done } = t.run(options(kubeconfig));
    const ids = [
      t.sandbox.faults.set({ errorRate: 0.1, code: 500, verb: 'create', resource: 'pods' }),
      t.sandbox.faults.set({ errorRate: 0.1, code: 429, retryAfterSeconds: 0, verb: 'delete', resource: 'pods' }),
      t.sandbox.faults.set({ errorRate: 0.1, code: 409, verb: 'update', resource: 'replicasets' }),
      t.sandbox.faults.set({ errorRate: 0.1, code: 500, verb: 'patch', resource: 'pods' }),
    ];
    const sizes = [2, 9, 4, 7, 3];
    for (let round = 0; round < sizes.length; round++) {
      await apps
        .patchNamespacedReplicaSetScale(
          { namespace: 'default', name: 'web', body: { spec: { replicas: sizes[round] } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        )
        .catch(() => undefined);
      if (round % 2 === 0) t.sandbox.faults.dropWatches();
      else t.sandbox.faults.forceGone('pods');
      await new Promise((r) => setTimeout(r, 300));
    }
    for (const id of ids) t.sandbox.faults.clear(id);
    const desired = async () => (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).spec!.replicas!;
    await until('converged after faults stop', async () => (await livePods(core)).length === (await desired()), 20_000);
    // settled: stays at desired, never above
    for (let i = 0; i < 5; i++) {
      expect((await livePods(core)).length).toBe(await desired());
      await new Promise((r) => setTimeout(r, 100));
    }
    // every pod write went to a pod owned by (or being adopted by) the ReplicaSet
    const rsUid = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).metadata!.uid!;
    for (const p of (await core.listNamespacedPod({ namespace: 'default' })).items) expect(p.metadata!.ownerReferences?.[0]?.uid).toBe(rsUid);
    stop.abort();
    expect(await done).toBe(0);
    expect(logs.join('')).not.toMatch(/controller failed/);
  }, 60_000);
});
