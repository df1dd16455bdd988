// Graceful deletion, finalizers, namespace termination, garbage collection and the simulated
// scheduler/kubelet.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { failure, mergePatch, podBody, raw, rcBody, rsBody, startEnv, waitFor, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env.sb.close();
});

const gone = async (p: Promise<unknown>) => {
  try {
    await p;
    return false;
  } catch (e) {
    return (e as { code?: number }).code === 404;
  }
};

describe('graceful deletion and finalizers (no kubelet)', () => {
  it('a pod with spec.nodeName stays with deletionTimestamp and grace 30 until a delete with grace 0', async () => {
    await env.core.createNamespacedPod({
      namespace: 'default',
      body: { ...podBody('on-node'), spec: { nodeName: 'node-x', containers: [{ name: 'c', image: 'i' }] } },
    });
    const del = await env.core.deleteNamespacedPod({ name: 'on-node', namespace: 'default' });
    expect(del.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(del.metadata?.deletionGracePeriodSeconds).toBe(30);
    const still = await env.core.readNamespacedPod({ name: 'on-node', namespace: 'default' });
    expect(still.metadata?.deletionGracePeriodSeconds).toBe(30);
    const delta = still.metadata!.deletionTimestamp!.getTime() - Date.now();
    expect(delta).toBeGreaterThan(25_000);
    expect(delta).toBeLessThanOrEqual(30_000);
    await env.core.deleteNamespacedPod({ name: 'on-node', namespace: 'default', gracePeriodSeconds: 0 });
    expect(await gone(env.core.readNamespacedPod({ name: 'on-node', namespace: 'default' }))).toBe(true);
  });

  it('a pod with no node is removed at once', async () => {
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('no-node') });
    await env.core.deleteNamespacedPod({ name: 'no-node', namespace: 'default' });
    expect(await gone(env.core.readNamespacedPod({ name: 'no-node', namespace: 'default' }))).toBe(true);
  });

  it('objects with finalizers stay until the finalizers are removed', async () => {
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('fin', { app: 'fin' }, { finalizers: ['example.com/hold'] }) });
    const del = await env.core.deleteNamespacedPod({ name: 'fin', namespace: 'default' });
    expect(del.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(del.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect((await env.core.readNamespacedPod({ name: 'fin', namespace: 'default' })).metadata?.finalizers).toEqual(['example.com/hold']);
    await env.core.patchNamespacedPod({ name: 'fin', namespace: 'default', body: { metadata: { finalizers: null } } }, mergePatch());
    expect(await gone(env.core.readNamespacedPod({ name: 'fin', namespace: 'default' }))).toBe(true);

    const rs = rsBody('fin-rs', 0) as any;
    rs.metadata.finalizers = ['example.com/hold'];
    await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rs });
    // Pending deletion answers with the object itself (client-node would decode it as a Status).
    const st = await raw(env.sb, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/fin-rs');
    expect(st.status).toBe(200);
    expect(st.json).toMatchObject({ kind: 'ReplicaSet', metadata: { name: 'fin-rs', deletionGracePeriodSeconds: 0, finalizers: ['example.com/hold'] } });
    const held = await env.apps.readNamespacedReplicaSet({ name: 'fin-rs', namespace: 'default' });
    expect(held.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(held.metadata?.generation).toBe(2);
    await env.apps.patchNamespacedReplicaSet({ name: 'fin-rs', namespace: 'default', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    expect(await gone(env.apps.readNamespacedReplicaSet({ name: 'fin-rs', namespace: 'default' }))).toBe(true);
  });

  it('honours the uid precondition of a DELETE body', async () => {
    const p = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('pre') });
    const f = await failure(env.core.deleteNamespacedPod({ name: 'pre', namespace: 'default', body: { preconditions: { uid: 'not-the-uid' } } }));
    expect(f.code).toBe(409);
    expect(f.status.message).toBe(
      `Operation cannot be fulfilled on pods "pre": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${p.metadata!.uid}`,
    );
    await env.core.deleteNamespacedPod({ name: 'pre', namespace: 'default', body: { preconditions: { uid: p.metadata!.uid } } });
    expect(await gone(env.core.readNamespacedPod({ name: 'pre', namespace: 'default' }))).toBe(true);
  });
});

