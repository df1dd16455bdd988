import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { ClusterError, clusterError, parseStatus } from '../../src/cluster/errors.js';
import { connect } from '../../src/cluster/kubeconfig.js';
import { getServerVersion, readCluster } from '../../src/cluster/read.js';
import { kubeconfigFileFor, recordedServers, tempDir, writeKubeconfig } from './helpers.js';
import { closedPort, fixture, tlsFile } from './recorded-server.js';

const serve = recordedServers();

/** Runs readCluster and returns the error it fails with, checking it is one line with exit code 2. */
async function failure(promise: Promise<unknown>): Promise<ClusterError> {
  const err = await promise.then(
    () => {
      throw new Error('expected the read to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClusterError);
  expect(err).toBeInstanceOf(UserError);
  expect((err as UserError).exitCode).toBe(2);
  expect((err as Error).message).not.toContain('\n');
  return err as ClusterError;
}

const onPods = (r: { path: string }) => r.path.endsWith('/pods');

describe('HTTP status → one line', () => {
  it('401: the credentials of the context were rejected', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { token: 'expired-token', context: 'prod-admin' }) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe('unauthorized: the server rejected the credentials of context "prod-admin"');
    expect(err.reason).toBe('unauthorized');
    expect(server.requests).toHaveLength(1); // /version already says it all: no list is tried
  });

  it("403 with the server's Status: its words, naming verb and resource", async () => {
    const server = await serve({ failures: [{ match: onPods, status: 403, fixture: 'status-403-pods-shop.json' }] });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server), as: 'jane' }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe('forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "shop"');
    expect(err.status).toBe(403);
  });

  it('403 cluster-wide on replicasets.apps', async () => {
    const server = await serve({
      failures: [{ match: (r) => r.path === '/apis/apps/v1/replicasets', status: 403, fixture: 'status-403-replicasets-cluster.json' }],
    });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: null }));
    expect(err.message).toBe('forbidden: User "system:serviceaccount:shop:viewer" cannot list resource "replicasets" in API group "apps" at the cluster scope');
  });

  it('403 without a body: the message is built the kubectl way', async () => {
    const server = await serve({
      failures: [{ match: (r) => r.path.endsWith('/replicationcontrollers'), status: 403, body: '' }],
    });
    const as = connect({ kubeconfig: kubeconfigFileFor(server), as: 'jane' }, {});
    expect((await failure(readCluster(as, { namespace: 'shop' }))).message).toBe(
      'forbidden: User "jane" cannot list resource "replicationcontrollers" in API group "" in the namespace "shop"',
    );
    const plain = connect({ kubeconfig: kubeconfigFileFor(server, { context: 'ci' }) }, {});
    expect((await failure(readCluster(plain, { namespace: null }))).message).toBe(
      'forbidden: the credentials of context "ci" cannot list resource "replicationcontrollers" in API group "" at the cluster scope',
    );
  });

  it('403 on /version alone does not stop the read', async () => {
    const server = await serve({ failures: [{ match: (r) => r.path === '/version', status: 403, body: '' }] });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const read = await readCluster(conn, { namespace: 'shop' });
    expect(read.serverVersion).toBeNull();
    expect(read.snapshot.pods).toHaveLength(13);
    const err = await failure(getServerVersion(conn));
    expect(err.message).toBe('forbidden: the credentials of context "kind-test" cannot get path "/version"');
  });

  it('404 for a resource type the server does not serve', async () => {
    const server = await serve({
      failures: [{ match: (r) => r.path.endsWith('/replicationcontrollers'), status: 404, fixture: 'status-404.json' }],
    });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe('not found: the server could not find the requested resource (list replicationcontrollers)');
    expect(err.reason).toBe('not-found');
  });

  it('500 with the Status reason and message', async () => {
    const server = await serve({ failures: [{ match: onPods, status: 500, fixture: 'status-500.json' }] });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe(`server error (500 InternalError) from ${server.url} (list pods): etcdserver: request timed out`);
    expect(err.reason).toBe('server-error');
  });

  it('503 with a plain-text body (a proxy in front of the server)', async () => {
    const server = await serve({ failures: [{ match: onPods, status: 503, body: 'upstream connect error or disconnect/reset before headers\n' }] });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe(`server error (503) from ${server.url} (list pods): upstream connect error or disconnect/reset before headers`);
  });

  it('a 429 that keeps coming back is reported after the retries', async () => {
    const server = await serve({ failures: [{ match: onPods, status: 429, fixture: 'status-429.json' }] });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe('too many requests: Too many requests, please try again later. (list pods)');
    expect(server.requests.filter(onPods)).toHaveLength(1); // no Retry-After: no retry
  });

  it('400 for a selector the server cannot parse', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop', controllerSelector: 'app==' + '=' }));
    expect(err.message).toMatch(/^bad request: unable to parse requirement: .* \(list replicasets\.apps\)$/);
  });

  it('parses a raw Status body, and only a Status', () => {
    expect(parseStatus(JSON.stringify(fixture('status-404.json')))).toEqual({
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      code: 404,
    });
    expect(parseStatus('<html>bad gateway</html>')).toBeNull();
    expect(parseStatus(undefined)).toBeNull();
  });
});

