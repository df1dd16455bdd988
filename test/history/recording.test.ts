// Recordings read back as writes: every change type, who wrote it (managedFields, then the
// controllers' Events for what managedFields cannot tell), gaps, and the replay's verdicts on them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { behaviourFor } from '../../src/core/versions.js';
import {
  EVIDENCE_WINDOW_MS,
  RecordingConverter,
  RecordingFormatError,
  UNKNOWN_USER,
  changeLine,
  parseRecordingLine,
  writerOf,
  type ChangeType,
  type ConvertedWrite,
  type RecordedResource,
  type RecordingLine,
} from '../../src/history/recording.js';
import { headerLine } from '../../src/history/recording-header.js';
import { HistoryReplay } from '../../src/history/replay.js';
import { buildHistory } from '../../src/services/history-service.js';

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const NS = 'shop';
const RS_UID = 'rs-uid-1';
const T0 = Date.parse('2026-11-25T10:00:00Z');
let clock = T0;
const at = (ms = 1000) => new Date((clock += ms)).toISOString();

const mf = (manager: string, time: string, subresource?: string, operation = 'Update') => ({
  manager,
  operation,
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: { f: manager },
  ...(subresource ? { subresource } : {}),
});

function rs(replicas: number, o: { status?: Record<string, unknown>; managedFields?: unknown[]; generation?: number } = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web',
      namespace: NS,
      uid: RS_UID,
      generation: o.generation ?? 1,
      resourceVersion: '1',
      creationTimestamp: '2026-11-25T09:00:00Z',
      ...(o.managedFields ? { managedFields: o.managedFields } : {}),
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    },
    status: { replicas: 0, ...o.status },
  };
}

function pod(name: string, o: { phase?: string; owned?: boolean; managedFields?: unknown[]; deleting?: string; node?: string } = {}) {
  const ready = (o.phase ?? 'Running') === 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: '2026-11-25T09:30:00Z',
      labels: { app: 'web' },
      ...(o.owned === false
        ? {}
        : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: RS_UID, controller: true, blockOwnerDeletion: true }] }),
      ...(o.deleting ? { deletionTimestamp: o.deleting, deletionGracePeriodSeconds: 30 } : {}),
      ...(o.managedFields ? { managedFields: o.managedFields } : {}),
    },
    spec: { nodeName: o.node ?? 'node-1', containers: [{ name: 'c', image: 'x' }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [{ name: 'c', ready, restartCount: 0 }],
    },
  };
}

function event(reason: string, message: string, component = 'replicaset-controller') {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `web.${reason}.${message.length}`, namespace: NS, uid: `ev-${message}` },
    involvedObject: { kind: 'ReplicaSet', namespace: NS, name: 'web', uid: RS_UID },
    reason,
    message,
    type: 'Normal',
    source: { component },
    reportingComponent: component,
  };
}

const change = (type: ChangeType, resource: RecordedResource, o: Record<string, any>, before?: Record<string, any>, listed = false) =>
  changeLine(type, resource, o, at(), listed, before);
const header = () => headerLine(at(0), NS, 'test');

function convert(lines: RecordingLine[]): ConvertedWrite[] {
  const c = new RecordingConverter();
  return [...lines.flatMap((l) => c.push(l)), ...c.end()];
}

/** The recording's start: the lists of one ReplicaSet (3 replicas) and its pods a, b (Pending), c. */
function listed(): RecordingLine[] {
  return [
    header(),
    change('ADDED', 'replicasets', rs(3, { status: { replicas: 3 } }), undefined, true),
    change('ADDED', 'pods', pod('a'), undefined, true),
    change('ADDED', 'pods', pod('b', { phase: 'Pending' }), undefined, true),
    change('ADDED', 'pods', pod('c'), undefined, true),
  ];
}

