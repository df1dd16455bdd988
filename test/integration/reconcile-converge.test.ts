// `reconcile`'s converging over real HTTPS against the embedded API server and its simulated
// kubelet: it ends only when `diff` on the same scope would exit 0 (planInSync, diff's own
// decision) and stays there: the pods it created have turned ready and are counted, the
// minReadySeconds requeue is waited for, and --timeout ends a wait that cannot end. Ctrl-C (an
// aborted signal) stops the writes, and the report says what was written.
import { afterEach, describe, expect } from 'vitest';
import { progressOn } from '../../src/cli/progress.js';
import { planInSync, preparePlan } from '../../src/services/plan-service.js';
import { applyPlan, startReconcile, type ApplyOptions } from '../../src/services/reconcile-service.js';
import { stoppedSummary } from '../../src/render/reconcile-output.js';
import { exampleItems, sandboxOnlyReason, testEnv, type TestEnv } from './env.js';
import { itUnless } from '../skips.js';

let env: TestEnv | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});

// the simulated kubelet and the audit log exist only on the sandbox
const sandboxOnly = itUnless(sandboxOnlyReason('the audit log, fault injection and seeded pod status'));
const io = () => ({ progress: progressOn(process.stderr) });
const src = () => ({ namespace: 'shop', connection: { kubeconfig: env!.kubeconfig } });

async function reconcile(converge: { timeoutMs: number } | null, extra: Partial<ApplyOptions> = {}, kubeVersion?: string) {
  const start = (await startReconcile(src(), { kubeVersion }, [], io()))!;
  return applyPlan(start.ctx, {
    dryRun: 'none',
    qps: 1000,
    burst: 1000,
    workers: 5,
    converge: converge ? { timeoutMs: converge.timeoutMs, refresh: start.refresh } : undefined,
    ...extra,
  });
}

/** `diff -n shop`'s decision, on a fresh read. */
const diffInSync = async () => planInSync((await preparePlan(src(), {}, [], io())).plan);

describe('reconcile converges to what diff calls in sync', () => {
  sandboxOnly(
    'it waits for the pod it created to turn ready, then writes the status that counts it: diff exits 0',
    async () => {
      env = await testEnv(exampleItems('drifted-replicaset'), { nodes: 3 });
      const report = await reconcile({ timeoutMs: 60_000 });
      expect(report.failed).toBe(0);
      expect(report.converged).toBe(true);
      // the first sync (adopt, release, create, status) and one status write once the pod is ready
      expect(report.controllers[0].outcome.syncs).toBe(2);
      const rs = await env.apps.readNamespacedReplicaSet({ namespace: 'shop', name: 'shop-web' });
      expect(rs.status).toMatchObject({ replicas: 5, readyReplicas: 5, availableReplicas: 5 });
      expect(await diffInSync()).toBe(true);
    },
    90_000,
  );

  sandboxOnly.each([['the newest'], ['1.33']])(
    'with minReadySeconds it waits for the requeue, as upstream (%s), until the new pod is available',
    async (version) => {
      const items = exampleItems('drifted-replicaset');
      items.find((o) => o.kind === 'ReplicaSet').spec.minReadySeconds = 1;
      env = await testEnv(items, { nodes: 3 });
      const report = await reconcile({ timeoutMs: 60_000 }, {}, version === '1.33' ? '1.33' : undefined);
      expect(report.converged).toBe(true);
      const rs = await env.apps.readNamespacedReplicaSet({ namespace: 'shop', name: 'shop-web' });
      expect(rs.status).toMatchObject({ replicas: 5, readyReplicas: 5, availableReplicas: 5 });
      expect(await diffInSync()).toBe(true);
    },
    90_000,
  );

  sandboxOnly(
    'with no kubelet the pod never turns ready: --timeout ends it, saying what it waited for, and diff agrees it is not in sync',
    async () => {
      env = await testEnv(exampleItems('drifted-replicaset'), { nodes: 0 });
      const report = await reconcile({ timeoutMs: 1500 });
      expect(report.converged).toBe(false);
      expect(report.controllers[0].outcome.notice).toMatch(
        /^not in sync after 1\.5s \(--timeout\): write its status; waiting for 1 pod it created not ready yet: shop-web-\w+$/,
      );
      expect(await diffInSync()).toBe(false);
    },
    60_000,
  );

  sandboxOnly(
    '--once (no converge) keeps one sync',
    async () => {
      env = await testEnv(exampleItems('drifted-replicaset'), { nodes: 3 });
      const report = await reconcile(null);
      expect(report.converged).toBeNull();
      expect(report.controllers[0].outcome.syncs).toBe(1);
    },
    60_000,
  );
});

describe('an interrupted reconcile', () => {
  sandboxOnly(
    'sends no write after the interrupt, and says per controller what it had written',
    async () => {
      const items = exampleItems('drifted-replicaset');
      items.find((o) => o.kind === 'ReplicaSet').spec.replicas = 30; // 4 pods after claims: 26 to create
      env = await testEnv(items, { nodes: 0 });
      const interrupt = new AbortController();
      let creates = 0;
      const report = await reconcile(
        { timeoutMs: 60_000 },
        {
          signal: interrupt.signal,
          onAction: (a) => {
            if (a.action === 'create' && a.ok && ++creates === 3) interrupt.abort();
          },
        },
      );
      expect(report.stopped).toEqual({ reason: 'interrupted' });
      // slow start: batches of 1 and 2 went out; the batch of 4 was refused before it was sent
      const podCreates = env.sandbox!.audit().filter((a) => a.verb === 'create' && a.resource === 'pods');
      expect(podCreates).toHaveLength(3);
      expect(env.sandbox!.audit().filter((a) => a.subresource === 'status')).toEqual([]);
      expect(stoppedSummary(report)).toBe(
        'interrupted: ReplicaSet shop/shop-web: created 3 of 26 pods, deleted 0 of 0, adopted 1 of 1, released 1 of 1, status not written\n',
      );
    },
    60_000,
  );
});
