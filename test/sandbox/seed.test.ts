// A sandbox keeps what it is given: every bundled example, alone or together, is still there
// after the garbage collector has run (an owner that was never in the sandbox is not "deleted"),
// while dependents of an owner deleted in the sandbox still go. Seeds are files and directories;
// an object the server would not store is skipped with one warning; seeded objects are creates
// in the audit log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runSandboxCli } from '../../src/sandbox/cli.js';
import { SEED_USER_AGENT } from '../../src/sandbox/index.js';
import { type Env, startEnv, waitFor } from './helpers.js';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const exampleFiles = fs
  .readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

/** The objects of an example file (Lists flattened). */
function objectsOf(file: string): any[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')).map((d) => d.toJS());
  return docs.flatMap((d) => (d && typeof d.kind === 'string' && d.kind.endsWith('List') ? d.items : d ? [d] : []));
}

/** The uids of every pod, ReplicaSet, ReplicationController and Deployment the API lists. */
async function servedUids(env: Env): Promise<Set<string>> {
  const lists = await Promise.all([
    env.core.listPodForAllNamespaces(),
    env.apps.listReplicaSetForAllNamespaces(),
    env.core.listReplicationControllerForAllNamespaces(),
    env.apps.listDeploymentForAllNamespaces(),
  ]);
  return new Set(lists.flatMap((l) => l.items.map((o) => o.metadata?.uid ?? '')));
}

const KINDS = new Set(['Pod', 'ReplicaSet', 'ReplicationController', 'Deployment']);

