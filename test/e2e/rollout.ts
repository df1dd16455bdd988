// A rollout on the sandbox, for the pages made from its audit log: a person creates Deployment web
// and changes its image; the deployment controller (impersonated: the sandbox runs none) creates
// ReplicaSet web-old, then web-new, and scales the two in turn; `run` (in this process) is the
// ReplicaSet controller. Returns the audit log's path once everything has landed and stopped.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { startSandbox } from '../../src/sandbox/index.js';
import { runForeground } from '../../src/services/run-foreground.js';
import { foregroundOptions } from '../integration/env.js';
import { waitFor } from '../sandbox/helpers.js';

const NS = 'shop';
const DC = 'system:serviceaccount:kube-system:deployment-controller';
const asDeploymentController = setHeaderOptions('Impersonate-User', DC);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

type Pod = {
  metadata?: { deletionTimestamp?: Date; ownerReferences?: { controller?: boolean; name: string }[] };
  status?: { conditions?: { type: string; status: string }[] };
};
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

function replicaSet(d: V1Deployment, hash: string, image: string, replicas: number) {
  const labels = { app: 'web', 'pod-template-hash': hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `web-${hash}`,
      labels,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata!.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image }] } } },
  };
}

export async function rollOutOnSandbox(dir: string): Promise<string> {
  const auditFile = join(dir, 'rollout-audit.jsonl');
  const sb = await startSandbox({ nodes: 2, auditLog: auditFile, seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }] });
  const stop = new AbortController();
  let running: Promise<number> | undefined;
  try {
    const kubeconfig = join(dir, 'rollout.kubeconfig');
    await sb.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    running = runForeground({
      ...foregroundOptions(kubeconfig, { namespace: NS, qps: 1000, burst: 1000 }),
      signal: stop.signal,
      stream: new Writable({ write: (_c, _e, cb) => cb() }),
    });
    const live = async (rs: string) =>
      (await core.listNamespacedPod({ namespace: NS })).items.filter(
        (p: Pod) => !p.metadata!.deletionTimestamp && p.metadata!.ownerReferences?.some((r) => r.controller && r.name === rs),
      );
    const settled = (name: string, replicas: number) =>
      waitFor(
        async () => {
          const pods = await live(name);
          return pods.length === replicas && pods.every(ready);
        },
        `${name} at ${replicas} ready pods`,
        60_000,
      );
    const scale = async (name: string, replicas: number) => {
      await apps.patchNamespacedReplicaSetScale({ namespace: NS, name, body: { spec: { replicas } } }, setHeaderOptions('Impersonate-User', DC, mergePatch));
      await settled(name, replicas);
    };
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } };
    const d = await apps.createNamespacedDeployment({
      namespace: NS,
      body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } },
    });
    await apps.createNamespacedReplicaSet({ namespace: NS, body: replicaSet(d, 'old', 'nginx:1.25', 2) }, asDeploymentController);
    await settled('web-old', 2);
    await apps.patchNamespacedDeployment(
      { namespace: NS, name: 'web', body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } } },
      mergePatch,
    );
    await apps.createNamespacedReplicaSet({ namespace: NS, body: replicaSet(d, 'new', 'nginx:1.26', 1) }, asDeploymentController);
    await settled('web-new', 1);
    await scale('web-old', 1);
    await scale('web-new', 2);
    await scale('web-old', 0);
    await waitFor(async () => (await apps.readNamespacedReplicaSet({ namespace: NS, name: 'web-old' })).status?.replicas === 0, 'web-old status 0', 60_000);
  } finally {
    stop.abort();
    await running?.catch(() => undefined);
    await sb.close();
  }
  return auditFile;
}