describe('namespace termination', () => {
  it('refuses creates with 403 NamespaceTerminating, deletes the content, and goes when empty', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'shop-old' } } });
    await env.apps.createNamespacedReplicaSet({ namespace: 'shop-old', body: rsBody('web', 0) });
    await env.core.createNamespacedPod({ namespace: 'shop-old', body: podBody('loose') });
    await env.core.createNamespacedPod({
      namespace: 'shop-old',
      body: { ...podBody('stuck'), spec: { nodeName: 'node-x', containers: [{ name: 'c', image: 'i' }] } },
    });
    await env.core.deleteNamespace({ name: 'shop-old' });
    const ns = await env.core.readNamespace({ name: 'shop-old' });
    expect(ns.status?.phase).toBe('Terminating');
    const f = await failure(env.core.createNamespacedPod({ namespace: 'shop-old', body: podBody('t') }));
    expect(f.code).toBe(403);
    expect(f.status).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "t" is forbidden: unable to create new content in namespace shop-old because it is being terminated',
    });
    expect(f.status.details?.causes?.[0]).toEqual({
      reason: 'NamespaceTerminating',
      message: 'namespace shop-old is being terminated',
      field: 'metadata.namespace',
    });
    await waitFor(async () => gone(env.apps.readNamespacedReplicaSet({ name: 'web', namespace: 'shop-old' })), 'the replicaset to go');
    await waitFor(async () => gone(env.core.readNamespacedPod({ name: 'loose', namespace: 'shop-old' })), 'the loose pod to go');
    // The pod on a node with no kubelet keeps the namespace terminating.
    const stuck = await env.core.readNamespacedPod({ name: 'stuck', namespace: 'shop-old' });
    expect(stuck.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect((await env.core.readNamespace({ name: 'shop-old' })).status?.phase).toBe('Terminating');
    await env.core.deleteNamespacedPod({ name: 'stuck', namespace: 'shop-old', gracePeriodSeconds: 0 });
    await waitFor(async () => gone(env.core.readNamespace({ name: 'shop-old' })), 'the namespace to go');
  });

  it('default may not be deleted', async () => {
    const f = await failure(env.core.deleteNamespace({ name: 'default' }));
    expect(f.code).toBe(403);
    expect(f.status.message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
  });
});