describe('no answer → one line', () => {
  it('unreachable: connection refused', async () => {
    const port = await closedPort();
    const dir = tempDir();
    const file = writeKubeconfig(dir, 'config', {
      clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    const err = await failure(readCluster(connect({ kubeconfig: file }, {}), { namespace: 'shop' }));
    expect(err.message).toBe(`cannot reach the cluster at https://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(err.reason).toBe('unreachable');
  });

  it('unreachable: a host name that does not resolve', async () => {
    const file = writeKubeconfig(tempDir(), 'config', {
      clusters: [{ name: 'c', cluster: { server: 'https://api.does-not-exist.invalid:6443' } }],
      contexts: [{ name: 'x', context: { cluster: 'c' } }],
      'current-context': 'x',
    });
    const err = await failure(readCluster(connect({ kubeconfig: file }, {}), { namespace: 'shop' }));
    expect(err.message).toMatch(
      /^cannot reach the cluster at https:\/\/api\.does-not-exist\.invalid:6443: getaddrinfo (ENOTFOUND|EAI_AGAIN) api\.does-not-exist\.invalid$/,
    );
  });

  it('TLS: a server certificate from an authority the kubeconfig does not trust', async () => {
    const server = await serve();
    const other = fs.readFileSync(tlsFile('other-ca.crt')).toString('base64');
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { caData: other }) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe(`TLS error talking to ${server.url}: tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    expect(err.reason).toBe('tls');
    expect(server.requests).toHaveLength(0);
  });

  it('TLS: no certificate authority at all', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server, { caData: null }) }, {});
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    expect(err.message).toBe(`TLS error talking to ${server.url}: tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  });

  it('--request-timeout against a server that never answers', async () => {
    const server = await serve({ hang: true });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server), requestTimeout: '200ms' }, {});
    const started = Date.now();
    const err = await failure(readCluster(conn, { namespace: 'shop' }));
    const elapsed = Date.now() - started;
    expect(err.message).toBe(`timed out after 200ms waiting for the cluster at ${server.url} (--request-timeout=200ms)`);
    expect(err.reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
    expect(server.requests.map((r) => r.path)).toEqual(['/version']);
  });

  it('a missing CA file: refused before any request, naming the file and the cluster (clientcmd validates it)', async () => {
    const server = await serve();
    const file = writeKubeconfig(tempDir(), 'config', {
      clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority': '/nonexistent/ca.crt' } }],
      contexts: [{ name: 'x', context: { cluster: 'c' } }],
      'current-context': 'x',
    });
    expect(() => connect({ kubeconfig: file }, {})).toThrow(
      new UserError('unable to read certificate-authority /nonexistent/ca.crt for cluster "c": no such file or directory'),
    );
    expect(server.requests).toHaveLength(0);
  });

  it('passes through errors that are not about the cluster', () => {
    const conn = { kc: undefined as never, contextName: 'x', namespace: 'default', server: 'https://x', requestTimeoutMs: null };
    const bug = new TypeError('x is not a function');
    expect(clusterError(conn, bug)).toBe(bug);
  });
});
