// A rollout on the sandbox, explained with its causes: a person changes Deployment web's image, the
// deployment controller (impersonated, as the sandbox runs none) creates the new ReplicaSet and
// scales the two in turn, and `rs-reconcile run` is the ReplicaSet controller. Read back from the
// sandbox's audit log with no flag: every write of the controller is predicted, each create of the
// new ReplicaSet and each delete of the old one has the cause chain deployment controller → the
// person's image change, and deploy/web covers both ReplicaSets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { buildHistory } from '../../src/services/history-service.js';
import { runForeground } from '../../src/services/run-foreground.js';
import type { HistoryEvent } from '../../src/history/types.js';
import { foregroundOptions } from '../integration/env.js';
import { waitFor } from '../sandbox/helpers.js';

const NS = 'shop';
const DC = 'system:serviceaccount:kube-system:deployment-controller';
const asDeploymentController = setHeaderOptions('Impersonate-User', DC);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

let sb: Sandbox;
let dir: string;
let auditFile: string;
let core: CoreV1Api;
let apps: AppsV1Api;
const stop = new AbortController();
let running: Promise<number>;

const live = async (rs: string) =>
  (await core.listNamespacedPod({ namespace: NS })).items.filter(
    (p) => !p.metadata!.deletionTimestamp && p.metadata!.ownerReferences?.some((r) => r.controller && r.name === rs),
  );

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

const ready = (p: { status?: { conditions?: { type: string; status: string }[] } }) =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** `run` has brought the ReplicaSet to `replicas` pods, all ready (as a rollout waits for them). */
const settled = (name: string, replicas: number) =>
  waitFor(
    async () => {
      const pods = await live(name);
      return pods.length === replicas && pods.every(ready);
    },
    `${name} at ${replicas} ready pods`,
    20_000,
  );

/** The deployment controller scales a ReplicaSet, and `run` brings its pods there. */
async function scale(name: string, replicas: number) {
  await apps.patchNamespacedReplicaSetScale({ namespace: NS, name, body: { spec: { replicas } } }, setHeaderOptions('Impersonate-User', DC, mergePatch));
  await settled(name, replicas);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-history-rollout-'));
  auditFile = join(dir, 'audit.jsonl');
  sb = await startSandbox({ nodes: 2, auditLog: auditFile, seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }] });
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
  running = runForeground({
    ...foregroundOptions(kubeconfig, { namespace: NS, qps: 1000, burst: 1000 }),
    signal: stop.signal,
    stream: new Writable({ write: (_c, _e, cb) => cb() }),
  });
}, 30_000);

afterAll(async () => {
  stop.abort();
  await running?.catch(() => undefined);
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('history of a rollout on the sandbox, with run as the controller', () => {
  let events: HistoryEvent[] = [];

  it('rolls Deployment web from nginx:1.25 to nginx:1.26, two ReplicaSets scaled in turn', async () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } };
    const d = await apps.createNamespacedDeployment({
      namespace: NS,
      body: { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template } },
    });
    await apps.createNamespacedReplicaSet({ namespace: NS, body: replicaSet(d, 'old', 'nginx:1.25', 3) }, asDeploymentController);
    await settled('web-old', 3);
    // the person's change
    await apps.patchNamespacedDeployment(
      { namespace: NS, name: 'web', body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } } },
      mergePatch,
    );
    // the deployment controller's rollout of it
    await apps.createNamespacedReplicaSet({ namespace: NS, body: replicaSet(d, 'new', 'nginx:1.26', 1) }, asDeploymentController);
    await settled('web-new', 1);
    await scale('web-old', 2);
    await scale('web-new', 2);
    await scale('web-old', 1);
    await scale('web-new', 3);
    await scale('web-old', 0);
    // let the controller's last status writes land
    await waitFor(async () => (await apps.readNamespacedReplicaSet({ namespace: NS, name: 'web-old' })).status?.replicas === 0, 'web-old status 0', 20_000);
    stop.abort();
    await running;
    await sb.close();
    const r = await buildHistory({ auditLogs: [auditFile], namespace: NS, target: { kind: 'Deployment', name: 'web' } });
    events = [...r.history.events];
    r.close();
  }, 120_000);

  it('predicts every write of the controller, with no flag', () => {
    const mine = events.filter((e) => e.actor.controller);
    expect(mine.length).toBeGreaterThan(10);
    // the kubelet reported every pod: the verdicts rest on known phases and readiness
    expect(mine.filter((e) => e.verb === 'status' && /ready [1-9]/.test(e.message)).length).toBeGreaterThan(0);
    expect(mine.filter((e) => e.predicted !== true).map((e) => `${e.time} ${e.verb} ${e.pod}: ${e.message}`)).toEqual([]);
    expect(new Set(mine.map((e) => e.controller?.name))).toEqual(new Set(['web-old', 'web-new']));
  });

  it("traces the new ReplicaSet's creates and the old one's deletes to the image change, through the deployment controller", () => {
    const rolled = events.filter(
      (e) => e.actor.controller && ((e.verb === 'create' && e.controller?.name === 'web-new') || (e.verb === 'delete' && e.controller?.name === 'web-old')),
    );
    expect(rolled.length).toBe(6); // 3 creates of web-new, 3 deletes of web-old
    for (const e of rolled) {
      expect(e.cause?.[0]).toMatchObject({ user: DC, object: { kind: 'ReplicaSet', name: e.controller!.name } });
      expect(e.cause?.at(-1)).toMatchObject({
        user: 'sandbox-admin',
        object: { kind: 'Deployment', name: 'web' },
        field: 'spec.template',
        change: 'image nginx:1.25 → nginx:1.26',
      });
    }
    const lastDelete = rolled.filter((e) => e.verb === 'delete').at(-1)!;
    expect(lastDelete.cause?.[0]).toMatchObject({ field: 'spec.replicas', change: '1 → 0' });
  });
});
