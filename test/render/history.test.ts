// `history` for a person: UTC everywhere, the coverage line, the cause chain in words (pod
// stories) and short (-o wide's CAUSE), verdicts, refused writes, and names never cut.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { CauseStep, HistoryCoverage, HistoryEvent, RefusedWrite } from '../../src/history/types.js';
import {
  causeCell,
  causeSentence,
  eventTime,
  historyTableChunks,
  renderCoverageLine,
  renderHistoryNotes,
  renderPodStory,
  statusWords,
  utcTime,
  who,
} from '../../src/render/history.js';

const chalk = new Chalk({ level: 0 });
const o = { chalk, wide: false };
const RS_CONTROLLER = 'system:serviceaccount:kube-system:replicaset-controller';
const DEPLOY_CONTROLLER = 'system:serviceaccount:kube-system:deployment-controller';
const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';

const coverage = (extra: Partial<HistoryCoverage> = {}): HistoryCoverage => ({ format: 'kube-apiserver', truncated: 0, duplicates: 0, missing: [], ...extra });

const event = (extra: Partial<HistoryEvent> = {}): HistoryEvent => ({
  time: '2026-11-25T10:15:01.250000Z',
  actor: { user: RS_CONTROLLER, controller: true },
  verb: 'delete',
  controller: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9c5' },
  pod: 'web-7d9c5-x2kq9',
  reason: 'NotReady',
  message: 'deleted pod web-7d9c5-x2kq9: web-7d9c5-x2kq9 is not ready, while web-7d9c5-abcde (the first pod that stays) is ready',
  predicted: true,
  cause: null,
  ...extra,
});

const scaleRs: CauseStep = {
  time: '2026-11-25T10:15:01.100000Z',
  user: DEPLOY_CONTROLLER,
  verb: 'update',
  object: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9c5' },
  field: 'spec.replicas',
  change: '4 → 3',
};
const imageChange: CauseStep = {
  time: '2026-11-25T10:15:00.020000Z',
  user: 'admin',
  verb: 'patch',
  object: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  field: 'spec.template',
  change: 'nginx:1.25 → nginx:1.26',
};
const hpaScale: CauseStep = {
  time: '2026-11-25T10:14:30Z',
  user: HPA,
  verb: 'update',
  object: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  field: 'spec.replicas',
  change: '4 → 3',
};
const metricsWrite: CauseStep = {
  time: '2026-11-25T10:14:00Z',
  user: 'admin',
  verb: 'patch',
  object: { kind: 'HorizontalPodAutoscaler', namespace: 'shop', name: 'web' },
  field: 'spec.maxReplicas',
  change: '4 → 3',
};

/** A pod story's text as one line per paragraph (wrapped lines joined). */
const unwrapped = (text: string): string => text.replace(/\n {4}/g, ' ');

describe('times are UTC and say so', () => {
  it('the table header is TIME (UTC); cells are the logged UTC time to the millisecond', () => {
    const text = [...historyTableChunks([event()], o)].join('');
    expect(text.split('\n')[0]).toMatch(/^TIME \(UTC\)\s+WHO\s+VERB\s+CONTROLLER\s+POD\s+REASON\s+PREDICTED$/);
    expect(text).toContain('2026-11-25 10:15:01.250   replicaset-controller');
  });

  it('a time logged with an offset is shown in UTC, never as its local wall time', () => {
    expect(eventTime('2026-11-25T12:15:01.250+02:00')).toBe('2026-11-25 10:15:01.250');
    expect(utcTime('2026-11-25T01:00:00-03:00')).toBe('2026-11-25 04:00:00.000Z');
    expect(utcTime('2026-11-25T04:00:00Z')).toBe('2026-11-25 04:00:00Z');
    expect(utcTime('2026-11-25T10:15:01.250123Z')).toBe('2026-11-25 10:15:01.250Z');
    expect(eventTime('not a time')).toBe('not a time');
  });

  it('pod stories and the not-predicted notes mark every time with Z', () => {
    const story = renderPodStory({ pod: 'web-7d9c5-x2kq9', namespace: 'shop', events: [event()] }, o);
    expect(story).toMatch(/^2026-11-25 10:15:01\.250Z {2}delete by replicaset-controller \(the controller\), NotReady$/m);
    const notes = renderHistoryNotes({ events: 1, controller: 1, predicted: 0, notPredicted: 1, unknown: 0 }, [event({ predicted: false })], o);
    expect(notes).toContain('  2026-11-25 10:15:01.250Z delete web-7d9c5-x2kq9:');
  });
});

