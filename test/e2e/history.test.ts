// `history` as a user runs it (the built CLI) on the real demo audit log, and on the same log with
// one deliberately foreign controller write: UTC times, the coverage line first on stderr, the
// window (--since/--until), the controllers' writes alone, causes, --print-query and --events-file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/input/read-input.js';
import { cli, ensureBuilt, ROOT } from './cli.js';
import { itUnless, withoutShared } from '../skips.js';

const DEMO = join(ROOT, 'test/history/fixtures/demo-audit.jsonl');
/** The demo as the project shares it, when this checkout sits next to it. */
const SHARED_DEMO = join(ROOT, '../shared/history/demo/audit.jsonl');
const RC_USER = 'system:serviceaccount:kube-system:replication-controller';
const COVERAGE = 'coverage: kube-apiserver, 2026-11-25 02:52:48Z → 02:52:58Z (10s)\n';

/** The demo log with a kubelet's final delete of api-x887b (a pod the controller deleted): a write no controller acts on. */
function withKubeletDelete(): string {
  const events = readFileSync(DEMO, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const deleted = events.find((e) => e.verb === 'delete' && e.objectRef.name === 'api-x887b');
  const final = structuredClone(deleted);
  final.auditID = '00000000-0000-4000-8000-0000000000f1';
  final.user = { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] };
  final.userAgent = 'kubelet/v1.32.4 (linux/amd64) kubernetes/4cb5f07';
  final.requestObject = {
    kind: 'DeleteOptions',
    apiVersion: 'meta.k8s.io/__internal',
    gracePeriodSeconds: 0,
    preconditions: { uid: deleted.responseObject.metadata.uid },
  };
  final.requestReceivedTimestamp = '2026-11-25T02:52:57.000000Z';
  final.stageTimestamp = '2026-11-25T02:52:57.004000Z';
  events.splice(
    events.findIndex((e) => e.requestReceivedTimestamp > final.requestReceivedTimestamp),
    0,
    final,
  );
  const log = join(mkdtempSync(join(tmpdir(), 'rs-hist-')), 'kubelet.jsonl');
  writeFileSync(log, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return log;
}

beforeAll(() => ensureBuilt(), 300_000);

describe('history (built CLI)', () => {
  it('prints the timeline, every controller write predicted, exit 0', () => {
    const r = cli(['history', '--audit-log', DEMO, '-n', 'demo', '--kube-version', '1.32']);
    // what the log covers, and nothing else: the versions agree
    expect(r.stderr).toBe(COVERAGE);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+WHO\s+VERB\s+CONTROLLER\s+POD\s+REASON\s+PREDICTED$/);
    expect(lines[1]).toMatch(/^2026-11-25 02:52:48\.861\s+admin\s+create\s+rc\/api/);
    expect(r.stdout).toMatch(/replication-controller\s+delete\s+rc\/api\s+api-cln6k\s+MoreRestarts\s+yes/);
    expect(r.stdout).toMatch(/admin\s+delete\s+rc\/api\s+api-lgl28\s+-\s+-/);
    expect(r.stdout).toContain('19 writes: 16 controller writes (16 predicted, 0 not predicted), 3 other writes');
  });

  it("pod/NAME tells the pod's story with the ranking sentence of its delete", () => {
    const r = cli(['history', 'pod/api-x887b', '--audit-log', DEMO]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('pod api-x887b (namespace demo)');
    expect(r.stdout).toMatch(/create by replication-controller \(the controller\), TooFewReplicas/);
    expect(r.stdout).toMatch(/^2026-11-25 02:52:48\.871Z {2}create by/m);
    const text = r.stdout.replace(/\n {4}/g, ' ');
    expect(text).toMatch(
      /delete by replication-controller \(the controller\), NotReady deleted pod api-x887b: api-x887b is not ready, while api-lgl28 \(the first pod that stays\) is ready/,
    );
    // why the controller acted: the admin's scale, in words
    expect(text).toContain(
      'created pod api-x887b: replicas 4, had 0 (create 4 in batches 1,2,1) because admin created ReplicationController api (replicas 4) at 02:52:48Z',
    );
    expect(text).toContain('pods that are not ready go first because admin scaled ReplicationController api 4 → 1 at 02:52:55Z');
    // what the log covers, whatever is shown of it
    expect(r.stderr.split('\n')[0] + '\n').toBe(COVERAGE);
  });

  it('-o wide adds the nearest cause, short', () => {
    const r = cli(['history', '--audit-log', DEMO, '-o', 'wide', '--kube-version', '1.32']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^TIME \(UTC\)\s+WHO\s+VERB\s+CONTROLLER\s+POD\s+REASON\s+PREDICTED\s+CAUSE\s+MESSAGE$/);
    expect(r.stdout).toMatch(/api-x887b\s+NotReady\s+yes\s+admin scale rc\/api 4→1\s+deleted pod api-x887b/);
    expect(r.stdout).toMatch(/api-tjd76\s+TooFewReplicas\s+yes\s+admin delete pod\/api-lgl28\s+created pod api-tjd76/);
  });

  it('the coverage line goes first on stderr with -o json too; stdout stays the document', () => {
    const r = cli(['history', '--audit-log', DEMO, '-o', 'json']);
    expect(r.status).toBe(0);
    const stderr = r.stderr.split('\n');
    expect(stderr[0]).toBe(COVERAGE.trim());
    for (const line of stderr.slice(1, -1)) expect(line).toMatch(/^Warning: /);
    expect(JSON.parse(r.stdout).coverage).toEqual({ format: 'kube-apiserver', truncated: 0, duplicates: 0, missing: [] });
  });

  it('--output-file F says "wrote F (size)" on stderr, after the coverage line; the file holds what stdout would', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-out-'));
    for (const o of ['html', 'json']) {
      const file = join(dir, `demo.${o}`);
      const r = cli(['history', '--audit-log', DEMO, '-A', '-o', o, '--output-file', file]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const size = readFileSync(file).length;
      expect(size).toBeGreaterThan(1024);
      expect(r.stderr).toBe(`${COVERAGE}wrote ${file} (${formatBytes(size)})\n`);
      expect(readFileSync(file, 'utf8')).toBe(cli(['history', '--audit-log', DEMO, '-A', '-o', o]).stdout);
    }
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
    const events = readFileSync(DEMO, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
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
    expect(r.stdout).toMatch(
      /replication-controller\s+create\s+rc\/api\s+api-extra\s+-\s+NO\s+.+?\s+created pod api-extra: create number 1 of a sync whose rules create 0 \(replicas 1, had 1\)/,
    );
    expect(r.stdout).toContain('17 controller writes (16 predicted, 1 not predicted)');
    expect(r.stdout).toContain('Not predicted by the rules:');
    const json = JSON.parse(cli(['history', '--audit-log', log, '-o', 'json']).stdout);
    expect(json.events.filter((e: { predicted: boolean | null }) => e.predicted === false).map((e: { pod: string }) => e.pod)).toEqual(['api-extra']);
  });

  it('--since / --until show a window of the log, as RFC 3339 times or durations back from now', () => {
    const window = cli(['history', '--audit-log', DEMO, '--kube-version', '1.32', '--since', '2026-11-25T02:52:55Z', '--until', '2026-11-25T03:52:56+01:00']);
    expect(window.status).toBe(0);
    expect(window.stderr).toBe(COVERAGE);
    expect(window.stdout).toContain('6 writes: 5 controller writes (5 predicted, 0 not predicted), 1 other write');
    expect(window.stdout).not.toContain('02:52:48');
    // the times history prints read back (a space for the T)
    const printed = cli(['history', '--audit-log', DEMO, '--kube-version', '1.32', '--since', '2026-11-25 02:52:58Z', '-o', 'json']);
    expect(JSON.parse(printed.stdout).events.map((e: { verb: string }) => e.verb)).toEqual(['delete', 'create', 'status', 'status']);
    // a duration back from now: the demo was written a while ago
    const hours = Math.ceil((Date.now() - Date.parse('2026-11-25T02:52:48Z')) / 3_600_000) + 1;
    expect(JSON.parse(cli(['history', '--audit-log', DEMO, '--since', `${hours}h`, '-o', 'json']).stdout).events.length).toBe(19);
    expect(JSON.parse(cli(['history', '--audit-log', DEMO, '--since', '1m30s', '-o', 'json']).stdout).events).toEqual([]);
    expect(JSON.parse(cli(['history', '--audit-log', DEMO, '--until', '90s', '-o', 'json']).stdout).events.length).toBe(19);
  });

  it('--since / --until refuse what is not a duration or a zoned time, and an --until before --since: one line, exit 2', () => {
    for (const [args, message] of [
      [
        ['--since', 'yesterday'],
        'error: invalid argument "yesterday" for "--since" flag: expected a duration (5s, 2m, 3h, 1h30m) or an RFC 3339 time (2026-11-25T02:52:00Z)',
      ],
      [
        ['--until', '2026-11-25T02:52:00'],
        'error: invalid argument "2026-11-25T02:52:00" for "--until" flag: the time has no zone: add Z for UTC (2026-11-25T02:52:00Z) or an offset (2026-11-25T03:52:00+01:00)',
      ],
      [
        ['--since', '2026-11-25T02:53:00Z', '--until', '2026-11-25T02:52:00Z'],
        'error: --until 2026-11-25T02:52:00Z is before --since 2026-11-25T02:53:00Z: nothing is between them',
      ],
    ] as const) {
      const r = cli(['history', '--audit-log', DEMO, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(message + '\n');
      expect(r.stdout).toBe('');
    }
  });

  it("--controller-writes-only leaves out the writes no controller acted on (a kubelet's final delete)", () => {
    const log = withKubeletDelete();
    const all = JSON.parse(cli(['history', '--audit-log', log, '-o', 'json', '--kube-version', '1.32']).stdout);
    expect(all.events.length).toBe(20);
    expect(all.events.some((e: { actor: { user: string } }) => e.actor.user === 'system:node:node-1')).toBe(true);
    const r = cli(['history', '--audit-log', log, '--controller-writes-only', '--kube-version', '1.32']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('system:node:node-1');
    // users' writes that made the controller act stay: the create, the scale, the delete
    expect(r.stdout).toContain('19 writes: 16 controller writes (16 predicted, 0 not predicted), 3 other writes');
  });

  it('--audit-log-format is one of the formats, and is for --audit-log inputs', () => {
    const bad = cli(['history', '--audit-log', DEMO, '--audit-log-format', 'gke']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'error: invalid argument "gke" for "--audit-log-format" flag: expected one of kube-apiserver, gke-cloud-logging, gke-bigquery, eks-cloudwatch, eks-s3-export, eks-logs-insights, aks-storage, aks-event-hub, aks-log-analytics, openshift-node-logs, openshift-must-gather',
    );
    const alone = cli(['history', '--audit-log-format', 'kube-apiserver']);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toBe('error: --audit-log-format says how to read the --audit-log inputs: give them with --audit-log FILE\n');
    const forced = cli(['history', '--audit-log', DEMO, '--audit-log-format', 'kube-apiserver', '-o', 'json']);
    expect(forced.status).toBe(0);
    expect(JSON.parse(forced.stdout).events.length).toBe(19);
  });

  it('--print-query prints the query for the scope, target and window, reads nothing, exit 0', () => {
    const r = cli(['history', 'rs/web', '--print-query', 'gke', '-n', 'shop', '--since', '2026-11-25T02:00:00Z', '--until', '2026-11-25T03:00:00Z']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^# history --print-query gke/);
    expect(r.stdout).toContain('timestamp>="2026-11-25T02:00:00Z"');
    expect(r.stdout).toContain('timestamp<="2026-11-25T03:00:00Z"');
    expect(r.stdout).toContain('kubectl rs-reconcile history rs/web -n shop --audit-log audit.json');
    for (const cloud of ['bigquery', 'eks', 'aks']) expect(cli(['history', '--print-query', cloud, '-A']).status, cloud).toBe(0);
    const noScope = cli(['history', '--print-query', 'eks']);
    expect(noScope.status).toBe(2);
    expect(noScope.stderr).toBe('error: --print-query needs a scope: -n NAMESPACE, or -A for every namespace (every write of the cluster)\n');
    const withInput = cli(['history', '--print-query', 'aks', '-A', '--audit-log', DEMO]);
    expect(withInput.status).toBe(2);
    expect(withInput.stderr).toBe('error: --print-query prints the query that fetches the log, and reads nothing: leave out --audit-log\n');
    const badCloud = cli(['history', '--print-query', 'azure', '-A']);
    expect(badCloud.status).toBe(2);
    expect(badCloud.stderr.split('\n')[0]).toBe('error: invalid argument "azure" for "--print-query" flag: expected one of gke, bigquery, eks, aks');
  });

  it('--events-file tells what the Events of "kubectl get events -o json" say, causes included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-'));
    const file = join(dir, 'events.json');
    const event = (name: string, kind: string, object: string, reason: string, message: string, component: string, time: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'shop' },
      involvedObject: { kind, namespace: 'shop', name: object, apiVersion: 'apps/v1' },
      reason,
      message,
      source: { component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type: 'Normal',
    });
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          event(
            'web.1',
            'Deployment',
            'web',
            'ScalingReplicaSet',
            'Scaled down replica set web-7d9c5 from 4 to 3',
            'deployment-controller',
            '2026-11-25T10:15:01Z',
          ),
          event('web-7d9c5.2', 'ReplicaSet', 'web-7d9c5', 'SuccessfulDelete', 'Deleted pod: web-7d9c5-x2kq9', 'replicaset-controller', '2026-11-25T10:15:02Z'),
        ],
      }),
    );
    const r = cli(['history', 'pod/web-7d9c5-x2kq9', '--events-file', file]);
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(/^coverage: events, 2026-11-25 10:15:02Z; lacks /);
    const text = r.stdout.replace(/\n {4}/g, ' ');
    expect(r.stdout).toMatch(/^2026-11-25 10:15:02Z {2}delete by replicaset-controller \(the controller\)$/m);
    expect(text).toContain('unknown: deleted pod web-7d9c5-x2kq9');
    expect(text).toContain('because deployment-controller scaled ReplicaSet web-7d9c5 4 → 3 at 10:15:01Z');
    const both = cli(['history', '--events-file', file, '--audit-log', DEMO]);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('error: one history is read from one kind of input: give one of --audit-log, --events-file\n');
  });

  itUnless(withoutShared(SHARED_DEMO))('reads the shared demo as it reads the fixture copy', () => {
    const shared = cli(['history', '--audit-log', SHARED_DEMO, '-o', 'json']);
    expect(shared.status).toBe(0);
    expect(shared.stderr.split('\n')[0]).toBe(COVERAGE.trim());
    expect(shared.stdout).toBe(cli(['history', '--audit-log', DEMO, '-o', 'json']).stdout);
  });

  it('bad input: one line, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-hist-'));
    const bad = join(dir, 'snap.yaml');
    writeFileSync(bad, 'apiVersion: v1\nkind: List\n');
    const r = cli(['history', '--audit-log', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: error parsing .*snap\.yaml: not a JSON audit event.* \(line 1\)\n$/);
    const none = cli(['history', 'rs/nope', '--audit-log', DEMO]);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('ReplicaSet nope has no write in the audit log');
    const missing = cli(['history']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no audit log: give one or more with --audit-log FILE');
    // a format forced on a log of another shape reads nothing from it: an error, not an empty history
    const forced = cli(['history', '--audit-log', DEMO, '--audit-log-format', 'gke-cloud-logging']);
    expect(forced.status).toBe(2);
    expect(forced.stderr.trim().split('\n')).toEqual([
      `error: error parsing ${DEMO}: no entry reads as gke-cloud-logging (36 of another shape): leave out --audit-log-format to recognise the format from the content`,
    ]);
  });
});

