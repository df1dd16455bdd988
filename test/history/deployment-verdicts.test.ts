// The deployment controller's writes of ReplicaSets judged against its rules (core/deployment),
// on small hand-written audit logs: a rolling update step by step, a Recreate, a proportional
// scale, a wrong write flagged false with both values, and logs that lack what the verdict rests
// on (a Deployment never seen, a ReplicaSet status logged without bodies, pods' phases) → null.
import { describe, expect, it } from 'vitest';
import { behaviourFor } from '../../src/core/versions.js';
import { HistoryReplay } from '../../src/history/replay.js';
import type { ApiWrite, HistoryEvent } from '../../src/history/types.js';

const NS = 'shop';
const DC = 'system:serviceaccount:kube-system:deployment-controller';
const RSC = 'system:serviceaccount:kube-system:replicaset-controller';
const KUBELET = 'system:node:node-1';
const PERSON = 'alice';
const D_UID = 'd-uid';

let clock = 0;
const at = () => new Date(Date.parse('2026-11-25T10:00:00Z') + (clock += 1000)).toISOString();

type Obj = Record<string, any>;

function deployment(o: { replicas: number; image: string; generation: number; strategy?: Obj; annotations?: Obj; status?: Obj }): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, uid: D_UID, generation: o.generation, creationTimestamp: '2026-11-25T09:00:00Z', annotations: o.annotations ?? {} },
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: o.image }] } },
      strategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: o.status ?? {},
  };
}

function replicaSet(name: string, o: { replicas: number; image: string; revision: number; desired: number; max: number; created: string; status?: Obj }): Obj {
  const labels = { app: 'web', 'pod-template-hash': name.slice(4) };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      generation: 1,
      creationTimestamp: o.created,
      labels,
      annotations: {
        'deployment.kubernetes.io/revision': String(o.revision),
        'deployment.kubernetes.io/desired-replicas': String(o.desired),
        'deployment.kubernetes.io/max-replicas': String(o.max),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: D_UID, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: o.image }] } },
    },
    status: o.status ?? { replicas: 0 },
  };
}