describe('renderCoverageLine', () => {
  const from = '2026-11-25T02:52:48.861000Z';
  const to = '2026-11-25T02:52:58.513000Z';

  it('a complete kube-apiserver log: its format and span, nothing more', () => {
    expect(renderCoverageLine(coverage(), from, to)).toBe('coverage: kube-apiserver, 2026-11-25 02:52:48Z → 02:52:58Z (10s)');
  });

  it('what the input lacks, truncated and duplicated entries: each only when it applies', () => {
    const missing = ['status writes (Data Access logs are off)'];
    expect(renderCoverageLine(coverage({ format: 'gke-cloud-logging', missing }), from, to)).toBe(
      'coverage: gke-cloud-logging, 2026-11-25 02:52:48Z → 02:52:58Z (10s); lacks status writes (Data Access logs are off)',
    );
    expect(renderCoverageLine(coverage({ format: 'eks-cloudwatch', truncated: 3 }), from, to)).toBe(
      'coverage: eks-cloudwatch, 2026-11-25 02:52:48Z → 02:52:58Z (10s); 3 entries truncated',
    );
    expect(renderCoverageLine(coverage({ format: 'eks-cloudwatch', truncated: 1 }), from, to)).toMatch(/; 1 entry truncated$/);
    expect(renderCoverageLine(coverage({ format: 'gke-cloud-logging', duplicates: 12 }), from, to)).toMatch(/\(10s\); 12 duplicates dropped$/);
    expect(renderCoverageLine(coverage({ format: 'aks-storage', duplicates: 1 }), from, to)).toMatch(/; 1 duplicate dropped$/);
    expect(renderCoverageLine(coverage({ format: 'gke-cloud-logging', missing, truncated: 3, duplicates: 12 }), from, to)).toBe(
      'coverage: gke-cloud-logging, 2026-11-25 02:52:48Z → 02:52:58Z (10s); lacks status writes (Data Access logs are off); 3 entries truncated; 12 duplicates dropped',
    );
    expect(renderCoverageLine(coverage({ missing: ['status writes', 'request bodies', 'pods'] }), from, to)).toMatch(
      /; lacks status writes, request bodies and pods$/,
    );
    // a long one says in words what is missing and why, without its details, never "(…)"
    const gke = [
      'status writes (pods/status, replicasets/status): GKE logs them in Data Access audit logs, which are off by default',
      'HTTP status codes: GKE logs gRPC codes, read as HTTP codes (0 as 200, or 201 for a create; 5 as 404)',
      'pod status writes (pods/status, where the kubelet reports phase and readiness): no pods/status write in the log, though pods lived in it for 90 s; the verdicts that rest on them are unknown',
    ];
    const line = renderCoverageLine(coverage({ format: 'gke-cloud-logging', missing: gke }), from, to);
    expect(line).toBe(
      'coverage: gke-cloud-logging, 2026-11-25 02:52:48Z → 02:52:58Z (10s); lacks status writes: GKE logs them in Data Access audit logs, which are off by default; lacks HTTP status codes: GKE logs gRPC codes, read as HTTP codes; lacks pod status writes: no pods/status write in the log, though pods lived in it for 90 s',
    );
    expect(line).not.toContain('…');
  });

  it('a span over days names both dates; one instant is said once; no write says so', () => {
    expect(renderCoverageLine(coverage(), '2026-11-24T23:59:00Z', '2026-11-25T00:01:30Z')).toBe(
      'coverage: kube-apiserver, 2026-11-24 23:59:00Z → 2026-11-25 00:01:30Z (2m30s)',
    );
    expect(renderCoverageLine(coverage({ format: 'recording' }), from, '2026-11-25T02:52:48.999Z')).toBe('coverage: recording, 2026-11-25 02:52:48Z');
    expect(renderCoverageLine(coverage({ format: 'events', missing: ['who wrote what'] }), null, null)).toBe(
      'coverage: events, no write shown; lacks who wrote what',
    );
  });

  it('says a long missing kind in words without its details (-o json has it whole)', () => {
    const missing = [
      'the state of pods and controllers (Events carry only what happened, in words): no write is checked against the rules',
      'writes of users (Events are written by controllers, not by kubectl): their scales, deletes and label changes show only through what the controllers did next',
      'the order of writes within one second (Event times are kept to the second)',
      'status writes (Data Access logs are off)',
    ];
    expect(renderCoverageLine(coverage({ format: 'events', missing }), from, to)).toBe(
      'coverage: events, 2026-11-25 02:52:48Z → 02:52:58Z (10s); lacks the state of pods and controllers: no write is checked against the rules; lacks writes of users: their scales, deletes and label changes show only through what the controllers did next; lacks the order of writes within one second; lacks status writes (Data Access logs are off)',
    );
  });

  it('is one line whatever the input says', () => {
    expect(renderCoverageLine(coverage({ missing: ['a\nb'] }), from, to)).not.toContain('\n');
  });
});

