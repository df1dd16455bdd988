// The README's `reconcile` and `run` examples on the `sandbox` command (its simulated kubelet turns
// pods Running, then Ready, a few hundred ms after their creation), with the built CLI: after
// `reconcile --yes` and after `run --until-synced`, `diff` on the same scope exits 0. The reconcile
// example's output is read from the README and must match exactly as printed. Ctrl-C in the middle
// of an apply stops the writes and says what was written.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, example, ROOT, RUN_JS } from './cli.js';

let sandbox: { child: ChildProcess; exited: Promise<unknown>; kubeconfig: string; dir: string } | null = null;
beforeAll(() => ensureBuilt());
afterEach(async () => {
  if (!sandbox) return;
  sandbox.child.kill('SIGINT');
  await sandbox.exited;
  await rm(sandbox.dir, { recursive: true, force: true });
  sandbox = null;
});

/** `rs-reconcile sandbox --nodes 3 --seed FILE`, as the README starts it; resolves once it serves. */
async function startSandbox(seed: string): Promise<{ apps: AppsV1Api; core: CoreV1Api }> {
  const dir = await mkdtemp(join(tmpdir(), 'sbx-reconcile-'));
  const kubeconfig = join(dir, 'sandbox.kubeconfig');
  const child = spawn(process.execPath, [RUN_JS, 'sandbox', '--nodes', '3', '--seed', seed, '--kubeconfig', kubeconfig], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const exited = new Promise((r) => child.on('exit', r));
  sandbox = { child, exited, kubeconfig, dir };
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      stderr += c;
      if (stderr.includes('Ctrl-C to stop.')) resolve();
    });
    child.on('exit', () => reject(new Error(`sandbox exited: ${stderr}`)));
  });
  const kc = new KubeConfig();
  kc.loadFromString(await readFile(kubeconfig, 'utf8'));
  return { apps: kc.makeApiClient(AppsV1Api), core: kc.makeApiClient(CoreV1Api) };
}

/** The built CLI against the sandbox (asynchronously: the sandbox is another process, but its kubelet must not wait). */
function cli(args: string[], onSpawn?: (child: ChildProcess) => void): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [RUN_JS, ...args, '--kubeconfig', sandbox!.kubeconfig],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, HOME: '/nonexistent-home', KUBECONFIG: undefined },
        maxBuffer: 1 << 26,
      },
      (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end();
    onSpawn?.(child);
  });
}

/** The output the README prints for `$ kubectl rs-reconcile <command>`: the lines up to the next prompt. */
function readmeOutput(command: string): string[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const at = lines.indexOf(`$ kubectl rs-reconcile ${command}`);
  expect(at, `the README shows "$ kubectl rs-reconcile ${command}"`).toBeGreaterThan(0);
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.startsWith('$ ') || l.startsWith('```')) break;
    out.push(l);
  }
  return out;
}

describe('the README examples on the sandbox', () => {
  it('reconcile -n shop --yes prints what the README prints, and diff -n shop then exits 0', async () => {
    const { apps } = await startSandbox(example('drifted-replicaset'));
    const r = await cli(['reconcile', '-n', 'shop', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual(readmeOutput('reconcile -n shop --yes'));
    // the README's next line: `diff -n shop >/dev/null; echo $?` prints 0
    expect(readmeOutput('diff -n shop >/dev/null; echo $?')).toEqual(['0']);
    const diff = await cli(['diff', '-n', 'shop']);
    expect(diff.status).toBe(0);
    expect((await apps.readNamespacedReplicaSet({ namespace: 'shop', name: 'shop-web' })).status).toMatchObject({
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
    });
  }, 120_000);

  it('after a scale to 8, run -n shop --until-synced exits 0 with the status counting 8 ready pods, and diff -n shop exits 0', async () => {
    const { apps } = await startSandbox(example('drifted-replicaset'));
    // the README's `kubectl scale rs shop-web -n shop --replicas 8`
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'shop', name: 'shop-web', body: { spec: { replicas: 8 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const r = await cli(['run', '-n', 'shop', '--until-synced', '--timeout', '1m']);
    expect(r.status).toBe(0);
    const statusLines = r.stderr.split('\n').filter((l) => l.includes('update status'));
    expect(statusLines.at(-1)).toMatch(/ReplicaSet shop\/shop-web: update status \(replicas 8, ready 8, available 8\)$/);
    expect(r.stderr).toMatch(/Every controller in scope is in sync and no expectation is pending\n$/);
    expect((await cli(['diff', '-n', 'shop'])).status).toBe(0);
  }, 120_000);
});

describe('an interrupted reconcile', () => {
  it('Ctrl-C mid-apply: exit 130, and stderr says per controller what was already written', async () => {
    const { apps, core } = await startSandbox(example('drifted-replicaset'));
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'shop', name: 'shop-web', body: { spec: { replicas: 400 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const seeded = new Set((await core.listNamespacedPod({ namespace: 'shop' })).items.map((p) => p.metadata!.name));
    const before = seeded.size;
    const r = await cli(['reconcile', '-n', 'shop', '--yes'], (child) => {
      // Ctrl-C once the first pods exist (the creates go on for a while in slow-start batches)
      const look = async () => {
        if ((await core.listNamespacedPod({ namespace: 'shop' })).items.length > before) child.kill('SIGINT');
        else setTimeout(look, 20);
      };
      void look();
    });
    expect(r.status).toBe(130);
    const m =
      /^interrupted: ReplicaSet shop\/shop-web: created (\d+) of 396 pods, deleted 0 of 0, adopted 1 of 1, released 1 of 1, status (not )?written$/m.exec(
        r.stderr,
      );
    expect(m, r.stderr).not.toBeNull();
    // exactly what it says it created exists: nothing was sent after the interrupt
    const created = (await core.listNamespacedPod({ namespace: 'shop' })).items.filter((p) => !seeded.has(p.metadata!.name));
    expect(created).toHaveLength(Number(m![1]));
  }, 120_000);
});
