// The replay rules, one by one, on small scripted logs: what is predicted, what is flagged with
// what the rules would have done instead, and where the state is unknown (and when it is known again).
import { describe, expect, it } from 'vitest';
import { behaviourFor } from '../../src/core/versions.js';
import { HistoryReplay } from '../../src/history/replay.js';
import type { ApiWrite, HistoryEvent } from '../../src/history/types.js';

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const NS = 'shop';
const RS_UID = 'rs-uid-1';
let clock = Date.parse('2026-11-25T10:00:00Z');
const tick = () =>
  new Date((clock += 1000))
    .toISOString()
    .replace('Z', '000Z')
    .replace(/\.(\d{3})000Z$/, '.$1000Z');

function rs(replicas: number, generation = 1, status: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: NS, uid: RS_UID, generation, resourceVersion: '1', creationTimestamp: '2026-11-25T09:00:00Z' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    },
    status: { replicas: 0, ...status },
  };
}

interface PodOpts {
  phase?: string;
  ready?: boolean;
  owned?: boolean;
  labels?: Record<string, string>;
  node?: string;
  restarts?: number;
  created?: string;
}

function pod(name: string, o: PodOpts = {}) {
  const ready = o.ready ?? o.phase === 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: o.created ?? '2026-11-25T09:30:00Z',
      labels: o.labels ?? { app: 'web' },
      ...(o.owned === false
        ? {}
        : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: RS_UID, controller: true, blockOwnerDeletion: true }] }),
    },
    spec: { nodeName: o.node ?? (o.phase === 'Pending' ? undefined : 'node-1'), containers: [{ name: 'c', image: 'x' }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-11-25T09:31:00Z' }],
      containerStatuses: [{ name: 'c', ready, restartCount: o.restarts ?? 0 }],
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

/** A ReplicaSet with pods a (Running, ready), b (Pending), c (Running, ready), created by a user. */
function threePods(): ApiWrite[] {
  return [
    write('admin', 'create', 'replicasets', 'web', rs(3)),
    write('admin', 'create', 'pods', 'a', pod('a')),
    write('admin', 'create', 'pods', 'b', pod('b', { phase: 'Pending', node: 'node-2' })),
    write('admin', 'create', 'pods', 'c', pod('c')),
  ];
}

describe('deletes', () => {
  it('a delete of the pod the rules rank first is predicted, with its criterion and sentence', () => {
    const r = replay();
    const events = run(r, [
      ...threePods(),
      write('admin', 'patch', 'replicasets', 'web', { spec: { replicas: 2 } }, { subresource: 'scale', response: { kind: 'Scale', spec: { replicas: 2 } } }),
      write(RS_USER, 'delete', 'pods', 'b', {
        ...pod('b', { phase: 'Pending' }),
        metadata: { ...pod('b').metadata, deletionTimestamp: '2026-11-25T10:00:09Z', deletionGracePeriodSeconds: 0 },
      }),
    ]);
    const del = events.at(-1)!;
    expect(del).toMatchObject({
      verb: 'delete',
      pod: 'b',
      reason: 'Phase',
      predicted: true,
      actor: { controller: true },
      controller: { kind: 'ReplicaSet', namespace: NS, name: 'web' },
    });
    expect(del.message).toContain('b is Pending');
    expect(events.find((e) => e.verb === 'scale')).toMatchObject({ predicted: null, reason: null, message: 'admin scaled ReplicaSet web from 3 to 2' });
  });

  it('a delete of a pod the rules rank later is flagged, naming the pod they would delete', () => {
    const r = replay();
    const events = run(r, [...threePods(), write('admin', 'update', 'replicasets', 'web', rs(2, 2)), write(RS_USER, 'delete', 'pods', 'a', pod('a'))]);
    const del = events.at(-1)!;
    expect(del).toMatchObject({ verb: 'delete', pod: 'a', predicted: false, reason: null });
    expect(del.message).toContain('the rules delete b (Phase)');
    expect(events.find((e) => e.verb === 'update')!.message).toBe('admin updated ReplicaSet web: replicas 3 → 2');
  });
});

describe('creates', () => {
  it('creates beyond what one sync plans are flagged (extra creates after expectations expired)', () => {
    const r = replay();
    const made = (n: string) => write(RS_USER, 'create', 'pods', null, pod(n, { phase: 'Pending' }));
    const events = run(r, [write('admin', 'create', 'replicasets', 'web', rs(2)), made('x1'), made('x2'), made('x3')]);
    expect(events.slice(1).map((e) => [e.pod, e.predicted, e.reason])).toEqual([
      ['x1', true, 'TooFewReplicas'],
      ['x2', true, 'TooFewReplicas'],
      ['x3', false, null],
    ]);
    expect(events[3].message).toContain('create number 3 of a sync whose rules create 2');
  });

  it('a status write after the creates starts a new sync when the planned one would not write it', () => {
    const r = replay();
    const made = (n: string) => write(RS_USER, 'create', 'pods', null, pod(n, { phase: 'Pending' }));
    const status = (s: Record<string, unknown>) => write(RS_USER, 'update', 'replicasets', 'web', { ...rs(2), status: s }, { subresource: 'status' });
    const events = run(r, [
      write('admin', 'create', 'replicasets', 'web', rs(2)),
      made('x1'),
      made('x2'),
      status({ replicas: 0, observedGeneration: 1 }),
      status({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 }),
    ]);
    expect(events.slice(3).map((e) => [e.verb, e.predicted])).toEqual([
      ['status', true],
      ['status', true],
    ]);
    // a status the rules never write is flagged
    const bad = run(r, [status({ replicas: 7, observedGeneration: 1 })]);
    expect(bad[0]).toMatchObject({ verb: 'status', predicted: false });
    expect(bad[0].message).toContain('wrote status status.replicas 7 where the rules write 2;');
  });
});

describe('claims', () => {
  it('adopting a matching orphan and releasing a pod whose labels changed are predicted', () => {
    const r = replay();
    const orphan = pod('o', { owned: false });
    const events = run(r, [
      write('admin', 'create', 'replicasets', 'web', rs(1)),
      write('admin', 'create', 'pods', 'o', orphan),
      write(RS_USER, 'patch', 'pods', 'o', pod('o')),
      write('admin', 'patch', 'pods', 'o', pod('o', { labels: { app: 'debug' } })),
      write(RS_USER, 'patch', 'pods', 'o', pod('o', { owned: false, labels: { app: 'debug' } })),
    ]);
    expect(events[2]).toMatchObject({ verb: 'adopt', pod: 'o', reason: 'OrphanMatching', predicted: true });
    expect(events[3]).toMatchObject({ verb: 'patch', actor: { controller: false }, message: 'admin patched pod o: label app web → debug' });
    expect(events[4]).toMatchObject({ verb: 'release', pod: 'o', reason: 'OwnedNotMatching', predicted: true });
  });
});

describe('gaps', () => {
  it('a write logged without bodies makes the state unknown until the object is seen whole again', () => {
    const r = replay();
    const events = run(r, [
      ...threePods(),
      write('admin', 'patch', 'pods', 'c', null, { bodies: false }),
      write('admin', 'update', 'replicasets', 'web', rs(2, 2)),
      write(RS_USER, 'delete', 'pods', 'b', pod('b', { phase: 'Pending' })),
    ]);
    expect(events[4].message).toContain('logged without bodies: the state of pod c is unknown from here');
    expect(events.at(-1)).toMatchObject({ verb: 'delete', predicted: null });
    expect(events.at(-1)!.message).toContain('state unknown from here: pod c was written at');
    // pod c seen whole again: explanations resume
    const more = run(r, [
      write('admin', 'update', 'pods', 'c', pod('c', { restarts: 3 })),
      write('admin', 'update', 'replicasets', 'web', rs(1, 3)),
      write(RS_USER, 'delete', 'pods', 'c', pod('c')),
    ]);
    expect(more.at(-1)).toMatchObject({ verb: 'delete', pod: 'c', predicted: true, reason: 'MoreRestarts' });
  });

  it('a status write cut from the log (EKS [Truncated...]) loses the status only: the next adopt and delete are judged, the next status is not', () => {
    const r = replay();
    const orphan = pod('o', { owned: false });
    const events = run(r, [
      ...threePods(),
      write(RS_USER, 'update', 'replicasets', 'web', null, { subresource: 'status', bodies: false, truncated: true, code: -1 }),
      write('admin', 'create', 'pods', 'o', orphan),
      // (a scale answers with the Scale, not the ReplicaSet: the status stays unknown)
      write('admin', 'patch', 'replicasets', 'web', { kind: 'Scale', spec: { replicas: 2 } }, { subresource: 'scale' }),
      write(RS_USER, 'patch', 'pods', 'o', pod('o')),
      write(RS_USER, 'delete', 'pods', 'b', pod('b', { phase: 'Pending' })),
      write(RS_USER, 'delete', 'pods', 'o', pod('o')),
      write(RS_USER, 'update', 'replicasets', 'web', rs(2, 2, { replicas: 4, readyReplicas: 3, availableReplicas: 3, observedGeneration: 2 }), {
        subresource: 'status',
      }),
    ]);
    expect(events[4].message).toContain('the state of the status of ReplicaSet web (not its spec) is unknown from here');
    expect(events[7]).toMatchObject({ verb: 'adopt', pod: 'o', predicted: true, reason: 'OrphanMatching' });
    expect(events[8]).toMatchObject({ verb: 'delete', pod: 'b', predicted: true });
    expect(events[9]).toMatchObject({ verb: 'delete', pod: 'o', predicted: true });
    expect(events[10]).toMatchObject({ verb: 'status', predicted: null });
    expect(events[10].message).toContain('the status of ReplicaSet web was written at');
    // the status seen whole again: the next status write is judged
    const more = run(r, [
      write('admin', 'update', 'replicasets', 'web', rs(1, 3, { replicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2 })),
      write(RS_USER, 'delete', 'pods', 'c', pod('c')),
      write(RS_USER, 'update', 'replicasets', 'web', rs(1, 3, { replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 3 }), {
        subresource: 'status',
      }),
    ]);
    expect(more.at(-1)).toMatchObject({ verb: 'status', predicted: true });
  });

  it('a controller first seen after its creation is not explained until its status agrees with the pods seen', () => {
    const r = replay();
    const status = (s: Record<string, unknown>) => write(RS_USER, 'update', 'replicasets', 'web', { ...rs(1, 1, s) }, { subresource: 'status' });
    const events = run(r, [
      write('admin', 'update', 'replicasets', 'web', rs(1)),
      write(RS_USER, 'create', 'pods', null, pod('n1', { phase: 'Pending' })),
      status({ replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 }),
      write('admin', 'update', 'replicasets', 'web', rs(0, 2, { replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 })),
      write(RS_USER, 'delete', 'pods', 'n1', pod('n1', { phase: 'Pending' })),
    ]);
    expect(events[1]).toMatchObject({ verb: 'create', predicted: null });
    expect(events[1].message).toContain('was created before the log starts');
    expect(events.at(-1)).toMatchObject({ verb: 'delete', predicted: true, reason: 'ScaleToZero' });
  });

  it('a controller write on a pod the log never showed is on unknown state', () => {
    const r = replay();
    const events = run(r, [write('admin', 'create', 'replicasets', 'web', rs(0)), write(RS_USER, 'delete', 'pods', 'ghost', pod('ghost'))]);
    expect(events[1]).toMatchObject({ verb: 'delete', predicted: null });
    expect(events[1].message).toContain('pod ghost was not in the log before this write');
  });

  it('a write the API server refused is no event and changes nothing', () => {
    const r = replay();
    const events = run(r, [...threePods(), write('admin', 'delete', 'pods', 'a', pod('a'), { code: 409 })]);
    expect(events.length).toBe(4);
    expect(r.history('audit-log', events, { format: 'kube-apiserver', truncated: 0, duplicates: 0, missing: [] })).toMatchObject({
      kind: 'ReconcileHistory',
      from: events[0].time,
      to: events[3].time,
    });
  });
});

// Seen in the sandbox scenarios of `run` (test/history/sandbox-scenarios.test.ts): writes of the
// scheduler and kubelet land between a sync's writes, a status write is retried after a
// conflict, and pods equal on every criterion are deleted in any order.
describe('concurrent writes, retries and ties', () => {
  const made = (n: string) => write(RS_USER, 'create', 'pods', null, pod(n, { phase: 'Pending' }));
  const status = (s: Record<string, unknown>, extra: Partial<ApiWrite> = {}) =>
    write(RS_USER, 'update', 'replicasets', 'web', { ...rs(2), status: s }, { subresource: 'status', ...extra });
  const bind = (n: string) =>
    write(
      'system:kube-scheduler',
      'create',
      'pods',
      n,
      { target: { name: 'node-1' } },
      { subresource: 'binding', response: { kind: 'Status', status: 'Success', code: 201 } },
    );

  it('a sync that the scheduler cut into goes on: its next create and the status it computed at its start are predicted', () => {
    const r = replay();
    const events = run(r, [
      write('admin', 'create', 'replicasets', 'web', rs(2)),
      made('x1'),
      bind('x1'),
      made('x2'),
      bind('x2'),
      status({ replicas: 0, observedGeneration: 1 }),
    ]);
    const mine = events.filter((e) => e.actor.controller);
    expect(mine.map((e) => [e.verb, e.predicted])).toEqual([
      ['create', true],
      ['create', true],
      ['status', true],
    ]);
    expect(mine[2].message).toBe('wrote status: replicas 0, ready 0, available 0, observedGeneration 1');
    // once its status is written, that sync is over: the same status again is not its
    const again = run(r, [bind('x1'), status({ replicas: 0, observedGeneration: 1 })]);
    expect(again.filter((e) => e.actor.controller).map((e) => e.predicted)).toEqual([false]);
  });

  it('a status write retried after a 409 Conflict is predicted when it is the status the rules compute, even unchanged', () => {
    const r = replay();
    const base = [
      write('admin', 'create', 'replicasets', 'web', rs(2)),
      made('x1'),
      made('x2'),
      status({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 }),
      bind('x1'),
    ];
    const retried = run(r, [
      ...base,
      status({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 }, { code: 409 }),
      bind('x2'),
      status({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 }),
    ]);
    expect(retried.at(-1)).toMatchObject({ verb: 'status', predicted: true });
    expect(retried.at(-1)!.message).toContain('again, retrying after the server refused the previous write (409 Conflict)');
    // without the refused write before it, an unchanged status write is not explained
    const r2 = replay();
    const plain = run(r2, [...base, bind('x2'), status({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 })]);
    expect(plain.at(-1)).toMatchObject({ verb: 'status', predicted: false });
  });

  it('a delete of a pod equal on every criterion to the Tie victim is predicted as Tie; a pod that ranks later is not', () => {
    const scaleTo = (n: number) =>
      write('admin', 'patch', 'replicasets', 'web', { spec: { replicas: n } }, { subresource: 'scale', response: { kind: 'Scale', spec: { replicas: n } } });
    const pods = [
      write('admin', 'create', 'replicasets', 'web', rs(3)),
      write('admin', 'create', 'pods', 'a', pod('a')),
      write('admin', 'create', 'pods', 'b', pod('b')),
      write('admin', 'create', 'pods', 'c', pod('c', { restarts: 0, created: '2026-11-25T09:00:00Z' })),
    ];
    // a and b tie (the rules pick a by cache order); c is older: it stays
    const tie = run(replay(), [...pods, scaleTo(2), write(RS_USER, 'delete', 'pods', 'b', pod('b'))]).at(-1)!;
    expect(tie).toMatchObject({ verb: 'delete', pod: 'b', predicted: true, reason: 'Tie' });
    expect(tie.message).toContain('equal on every criterion to a');
    const older = run(replay(), [...pods, scaleTo(2), write(RS_USER, 'delete', 'pods', 'c', pod('c', { created: '2026-11-25T09:00:00Z' }))]).at(-1)!;
    expect(older).toMatchObject({ verb: 'delete', pod: 'c', predicted: false });
  });
});

// A controller plans on its informer's view, which may be a moment behind the log (and `reconcile`
// on its list): a write the rules do not do on the state just before it, but do on the state of a
// moment before (after the cause, within 10 s), is predicted, and says which state.
describe("the controller's view a moment behind the log", () => {
  it('a delete decided before the kubelet reported another pod not ready is predicted on that state', () => {
    const r = replay();
    run(r, [
      write('admin', 'create', 'replicasets', 'web', rs(3)),
      write('admin', 'create', 'pods', 'a', pod('a', { phase: 'Running', created: '2026-11-25T09:40:00Z' })),
      write('admin', 'create', 'pods', 'b', pod('b', { phase: 'Running' })),
      write('admin', 'create', 'pods', 'c', pod('c', { phase: 'Running' })),
      write('admin', 'update', 'replicasets', 'web', rs(2, 2), { subresource: 'scale', response: { spec: { replicas: 2 } } }),
      write('system:node:node-1', 'patch', 'pods', 'c', pod('c', { ready: false }), { subresource: 'status' }),
    ]);
    const [del] = r.push(write(RS_USER, 'delete', 'pods', 'a', pod('a', { phase: 'Running', created: '2026-11-25T09:40:00Z' })));
    expect(del).toMatchObject({ verb: 'delete', pod: 'a', predicted: true, reason: 'UidOrder' });
    expect(del.message).toMatch(/\(planned on the state before 2026-11-25T\d\d:\d\d:\d\d\.000Z: the controller.s view 1\.000 s before this write\)$/);
  });

  // three pods turn ready one after another; the controller, woken by the first, writes the
  // status of one ready pod after the log has all three
  const readyInTurn = (): ApiWrite[] => [
    write('admin', 'create', 'replicasets', 'web', rs(3, 1, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 })),
    write('admin', 'create', 'pods', 'a', pod('a', { ready: false })),
    write('admin', 'create', 'pods', 'b', pod('b', { ready: false })),
    write('admin', 'create', 'pods', 'c', pod('c', { ready: false })),
  ];
  const ready = (n: string) => write('system:node:node-1', 'patch', 'pods', n, pod(n, { ready: true }), { subresource: 'status' });
  const statusOf = (readyReplicas: number) =>
    write(
      RS_USER,
      'update',
      'replicasets',
      'web',
      { ...rs(3), status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas, availableReplicas: readyReplicas, observedGeneration: 1 } },
      { subresource: 'status' },
    );

  it("a status written from pods older than the log's latest Ready change is predicted on them", () => {
    const r = replay();
    run(r, [...readyInTurn(), ready('a'), ready('b'), ready('c')]);
    const [st] = r.push(statusOf(1));
    expect(st).toMatchObject({ verb: 'status', predicted: true });
    expect(st.message).toMatch(
      /^wrote status: replicas 3, ready 1, available 1, observedGeneration 1 \(planned on the pods before .*: the controller.s view 2\.000 s before this write\)$/,
    );
  });

  it('statuses written from a lagging informer, one after another, are predicted while the views only move forward', () => {
    const r = replay();
    run(r, [...readyInTurn(), ready('a'), ready('b'), ready('c')]);
    // ready 1 from the pods before b's report, then ready 2 from those before c's: both older than the first write
    expect(r.push(statusOf(1))[0]).toMatchObject({ verb: 'status', predicted: true });
    expect(r.push(statusOf(2))[0]).toMatchObject({ verb: 'status', predicted: true });
    expect(r.push(statusOf(3))[0]).toMatchObject({ verb: 'status', predicted: true });
  });

  it('a status that only a view older than the previous status gives is unknown, not false; one no pods give is false', () => {
    const r = replay();
    run(r, [...readyInTurn(), ready('a'), ready('b')]);
    expect(r.push(statusOf(2))[0]).toMatchObject({ verb: 'status', predicted: true });
    run(r, [ready('c')]);
    // ready 1 again: the pods of before b was ready, older than any that give the ready 2 it wrote
    const [st] = r.push(statusOf(1));
    expect(st).toMatchObject({ verb: 'status', predicted: null });
    expect(st.message).toContain('its informer would have gone back');
    const [wrong] = r.push(statusOf(4));
    expect(wrong).toMatchObject({ verb: 'status', predicted: false });
  });

  it('a delete no state of the window explains is not predicted', () => {
    const r = replay();
    run(r, [
      write('admin', 'create', 'replicasets', 'web', rs(3)),
      write('admin', 'create', 'pods', 'a', pod('a', { phase: 'Running', created: '2026-11-25T09:40:00Z' })),
      write('admin', 'create', 'pods', 'b', pod('b', { phase: 'Running' })),
      write('admin', 'create', 'pods', 'c', pod('c', { phase: 'Running' })),
      write('admin', 'update', 'replicasets', 'web', rs(2, 2), { subresource: 'scale', response: { spec: { replicas: 2 } } }),
    ]);
    const [del] = r.push(write(RS_USER, 'delete', 'pods', 'b', pod('b', { phase: 'Running' })));
    expect(del).toMatchObject({ verb: 'delete', pod: 'b', predicted: false });
  });
});

