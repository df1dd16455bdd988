// The built CLI's `run --controllers replicaset,deployment --until-synced` against the embedded
// API server: a Deployment made with kubectl is rolled out (its ReplicaSet created and filled,
// the pods ready) and the command exits 0; an unknown controller name is one line and exit 2.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cli, ensureBuilt, ROOT, RUN_JS } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);
const exec = promisify(execFile);
let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [RUN_JS, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  child.stdout.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('run --controllers replicaset,deployment (built CLI)', () => {
  it('rolls out a kubectl-created Deployment and exits 0 once in sync', async () => {
    sb = await startSandbox({ nodes: 2, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 } });
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'rs-e2e-deploy-')), 'config');
    await sb.writeKubeconfig(kubeconfig);
    const kubectl = async (...args: string[]) => (await exec('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 })).stdout;
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2');
    const r = await runCli([
      'run',
      '--kubeconfig',
      kubeconfig,
      '-n',
      'default',
      '--controllers',
      'replicaset,deployment',
      '--until-synced',
      '--timeout',
      '90s',
    ]);
    expect(r.stderr).toContain('Caches are synced controllers=ReplicaSet,Deployment');
    expect(r.code).toBe(0);
    const rss = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items;
    expect(rss).toHaveLength(1);
    expect(rss[0].metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rss[0].status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json'));
    expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=30s')).toContain('successfully rolled out');
  }, 180_000);

  it('an unknown controller is one clear line, exit 2, before any connection', () => {
    const r = cli(['run', '--controllers', 'replicaset,daemonset', '--kubeconfig', '/nonexistent']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown controller "daemonset"');
  });
});
