// End to end on the built CLI: the plain-text stream when piped, the full-screen dashboard inside
// tmux (keys sent with send-keys, the screen read with capture-pane), and the live modes against
// the embedded API server (read-only: a kubectl scale shows up; --reconcile: the controller acts).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ensureBuilt, hasTmux, RUN, Tmux, userEnv } from './cli-helpers.js';
import { ROOT } from './fixtures.js';
import { itUnless, skipAllIf } from '../skips.js';

const NOW = '2026-01-01T00:00:00Z';
const TMUX = hasTmux();
const noTmux = TMUX ? null : 'tmux is not installed (apt-get install -y tmux): the terminal tests need it';

beforeAll(() => ensureBuilt(), 180_000);

function cli(args: string[], env: NodeJS.ProcessEnv = userEnv({ NO_COLOR: '1' })) {
  return spawnSync(process.execPath, [RUN, ...args], { cwd: ROOT, encoding: 'utf8', env, timeout: 30_000 });
}

describe('piped: the plain-text update stream', () => {
  it('watch -f … --now: one line per controller, exit 0', () => {
    const r = cli(['watch', '-f', 'examples/drifted-replicaset.yaml', '--now', NOW]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('2026-01-01T00:00:00Z shop/shop-web rs desired=5 current=4 adopt=1 release=1 create=1 delete=0 drift\n');
    expect(r.status).toBe(0);
  });

  it('several files, names and -n; invalid selectors are warnings on stderr; unknown names fail', () => {
    const files = ['-f', 'examples/invalid-selector.yaml', '-f', 'examples/deployment-rollout.yaml', '--now', NOW];
    let r = cli(['watch', ...files]);
    expect(r.stdout.trim().split('\n')).toEqual([
      '2026-01-01T00:00:00Z shop/checkout-6b8d rs desired=2 current=4 adopt=0 release=0 create=0 delete=2 drift',
      '2026-01-01T00:00:00Z shop/checkout-9c2f rs desired=3 current=2 adopt=0 release=0 create=1 delete=0 drift',
      '2026-01-01T00:00:00Z web/broken rs desired=2 current=1 adopt=0 release=0 create=0 delete=0 skipped=InvalidSelector',
      '2026-01-01T00:00:00Z web/frontend rs desired=2 current=2 adopt=0 release=0 create=0 delete=0 in-sync',
    ]);
    expect(r.stderr).toMatch(/^Warning: ReplicaSet web\/broken: invalid selector/);
    expect(r.status).toBe(0);
    r = cli(['watch', 'rs/checkout-9c2f', ...files, '-n', 'shop']);
    expect(r.stdout).toBe('2026-01-01T00:00:00Z shop/checkout-9c2f rs desired=3 current=2 adopt=0 release=0 create=1 delete=0 drift\n');
    r = cli(['watch', 'nope', ...files]);
    expect(r.stderr).toBe('error: replicasets.apps "nope" not found in the snapshot\n');
    expect(r.status).toBe(2);
  });

  it('one-line errors: --reconcile with a snapshot, no cluster', () => {
    let r = cli(['watch', '--reconcile', '-f', 'examples/drifted-replicaset.yaml']);
    expect(r.stderr).toBe('error: --reconcile runs the controller against a cluster: it cannot be combined with -f (a snapshot)\n');
    expect(r.status).toBe(2);
    r = cli(['watch']);
    expect(r.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(r.status).toBe(2);
  });

  it('--help documents the keys, --plain and --reconcile', () => {
    const r = cli(['watch', '--help']);
    expect(r.stdout).toContain('--reconcile');
    expect(r.stdout).toContain('--plain');
    expect(r.stdout).toMatch(/Keys: arrows or j\/k move/);
  });
});

describe('in a terminal (tmux)', () => {
  skipAllIf(noTmux);
  let t: Tmux | null = null;
  afterAll(() => t?.kill());

  it('watch -f scale-down-ranking.yaml: full screen; j, Enter, Esc, /, q; the terminal is restored', async () => {
    t = new Tmux(100, 30);
    t.run('clear; echo BEFORE-WATCH');
    await t.waitFor(/^BEFORE-WATCH$/m, 'the shell');
    t.run(`cd ${ROOT} && node bin/run.js watch -f examples/scale-down-ranking.yaml --now ${NOW}; echo EXIT=$?`);
    let s = await t.waitFor(/controllers 1 .*pods 9/, 'the dashboard');
    expect(t.alternateScreen()).toBe(true);
    expect(s).not.toContain('BEFORE-WATCH');
    expect(s).toMatch(/^rs-reconcile watch {2}context - {2}file scale-down-ranking\.yaml · all namespaces {2}mode snapshot/m);
    expect(s).toMatch(/^> \* rs search-5f7c9\s+3\s+9\s+6\s+6\s+0\s+0\s+0\s+6 █{20}$/m);
    expect(s).toContain('snapshot: 1 controller in scope, 9 pods');
    for (const line of s.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);

    t.keys(['j']); // a single controller: the cursor stays
    t.keys(['Enter']);
    s = await t.waitFor(/Deletion order \(6 of 9 go\)/, 'the detail view');
    expect(s).toMatch(/^ReplicaSet search\/search-5f7c9 {2}selector app=search,pod-template-hash=5f7c9/m);
    expect(s).toMatch(/^> search-5f7c9-cheap\s+delete\s+OwnedMatching\s+node-g\s+Running/m);
    expect(s).toContain('Why: search-5f7c9-cheap');
    t.keys(['j']);
    s = await t.waitFor(/Why: search-5f7c9-crowd1/, 'the pod cursor to move');
    expect(s).toMatch(/^> search-5f7c9-crowd1 /m);
    expect(s).toMatch(/#5 in the deletion order: search-5f7c9-crowd1/);

    t.keys(['Escape']);
    s = await t.waitFor((x) => !x.includes('Deletion order') && /> \* rs search-5f7c9/.test(x), 'the list again');

    t.keys(['/']);
    await t.waitFor(/^\/_ {2}Enter keep · Esc clear/m, 'the filter bar');
    t.keys(['zz'], true);
    s = await t.waitFor(/No controller matches "zz"/, 'the filter to apply');
    expect(s).toContain('controllers 1 (0 shown)');
    t.keys(['Escape']);
    await t.waitFor(/> \* rs search-5f7c9/, 'the filter cleared');

    t.keys(['?']);
    await t.waitFor(/── Help/, 'the help');
    t.keys(['Escape']);
    // Esc and a key read in one go are Alt+key to a terminal program (as readline and ink read
    // them): wait for the help to close, as a person would, before the next key
    await t.waitFor((x) => !x.includes('── Help'), 'the help closed');
    t.keys(['p']);
    await t.waitFor(/^ PAUSED /m, 'PAUSED');
    t.keys(['q']);
    s = await t.waitFor(/EXIT=0/, 'the exit');
    expect(t.alternateScreen()).toBe(false);
    expect(s).toContain('BEFORE-WATCH'); // the main screen is back as it was
    expect(s).not.toContain('rs-reconcile watch');
  });

  it('Ctrl-C quits (exit 130, as a shell expects; q exits 0) and restores the terminal too; the layout follows a resize to 80x24', async () => {
    t?.kill();
    t = new Tmux(120, 40);
    t.run(`clear; cd ${ROOT} && node bin/run.js watch -f examples/scale-down-ranking.yaml -f examples/deployment-rollout.yaml --now ${NOW}; echo EXIT=$?`);
    let s = await t.waitFor(/controllers 3 /, 'the dashboard');
    expect(s).toMatch(/RDY\/DES|READY\/DESIRED/);
    t.resize(80, 24);
    s = await t.waitFor(
      (x) => x.split('\n').some((l) => /^> \* rs search\/search-5f7c9/.test(l)) && x.split('\n').every((l) => [...l].length <= 80) && /j\/k move/.test(x),
      'the 80x24 layout',
    );
    const lines = s.replace(/\n+$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(s).toContain('── Log');
    t.keys(['C-c']);
    s = await t.waitFor(/EXIT=130/, 'the exit');
    expect(t.alternateScreen()).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Live, against the embedded API server

const RS = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

describe('live, against the embedded API server', () => {
  let sb: Sandbox;
  let dir: string;
  let kubeconfig: string;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sb = await startSandbox({ nodes: 2 });
    dir = mkdtempSync(join(tmpdir(), 'watch-live-'));
    kubeconfig = join(dir, 'kubeconfig');
    await sb.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    apps = kc.makeApiClient(AppsV1Api);
    core = kc.makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI piped; collects stdout lines. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [RUN, ...args], { cwd: ROOT, env: userEnv({ KUBECONFIG: kubeconfig, NO_COLOR: '1' }) });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (re: RegExp, what: string, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!re.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`timed out waiting for ${what}\nstdout:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    return { child, exited, waitFor, out: () => out, err: () => err };
  }

  it('piped, read-only: a line per change (a scale made through the API), SIGINT ends it with exit 130', async () => {
    await core.createNamespace({ body: { metadata: { name: 'ro' } } });
    await apps.createNamespacedReplicaSet({ namespace: 'ro', body: RS('web', 2) });
    const w = start(['watch', '-n', 'ro']);
    await w.waitFor(/Z ro\/web rs desired=2 current=0 adopt=0 release=0 create=2 delete=0 drift\n/, 'the first plan');
    await apps.patchNamespacedReplicaSetScale({ namespace: 'ro', name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 4 }] });
    await w.waitFor(/Z ro\/web rs desired=4 current=0 adopt=0 release=0 create=4 delete=0 drift\n/, 'the scale');
    expect(
      w
        .out()
        .split('\n')
        .filter((l) => l.includes('ro/web')).length,
    ).toBe(2); // only changes are printed
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(130);
    expect(w.err()).toBe('');
  });

  itUnless(noTmux)('in tmux: a kubectl scale shows up on the dashboard and in its log', async () => {
    await core.createNamespace({ body: { metadata: { name: 'tui' } } });
    await apps.createNamespacedReplicaSet({ namespace: 'tui', body: RS('shop', 2) });
    const t = new Tmux(100, 30, { KUBECONFIG: kubeconfig, HOME: dir });
    try {
      t.run(`cd ${ROOT} && node bin/run.js watch -n tui; echo EXIT=$?`);
      let s = await t.waitFor(/^> \* rs shop\s+2\s+0/m, 'the dashboard', 15_000);
      expect(s).toMatch(/context \S+ {2}namespace tui {2}mode read-only/);
      expect(s).toMatch(/synced: 0 pods, 1 replicasets, 0 replicationcontrollers/);
      const scaled = await new Promise<string>((resolve, reject) =>
        execFile(
          'kubectl',
          ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), '-n', 'tui', 'scale', 'rs/shop', '--replicas=5'],
          { env: { PATH: process.env.PATH ?? '', HOME: dir } },
          (e, out, errOut) => (e ? reject(new Error(errOut || String(e))) : resolve(out)),
        ),
      );
      expect(scaled).toContain('scaled');
      s = await t.waitFor(/^> \* rs shop\s+5\s+0\s+0\s+0\s+0\s+0\s+5\s+0/m, 'the scale on screen', 15_000);
      expect(s).toMatch(/\d\d:\d\d:\d\d rs tui\/shop scaled 2→5/);
      t.keys(['q']);
      await t.waitFor(/EXIT=0/, 'the exit');
      expect(t.alternateScreen()).toBe(false);
    } finally {
      t.kill();
    }
  });

  it('piped --reconcile: a status write refused with 409 Conflict and retried says so in its action line', async () => {
    await core.createNamespace({ body: { metadata: { name: 'conflict' } } });
    await apps.createNamespacedReplicaSet({ namespace: 'conflict', body: RS('api', 1) });
    const fault = sb.faults.set({ verb: 'update', resource: 'replicasets/status', namespace: 'conflict', errorRate: 1, code: 409, count: 1 });
    try {
      const w = start(['watch', '-n', 'conflict', '--reconcile']);
      await w.waitFor(
        /Z rs conflict\/api: update status \([^)]*\); status write retried after a conflict \(409\): the ReplicaSet changed since it was read\n/,
        'the retried status write',
        30_000,
      );
      const writes = sb.audit().filter((a) => a.verb === 'update' && a.subresource === 'status' && a.namespace === 'conflict');
      expect(writes.map((a) => a.code).slice(0, 2)).toEqual([409, 200]);
      w.child.kill('SIGINT');
      expect(await w.exited).toBe(130);
    } finally {
      sb.faults.clear(fault);
    }
  });

  it('piped --reconcile: the controller creates the pods, its actions are printed, the controller ends in sync', async () => {
    await core.createNamespace({ body: { metadata: { name: 'rec' } } });
    await apps.createNamespacedReplicaSet({ namespace: 'rec', body: RS('api', 3) });
    const w = start(['watch', '-n', 'rec', '--reconcile']);
    await w.waitFor(/Z rs rec\/api: create pod api-\w+\n[\s\S]*create pod[\s\S]*create pod/, 'three creates', 20_000);
    await w.waitFor(/Z rec\/api rs desired=3 current=3 adopt=0 release=0 create=0 delete=0 in-sync\n/, 'in sync', 20_000);
    const pods = await core.listNamespacedPod({ namespace: 'rec' });
    expect(pods.items).toHaveLength(3);
    w.child.kill('SIGINT');
    expect(await w.exited).toBe(130);
  });
});