describe('causeSentence: the chain in words, nearest first', () => {
  it('one step: a person scaled the controller', () => {
    const step: CauseStep = {
      ...scaleRs,
      user: 'admin',
      verb: 'scale',
      object: { kind: 'ReplicationController', namespace: 'demo', name: 'api' },
      change: '4 → 1',
    };
    expect(causeSentence([step], '2026-11-25T10:15:01Z')).toBe('because admin scaled ReplicationController api 4 → 1 at 10:15:01Z');
  });

  it('two steps: the deployment controller rolling out a Deployment after an image change', () => {
    expect(causeSentence([scaleRs, imageChange], '2026-11-25T10:15:01.250Z')).toBe(
      'because deployment-controller scaled ReplicaSet web-7d9c5 4 → 3 at 10:15:01Z, rolling out Deployment web after admin changed its image nginx:1.25 → nginx:1.26 at 10:15:00Z',
    );
  });

  it('three steps: each further step is why the writer before acted; other days are dated', () => {
    const old = { ...metricsWrite, time: '2026-11-24T23:00:00Z' };
    expect(causeSentence([scaleRs, hpaScale, old], '2026-11-25T10:15:01Z')).toBe(
      'because deployment-controller scaled ReplicaSet web-7d9c5 4 → 3 at 10:15:01Z, after horizontal-pod-autoscaler scaled Deployment web 4 → 3 at 10:14:30Z, after admin patched HorizontalPodAutoscaler web: spec.maxReplicas 4 → 3 at 2026-11-24 23:00:00Z',
    );
  });

  it("says a pod's readiness and phase, deletes and creates, and what a template change changed", () => {
    const pod = { kind: 'Pod', namespace: 'shop', name: 'web-abc' };
    const at = '2026-11-25T10:15:01Z';
    expect(
      causeSentence([{ ...scaleRs, user: 'system:node:node-1', verb: 'status', object: pod, field: 'status.conditions[Ready]', change: 'True → False' }], at),
    ).toBe('because pod web-abc became not ready at 10:15:01Z');
    expect(causeSentence([{ ...scaleRs, user: 'system:node:node-1', verb: 'status', object: pod, field: 'Ready', change: 'False → True' }], at)).toBe(
      'because pod web-abc became ready at 10:15:01Z',
    );
    expect(
      causeSentence([{ ...scaleRs, user: 'system:node:node-1', verb: 'status', object: pod, field: 'status.phase', change: 'Running → Failed' }], at),
    ).toBe('because pod web-abc became Failed at 10:15:01Z');
    expect(causeSentence([{ ...scaleRs, user: 'admin', verb: 'delete', object: pod, field: 'metadata.deletionTimestamp', change: 'deleted' }], at)).toBe(
      'because admin deleted pod web-abc at 10:15:01Z',
    );
    expect(
      causeSentence(
        [{ ...scaleRs, user: 'admin', verb: 'create', object: { kind: 'ReplicaSet', namespace: 'shop', name: 'web' }, field: 'object', change: 'created' }],
        at,
      ),
    ).toBe('because admin created ReplicaSet web at 10:15:01Z');
    expect(causeSentence([{ ...imageChange, change: 'image nginx:1.25 → nginx:1.26' }], at)).toBe(
      "because admin changed Deployment web's image nginx:1.25 → nginx:1.26 at 10:15:00Z",
    );
    expect(causeSentence([{ ...imageChange, change: 'env FOO=1 → FOO=2' }], at)).toBe("because admin changed Deployment web's env FOO=1 → FOO=2 at 10:15:00Z");
    expect(causeSentence([{ ...imageChange, change: 'terminationGracePeriodSeconds 30 → 60' }], at)).toBe(
      "because admin changed Deployment web's pod template (terminationGracePeriodSeconds 30 → 60) at 10:15:00Z",
    );
    expect(causeSentence([{ ...scaleRs, user: 'admin', verb: 'patch', field: 'metadata.labels', change: 'app=web → app=web2' }], at)).toBe(
      "because admin changed ReplicaSet web-7d9c5's labels app=web → app=web2 at 10:15:01Z",
    );
  });
  it("in the replay's words: the object itself, a Ready condition, deletion started, a first sighting", () => {
    const at = '2026-11-25T02:52:58Z';
    const rc = { kind: 'ReplicationController', namespace: 'demo', name: 'api' };
    const pod = { kind: 'Pod', namespace: 'demo', name: 'api-lgl28' };
    const step = (extra: Partial<CauseStep>): CauseStep => ({
      time: at,
      user: 'admin',
      verb: 'update',
      object: rc,
      field: 'spec.replicas',
      change: '4 → 1',
      ...extra,
    });
    const say = (extra: Partial<CauseStep>) => causeSentence([step(extra)], at);
    expect(say({ verb: 'create', field: 'the object itself', change: 'created (replicas 4)' })).toBe(
      'because admin created ReplicationController api (replicas 4) at 02:52:58Z',
    );
    expect(say({ verb: 'delete', object: pod, field: 'the object itself', change: 'deleted' })).toBe('because admin deleted pod api-lgl28 at 02:52:58Z');
    expect(say({ verb: 'delete', object: pod, field: 'metadata.deletionTimestamp', change: 'deletion started' })).toBe(
      'because admin deleted pod api-lgl28 at 02:52:58Z',
    );
    expect(
      say({ user: 'system:serviceaccount:kube-system:node-controller', verb: 'create', object: pod, field: 'metadata.deletionTimestamp', change: 'evicted' }),
    ).toBe('because node-controller evicted pod api-lgl28 at 02:52:58Z');
    expect(say({ verb: 'status', object: pod, field: 'a Ready condition', change: 'unknown → True' })).toBe('because pod api-lgl28 became ready at 02:52:58Z');
    expect(say({ verb: 'scale', change: '→ 3 (before unknown: first seen here)' })).toBe(
      'because admin scaled ReplicationController api to 3 (before unknown: first seen here) at 02:52:58Z',
    );
    expect(say({ field: 'spec.selector', change: 'changed' })).toBe("because admin changed ReplicationController api's selector at 02:52:58Z");
    expect(say({ field: 'spec.template', change: 'changed' })).toBe("because admin changed ReplicationController api's pod template at 02:52:58Z");
    expect(say({ field: 'spec.template', change: 'labels app=api → app=api,v=2' })).toBe(
      "because admin changed ReplicationController api's pod template's labels app=api → app=api,v=2 at 02:52:58Z",
    );
    expect(say({ object: pod, field: 'metadata.labels', change: 'app=api → (none)' })).toBe(
      "because admin changed pod api-lgl28's labels app=api → (none) at 02:52:58Z",
    );
    expect(say({ object: pod, field: 'metadata.ownerReferences', change: 'controller ReplicaSet web' })).toBe(
      "because admin made ReplicaSet web pod api-lgl28's controller at 02:52:58Z",
    );
    expect(say({ object: pod, field: 'metadata.ownerReferences', change: 'controller reference removed' })).toBe(
      "because admin removed pod api-lgl28's controller reference at 02:52:58Z",
    );
    expect(say({ field: 'spec', change: 'changed (first seen here)' })).toBe(
      'because admin updated ReplicationController api: spec changed (first seen here) at 02:52:58Z',
    );
    expect(causeCell([step({ verb: 'create', field: 'the object itself', change: 'created (replicas 4)' })])).toBe('admin create rc/api');
    expect(causeCell([step({ verb: 'status', object: pod, field: 'a Ready condition', change: 'unknown → True' })])).toBe(
      'admin status pod/api-lgl28 Ready unknown→True',
    );
    expect(causeCell([step({ field: 'spec.selector', change: 'changed' })])).toBe('admin update rc/api selector');
  });
});

