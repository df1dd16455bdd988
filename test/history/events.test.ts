// `history --events`: the controllers' Events (core/v1 and events.k8s.io/v1) read as the writes
// they tell of, counted and combined Events, the deployment controller's scales as causes,
// the kubelet's Killing of pods nobody's Event says were deleted, targets and scope, and that
// any order or repetition of the same Events gives the same history. Then the files
// buildEventsHistory reads: JSON, YAML, gzip, watch output, stdin, and what it refuses.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { EVENTS_WHY, historyFromEvents, readEvent, type EventRecord, type EventsScope } from '../../src/history/events.js';
import { COMBINED_PREFIX } from '../../src/history/recording.js';
import { buildEventsHistory } from '../../src/services/events-history.js';
import type { HistoryResult } from '../../src/services/history-service.js';

const NS = 'shop';
const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const RC_USER = 'system:serviceaccount:kube-system:replication-controller';
const DEPLOY_USER = 'system:serviceaccount:kube-system:deployment-controller';
const T = (s: number) => new Date(Date.parse('2026-11-25T10:00:00Z') + s * 1000).toISOString().replace('.000Z', 'Z');

interface EvOpts {
  name?: string;
  ns?: string;
  reason: string;
  message: string;
  kind?: string;
  obj?: string;
  component?: string;
  count?: number;
  first: number;
  last?: number;
  type?: string;
}

let seq = 0;
/** A core/v1 Event as `kubectl get events -o json` prints it. */
function ev(o: EvOpts): Record<string, any> {
  const ns = o.ns ?? NS;
  const obj = o.obj ?? 'web';
  const component =
    o.component ??
    (o.kind === 'Deployment'
      ? 'deployment-controller'
      : o.kind === 'Pod'
        ? 'kubelet'
        : o.kind === 'ReplicationController'
          ? 'replication-controller'
          : 'replicaset-controller');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: o.name ?? `${obj}.${(++seq).toString(16).padStart(16, '0')}`,
      namespace: ns,
      uid: `uid-${o.name ?? seq}`,
      resourceVersion: String(seq),
      creationTimestamp: T(o.first),
    },
    involvedObject: {
      apiVersion: o.kind === 'Deployment' || (o.kind ?? 'ReplicaSet') === 'ReplicaSet' ? 'apps/v1' : 'v1',
      kind: o.kind ?? 'ReplicaSet',
      name: obj,
      namespace: ns,
      uid: `${obj}-uid`,
    },
    reason: o.reason,
    message: o.message,
    source: { component },
    firstTimestamp: T(o.first),
    lastTimestamp: T(o.last ?? o.first),
    count: o.count ?? 1,
    type: o.type ?? 'Normal',
    eventTime: null,
    reportingComponent: component,
    reportingInstance: '',
  };
}

/** The same Event as events.k8s.io/v1 serves it. */
function evNew(o: EvOpts): Record<string, any> {
  const core = ev(o);
  const count = o.count ?? 1;
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: core.metadata,
    regarding: core.involvedObject,
    reason: core.reason,
    note: core.message,
    type: core.type,
    eventTime: `${T(o.first).slice(0, -1)}.000000Z`,
    ...(count > 1 ? { series: { count, lastObservedTime: `${T(o.last ?? o.first).slice(0, -1)}.000000Z` } } : {}),
    reportingController: core.reportingComponent,
    reportingInstance: '',
    deprecatedSource: core.source,
  };
}

const created = (pod: string, s: number, o: Partial<EvOpts> = {}) => ev({ reason: 'SuccessfulCreate', message: `Created pod: ${pod}`, first: s, ...o });
const deleted = (pod: string, s: number, o: Partial<EvOpts> = {}) => ev({ reason: 'SuccessfulDelete', message: `Deleted pod: ${pod}`, first: s, ...o });
const scaled = (rs: string, from: number, to: number, s: number, o: Partial<EvOpts> = {}) =>
  ev({
    reason: 'ScalingReplicaSet',
    kind: 'Deployment',
    obj: 'web',
    message: `Scaled ${to > from ? 'up' : 'down'} replica set ${rs} from ${from} to ${to}`,
    first: s,
    ...o,
  });
