// kubectl's connection flags and transport limits through the built CLI (issue 26, item 2): the
// sandbox reached with --server, --token and --certificate-authority alone (no kubeconfig), a
// server that accepts TCP and never answers, plain HTTP behind an https URL, an HTML page instead
// of the API, a CA that did not sign the server's certificate, and the "waiting" line on a terminal.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ensureBuilt, ROOT, RUN_JS } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-connection-'));
const TOKEN = 'e2e-secret-token-7f3a';
let sb: Sandbox;
let caFile: string;
const servers: net.Server[] = [];

beforeAll(async () => {
  ensureBuilt();
  const labels = { app: 'web' };
  sb = await startSandbox({
    token: TOKEN,
    // a kubelet: the pods reconcile creates become Ready, and its follow-up syncs end in sync
    nodes: 2,
    seed: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web', namespace: 'shop', uid: 'rs-web' },
        spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      },
    ],
  });
  caFile = join(dir, 'ca.crt');
  writeFileSync(caFile, sb.ca);
}, 300_000);

afterAll(async () => {
  await sb?.close();
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The built CLI with no kubeconfig at all (asynchronous: the sandbox runs in this process). */
function run(args: string[], file = process.execPath, argv: string[] = [RUN_JS, ...args]): Promise<Result> {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      file,
      argv,
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, HOME: '/nonexistent-home', KUBECONFIG: '/nonexistent/kubeconfig' },
      },
      (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr, ms: Date.now() - start }),
    );
    child.stdin?.end();
  });
}

/** A local server on a free port; closed after the file. */
async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as net.AddressInfo).port;
}

/** Accepts TCP connections and never writes a byte (the sockets are kept until the file ends). */
async function blackHole(): Promise<string> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => void sockets.push(s));
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  return `https://127.0.0.1:${await listen(server)}`;
}

const flags = () => ['--server', sb.url, '--token', TOKEN, '--certificate-authority', caFile];

describe('--server, --token and --certificate-authority without any kubeconfig', () => {
  it('diff and explain read the sandbox', async () => {
    const diff = await run(['diff', '-n', 'shop', ...flags()]);
    expect(diff.stderr).not.toContain('error');
    expect(diff.status).toBe(1); // the ReplicaSet is short of its 2 pods: drift
    expect(diff.stdout).toContain('web');
    const explain = await run(['explain', 'rs/web', '-n', 'shop', ...flags()]);
    expect(explain.status, explain.stderr).toBe(0);
    expect(explain.stdout).toContain('web');
  }, 120_000);

  it("a wrong --token is the server's 401, and the token is never printed", async () => {
    const r = await run(['diff', '-n', 'shop', '--server', sb.url, '--token', 'wrong-token-9b1c', '--certificate-authority', caFile, '--debug']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: unauthorized: /);
    expect(r.stderr).not.toContain('wrong-token-9b1c');
  }, 120_000);

  it('objects rs-reconcile writes get the field manager rs-reconcile (its User-Agent up to the first "/")', async () => {
    const r = await run(['reconcile', '-n', 'shop', '--yes', '--timeout', '90s', ...flags()]);
    expect(r.status, r.stderr).toBe(0);
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const pods = (await kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'shop' })).items;
    expect(pods.length).toBe(2);
    // the create is rs-reconcile's (the kubelet's status writes are its own)
    for (const pod of pods) expect(pod.metadata?.managedFields?.filter((f) => !f.subresource).map((f) => f.manager)).toEqual(['rs-reconcile']);
    const rs = await kc.makeApiClient(AppsV1Api).readNamespacedReplicaSet({ namespace: 'shop', name: 'web' });
    const status = rs.metadata?.managedFields?.find((f) => f.subresource === 'status');
    expect(status?.manager).toBe('rs-reconcile');
  }, 120_000);

  it('run -v 4 with --token: the token is in no log line', async () => {
    const r = await run(['run', '-n', 'shop', '--until-synced', '--timeout', '90s', '-v', '4', ...flags()]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('in sync');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  }, 120_000);

  it('a CA that did not sign the server certificate: x509 in Go words, no OpenSSL internals', async () => {
    const other = join(ROOT, 'test/cluster/fixtures/tls/other-ca.crt');
    const r = await run(['diff', '-n', 'shop', '--server', sb.url, '--token', TOKEN, '--certificate-authority', other]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`error: TLS error talking to ${sb.url}: tls: failed to verify certificate: x509: certificate signed by unknown authority\n`);
  }, 120_000);

  it('--tls-server-name other than the certificate names: x509 names what it is valid for', async () => {
    const r = await run(['diff', '-n', 'shop', ...flags(), '--tls-server-name', 'not-the-sandbox.example']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/x509: certificate is valid for .+, not not-the-sandbox\.example/);
  }, 120_000);

  it('--insecure-skip-tls-verify with --certificate-authority is refused as kubectl refuses it', async () => {
    const r = await run(['diff', '-n', 'shop', ...flags(), '--insecure-skip-tls-verify']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: specifying a root certificates file with the insecure flag is not allowed/);
    // alone, it skips the check (and clears no CA it was not given)
    const ok = await run(['diff', '-n', 'shop', '--server', sb.url, '--token', TOKEN, '--insecure-skip-tls-verify']);
    expect(ok.stderr).not.toContain('error');
  }, 120_000);
});

