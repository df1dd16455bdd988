// `reconcile` against the embedded API server over real HTTPS with the real client-node: every
// path of one applied sync, proven by the sandbox's audit log and the stored objects.
import { afterEach, describe, expect, it } from 'vitest';
import { progressOn } from '../../src/cli/progress.js';
import { preparePlan } from '../../src/services/plan-service.js';
import { applyPlan, type DryRun } from '../../src/services/reconcile-service.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { exampleItems, sandboxOnlyReason, testEnv, type TestEnv } from './env.js';
import { itUnless } from '../skips.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
let env: TestEnv | null = null;
let sb: Sandbox | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
  sb = null;
});

/** Seeds the example; returns the kubeconfig, clients and the namespace to use (its own on a real cluster). */
async function start(items: any[]) {
  env = await testEnv(items);
  sb = env.sandbox;
  return { kubeconfig: env.kubeconfig, core: env.core, apps: env.apps, ns: (name: string) => (env!.real ? env!.namespace : name) };
}

async function reconcile(kubeconfig: string, namespace: string, opts: { dryRun?: DryRun; burst?: number; beforeApply?: () => Promise<void> } = {}) {
  const ctx = await preparePlan({ namespace, connection: { kubeconfig } }, { burstReplicas: opts.burst, now: undefined, keepDecisions: true }, [], {
    progress: progressOn(process.stderr),
    clock: () => NOW,
  });
  await opts.beforeApply?.();
  return applyPlan(ctx, { dryRun: opts.dryRun ?? 'none', qps: 1000, burst: 1000, workers: 5, clock: () => NOW });
}

const writes = (s: Sandbox) => s.audit().filter((a) => !['get', 'list', 'watch'].includes(a.verb));
// audit log, fault injection and seeded pod status exist only on the sandbox
const sandboxOnly = itUnless(sandboxOnlyReason('the audit log, fault injection and seeded pod status'));

