// How the watch log pane words changes and actions (src/render/watch-log.ts), and how the news of
// a feed become its lines (src/ui/news.ts).
import { describe, expect, it } from 'vitest';
import type { Pod, ReplicaSet, ReplicationController } from '../../src/core/types.js';
import { actionText, describeAdd, describeDelete, describeUpdate } from '../../src/render/watch-log.js';
import { newsEntry } from '../../src/ui/news.js';

describe('change lines for the log pane', () => {
  const rs = (replicas: number, extra: Partial<ReplicaSet['status']> = {}): ReplicaSet => ({
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'shop', uid: 'u', resourceVersion: String(replicas), generation: replicas },
    spec: { replicas },
    status: { replicas: 3, readyReplicas: 3, availableReplicas: 3, ...extra },
  });
  const pod = (o: { phase?: string; ready?: boolean; owner?: string; node?: string; deleting?: boolean } = {}): Pod => ({
    metadata: {
      name: 'web-x',
      namespace: 'shop',
      uid: 'p',
      labels: { app: 'web' },
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: 'u', controller: true }] } : {}),
    },
    spec: o.node ? { nodeName: o.node } : {},
    status: { phase: o.phase ?? 'Pending', conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
  });

  it('adds, deletes, scales and status', () => {
    expect(describeAdd('pods', pod({ owner: 'web' }))).toBe('pod shop/web-x added (owner rs/web)');
    expect(describeAdd('pods', pod())).toBe('pod shop/web-x added (no owner)');
    expect(describeAdd('replicasets', rs(3))).toBe('rs shop/web added (replicas 3)');
    expect(describeDelete('replicationcontrollers', { ...rs(1), kind: 'ReplicationController' } as ReplicationController)).toBe('rc shop/web deleted');
    expect(describeUpdate('replicasets', rs(3), rs(5))).toBe('rs shop/web scaled 3→5');
    expect(describeUpdate('replicasets', rs(3), { ...rs(3), status: { replicas: 4, readyReplicas: 3, availableReplicas: 3 } })).toBe(
      'rs shop/web status replicas 4 ready 3 available 3',
    );
    expect(describeUpdate('replicasets', rs(3), rs(3))).toBeNull();
  });

  it('pods: scheduled, phase, ready, adopted / released, terminating; noise is dropped', () => {
    expect(describeUpdate('pods', pod(), pod({ node: 'n1' }))).toBe('pod shop/web-x scheduled to n1');
    expect(describeUpdate('pods', pod({ node: 'n1' }), pod({ node: 'n1', phase: 'Running', ready: true }))).toBe('pod shop/web-x Pending→Running, ready');
    expect(describeUpdate('pods', pod(), pod({ owner: 'web' }))).toBe('pod shop/web-x adopted by rs/web');
    expect(describeUpdate('pods', pod({ owner: 'web' }), pod())).toBe('pod shop/web-x released by rs/web');
    expect(describeUpdate('pods', pod(), pod({ deleting: true }))).toBe('pod shop/web-x terminating');
    expect(describeUpdate('pods', pod(), pod())).toBeNull();
  });
});

describe('actions', () => {
  it('one line each; a failure is an error line', () => {
    expect(actionText('ReplicaSet', 'shop/web', { action: 'create', pod: 'web-x2k9p', ok: true })).toEqual({
      level: 'action',
      text: 'rs shop/web: create pod web-x2k9p',
    });
    expect(actionText('ReplicationController', 'legacy/db', { action: 'delete', pod: 'db-1', ok: true, note: 'already gone' }).text).toBe(
      'rc legacy/db: delete pod db-1 (already gone)',
    );
    expect(actionText('ReplicaSet', 'shop/web', { action: 'status', ok: false, code: 409, error: 'conflict' })).toEqual({
      level: 'error',
      text: 'rs shop/web: update status failed (409): conflict',
    });
  });

  it('a status write that went twice says why: a conflict is the controller changing since it was read', () => {
    const note = 'replicas 3, ready 3, available 3';
    expect(actionText('ReplicaSet', 'shop/web', { action: 'status', ok: true, note, retried: { code: 409, reason: 'Conflict' } })).toEqual({
      level: 'action',
      text: 'rs shop/web: update status (replicas 3, ready 3, available 3); status write retried after a conflict (409): the ReplicaSet changed since it was read',
    });
    expect(actionText('ReplicationController', 'legacy/db', { action: 'status', ok: true, note, retried: { code: 409, reason: 'Conflict' } }).text).toContain(
      'the ReplicationController changed since it was read',
    );
    expect(
      actionText('ReplicaSet', 'shop/web', { action: 'status', ok: false, code: 500, error: 'boom', retried: { code: 500, reason: 'InternalError' } }).text,
    ).toBe('rs shop/web: update status failed (500): boom; status write retried after 500 InternalError');
  });
});

describe('news into log entries', () => {
  const rs = (replicas: number, status = { replicas: 3 }): ReplicaSet => ({
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'shop', uid: 'u', resourceVersion: String(replicas) },
    spec: { replicas },
    status,
  });

  it('changes are change lines, actions keep their level, and an update that says nothing is no line', () => {
    expect(newsEntry(5, { type: 'added', resource: 'replicasets', object: rs(3) })).toEqual({ at: 5, level: 'change', text: 'rs shop/web added (replicas 3)' });
    expect(newsEntry(6, { type: 'deleted', resource: 'replicasets', object: rs(3) })).toEqual({ at: 6, level: 'change', text: 'rs shop/web deleted' });
    expect(newsEntry(7, { type: 'updated', resource: 'replicasets', before: rs(3), after: rs(5), status: true })).toEqual({
      at: 7,
      level: 'change',
      text: 'rs shop/web scaled 3→5',
    });
    expect(newsEntry(8, { type: 'updated', resource: 'replicasets', before: rs(3), after: rs(3), status: true })).toBeNull();
    // the controller's own status write (reconcile mode): told by its action, not again by the informer
    expect(newsEntry(9, { type: 'updated', resource: 'replicasets', before: rs(3), after: rs(3, { replicas: 4 }), status: false })).toBeNull();
    expect(newsEntry(9, { type: 'updated', resource: 'replicasets', before: rs(3), after: rs(3, { replicas: 4 }), status: true })?.text).toBe(
      'rs shop/web status replicas 4 ready 0 available 0',
    );
    expect(
      newsEntry(10, { type: 'action', kind: 'ReplicaSet', key: 'shop/web', outcome: { action: 'delete', pod: 'web-1', ok: false, code: 500, error: 'boom' } }),
    ).toEqual({
      at: 10,
      level: 'error',
      text: 'rs shop/web: delete pod web-1 failed (500): boom',
    });
  });
});
