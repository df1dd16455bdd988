// Cause chains: why a controller's sync acted, nearest first, back to a write by someone who is not
// a controller. Scripted logs of a Deployment rolled out by the deployment controller (its writes
// of ReplicaSets carry the person's change of the Deployment), a user's scale, a user's delete, a
// pod relabelled, and a sync with nothing new (it carries on with the cause of the one before).
import { describe, expect, it } from 'vitest';
import { behaviourFor } from '../../src/core/versions.js';
import { HistoryReplay } from '../../src/history/replay.js';
import type { ApiWrite, HistoryEvent } from '../../src/history/types.js';

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const DC_USER = 'system:serviceaccount:kube-system:deployment-controller';
const NS = 'shop';
let clock = Date.parse('2026-11-25T10:00:00Z');
const tick = () => new Date((clock += 1000)).toISOString();

function deployment(replicas: number, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, uid: 'dep-uid', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
}

function rs(name: string, uid: string, replicas: number, image: string, hash: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: NS,
      uid,
      generation: 1,
      creationTimestamp: '2026-11-25T09:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
      template: { metadata: { labels: { app: 'web', 'pod-template-hash': hash } }, spec: { containers: [{ name: 'c', image }] } },
    },
    status: { replicas: 0 },
  };
}

function pod(name: string, owner: { name: string; uid: string; hash: string }, ready = true) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: '2026-11-25T09:30:00Z',
      labels: { app: 'web', 'pod-template-hash': owner.hash },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'x' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-11-25T09:31:00Z' }],
      containerStatuses: [{ name: 'c', ready, restartCount: 0 }],
    },
  };
}

function write(
  user: string,
  verb: ApiWrite['verb'],
  resource: ApiWrite['resource'],
  name: string | null,
  body: Record<string, any> | null,
  extra: Partial<ApiWrite> = {},
): ApiWrite {
  return {
    time: tick(),
    user,
    userAgent: 'test',
    verb,
    resource,
    subresource: null,
    namespace: NS,
    name,
    code: verb === 'create' ? 201 : 200,
    bodies: true,
    request: body,
    response: body,
    ...extra,
  };
}

const replay = () => new HistoryReplay({ behaviour: behaviourFor(32).behaviour });
const run = (r: HistoryReplay, ws: ApiWrite[]): HistoryEvent[] => ws.flatMap((w) => r.push(w));

const OLD = { name: 'web-old', uid: 'old-uid', hash: 'old' };
const NEW = { name: 'web-new', uid: 'new-uid', hash: 'new' };

/** Deployment web at nginx:1.25 with its ReplicaSet web-old at 2 pods, all logged. */
function before(): ApiWrite[] {
  return [
    write('admin', 'create', 'deployments', 'web', deployment(2, 'nginx:1.25')),
    write(DC_USER, 'create', 'replicasets', 'web-old', rs('web-old', 'old-uid', 2, 'nginx:1.25', 'old')),
    write(RS_USER, 'create', 'pods', 'old-a', pod('old-a', OLD)),
    write(RS_USER, 'create', 'pods', 'old-b', pod('old-b', OLD)),
  ];
}