describe('servers that are not a Kubernetes API server', () => {
  it('accepts TCP and never answers: diff and explain give up after the TLS handshake timeout, naming the server', async () => {
    const url = await blackHole();
    for (const args of [
      ['diff', '-n', 'shop'],
      ['explain', 'rs/web', '-n', 'shop'],
    ]) {
      const r = await run([...args, '--server', url, '--token', TOKEN]);
      expect(r.status, r.stderr).toBeGreaterThan(1);
      expect(r.stderr).toBe(
        `error: cannot reach the cluster at ${url}: net/http: TLS handshake timeout (the server accepted the connection but completed no TLS handshake within 10s)\n`,
      );
      // not a terminal: no "waiting" line
      expect(r.stderr).not.toContain('Waiting');
      expect(r.stderr).not.toContain(TOKEN);
    }
  }, 120_000);

  it('on a terminal, one line says which server is awaited', async () => {
    const url = await blackHole();
    const command = [process.execPath, RUN_JS, 'diff', '-n', 'shop', '--server', url, '--token', TOKEN].map((a) => `'${a}'`).join(' ');
    // script(1) runs the command on a pseudo-terminal: stderr is a TTY
    const r = await run([], 'script', ['-qec', command, '/dev/null']);
    const lines = r.stdout.split(/\r?\n/).filter((l) => l !== '');
    expect(lines.filter((l) => l.startsWith('Waiting'))).toEqual([`Waiting for the API server at ${url}…`]);
    expect(lines.at(-1)).toMatch(/TLS handshake timeout/);
  }, 120_000);

  it('a plain HTTP server behind an https URL: "server gave HTTP response to HTTPS client"', async () => {
    const port = await listen(http.createServer((_q, s) => s.end('hello')));
    const r = await run(['diff', '-n', 'shop', '--server', `https://127.0.0.1:${port}`, '--token', TOKEN]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`error: cannot reach the cluster at https://127.0.0.1:${port}: http: server gave HTTP response to HTTPS client\n`);
  }, 120_000);

  it("an HTML page (a proxy's login page): the status and the server, never the page", async () => {
    const page = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>secret-form-field</form></body></html>';
    for (const status of [200, 403]) {
      const port = await listen(
        http.createServer((_q, s) => {
          s.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
          s.end(page);
        }),
      );
      const url = `http://127.0.0.1:${port}`;
      const r = await run(['diff', '-n', 'shop', '--server', url]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: the server at ${url} answered ${status} \\w+ with an HTML page, not the Kubernetes API`));
      expect(r.stderr).not.toContain('<');
      expect(r.stderr).not.toContain('secret-form-field');
    }
  }, 120_000);

  it('no kubeconfig and no --server: the way on without a cluster', async () => {
    const r = await run(['diff', '-n', 'shop']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no configuration has been provided');
    expect(r.stderr).toContain('-f SNAPSHOT');
    expect(r.stderr).toContain('rs-reconcile sandbox');
  }, 120_000);
});

it('the CA file written for the sandbox is the one it serves with', () => {
  expect(readFileSync(caFile, 'utf8')).toBe(sb.ca);
});