describe('garbage collection by ownerReferences', () => {
  async function ownedPods(rsName: string, n: number, ns = 'default') {
    const rs = await env.apps.createNamespacedReplicaSet({ namespace: ns, body: rsBody(rsName, n) });
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: rs.metadata!.uid!, controller: true, blockOwnerDeletion: true };
    for (let i = 0; i < n; i++)
      await env.core.createNamespacedPod({ namespace: ns, body: podBody(`${rsName}-${i}`, { app: rsName }, { ownerReferences: [ref] }) });
    return rs;
  }

  it('background: deleting the owner deletes its dependents', async () => {
    await ownedPods('gc-bg', 3);
    await env.apps.deleteNamespacedReplicaSet({ name: 'gc-bg', namespace: 'default' });
    await waitFor(async () => (await env.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=gc-bg' })).items.length === 0, 'dependents gone');
    const gcDeletes = env.sb
      .audit()
      .filter((e) => e.verb === 'delete' && e.user === 'system:serviceaccount:kube-system:generic-garbage-collector' && e.name?.startsWith('gc-bg-'));
    expect(gcDeletes).toHaveLength(3);
  });

  it('orphan: the owner goes, dependents stay without the reference', async () => {
    await ownedPods('gc-or', 2);
    await env.apps.deleteNamespacedReplicaSet({ name: 'gc-or', namespace: 'default', propagationPolicy: 'Orphan' });
    await waitFor(async () => gone(env.apps.readNamespacedReplicaSet({ name: 'gc-or', namespace: 'default' })), 'owner gone');
    const pods = await env.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=gc-or' });
    expect(pods.items).toHaveLength(2);
    for (const p of pods.items) expect(p.metadata?.ownerReferences).toBeUndefined();
  });

  it('foreground: the owner waits with foregroundDeletion until its dependents are gone', async () => {
    await ownedPods('gc-fg', 2);
    const r = await raw(env.sb, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/gc-fg', { body: { propagationPolicy: 'Foreground' } });
    expect(r.status).toBe(200);
    expect(r.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(r.json.metadata.deletionTimestamp).toBeTruthy();
    await waitFor(async () => gone(env.apps.readNamespacedReplicaSet({ name: 'gc-fg', namespace: 'default' })), 'owner gone');
    expect((await env.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=gc-fg' })).items).toEqual([]);
  });

  it('a ReplicationController deleted through core/v1 without a policy orphans (upstream default)', async () => {
    const rc = await env.core.createNamespacedReplicationController({ namespace: 'default', body: rcBody('gc-rc', 1) });
    const ref = { apiVersion: 'v1', kind: 'ReplicationController', name: 'gc-rc', uid: rc.metadata!.uid!, controller: true };
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('gc-rc-0', { app: 'gc-rc' }, { ownerReferences: [ref] }) });
    await env.core.deleteNamespacedReplicationController({ name: 'gc-rc', namespace: 'default' });
    await waitFor(async () => gone(env.core.readNamespacedReplicationController({ name: 'gc-rc', namespace: 'default' })), 'rc gone');
    const pod = await env.core.readNamespacedPod({ name: 'gc-rc-0', namespace: 'default' });
    expect(pod.metadata?.ownerReferences).toBeUndefined();
  });

  it('a dependent with another live owner only loses the dangling reference; unknown owner kinds are left alone', async () => {
    const a = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('own-a', 0) });
    const b = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('own-b', 0) });
    await env.core.createNamespacedPod({
      namespace: 'default',
      body: podBody(
        'two-owners',
        { app: 'two-owners' },
        {
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'own-a', uid: a.metadata!.uid! },
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'own-b', uid: b.metadata!.uid! },
          ],
        },
      ),
    });
    await env.apps.createNamespacedReplicaSet({
      namespace: 'default',
      // StatefulSets are not served: the collector cannot tell whether the owner exists.
      body: {
        ...rsBody('sts-owned', 0),
        metadata: { name: 'sts-owned', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'd', uid: 'statefulset-uid', controller: true }] },
      },
    });
    await env.apps.deleteNamespacedReplicaSet({ name: 'own-a', namespace: 'default' });
    await waitFor(
      async () => (await env.core.readNamespacedPod({ name: 'two-owners', namespace: 'default' })).metadata?.ownerReferences?.length === 1,
      'dangling ref removed',
    );
    const p = await env.core.readNamespacedPod({ name: 'two-owners', namespace: 'default' });
    expect(p.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['own-b']);
    await new Promise((r) => setTimeout(r, 50));
    expect((await env.apps.readNamespacedReplicaSet({ name: 'sts-owned', namespace: 'default' })).metadata?.name).toBe('sts-owned');
  });
});