/** Seeds `files`, lets the garbage collector process everything, and checks every loaded object is still served. */
async function keepsEverything(files: string[]): Promise<Env> {
  const seed = files.flatMap(objectsOf);
  const env = await startEnv({ seed, nodes: 0 });
  env.sb.garbageCollector!.sync();
  const served = await servedUids(env);
  const skipped = new Set(env.sb.seed.skipped.map((s) => s.what));
  const expected = seed.filter((o) => KINDS.has(o.kind) && !skipped.has(`${o.kind} ${o.metadata.namespace}/${o.metadata.name}`));
  const missing = expected.filter((o) => !served.has(o.metadata.uid)).map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`);
  expect(missing, files.join(' + ')).toEqual([]);
  return env;
}

describe('--seed of the bundled examples', () => {
  it('has examples to seed', () => {
    expect(exampleFiles).toContain('deployment-rollout.yaml');
    expect(exampleFiles).toContain('scale-down-ranking.yaml');
  });

  it.each(exampleFiles)('%s alone: every object is kept after the garbage collector ran', async (file) => {
    const env = await keepsEverything([file]);
    await env.sb.close();
  });

  it('every pair of examples: every object is kept', async () => {
    for (let i = 0; i < exampleFiles.length; i++) {
      for (let j = i + 1; j < exampleFiles.length; j++) {
        const env = await keepsEverything([exampleFiles[i], exampleFiles[j]]);
        await env.sb.close();
      }
    }
  }, 120_000);

  it('deployment-rollout + scale-down-ranking: the ReplicaSets whose Deployment is not in the seed, and their pods, stay; the count is reported', async () => {
    const env = await keepsEverything(['deployment-rollout.yaml', 'scale-down-ranking.yaml']);
    try {
      // checkout-6b8d, checkout-9c2f and search-5f7c9 name a Deployment that is not there
      expect(env.sb.seed.withAbsentOwners).toBe(3);
      expect(env.sb.seed.skipped).toEqual([]);
      const rs = await env.apps.listNamespacedReplicaSet({ namespace: 'shop' });
      expect(rs.items.map((r) => r.metadata?.name).sort()).toEqual(['checkout-6b8d', 'checkout-9c2f']);
      expect((await env.core.listNamespacedPod({ namespace: 'search' })).items).toHaveLength(9);
    } finally {
      await env.sb.close();
    }
  });

  it('all of them at once: kept; and an owner deleted in the sandbox still takes its dependents with it', async () => {
    const env = await keepsEverything(exampleFiles);
    try {
      // the one example object a real API server refuses too
      expect(env.sb.seed.skipped.map((s) => s.what)).toEqual(['ReplicaSet web/broken']);
      expect(env.sb.seed.skipped[0].reason).toContain('spec.selector.matchExpressions[0].operator: Invalid value: "Equals"');
      await env.apps.deleteNamespacedReplicaSet({ name: 'shop-web', namespace: 'shop', propagationPolicy: 'Background' });
      env.sb.garbageCollector!.sync();
      // deleted gracefully (no kubelet here confirms it: they stay Terminating), the pod it did not own kept
      const left = (await env.core.listNamespacedPod({ namespace: 'shop' })).items.filter((p) => p.metadata?.name?.startsWith('shop-web'));
      expect(left.filter((p) => !p.metadata?.deletionTimestamp).map((p) => p.metadata?.name)).toEqual(['shop-web-manual']);
      expect(left.filter((p) => p.metadata?.deletionTimestamp)).toHaveLength(4);
      // the pods of orders-cron's missing owner are still there
      const orders = await env.core.listNamespacedPod({ namespace: 'orders' });
      expect(orders.items.map((p) => p.metadata?.name)).toContain('orders-cron-m2n4b');
    } finally {
      await env.sb.close();
    }
  });
});

describe('sandbox --seed (the command)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-seed-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes directories (recursively, *.yaml/*.yml/*.json) and files, several times; warns once per object it skips; audits the seed as creates', async () => {
    const seedDir = path.join(dir, 'seed');
    fs.mkdirSync(path.join(seedDir, 'nested'), { recursive: true });
    fs.writeFileSync(
      path.join(seedDir, 'a.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: extra}\nspec: {containers: [{name: c, image: i}]}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: extra}\n',
    );
    fs.writeFileSync(
      path.join(seedDir, 'nested', 'b.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', namespace: 'extra' }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
    );
    fs.writeFileSync(
      path.join(seedDir, 'nested', 'c.yml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: bad name, namespace: extra}\nspec: {containers: [{name: c, image: i}]}\n',
    );
    fs.writeFileSync(path.join(seedDir, 'notes.txt'), 'not a seed: ignored');
    const audit = path.join(dir, 'audit.log');
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (c) => (stdout += c));
    err.on('data', (c) => (stderr += c));
    const ac = new AbortController();
    const running = runSandboxCli({
      seedFiles: [seedDir, path.join(EXAMPLES, 'deployment-rollout.yaml')],
      kubeconfigPath: path.join(dir, 'kubeconfig'),
      auditLog: audit,
      nodes: 0,
      out,
      err,
      signal: ac.signal,
    });
    await waitFor(() => stderr.includes('Ctrl-C to stop.'), 'the ready line', 30_000);
    ac.abort();
    await running;
    const lines = stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('Warning: '))).toEqual([
      `Warning: skipped Service extra/svc (${path.join(seedDir, 'a.yaml')}): the sandbox does not serve v1/Service`,
      expect.stringMatching(
        new RegExp(
          `^Warning: skipped Pod extra/bad name \\(${path.join(seedDir, 'nested', 'c.yml')}\\): Pod "bad name" is invalid: metadata.name: Invalid value`,
        ),
      ),
    ]);
    expect(lines).toContain('2 seeded objects have owners not in the seed: kept (the garbage collector collects only dependents of owners deleted here)');
    expect(stdout).toMatch(/^export KUBECONFIG=/);

    const creates = fs
      .readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.verb === 'create' && e.userAgent === SEED_USER_AGENT);
    const pods = creates.filter((e) => e.objectRef.resource === 'pods');
    expect(pods.map((e) => e.objectRef.name).sort()).toEqual([
      'a',
      'b',
      'checkout-6b8d-aaa11',
      'checkout-6b8d-bbb22',
      'checkout-6b8d-ccc33',
      'checkout-6b8d-ddd44',
      'checkout-9c2f-eee55',
      'checkout-9c2f-fff66',
    ]);
    const rs = creates.find((e) => e.objectRef.name === 'checkout-6b8d')!;
    expect(rs).toMatchObject({
      level: 'RequestResponse',
      requestURI: '/apis/apps/v1/namespaces/shop/replicasets',
      responseStatus: { code: 201 },
      objectRef: { resource: 'replicasets', namespace: 'shop', name: 'checkout-6b8d', apiGroup: 'apps', apiVersion: 'v1' },
      requestObject: { kind: 'ReplicaSet', metadata: { name: 'checkout-6b8d', uid: '5a03fccf-03ff-4231-81ad-000000c65d88' } },
      responseObject: { kind: 'ReplicaSet', apiVersion: 'apps/v1', metadata: { name: 'checkout-6b8d', resourceVersion: expect.any(String) } },
    });
    expect(rs.requestObject.metadata.resourceVersion).toBeUndefined();
  });
});

describe('a seed directory with a symlink back up the tree', () => {
  it('is read once, without looping', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-seed-loop-'));
    try {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'sub', 'p.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n');
      fs.symlinkSync(dir, path.join(dir, 'sub', 'up'));
      const out = new PassThrough();
      const err = new PassThrough();
      let stderr = '';
      err.on('data', (c) => (stderr += c));
      const ac = new AbortController();
      const running = runSandboxCli({ seedFiles: [dir], kubeconfigPath: path.join(dir, 'kubeconfig'), nodes: 0, out, err, signal: ac.signal });
      await waitFor(() => stderr.includes('Ctrl-C to stop.'), 'the ready line', 30_000);
      ac.abort();
      await running;
      expect(stderr).not.toContain('Warning:'); // p.yaml once: no "already exists"
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