const killing = (pod: string, s: number, o: Partial<EvOpts> = {}) =>
  ev({ reason: 'Killing', kind: 'Pod', obj: pod, message: 'Stopping container app', first: s, ...o });

function history(objects: unknown[], scope: EventsScope = {}) {
  return historyFromEvents(
    objects.map(readEvent).filter((r): r is EventRecord => r !== null),
    scope,
  );
}

describe('the controllers’ Events as writes', () => {
  it('Created pod / Deleted pod are creates and deletes of the controller, in time order, with no verdict and the reason why', () => {
    const h = history([deleted('web-b', 20), created('web-a', 5), created('web-b', 10)]);
    expect(h.events.map((e) => [e.time, e.verb, e.pod, e.actor.user, e.actor.controller, e.controller, e.reason, e.predicted, e.cause])).toEqual([
      [T(5), 'create', 'web-a', RS_USER, true, { kind: 'ReplicaSet', namespace: NS, name: 'web' }, 'TooFewReplicas', null, null],
      [T(10), 'create', 'web-b', RS_USER, true, { kind: 'ReplicaSet', namespace: NS, name: 'web' }, 'TooFewReplicas', null, null],
      [T(20), 'delete', 'web-b', RS_USER, true, { kind: 'ReplicaSet', namespace: NS, name: 'web' }, null, null, null],
    ]);
    expect(h.events[0].message).toBe(`created pod web-a; ${EVENTS_WHY}`);
    expect(h.events[2].message).toBe(`deleted pod web-b; ${EVENTS_WHY}`);
    expect(h.coverage).toMatchObject({ format: 'events', truncated: 0, duplicates: 0 });
    expect(h.coverage.missing.join('\n')).toMatch(/state of pods and controllers \(Events carry only what happened, in words\)/);
    expect(h.coverage.missing.join('\n')).toMatch(/event TTL \(kube-apiserver --event-ttl, 1h by default\)/);
    expect(h.coverage.missing.join('\n')).toMatch(/writes of users \(Events are written by controllers, not by kubectl\)/);
  });

  it('a ReplicationController’s Events and rs-reconcile’s own are the controllers’ too', () => {
    const h = history([
      created('api-x', 1, { kind: 'ReplicationController', obj: 'api' }),
      created('web-q', 2, { component: 'rs-reconcile' }),
      created('job-1', 3, { kind: 'Job', obj: 'job', component: 'job-controller' }), // not this history's
    ]);
    expect(h.events.map((e) => [e.actor.user, e.actor.controller, e.controller?.kind])).toEqual([
      [RC_USER, true, 'ReplicationController'],
      ['rs-reconcile', true, 'ReplicaSet'],
    ]);
  });

  it('a combined Event of N creates is one event at its last time: "N times between A and B", the last pod named, no time invented', () => {
    const combined = ev({ reason: 'SuccessfulCreate', message: `${COMBINED_PREFIX}Created pod: web-z`, count: 16, first: 30, last: 42 });
    const h = history([created('web-a', 1), combined]);
    expect(h.events).toHaveLength(2);
    const e = h.events[1];
    expect(e).toMatchObject({ time: T(42), verb: 'create', pod: 'web-z', predicted: null });
    expect(e.message).toContain(`created pods 16 times between ${T(30)} and ${T(42)}, the last web-z`);
    expect(e.message).toContain('names only the last pod and keeps no time of the others');
  });

  it('an Event counted again (same message) is N writes between its first and last time', () => {
    const h = history([deleted('web-a', 3, { count: 2, last: 9 })]);
    expect(h.events[0]).toMatchObject({ time: T(9), pod: 'web-a' });
    expect(h.events[0].message).toContain(`deleted pod web-a 2 times between ${T(3)} and ${T(9)}`);
  });

  it('times are written alike whatever the Event held (…Z, ….000Z, a MicroTime), and N writes within one time are "N times at T"', () => {
    const micro = {
      ...evNew({ reason: 'SuccessfulCreate', message: 'Created pod: web-m', first: 1, count: 2 }),
      eventTime: '2026-11-25T10:00:01.123456Z',
      series: { count: 2, lastObservedTime: '2026-11-25T10:00:01.123456Z' },
    };
    const h = history([
      micro,
      created('web-n', 2, { count: 3 }),
      { ...created('web-o', 3), firstTimestamp: '2026-11-25T10:00:03.000Z', lastTimestamp: '2026-11-25T10:00:03.000Z' },
    ]);
    expect(h.events.map((e) => e.time)).toEqual(['2026-11-25T10:00:01.123Z', T(2), T(3)]);
    expect(h.events[0].message).toContain('web-m 2 times at 2026-11-25T10:00:01.123Z');
    expect(h.events[1].message).toContain(`web-n 3 times at ${T(2)}`);
  });

  it('the same Event seen again with a higher count is one Event: the later sighting counts, the others are duplicates', () => {
    const first = ev({ name: 'web.1', reason: 'SuccessfulCreate', message: `${COMBINED_PREFIX}Created pod: web-c`, count: 1, first: 10 });
    const again = ev({ name: 'web.1', reason: 'SuccessfulCreate', message: `${COMBINED_PREFIX}Created pod: web-f`, count: 4, first: 10, last: 13 });
    const h = history([again, first, again]);
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ time: T(13), pod: 'web-f' });
    expect(h.coverage.duplicates).toBe(2);
    expect(h).toMatchObject({ read: 3, distinct: 1 });
  });

  it('FailedCreate and FailedDelete are refused writes, not events', () => {
    const h = history([
      ev({
        reason: 'FailedCreate',
        type: 'Warning',
        message: 'Error creating: pods "web-" is forbidden: exceeded quota: q, requested: cpu=1',
        count: 7,
        first: 1,
        last: 50,
      }),
      ev({ reason: 'FailedDelete', type: 'Warning', message: 'Error deleting: pods "web-a" is forbidden: User cannot delete', first: 60 }),
    ]);
    expect(h.events).toEqual([]);
    expect(h.refused).toEqual([
      {
        time: T(50),
        user: RS_USER,
        verb: 'create',
        controller: { kind: 'ReplicaSet', namespace: NS, name: 'web' },
        pod: null,
        code: 403,
        message: `FailedCreate: Error creating: pods "web-" is forbidden: exceeded quota: q, requested: cpu=1 (7 times between ${T(1)} and ${T(50)})`,
      },
      {
        time: T(60),
        user: RS_USER,
        verb: 'delete',
        controller: { kind: 'ReplicaSet', namespace: NS, name: 'web' },
        pod: 'web-a',
        code: 403,
        message: 'FailedDelete: Error deleting: pods "web-a" is forbidden: User cannot delete',
      },
    ]);
  });
});

