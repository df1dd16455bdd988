// The real audit log of ../shared/history/demo (kube-apiserver and kube-controller-manager v1.32:
// a ReplicationController scaled 4 to 1, then a user deletes a pod), vendored under fixtures/,
// gives exactly what its expected.yaml says happened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildHistory, type HistoryOptions } from '../../src/services/history-service.js';
import { itUnless, withoutShared } from '../skips.js';

/** The history with its events read back from disk (and the file removed). */
async function collect(opts: HistoryOptions) {
  const r = await buildHistory(opts);
  try {
    return { ...r, history: { ...r.history, events: [...r.history.events] } };
  } finally {
    r.close();
  }
}

const FIXTURES = join(import.meta.dirname, 'fixtures');
const LOG = join(FIXTURES, 'demo-audit.jsonl');
const SHARED = join(import.meta.dirname, '../../../shared/history/demo');

interface Expected {
  namespace: string;
  controller: { kind: string; name: string };
  pods: Record<string, string>;
  controllerActions: { verb: string; count?: number; pod?: string; criterion?: string; why?: string }[];
  userActions: { verb: string; pod: string; user: string }[];
}

const expected = parse(readFileSync(join(FIXTURES, 'demo-expected.yaml'), 'utf8')) as Expected;

describe('the demo audit log (real v1.32 servers)', async () => {
  const { history } = await collect({ auditLogs: [LOG], kubeVersion: '1.32' });
  const mine = history.events.filter((e) => e.actor.controller);
  const pods = mine.filter((e) => e.verb === 'create' || e.verb === 'delete');

  itUnless(withoutShared(SHARED))('the vendored copy is the shared one', () => {
    expect(readFileSync(LOG, 'utf8')).toBe(readFileSync(join(SHARED, 'audit.jsonl'), 'utf8'));
    expect(readFileSync(join(FIXTURES, 'demo-expected.yaml'), 'utf8')).toBe(readFileSync(join(SHARED, 'expected.yaml'), 'utf8'));
  });

  it("the controller's pod writes are the expected actions, in order, with their criteria", () => {
    const actual: { verb: string; pods: string[]; reasons: string[] }[] = [];
    for (const e of pods) {
      const last = actual.at(-1);
      if (last && last.verb === e.verb) {
        last.pods.push(e.pod!);
        last.reasons.push(e.reason!);
      } else actual.push({ verb: e.verb, pods: [e.pod!], reasons: [e.reason!] });
    }
    // expected.yaml: create 4; delete a, d, b one by one (each with its criterion); create e
    const want: { verb: string; pods: string[]; reasons: string[] }[] = [];
    for (const a of expected.controllerActions) {
      const last = want.at(-1);
      if (a.verb === 'delete') {
        if (last?.verb === 'delete') {
          last.pods.push(a.pod!);
          last.reasons.push(a.criterion!);
        } else want.push({ verb: 'delete', pods: [a.pod!], reasons: [a.criterion!] });
      } else want.push({ verb: 'create', pods: a.pod ? [a.pod] : [], reasons: Array(a.count ?? 1).fill('TooFewReplicas') });
    }
    expect(actual.map((a) => a.verb)).toEqual(want.map((a) => a.verb));
    for (let i = 0; i < want.length; i++) {
      expect(actual[i].reasons.length, `action ${i}`).toBe(want[i].reasons.length);
      if (want[i].verb === 'delete') {
        // the three deletes of one sync run in parallel upstream: compare them as pairs
        const pairs = (x: { pods: string[]; reasons: string[] }) => x.pods.map((p, j) => `${p}:${x.reasons[j]}`).sort();
        expect(pairs(actual[i])).toEqual(pairs(want[i]));
      } else {
        expect(actual[i].reasons).toEqual(want[i].reasons);
        if (want[i].pods.length) expect(actual[i].pods).toEqual(want[i].pods);
      }
    }
  });

  it('says why it created: the counts of expected.yaml', () => {
    const creates = pods.filter((e) => e.verb === 'create');
    expect(creates.slice(0, 4).every((e) => e.message.includes('replicas 4, had 0'))).toBe(true);
    expect(creates[4].message).toContain('replicas 1, had 0');
  });

  it('every controller write is predicted by the rules; users are the users', () => {
    expect(mine.length).toBeGreaterThan(10);
    expect(mine.filter((e) => e.predicted !== true)).toEqual([]);
    for (const e of mine) expect(e.controller).toEqual({ kind: expected.controller.kind, namespace: expected.namespace, name: expected.controller.name });
    const userDeletes = history.events.filter((e) => !e.actor.controller && e.verb === 'delete');
    expect(userDeletes.map((e) => ({ verb: e.verb, pod: e.pod, user: e.actor.user }))).toEqual(expected.userActions);
    expect(history.events.filter((e) => !e.actor.controller).every((e) => e.predicted === null && e.reason === null)).toBe(true);
  });

  it('is the history contract: header, times in order, refused writes left out', () => {
    expect(history).toMatchObject({ apiVersion: 'rs-reconcile/v1alpha1', kind: 'ReconcileHistory', source: 'audit-log', kubernetesVersion: '1.32' });
    const times = history.events.map((e) => e.time);
    expect([...times].sort()).toEqual(times);
    expect(history.from).toBe(times[0]);
    expect(history.to).toBe(times.at(-1));
    // the log holds one status write answered 409: it is no event
    const statusWrites = readFileSync(LOG, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"subresource":"status"') && l.includes('replicationcontrollers'));
    const refused = statusWrites.filter((l) => JSON.parse(l).responseStatus.code >= 300).length;
    expect(refused).toBe(1);
    expect(mine.filter((e) => e.verb === 'status').length).toBe(statusWrites.length - refused);
    for (const e of history.events)
      expect(Object.keys(e).sort()).toEqual(['actor', 'cause', 'controller', 'message', 'pod', 'predicted', 'reason', 'time', 'verb']);
  });

  it('applies the rules of the kube-controller-manager version that wrote the log, unless --kube-version says otherwise', async () => {
    const named = await collect({ auditLogs: [LOG] });
    expect(named.notices).toEqual([]);
    expect(named.history.kubernetesVersion).toBe('1.32');
    const other = await collect({ auditLogs: [LOG], kubeVersion: '1.35' });
    expect(other.history.kubernetesVersion).toBe('1.35');
    expect(other.notices).toEqual([expect.stringMatching(/^the log's controllers ran the rules of 1\.32, and --kube-version applied those of 1\.35 instead$/)]);
    const same = await collect({ auditLogs: [LOG], kubeVersion: '1.32' });
    expect(same.notices).toEqual([]);
  });

  it('pod/NAME keeps the writes of that pod only; rc/NAME those of the controller', async () => {
    const pod = await collect({ auditLogs: [LOG], target: { kind: 'Pod', name: expected.pods.c } });
    expect(pod.history.events.map((e) => `${e.verb} ${e.actor.user}`)).toEqual([
      'create system:serviceaccount:kube-system:replication-controller',
      'delete admin',
    ]);
    expect(pod.targetNamespace).toBe('demo');
    const rc = await collect({ auditLogs: [LOG], target: { kind: 'ReplicationController', name: 'api' }, namespace: 'demo' });
    expect(rc.history.events.length).toBe(history.events.length);
    await expect(collect({ auditLogs: [LOG], target: { kind: 'ReplicaSet', name: 'api' } })).rejects.toThrow('ReplicaSet api has no write in the audit log');
  });
});

// The demo as a log without pods/status or replicationcontrollers/status writes (GKE's default: they
// are Data Access logs, off unless turned on), in the plain kube-apiserver format: the pods' phase
// and readiness are not in it, and the bodies of the controller's deletes show them changed with no
// status write logged. Nothing is then claimed that rests on them: no verdict is false, the deletes
// are unknown and say why, the creates (on counts alone) are still predicted, and coverage says so.
describe('the demo audit log without status writes', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'rs-demo-nostatus-'));
  const file = join(dir, 'audit.jsonl');
  const lines = readFileSync(LOG, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && JSON.parse(l).objectRef?.subresource !== 'status');
  writeFileSync(file, lines.join('\n') + '\n');
  const r = await collect({ auditLogs: [file] });
  rmSync(dir, { recursive: true, force: true });
  const mine = r.history.events.filter((e) => e.actor.controller);

  it('has no false verdict; creates are predicted, deletes unknown with the reason', () => {
    expect(mine.filter((e) => e.predicted === false)).toEqual([]);
    expect(mine.filter((e) => e.verb === 'create').map((e) => e.predicted)).toEqual([true, true, true, true, true]);
    const deletes = mine.filter((e) => e.verb === 'delete');
    expect(deletes.length).toBe(3);
    for (const d of deletes) {
      expect(d.predicted).toBeNull();
      expect(d.message).toMatch(/^deleted pod api-\w+; state unknown: the log has no pod status writes \(pods\/status\)/);
    }
  });

  it('says in the coverage what is missing, and why it knows', () => {
    expect(r.coverage.missing).toEqual([
      expect.stringMatching(
        /^pod status writes \(pods\/status, where the kubelet reports phase and readiness\): pod api-\w+ was Running in the answer to a delete at .*, which no pods\/status write in the log had set; the verdicts that rest on them are unknown$/,
      ),
    ]);
    expect(r.counts).toMatchObject({ notPredicted: 0, predicted: 5, unknown: 3 });
  });
});