// Upstream ranks ready times in logarithmic buckets of their age at the moment it decides: pods a
// few seconds old cross a bucket edge within a second, so the delete that reaches the log later
// may rank them otherwise than the controller did.
describe('the ranking at the moment the controller decided', () => {
  const at = (s: string) => `2026-11-26T08:00:${s}Z`;
  const readyAt = (name: string, ready: string) => {
    const p = pod(name, { created: '2026-11-26T07:59:00Z' });
    return { ...p, status: { ...p.status, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ready }] } };
  };
  // at 10.000 a is 4.5 s ready (bucket 2^32 ns), b 4.1 s (bucket 2^31 ns): the rules delete b;
  // until 09.795 (a's age crossing 2^32 ns) both share a bucket, where uid order deletes a
  const scaledDown = (deleteAt: string): HistoryEvent => {
    const r = replay();
    const x = (time: string, w: ApiWrite): ApiWrite => ({ ...w, time });
    run(r, [
      x(at('00.000'), write('admin', 'create', 'replicasets', 'web', rs(2))),
      x(at('01.000'), write('admin', 'create', 'pods', 'a', readyAt('a', at('05.500')))),
      x(at('01.000'), write('admin', 'create', 'pods', 'b', readyAt('b', at('05.900')))),
      x(at('09.000'), write('admin', 'update', 'replicasets', 'web', rs(1, 2), { subresource: 'scale', response: { spec: { replicas: 1 } } })),
    ]);
    return r.push(x(at(deleteAt), write(RS_USER, 'delete', 'pods', 'a', readyAt('a', at('05.500')))))[0];
  };

  it('a delete the rules do at a time between the last change and the write is predicted, naming that time', () => {
    const del = scaledDown('10.000');
    expect(del).toMatchObject({ verb: 'delete', pod: 'a', predicted: true });
    expect(del.message).toContain(`(ranked at ${at('09.000')}: the controller deciding 1.000 s before this write, on the state of then)`);
  });

  it('the same delete, decided before the edge and logged before it, is predicted on the state of the write', () => {
    const del = scaledDown('09.500');
    expect(del).toMatchObject({ verb: 'delete', pod: 'a', predicted: true });
    expect(del.message).not.toContain('ranked at');
  });
});
