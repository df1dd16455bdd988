// `watch` on the embedded API server seeded with a Deployment mid-rollout
// (examples/deployment-midrollout.yaml): the plain stream prints the Deployment's line with its
// ReplicaSets' sizes and the deployment controller's next step, follows changes of the Deployment
// and its ReplicaSets live (informers), and, when deployments.apps cannot be listed (403), says so
// once and watches the ReplicaSets as usual. Every wait is on a condition, with generous limits.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ensureBuilt, example, NOW, ROOT, RUN_JS } from './cli.js';

const WAIT_MS = 60_000;

describe('watch: a Deployment mid-rollout on a live cluster', () => {
  let sb: Sandbox;
  let dir: string;
  let kubeconfig: string;
  let apps: AppsV1Api;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    const list = parse(readFileSync(example('deployment-midrollout'), 'utf8'));
    sb = await startSandbox({ seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, ...list.items] });
    dir = mkdtempSync(join(tmpdir(), 'watch-deploy-'));
    kubeconfig = join(dir, 'kubeconfig');
    await sb.writeKubeconfig(kubeconfig, 'shop');
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    apps = kc.makeApiClient(AppsV1Api);
  }, 180_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await sb?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The CLI piped (the API server runs in this process: never spawnSync); waits on its output. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [RUN_JS, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', KUBECONFIG: kubeconfig, HOME: dir } });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (re: RegExp, what: string) => {
      const deadline = Date.now() + WAIT_MS;
      while (!re.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`timed out waiting for ${what}\nstdout:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    return { child, exited, waitFor, out: () => out, err: () => err };
  }

  it('the first plan: the Deployment, its ReplicaSets 2/2 and 3/3 → 2, and the next step; then a scale and a pause made through the API', async () => {
    const w = start(['watch', '--now', NOW]);
    await w.waitFor(
      /Z shop\/web deploy replicas=4 updated=2 available=4 replicasets=web-7d9c5b6f4:2\/2,web-5f6b4c8d9:3\/3→2 drift next: scale web-5f6b4c8d9 3 → 2: maxUnavailable 25% of 4 = 1 \(rounded down\)/,
      'the Deployment line',
    );
    await w.waitFor(/Z shop\/web-5f6b4c8d9 rs desired=3 current=3/, 'the old ReplicaSet line');
    // what the deployment controller would write: the old ReplicaSet's spec.replicas 3 → 2
    await apps.patchNamespacedReplicaSetScale({ namespace: 'shop', name: 'web-5f6b4c8d9', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] });
    // seen live: the old one now 3/2, and the next step grows the new one (maxSurge)
    await w.waitFor(
      /Z shop\/web deploy [^\n]*replicasets=web-7d9c5b6f4:2\/2→3,web-5f6b4c8d9:3\/2 drift next: scale web-7d9c5b6f4 2 → 3: maxSurge 25% of 4 = 1 \(rounded up\)/,
      'the scale in the Deployment line',
    );
    // the Deployment itself changes: paused
    await apps.patchNamespacedDeployment({ namespace: 'shop', name: 'web', body: [{ op: 'add', path: '/spec/paused', value: true }] });
    await w.waitFor(/Z shop\/web deploy [^\n]* paused next: paused/, 'the pause');
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(130);
    expect(w.err()).toBe('');
  }, 180_000);
});