describe('the deployment controller’s scales', () => {
  it('ScalingReplicaSet is a scale of the ReplicaSet, and the cause of as many creates as it asked for', () => {
    const h = history([
      scaled('web-7d9c5', 1, 3, 10),
      created('web-7d9c5-aaaaa', 11, { obj: 'web-7d9c5' }),
      created('web-7d9c5-bbbbb', 11, { obj: 'web-7d9c5' }),
      created('web-7d9c5-ccccc', 40, { obj: 'web-7d9c5' }),
    ]);
    const [scale, c1, c2, c3] = h.events;
    expect(scale).toMatchObject({
      time: T(10),
      verb: 'scale',
      actor: { user: DEPLOY_USER, controller: false },
      controller: { kind: 'ReplicaSet', namespace: NS, name: 'web-7d9c5' },
      pod: null,
      predicted: null,
      cause: null,
    });
    expect(scale.message).toMatch(/^deployment-controller scaled ReplicaSet web-7d9c5 \(Deployment web\) up from 1 to 3; /);
    const step = {
      time: T(10),
      user: DEPLOY_USER,
      verb: 'scale',
      object: { kind: 'ReplicaSet', namespace: NS, name: 'web-7d9c5' },
      field: 'spec.replicas',
      change: '1 → 3',
    };
    expect(c1.cause).toEqual([step]);
    expect(c2.cause).toEqual([step]);
    expect(c1.message).toContain(`after deployment-controller scaled ReplicaSet web-7d9c5 up from 1 to 3 at ${T(10)}`);
    // the third replaces a pod: the scale asked for two
    expect(c3.cause).toBeNull();
  });

  it('a scale to 0 is the cause of the deletes, and their reason is ScaleToZero', () => {
    const h = history([scaled('web-1', 2, 0, 5), deleted('web-1-aaaaa', 6, { obj: 'web-1' }), deleted('web-1-bbbbb', 6, { obj: 'web-1' })]);
    expect(h.events.slice(1).map((e) => [e.reason, e.cause?.[0].change])).toEqual([
      ['ScaleToZero', '2 → 0'],
      ['ScaleToZero', '2 → 0'],
    ]);
  });

  it('a scale up is no cause of a delete; older messages ("to 3 from 1", "to 3") are read too', () => {
    const h = history([
      ev({ reason: 'ScalingReplicaSet', kind: 'Deployment', message: 'Scaled up replica set web-1 to 3 from 1', first: 1 }),
      deleted('web-1-aaaaa', 2, { obj: 'web-1' }),
      ev({ reason: 'ScalingReplicaSet', kind: 'Deployment', message: 'Scaled down replica set web-1 to 2', first: 3 }),
      deleted('web-1-bbbbb', 4, { obj: 'web-1' }),
    ]);
    expect(h.events.map((e) => [e.verb, e.cause?.[0].change ?? null])).toEqual([
      ['scale', null],
      ['delete', null],
      ['scale', null],
      ['delete', '3 → 2'], // its "from" is what the Event before said
    ]);
  });
});

