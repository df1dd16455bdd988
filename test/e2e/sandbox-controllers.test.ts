// `rs-reconcile sandbox` (the built CLI) with and without --no-controllers: whether the
// serviceaccount controller's `default` ServiceAccounts exist, and so whether pods are admitted.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, RUN_JS } from './cli.js';

let dir: string;
beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'sbx-e2e-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Starts the sandbox command, waits for its hint line, hands a client to `fn`, then stops it with SIGINT. */
async function withSandbox(flags: string[], fn: (core: CoreV1Api, hint: string) => Promise<void>): Promise<void> {
  const kubeconfig = join(dir, `${flags.join('') || 'default'}.kubeconfig`);
  const child = spawn(process.execPath, [RUN_JS, 'sandbox', '--nodes', '0', '--write-kubeconfig', kubeconfig, ...flags], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    let stderr = '';
    const hint = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c) => {
        stderr += c;
        if (stderr.includes('Ctrl-C to stop.')) resolve(stderr);
      });
      child.on('exit', () => reject(new Error(`sandbox exited: ${stderr}`)));
    });
    const kc = new KubeConfig();
    kc.loadFromString(await readFile(kubeconfig, 'utf8'));
    await fn(kc.makeApiClient(CoreV1Api), hint);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } });

describe('sandbox --no-controllers', () => {
  it('without the flag: `default` ServiceAccounts exist and a pod is admitted', async () => {
    await withSandbox([], async (core, hint) => {
      expect(hint).not.toContain('no controllers');
      expect((await core.listNamespacedServiceAccount({ namespace: 'default' })).items.map((s) => s.metadata?.name)).toEqual(['default']);
      expect((await core.createNamespacedPod({ namespace: 'default', body: pod('a') })).metadata?.name).toBe('a');
    });
  }, 60_000);

  it('with it: no ServiceAccount anywhere, and a pod is refused with 403 until one is made', async () => {
    await withSandbox(['--no-controllers'], async (core, hint) => {
      expect(hint).toContain('no controllers');
      expect((await core.listServiceAccountForAllNamespaces()).items).toEqual([]);
      const err = await core.createNamespacedPod({ namespace: 'default', body: pod('a') }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiException);
      expect((err as ApiException<string>).code).toBe(403);
      await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'default' } } });
      expect((await core.createNamespacedPod({ namespace: 'default', body: pod('a') })).metadata?.name).toBe('a');
    });
  }, 60_000);
});
