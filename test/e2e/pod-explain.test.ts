// End to end: `explain pod/NAME` of the built CLI, on the bundled orphaned-pods example and on a
// live (embedded) API server seeded with it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { cli, ensureBuilt, example, NOW, ROOT, RUN_JS } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

const EX = example('orphaned-pods');
const explainPod = (target: string, extra: string[] = []) => cli(['explain', target, '-f', EX, '--now', NOW, ...extra]);
const flat = (s: string) => s.replace(/\s+/g, ' ');

/** The fields of ../shared/plan-format.md "One pod", with their types. */
function expectContract(doc: any): void {
  expect(doc).toMatchObject({ apiVersion: 'rs-reconcile/v1alpha1', kind: 'PodExplanation', now: NOW, kubernetesVersion: expect.any(String) });
  expect(['file', 'cluster']).toContain(doc.source);
  expect(Object.keys(doc.pod).sort()).toEqual(['name', 'namespace', 'node', 'phase', 'ready', 'uid']);
  expect(typeof doc.pod.ready).toBe('boolean');
  if (doc.owner !== null) {
    expect(doc.owner).toEqual({ kind: expect.any(String), name: expect.any(String), uid: expect.any(String), found: expect.any(Boolean) });
  }
  for (const c of doc.controllers) {
    expect(['ReplicaSet', 'ReplicationController']).toContain(c.kind);
    expect(c).toMatchObject({ namespace: expect.any(String), name: expect.any(String), reason: expect.any(String), message: expect.any(String) });
    expect(['keep', 'adopt', 'release', 'ignore']).toContain(c.decision);
    if (c.delete !== null) expect(c.delete).toEqual({ order: expect.any(Number), reason: expect.any(String), message: expect.any(String) });
  }
}

describe('explain pod/NAME on a snapshot', () => {
  it('an orphan of a --cascade=orphan delete: says why, with the evidence; nothing acts, exit 0', () => {
    const r = explainPod('pod/orders-worker-7c9d2-k4x8p');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Pod orders\/orders-worker-7c9d2-k4x8p\n/);
    expect(flat(r.stdout)).toContain('Its owner was likely deleted with --cascade=orphan');
    expect(flat(r.stdout)).toContain(
      'its generateName "orders-worker-7c9d2-" points to orders-worker-7c9d2, and no ReplicaSet or ReplicationController named orders-worker-7c9d2 is in the input',
    );
  });

  it('released and re-created owners are told apart', () => {
    expect(flat(explainPod('po/orders-api-q7w2e').stdout)).toContain('Its labels likely stopped matching ReplicaSet orders-api, which released it');
    const r = explainPod('pods/orders-cron-m2n4b');
    expect(r.status).toBe(0);
    expect(flat(r.stdout)).toContain('was re-created under a new uid');
    expect(flat(r.stdout)).toContain('ReplicaSet orders-cron: ignore (OwnedByOther)');
  });

  it('a pod its owner deletes: exit 0 (1 with --exit-code), its place and why no cost helps', () => {
    const r = explainPod('POD/orders-api-z8m3p');
    expect(r.status).toBe(0);
    expect(explainPod('POD/orders-api-z8m3p', ['--exit-code']).status).toBe(1);
    expect(flat(r.stdout)).toContain('it ranks 1st of 3 to go');
    expect(flat(r.stdout)).toMatch(/no cost helps: even at the highest cost \(2147483647\) it is picked, because orders-api-z8m3p is not ready/);
  });

  it('--replicas: the what-if order and the cost that keeps it', () => {
    const plainRun = explainPod('pod/orders-api-r2d9x');
    expect(plainRun.status).toBe(0);
    const r = explainPod('pod/orders-api-r2d9x', ['--replicas', '1']);
    expect(r.status).toBe(0);
    expect(explainPod('pod/orders-api-r2d9x', ['--replicas', '1', '--exit-code']).status).toBe(1);
    expect(flat(r.stdout)).toContain('With --replicas 1: 1 desired, 3 pods counted: it ranks 2nd of 3 to go');
    expect(flat(r.stdout)).toContain('a controller.kubernetes.io/pod-deletion-cost of 1 or more (now 0) keeps it');
  });

  it('-o json is a PodExplanation per the contract; -o yaml the same document', () => {
    for (const [name, status] of [
      ['orders-api-z8m3p', 1],
      ['orders-worker-7c9d2-k4x8p', 0],
      ['orders-cron-m2n4b', 0],
    ] as const) {
      const j = explainPod(`pod/${name}`, ['-o', 'json']);
      expect(j.status, name).toBe(0);
      expect(explainPod(`pod/${name}`, ['-o', 'json', '--exit-code']).status, name).toBe(status);
      const doc = JSON.parse(j.stdout);
      expectContract(doc);
      expect(doc.pod.name).toBe(name);
      expect(parse(explainPod(`pod/${name}`, ['-o', 'yaml']).stdout)).toEqual(doc);
    }
    const doc = JSON.parse(explainPod('pod/orders-api-z8m3p', ['-o', 'json']).stdout);
    expect(doc.owner).toMatchObject({ kind: 'ReplicaSet', name: 'orders-api', found: true });
    expect(doc.controllers).toEqual([
      expect.objectContaining({ name: 'orders-api', decision: 'keep', delete: expect.objectContaining({ order: 1, reason: 'NotReady' }) }),
    ]);
    expect(JSON.parse(explainPod('pod/orders-cron-m2n4b', ['-o', 'json']).stdout).owner).toMatchObject({ name: 'orders-cron', found: false });
  });

  it('a pod that is not there: one line as kubectl says it, exit 2', () => {
    const r = explainPod('pod/nope', ['-n', 'orders']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('error: pods "nope" not found in orders namespace');
    expect(explainPod('pod/orders-api-z8m3p', ['-n', 'other']).stderr.trim()).toBe('error: pods "orders-api-z8m3p" not found in other namespace');
  });

  it('explain takes no label selector: the NAME chooses (one line, exit 2)', () => {
    const r = explainPod('pod/orders-api-z8m3p', ['-l', 'app=x']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe("error: unknown shorthand flag: 'l' in -l");
  });
});

describe('explain pod/NAME on a live cluster', () => {
  let sb: Sandbox;
  let kubeconfig: string;
  beforeAll(async () => {
    const items = parseAllDocuments(readFileSync(EX, 'utf8')).flatMap((d) => (d.toJS() as any).items);
    sb = await startSandbox({ seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'orders' } }, ...items] });
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'rs-pod-')), 'kubeconfig');
    await sb.writeKubeconfig(kubeconfig, 'orders');
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

  it('reads the pods and controllers of the namespace and explains one', async () => {
    const r = await run(['explain', 'pod/orders-worker-7c9d2-k4x8p', '-o', 'json', '--now', NOW]);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expectContract(doc);
    expect(doc.source).toBe('cluster');
    expect(doc.orphan).toMatchObject({ reason: 'OwnerDeletedOrphaned' });
    expect(doc.orphan.evidence.join(' ')).toContain('named orders-worker-7c9d2 exists in namespace orders');
    const picked = await run(['explain', 'pod/orders-api-z8m3p', '--now', NOW, '--exit-code']);
    expect(picked.status).toBe(1);
    expect(flat(picked.stdout)).toContain('Owner: ReplicaSet orders-api');
    const missing = await run(['explain', 'pod/nope']);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe('error: pods "nope" not found in orders namespace');
  }, 60_000);
});