describe('causeCell: the nearest cause, short', () => {
  it('names who, what and the object as kubectl abbreviates it', () => {
    expect(causeCell([scaleRs, imageChange])).toBe('deployment-controller scale rs/web-7d9c5 4→3');
    expect(causeCell([imageChange])).toBe('admin patch deploy/web template nginx:1.25→nginx:1.26');
    expect(
      causeCell([
        {
          ...scaleRs,
          user: 'admin',
          verb: 'delete',
          object: { kind: 'Pod', namespace: 'shop', name: 'web-abc' },
          field: 'metadata.deletionTimestamp',
          change: 'deleted',
        },
      ]),
    ).toBe('admin delete pod/web-abc');
    expect(
      causeCell([
        {
          ...scaleRs,
          user: 'system:node:n1',
          verb: 'status',
          object: { kind: 'Pod', namespace: 'shop', name: 'web-abc' },
          field: 'status.conditions[Ready]',
          change: 'True → False',
        },
      ]),
    ).toBe('system:node:n1 status pod/web-abc Ready True→False');
    expect(causeCell(null)).toBe('-');
    expect(causeCell([])).toBe('-');
  });

  it('-o wide adds CAUSE before MESSAGE', () => {
    const text = [...historyTableChunks([event({ cause: [scaleRs, imageChange] })], { ...o, wide: true })].join('');
    expect(text.split('\n')[0]).toMatch(/^TIME \(UTC\)\s+WHO\s+VERB\s+CONTROLLER\s+POD\s+REASON\s+PREDICTED\s+CAUSE\s+MESSAGE$/);
    expect(text).toMatch(/yes\s+deployment-controller scale rs\/web-7d9c5 4→3\s+deleted pod web-7d9c5-x2kq9:/);
  });
});

