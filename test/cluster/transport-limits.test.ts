// The transport's limits (client-go's TLS handshake timeout, the bound on the response headers),
// the waiting line, and the request headers the connection flags add. The limits are shortened
// here: what is tested is which limit ends a silent exchange and what the line says, not how long.
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { ApiException } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterError, clusterError } from '../../src/cluster/errors.js';
import { TRANSPORT_LIMITS, type TransportLimits } from '../../src/cluster/http.js';
import { connect } from '../../src/cluster/kubeconfig.js';
import { getServerVersion } from '../../src/cluster/read.js';
import { headerValues, kubeconfigFileFor, recordedServers, tempDir, writeKubeconfig } from './helpers.js';
import { tlsFile } from './recorded-server.js';

const serve = recordedServers();
const sockets: net.Socket[] = [];
const holes: net.Server[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const h of holes.splice(0)) h.close();
});

/** Accepts TCP and never writes a byte. */
async function blackHole(): Promise<string> {
  const server = net.createServer((s) => void sockets.push(s));
  holes.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

const limits = (o: Partial<TransportLimits>): TransportLimits => ({ ...TRANSPORT_LIMITS, ...o });

async function failure(p: Promise<unknown>): Promise<ClusterError> {
  const err = await p.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClusterError);
  return err as ClusterError;
}

describe("client-go's transport limits", () => {
  it('are 30s to connect and 10s for the TLS handshake', () => {
    expect([TRANSPORT_LIMITS.dial, TRANSPORT_LIMITS.tlsHandshake, TRANSPORT_LIMITS.waitingNotice]).toEqual([30_000, 10_000, 2_000]);
  });

  it('a server that accepts TCP and never answers: the TLS handshake timeout, naming the server', async () => {
    const url = await blackHole();
    const conn = connect({ server: url, token: 't' }, {}, { waitingNotice: null, transportLimits: limits({ tlsHandshake: 300 }) });
    const err = await failure(getServerVersion(conn));
    expect(err.reason).toBe('timeout');
    expect(err.message).toBe(
      `cannot reach the cluster at ${url}: net/http: TLS handshake timeout (the server accepted the connection but completed no TLS handshake within 300ms)`,
    );
  });

  it('TLS done, no HTTP answer: bounded by the response-header limit without --request-timeout', async () => {
    const server = await serve({ hang: true });
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {}, { waitingNotice: null, transportLimits: limits({ responseHeaders: 300 }) });
    const err = await failure(getServerVersion(conn));
    expect(err.message).toBe(
      `cannot reach the cluster at ${server.url}: net/http: timeout awaiting response headers (no answer within 300ms; --request-timeout sets another limit)`,
    );
  });

  it('with --request-timeout the user bounds the exchange: no response-header limit of ours', async () => {
    const server = await serve({ hang: true });
    const conn = connect(
      { kubeconfig: kubeconfigFileFor(server), requestTimeout: '400ms' },
      {},
      { waitingNotice: null, transportLimits: limits({ responseHeaders: 1 }) },
    );
    const err = await failure(getServerVersion(conn));
    expect(err.message).toMatch(/^timed out after 400ms waiting for the cluster at .* \(--request-timeout=400ms\)$/);
  });
});

describe('the waiting line', () => {
  it('is said once per connection, naming the server and the context', async () => {
    const server = await serve({ hang: true });
    const said: string[] = [];
    const conn = connect(
      { kubeconfig: kubeconfigFileFor(server, { context: 'prod' }) },
      {},
      { waitingNotice: (l) => said.push(l), transportLimits: limits({ waitingNotice: 20, responseHeaders: 500 }) },
    );
    await failure(getServerVersion(conn));
    await failure(getServerVersion(conn));
    expect(said).toEqual([`Waiting for the API server at ${server.url} (context "prod")…`]);
  });

  it('is not said once the server has answered', async () => {
    const server = await serve();
    const said: string[] = [];
    const conn = connect(
      { kubeconfig: kubeconfigFileFor(server) },
      {},
      { waitingNotice: (l) => said.push(l), transportLimits: limits({ waitingNotice: 60_000 }) },
    );
    await getServerVersion(conn);
    expect(said).toEqual([]);
  });
});

describe('headers of the connection flags', () => {
  it('--as-uid sends Impersonate-Uid; --disable-compression sends no Accept-Encoding', async () => {
    const server = await serve();
    await getServerVersion(
      connect({ kubeconfig: kubeconfigFileFor(server), as: 'jane', asUid: 'u-123', disableCompression: true }, {}, { waitingNotice: null }),
    );
    await getServerVersion(connect({ kubeconfig: kubeconfigFileFor(server) }, {}, { waitingNotice: null }));
    const [flagged, plain] = server.requests;
    expect(headerValues(flagged.rawHeaders, 'Impersonate-Uid')).toEqual(['u-123']);
    expect(headerValues(flagged.rawHeaders, 'Accept-Encoding')).toEqual([]);
    expect(headerValues(plain.rawHeaders, 'Accept-Encoding')).toEqual(['gzip']);
    expect(headerValues(plain.rawHeaders, 'Impersonate-Uid')).toEqual([]);
  });
});

describe('TLS and non-API answers in Go words', () => {
  it('a server that requires a client certificate: the alert as Go names it, no OpenSSL internals', async () => {
    const server = https.createServer(
      { cert: fs.readFileSync(tlsFile('server.crt')), key: fs.readFileSync(tlsFile('server.key')), requestCert: true, rejectUnauthorized: true },
      (_q, s) => s.end('{}'),
    );
    holes.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const ca = fs.readFileSync(tlsFile('ca.crt')).toString('base64');
    const file = writeKubeconfig(tempDir(), 'config', {
      clusters: [{ name: 'c', cluster: { server: url, 'certificate-authority-data': ca } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    const err = await failure(getServerVersion(connect({ kubeconfig: file }, {}, { waitingNotice: null })));
    // TLS 1.3 sends the alert after the client's handshake is done: Go's "remote error: tls:
    // certificate required", unless the server's close reaches the request's write first
    expect(err.message).not.toMatch(/SSL routines|error:[0-9A-F]{8}|openssl/i);
    expect([`TLS error talking to ${url}: remote error: tls: certificate required`, 'unreachable']).toContain(
      err.reason === 'unreachable' ? 'unreachable' : err.message,
    );
  });

  it('an HTML page in an error body is its status and the server, never the page', () => {
    const conn = connect({ server: 'https://proxy.example:443', token: 't' }, { HOME: tempDir() }, { waitingNotice: null, serviceAccountDir: '/nonexistent' });
    const err = clusterError(conn, new ApiException(502, 'Bad Gateway', '<html><body><h1>502 Bad Gateway</h1></body></html>', {}));
    expect(err.message).toBe(
      'the server at https://proxy.example:443 answered 502 Bad Gateway with an HTML page, not the Kubernetes API (a proxy or a login page in front of it?)',
    );
    expect((err as ClusterError).reason).toBe('server-error');
  });
});