describe('writerOf: the managedFields entry a change touched', () => {
  it('names the entry that is new or changed, not the newest one of another manager', () => {
    const before = pod('a', { managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:00Z'), mf('kubelet', '2026-11-25T10:00:05Z', 'status')] });
    const after = pod('a', {
      managedFields: [
        mf('kube-controller-manager', '2026-11-25T10:00:00Z'),
        mf('kubelet', '2026-11-25T10:00:05Z', 'status'),
        mf('kubectl-label', '2026-11-25T10:00:05Z'),
      ],
    });
    expect(writerOf(after, before)).toEqual({ manager: 'kubectl-label', operation: 'Update', subresource: null });
    const status = pod('a', { managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:00Z'), mf('kubelet', '2026-11-25T10:00:09Z', 'status')] });
    expect(writerOf(status, before)).toEqual({ manager: 'kubelet', operation: 'Update', subresource: 'status' });
  });

  it('a new object: the newest entry; no managedFields (or none touched): nobody', () => {
    expect(
      writerOf(pod('a', { managedFields: [mf('kubectl-client-side-apply', '2026-11-25T10:00:00Z'), mf('kube-controller-manager', '2026-11-25T10:00:01Z')] }))
        .manager,
    ).toBe('kube-controller-manager');
    expect(writerOf(pod('a'))).toEqual({ manager: null, operation: null, subresource: null });
    const same = pod('a', { managedFields: [mf('kubelet', '2026-11-25T10:00:00Z', 'status')] });
    expect(writerOf(same, same).manager).toBeNull();
  });

  it('a DELETED line names nobody (managedFields cannot say who deleted)', () => {
    const l = changeLine('DELETED', 'pods', pod('a', { managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:00Z')] }), at(), false);
    expect(l).toMatchObject({ kind: 'Change', type: 'DELETED', manager: null, listed: false });
  });
});

describe('RecordingConverter', () => {
  it("lists bring state only; a pod created by kube-controller-manager is the ReplicaSet controller's create", () => {
    const created = pod('d', { managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:10Z')] });
    const out = convert([...listed(), change('ADDED', 'pods', created)]);
    expect(out.slice(0, 4).every((c) => c.stateOnly)).toBe(true);
    expect(out[4]).toMatchObject({ stateOnly: false, write: { verb: 'create', resource: 'pods', name: 'd', user: RS_USER, subresource: null, bodies: true } });
    expect(out[4].write.response).toMatchObject({ kind: 'Pod', metadata: { name: 'd' } });
  });

  it('a pod created with no managedFields waits for the controller\'s "Created pod" Event, keeping the order', () => {
    const out = convert([
      ...listed(),
      change('ADDED', 'pods', pod('d')),
      change('MODIFIED', 'pods', pod('a', { phase: 'Failed' }), pod('a')),
      change('ADDED', 'events', event('SuccessfulCreate', 'Created pod: d')),
    ]);
    const writes = out.filter((c) => !c.stateOnly).map((c) => [c.write.verb, c.write.name, c.write.user, c.write.subresource]);
    expect(writes).toEqual([
      ['create', 'd', RS_USER, null],
      ['update', 'a', UNKNOWN_USER, 'status'],
    ]);
  });

  it('the "Deleted pod" Event names who deleted a pod, before or after the DELETED line; rs-reconcile\'s own Events too', () => {
    const out = convert([
      ...listed(),
      change('DELETED', 'pods', pod('b', { phase: 'Pending' })),
      change('ADDED', 'events', event('SuccessfulDelete', 'Deleted pod: b')),
      change('ADDED', 'events', event('SuccessfulDelete', '(combined from similar events): Deleted pod: c', 'rs-reconcile')),
      change('DELETED', 'pods', pod('c')),
    ]);
    const deletes = out.filter((c) => !c.stateOnly);
    expect(deletes.map((c) => [c.write.verb, c.write.name, c.write.user])).toEqual([
      ['delete', 'b', RS_USER],
      ['delete', 'c', 'rs-reconcile'],
    ]);
    expect(deletes[0].write.response).toBeNull();
  });

  it('with no Event, a delete stays "<unknown user>" once the window passes (nothing guessed)', () => {
    const c = new RecordingConverter();
    for (const l of listed()) c.push(l);
    expect(c.push(change('DELETED', 'pods', pod('b')))).toEqual([]); // held, waiting for evidence
    const later = c.push(change('MODIFIED', 'pods', pod('a', { phase: 'Failed' }), pod('a')));
    expect(later).toEqual([]); // kept behind it, in order
    const released = c.push(changeLine('MODIFIED', 'pods', pod('c', { phase: 'Failed' }), at(EVIDENCE_WINDOW_MS + 1), false, pod('c')));
    expect(released.map((x) => [x.write.name, x.write.user])).toEqual([
      ['b', UNKNOWN_USER],
      ['a', UNKNOWN_USER],
      ['c', UNKNOWN_USER],
    ]);
    // An Event of another reason or component is no evidence.
    const out = convert([
      ...listed(),
      change('DELETED', 'pods', pod('b')),
      change('ADDED', 'events', event('SuccessfulDelete', 'Deleted pod: b', 'kubelet')),
      change('ADDED', 'events', event('FailedCreate', 'Deleted pod: b')),
    ]);
    expect(out.at(-1)!.write).toMatchObject({ verb: 'delete', name: 'b', user: UNKNOWN_USER });
  });

  it('a deletionTimestamp is the delete; the DELETED after termination only removes the pod', () => {
    const out = convert([
      ...listed(),
      change('MODIFIED', 'pods', pod('b', { deleting: '2026-11-25T10:00:30Z' }), pod('b')),
      change('ADDED', 'events', event('SuccessfulDelete', 'Deleted pod: b')),
      change('DELETED', 'pods', pod('b', { deleting: '2026-11-25T10:00:30Z' })),
    ]);
    expect(out.slice(4).map((c) => [c.write.verb, c.write.user, c.stateOnly])).toEqual([
      ['delete', RS_USER, false],
      ['delete', '<listed>', true],
    ]);
    expect(out[4].write.response).toMatchObject({ metadata: { deletionTimestamp: '2026-11-25T10:00:30Z' } });
  });

  it("ownerReferences changed by kube-controller-manager are the controller's adopt or release; other managers keep their name", () => {
    const orphan = pod('a', { owned: false, managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:09Z')] });
    const out = convert([
      ...listed(),
      change('MODIFIED', 'pods', orphan, pod('a')),
      change('MODIFIED', 'pods', pod('a', { managedFields: [mf('kubectl-edit', '2026-11-25T10:00:11Z')] }), orphan),
    ]);
    expect(out.slice(4).map((c) => [c.write.verb, c.write.user, c.write.subresource])).toEqual([
      ['patch', RS_USER, null],
      ['patch', 'kubectl-edit', null],
    ]);
  });

  it("ReplicaSets: a status write is the controller's status subresource, a spec change keeps its manager, scale is scale", () => {
    const status = rs(3, { status: { replicas: 3, readyReplicas: 2 }, managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:09Z', 'status')] });
    const scaled = rs(5, {
      generation: 2,
      status: { replicas: 3, readyReplicas: 2 },
      managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:09Z', 'status'), mf('kubectl', '2026-11-25T10:00:10Z', 'scale')],
    });
    const edited = rs(5, {
      generation: 3,
      managedFields: [
        mf('kube-controller-manager', '2026-11-25T10:00:09Z', 'status'),
        mf('kubectl', '2026-11-25T10:00:10Z', 'scale'),
        mf('kubectl-edit', '2026-11-25T10:00:12Z'),
      ],
    });
    edited.spec.template.spec.containers[0].image = 'y';
    const out = convert([
      ...listed(),
      change('MODIFIED', 'replicasets', status, rs(3, { status: { replicas: 3 } })),
      change('MODIFIED', 'replicasets', scaled, status),
      change('MODIFIED', 'replicasets', edited, scaled),
      change('DELETED', 'replicasets', edited),
    ]);
    expect(out.slice(4).map((c) => [c.write.verb, c.write.subresource, c.write.user])).toEqual([
      ['update', 'status', RS_USER],
      ['update', 'scale', 'kubectl'],
      ['update', null, 'kubectl-edit'],
      ['delete', null, UNKNOWN_USER],
    ]);
    expect(out[4].write.request).toMatchObject({ status: { readyReplicas: 2 } });
  });

  it('a second kubectl scale (its scale entry unchanged: no time is kept there) is named by the entry that owns spec.replicas', () => {
    const scaleEntry = {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    };
    const once = rs(5, { generation: 2, managedFields: [scaleEntry] });
    const twice = rs(6, { generation: 3, managedFields: [scaleEntry] });
    // the same manager's spec edit within the second, with no scale entry owning replicas: nobody is named
    const edited = rs(7, { generation: 4, managedFields: [mf('kubectl-edit', '2026-11-25T10:00:12Z')] });
    const out = convert([...listed(), change('MODIFIED', 'replicasets', once, rs(3)), change('MODIFIED', 'replicasets', twice, once)]);
    expect(out.slice(4).map((c) => [c.write.verb, c.write.subresource, c.write.user])).toEqual([
      ['update', 'scale', 'kubectl'],
      ['update', 'scale', 'kubectl'],
    ]);
    const again = convert([...listed(), change('MODIFIED', 'replicasets', edited, rs(3, { managedFields: [mf('kubectl-edit', '2026-11-25T10:00:12Z')] }))]);
    expect(again.slice(4).map((c) => [c.write.verb, c.write.subresource, c.write.user])).toEqual([['update', null, UNKNOWN_USER]]);
  });

  it('deletes no Event names, while the controller sends "(combined from similar events)" Events for its pods, are its own (its spam filter dropped the rest)', () => {
    const other = {
      ...pod('x'),
      metadata: { ...pod('x').metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api', uid: 'u2', controller: true }] },
    };
    const c = new RecordingConverter();
    const out: ConvertedWrite[] = [];
    for (const l of [...listed(), change('ADDED', 'pods', other, undefined, true)]) out.push(...c.push(l));
    out.push(
      ...c.push(change('DELETED', 'pods', pod('a'))),
      ...c.push(change('DELETED', 'pods', pod('b'))),
      ...c.push(change('DELETED', 'pods', other)),
      // the aggregate names only the last pod: c; a and b are named by no Event of their own
      ...c.push(change('DELETED', 'pods', pod('c'))),
      ...c.push(change('MODIFIED', 'events', event('SuccessfulDelete', '(combined from similar events): Deleted pod: c'))),
      ...c.end(),
    );
    expect(out.filter((x) => !x.stateOnly).map((x) => [x.write.name, x.write.user])).toEqual([
      ['a', RS_USER],
      ['b', RS_USER],
      ['x', UNKNOWN_USER],
      ['c', RS_USER],
    ]);
    expect(c.notices).toEqual([expect.stringMatching(/^2 pod writes named by no Event of their own are the controller's: .*combined from similar events/)]);
    // a delete long after the combined Events (beyond the window) stays unknown
    const late = new RecordingConverter();
    const got: ConvertedWrite[] = [];
    for (const l of listed()) got.push(...late.push(l));
    got.push(...late.push(change('MODIFIED', 'events', event('SuccessfulDelete', '(combined from similar events): Deleted pod: z'))));
    got.push(...late.push(changeLine('DELETED', 'pods', pod('a'), at(3 * EVIDENCE_WINDOW_MS), false)), ...late.end());
    expect(got.filter((x) => !x.stateOnly).map((x) => [x.write.name, x.write.user])).toEqual([['a', UNKNOWN_USER]]);
  });

  it('a relist (410 Gone) is a gap with a notice; its changes are state only', () => {
    const c = new RecordingConverter();
    const out = [
      ...listed(),
      { kind: 'Gap', time: at(), resource: 'pods', reason: 'watch answered 410 Gone' } as RecordingLine,
      change('ADDED', 'pods', pod('z'), undefined, true),
      change('DELETED', 'pods', pod('a'), undefined, true),
    ].flatMap((l) => c.push(l));
    expect(out.slice(4).map((x) => [x.write.verb, x.write.name, x.stateOnly])).toEqual([
      ['create', 'z', true],
      ['delete', 'a', true],
    ]);
    expect(c.notices).toEqual([expect.stringMatching(/^the watch of pods restarted at .*\(watch answered 410 Gone\): changes before its relist are missing/)]);
  });

  it('a second recording: what its lists do not show again is removed, with a notice', () => {
    const c = new RecordingConverter();
    const out = [
      ...listed(),
      header(),
      change('ADDED', 'replicasets', rs(3), undefined, true),
      change('ADDED', 'pods', pod('a'), undefined, true),
      change('ADDED', 'pods', pod('d', { managedFields: [mf('kube-controller-manager', '2026-11-25T11:00:00Z')] })),
    ].flatMap((l) => c.push(l));
    const removed = out.filter((x) => x.write.verb === 'delete').map((x) => [x.write.name, x.stateOnly]);
    expect(removed.sort()).toEqual([
      ['b', true],
      ['c', true],
    ]);
    expect(out.at(-1)!.write).toMatchObject({ verb: 'create', name: 'd', user: RS_USER });
    expect(c.notices[0]).toMatch(/^the recording restarted at /);
  });

  it('a MODIFIED of a pod never seen (a recording without its lists) is no create', () => {
    const out = convert([header(), change('MODIFIED', 'pods', pod('q', { managedFields: [mf('kube-controller-manager', '2026-11-25T10:00:00Z')] }), pod('q'))]);
    expect(out[0].write).toMatchObject({ verb: 'update', name: 'q', user: 'kube-controller-manager' });
  });
});

describe('parseRecordingLine', () => {
  it('reads the three kinds of line and refuses the rest with a reason', () => {
    expect(parseRecordingLine(header()).kind).toBe('Recording');
    expect(parseRecordingLine(JSON.parse(JSON.stringify(change('ADDED', 'pods', pod('a'))))).kind).toBe('Change');
    expect(() => parseRecordingLine({ ...header(), version: 2 })).toThrow(/format version 2 is newer than this rs-reconcile reads \(1\)/);
    expect(() => parseRecordingLine({ kind: 'Event', apiVersion: 'audit.k8s.io/v1' })).toThrow(RecordingFormatError);
    expect(() => parseRecordingLine({ ...change('ADDED', 'pods', pod('a')), type: 'BOOKMARK' })).toThrow(/unknown type "BOOKMARK"/);
    expect(() => parseRecordingLine({ ...change('ADDED', 'pods', pod('a')), resource: 'secrets' })).toThrow(/unknown resource "secrets"/);
  });
});

describe('the replay on a recording', () => {
  /** A user scales web 3 → 2; the controller deletes the Pending pod b (Event) and writes status. */
  function scaleDown(manager = 'kube-controller-manager', component = 'replicaset-controller'): RecordingLine[] {
    const ssa = [mf(manager, '2026-11-25T09:00:00Z', 'status')];
    const scaled = rs(2, { generation: 2, status: { replicas: 3 }, managedFields: [...ssa, mf('kubectl', '2026-11-25T10:00:05Z', 'scale')] });
    const status = rs(2, {
      generation: 2,
      status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2 },
      managedFields: [mf(manager, '2026-11-25T10:00:07Z', 'status'), mf('kubectl', '2026-11-25T10:00:05Z', 'scale')],
    });
    return [
      header(),
      change('ADDED', 'replicasets', rs(3, { status: { replicas: 3 }, managedFields: ssa }), undefined, true),
      change('ADDED', 'pods', pod('a'), undefined, true),
      change('ADDED', 'pods', pod('b', { phase: 'Pending' }), undefined, true),
      change('ADDED', 'pods', pod('c'), undefined, true),
      change('MODIFIED', 'replicasets', scaled, rs(3, { status: { replicas: 3 }, managedFields: ssa })),
      change('DELETED', 'pods', pod('b', { phase: 'Pending' })),
      change('ADDED', 'events', event('SuccessfulDelete', 'Deleted pod: b', component)),
      change('MODIFIED', 'replicasets', status, scaled),
    ];
  }

  it("the header's server version and rules are the rules applied; without them, a write the versions' rules differ on is unknown, never false", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-rec-'));
    const file = (name: string, lines: RecordingLine[]) => {
      writeFileSync(join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      return join(dir, name);
    };
    const v = (minor: string) => ({ gitVersion: `v1.${minor}.4`, major: '1', minor });
    const kcm = scaleDown();
    const ours = scaleDown('rs-reconcile', 'rs-reconcile');
    const withVersions = (lines: RecordingLine[], serverVersion: ReturnType<typeof v>, rulesVersion: string) => [
      headerLine(lines[0].time, NS, 'test', { serverVersion, rulesVersion }),
      ...lines.slice(1),
    ];
    const read = async (f: string, kubeVersion?: string) => {
      const r = await buildHistory({ auditLogs: [], recordings: [f], kubeVersion });
      try {
        return { version: r.history.kubernetesVersion, notices: r.notices, events: [...r.history.events].filter((e) => e.actor.controller) };
      } finally {
        r.close();
      }
    };
    // a 1.32 server (its kube-controller-manager), and rs-reconcile running 1.32's rules beside a 1.36 server
    for (const f of [file('kcm.jsonl', withVersions(kcm, v('32'), '1.32')), file('ours.jsonl', withVersions(ours, v('36'), '1.32'))]) {
      const got = await read(f);
      expect(
        got.events.map((e) => `${e.verb} ${e.predicted}`),
        f,
      ).toEqual(['delete true', 'status true']);
      expect(got.version).toBe('1.32');
      expect(got.notices).toEqual([]);
    }
    // a recording that names no version (an older rs-reconcile's): 1.35+ write terminatingReplicas, 1.32 does not
    const old = await read(file('old.jsonl', ours));
    expect(old.events.map((e) => `${e.verb} ${e.predicted}`)).toEqual(['delete true', 'status null']);
    expect(old.events[1].message).toMatch(
      /^wrote the status of ReplicaSet web; unknown: the input does not name the Kubernetes version of the controller that wrote it, and the rules differ on this write: those of 1\.37 do not, those of .*1\.32–1\.33 do it/,
    );
    expect(old.notices.join('\n')).toMatch(/does not name the Kubernetes version of every controller write/);
    // --kube-version says which rules: then the verdict is theirs
    expect((await read(join(dir, 'old.jsonl'), '1.36')).events.map((e) => e.predicted)).toEqual([true, false]);
    expect((await read(join(dir, 'old.jsonl'), '1.32')).events.map((e) => e.predicted)).toEqual([true, true]);
  });

  it("the controller's delete and status are predicted, the user's scale is the user's", () => {
    const r = new HistoryReplay({ behaviour: behaviourFor(32).behaviour });
    const events = convert(scaleDown()).flatMap((c) => (c.stateOnly ? (r.push(c.write), []) : r.push(c.write)));
    expect(events.map((e) => [e.actor.user, e.verb, e.pod, e.reason, e.predicted])).toEqual([
      ['kubectl', 'scale', null, null, null],
      [RS_USER, 'delete', 'b', 'Phase', true],
      [RS_USER, 'status', null, null, true],
    ]);
  });

  it('history --recording: gzip and plain files, source "recording", list events left out; one kind of input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-rec-'));
    const text =
      scaleDown()
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n';
    writeFileSync(join(dir, 'r.jsonl'), text);
    writeFileSync(join(dir, 'r.jsonl.gz'), gzipSync(text));
    for (const f of ['r.jsonl', 'r.jsonl.gz']) {
      const { history, notices, close } = await buildHistory({ auditLogs: [], recordings: [join(dir, f)], kubeVersion: '1.32' });
      expect(history.source).toBe('recording');
      expect([...history.events].map((e) => `${e.verb} ${e.pod ?? '-'} ${e.predicted}`)).toEqual(['scale - null', 'delete b true', 'status - true']);
      expect(notices).toEqual([]);
      close();
    }
    await expect(buildHistory({ auditLogs: [join(dir, 'r.jsonl')], recordings: [join(dir, 'r.jsonl')] })).rejects.toThrow(
      /give audit logs \(--audit-log\) or recordings \(--recording\), not both/,
    );
    writeFileSync(join(dir, 'audit.jsonl'), JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete' }) + '\n');
    await expect(buildHistory({ auditLogs: [], recordings: [join(dir, 'audit.jsonl')] })).rejects.toThrow(
      /^error parsing .*audit\.jsonl: not a recording line .*an audit log\? use --audit-log\) \(line 1\)$/,
    );
    writeFileSync(join(dir, 'headless.jsonl'), text.split('\n').slice(1).join('\n'));
    await expect(buildHistory({ auditLogs: [], recordings: [join(dir, 'headless.jsonl')] })).rejects.toThrow(
      /^error parsing .*headless\.jsonl: not a recording of rs-reconcile record: its first line is not the \{"kind":"Recording"\} header \(line 1\)$/,
    );
    await expect(buildHistory({ auditLogs: [], recordings: [join(dir, 'missing.jsonl')] })).rejects.toThrow(/^the path ".*missing\.jsonl" does not exist$/);
  });
});