describe('names are never cut', () => {
  const long = event({
    actor: { user: 'system:serviceaccount:team-payments-prod:very-long-custom-controller-name', controller: false },
    controller: { kind: 'ReplicaSet', namespace: 'shop', name: 'a-very-long-replicaset-name-7d9c5b6f4' },
    pod: 'a-very-long-replicaset-name-7d9c5b6f4-x2kq9',
    predicted: null,
  });

  it('a table wider than the terminal keeps every name whole, drops the one date of its times, and the notes name it', () => {
    const gen = historyTableChunks([long, event()], { ...o, width: 80 });
    const parts: string[] = [];
    let r = gen.next();
    while (!r.done) {
      parts.push(r.value);
      r = gen.next();
    }
    const text = parts.join('');
    expect(text).toContain('team-payments-prod/very-long-custom-controller-name');
    expect(text).toContain('rs/a-very-long-replicaset-name-7d9c5b6f4');
    expect(text).toContain('a-very-long-replicaset-name-7d9c5b6f4-x2kq9');
    expect(text).not.toContain('…');
    expect(text.split('\n')[1]).toMatch(/^10:15:01\.250 {3}/);
    expect(text.split('\n')[0]).toMatch(/^TIME \(UTC\) {5}WHO/);
    expect(r.value).toEqual({ day: '2026-11-25' });
    const notes = renderHistoryNotes({ events: 2, controller: 1, predicted: 1, notPredicted: 0, unknown: 0 }, [], o, r.value);
    expect(notes).toBe('2 writes, all on 2026-11-25 (UTC): 1 controller write (1 predicted, 0 not predicted), 1 other write\n');
  });

  it('times of several days keep their date, however narrow the terminal', () => {
    const text = [...historyTableChunks([long, event({ time: '2026-11-26T00:00:01Z' })], { ...o, width: 80 })].join('');
    expect(text).toContain('2026-11-25 10:15:01.250');
    expect(text).toContain('2026-11-26 00:00:01');
  });

  it('a table that fits, or -o wide, keeps the date', () => {
    const text = [...historyTableChunks([event()], { ...o, width: 400 })].join('');
    expect(text).toContain('2026-11-25 10:15:01.250');
    const wide = [...historyTableChunks([long], { ...o, wide: true, width: 40 })].join('');
    expect(wide).toContain('2026-11-25 10:15:01.250');
  });
});

