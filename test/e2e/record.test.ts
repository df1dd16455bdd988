// `record` as a user runs it (the built CLI): its help, its one-line errors, and a short recording
// of the sandbox that `history --recording` reads back.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cli, ensureBuilt, ROOT, RUN_JS } from './cli.js';

beforeAll(() => ensureBuilt(), 300_000);

let sb: Sandbox | null = null;
afterAll(async () => {
  await sb?.close();
});

const dir = mkdtempSync(join(tmpdir(), 'rs-rec-e2e-'));

/** The CLI run asynchronously (the sandbox answers in this process). */
function cliAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUN_JS, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** One sandbox for the tests that record: namespace shop, a ReplicaSet and its pod; its kubeconfig file. */
async function shopSandbox(): Promise<string> {
  const kubeconfig = join(dir, 'sandbox');
  if (sb) return kubeconfig;
  const labels = { app: 'web' };
  sb = await startSandbox({
    seed: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web', namespace: 'shop', uid: 'rs-1' },
        spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
        status: { replicas: 1 },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'web-a',
          namespace: 'shop',
          uid: 'p-1',
          labels,
          managedFields: [
            { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: '2026-11-25T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: {} },
          ],
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true }],
        },
        spec: { containers: [{ name: 'c', image: 'x' }] },
        status: { phase: 'Running' },
      },
    ],
  });
  await sb.writeKubeconfig(kubeconfig);
  return kubeconfig;
}

