// `run` as both controllers against the embedded API server (real HTTPS, the real client-node,
// the real kubectl): a Deployment created and then re-imaged with kubectl is rolled out by the
// deployment controller, its ReplicaSets' pods made by the ReplicaSet controller, the sandbox's
// kubelet making them ready. Every wait polls with a generous deadline, never a fixed sleep.
import { describe, expect, it } from 'vitest';
import { podTemplateHash } from '../../src/core/deployment/hash.js';
import { foregroundOptions, sandboxTests, until } from './env.js';

const t = sandboxTests('rs-run-deploy-');

async function setup() {
  return t.start({ nodes: 3, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 } });
}

function startRun(kubeconfig: string) {
  return t.run(foregroundOptions(kubeconfig, { namespace: 'default', qps: 1000, burst: 1000, deployment: true }));
}

describe('run --controllers replicaset,deployment on the sandbox', () => {
  it('rolls out kubectl create deployment, then kubectl set image to a second ReplicaSet; rollout status completes', async () => {
    const { kubeconfig, apps, kubectl } = await setup();
    const r = startRun(kubeconfig);
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3');

    const firstRS = await until('the first ReplicaSet with 3 ready pods', async () => {
      const rss = (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
      return rss.length === 1 && rss[0].status?.readyReplicas === 3 ? rss[0] : null;
    });
    const d1 = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')).spec.template;
    // <deployment>-<pod-template-hash>, the label on the ReplicaSet, its selector and its template
    const { 'pod-template-hash': _h, ...templateLabels } = firstRS.spec!.template!.metadata!.labels!;
    const hash = firstRS.metadata!.labels!['pod-template-hash'];
    expect(firstRS.metadata!.name).toBe(`web-${hash}`);
    expect(firstRS.spec!.selector!.matchLabels!['pod-template-hash']).toBe(hash);
    expect(firstRS.spec!.template!.metadata!.labels!['pod-template-hash']).toBe(hash);
    expect(templateLabels).toEqual(d1?.metadata?.labels);
    expect(firstRS.metadata!.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Deployment', name: 'web', controller: true, blockOwnerDeletion: true }),
    ]);
    expect(firstRS.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3' });
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=60s')).toContain('successfully rolled out');

    await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
    const second = await until('a second ReplicaSet at 3 ready pods and the first at 0', async () => {
      const rss = (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
      const old = rss.find((x) => x.metadata!.name === firstRS.metadata!.name);
      const neu = rss.find((x) => x.metadata!.name !== firstRS.metadata!.name);
      return old?.spec?.replicas === 0 && old.status?.replicas === 0 && neu?.status?.readyReplicas === 3 ? neu : null;
    });
    expect(second.spec!.template!.spec!.containers[0].image).toBe('nginx:1.28');
    expect(second.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '2' });
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=60s')).toContain('successfully rolled out');
    const status = await until('the Deployment status complete', async () => {
      const d = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
      const s = d.status;
      return s?.updatedReplicas === 3 && s.availableReplicas === 3 && s.replicas === 3 && s.observedGeneration === d.metadata!.generation ? s : null;
    });
    expect(status.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    expect(status.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True' });
    r.stop.abort();
    expect(await r.done).toBe(0);
    // the only errors: status writes on a Deployment the cache held at an older resourceVersion
    // (409, requeued rate-limited), as upstream meets them
    const errors = r.logs.filter((l) => l.includes('"level":"error"'));
    for (const e of errors) expect(e).toContain('the object has been modified');
    // the hash is the one core/deployment/hash.ts computes for the Deployment's template
    expect(hash).toBe(podTemplateHash(d1, null));
  }, 180_000);
});
