// `version`: the server's version when a cluster answers, the upstream behaviour emulated against
// it (release and gates), and a report, never a failure, when no cluster answers in time.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { selfSignedCert } from '../../src/sandbox/tls.js';
import { kubectlInfo, serverInfo, versionReport, versionText, VERSION_TIMEOUT_MS } from '../../src/services/version-service.js';
import { cli, ensureBuilt, ROOT, RUN_JS } from './cli.js';

const execFileP = promisify(execFile);
const UNREACHABLE = join(ROOT, 'test', 'packaging', 'fixtures', 'unreachable.kubeconfig');

beforeAll(() => ensureBuilt(), 300_000);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempKubeconfig(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'rs-version-'));
  dirs.push(dir);
  const kc = join(dir, 'config');
  writeFileSync(
    kc,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: silent, context: {cluster: c, user: u}}]\ncurrent-context: silent\n`,
  );
  return kc;
}

/** The CLI without blocking this process (the sandbox answers from it). */
async function cliAsync(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await execFileP(process.execPath, [RUN_JS, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent-home', ...env },
    });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { status: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('version offline', () => {
  it('says there is no cluster and emulates the newest release, exit 0', () => {
    const r = cli(['version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Server Version: unknown: no configuration has been provided/m);
    expect(r.stdout).toContain('Controller behaviour: upstream 1.37, the newest, as no server answered (rs-reconcile emulates 1.24–1.37)');
    expect(r.stdout).toMatch(/^ {2}on {3}sidecarRestarts \(1\.32\+\): sidecar restarts in ranking/m);
  });

  it('reports a cluster that refuses the connection, exit 0, and -o json says why', () => {
    const r = cli(['version', '-o', 'json'], { env: { KUBECONFIG: UNREACHABLE } });
    expect(r.status).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.server).toMatchObject({ reachable: false, context: 'nowhere', server: 'https://127.0.0.1:1' });
    expect(v.server.reason).toMatch(/127\.0\.0\.1:1/);
    expect(v.controllerBehaviour.emulated).toMatchObject({ version: '1.37', from: 'newest' });
    // the token of the kubeconfig is never printed
    expect(r.stdout + r.stderr).not.toContain('not-a-real-token');
  });

  it('--client asks no server; --kube-version and --feature-gates choose the behaviour shown', () => {
    const r = cli(['version', '--client', '--kube-version', '1.31', '--feature-gates', 'PodDeletionCost=false', '-o', 'yaml'], {
      env: { KUBECONFIG: UNREACHABLE },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('server: null');
    expect(r.stdout).toMatch(/version: "?1\.31"?\n\s+from: kube-version/);
    expect(r.stdout).toMatch(/PodDeletionCost: false/);
    const bad = cli(['version', '--client', '--kube-version', '2.0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('error: invalid Kubernetes version "2.0": expected 1.X, e.g. 1.37\n');
  });
});

describe('--version', () => {
  it('prints the client lines of `version`, in one format, through every entry', () => {
    const client = cli(['version', '--client']);
    expect(client.status).toBe(0);
    const lines = client.stdout.split('\n').slice(0, 2);
    expect(lines).toEqual([expect.stringMatching(/^rs-reconcile \d+\.\d+\.\d+/), `Node.js ${process.version}`]);
    for (const env of [{}, { RS_RECONCILE_NO_FAST: '1' }, { RS_RECONCILE_NO_BUNDLE: '1' }]) {
      const v = cli(['--version'], { env });
      expect(v, JSON.stringify(env)).toEqual({ status: 0, stdout: `${lines.join('\n')}\n`, stderr: '' });
    }
  });
});

describe('the newest minor, 1.37', () => {
  it('--kube-version 1.37 and 1.36 are accepted, with the StaleControllerConsistencyReplicaSet gate; 1.38 is refused', () => {
    for (const v of ['1.37', '1.36']) {
      const r = cli(['version', '--client', '--kube-version', v, '--feature-gates', 'StaleControllerConsistencyReplicaSet=false', '-o', 'json']);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const e = JSON.parse(r.stdout).controllerBehaviour.emulated;
      expect(e).toMatchObject({
        version: v,
        from: 'kube-version',
        gates: { StaleControllerConsistencyReplicaSet: false, DeploymentReplicaSetTerminatingReplicas: true },
        notes: [],
      });
    }
    const older = cli(['version', '--client', '--kube-version', '1.35', '--feature-gates', 'StaleControllerConsistencyReplicaSet=true']);
    expect(older.status).toBe(2);
    expect(older.stderr).toBe(
      'error: invalid argument "StaleControllerConsistencyReplicaSet=true" for "--feature-gates" flag: unrecognized feature gate: StaleControllerConsistencyReplicaSet (kube-controller-manager 1.35 does not know it: 1.36 and later do)\n',
    );
    const newer = cli(['version', '--client', '--kube-version', '1.38']);
    expect(newer.status).toBe(2);
    expect(newer.stderr).toBe('error: Kubernetes version 1.38 is not supported: choose 1.24 to 1.37\n');
  });
});

describe('servers of 1.37 and 1.38 (an HTTPS /version)', () => {
  let server: Server;
  let kubeconfig: string;
  let gitVersion = 'v1.37.1';
  beforeAll(async () => {
    const { cert, key } = selfSignedCert();
    server = createHttpsServer({ cert, key }, (req, res) => {
      if (req.url !== '/version') {
        res.writeHead(404).end();
        return;
      }
      const minor = /^v1\.(\d+)/.exec(gitVersion)?.[1];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ major: '1', minor, gitVersion }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    kubeconfig = tempKubeconfig((server.address() as AddressInfo).port);
  });
  afterAll(async () => new Promise((r) => server.close(r)));

  it('a 1.37 server gets its own rules without a notice; a 1.38 server the 1.37 rules with one notice', async () => {
    gitVersion = 'v1.37.1';
    const at37 = await cliAsync(['version', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(at37.status).toBe(0);
    const v37 = JSON.parse(at37.stdout);
    expect(v37.server).toMatchObject({ reachable: true, gitVersion: 'v1.37.1', minor: '37' });
    expect(v37.controllerBehaviour.emulated).toMatchObject({ version: '1.37', from: 'server', notes: [] });
    gitVersion = 'v1.38.0-alpha.2';
    const at38 = await cliAsync(['version', '--kubeconfig', kubeconfig]);
    expect(at38.status).toBe(0);
    expect(at38.stdout).toContain("Controller behaviour: upstream 1.37, the server's version");
    const notes = at38.stdout.split('\n').filter((l) => l.startsWith('  note: '));
    expect(notes).toEqual(['  note: the server runs 1.38; rs-reconcile knows upstream behaviour up to 1.37 and explains as that']);
  });
});

describe('KUBECTL_PATH: the kubectl that runs the plugin', () => {
  it('without it no kubectl is run and none is shown', () => {
    const r = cli(['version', '--client', '-o', 'json'], { env: { KUBECTL_PATH: undefined } });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).kubectl).toBeNull();
    expect(cli(['version', '--client'], { env: { KUBECTL_PATH: '' } }).stdout).not.toContain('Kubectl Version');
  });

  it("with it, that kubectl's client version is shown (the real kubectl on PATH)", () => {
    const kubectl = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
    const want = JSON.parse(execFileSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' })).clientVersion.gitVersion;
    const r = cli(['version', '--client', '-o', 'json'], { env: { KUBECTL_PATH: kubectl } });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).kubectl).toEqual({ path: kubectl, gitVersion: want });
    const text = cli(['version', '--client'], { env: { KUBECTL_PATH: kubectl } });
    expect(text.stdout.split('\n')[2]).toBe(`Kubectl Version: ${want} (${kubectl})`);
  });

  it('a kubectl that never answers is given up after the time limit, and reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-version-kubectl-'));
    dirs.push(dir);
    const silent = join(dir, 'kubectl');
    writeFileSync(silent, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    expect(await kubectlInfo({ KUBECTL_PATH: silent }, 300)).toEqual({ path: silent, reason: 'no answer within 0.3s' });
    writeFileSync(silent, '#!/bin/sh\necho not json\n', { mode: 0o755 });
    expect(await kubectlInfo({ KUBECTL_PATH: silent })).toEqual({
      path: silent,
      reason: `${silent} version --client -o json printed no clientVersion.gitVersion`,
    });
  });

  it('a KUBECTL_PATH that cannot run is reported, never an error', () => {
    const r = cli(['version', '--client'], { env: { KUBECTL_PATH: '/nonexistent/kubectl' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Kubectl Version: unknown: .*ENOENT/m);
  });
});

describe('version against a live server (the embedded API server, v1.32.0)', () => {
  let sb: Sandbox;
  let kubeconfig: string;
  beforeAll(async () => {
    sb = await startSandbox();
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'rs-version-sb-')), 'kubeconfig');
    dirs.push(join(kubeconfig, '..'));
    await sb.writeKubeconfig(kubeconfig, 'default');
  });
  afterAll(async () => sb?.close());

  it("prints the server's version and emulates that release: 1.32 has sidecar restarts, not 1.34's changes", async () => {
    const r = await cliAsync(['version', '--kubeconfig', kubeconfig]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Server Version: v1\.32\.0 \(context \S+\)$/m);
    expect(r.stdout).toContain("Controller behaviour: upstream 1.32, the server's version");
    expect(r.stdout).toMatch(/^ {2}on {3}sidecarRestarts/m);
    expect(r.stdout).toMatch(/^ {2}off {2}availabilityInclusive/m);
    const json = JSON.parse((await cliAsync(['version', '-o', 'json'], { KUBECONFIG: kubeconfig })).stdout);
    expect(json.server).toMatchObject({ reachable: true, gitVersion: 'v1.32.0', major: '1', minor: '32' });
    expect(json.controllerBehaviour.emulated).toMatchObject({
      version: '1.32',
      from: 'server',
      gates: { PodDeletionCost: true, DeploymentReplicaSetTerminatingReplicas: false },
    });
    expect(Object.fromEntries(json.controllerBehaviour.emulated.features.map((f: { name: string; on: boolean }) => [f.name, f.on]))).toMatchObject({
      sidecarRestarts: true,
      availabilityInclusive: false,
      ownerIndex: false,
    });
    // text and document say the same
    expect(versionText(json)).toBe(r.stdout.trimEnd());
  });
});

describe('a server that never answers', () => {
  it('is given up when the time limit passes, and reported (fake clock)', async () => {
    const sockets = new Set<Socket>();
    const server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const kc = tempKubeconfig((server.address() as AddressInfo).port);
    const realTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pending = serverInfo({ kubeconfig: kc, requestTimeout: '1h' }, {}, VERSION_TIMEOUT_MS);
      let settled = false;
      void pending.then(() => (settled = true));
      while (sockets.size === 0) await new Promise((r) => realTimeout(r, 10));
      await vi.advanceTimersByTimeAsync(VERSION_TIMEOUT_MS - 1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({
        reachable: false,
        context: 'silent',
        reason: `no answer from https://127.0.0.1:${(server.address() as AddressInfo).port} within 5s`,
      });
    } finally {
      vi.useRealTimers();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('the report then emulates the newest release', async () => {
    const report = await versionReport('9.9.9', { client: false, connection: { kubeconfig: UNREACHABLE }, env: {} });
    expect(report.server).toMatchObject({ reachable: false });
    expect(report.controllerBehaviour.emulated.from).toBe('newest');
    expect(versionText(report)).toMatch(/^rs-reconcile 9\.9\.9\n/);
  });
});
