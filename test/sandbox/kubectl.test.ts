// The installed kubectl (v1.32) against the sandbox: each command's exit code, its output, and
// the stored object afterwards.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { podBody, startEnv, waitFor, type Env } from './helpers.js';

let env: Env;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  env = await startEnv();
  dir = await mkdtemp(join(tmpdir(), 'sbx-kubectl-'));
  kubeconfig = join(dir, 'kubeconfig');
  await env.sb.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await env.sb.close();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const MANIFEST = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
---
apiVersion: v1
kind: Pod
metadata:
  name: p1
  labels: {app: web, tier: fe}
spec:
  containers:
  - name: c
    image: busybox:1.36
`;

describe('kubectl against the sandbox', () => {
  it('get on an empty namespace, then create -f (with server-side field validation)', async () => {
    const empty = await kubectl('get', 'pods');
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('No resources found in default namespace.');

    const file = join(dir, 'manifest.yaml');
    await writeFile(file, MANIFEST);
    env.sb.clearAudit();
    const r = await kubectl('create', '-f', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('replicaset.apps/web created\npod/p1 created\n');
    const creates = env.sb.audit().filter((e) => e.verb === 'create');
    expect(creates.map((e) => e.resource)).toEqual(['replicasets', 'pods']);
    const rs = await env.apps.readNamespacedReplicaSet({ name: 'web', namespace: 'default' });
    expect(rs.spec?.replicas).toBe(2);
    expect(rs.spec?.template?.spec?.containers[0].image).toBe('nginx:1.27');

    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'apiVersion: v1\nkind: Pod\nmetadata: {name: p9}\nspec:\n  containers:\n  - {name: c, image: i, bogus: 1}\n');
    const b = await kubectl('create', '-f', bad);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('Error from server (BadRequest)');
    expect(b.stderr).toContain('Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].bogus"');
    expect((await env.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=p9' })).items).toEqual([]);
  });

  it('get prints the server-side table, -l filters, -A adds the namespace, -o yaml is the stored object', async () => {
    const r = await kubectl('get', 'pods');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines[1]).toMatch(/^p1\s+0\/1\s+Pending\s+0\s+\d+s$/);

    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('other', { app: 'other' }) });
    const sel = await kubectl('get', 'pods', '-l', 'app in (web),tier!=be', '-o', 'name');
    expect(sel.stdout).toBe('pod/p1\n');
    const all = await kubectl('get', 'pods', '-A', '--no-headers');
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
    ).toEqual(['default other', 'default p1']);

    const rs = await kubectl('get', 'rs', 'web');
    expect(rs.stdout).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nweb\s+2\s+0\s+0\s+\d+s\n$/);

    const y = await kubectl('get', 'pod', 'p1', '-o', 'yaml');
    expect(y.code).toBe(0);
    const doc = parseYaml(y.stdout);
    const stored = await env.core.readNamespacedPod({ name: 'p1', namespace: 'default' });
    expect(doc).toMatchObject({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p1', uid: stored.metadata?.uid, resourceVersion: stored.metadata?.resourceVersion },
    });
    expect(doc.spec.containers[0].image).toBe('busybox:1.36');

    const nf = await kubectl('get', 'pod', 'nope');
    expect(nf.code).toBe(1);
    expect(nf.stderr.trim()).toBe('Error from server (NotFound): pods "nope" not found');
  });

  it('label and annotate', async () => {
    const l = await kubectl('label', 'pod', 'p1', 'env=prod');
    expect(l.code).toBe(0);
    expect(l.stdout).toBe('pod/p1 labeled\n');
    const a = await kubectl('annotate', 'pod', 'p1', 'note=hello world');
    expect(a.code).toBe(0);
    expect(a.stdout).toBe('pod/p1 annotated\n');
    const p = await env.core.readNamespacedPod({ name: 'p1', namespace: 'default' });
    expect(p.metadata?.labels).toEqual({ app: 'web', tier: 'fe', env: 'prod' });
    expect(p.metadata?.annotations).toEqual({ note: 'hello world' });
    const un = await kubectl('label', 'pod', 'p1', 'env-');
    expect(un.code).toBe(0);
    expect((await env.core.readNamespacedPod({ name: 'p1', namespace: 'default' })).metadata?.labels?.env).toBeUndefined();
    const clash = await kubectl('label', 'pod', 'p1', 'tier=be');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain("'tier' already has a value (fe), and --overwrite is false");
  });

  it('scale rs goes through the scale subresource', async () => {
    env.sb.clearAudit();
    const r = await kubectl('scale', 'rs', 'web', '--replicas=5');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('replicaset.apps/web scaled\n');
    const rs = await env.apps.readNamespacedReplicaSet({ name: 'web', namespace: 'default' });
    expect(rs.spec?.replicas).toBe(5);
    expect(rs.metadata?.generation).toBe(2);
    expect(
      env.sb
        .audit()
        .filter((e) => e.verb === 'patch')
        .map((e) => `${e.resource}/${e.subresource}`),
    ).toEqual(['replicasets/scale']);
  });

  it('patch --type json, merge and strategic', async () => {
    const j = await kubectl('patch', 'pod', 'p1', '--type', 'json', '-p', '[{"op":"add","path":"/metadata/labels/j","value":"1"}]');
    expect(j.code).toBe(0);
    expect(j.stdout).toBe('pod/p1 patched\n');
    const m = await kubectl('patch', 'pod', 'p1', '--type', 'merge', '-p', '{"metadata":{"labels":{"m":"2"}}}');
    expect(m.stdout).toBe('pod/p1 patched\n');
    const s = await kubectl(
      'patch',
      'rs',
      'web',
      '--type',
      'strategic',
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}',
    );
    expect(s.code).toBe(0);
    expect(s.stdout).toBe('replicaset.apps/web patched\n');
    const p = await env.core.readNamespacedPod({ name: 'p1', namespace: 'default' });
    expect(p.metadata?.labels).toMatchObject({ j: '1', m: '2' });
    const rs = await env.apps.readNamespacedReplicaSet({ name: 'web', namespace: 'default' });
    expect(rs.spec?.template?.spec?.containers.map((c) => [c.name, c.image])).toEqual([['nginx', 'nginx:1.28']]);
    const noop = await kubectl('patch', 'pod', 'p1', '--type', 'merge', '-p', '{"metadata":{"labels":{"m":"2"}}}');
    expect(noop.stdout).toBe('pod/p1 patched (no change)\n');
    const bad = await kubectl('patch', 'pod', 'p1', '--type', 'json', '-p', '[{"op":"test","path":"/metadata/labels/m","value":"3"}]');
    expect(bad.code).toBe(1);
    // the apiserver keeps only the generic 422 text of a JSON patch that does not apply
    expect(bad.stderr).toBe('The request is invalid: the server rejected our request due to an error in our request\n');
  });

  it('get events', async () => {
    await env.core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'web.17a' },
        involvedObject: { kind: 'ReplicaSet', name: 'web', namespace: 'default', apiVersion: 'apps/v1' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: web-x2x4b',
        type: 'Normal',
        source: { component: 'replicaset-controller' },
        firstTimestamp: new Date(Date.now() - 90_000),
        lastTimestamp: new Date(Date.now() - 90_000),
        count: 1,
      },
    });
    const r = await kubectl('get', 'events');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(lines[1]).toMatch(/^9\ds\s+Normal\s+SuccessfulCreate\s+replicaset\/web\s+Created pod: web-x2x4b$/);
  });

  it('get pods -w prints the list, then the changes it watches', async () => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), 'get', 'pods', '-w', '-l', 'app=web'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      await waitFor(() => out.includes('p1'), 'the initial list', 10_000);
      await env.core.createNamespacedPod({ namespace: 'default', body: podBody('watched', { app: 'web' }) });
      await waitFor(() => out.includes('watched'), 'the ADDED pod', 10_000);
      const lines = out.trim().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
      expect(lines[1]).toMatch(/^p1\s+0\/1\s+Pending\s+0\s+\d+s$/);
      expect(lines[2]).toMatch(/^watched\s+0\/1\s+Pending\s+0\s+\d+s$/);
      const watches = env.sb.audit().filter((e) => e.verb === 'watch' && e.resource === 'pods');
      expect(watches.length).toBeGreaterThanOrEqual(1);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('delete waits for the object to go; deleting a ReplicaSet cascades', async () => {
    const r = await kubectl('delete', 'pod', 'watched');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('pod "watched" deleted\n');
    expect((await env.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=watched' })).items).toEqual([]);

    const rs = await env.apps.readNamespacedReplicaSet({ name: 'web', namespace: 'default' });
    await env.core.createNamespacedPod({
      namespace: 'default',
      body: podBody(
        'web-owned',
        { app: 'web' },
        { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata!.uid!, controller: true, blockOwnerDeletion: true }] },
      ),
    });
    const d = await kubectl('delete', 'rs', 'web');
    expect(d.code).toBe(0);
    expect(d.stdout).toBe('replicaset.apps "web" deleted\n');
    await waitFor(
      async () => (await env.core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=web-owned' })).items.length === 0,
      'the dependent to go',
    );
    const nf = await kubectl('delete', 'pod', 'nope');
    expect(nf.code).toBe(1);
    expect(nf.stderr.trim()).toBe('Error from server (NotFound): pods "nope" not found');
  });
});