describe("the README's history examples", () => {
  beforeAll(() => ensureBuilt(), 600_000);

  it('print exactly what the built CLI prints (stderr first, then stdout)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## What happened, and why: `history`'));
    const block = /```console\n([\s\S]*?)```/.exec(section)![1];
    const [first] = block.split('\n\n$ ');
    const [command, ...shown] = first.replace(/^\$ /, '').split('\n');
    const args = command.replace(/^kubectl rs-reconcile /, '').split(' ');
    const r = cli(args);
    expect(r.status).toBe(0);
    expect(r.stderr + r.stdout).toBe(shown.join('\n') + '\n');
    // the second example, whose rows are elided with …, holds its lines in order
    const second = block.split('\n\n$ ')[1].split('\n');
    const out = cli(second[0].replace(/^kubectl rs-reconcile /, '').split(' '));
    const lines = (out.stderr + out.stdout).split('\n');
    let at = 0;
    for (const l of second.slice(1).filter((x) => x !== '…' && x !== '')) {
      const i = lines.indexOf(l, at);
      expect(i, l).toBeGreaterThanOrEqual(at);
      at = i + 1;
    }
  });
});

// A log big enough to be read on a thread of its own (history-reader.ts, WORKER_MIN_BYTES): the
// built CLI reads it there, the sources in vitest read it in this thread; both give the same
// history. A bad line at its end is the same one-line error, exit 2.
describe('a big log, read on a thread of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-hist-big-'));
  const big = join(dir, 'big.jsonl');
  const lines = readFileSync(DEMO, 'utf8').trim().split('\n');
  const copies: string[] = [];
  // the demo again in namespace demo-N, N times, to pass the thread's threshold
  for (let n = 0; copies.join('\n').length < 17 * 1024 * 1024; n++)
    for (const l of lines)
      copies.push(
        l
          .replaceAll('"demo"', `"demo-${n}"`)
          .replaceAll('/namespaces/demo/', `/namespaces/demo-${n}/`)
          .replace(/"auditID":"([^"]+)"/, `"auditID":"$1-${n}"`),
      );
  writeFileSync(big, copies.join('\n') + '\n');

  beforeAll(() => ensureBuilt(), 600_000);

  it('gives the history the sources give in this thread', async () => {
    const r = cli(['history', '--audit-log', big, '-A', '-o', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const { buildHistory } = await import('../../src/services/history-service.js');
    const here = await buildHistory({ auditLogs: [big] });
    const events = [...here.history.events];
    here.close();
    const doc = JSON.parse(r.stdout);
    expect(doc.events.length).toBeGreaterThan(1000);
    expect(doc.events).toEqual(JSON.parse(JSON.stringify(events)));
    expect(doc.coverage).toEqual(here.coverage);
  }, 120_000);

  it('a record broken in the middle is counted and named by its line, and the rest is read', () => {
    const bad = join(dir, 'bad.jsonl');
    const middle = Math.floor(copies.length / 2);
    writeFileSync(bad, [...copies.slice(0, middle), '{"kind":"Event", not json', ...copies.slice(middle)].join('\n') + '\n');
    const r = cli(['history', '--audit-log', bad, '-A', '-o', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^coverage: kube-apiserver, .*; 1 entry truncated\n/);
    expect(r.stderr).toContain(`Warning: ${bad}:${middle + 1}: not a JSON audit event (`);
    const doc = JSON.parse(r.stdout);
    expect(doc.coverage.truncated).toBe(1);
    // every write after it is read
    expect(doc.to).toBe(JSON.parse(cli(['history', '--audit-log', big, '-A', '-o', 'json']).stdout).to);
    expect(doc.events.filter((e: { predicted: boolean | null }) => e.predicted === false)).toEqual([]);
  }, 120_000);
});
