// End to end: deploy/NAME as a target (the ReplicaSets a Deployment controls, by owner reference),
// and the warnings for a snapshot without pods and a selector that matches nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cli, ensureBuilt, example, NOW, ROOT, RUN_JS } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

// the Deployment checkout mid-rollout (two ReplicaSets) next to a standalone ReplicaSet, both in shop
const FILES = ['-f', example('deployment-rollout'), '-f', example('drifted-replicaset'), '--now', NOW];
const names = (plan: { controllers: { name: string }[] }) => plan.controllers.map((c) => c.name);

describe('deploy/NAME', () => {
  it('diff plans exactly the ReplicaSets the Deployment controls, as in the plan of the whole namespace', () => {
    const r = cli(['diff', 'deploy/checkout', ...FILES, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const plan = JSON.parse(r.stdout);
    expect(names(plan)).toEqual(['checkout-6b8d', 'checkout-9c2f']);
    expect(plan.summary).toMatchObject({ controllers: 2, create: 1, delete: 2 });
    const whole = JSON.parse(cli(['diff', ...FILES, '-n', 'shop', '-o', 'json']).stdout);
    expect(names(whole)).toEqual(['checkout-6b8d', 'checkout-9c2f', 'shop-web']);
    // colocation counts the pods of both ReplicaSets, as when the whole namespace is planned
    expect(plan.controllers).toEqual(whole.controllers.slice(0, 2));
    expect(plan.controllers[0].delete.map((d: { reason: string }) => d.reason)).toEqual(['MoreOnSameNode', 'MoreOnSameNode']);
  });

  it('kubectl spellings: deployment/, deployments.apps/, next to other names', () => {
    for (const t of ['deployment/checkout', 'deployments.apps/checkout', 'deploy/checkout'])
      expect(names(JSON.parse(cli(['diff', t, ...FILES, '-o', 'json']).stdout))).toEqual(['checkout-6b8d', 'checkout-9c2f']);
    expect(cli(['diff', 'deploy/checkout', 'rs/shop-web', ...FILES, '-o', 'name']).stdout).toBe(
      'replicaset.apps/checkout-6b8d\nreplicaset.apps/checkout-9c2f\nreplicaset.apps/shop-web\n',
    );
  });

  it('explain -o json prints the plan document of exactly those ReplicaSets; -o yaml the same', () => {
    const r = cli(['explain', 'deploy/checkout', ...FILES, '-o', 'json']);
    expect(r.status).toBe(0); // a describe: it explained
    expect(cli(['explain', 'deploy/checkout', ...FILES, '-o', 'json', '--exit-code']).status).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(cli(['diff', 'deploy/checkout', ...FILES, '-o', 'json']).stdout));
    expect(parse(cli(['explain', 'deploy/checkout', ...FILES, '-o', 'yaml']).stdout)).toEqual(JSON.parse(r.stdout));
  });

  it("explain's text is a Deployment header and tree, then each ReplicaSet's story, the new one first", () => {
    const r = cli(['explain', 'deploy/checkout', ...FILES]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Deployment shop/checkout');
    expect(r.stdout).toMatch(/^Deployment\/checkout\n├─ReplicaSet\/checkout-9c2f +4 \(new\)/m);
    expect(r.stdout).toMatch(/^└─ReplicaSet\/checkout-6b8d +3 \(old\)/m);
    expect(r.stdout).toMatch(/^ {2}├─Pod\/checkout-6b8d-aaa11 +delete +#1 +MoreOnSameNode$/m);
    const heads = r.stdout.split('\n').filter((l) => l.startsWith('ReplicaSet '));
    expect(heads).toEqual([
      'ReplicaSet shop/checkout-9c2f: this sync would create 1 and write status',
      'ReplicaSet shop/checkout-6b8d: this sync would delete 2 and write status',
    ]);
    expect(r.stdout).not.toContain('shop-web');
    // each story is the one explain rs/NAME tells
    const one = cli(['explain', 'rs/checkout-6b8d', ...FILES]).stdout;
    expect(r.stdout.endsWith(one)).toBe(true);
  });

  it('--replicas is refused by diff with the reason; explain takes it as a scale of the Deployment, which needs the Deployment itself', () => {
    const r = cli(['diff', 'deploy/checkout', '--replicas', '3', ...FILES]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      'error: --replicas cannot be used with deploy/checkout: the Deployment controller decides how replicas are split between its ReplicaSets (scale one of them with rs/NAME --replicas N)',
    ]);
    // these snapshots hold checkout's ReplicaSets but not the Deployment: there is no rollout to foresee
    const e = cli(['explain', 'deploy/checkout', '--replicas', '3', ...FILES]);
    expect(e.status).toBe(2);
    expect(e.stdout).toBe('');
    expect(e.stderr.trim().split('\n')).toEqual([
      'error: deployments.apps "checkout" not found in the snapshot (a snapshot for a rollout holds it: kubectl get deploy,rs,pods -o yaml)',
    ]);
  });

  it('a Deployment that controls no ReplicaSet: one line naming those that do', () => {
    for (const cmd of ['diff', 'explain']) {
      const r = cli([cmd, 'deploy/web', ...FILES, '-n', 'shop']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([
        'error: deployments.apps "web" not found: no ReplicaSet in shop namespace is controlled by a Deployment named web (ReplicaSets here are controlled by deployment checkout)',
      ]);
    }
  });
});

describe('warnings', () => {
  it('a snapshot of controllers without pods (kubectl get rs -o json) says what it plans', () => {
    const list = parse(readFileSync(example('deployment-rollout'), 'utf8'));
    list.items = list.items.filter((o: { kind: string }) => o.kind !== 'Pod');
    const r = cli(['diff', '-f', '-', '--now', NOW, '-o', 'name'], { input: JSON.stringify(list) });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('replicaset.apps/checkout-6b8d\nreplicaset.apps/checkout-9c2f\n');
    expect(r.stderr).toBe(
      'Warning: the input holds 2 ReplicaSets but no pods: every controller is planned as if its pods were gone (did you mean "kubectl get rs,rc,pods -o yaml"?)\n',
    );
    // with its pods: no warning
    expect(cli(['diff', '-f', example('deployment-rollout'), '--now', NOW, '-o', 'name']).stderr).toBe('');
  });

  it('a selector that matches no controller: a warning, an empty plan, exit 0 as kubectl diff without changes', () => {
    const r = cli(['diff', ...FILES, '-n', 'shop', '-l', 'app=nope', '-o', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).controllers).toEqual([]);
    expect(r.stderr).toBe('Warning: no ReplicaSet or ReplicationController matches the selector app=nope in shop namespace (3 ReplicaSets there)\n');
    expect(cli(['diff', ...FILES, '-n', 'shop', '-l', 'app=checkout', '-o', 'json']).stderr).toBe('');
  });
});

describe('deploy/NAME on a live cluster where the Deployment has no ReplicaSet', () => {
  let sb: Sandbox;
  let kubeconfig: string;
  beforeAll(async () => {
    const items = parseAllDocuments(readFileSync(example('deployment-rollout'), 'utf8')).flatMap((d) => (d.toJS() as any).items);
    const web = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    sb = await startSandbox({ seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, ...items, web] });
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'rs-deploy-')), 'kubeconfig');
    await sb.writeKubeconfig(kubeconfig, 'shop');
  }, 60_000);
  afterAll(async () => sb?.close());

  // the API server runs in this process: the CLI must run without blocking it
  const run = async (args: string[]) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [RUN_JS, ...args], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', KUBECONFIG: kubeconfig },
      });
      return { status: 0, stdout, stderr };
    } catch (e: any) {
      return { status: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string };
    }
  };

  it("plans a Deployment that controls no ReplicaSet yet: its controller's first ReplicaSet", async () => {
    const diff = await run(['diff', 'deploy/web', '--now', NOW, '-o', 'json']);
    expect(diff.stderr).toBe('');
    expect(diff.status).toBe(1);
    const d = JSON.parse(diff.stdout).deployments[0];
    expect(d).toMatchObject({ namespace: 'shop', name: 'web', newReplicaSet: null });
    expect(d.actions).toEqual([{ verb: 'create', replicaSet: null, replicas: 2, message: expect.stringContaining('maxSurge 25% of 2 = 1 (rounded up)') }]);
    const explain = await run(['explain', 'deploy/web', '--now', NOW]);
    expect(explain.status).toBe(0);
    expect(explain.stdout.split('\n').slice(0, 3)).toEqual(['Deployment shop/web', expect.stringMatching(/^ {2}UID: +\S+$/), '  ReplicaSets:        <none>']);
    // one that does not exist is still not found
    const gone = await run(['explain', 'deploy/nope', '--now', NOW]);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain('deployments.apps "nope" not found');
  }, 60_000);
});
