// The built CLI as a user runs it against the embedded API server: `reconcile` converges (so
// `diff` exits 0 after it), `--once` keeps one sync, `--plan FILE` applies exactly a saved plan
// and refuses a stale one with no write, and the confirmation names the pods.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ensureBuilt, ROOT, RUN_JS } from '../e2e/cli.js';
import { exampleItems, sandboxOnlyReason, testEnv, type TestEnv } from './env.js';
import { itUnless } from '../skips.js';

let env: TestEnv | null = null;
let sb: Sandbox | null = null;
let dir = '';
beforeAll(() => ensureBuilt());
afterEach(async () => {
  await env?.close();
  env = null;
  sb = null;
});

// the audit log exists only on the sandbox; on a real cluster pods turn ready on their own,
// which a test of "diff exits 0 right after" cannot wait for
const sandboxOnly = itUnless(sandboxOnlyReason('the audit log, fault injection and seeded pod status'));

/** `nodes`: fake nodes for the simulated kubelet (converging waits for pods to turn ready, and to be gone). */
async function start(name: string, edit?: (items: any[]) => void, nodes = 0) {
  const items = exampleItems(name);
  edit?.(items);
  env = await testEnv(items, { nodes });
  sb = env.sandbox;
  dir = mkdtempSync(join(tmpdir(), 'rs-plan-'));
  return env;
}