describe('cause chains', () => {
  it('a rollout: the old ReplicaSet scaled down by the deployment controller, after admin changed the image', () => {
    const r = replay();
    run(r, before());
    const events = run(r, [
      write('admin', 'update', 'deployments', 'web', deployment(2, 'nginx:1.26')),
      write(DC_USER, 'create', 'replicasets', 'web-new', rs('web-new', 'new-uid', 1, 'nginx:1.26', 'new')),
      write(RS_USER, 'create', 'pods', 'new-a', pod('new-a', NEW)),
      write(DC_USER, 'update', 'replicasets', 'web-old', rs('web-old', 'old-uid', 1, 'nginx:1.25', 'old')),
      write(RS_USER, 'delete', 'pods', 'old-b', pod('old-b', OLD)),
    ]);
    const create = events.find((e) => e.verb === 'create' && e.pod === 'new-a')!;
    expect(create.actor.controller).toBe(true);
    expect(create.cause).toEqual([
      expect.objectContaining({
        user: DC_USER,
        verb: 'create',
        object: { kind: 'ReplicaSet', namespace: NS, name: 'web-new' },
        field: 'the object itself',
        change: 'created (replicas 1)',
      }),
      expect.objectContaining({
        user: 'admin',
        verb: 'update',
        object: { kind: 'Deployment', namespace: NS, name: 'web' },
        field: 'spec.template',
        change: 'image nginx:1.25 → nginx:1.26',
      }),
    ]);
    const del = events.find((e) => e.verb === 'delete' && e.pod === 'old-b')!;
    expect(del.predicted).toBe(true);
    expect(del.cause).toEqual([
      expect.objectContaining({
        user: DC_USER,
        verb: 'update',
        object: { kind: 'ReplicaSet', namespace: NS, name: 'web-old' },
        field: 'spec.replicas',
        change: '2 → 1',
      }),
      expect.objectContaining({ user: 'admin', object: { kind: 'Deployment', namespace: NS, name: 'web' }, field: 'spec.template' }),
    ]);
  });

  it('a scale by the horizontal-pod-autoscaler ends the chain there (its metrics are not in the log)', () => {
    const r = replay();
    run(r, before());
    const events = run(r, [
      write(
        'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
        'update',
        'deployments',
        'web',
        { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } },
        { subresource: 'scale' },
      ),
      write(DC_USER, 'update', 'replicasets', 'web-old', rs('web-old', 'old-uid', 3, 'nginx:1.25', 'old')),
      write(RS_USER, 'create', 'pods', 'old-c', pod('old-c', OLD)),
    ]);
    const create = events.find((e) => e.pod === 'old-c')!;
    expect(create.cause?.map((c) => [c.user.split(':').at(-1), c.object.kind, c.field, c.change])).toEqual([
      ['deployment-controller', 'ReplicaSet', 'spec.replicas', '2 → 3'],
      ['horizontal-pod-autoscaler', 'Deployment', 'spec.replicas', '2 → 3'],
    ]);
  });

  it("a user's delete of a pod is the cause of the replacement; the status written after it carries the same cause", () => {
    const r = replay();
    run(r, before());
    const events = run(r, [
      write('admin', 'delete', 'pods', 'old-a', { ...pod('old-a', OLD), metadata: { ...pod('old-a', OLD).metadata } }),
      write(RS_USER, 'create', 'pods', 'old-c', pod('old-c', OLD)),
    ]);
    const create = events.find((e) => e.pod === 'old-c')!;
    expect(create.cause).toEqual([
      expect.objectContaining({
        user: 'admin',
        verb: 'delete',
        object: { kind: 'Pod', namespace: NS, name: 'old-a' },
        field: 'the object itself',
        change: 'deleted',
      }),
    ]);
    const status = run(r, [
      write(
        RS_USER,
        'update',
        'replicasets',
        'web-old',
        { ...rs('web-old', 'old-uid', 2, 'nginx:1.25', 'old'), status: { replicas: 2 } },
        { subresource: 'status', request: { status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 } } },
      ),
    ]);
    expect(status[0].cause).toEqual(create.cause);
  });

  it("a pod relabelled out of the selector is the cause of its release; users' writes have no cause", () => {
    const r = replay();
    run(r, before());
    const relabelled = { ...pod('old-a', OLD), metadata: { ...pod('old-a', OLD).metadata, labels: { app: 'debug' } } };
    const released = { ...relabelled, metadata: { ...relabelled.metadata, ownerReferences: [] } };
    const events = run(r, [write('admin', 'patch', 'pods', 'old-a', relabelled), write(RS_USER, 'patch', 'pods', 'old-a', released)]);
    expect(events[0].cause).toBeNull();
    const release = events.find((e) => e.verb === 'release')!;
    expect(release.predicted).toBe(true);
    expect(release.cause).toEqual([expect.objectContaining({ user: 'admin', field: 'metadata.labels', change: 'app=web,pod-template-hash=old → app=debug' })]);
  });
});

describe('cause chains through the scale subresource', () => {
  it("the deployment controller's scale of a ReplicaSet (a Scale answer, no owner in it) goes on to the Deployment", () => {
    const r = replay();
    run(r, before());
    const events = run(r, [
      write('admin', 'patch', 'deployments', 'web', deployment(2, 'nginx:1.27')),
      write(
        DC_USER,
        'update',
        'replicasets',
        'web-old',
        { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web-old', namespace: NS }, spec: { replicas: 1 } },
        { subresource: 'scale' },
      ),
      write(RS_USER, 'delete', 'pods', 'old-b', pod('old-b', OLD)),
    ]);
    const del = events.find((e) => e.verb === 'delete' && e.actor.controller)!;
    expect(del.cause?.map((c) => [c.object.kind, c.field, c.change])).toEqual([
      ['ReplicaSet', 'spec.replicas', '2 → 1'],
      ['Deployment', 'spec.template', 'image nginx:1.25 → nginx:1.27'],
    ]);
  });
});