describe('simulated scheduler and kubelet', () => {
  it('pods get a node, then Running, then Ready; terminating pods are removed', async () => {
    const k = await startEnv({ nodes: 2, kubelet: { scheduleDelayMs: 10, runDelayMs: 20, readyDelayMs: 20, terminationGraceMs: 30 } });
    try {
      const nodes = await k.core.listNode();
      expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['node-1', 'node-2']);
      expect(nodes.items[0].status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      const states: string[] = [];
      const l = await k.core.listNamespacedPod({ namespace: 'default' });
      for (let i = 0; i < 4; i++) await k.core.createNamespacedPod({ namespace: 'default', body: podBody(`kp-${i}`) });
      await waitFor(async () => {
        const p = await k.core.readNamespacedPod({ name: 'kp-0', namespace: 'default' });
        const st = `${p.spec?.nodeName ? 'bound' : 'unbound'}/${p.status?.phase}/${p.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '-'}`;
        if (states[states.length - 1] !== st) states.push(st);
        return st === 'bound/Running/True';
      }, 'kp-0 ready');
      expect(states[states.length - 1]).toBe('bound/Running/True');
      const pods = await waitFor(async () => {
        const ps = await k.core.listNamespacedPod({ namespace: 'default' });
        return ps.items.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) && ps;
      }, 'all ready');
      const perNode: Record<string, number> = {};
      for (const p of pods.items) perNode[p.spec!.nodeName!] = (perNode[p.spec!.nodeName!] ?? 0) + 1;
      expect(perNode).toEqual({ 'node-1': 2, 'node-2': 2 });
      const p0 = pods.items[0];
      expect(p0.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(p0.status?.containerStatuses?.[0]).toMatchObject({ name: 'c', ready: true, started: true, restartCount: 0 });
      const ready = p0.status!.conditions!.find((c) => c.type === 'Ready')!;
      expect(ready.lastTransitionTime).toBeInstanceOf(Date);
      expect(p0.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
      // The watch saw the phases in order.
      const w = await raw(k.sb, 'GET', `/api/v1/namespaces/default/pods?resourceVersion=${l.metadata!.resourceVersion}&watch=true&timeoutSeconds=1`);
      const kp0 = w.text
        .trim()
        .split('\n')
        .map((x) => JSON.parse(x))
        .filter((e) => e.object.metadata.name === 'kp-0');
      expect(kp0.map((e) => e.object.status.phase)).toEqual(['Pending', 'Pending', 'Running', 'Running']);
      // Deletion: Terminating, then removed by the kubelet.
      const del = await k.core.deleteNamespacedPod({ name: 'kp-1', namespace: 'default' });
      expect(del.metadata?.deletionTimestamp).toBeInstanceOf(Date);
      await waitFor(async () => gone(k.core.readNamespacedPod({ name: 'kp-1', namespace: 'default' })), 'kubelet removal');
      const kubeletDelete = k.sb.audit().find((e) => e.verb === 'delete' && e.name === 'kp-1' && e.user?.startsWith('system:node:'));
      expect(kubeletDelete?.code).toBe(200);
      // Restart a container through the admin endpoint.
      const r = await raw(k.sb, 'POST', '/sandbox/pods/default/kp-2/restart');
      expect(r.status).toBe(200);
      expect(r.json.status.containerStatuses[0].restartCount).toBe(1);
      expect(r.json.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False');
      await waitFor(
        async () =>
          (await k.core.readNamespacedPod({ name: 'kp-2', namespace: 'default' })).status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True',
        'ready again',
      );
      // Garbage collection with a kubelet: dependents are deleted gracefully and then removed.
      const rs = await k.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('kgc', 0) });
      await k.core.patchNamespacedPod(
        {
          name: 'kp-3',
          namespace: 'default',
          body: { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'kgc', uid: rs.metadata!.uid!, controller: true }] } },
        },
        mergePatch(),
      );
      await k.apps.deleteNamespacedReplicaSet({ name: 'kgc', namespace: 'default' });
      await waitFor(async () => gone(k.core.readNamespacedPod({ name: 'kp-3', namespace: 'default' })), 'dependent removed');
    } finally {
      await k.sb.close();
    }
  });

  it('a ready pod seeded without container statuses gets them, keeping its Ready transition time', async () => {
    const seeded = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'seeded', namespace: 'default' },
      // on a node beyond --nodes 1: the seed brings its node along, so the kubelet runs the pod
      spec: { nodeName: 'node-3', containers: [{ name: 'app', image: 'x' }] },
      status: {
        phase: 'Running',
        startTime: '2025-12-01T00:00:00Z',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-01T00:01:00Z' }],
      },
    };
    const k = await startEnv({ nodes: 1, seed: [seeded], kubelet: { scheduleDelayMs: 10, runDelayMs: 10, readyDelayMs: 10 } });
    try {
      expect((await k.core.listNode()).items.map((n) => n.metadata?.name)).toEqual(['node-1', 'node-3']);
      const p = await waitFor(async () => {
        const x = await k.core.readNamespacedPod({ name: 'seeded', namespace: 'default' });
        return (x.status?.containerStatuses?.length ?? 0) > 0 && x;
      }, 'container statuses');
      expect(p.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', ready: true, started: true, restartCount: 0 });
      expect(p.status?.containerStatuses?.[0].state?.running?.startedAt?.toISOString()).toBe('2025-12-01T00:00:00.000Z');
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime?.toISOString()).toBe('2025-12-01T00:01:00.000Z');
    } finally {
      await k.sb.close();
    }
  });

  it("sandbox --nodes 3 --seed examples/drifted-replicaset.yaml: the example's pods sit on the sandbox's nodes, and a deleted one goes", async () => {
    const seed = parseYaml(readFileSync(resolve(__dirname, '../../examples/drifted-replicaset.yaml'), 'utf8'));
    const k = await startEnv({ nodes: 3, gc: false, seed: [seed], kubelet: { scheduleDelayMs: 10, runDelayMs: 10, readyDelayMs: 10, terminationGraceMs: 10 } });
    try {
      expect((await k.core.listNode()).items.map((n) => n.metadata?.name)).toEqual(['node-1', 'node-2', 'node-3']);
      const pod = await k.core.readNamespacedPod({ name: 'shop-web-c4r8t', namespace: 'shop' });
      expect(pod.spec?.nodeName).toBe('node-3');
      await k.core.deleteNamespacedPod({ name: 'shop-web-c4r8t', namespace: 'shop' });
      await waitFor(() => gone(k.core.readNamespacedPod({ name: 'shop-web-c4r8t', namespace: 'shop' })), 'the kubelet of node-3 to finish the delete');
    } finally {
      await k.sb.close();
    }
  });

  it('a seeded failure rate makes pods fail; the clock can be advanced', async () => {
    const k = await startEnv({ nodes: 1, kubelet: { scheduleDelayMs: 60_000, runDelayMs: 60_000, readyDelayMs: 60_000, failureRate: 1, seed: 7 } });
    try {
      await k.core.createNamespacedPod({ namespace: 'default', body: podBody('f-0') });
      await new Promise((r) => setTimeout(r, 50));
      expect((await k.core.readNamespacedPod({ name: 'f-0', namespace: 'default' })).spec?.nodeName).toBeUndefined();
      k.sb.kubelet!.advance(60_000);
      expect((await k.core.readNamespacedPod({ name: 'f-0', namespace: 'default' })).spec?.nodeName).toBe('node-1');
      const adv = await raw(k.sb, 'POST', '/sandbox/kubelet/advance?ms=60000');
      expect(adv.status).toBe(200);
      const p = await k.core.readNamespacedPod({ name: 'f-0', namespace: 'default' });
      expect(p.status?.phase).toBe('Failed');
      expect(p.status?.containerStatuses?.[0].state?.terminated?.exitCode).toBe(1);
    } finally {
      await k.sb.close();
    }
  });

  it('advancing the clock steps through each due time: a pod is bound, run and made ready in one jump', async () => {
    // delays far above any real time the test takes: only the advanced clock can move the pod
    const k = await startEnv({ nodes: 1, kubelet: { scheduleDelayMs: 60_000, runDelayMs: 60_000, readyDelayMs: 60_000 } });
    try {
      await k.core.createNamespacedPod({ namespace: 'default', body: podBody('j-0') });
      k.sb.kubelet!.advance(179_000);
      let p = await k.core.readNamespacedPod({ name: 'j-0', namespace: 'default' });
      expect([p.spec?.nodeName, p.status?.phase]).toEqual(['node-1', 'Running']);
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).not.toBe('True');
      k.sb.kubelet!.advance(2_000);
      p = await k.core.readNamespacedPod({ name: 'j-0', namespace: 'default' });
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    } finally {
      await k.sb.close();
    }
  });

  it('a pod whose nodeSelector matches no node stays Pending with PodScheduled False', async () => {
    const k = await startEnv({ nodes: 1, kubelet: { scheduleDelayMs: 5 } });
    try {
      await k.core.createNamespacedPod({
        namespace: 'default',
        body: { ...podBody('nowhere'), spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'i' }] } },
      });
      const p = await waitFor(async () => {
        const x = await k.core.readNamespacedPod({ name: 'nowhere', namespace: 'default' });
        return x.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False') && x;
      }, 'unschedulable condition');
      expect(p.status?.conditions?.[0]).toMatchObject({ reason: 'Unschedulable' });
      expect(p.spec?.nodeName).toBeUndefined();
    } finally {
      await k.sb.close();
    }
  });
});

