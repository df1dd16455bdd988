import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/cluster/kubeconfig.js';
import { getServerVersion, parseServerVersion, readCluster, type ReadProgress } from '../../src/cluster/read.js';
import { headerValues, kubeconfigFileFor, recordedServers, tempDir, writeFile, writeKubeconfig } from './helpers.js';
import { TEST_TOKEN, fixture, tlsFile, type RecordedServer } from './recorded-server.js';

const serve = recordedServers();

/** The fixture's items in a namespace (or all), with kind/apiVersion as readCluster sets them. */
function expected(file: string, kind: string, apiVersion: string, namespace: string | null): Record<string, any>[] {
  return fixture(file)
    .items.filter((i: any) => namespace === null || i.metadata.namespace === namespace)
    .map((i: any) => ({ apiVersion, kind, ...i }));
}

const lists = (server: RecordedServer, resource: string) => server.requests.filter((r) => r.path.endsWith(`/${resource}`));

describe('readCluster: pagination', () => {
  it('reads every page of every kind in one namespace (limit + continue)', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { namespace: 'shop' }) }, {});
    const progress: ReadProgress[] = [];
    const read = await readCluster(conn, { namespace: conn.namespace }, { pageSize: 2, onProgress: (p) => progress.push(p) });

    expect(read.snapshot.controllers.ReplicaSet).toEqual(expected('replicasets.json', 'ReplicaSet', 'apps/v1', 'shop'));
    expect(read.snapshot.controllers.ReplicationController).toEqual(expected('replicationcontrollers.json', 'ReplicationController', 'v1', 'shop'));
    expect(read.snapshot.pods).toEqual(expected('pods.json', 'Pod', 'v1', 'shop'));
    expect(read.snapshot.controllers.ReplicaSet).toHaveLength(5);
    expect(read.snapshot.controllers.ReplicationController).toHaveLength(5);
    expect(read.snapshot.pods).toHaveLength(13);

    // 5 ReplicaSets → 3 pages, 5 RCs → 3 pages, 13 pods → 7 pages, plus /version
    expect(server.requests.map((r) => r.path)).toEqual([
      '/version',
      ...Array(3).fill('/apis/apps/v1/namespaces/shop/replicasets'),
      ...Array(3).fill('/api/v1/namespaces/shop/replicationcontrollers'),
      ...Array(7).fill('/api/v1/namespaces/shop/pods'),
    ]);
    expect(read.requests).toBe(server.requests.length);

    for (const resource of ['replicasets', 'replicationcontrollers', 'pods']) {
      const reqs = lists(server, resource);
      expect(reqs[0].query).toEqual({ limit: '2' });
      // each later page sends the token the previous answer carried
      for (let i = 1; i < reqs.length; i++) {
        expect(reqs[i].query.limit).toBe('2');
        const token = JSON.parse(Buffer.from(reqs[i].query.continue, 'base64url').toString());
        expect(token).toMatchObject({ v: 'meta.k8s.io/v1', rv: 41549 });
      }
    }

    expect(progress.filter((p) => p.resource === 'replicasets')).toEqual([
      { resource: 'replicasets', items: 2, pages: 1 },
      { resource: 'replicasets', items: 4, pages: 2 },
      { resource: 'replicasets', items: 5, pages: 3 },
    ]);
    expect(progress.filter((p) => p.resource === 'pods').map((p) => p.items)).toEqual([2, 4, 6, 8, 10, 12, 13]);
    expect(progress).toHaveLength(13);
  });

  it('reads all namespaces through the cluster-wide paths', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: null }, { pageSize: 3 });
    expect(read.snapshot.controllers.ReplicaSet).toEqual(expected('replicasets.json', 'ReplicaSet', 'apps/v1', null));
    expect(read.snapshot.controllers.ReplicationController).toEqual(expected('replicationcontrollers.json', 'ReplicationController', 'v1', null));
    expect(read.snapshot.pods).toEqual(expected('pods.json', 'Pod', 'v1', null));
    expect(new Set(server.requests.map((r) => r.path))).toEqual(
      new Set(['/version', '/apis/apps/v1/replicasets', '/api/v1/replicationcontrollers', '/api/v1/pods']),
    );
    expect(lists(server, 'replicasets')).toHaveLength(3); // 7 items
    expect(lists(server, 'replicationcontrollers')).toHaveLength(2); // 6 items
    expect(lists(server, 'pods')).toHaveLength(7); // 19 items
  });

  it("uses kubectl's page size by default, and none with pageSize 0", async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    await readCluster(conn, { namespace: 'shop' });
    expect(server.requests.slice(1).map((r) => r.query)).toEqual([{ limit: '500' }, { limit: '500' }, { limit: '500' }]);
    server.requests.length = 0;
    const read = await readCluster(conn, { namespace: 'shop' }, { pageSize: 0 });
    expect(server.requests.slice(1).map((r) => r.query)).toEqual([{}, {}, {}]);
    expect(read.snapshot.pods).toHaveLength(13);
  });

  it("falls back to one full list when a continue token expires (410), as client-go's pager", async () => {
    const server = await serve({ expireContinue: true });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: 'shop', kinds: ['ReplicaSet'] }, { pageSize: 2 });
    expect(read.snapshot.controllers.ReplicaSet).toEqual(expected('replicasets.json', 'ReplicaSet', 'apps/v1', 'shop'));
    const rs = lists(server, 'replicasets').map((r) => Object.keys(r.query).sort().join(','));
    expect(rs).toEqual(['limit', 'continue,limit', '']);
  });

  it('retries when the server says Retry-After (429), counting every request', async () => {
    const server = await serve({
      failures: [{ match: (r) => r.path.endsWith('/pods'), status: 429, fixture: 'status-429.json', headers: { 'Retry-After': '1' }, times: 1 }],
    });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const started = Date.now();
    const read = await readCluster(conn, { namespace: 'shop' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(read.snapshot.pods).toHaveLength(13);
    expect(lists(server, 'pods')).toHaveLength(2);
    expect(read.requests).toBe(server.requests.length);
  });

  it('reads gzip-compressed responses', async () => {
    const server = await serve({ gzipThreshold: 0 });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: null });
    expect(server.requests[1].headers['accept-encoding']).toContain('gzip');
    expect(read.snapshot.pods).toEqual(expected('pods.json', 'Pod', 'v1', null));
  });
});

