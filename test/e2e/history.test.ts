// `history` as a user runs it (the built CLI) on the real demo audit log, and on the same log with
// one deliberately foreign controller write.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, ROOT } from './cli.js';

const DEMO = join(ROOT, 'test/history/fixtures/demo-audit.jsonl');
const RC_USER = 'system:serviceaccount:kube-system:replication-controller';

beforeAll(() => ensureBuilt(), 300_000);

describe('history (built CLI)', () => {
  it('prints the timeline, every controller write predicted, exit 0', () => {
    const r = cli(['history', '--audit-log', DEMO, '-n', 'demo', '--kube-version', '1.32']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^TIME\s+WHO\s+VERB\s+CONTROLLER\s+POD\s+REASON\s+PREDICTED$/);
    expect(r.stdout).toMatch(/replication-controller\s+delete\s+rc\/api\s+api-cln6k\s+MoreRestarts\s+yes/);
    expect(r.stdout).toMatch(/admin\s+delete\s+rc\/api\s+api-lgl28\s+-\s+-/);
    expect(r.stdout).toContain('19 writes: 16 controller writes (16 predicted, 0 not predicted), 3 other writes');
  });

  it("pod/NAME tells the pod's story with the ranking sentence of its delete", () => {
    const r = cli(['history', 'pod/api-x887b', '--audit-log', DEMO]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('pod api-x887b (namespace demo)');
    expect(r.stdout).toMatch(/create by replication-controller \(the controller\), TooFewReplicas/);
    const text = r.stdout.replace(/\n {4}/g, ' ');
    expect(text).toMatch(/delete by replication-controller \(the controller\), NotReady deleted pod api-x887b: api-x887b is not ready, while api-lgl28 \(the first pod that stays\) is ready/);
  });

  it('-o json is the history contract; gzip input reads the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-'));
    const gz = join(dir, 'audit.log.1.gz');
    writeFileSync(gz, gzipSync(readFileSync(DEMO)));
    const plain = cli(['history', '--audit-log', DEMO, '-o', 'json']);
    const zipped = cli(['history', '--audit-log', gz, '-o', 'json']);
    expect(zipped.stdout).toBe(plain.stdout);
    const h = JSON.parse(plain.stdout);
    expect(h).toMatchObject({ apiVersion: 'rs-reconcile/v1alpha1', kind: 'ReconcileHistory', source: 'audit-log' });
    expect(h.events.length).toBe(19);
  });

  it('flags a controller write the rules do not predict, says what they would do, exits 1', () => {
    const events = readFileSync(DEMO, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // One foreign write at the end: the controller creates a second pod although api-tjd76 already
    // runs for its one replica (as after expectations expired with slow informers, #129795).
    const create = events.findLast((e) => e.verb === 'create' && e.objectRef.resource === 'pods' && e.user.username === RC_USER);
    const extra = structuredClone(create);
    extra.auditID = '00000000-0000-4000-8000-000000000001';
    extra.responseObject.metadata.name = 'api-extra';
    extra.responseObject.metadata.uid = '00000000-0000-4000-8000-0000000000e7';
    extra.requestReceivedTimestamp = extra.stageTimestamp = events.at(-1).stageTimestamp.replace(/\d{3}Z$/, '999Z');
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-'));
    const log = join(dir, 'foreign.jsonl');
    writeFileSync(log, [...events, extra].map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = cli(['history', '--audit-log', log, '-o', 'wide']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/replication-controller\s+create\s+rc\/api\s+api-extra\s+-\s+NO\s+created pod api-extra: create number 1 of a sync whose rules create 0 \(replicas 1, had 1\)/);
    expect(r.stdout).toContain('17 controller writes (16 predicted, 1 not predicted)');
    expect(r.stdout).toContain('Not predicted by the rules:');
    const json = JSON.parse(cli(['history', '--audit-log', log, '-o', 'json']).stdout);
    expect(json.events.filter((e: { predicted: boolean | null }) => e.predicted === false).map((e: { pod: string }) => e.pod)).toEqual(['api-extra']);
  });

  it('bad input: one line, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-'));
    const bad = join(dir, 'snap.yaml');
    writeFileSync(bad, 'apiVersion: v1\nkind: List\n');
    const r = cli(['history', '--audit-log', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('snap.yaml:1: not a JSON audit event');
    const none = cli(['history', 'rs/nope', '--audit-log', DEMO]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('ReplicaSet nope has no write in the audit log');
    const missing = cli(['history']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no audit log: give one or more with --audit-log FILE');
  });
});
