// The deployment controller's event handlers (deployment_controller.go): which keys each event
// enqueues. On in-memory listers; the queue is read, nothing is synced.
import { describe, expect, it } from 'vitest';
import { DeploymentController, type DeploymentListers } from '../../src/controller/deployment-controller.js';
import type { Deployment, Pod, ReplicaSet } from '../../src/core/types.js';
import { defaultBehaviour } from '../../src/core/versions.js';
import { FakeClock } from '../../src/runtime/clock.js';
import type { DeploymentControllerAPI } from '../../src/runtime/api.js';

const dep = (name: string, labels: Record<string, string>, strategy = 'RollingUpdate'): Deployment => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels } }, strategy: { type: strategy } },
});
const rs = (name: string, labels: Record<string, string>, owner?: Deployment): ReplicaSet =>
  ({
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      labels,
      ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }] : [],
    },
    spec: { replicas: 1, selector: { matchLabels: labels } },
  }) as ReplicaSet;
const pod = (name: string, owner: ReplicaSet): Pod =>
  ({
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: owner.metadata.labels,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }],
    },
    spec: { containers: [] },
  }) as Pod;

function controller(ds: Deployment[], rss: ReplicaSet[], pods: Pod[] = []) {
  const listers: DeploymentListers = {
    deployments: {
      get: (_ns, name) => ds.find((d) => d.metadata.name === name),
      inNamespace: () => ds,
      all: () => ds,
    },
    replicaSets: { get: (_ns, name) => rss.find((r) => r.metadata.name === name), inNamespace: () => rss },
    pods: { inNamespace: () => pods },
  };
  const log = { info() {}, error() {}, v: () => ({ info() {} }) };
  const c = new DeploymentController({ listers, api: {} as DeploymentControllerAPI, behaviour: defaultBehaviour(), clock: new FakeClock(0), log });
  const keys = async () => {
    const out: string[] = [];
    while (c.queue.len() > 0) {
      const next = await c.queue.get();
      if (next.shutdown) break;
      out.push(next.item);
      c.queue.done(next.item);
    }
    return out.sort();
  };
  return { c, keys };
}

describe('deployment controller event handlers', () => {
  it('a ReplicaSet with a controller reference enqueues its Deployment only (same uid)', async () => {
    const web = dep('web', { app: 'web' });
    const other = dep('other', { app: 'web' });
    const { c, keys } = controller([web, other], []);
    c.addReplicaSet(rs('web-1', { app: 'web' }, web));
    expect(await keys()).toEqual(['default/web']);
    // a stale reference (another uid) enqueues nothing
    c.addReplicaSet(rs('web-2', { app: 'web' }, { ...web, metadata: { ...web.metadata, uid: 'gone' } }));
    expect(await keys()).toEqual([]);
  });

  it('an orphan enqueues every Deployment whose selector matches its labels (getDeploymentsForReplicaSet)', async () => {
    const { c, keys } = controller([dep('a', { app: 'web' }), dep('b', { app: 'web' }), dep('c', { app: 'db' })], []);
    c.addReplicaSet(rs('orphan', { app: 'web' }));
    expect(await keys()).toEqual(['default/a', 'default/b']);
    c.addReplicaSet(rs('unlabelled', {}));
    expect(await keys()).toEqual([]);
  });

  it('an update: a periodic resync enqueues nothing; a changed controller reference enqueues the old and new owner', async () => {
    const a = dep('a', { app: 'web' });
    const b = dep('b', { app: 'other' });
    const { c, keys } = controller([a, b], []);
    const old = rs('x', { app: 'web' }, a);
    c.updateReplicaSet(old, old);
    expect(await keys()).toEqual([]);
    c.updateReplicaSet(old, { ...rs('x', { app: 'web' }, b), metadata: { ...rs('x', { app: 'web' }, b).metadata, resourceVersion: '2' } });
    expect(await keys()).toEqual(['default/a', 'default/b']);
  });

  it('a pod deleted: a Recreate Deployment is enqueued once its old pods are all gone, a RollingUpdate one never', async () => {
    const re = dep('re', { app: 're' }, 'Recreate');
    const ru = dep('ru', { app: 'ru' });
    const reRS = rs('re-1', { app: 're' }, re);
    const ruRS = rs('ru-1', { app: 'ru' }, ru);
    const left = pod('re-1-b', reRS);
    const pods = [left];
    const { c, keys } = controller([re, ru], [reRS, ruRS], pods);
    c.deletePod(pod('re-1-a', reRS));
    expect(await keys()).toEqual([]); // re-1-b is still there
    pods.length = 0;
    c.deletePod({ tombstone: true, key: 'default/re-1-b', obj: left });
    expect(await keys()).toEqual(['default/re']);
    c.deletePod(pod('ru-1-a', ruRS));
    expect(await keys()).toEqual([]);
  });
});
