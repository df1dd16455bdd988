// runSandboxCli (what `rs-reconcile sandbox` runs) and seeding.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runSandboxCli } from '../../src/sandbox/cli.js';
import { UserError } from '../../src/errors.js';
import { startEnv, waitFor } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbx-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SEED = `apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, namespace: shop, uid: 11111111-2222-3333-4444-555555555555}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
status: {replicas: 1, readyReplicas: 1, availableReplicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-abcde
  namespace: shop
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: 11111111-2222-3333-4444-555555555555, controller: true}]
spec: {nodeName: node-0, containers: [{name: c, image: nginx}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-01-01T00:00:00Z"}]
`;

describe('runSandboxCli', () => {
  it('starts, writes the kubeconfig, prints the export line, serves the seed, and stops on abort', async () => {
    const seedFile = join(dir, 'seed.yaml');
    await writeFile(seedFile, SEED);
    const kubeconfigPath = join(dir, 'sbx.kubeconfig');
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (c) => (stdout += c));
    err.on('data', (c) => (stderr += c));
    const ac = new AbortController();
    const running = runSandboxCli({ seedFiles: [seedFile], kubeconfigPath, nodes: 0, out, err, signal: ac.signal });
    await waitFor(() => stdout.includes('\n'), 'the export line');
    expect(stdout).toBe(`export KUBECONFIG=${kubeconfigPath}\n`);
    expect(isAbsolute(kubeconfigPath)).toBe(true);
    expect(stderr).toMatch(/^sandbox API server on https:\/\/127\.0\.0\.1:\d+ .*Ctrl-C to stop\.\n$/);

    const kc = new KubeConfig();
    kc.loadFromString(await readFile(kubeconfigPath, 'utf8'));
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('default');
    const core = kc.makeApiClient(CoreV1Api);
    const pods = await core.listNamespacedPod({ namespace: 'shop' });
    expect(pods.items.map((p) => [p.metadata?.name, p.status?.phase])).toEqual([['web-abcde', 'Running']]);
    const rs = await kc.makeApiClient(AppsV1Api).readNamespacedReplicaSet({ name: 'web', namespace: 'shop' });
    expect(rs.metadata?.uid).toBe('11111111-2222-3333-4444-555555555555');
    expect(rs.status?.readyReplicas).toBe(1);

    ac.abort();
    await running;
    await expect(core.listNamespacedPod({ namespace: 'shop' })).rejects.toThrow();
    // nothing is left pointing at the dead port
    await expect(readFile(kubeconfigPath, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(stderr.split('\n').at(-2)).toBe(`sandbox stopped: removed ${kubeconfigPath}, whose server ${kc.getCurrentCluster()?.server} no longer answers`);
  });

  /** Runs the sandbox until `whileRunning` is done, then stops it; its stderr. */
  async function runWhile(kubeconfigPath: string, whileRunning: (written: string) => Promise<void>): Promise<string> {
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (c) => (stdout += c));
    err.on('data', (c) => (stderr += c));
    const ac = new AbortController();
    const running = runSandboxCli({ kubeconfigPath, nodes: 0, out, err, signal: ac.signal });
    await waitFor(() => stdout.includes('\n'), 'the export line');
    await whileRunning(await readFile(kubeconfigPath, 'utf8'));
    ac.abort();
    await running;
    return stderr;
  }

  it("a kubeconfig changed since it was written loses only the sandbox's cluster, user and context", async () => {
    const path = join(dir, 'merged.kubeconfig');
    const stderr = await runWhile(path, async (written) => {
      const doc = parseYaml(written);
      doc.clusters.push({ name: 'prod', cluster: { server: 'https://prod.example:6443' } });
      doc.users.push({ name: 'me', user: { token: 'mine' } });
      doc.contexts.push({ name: 'prod', context: { cluster: 'prod', user: 'me' } });
      await writeFile(path, stringifyYaml(doc));
    });
    const left = parseYaml(await readFile(path, 'utf8'));
    // The file the sandbox made had no current-context before: it has none again.
    expect(left).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'prod', cluster: { server: 'https://prod.example:6443' } }],
      users: [{ name: 'me', user: { token: 'mine' } }],
      contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'me' } }],
    });
    expect(stderr.split('\n').at(-2)).toBe(`sandbox stopped: removed its cluster, user and context rs-reconcile-sandbox from ${path} (the rest is kept)`);
  });

  it('a kubeconfig replaced by another one without the sandbox in it is left alone', async () => {
    const path = join(dir, 'replaced.kubeconfig');
    const other = 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://elsewhere:6443"}}]\n';
    const stderr = await runWhile(path, () => writeFile(path, other));
    expect(await readFile(path, 'utf8')).toBe(other);
    expect(stderr).not.toContain('sandbox stopped');
  });

  it('reports an unreadable seed file as a UserError', async () => {
    const ac = new AbortController();
    await expect(
      runSandboxCli({ seedFiles: [join(dir, 'missing.yaml')], out: new PassThrough(), err: new PassThrough(), signal: ac.signal }),
    ).rejects.toBeInstanceOf(UserError);
  });
});

describe('startSandbox seeding and kubeconfig', () => {
  it('accepts v1 Lists, keeps given status, creates missing namespaces, numbers resourceVersions', async () => {
    const env = await startEnv({
      seed: [
        {
          apiVersion: 'v1',
          kind: 'List',
          items: [
            {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: 'a', namespace: 'n1' },
              spec: { containers: [{ name: 'c', image: 'i' }] },
              status: { phase: 'Succeeded' },
            },
            { apiVersion: 'v1', kind: 'Node', metadata: { name: 'seed-node' } },
          ],
        },
      ],
    });
    try {
      const p = await env.core.readNamespacedPod({ name: 'a', namespace: 'n1' });
      expect(p.status?.phase).toBe('Succeeded');
      expect(Number(p.metadata?.resourceVersion)).toBeGreaterThan(0);
      expect((await env.core.readNamespace({ name: 'n1' })).status?.phase).toBe('Active');
      expect((await env.core.readNode({ name: 'seed-node' })).metadata?.uid).toBeTruthy();
      const kc = new KubeConfig();
      kc.loadFromString(env.sb.kubeconfig('ctx-x', 'n1'));
      expect(kc.getCurrentContext()).toBe('ctx-x');
      expect(kc.getContextObject('ctx-x')?.namespace).toBe('n1');
      expect(kc.getCurrentCluster()?.server).toBe(env.sb.url);
    } finally {
      await env.sb.close();
    }
    const other = await startEnv({ seed: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }] });
    await other.sb.close();
    expect(other.sb.seed).toEqual({
      loaded: 0,
      skipped: [{ from: 0, what: 'Service s', reason: 'the sandbox does not serve v1/Service' }],
      withAbsentOwners: 0,
    });
  });
});