/** The built CLI in a child process (asynchronously: the sandbox answers from this process). */
function cli(args: string[], input = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [RUN_JS, ...args, '--kubeconfig', env!.kubeconfig],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, HOME: '/nonexistent-home', KUBECONFIG: undefined },
        maxBuffer: 1 << 26,
      },
      (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

// the CLI's writes (the simulated scheduler and kubelet write as system:node:…)
const writes = () => sb!.audit().filter((a) => !['get', 'list', 'watch'].includes(a.verb) && a.resource !== 'events' && !a.user?.startsWith('system:'));
const describeWrite = (a: { verb: string; resource: string; subresource?: string; name?: string }) =>
  `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''}${a.name ? ' ' + a.name : ''}`;

describe('reconcile converges', () => {
  sandboxOnly('after reconcile --yes on a drifted ReplicaSet, diff exits 0', async () => {
    await start('drifted-replicaset', undefined, 3);
    const before = await cli(['diff', '-n', 'shop']);
    expect(before.status).toBe(1);
    const r = await cli(['reconcile', '-n', 'shop', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/in sync after 2 syncs/);
    // the follow-up sync wrote only the status, once the pod it created was ready
    expect(writes().map(describeWrite)).toEqual([
      'patch pods shop-web-debug',
      'patch pods shop-web-manual',
      'create pods',
      'update replicasets/status shop-web',
      'update replicasets/status shop-web',
    ]);
    const after = await cli(['diff', '-n', 'shop']);
    expect(after.stdout).toMatch(/in sync/i);
    expect(after.status).toBe(0);
    expect((await env!.apps.readNamespacedReplicaSet({ namespace: 'shop', name: 'shop-web' })).status).toMatchObject({
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
    });
  });

  sandboxOnly('--once keeps exactly one sync: the status written predates the creates', async () => {
    await start('drifted-replicaset');
    const r = await cli(['reconcile', '-n', 'shop', '--yes', '--once']);
    expect(r.status).toBe(0);
    expect(writes().filter((a) => a.subresource === 'status')).toHaveLength(1);
    expect((await cli(['diff', '-n', 'shop'])).status).toBe(1);
  });

  sandboxOnly('a scale-down converges too: the terminating victims leave the status', async () => {
    await start('scale-down-ranking', undefined, 3);
    const r = await cli(['reconcile', '-n', 'search', '--yes', '-o', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.converged).toBe(true);
    // the simulated kubelet may still be starting seeded pods while it syncs: at least the first
    // sync and the one after its victims are gone
    expect(report.controllers[0].outcome).toMatchObject({ inSync: true, notice: null });
    expect(report.controllers[0].outcome.syncs).toBeGreaterThanOrEqual(2);
    expect((await cli(['diff', '-n', 'search'])).status).toBe(0);
  });

  it('--timeout must be a duration', async () => {
    await start('drifted-replicaset');
    const r = await cli(['reconcile', '-n', env!.namespace, '--yes', '--timeout', 'soon']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/invalid --timeout "soon"/);
    if (sb) expect(writes()).toEqual([]);
  });
});

describe('reconcile --plan FILE', () => {
  sandboxOnly('applies exactly the saved plan: the pods it names, its counts, its status write', async () => {
    await start('scale-down-ranking');
    const saved = await cli(['diff', '-n', 'search', '-o', 'json']);
    expect(saved.status).toBe(1);
    const plan = JSON.parse(saved.stdout);
    const file = join(dir, 'plan.json');
    writeFileSync(file, saved.stdout);
    sb!.clearAudit();
    const r = await cli(['reconcile', '--plan', file, '--yes', '--once']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const deleted = writes()
      .filter((a) => a.verb === 'delete')
      .map((a) => a.name)
      .sort();
    expect(deleted).toEqual(plan.controllers[0].delete.map((d: { name: string }) => d.name).sort());
    expect(deleted).toHaveLength(6);
    expect(writes().filter((a) => a.subresource === 'status')).toHaveLength(plan.controllers[0].statusChanged ? 1 : 0);
  });

  sandboxOnly('a YAML plan from stdin works the same', async () => {
    await start('drifted-replicaset', undefined, 3);
    const saved = await cli(['diff', '-n', 'shop', '-o', 'yaml']);
    sb!.clearAudit();
    const r = await cli(['reconcile', '--plan', '-', '--yes'], saved.stdout);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(
      writes()
        .filter((a) => a.verb === 'patch')
        .map((a) => a.name),
    ).toEqual(['shop-web-debug', 'shop-web-manual']);
  });

  sandboxOnly('a stale plan is refused with no write, naming every difference', async () => {
    const e = await start('scale-down-ranking');
    const saved = await cli(['diff', '-n', 'search', '-o', 'json']);
    const file = join(dir, 'plan.json');
    writeFileSync(file, saved.stdout);
    // one victim goes away and the ReplicaSet is scaled: other pods, another count
    await e.core.deleteNamespacedPod({ namespace: 'search', name: 'search-5f7c9-cheap', gracePeriodSeconds: 0 });
    const rs = await e.apps.readNamespacedReplicaSet({ namespace: 'search', name: 'search-5f7c9' });
    rs.spec!.replicas = 3;
    await e.apps.replaceNamespacedReplicaSet({ namespace: 'search', name: 'search-5f7c9', body: rs });
    sb!.clearAudit();
    const r = await cli(['reconcile', '--plan', file, '--yes']);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/^error: the saved plan is stale, nothing was written/);
    expect(r.stderr).toMatch(/ReplicaSet search\/search-5f7c9: delete: .*search-5f7c9-cheap.* in the plan, .* now/);
    expect(r.stdout).toBe('');
    expect(writes()).toEqual([]);
  });

  sandboxOnly('a plan for another Kubernetes version is refused', async () => {
    await start('drifted-replicaset');
    const saved = await cli(['diff', '-n', 'shop', '-o', 'json', '--kube-version', '1.30']);
    const file = join(dir, 'plan.json');
    writeFileSync(file, saved.stdout);
    sb!.clearAudit();
    const r = await cli(['reconcile', '--plan', file, '--yes']);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/the plan was made for Kubernetes 1\.30; the controller of this cluster behaves as 1\.\d+/);
    expect(writes()).toEqual([]);
  });

  it('a file that is no plan gets one line naming the problem, and no write', async () => {
    await start('drifted-replicaset');
    const cases: [string, RegExp][] = [
      ['{"kind":"ReconcilePlan"', /^error: error parsing .*: invalid JSON: /],
      ['kind: List\nitems: []\n', /not a saved ReconcilePlan: kind must be "ReconcilePlan"/],
      [
        JSON.stringify({
          apiVersion: 'rs-reconcile/v1alpha1',
          kind: 'ReconcilePlan',
          now: 'x',
          kubernetesVersion: '1.35',
          controllers: [{ kind: 'ReplicaSet', namespace: 'shop', name: 'shop-web' }],
        }),
        /controllers\[0\]\.uid must be a non-empty string/,
      ],
      ['', /empty/],
    ];
    for (const [text, message] of cases) {
      const file = join(dir, 'bad.json');
      writeFileSync(file, text);
      const r = await cli(['reconcile', '--plan', file, '--yes']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    const missing = await cli(['reconcile', '--plan', join(dir, 'nope.json'), '--yes']);
    expect(missing.stderr).toMatch(/^error: the path ".*nope\.json" does not exist\n$/);
    const mixed = await cli(['reconcile', '--plan', join(dir, 'bad.json'), 'rs/web', '--yes']);
    expect(mixed.stderr).toMatch(/--plan takes its controllers and namespaces from the plan/);
    if (sb) expect(writes()).toEqual([]);
  });
});

describe('the confirmation names the pods', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  itUnless(
    sandboxOnlyReason('the audit log, fault injection and seeded pod status') ??
      (hasScript ? null : 'script(1) is missing (util-linux): the terminal prompt is not tried'),
  )('on a terminal it lists the pods to delete, and "n" writes nothing and exits 1 (the drift remains)', async () => {
    await start('scale-down-ranking');
    const plan = JSON.parse((await cli(['diff', '-n', 'search', '-o', 'json'])).stdout);
    const cmd = [process.execPath, RUN_JS, 'reconcile', '-n', 'search', '--kubeconfig', env!.kubeconfig].map((a) => `'${a}'`).join(' ');
    // `script` gives the CLI a pseudo-terminal; "n" answers the question once it is asked
    let code: number | null = null;
    const out = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home' } });
      let text = '';
      child.stdout.on('data', (b: Buffer) => {
        const before = text;
        text += b.toString();
        if (!before.includes('[y/N]') && text.includes('[y/N]')) child.stdin.write('n\r');
      });
      child.on('close', (status) => {
        code = status;
        resolve(text);
      });
    });
    // grouped by controller, each delete with the ranking reason the plan gives it
    expect(out).toMatch(/ {2}ReplicaSet search\/search-5f7c9:\r?\n {4}delete 6 pods:\r?\n/);
    const deletes: { name: string; reason: string }[] = plan.controllers[0].delete;
    expect(deletes).toHaveLength(6);
    for (const d of deletes) expect(out).toContain(`      ${d.name} (${d.reason}: `);
    expect(out).toMatch(/ {4}write its status/);
    expect(out).toMatch(/Apply 1 controller sync on \S+\? \[y\/N\]/);
    expect(out).toMatch(/Nothing was written/);
    // `script -e` exits with the CLI's status: as diff on the same drift
    expect(code).toBe(1);
    expect(writes()).toEqual([]);
    expect(readFileSync(env!.kubeconfig, 'utf8')).toContain('server');
  });
});

describe('beside the upstream controller', () => {
  sandboxOnly('reconcile --yes warns that the upstream controller is active in scope (as run refuses), then applies', async () => {
    const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await start('drifted-replicaset', (items) =>
      items.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'shop-web.1', namespace: 'shop' },
        involvedObject: { kind: 'ReplicaSet', name: 'shop-web', namespace: 'shop' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: shop-web-abcde',
        type: 'Normal',
        source: { component: 'replicaset-controller' },
        firstTimestamp: recent,
        lastTimestamp: recent,
        count: 1,
      }),
    );
    const r = await cli(['reconcile', '-n', 'shop', '--yes', '--once']);
    expect(r.stderr).toMatch(
      /^Warning: the upstream ReplicaSet controller is active in namespace "shop" \(Event SuccessfulCreate on ReplicaSet shop\/shop-web \S+ ago by replicaset-controller\): it acts on the same objects, and may undo or repeat these writes\n$/,
    );
    expect(r.status).toBe(0);
    expect(writes().length).toBeGreaterThan(0);
  });

  sandboxOnly('no warning where it has not acted', async () => {
    await start('drifted-replicaset');
    const r = await cli(['reconcile', '-n', 'shop', '--yes', '--once']);
    expect(r.stderr).not.toMatch(/upstream/);
  });
});