describe('pods nobody’s Event says were deleted', () => {
  it('the kubelet’s Killing of a pod of a controller is a delete by someone Events do not name', () => {
    const h = history([created('web-x2k8q', 1), killing('web-x2k8q', 30), killing('web-x2k8q', 31, { message: 'Stopping container sidecar' })]);
    expect(h.events.map((e) => [e.time, e.verb, e.actor.user, e.actor.controller, e.pod, e.controller?.name])).toEqual([
      [T(1), 'create', RS_USER, true, 'web-x2k8q', 'web'],
      [T(30), 'delete', '<unknown user>', false, 'web-x2k8q', 'web'],
    ]);
    expect(h.events[1].message).toMatch(/no Event names who deleted it/);
  });

  it('no such delete when the controller’s Event names it, the kubelet evicted it, a probe restarted it, or it is no controller’s pod', () => {
    const h = history([
      created('web-aaaaa', 1),
      deleted('web-aaaaa', 5),
      killing('web-aaaaa', 6),
      killing('web-bbbbb', 7), // generated name of ReplicaSet web: counted
      ev({ reason: 'Evicted', kind: 'Pod', obj: 'web-ccccc', message: 'The node was low on resource: memory.', first: 8 }),
      killing('web-ccccc', 8),
      killing('web-ddddd', 9, { message: 'Container app failed liveness probe, will be restarted' }),
      killing('db-0', 10),
    ]);
    expect(h.events.map((e) => `${e.verb} ${e.pod} ${e.actor.user}`)).toEqual([
      `create web-aaaaa ${RS_USER}`,
      `delete web-aaaaa ${RS_USER}`,
      'delete web-bbbbb <unknown user>',
    ]);
  });

  it('a pod the scheduler preempted was deleted by the scheduler', () => {
    const h = history([
      created('web-aaaaa', 1),
      ev({ reason: 'Preempted', kind: 'Pod', obj: 'web-aaaaa', component: 'default-scheduler', message: 'Preempted by pod 1234 on node n1', first: 5 }),
      killing('web-aaaaa', 6),
    ]);
    expect(h.events.map((e) => `${e.verb} ${e.pod} ${e.actor.user}`)).toEqual([`create web-aaaaa ${RS_USER}`, 'delete web-aaaaa system:kube-scheduler']);
  });
});

