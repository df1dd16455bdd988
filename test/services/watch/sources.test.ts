import type { ReplicaSet } from '../../../src/core/types.js';
import { describe, expect, it } from 'vitest';
import { describeUpdate } from '../../../src/render/watch-log.js';
import { informerSource } from '../../../src/services/watch/sources.js';
import { syntheticSnapshot } from '../../ui/fixtures.js';
import { fakeCluster, worded } from './fakes.js';

describe('the live source over informers', () => {
  it('marks dirty on every event, logs changes only once synced, ignores resyncs', async () => {
    const snap = syntheticSnapshot(2, 2, 1);
    const cl = fakeCluster(snap);
    const src = informerSource(cl, { run: true });
    let changed = 0;
    const logs: string[] = [];
    const started = src.start({ changed: () => changed++, log: (_l, t) => logs.push(t), news: worded((_l, t) => logs.push(t)) }, new AbortController().signal);
    expect(changed).toBe(6); // the initial adds of the cached objects
    expect(logs).toEqual([]);
    cl.syncAll();
    await started;
    expect(logs).toEqual(['synced: 4 pods, 2 replicasets, 0 replicationcontrollers']);
    const rs = (snap.controllers.ReplicaSet as ReplicaSet[])[0];
    changed = 0;
    cl.replicasets.update({ ...rs, metadata: { ...rs.metadata, resourceVersion: '9' }, spec: { ...rs.spec, replicas: 5 } });
    cl.replicasets.update(cl.replicasets.items.get('ns-0/app-0000')!); // a resync: same object
    const p = snap.pods[0];
    cl.pods.remove(p, true);
    expect(changed).toBe(2);
    expect(logs.slice(1)).toEqual(['rs ns-0/app-0000 scaled 0→5', 'pod ns-0/app-0000-00000 deleted']);
    expect(src.snapshot().pods).toHaveLength(3);
    expect(src.snapshot().controllers.ReplicaSet.find((r) => r.metadata.name === 'app-0000')?.spec.replicas).toBe(5);
  });
});

describe('a status write is logged once', () => {
  it('reconcile mode: the action line only (no informer status line)', async () => {
    const snap = syntheticSnapshot(1, 2, 1);
    const cl = fakeCluster(snap);
    const lines: string[] = [];
    const push = (level: string, text: string) => lines.push(`${level} ${text}`);
    const src = informerSource(cl, { run: false, controllerStatus: false });
    const started = src.start({ changed: () => {}, log: push, news: worded(push) }, new AbortController().signal);
    cl.syncAll();
    await started;
    lines.length = 0;
    // what one status write makes: the action (a value, worded once) and the informer update
    const hear = worded(push);
    hear({ type: 'action', kind: 'ReplicaSet', key: 'ns-0/app-0000', outcome: { action: 'status', ok: true, note: 'replicas 2, ready 2, available 2' } });
    const rs = cl.replicasets.items.get('ns-0/app-0000')!;
    cl.replicasets.update({ ...rs, metadata: { ...rs.metadata, resourceVersion: '99' }, status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 } });
    expect(lines).toEqual(['action rs ns-0/app-0000: update status (replicas 2, ready 2, available 2)']);
    // a failed write is logged once too, and a scale by someone else still is
    lines.length = 0;
    hear({ type: 'action', kind: 'ReplicaSet', key: 'ns-0/app-0000', outcome: { action: 'status', ok: false, code: 409, error: 'conflict' } });
    const rs2 = cl.replicasets.items.get('ns-0/app-0000')!;
    cl.replicasets.update({
      ...rs2,
      metadata: { ...rs2.metadata, resourceVersion: '100' },
      spec: { ...rs2.spec, replicas: 4 },
      status: { replicas: 4, readyReplicas: 2, availableReplicas: 2 },
    });
    expect(lines).toEqual(['error rs ns-0/app-0000: update status failed (409): conflict', 'change rs ns-0/app-0000 scaled 0→4']);
  });

  it('read-only: the informer line is the only notice of a status change, and stays', () => {
    const rs = (syntheticSnapshot(1, 2, 1).controllers.ReplicaSet as ReplicaSet[])[0];
    const after = { ...rs, status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 } };
    expect(describeUpdate('replicasets', rs, after)).toBe('rs ns-0/app-0000 status replicas 1 ready 1 available 1');
    expect(describeUpdate('replicasets', rs, after, { status: false })).toBeNull();
  });
});
