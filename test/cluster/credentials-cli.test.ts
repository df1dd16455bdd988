// The built CLI as a user runs it: what reaches the terminal when credentials are involved.
// The CLI runs as an async child process: the recorded server answers from this process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, RUN_JS, ensureBuilt, type CliResult } from '../e2e/cli.js';
import { removeTempDirs, tempDir, writeKubeconfig } from './helpers.js';
import { startRecordedServer, type RecordedServer, type RecordedServerOptions } from './recorded-server.js';

beforeAll(() => ensureBuilt(), 180_000);

const servers: RecordedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeTempDirs();
});

async function serve(opts: RecordedServerOptions): Promise<RecordedServer> {
  const server = await startRecordedServer(opts);
  servers.push(server);
  return server;
}

const SECRET = 'sekret-token-0123456789abcdef';

function run(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_JS, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function kubeconfig(server: RecordedServer, user: object, cluster: object = {}): string {
  return writeKubeconfig(tempDir(), 'config', {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: server.url, ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'shop' } }],
    'current-context': 'x',
  });
}

describe('rs-reconcile diff and credentials', () => {
  it('an exec plugin printing garbage with a token in it: exit 2, one line naming the plugin, the token nowhere', async () => {
    const server = await serve({});
    const command = path.join(tempDir(), 'get-token');
    fs.writeFileSync(
      command,
      `#!${process.execPath}\nprocess.stderr.write('refreshing login\\n');\nprocess.stdout.write('{"status": {"token": "${SECRET}"}, oops');\n`,
      { mode: 0o755 },
    );
    const file = kubeconfig(
      server,
      { exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' } },
      { 'certificate-authority-data': server.caData },
    );
    const r = await run(['diff', '--kubeconfig', file]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    // the plugin's stderr reaches the user's (client-go), then the one-line error
    expect(r.stderr).toBe(
      `refreshing login\nerror: cannot load the credentials of context "x": exec plugin "${command}": decoding stdout: the output is not a JSON object\n`,
    );
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(server.requests).toHaveLength(0);
  }, 60_000);

  it('a token user against a plain http:// server: the listener gets no Authorization header', async () => {
    const server = await serve({ tls: false, token: null });
    const r = await run(['diff', '--kubeconfig', kubeconfig(server, { token: SECRET })]);
    expect(r.stderr).toBe('');
    expect([0, 1]).toContain(r.status);
    expect(server.requests.length).toBeGreaterThan(1);
    for (const req of server.requests) {
      expect(req.headers.authorization).toBeUndefined();
      expect(JSON.stringify(req.rawHeaders)).not.toContain(SECRET);
    }
  }, 60_000);

  it('insecure-skip-tls-verify with a CA: exit 2 before any request', async () => {
    const server = await serve({});
    const file = kubeconfig(server, { token: SECRET }, { 'certificate-authority-data': server.caData, 'insecure-skip-tls-verify': true });
    const r = await run(['diff', '--kubeconfig', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'error: cluster "c": specifying a root certificates file with the insecure flag is not allowed (insecure-skip-tls-verify is set together with certificate-authority-data)\n',
    );
    expect(server.requests).toHaveLength(0);
  }, 60_000);
});