describe('readCluster: what it asks for', () => {
  it('applies -l to the controller lists only, never to pods', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: 'shop', controllerSelector: 'app=web' }, { pageSize: 1 });
    expect(read.snapshot.controllers.ReplicaSet.map((r) => r.metadata.name)).toEqual(['web-5b8c9d7f6a', 'web-7d9f8b6c5d']);
    expect(read.snapshot.controllers.ReplicationController).toEqual([]);
    expect(read.snapshot.pods).toHaveLength(13);
    for (const r of [...lists(server, 'replicasets'), ...lists(server, 'replicationcontrollers')]) {
      expect(r.query.labelSelector).toBe('app=web');
    }
    for (const r of lists(server, 'pods')) expect(r.query.labelSelector).toBeUndefined();
    expect(lists(server, 'replicasets')).toHaveLength(2);
  });

  it('set-based selectors go to the server as written', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: null, controllerSelector: 'tier in (frontend),app!=web' });
    expect(read.snapshot.controllers.ReplicaSet.map((r) => r.metadata.name)).toEqual(['checkout-6b5d4c8f7e']);
    expect(lists(server, 'replicasets')[0].query.labelSelector).toBe('tier in (frontend),app!=web');
  });

  it('reads only the kinds asked for', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: 'shop', kinds: ['ReplicationController'] });
    expect(read.snapshot.controllers.ReplicaSet).toEqual([]);
    expect(read.snapshot.controllers.ReplicationController).toHaveLength(5);
    expect(lists(server, 'replicasets')).toHaveLength(0);
  });

  it('sends only GETs, with the bearer token', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    await readCluster(conn, { namespace: null }, { pageSize: 4 });
    expect(server.requests.length).toBeGreaterThan(4);
    for (const r of server.requests) {
      expect(r.method).toBe('GET');
      expect(r.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
      expect(r.headers['impersonate-user']).toBeUndefined();
    }
  });

  it('impersonates on every request: one Impersonate-Group line per group', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server), as: 'jane', asGroups: ['developers', 'system:authenticated'] }, {});
    await readCluster(conn, { namespace: 'shop' }, { pageSize: 5 });
    expect(server.requests.length).toBe(1 + 1 + 1 + 3);
    for (const r of server.requests) {
      expect(headerValues(r.rawHeaders, 'Impersonate-User')).toEqual(['jane']);
      expect(headerValues(r.rawHeaders, 'Impersonate-Group')).toEqual(['developers', 'system:authenticated']);
    }
  });

  it('keeps the wire shape: RFC3339 strings, nulls, and fields client-node has no model for', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: 'shop' });
    const pod = read.snapshot.pods.find((p) => p.metadata.name === 'web-7d9f8b6c5d-x2k4p')!;
    expect(pod.kind).toBe('Pod');
    expect(pod.apiVersion).toBe('v1');
    expect(pod.metadata.creationTimestamp).toBe('2025-12-01T00:01:00Z');
    expect(pod.status?.conditions?.[0]).toEqual({
      type: 'PodReadyToStartContainers',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2025-12-01T00:02:00Z',
    });
    expect((pod.status as any).containerStatuses[0].state.running.startedAt).toBe('2025-12-01T00:02:00Z');
    expect((pod.metadata as any).managedFields[0].time).toBe('2025-12-01T00:01:00Z');
    expect(pod.spec?.initContainers?.[0].restartPolicy).toBe('Always');
    const rs = read.snapshot.controllers.ReplicaSet.find((r) => r.metadata.name === 'web-7d9f8b6c5d')!;
    expect(rs.spec.template?.metadata?.creationTimestamp).toBeNull();
    expect(JSON.stringify(read.snapshot)).not.toMatch(/\.000Z/);
    const deleting = read.snapshot.pods.find((p) => p.metadata.deletionTimestamp)!;
    expect(typeof deleting.metadata.deletionTimestamp).toBe('string');
  });

  it('can be cancelled with an AbortSignal (not reported as a cluster error)', async () => {
    const server = await serve({ hang: true });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const controller = new AbortController();
    const pending = readCluster(conn, { namespace: 'shop' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('readCluster: other ways to reach the server', () => {
  it('plain http (kubectl allows it, and sends no credentials over it)', async () => {
    const server = await serve({ tls: false, token: null });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { caData: null }) }, {});
    const read = await readCluster(conn, { namespace: 'payments' });
    expect(read.snapshot.pods).toHaveLength(4);
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('in-cluster: service account token (trailing newline trimmed) and CA', async () => {
    const server = await serve();
    const sa = tempDir();
    writeFile(sa, 'token', `${TEST_TOKEN}\n`);
    writeFile(sa, 'namespace', 'payments');
    writeFile(sa, 'ca.crt', fs.readFileSync(tlsFile('ca.crt'), 'utf8'));
    const conn = connect({}, { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(server.port) }, { serviceAccountDir: sa });
    const read = await readCluster(conn, { namespace: conn.namespace });
    expect(read.snapshot.controllers.ReplicaSet.map((r) => r.metadata.name)).toEqual(['checkout-6b5d4c8f7e']);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
  });

  it('a kubeconfig token-file, relative to the kubeconfig', async () => {
    const server = await serve();
    const dir = tempDir();
    writeFile(dir, 'secrets/token', `${TEST_TOKEN}\n`);
    const file = writeKubeconfig(dir, 'config', {
      clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority': tlsFile('ca.crt') } }],
      users: [{ name: 'u', user: { 'token-file': 'secrets/token' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    const read = await readCluster(connect({ kubeconfig: file }, {}), { namespace: 'kube-system' });
    expect(read.snapshot.pods).toHaveLength(2);
  });
});

describe('server version', () => {
  it('GET /version', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    expect(await getServerVersion(conn)).toEqual({ major: '1', minor: '32', gitVersion: 'v1.32.2' });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /version']);
    const read = await readCluster(conn, { namespace: 'shop' });
    expect(read.serverVersion).toEqual({ major: '1', minor: '32', gitVersion: 'v1.32.2' });
  });

  it('normalises a minor like "32+"', async () => {
    const server = await serve({ versionFixture: 'version-eks.json' });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    expect(await getServerVersion(conn)).toEqual({ major: '1', minor: '32', gitVersion: 'v1.32.3-eks-4096722' });
  });

  it('falls back to gitVersion when major/minor are empty', () => {
    expect(parseServerVersion({ major: '', minor: '', gitVersion: 'v1.31.4+k3s1' })).toEqual({ major: '1', minor: '31', gitVersion: 'v1.31.4+k3s1' });
  });
});

describe('anonymous access', () => {
  it("a context without a user still trusts the cluster's CA file", async () => {
    const server = await serve({ token: null });
    const file = writeKubeconfig(tempDir(), 'config', {
      clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority': tlsFile('ca.crt') } }],
      contexts: [{ name: 'x', context: { cluster: 'c', namespace: 'payments' } }],
      'current-context': 'x',
    });
    const conn = connect({ kubeconfig: file }, {});
    const read = await readCluster(conn, { namespace: conn.namespace });
    expect(read.snapshot.pods).toHaveLength(4);
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

describe('options', () => {
  it('rejects a negative or fractional page size before any request', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    await expect(readCluster(conn, { namespace: 'shop' }, { pageSize: -1 })).rejects.toThrow(/^invalid page size -1/);
    await expect(readCluster(conn, { namespace: 'shop' }, { pageSize: 2.5 })).rejects.toThrow(/^invalid page size 2\.5/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('readCluster: deployments', () => {
  it('a 403 on deployments.apps leaves them unknown (null) and the ReplicaSet plan as read', async () => {
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps is forbidden: User "ci" cannot list resource "deployments" in API group "apps" in the namespace "shop"',
      reason: 'Forbidden',
      details: { group: 'apps', kind: 'deployments' },
      code: 403,
    });
    const server = await serve({
      failures: [{ match: (r) => r.path.endsWith('/deployments'), status: 403, body, headers: { 'Content-Type': 'application/json' } }],
    });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { namespace: 'shop' }) }, {});
    const read = await readCluster(conn, { namespace: 'shop', deployments: true });
    expect(read.snapshot.deployments).toBeNull();
    expect(read.snapshot.controllers.ReplicaSet).toHaveLength(5);
    expect(read.snapshot.pods).toHaveLength(13);
    expect(lists(server, 'deployments')).toHaveLength(1);
  });
  it('not asked for: not listed', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { namespace: 'shop' }) }, {});
    const read = await readCluster(conn, { namespace: 'shop' });
    expect(read.snapshot).not.toHaveProperty('deployments');
    expect(lists(server, 'deployments')).toHaveLength(0);
  });
});

describe('readCluster: deployments not served', () => {
  it('a 404 on deployments.apps (a server without them): none, no error', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { namespace: 'shop' }) }, {});
    const read = await readCluster(conn, { namespace: 'shop', deployments: true });
    expect(lists(server, 'deployments')).toHaveLength(1);
    expect(read.snapshot.deployments).toBeUndefined();
    expect(read.snapshot.pods).toHaveLength(13);
  });
});