describe('record (built CLI)', () => {
  it('--help names the output, the timeout and where the format is documented', () => {
    const r = cli(['record', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('    --output-file=');
    // -o is the output format, as in every command: a recording's one, json
    expect(r.stdout).toContain("-o, --output='json':");
    expect(r.stdout).toContain('--timeout=');
    expect(r.stdout).toContain('The namespace scope');
    expect(r.stdout).toContain('docs/recording-format.md');
    expect(r.stdout).toContain('history --recording');
  });

  it('bad usage and an unreachable cluster are one-line errors, and nothing is written', () => {
    const out = join(dir, 'never.jsonl');
    const cases: [string[], RegExp][] = [
      [['record'], /^error: required flag\(s\) "output-file" not set\nSee 'rs-reconcile record --help' for usage\.$/],
      [['record', '--output-file', out, '-n', 'a', '-A'], /^error: -n and -A cannot be used together$/],
      [['record', '--output-file', out, '--timeout', 'soon'], /^error: invalid --timeout "soon": expected a duration/],
      [['record', '--output-file', out], /kubeconfig|no configuration/i],
      // -o is a format, never a file name: `record -o json` writes no file named json
      [['record', '-o', 'json'], /^error: required flag\(s\) "output-file" not set\n/],
      [
        ['record', '-o', out],
        /^error: invalid argument ".*never\.jsonl" for "-o, --output" flag: expected json \(a recording is JSON lines\); name the file to write with --output-file .*never\.jsonl\nSee 'rs-reconcile record --help' for usage\.$/,
      ],
    ];
    for (const [args, want] of cases) {
      const r = cli(args);
      expect(r.status, args.join(' ')).not.toBe(0);
      // usage errors add kubectl's "See … --help" line
      expect(r.stderr.trim().split('\n').length, args.join(' ')).toBe(args.length === 1 || args[1] === '-o' ? 2 : 1);
      expect(r.stderr.trim()).toMatch(want);
    }
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(ROOT, 'json'))).toBe(false);
  });

  it('an unreachable API server ends it with one line; the file holds only its header', () => {
    const kubeconfig = join(dir, 'unreachable');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u, namespace: shop}}]
current-context: x
`,
    );
    const out = join(dir, 'unreachable.jsonl');
    const r = cli(['record', '--output-file', out, '--kubeconfig', kubeconfig], { timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*127\.0\.0\.1:1/);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ kind: 'Recording', namespace: 'shop' });
  });

  it('records the sandbox until --timeout (gzip), saying when it starts and ends off a terminal too; history --recording reads it', async () => {
    const kubeconfig = await shopSandbox();
    const out = join(dir, 'shop.jsonl.gz');
    const r = await cliAsync(['record', '-n', 'shop', '--output-file', out, '--timeout', '1s', '--kubeconfig', kubeconfig]);
    expect(r.stderr.split('\n')).toEqual([
      `recording namespace shop to ${out} (1 replicasets, 0 replicationcontrollers, 1 pods) for 1s; Ctrl-C stops sooner`,
      `recorded 2 changes to ${out}`,
      '',
    ]);
    expect(r.status).toBe(0);
    const lines = gunzipSync(readFileSync(out))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ apiVersion: 'rs-reconcile/v1alpha1', kind: 'Recording', version: 1, namespace: 'shop' });
    expect(
      lines
        .slice(1)
        .map((l) => [l.kind, l.type, l.resource, l.listed, l.object.metadata.name])
        .sort(),
    ).toEqual([
      ['Change', 'ADDED', 'pods', true, 'web-a'],
      ['Change', 'ADDED', 'replicasets', true, 'web'],
    ]);
    // the informers keep managedFields for the recording: who wrote the pod is in its line
    expect(lines.find((l) => l.resource === 'pods')).toMatchObject({
      manager: 'kube-controller-manager',
      operation: 'Update',
      object: { metadata: { managedFields: [{ manager: 'kube-controller-manager' }] } },
    });
    const h = await cliAsync(['history', '--recording', out, '-o', 'json']);
    expect(h.status).toBe(0);
    expect(JSON.parse(h.stdout)).toMatchObject({ kind: 'ReconcileHistory', source: 'recording', events: [] });
    expect(h.stderr).toMatch(/^Warning: no write of pods, ReplicaSets or ReplicationControllers in the recording: nothing changed while it recorded$/m);
    const both = cli(['history', '--recording', out, '--audit-log', out]);
    expect(both.status).toBe(2);
    expect(both.stderr.trim()).toBe('error: give audit logs (--audit-log) or recordings (--recording), not both: one history is read from one kind of input');
  }, 60_000);

  it("a run on the sandbox (its server is 1.32), recorded: the header names the version, and history --recording with no flag predicts rs-reconcile's own writes", async () => {
    const labels = { app: 'api' };
    const own = await startSandbox({
      nodes: 2,
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ver' } },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'api', namespace: 'ver' },
          // more pods than the event recorder's spam filter lets Events through for (a burst of 25)
          spec: { replicas: 30, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
        },
      ],
    });
    try {
      const kubeconfig = join(dir, 'ver-kubeconfig');
      await own.writeKubeconfig(kubeconfig);
      const out = join(dir, 'ver.jsonl');
      const rec = spawn(process.execPath, [RUN_JS, 'record', '-n', 'ver', '--output-file', out, '--kubeconfig', kubeconfig], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home' },
      });
      let recErr = '';
      rec.stderr.on('data', (b) => (recErr += b));
      const recorded = new Promise<number | null>((resolve) => rec.on('close', resolve));
      // the start line says when every informer has listed (on stderr, terminal or not)
      const deadline = Date.now() + 60_000;
      while (!recErr.includes('recording namespace ver')) {
        if (Date.now() > deadline) throw new Error(`record did not start; stderr: ${recErr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const run = await cliAsync(['run', '-n', 'ver', '--until-synced', '--kubeconfig', kubeconfig]);
      expect(run.status, run.stderr).toBe(0);
      // (kubectl, in a child process of its own: the sandbox answers in this one)
      const scaled = await new Promise<number | null>((resolve) =>
        spawn('kubectl', ['--kubeconfig', kubeconfig, 'scale', 'rs/api', '-n', 'ver', '--replicas=0'], { stdio: 'ignore' }).on('close', resolve),
      );
      expect(scaled).toBe(0);
      const down = await cliAsync(['run', '-n', 'ver', '--until-synced', '--kubeconfig', kubeconfig]);
      expect(down.status, down.stderr).toBe(0);
      rec.kill('SIGINT');
      expect(await recorded).toBe(130);
      const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]);
      expect(header).toMatchObject({ kind: 'Recording', serverVersion: { gitVersion: 'v1.32.0', major: '1', minor: '32' }, rulesVersion: '1.32' });
      const h = await cliAsync(['history', '--recording', out, '-o', 'json']);
      expect(h.stderr).not.toMatch(/not predicted|does not name the Kubernetes version/);
      expect(h.status, h.stderr).toBe(0);
      const doc = JSON.parse(h.stdout);
      expect(doc.kubernetesVersion).toBe('1.32');
      const mine = doc.events.filter((e: { actor: { user: string } }) => e.actor.user === 'rs-reconcile');
      expect(mine.map((e: { verb: string }) => e.verb)).toEqual(expect.arrayContaining(['create', 'status', 'delete']));
      // (a verdict may be unknown where the recorder saw the kubelet's reports before rs-reconcile did; never false)
      expect(mine.filter((e: { predicted: boolean | null }) => e.predicted === false)).toEqual([]);
      expect(mine.filter((e: { verb: string; predicted: boolean | null }) => e.verb !== 'status' && e.predicted !== true)).toEqual([]);
      // its status writes that touched no managedFields entry (the same manager within the second) are its own too
      expect(doc.events.filter((e: { verb: string; actor: { user: string } }) => e.verb === 'status' && e.actor.user !== 'rs-reconcile')).toEqual([]);
      // every pod delete is rs-reconcile's, the ones its Events could not name included
      const deletes = doc.events.filter((e: { verb: string; pod: string | null }) => e.verb === 'delete' && e.pod !== null);
      expect(deletes).toHaveLength(30);
      expect(deletes.filter((e: { actor: { user: string } }) => e.actor.user !== 'rs-reconcile')).toEqual([]);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('Ctrl-C (SIGINT) ends it with exit 130, as a shell expects, and every line written whole', async () => {
    const kubeconfig = await shopSandbox();
    const out = join(dir, 'sigint.jsonl');
    const child = spawn(process.execPath, [RUN_JS, 'record', '-n', 'shop', '--output-file', out, '--kubeconfig', kubeconfig], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home' },
    });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 20_000;
    // (the start line comes once every informer has listed: the listed lines are written by then)
    while (!stderr.includes('Ctrl-C stops')) {
      if (Date.now() > deadline) throw new Error(`no listed lines in time; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe(`recording namespace shop to ${out} (1 replicasets, 0 replicationcontrollers, 1 pods); Ctrl-C stops\nrecorded 2 changes to ${out}\n`);
    const text = readFileSync(out, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).kind),
    ).toEqual(['Recording', 'Change', 'Change']);
  }, 30_000);
});