describe('list responses', () => {
  it('always show the current objects (each stored object caches its JSON; writes store new ones)', async () => {
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('cached-a') });
    const names = async () =>
      (await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods?labelSelector=cache%3Dyes')).json.items.map((p: any) => p.metadata.name);
    const first = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods');
    expect(first.json.kind).toBe('PodList');
    expect(first.json.items.find((p: any) => p.metadata.name === 'cached-a')).not.toHaveProperty('kind');
    expect(await names()).toEqual([]);
    await env.core.patchNamespacedPod({ name: 'cached-a', namespace: 'default', body: { metadata: { labels: { cache: 'yes' } } } }, mergePatch());
    expect(await names()).toEqual(['cached-a']);
    const again = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods');
    const a = again.json.items.find((p: any) => p.metadata.name === 'cached-a');
    expect(a.metadata.labels.cache).toBe('yes');
    expect(Number(a.metadata.resourceVersion)).toBeGreaterThan(
      Number(first.json.items.find((p: any) => p.metadata.name === 'cached-a').metadata.resourceVersion),
    );
    await env.core.deleteNamespacedPod({ name: 'cached-a', namespace: 'default', gracePeriodSeconds: 0 });
    await waitFor(async () => (await names()).length === 0, 'deleted pod gone from the list');
  });
});