describe('scope and targets', () => {
  const all = [
    scaled('web-7d9c5b6f4', 0, 1, 1),
    created('web-7d9c5b6f4-aaaaa', 2, { obj: 'web-7d9c5b6f4' }),
    created('web-6c8f7d9b5-bbbbb', 3, { obj: 'web-6c8f7d9b5' }), // a ReplicaSet of web by its name
    created('web-frontend-ccccc', 4, { obj: 'web-frontend' }), // not: "frontend" is no pod-template-hash
    created('api-ddddd', 5, { obj: 'api', kind: 'ReplicationController' }),
    created('web-eeeee', 6, { ns: 'other' }),
  ];

  it('-n keeps one namespace', () => {
    expect(history(all, { namespace: 'other' }).events.map((e) => e.pod)).toEqual(['web-eeeee']);
  });

  it('deploy/NAME: its ReplicaSets, from ScalingReplicaSet and from their names', () => {
    const h = history(all, { target: { kind: 'Deployment', name: 'web' } });
    expect(h.events.map((e) => `${e.verb} ${e.controller?.name} ${e.pod ?? ''}`)).toEqual([
      'scale web-7d9c5b6f4 ',
      'create web-7d9c5b6f4 web-7d9c5b6f4-aaaaa',
      'create web-6c8f7d9b5 web-6c8f7d9b5-bbbbb',
    ]);
  });

  it('rs/NAME, rc/NAME, a name of either kind, pod/NAME', () => {
    expect(history(all, { target: { kind: 'ReplicaSet', name: 'web-frontend' } }).events.map((e) => e.pod)).toEqual(['web-frontend-ccccc']);
    expect(history(all, { target: { kind: 'ReplicaSet', name: 'api' } }).events).toEqual([]);
    expect(history(all, { target: { kind: 'ReplicationController', name: 'api' } }).events.map((e) => e.pod)).toEqual(['api-ddddd']);
    expect(history(all, { target: { kind: null, name: 'api' } }).events.map((e) => e.pod)).toEqual(['api-ddddd']);
    const pod = history(all, { target: { kind: 'Pod', name: 'web-eeeee' } });
    expect(pod.events.map((e) => e.pod)).toEqual(['web-eeeee']);
    expect(pod.namespaces).toEqual(['other']);
  });

  it('--since / --until and controller writes only', () => {
    expect(history(all, { sinceMs: Date.parse(T(3)), untilMs: Date.parse(T(5)) }).events.map((e) => e.time)).toEqual([T(3), T(4), T(5)]);
    expect(history(all, { controllerWritesOnly: true }).events.every((e) => e.actor.controller)).toBe(true);
  });
});

describe('events.k8s.io/v1', () => {
  it('reads regarding, note, reportingController, eventTime and series as their core/v1 names', () => {
    const opts: EvOpts[] = [
      { reason: 'ScalingReplicaSet', kind: 'Deployment', message: 'Scaled up replica set web-1 from 0 to 2', first: 1 },
      { reason: 'SuccessfulCreate', obj: 'web-1', message: 'Created pod: web-1-aaaaa', first: 2 },
      { reason: 'SuccessfulCreate', obj: 'web-1', message: 'Created pod: web-1-bbbbb', first: 3, count: 3, last: 9 },
    ];
    const older = history(opts.map((o, i) => ev({ ...o, name: `e${i}` })));
    const newer = history(opts.map((o, i) => evNew({ ...o, name: `e${i}` })));
    expect(newer.events).toEqual(older.events);
    expect(newer.events[2].message).toContain('3 times between');
  });
});