function write(user: string, verb: ApiWrite['verb'], resource: ApiWrite['resource'], name: string, body: Obj | null, extra: Partial<ApiWrite> = {}): ApiWrite {
  return {
    time: at(),
    user,
    userAgent:
      user === DC || user === RSC ? 'kube-controller-manager/v1.32.2 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:x' : 'kubectl/v1.32.0',
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

/** The ReplicaSet controller's report of a ReplicaSet's pods (its status write). */
const rsStatus = (rs: Obj, replicas: number, available: number): ApiWrite =>
  write(
    RSC,
    'update',
    'replicasets',
    rs.metadata.name,
    { ...rs, status: { replicas, readyReplicas: available, availableReplicas: available, observedGeneration: 1 } },
    { subresource: 'status' },
  );

/** The deployment controller's status write of the Deployment: the end of its sync. */
const dcStatus = (d: Obj): ApiWrite => write(DC, 'update', 'deployments', 'web', d, { subresource: 'status' });

const rsUpdate = (rs: Obj, replicas: number, desired?: number, max?: number): ApiWrite => {
  const annotations = { ...rs.metadata.annotations };
  if (desired !== undefined) annotations['deployment.kubernetes.io/desired-replicas'] = String(desired);
  if (max !== undefined) annotations['deployment.kubernetes.io/max-replicas'] = String(max);
  return write(DC, 'update', 'replicasets', rs.metadata.name, { ...rs, metadata: { ...rs.metadata, annotations }, spec: { ...rs.spec, replicas } });
};

function pod(name: string, rs: string, ready: boolean): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: '2026-11-25T09:30:00Z',
      labels: { app: 'web', 'pod-template-hash': rs.slice(4) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: `uid-${rs}`, controller: true, blockOwnerDeletion: true }],
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const replay = () => new HistoryReplay({ behaviour: behaviourFor(32).behaviour });
const dcEvents = (events: HistoryEvent[]) => events.filter((e) => e.actor.user === DC);

const OLD = replicaSet('web-old11', {
  replicas: 4,
  image: 'v1',
  revision: 1,
  desired: 4,
  max: 5,
  created: '2026-11-25T09:00:01Z',
  status: { replicas: 4, readyReplicas: 4, availableReplicas: 4 },
});
const D1 = deployment({ replicas: 4, image: 'v1', generation: 1, annotations: { 'deployment.kubernetes.io/revision': '1' } });
const D2 = deployment({ replicas: 4, image: 'v2', generation: 2, annotations: { 'deployment.kubernetes.io/revision': '1' } });
const NEW = replicaSet('web-new22', { replicas: 1, image: 'v2', revision: 2, desired: 4, max: 5, created: '2026-11-25T10:00:00Z' });

/** Deployment web at 4 replicas of v1 (web-old11, all available), then the person's image change to v2. */
function rolledToV2(): ApiWrite[] {
  return [
    write(PERSON, 'create', 'deployments', 'web', D1),
    write(DC, 'create', 'replicasets', 'web-old11', { ...OLD, status: {} }),
    rsStatus(OLD, 4, 4),
    dcStatus(D1),
    write(PERSON, 'patch', 'deployments', 'web', D2),
  ];
}

describe("the deployment controller's writes, judged by its rules", () => {
  it('a rolling update step by step: the new ReplicaSet created, the old scaled down within maxUnavailable, the new up within maxSurge', () => {
    const r = replay();
    const events = [...rolledToV2(), write(DC, 'create', 'replicasets', 'web-new22', NEW), rsUpdate(OLD, 3)].flatMap((w) => r.push(w));
    const [create0, create1, scaleOld] = dcEvents(events);
    expect(create0).toMatchObject({ verb: 'create', predicted: true, actor: { controller: false } });
    expect(create1).toMatchObject({ verb: 'create', predicted: true, controller: { kind: 'ReplicaSet', name: 'web-new22' } });
    expect(create1.message).toContain('created with 1 by the rolling sync of Deployment web');
    expect(create1.cause).toMatchObject([{ user: PERSON, object: { kind: 'Deployment', name: 'web' }, field: 'spec.template', change: 'image v1 → v2' }]);
    expect(scaleOld).toMatchObject({ verb: 'update', predicted: true, reason: null });
    // the decision's own arithmetic
    expect(scaleOld.message).toContain('web-old11 scaled 4 → 3 by the rolling sync of Deployment web: maxUnavailable 25% of 4 = 1 (rounded down)');
    // the new ReplicaSet's pod becomes ready: room for one more under maxSurge
    // (ready before the status write that ended the sync: still what the next sync acts on)
    const more = [
      rsStatus({ ...OLD, spec: { ...OLD.spec, replicas: 3 } }, 3, 3),
      write(RSC, 'create', 'pods', 'web-new22-a', pod('web-new22-a', 'web-new22', false)),
      write(KUBELET, 'patch', 'pods', 'web-new22-a', pod('web-new22-a', 'web-new22', true), { subresource: 'status' }),
      dcStatus(D2),
      rsStatus(NEW, 1, 1),
      rsUpdate(NEW, 2),
    ].flatMap((w) => r.push(w));
    const scaleNew = dcEvents(more)[0];
    expect(scaleNew).toMatchObject({ verb: 'update', predicted: true, controller: { name: 'web-new22' } });
    expect(scaleNew.message).toContain('web-new22 scaled 1 → 2');
    expect(scaleNew.message).toContain('maxSurge 25% of 4 = 1 (rounded up)');
    expect(scaleNew.cause).toMatchObject([{ user: KUBELET, object: { kind: 'Pod', name: 'web-new22-a' }, field: 'a Ready condition', change: 'False → True' }]);
  });

  it('a wrong write is flagged false, naming the field and both values', () => {
    const r = replay();
    const events = [...rolledToV2(), write(DC, 'create', 'replicasets', 'web-new22', NEW), rsUpdate(OLD, 2)].flatMap((w) => r.push(w));
    const wrong = dcEvents(events).at(-1)!;
    expect(wrong.predicted).toBe(false);
    expect(wrong.message).toContain('spec.replicas 2 where the rules scale it to 3');
    expect(wrong.message).toContain('maxUnavailable 25% of 4 = 1');
  });

  it('a Recreate: the old ReplicaSet scaled to 0 first, the new one created once no old pod runs', () => {
    const recreate = { type: 'Recreate' };
    const d1 = deployment({ replicas: 2, image: 'v1', generation: 1, strategy: recreate, annotations: { 'deployment.kubernetes.io/revision': '1' } });
    const d2 = deployment({ replicas: 2, image: 'v2', generation: 2, strategy: recreate, annotations: { 'deployment.kubernetes.io/revision': '1' } });
    const old = replicaSet('web-old11', { replicas: 2, image: 'v1', revision: 1, desired: 2, max: 2, created: '2026-11-25T09:00:01Z' });
    const r = replay();
    const events = [
      write(PERSON, 'create', 'deployments', 'web', d1),
      write(DC, 'create', 'replicasets', 'web-old11', old),
      write(RSC, 'create', 'pods', 'web-old11-a', pod('web-old11-a', 'web-old11', false)),
      write(KUBELET, 'patch', 'pods', 'web-old11-a', pod('web-old11-a', 'web-old11', true), { subresource: 'status' }),
      write(RSC, 'create', 'pods', 'web-old11-b', pod('web-old11-b', 'web-old11', true)),
      rsStatus(old, 2, 2),
      dcStatus(d1),
      write(PERSON, 'patch', 'deployments', 'web', d2),
      rsUpdate(old, 0),
      dcStatus(d2),
      write(RSC, 'delete', 'pods', 'web-old11-a', null),
      write(RSC, 'delete', 'pods', 'web-old11-b', null),
      rsStatus({ ...old, spec: { ...old.spec, replicas: 0 } }, 0, 0),
      write(
        DC,
        'create',
        'replicasets',
        'web-new22',
        replicaSet('web-new22', { replicas: 2, image: 'v2', revision: 2, desired: 2, max: 2, created: '2026-11-25T10:00:00Z' }),
      ),
    ].flatMap((w) => r.push(w));
    const [, scaleDown, create] = dcEvents(events);
    expect(scaleDown).toMatchObject({ verb: 'update', predicted: true });
    expect(scaleDown.message).toContain('web-old11 scaled 2 → 0 by the recreate sync of Deployment web');
    expect(create).toMatchObject({ verb: 'create', predicted: true });
    expect(create.message).toContain('created with 2 by the recreate sync');
  });

  it('a proportional scale: the person scales the Deployment mid-rollout, both ReplicaSets grow by their share', () => {
    const r = replay();
    const old3 = { ...OLD, spec: { ...OLD.spec, replicas: 3 } };
    const events = [
      ...rolledToV2(),
      write(DC, 'create', 'replicasets', 'web-new22', NEW),
      rsUpdate(OLD, 3),
      dcStatus(D2),
      rsStatus(old3, 3, 3),
      rsStatus(NEW, 1, 0),
      write(PERSON, 'patch', 'deployments', 'web', { kind: 'Scale', spec: { replicas: 8 } }, { subresource: 'scale', request: { spec: { replicas: 8 } } }),
      // 8 + maxSurge 2 = 10 allowed, 4 now: 6 more; each its share of 10 by its max-replicas 5
      // (3 → 6, 1 → 2), and the 2 left over to the largest (upstream's getProportion)
      rsUpdate(old3, 8, 8, 10),
      rsUpdate(NEW, 2, 8, 10),
    ].flatMap((w) => r.push(w));
    const [scaleOld, scaleNew] = dcEvents(events).slice(-2);
    expect(scaleOld).toMatchObject({ predicted: true });
    expect(scaleOld.message).toContain('web-old11 scaled 3 → 8 by the scaling sync of Deployment web');
    expect(scaleNew).toMatchObject({ predicted: true });
    expect(scaleNew.message).toContain('web-new22 scaled 1 → 2 by the scaling sync');
    expect(scaleOld.cause).toMatchObject([{ user: PERSON, object: { kind: 'Deployment' }, field: 'spec.replicas', change: '4 → 8' }]);
  });

  it('a Deployment the log never showed, or a ReplicaSet status logged without bodies, leaves the verdict unknown, saying what is missing', () => {
    const r = replay();
    const unseen = [write(DC, 'create', 'replicasets', 'web-old11', OLD)].flatMap((w) => r.push(w));
    expect(unseen[0].predicted).toBeNull();
    expect(unseen[0].message).toContain('unknown: Deployment web was not in the log before this write');
    const r2 = replay();
    const events = [
      ...rolledToV2().slice(0, 2),
      { ...rsStatus(OLD, 4, 4), bodies: false, request: null, response: null },
      dcStatus(D1),
      rolledToV2()[4],
      write(DC, 'create', 'replicasets', 'web-new22', NEW),
    ].flatMap((w) => r2.push(w));
    const blind = dcEvents(events).at(-1)!;
    expect(blind.predicted).toBeNull();
    expect(blind.message).toContain('the status of ReplicaSet web-old11 was written at');
    expect(blind.message).toContain('the rules read its available replicas');
  });

  it('a Deployment first seen after its creation is unknown until a status the deployment controller writes agrees with its ReplicaSets', () => {
    const r = replay();
    const events = [
      write(DC, 'create', 'replicasets', 'web-old11', { ...OLD, status: {} }),
      rsStatus(OLD, 4, 4),
      write(PERSON, 'patch', 'deployments', 'web', D1),
      rsUpdate(OLD, 4, 4, 6),
      dcStatus({ ...D1, status: { replicas: 4, availableReplicas: 4 } }),
      write(PERSON, 'patch', 'deployments', 'web', D2),
      write(DC, 'create', 'replicasets', 'web-new22', NEW),
    ].flatMap((w) => r.push(w));
    const [, early, create] = dcEvents(events);
    expect(early.predicted).toBeNull();
    expect(early.message).toContain('unknown: Deployment web was created before the log starts');
    expect(create).toMatchObject({ verb: 'create', predicted: true });
  });

  it('a scale of a ReplicaSet the log never showed is unknown, naming it', () => {
    const r = replay();
    const events = [write(PERSON, 'create', 'deployments', 'web', D1), rsUpdate(OLD, 3)].flatMap((w) => r.push(w));
    expect(dcEvents(events)[0].predicted).toBeNull();
    expect(dcEvents(events)[0].message).toContain('unknown: ReplicaSet web-old11 was not in the log before this write');
  });

  it("a Recreate in a log without pods/status writes: pods' phases unknown, the verdict null", () => {
    const recreate = { type: 'Recreate' };
    const d1 = deployment({ replicas: 1, image: 'v1', generation: 1, strategy: recreate, annotations: { 'deployment.kubernetes.io/revision': '1' } });
    const d2 = deployment({ replicas: 1, image: 'v2', generation: 2, strategy: recreate, annotations: { 'deployment.kubernetes.io/revision': '1' } });
    const old = replicaSet('web-old11', { replicas: 1, image: 'v1', revision: 1, desired: 1, max: 1, created: '2026-11-25T09:00:01Z' });
    const r = replay();
    const events = [
      write(PERSON, 'create', 'deployments', 'web', d1),
      write(DC, 'create', 'replicasets', 'web-old11', old),
      write(RSC, 'create', 'pods', 'web-old11-a', pod('web-old11-a', 'web-old11', false)),
      rsStatus(old, 1, 1),
      dcStatus(d1),
      write(PERSON, 'patch', 'deployments', 'web', d2),
      rsUpdate(old, 0),
    ].flatMap((w) => r.push(w));
    const scaleDown = dcEvents(events).at(-1)!;
    expect(scaleDown.predicted).toBeNull();
    expect(scaleDown.message).toContain("pods' phases are unknown");
    // a pod's write logged without bodies: the pods Recreate reads are unknown from there
    const r2 = replay();
    const lost = [
      write(PERSON, 'create', 'deployments', 'web', d1),
      write(DC, 'create', 'replicasets', 'web-old11', old),
      write(RSC, 'create', 'pods', 'web-old11-a', pod('web-old11-a', 'web-old11', false)),
      write(KUBELET, 'patch', 'pods', 'web-old11-a', null, { subresource: 'status', bodies: false, response: null }),
      rsStatus(old, 1, 1),
      dcStatus(d1),
      write(PERSON, 'patch', 'deployments', 'web', d2),
      rsUpdate(old, 0),
    ].flatMap((w) => r2.push(w));
    const blind = dcEvents(lost).at(-1)!;
    expect(blind.predicted).toBeNull();
    expect(blind.message).toContain('pod web-old11-a was written at');
    expect(blind.message).toContain("Recreate waits for the old ReplicaSets' pods to stop running");
  });
});
