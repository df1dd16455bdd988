// The watch's Deployments source: the informer's first list refused with 403 settles it as
// unknown (one warning, snapshot.deployments null) and with 404 as none, without holding the
// watch's start; other errors go on to the watch's log; once synced, each change re-plans.
import { describe, expect, it } from 'vitest';
import { ClusterError } from '../../../src/cluster/errors.js';
import type { Deployment } from '../../../src/core/types.js';
import { DEPLOYMENTS_FORBIDDEN, DeploymentSource } from '../../../src/services/watch/deployment-source.js';
import { informerSource } from '../../../src/services/watch/sources.js';
import { syntheticSnapshot } from '../../ui/fixtures.js';
import { fakeCluster, FakeInformer } from './fakes.js';

const deployment = (name: string, rv = '1'): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns-0', uid: `uid-${name}`, resourceVersion: rv },
  spec: { replicas: 1, selector: { matchLabels: { app: name } } },
});

function sourceWith() {
  const inf = new FakeInformer<Deployment>();
  let fail: (e: Error) => void = () => {};
  const errors: string[] = [];
  const warnings: string[] = [];
  const src = new DeploymentSource(
    (onError) => {
      fail = onError;
      return inf;
    },
    (e) => errors.push(e.message),
    (w) => warnings.push(w),
  );
  return { inf, src, fail: (e: Error) => fail(e), errors, warnings };
}

describe('DeploymentSource', () => {
  it('403 on the first list: one warning, the Deployments unknown (null), the wait settled', async () => {
    const t = sourceWith();
    const synced = t.src.waitForSync(new AbortController().signal);
    t.fail(new ClusterError('deployments.apps is forbidden: User "x" cannot list resource "deployments"', 'forbidden', 403));
    await synced;
    t.fail(new ClusterError('forbidden again', 'forbidden', 403)); // the informer stopped: nothing more is said
    expect(t.warnings).toEqual([DEPLOYMENTS_FORBIDDEN]);
    expect(t.src.list()).toBeNull();
    expect(t.errors).toEqual(['forbidden again']);
  });

  it('404 (not served): none, no warning; any other error goes to the log and the wait goes on', async () => {
    const t = sourceWith();
    t.fail(new ClusterError('server error (500)', 'server-error', 500));
    expect(t.errors).toEqual(['server error (500)']);
    const synced = t.src.waitForSync(new AbortController().signal);
    t.fail(new ClusterError('the server could not find the requested resource', 'unexpected', 404));
    await synced;
    expect(t.src.list()).toEqual([]);
    expect(t.warnings).toEqual([]);
  });

  it('in the live source: the start waits for the list; the snapshot holds the Deployments; a change re-plans, a resync does not', async () => {
    const snap = syntheticSnapshot(1, 1, 1);
    const cl = fakeCluster(snap);
    const t = sourceWith();
    t.inf.items.set('ns-0/web', deployment('web'));
    const src = informerSource(cl, { run: true, deployments: t.src });
    let changed = 0;
    const logs: string[] = [];
    let started = false;
    const start = src.start({ changed: () => changed++, log: (_l, text) => logs.push(text), news: () => {} }, new AbortController().signal).then(() => {
      started = true;
    });
    cl.syncAll();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toBe(false); // the Deployments are not listed yet
    t.inf.sync();
    await start;
    expect(logs).toEqual(['synced: 1 pods, 1 replicasets, 0 replicationcontrollers, 1 deployments']);
    expect(src.snapshot().deployments?.map((d) => d.metadata.name)).toEqual(['web']);
    changed = 0;
    t.inf.update(deployment('web', '2'));
    t.inf.update(deployment('web', '2')); // the same resourceVersion: a resync
    expect(changed).toBe(1);
  });
});