// ---------------------------------------------------------------------------------------------

describe('property: any order and any repetition of the same Events give the same history', () => {
  const pods = ['web-aaaaa', 'web-bbbbb', 'web-ccccc', 'web-1-ddddd', 'api-fffff'];
  const oneEvent = fc.record({
    reason: fc.constantFrom('SuccessfulCreate', 'SuccessfulDelete', 'ScalingReplicaSet', 'Killing', 'FailedCreate', 'Evicted'),
    obj: fc.constantFrom('web', 'web-1', 'api'),
    ns: fc.constantFrom('shop', 'other'),
    pod: fc.constantFrom(...pods),
    combined: fc.boolean(),
    count: fc.integer({ min: 1, max: 5 }),
    first: fc.integer({ min: 0, max: 30 }),
    span: fc.integer({ min: 0, max: 10 }),
    to: fc.integer({ min: 0, max: 4 }),
    from: fc.integer({ min: 0, max: 4 }),
    sightings: fc.integer({ min: 1, max: 3 }),
  });

  type Generated = typeof oneEvent extends fc.Arbitrary<infer G> ? G : never;

  /** The Event as it stood after `count` occurrences (the earlier sightings of a counted Event). */
  function build(x: Generated, i: number, count: number): Record<string, any> {
    const last = x.first + Math.round((x.span * count) / x.count);
    const name = `ev-${i}`;
    const prefix = x.combined ? COMBINED_PREFIX : '';
    const pod = x.combined ? pods[(pods.indexOf(x.pod) + count) % pods.length] : x.pod;
    switch (x.reason) {
      case 'ScalingReplicaSet':
        return ev({
          name,
          ns: x.ns,
          reason: x.reason,
          kind: 'Deployment',
          obj: 'web',
          message: `${prefix}Scaled ${x.to >= x.from ? 'up' : 'down'} replica set ${x.obj} from ${x.from} to ${x.to}`,
          count,
          first: x.first,
          last,
        });
      case 'Killing':
      case 'Evicted':
        return ev({
          name,
          ns: x.ns,
          reason: x.reason,
          kind: 'Pod',
          obj: x.pod,
          message: x.reason === 'Killing' ? 'Stopping container app' : 'The node was low on resource',
          count,
          first: x.first,
          last,
        });
      case 'FailedCreate':
        return ev({ name, ns: x.ns, reason: x.reason, obj: x.obj, message: `Error creating: pods "${x.obj}-" is forbidden`, count, first: x.first, last });
      default:
        return ev({
          name,
          ns: x.ns,
          reason: x.reason,
          obj: x.obj,
          kind: x.obj === 'api' ? 'ReplicationController' : 'ReplicaSet',
          message: `${prefix}${x.reason === 'SuccessfulCreate' ? 'Created' : 'Deleted'} pod: ${pod}`,
          count,
          first: x.first,
          last,
        });
    }
  }

  const scopes: EventsScope[] = [
    {},
    { namespace: 'shop' },
    { target: { kind: 'Deployment', name: 'web' } },
    { target: { kind: 'Pod', name: 'web-aaaaa' } },
    { target: { kind: null, name: 'web-1' } },
  ];

  it('holds for every scope', () => {
    fc.assert(
      fc.property(fc.array(oneEvent, { minLength: 1, maxLength: 25 }), fc.integer({ min: 0, max: scopes.length - 1 }), fc.integer(), (xs, s, seed) => {
        const finals = xs.map((x, i) => build(x, i, x.count));
        // every Event seen 1 to 3 times, the earlier sightings with lower counts, all shuffled
        const seen: Record<string, any>[] = [];
        xs.forEach((x, i) => {
          seen.push(finals[i]);
          for (let k = 1; k < x.sightings; k++) seen.push(k % 2 === 0 ? finals[i] : build(x, i, Math.max(1, x.count - k)));
        });
        let r = seed >>> 0;
        for (let i = seen.length - 1; i > 0; i--) {
          r = (Math.imul(r, 1103515245) + 12345) >>> 0;
          const j = r % (i + 1);
          [seen[i], seen[j]] = [seen[j], seen[i]];
        }
        const a = history(finals, scopes[s]);
        const b = history(seen, scopes[s]);
        expect(b.events).toEqual(a.events);
        expect(b.refused).toEqual(a.refused);
        expect(b.namespaces).toEqual(a.namespaces);
        expect(b.coverage.missing).toEqual(a.coverage.missing);
        expect(b.distinct).toBe(a.distinct);
        // and in time order
        const ms = b.events.map((e) => Date.parse(e.time));
        expect(ms).toEqual([...ms].sort((p, q) => p - q));
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Files

const dir = mkdtempSync(join(tmpdir(), 'rs-events-files-'));
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const list = (items: object[], apiVersion = 'v1') => ({ apiVersion, kind: 'List', items, metadata: { resourceVersion: '' } });
const sample = [
  scaled('web-7d9c5', 1, 2, 1, { name: 'a' }),
  created('web-7d9c5-aaaaa', 2, { obj: 'web-7d9c5', name: 'b' }),
  deleted('web-zzzzz', 3, { name: 'c' }),
];

async function events(r: HistoryResult) {
  try {
    return { events: [...r.history.events], document: { ...r.history, events: undefined }, counts: r.counts, notices: r.notices, refused: r.refused };
  } finally {
    r.close();
  }
}

describe('buildEventsHistory: files', () => {
  it('kubectl get events -o json, -o yaml, gzip, events.k8s.io/v1, and -w output all tell the same history', async () => {
    const json = await events(await buildEventsHistory({ files: [file('e.json', JSON.stringify(list(sample), null, 4))] }));
    expect(json.events.map((e) => `${e.verb} ${e.pod ?? e.controller?.name}`)).toEqual(['scale web-7d9c5', 'create web-7d9c5-aaaaa', 'delete web-zzzzz']);
    expect(json.document).toMatchObject({
      apiVersion: 'rs-reconcile/v1alpha1',
      kind: 'ReconcileHistory',
      source: 'recording',
      from: T(1),
      to: T(3),
      coverage: { format: 'events' },
    });
    expect(json.counts).toEqual({ events: 3, controller: 2, predicted: 0, notPredicted: 0, unknown: 2 });
    for (const f of [
      file('e.yaml', stringify(list(sample))),
      file('e.json.gz', gzipSync(JSON.stringify(list(sample)))),
      file('e.yaml.gz', gzipSync(stringify(list(sample)))),
      file('w.json', sample.map((e) => JSON.stringify(e, null, 4)).join('\n')),
      file('w.yaml', sample.map((e) => stringify(e)).join('---\n')),
      file('lines.json', sample.map((e) => JSON.stringify(e)).join('\n')),
      file(
        'eventlist.json',
        JSON.stringify({ apiVersion: 'v1', kind: 'EventList', metadata: {}, items: sample.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) }),
      ),
    ]) {
      expect((await events(await buildEventsHistory({ files: [f] }))).events, f).toEqual(json.events);
    }
    const asNewer = sample.map((e) => ({
      ...evNew({
        reason: e.reason,
        message: e.message,
        kind: e.involvedObject.kind,
        obj: e.involvedObject.name,
        first: (Date.parse(e.firstTimestamp) - Date.parse(T(0))) / 1000,
      }),
      metadata: e.metadata,
    }));
    const newer = await events(await buildEventsHistory({ files: [file('new.json', JSON.stringify(list(asNewer, 'events.k8s.io/v1')))] }));
    expect(newer.events.map((e) => `${e.verb} ${e.pod ?? e.controller?.name}`)).toEqual(json.events.map((e) => `${e.verb} ${e.pod ?? e.controller?.name}`));
  });

  it('stdin ("-"), several files with the same Events in them (counted once), and --kube-version', async () => {
    const text = JSON.stringify(list(sample));
    const r = await buildEventsHistory({ files: ['-', file('again.json', text)], stdin: Readable.from([Buffer.from(text)]), kubeVersion: '1.30' });
    expect(r.coverage.duplicates).toBe(3);
    const got = await events(r);
    expect(got.events).toHaveLength(3);
    expect(got.document.kubernetesVersion).toBe('1.30');
  });

  it('target and namespace: the pod’s story, and one-line errors when it is not there or is in two namespaces', async () => {
    const f = file('two.json', JSON.stringify(list([...sample, created('web-7d9c5-aaaaa', 9, { ns: 'other', obj: 'web-7d9c5', name: 'x' })])));
    const story = await buildEventsHistory({ files: [f], namespace: NS, target: { kind: 'Pod', name: 'web-7d9c5-aaaaa' } });
    expect(story.targetNamespace).toBe(NS);
    expect((await events(story)).events.map((e) => e.verb)).toEqual(['create']);
    await expect(buildEventsHistory({ files: [f], target: { kind: 'Pod', name: 'web-7d9c5-aaaaa' } })).rejects.toThrow(
      '"web-7d9c5-aaaaa" is in several namespaces of the Events of',
    );
    await expect(buildEventsHistory({ files: [f], target: { kind: 'ReplicaSet', name: 'nope' } })).rejects.toThrow(
      /^ReplicaSet nope has no write in the Events of .*two\.json: Events are kept about an hour/,
    );
  });

  it('refuses what is not a file of Events, in one line', async () => {
    await expect(
      buildEventsHistory({ files: [file('pods.json', JSON.stringify(list([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }])))] }),
    ).rejects.toThrow(/pods\.json: no Event in it \(found 1 Pod\): expected the output of "kubectl get events -o json"/);
    await expect(buildEventsHistory({ files: [file('bad.json', '{"items": [')] })).rejects.toThrow(/^error parsing .*bad\.json: invalid JSON: /);
    await expect(buildEventsHistory({ files: [file('bad.yaml', 'items: [\n  - a: 1\n  b')] })).rejects.toThrow(
      /^error parsing .*bad\.yaml: invalid YAML: .* \(line \d+, column \d+\)$/,
    );
    await expect(buildEventsHistory({ files: [file('bin', Buffer.from([0x7b, 0, 1, 2]))] })).rejects.toThrow(
      /^error parsing .*bin: not a text file \(binary data at byte 1\)/,
    );
    await expect(buildEventsHistory({ files: [join(dir, 'missing.json')] })).rejects.toThrow(/^the path ".*missing\.json" does not exist$/);
    await expect(buildEventsHistory({ files: [dir] })).rejects.toThrow(/is a directory$/);
    const big = JSON.stringify(list(sample));
    await expect(buildEventsHistory({ files: [file('big.json', big)], maxInputBytes: 100 })).rejects.toThrow(
      /^error reading .*big\.json: too large: .* over the input limit of 100 bytes \(raise it with --max-input-size\)/,
    );
    const many = gzipSync(JSON.stringify(list(Array.from({ length: 50 }, (_, i) => created(`web-${i}`, i)))));
    expect(many.length).toBeLessThan(2000);
    await expect(buildEventsHistory({ files: [file('big.json.gz', many)], maxInputBytes: 2000 })).rejects.toThrow(
      /^error reading .*big\.json\.gz: too large once decompressed: stopped reading at the input limit of 2\.0Ki \(raise it with --max-input-size\)/,
    );
    await expect(buildEventsHistory({ files: [] })).rejects.toThrow(/no Events to read: give --events/);
  });

  it('an empty list is no error: the notice says Events expire', async () => {
    const r = await events(await buildEventsHistory({ files: [file('empty.json', JSON.stringify(list([])))] }));
    expect(r.events).toEqual([]);
    expect(r.notices.join('\n')).toMatch(/empty\.json: no Events in it/);
    expect(r.notices.join('\n')).toMatch(/Events are kept about an hour \(kube-apiserver --event-ttl\)/);
  });
});