describe('reconcile on the sandbox', () => {
  it('adopts, releases, creates and writes status exactly as upstream, recording events', async () => {
    const { kubeconfig, core, apps, ns } = await start(exampleItems('drifted-replicaset'));
    const shop = ns('shop');
    const report = await reconcile(kubeconfig, shop);
    expect(report.failed).toBe(0);
    if (sb) {
      const w = writes(sb!).filter((a) => a.resource !== 'events');
      // claims run one by one in cache order (the server lists by name), then creates, then status
      expect(w.map((a) => `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''} ${a.name ?? ''}`.trim())).toEqual([
        'patch pods shop-web-debug',
        'patch pods shop-web-manual',
        'create pods',
        'update replicasets/status shop-web',
      ]);
      // the uncached GET of the ReplicaSet before the first adoption
      expect(sb!.audit().some((a) => a.verb === 'get' && a.resource === 'replicasets' && a.name === 'shop-web')).toBe(true);
    }
    const pods = (await core.listNamespacedPod({ namespace: shop })).items;
    const rsUid = (await apps.readNamespacedReplicaSet({ namespace: shop, name: 'shop-web' })).metadata!.uid;
    const owner = (n: string) => pods.find((p) => p.metadata!.name === n)!.metadata!.ownerReferences ?? [];
    expect(owner('shop-web-manual')).toEqual([
      expect.objectContaining({ uid: rsUid, controller: true, blockOwnerDeletion: true, kind: 'ReplicaSet', apiVersion: 'apps/v1' }),
    ]);
    expect(owner('shop-web-debug')).toEqual([]);
    const seeded = new Set(exampleItems('drifted-replicaset').map((o) => (o as { metadata: { name: string } }).metadata.name));
    const created = pods.filter((p) => !seeded.has(p.metadata!.name!) && owner(p.metadata!.name!).length);
    expect(created).toHaveLength(1);
    expect(created[0].metadata!.generateName).toBe('shop-web-');
    expect(created[0].metadata!.labels).toEqual({ app: 'shop', tier: 'web' });
    const rs = await apps.readNamespacedReplicaSet({ namespace: shop, name: 'shop-web' });
    expect(rs.status).toMatchObject({ replicas: 4, fullyLabeledReplicas: 4, observedGeneration: rs.metadata!.generation });
    if (sb) expect(rs.status).toMatchObject({ readyReplicas: 4, availableReplicas: 4 }); // seeded pod status
    const events = (await core.listNamespacedEvent({ namespace: shop })).items.filter((e) => e.reportingComponent === 'rs-reconcile');
    expect(events.map((e) => e.reason)).toEqual(['SuccessfulCreate']);
    expect(events[0].message).toBe(`Created pod: ${created[0].metadata!.name}`);
    expect(events[0].reportingComponent).toBe('rs-reconcile');
    expect(events[0].involvedObject.uid).toBe(rsUid);
  });

  sandboxOnly('converges: a second sync writes only the status, a third has nothing to do', async () => {
    const { kubeconfig } = await start(exampleItems('drifted-replicaset'));
    await reconcile(kubeconfig, 'shop');
    sb!.clearAudit();
    const second = await reconcile(kubeconfig, 'shop');
    expect(writes(sb!).map((a) => `${a.verb} ${a.resource}/${a.subresource ?? ''}`)).toEqual(['update replicasets/status']);
    expect(second.controllers[0].status.replicas).toBe(5);
    sb!.clearAudit();
    const third = await reconcile(kubeconfig, 'shop');
    expect(third.controllers.every((c) => c.inSync)).toBe(true);
    expect(writes(sb!)).toEqual([]);
  });

  it('--dry-run=client sends no write at all', async () => {
    const { kubeconfig, core, ns } = await start(exampleItems('drifted-replicaset'));
    const versions = async () => (await core.listNamespacedPod({ namespace: ns('shop') })).items.map((p) => [p.metadata!.name, p.metadata!.resourceVersion]);
    const before = await versions();
    const report = await reconcile(kubeconfig, ns('shop'), { dryRun: 'client' });
    expect(report.controllers[0].inSync).toBe(false);
    expect(await versions()).toEqual(before);
    if (sb) expect(writes(sb)).toEqual([]);
  });

  it('--dry-run=server sends every write with dryRun=All and nothing changes', async () => {
    const { kubeconfig, core, ns } = await start(exampleItems('drifted-replicaset'));
    const before = (await core.listNamespacedPod({ namespace: ns('shop') })).items.map((p) => [p.metadata!.name, p.metadata!.resourceVersion]);
    const report = await reconcile(kubeconfig, ns('shop'), { dryRun: 'server' });
    expect(report.failed).toBe(0);
    if (sb) {
      const w = writes(sb);
      expect(w.length).toBeGreaterThanOrEqual(4);
      expect(w.every((a) => a.dryRun)).toBe(true);
    }
    const after = (await core.listNamespacedPod({ namespace: ns('shop') })).items.map((p) => [p.metadata!.name, p.metadata!.resourceVersion]);
    expect(after).toEqual(before);
  });

  sandboxOnly('deletes the ranked victims of a scale-down, in parallel', async () => {
    const { kubeconfig } = await start(exampleItems('scale-down-ranking'));
    const report = await reconcile(kubeconfig, 'search');
    expect(report.failed).toBe(0);
    const deleted = writes(sb!)
      .filter((a) => a.verb === 'delete')
      .map((a) => a.name)
      .sort();
    expect(deleted).toEqual([
      'search-5f7c9-cheap',
      'search-5f7c9-crowd1',
      'search-5f7c9-crowd2',
      'search-5f7c9-notready',
      'search-5f7c9-pending',
      'search-5f7c9-unsched',
    ]);
  });

  sandboxOnly('a pod deleted between plan and action counts as deleted (NotFound is success)', async () => {
    const { kubeconfig, core } = await start(exampleItems('scale-down-ranking'));
    const report = await reconcile(kubeconfig, 'search', {
      beforeApply: async () => {
        await core.deleteNamespacedPod({ namespace: 'search', name: 'search-5f7c9-cheap', gracePeriodSeconds: 0 });
      },
    });
    expect(report.failed).toBe(0);
    const cheap = report.controllers[0].outcome.actions.find((a) => a.pod === 'search-5f7c9-cheap');
    expect(cheap).toMatchObject({ action: 'delete', ok: true, note: 'already gone' });
  });

  sandboxOnly('slow start stops at the first failed batch and writes ReplicaFailure', async () => {
    const items = exampleItems('replication-controller');
    items[0].spec.replicas = 10; // 3 pods, 7 to create
    const { kubeconfig, core } = await start(items);
    sb!.faults.set({ verb: 'create', resource: 'pods', errorRate: 1, code: 500 });
    const report = await reconcile(kubeconfig, 'legacy');
    expect(report.failed).toBe(1);
    const creates = sb!.audit().filter((a) => a.verb === 'create' && a.resource === 'pods');
    expect(creates).toHaveLength(1); // the first batch (size 1) failed: no second batch
    const rc = await core.readNamespacedReplicationController({ namespace: 'legacy', name: 'legacy-db' });
    expect(rc.status!.conditions).toEqual([expect.objectContaining({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' })]);
    const events = (await core.listNamespacedEvent({ namespace: 'legacy' })).items;
    expect(events.map((e) => [e.type, e.reason])).toEqual([['Warning', 'FailedCreate']]);
    expect(events[0].message).toMatch(/^Error creating: /);
  });

  it('creates in slow-start batches and honours the burst cap', async () => {
    const items = exampleItems('replication-controller');
    items[0].spec.replicas = 13; // 3 pods, 10 missing, burst 7 → 7 creates in batches 1, 2, 4
    const { kubeconfig, core, ns } = await start(items);
    const report = await reconcile(kubeconfig, ns('legacy'), { burst: 7 });
    expect(report.controllers[0].create).toEqual({ count: 7, batches: [1, 2, 4] });
    expect((await core.listNamespacedPod({ namespace: ns('legacy') })).items).toHaveLength(10);
    if (sb) expect(sb.audit().filter((a) => a.verb === 'create' && a.resource === 'pods' && !a.subresource)).toHaveLength(7);
  });

  sandboxOnly('a status write conflict is retried once after a fresh GET', async () => {
    const { kubeconfig } = await start(exampleItems('drifted-replicaset'));
    sb!.faults.set({ verb: 'update', resource: 'replicasets/status', errorRate: 1, code: 409, count: 1 });
    const report = await reconcile(kubeconfig, 'shop');
    expect(report.failed).toBe(0);
    const statusWrites = sb!.audit().filter((a) => a.verb === 'update' && a.subresource === 'status');
    expect(statusWrites.map((a) => a.code)).toEqual([409, 200]);
    // the action says why the write went twice (watch's log words it)
    expect(report.controllers[0].outcome.actions.find((a) => a.action === 'status')).toMatchObject({ ok: true, retried: { code: 409, reason: 'Conflict' } });
  });

  it('does not adopt when the ReplicaSet was re-created under the same name (uid check)', async () => {
    const { kubeconfig, apps, ns } = await start(exampleItems('drifted-replicaset'));
    const shop = ns('shop');
    const report = await reconcile(kubeconfig, shop, {
      beforeApply: async () => {
        const rs = await apps.readNamespacedReplicaSet({ namespace: shop, name: 'shop-web' });
        await apps.deleteNamespacedReplicaSet({ namespace: shop, name: 'shop-web' });
        await apps.createNamespacedReplicaSet({
          namespace: shop,
          body: { ...rs, metadata: { name: 'shop-web', namespace: shop, labels: rs.metadata!.labels }, status: undefined },
        });
      },
    });
    const c = report.controllers[0];
    expect(c.outcome.error).toMatch(/is gone: got uid .*, wanted /);
    // an adopt failure ends the sync: no create and no status write
    expect(c.outcome.actions.filter((a) => a.action === 'create' || a.action === 'status')).toEqual([]);
    if (sb) {
      expect(writes(sb).filter((a) => a.resource === 'pods' && a.verb === 'create')).toEqual([]);
      expect(writes(sb).filter((a) => a.subresource === 'status')).toEqual([]);
    }
  });
});