describe('renderPodStory', () => {
  const created = event({
    time: '2026-11-25T10:00:00Z',
    verb: 'create',
    reason: 'TooFewReplicas',
    message: 'created pod web-7d9c5-x2kq9: replicas 4, had 3 (create 1)',
    cause: [{ ...scaleRs, time: '2026-11-25T09:59:59Z', change: '3 → 4' }],
  });
  const deleted = event({ cause: [scaleRs, imageChange] });

  it('tells each controller write with the chain that made it act', () => {
    const text = unwrapped(renderPodStory({ pod: 'web-7d9c5-x2kq9', namespace: 'shop', events: [created, deleted] }, o));
    expect(text).toContain('pod web-7d9c5-x2kq9 (namespace shop)');
    expect(text).toContain(
      'created pod web-7d9c5-x2kq9: replicas 4, had 3 (create 1) because deployment-controller scaled ReplicaSet web-7d9c5 3 → 4 at 09:59:59Z',
    );
    expect(text).toContain(
      'is ready because deployment-controller scaled ReplicaSet web-7d9c5 4 → 3 at 10:15:01Z, rolling out Deployment web after admin changed its image nginx:1.25 → nginx:1.26 at 10:15:00Z',
    );
  });

  it('says an unknown verdict as unknown, and a write the rules do not predict plainly', () => {
    const unknown = event({ predicted: null, message: 'pod web-7d9c5-abcde was never seen whole (created before the log starts)' });
    const notPredicted = event({ predicted: false, message: 'deleted pod web-7d9c5-x2kq9: the rules delete web-7d9c5-abcde (Unscheduled) instead' });
    const text = unwrapped(renderPodStory({ pod: 'web-7d9c5-x2kq9', namespace: 'shop', events: [unknown, notPredicted] }, o));
    expect(text).toContain('unknown: pod web-7d9c5-abcde was never seen whole (created before the log starts)');
    expect(text).toContain('NotReady [not predicted by the rules]');
    expect(text).toContain('not predicted by the rules: deleted pod web-7d9c5-x2kq9: the rules delete web-7d9c5-abcde (Unscheduled) instead');
    // a user's write has no verdict to tell
    const user = event({ actor: { user: 'admin', controller: false }, predicted: null, reason: null, message: 'admin deleted pod web-7d9c5-x2kq9' });
    expect(renderPodStory({ pod: 'web-7d9c5-x2kq9', namespace: null, events: [user] }, o)).toBe(
      'pod web-7d9c5-x2kq9\n2026-11-25 10:15:01.250Z  delete by admin\n    admin deleted pod web-7d9c5-x2kq9\n',
    );
  });

  it("tells the controllers' refused writes among the others, in time order", () => {
    const refused: RefusedWrite[] = [
      {
        time: '2026-11-25T10:15:02Z',
        user: RS_CONTROLLER,
        verb: 'adopt',
        controller: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9c5' },
        pod: 'web-7d9c5-x2kq9',
        code: 409,
        message: 'the object has been modified; please apply your changes to the latest version and try again',
      },
      { time: '2026-11-25T10:05:00Z', user: RS_CONTROLLER, verb: 'adopt', controller: null, pod: 'web-7d9c5-x2kq9', code: 422, message: '' },
    ];
    const text = renderPodStory({ pod: 'web-7d9c5-x2kq9', namespace: 'shop', events: [created, deleted], refused }, o);
    const heads = text.split('\n').filter((l) => /^\d{4}-/.test(l));
    expect(heads).toEqual([
      '2026-11-25 10:00:00Z  create by replicaset-controller (the controller), TooFewReplicas',
      '2026-11-25 10:05:00Z  replicaset-controller (the controller) tried to adopt it: refused with 422 Unprocessable Entity',
      '2026-11-25 10:15:01.250Z  delete by replicaset-controller (the controller), NotReady',
      '2026-11-25 10:15:02Z  replicaset-controller (the controller) tried to adopt it: refused with 409 Conflict',
    ]);
    expect(unwrapped(text)).toContain('refused with 409 Conflict the object has been modified; please apply your changes to the latest version and try again');
    expect(statusWords(418)).toBe('418');
  });
});

describe('who', () => {
  it('names service accounts as people say them', () => {
    expect(who(DEPLOY_CONTROLLER)).toBe('deployment-controller');
    expect(who('system:serviceaccount:shop:deployer')).toBe('shop/deployer');
    expect(who('system:node:node-1')).toBe('system:node:node-1');
  });
});
