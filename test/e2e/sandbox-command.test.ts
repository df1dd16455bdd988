// `rs-reconcile sandbox` (the built CLI) as a shell runs it: --write-kubeconfig names the file it
// writes (--kubeconfig, which everywhere else names a file to read, still works with a warning),
// and when it stops (Ctrl-C, SIGTERM) it removes that kubeconfig, says so, and exits 130 / 143.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { cli, ensureBuilt, ROOT, RUN_JS } from './cli.js';

let dir: string;
beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'sbx-cmd-'));
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Stopped {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The kubeconfig as it was while the sandbox ran. */
  written: string;
}

/** Starts the sandbox with `flags`, waits for its hint line, reads the kubeconfig at `path`, then sends `signal`. */
async function runUntil(
  flags: string[],
  path: string,
  signal: NodeJS.Signals,
  env: Record<string, string> = {},
  whileRunning: () => void = () => undefined,
): Promise<Stopped> {
  const nodes = flags.includes('--nodes') ? [] : ['--nodes', '0'];
  const child = spawn(process.execPath, [RUN_JS, 'sandbox', ...nodes, ...flags], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (c) => {
      stderr += c;
      if (stderr.includes('Ctrl-C to stop.')) resolve();
    });
    child.on('exit', () => reject(new Error(`sandbox exited: ${stderr}`)));
  });
  const written = await readFile(path, 'utf8');
  try {
    whileRunning();
  } finally {
    child.kill(signal);
  }
  const code = await exited;
  return { code, stdout, stderr, written };
}

const serverOf = (kubeconfig: string) => /server: (https:\/\/127\.0\.0\.1:\d+)/.exec(kubeconfig)?.[1];

describe('sandbox --write-kubeconfig', () => {
  it('Ctrl-C: exit 130, and the kubeconfig it wrote is gone, as stderr says', async () => {
    const path = join(dir, 'int.kubeconfig');
    const r = await runUntil(['--write-kubeconfig', path], path, 'SIGINT');
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(`export KUBECONFIG=${path}\n`);
    const server = serverOf(r.written);
    expect(server).toBeDefined();
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`sandbox stopped: removed ${path}, whose server ${server} no longer answers`);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('SIGTERM: exit 143, removed as well', async () => {
    const path = join(dir, 'term.kubeconfig');
    const r = await runUntil(['--write-kubeconfig', path], path, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toContain(`sandbox stopped: removed ${path}`);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('--kubeconfig still works, with a one-line deprecation warning first (both spellings)', async () => {
    for (const flags of [['--kubeconfig', join(dir, 'old-a.kubeconfig')], [`--kubeconfig=${join(dir, 'old-b.kubeconfig')}`]]) {
      const path = flags.length === 2 ? flags[1] : flags[0].slice('--kubeconfig='.length);
      const r = await runUntil(flags, path, 'SIGINT');
      expect(r.code, flags.join(' ')).toBe(130);
      expect(r.stderr.split('\n')[0]).toBe(
        'Warning: sandbox --kubeconfig is deprecated: it writes the file, where --kubeconfig everywhere else reads one; use --write-kubeconfig',
      );
      expect(r.stderr.match(/deprecated/g)).toHaveLength(1);
      expect(serverOf(r.written)).toBeDefined();
      expect(existsSync(path)).toBe(false);
    }
  }, 90_000);

  it('without --write-kubeconfig: an owner-only file under $XDG_RUNTIME_DIR, never in the working directory', async () => {
    const runtime = await mkdtemp(join(tmpdir(), 'sbx-runtime-'));
    try {
      const path = join(runtime, 'rs-reconcile-sandbox', 'kubeconfig');
      const r = await runUntil([], path, 'SIGINT', { XDG_RUNTIME_DIR: runtime });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe(`export KUBECONFIG=${path}\n`);
      expect(r.written).toContain('name: rs-reconcile-sandbox');
      expect(existsSync(join(ROOT, 'sandbox.kubeconfig'))).toBe(false);
      expect(existsSync(join(runtime, 'rs-reconcile-sandbox'))).toBe(false); // file and its directory gone
    } finally {
      await rm(runtime, { recursive: true, force: true });
    }
  }, 60_000);

  it('a file that is not a kubeconfig: one line, a non-zero exit, the file untouched', async () => {
    const path = join(dir, 'notes.yaml');
    await writeFile(path, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine}\n');
    const r = cli(['sandbox', '--nodes', '0', '--write-kubeconfig', path]);
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim()).toBe(
      `error: "${path}" is not a kubeconfig (kind ConfigMap, not Config): refusing to write into it; name another file with --write-kubeconfig`,
    );
    expect(await readFile(path, 'utf8')).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine}\n');
  }, 60_000);

  it('the seed is in --audit-log as creates: history after a sandbox session judges every controller write', async () => {
    const path = join(dir, 'hist.kubeconfig');
    const audit = join(dir, 'hist-audit.log');
    const child = spawn(
      process.execPath,
      [RUN_JS, 'sandbox', '--nodes', '3', '--seed', join(ROOT, 'examples', 'drifted-replicaset.yaml'), '--write-kubeconfig', path, '--audit-log', audit],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
    );
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (c) => {
        stderr += c;
        if (stderr.includes('Ctrl-C to stop.')) resolve();
      });
      child.on('exit', () => reject(new Error(`sandbox exited: ${stderr}`)));
    });
    const r = cli(['reconcile', '-n', 'shop', '--yes'], { env: { KUBECONFIG: path }, timeout: 120_000 });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(r.status, r.stderr).toBe(0);
    const h = cli(['history', `--audit-log=${audit}`, '-n', 'shop', '-o', 'json']);
    const events = JSON.parse(h.stdout).events as { verb: string; pod: string | null; actor: { controller: boolean }; predicted: boolean | null }[];
    const seeded = events.filter((e) => e.verb === 'create' && !e.actor.controller).map((e) => e.pod);
    expect(seeded).toEqual([null, 'shop-web-7xk2p', 'shop-web-9mfqz', 'shop-web-c4r8t', 'shop-web-debug', 'shop-web-manual']);
    const judged = events.filter((e) => e.actor.controller);
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.map((e) => `${e.verb} ${e.pod}: ${e.predicted}`).filter((v) => !v.endsWith(': true'))).toEqual([]);
  }, 180_000);

  it("the README's sandbox transcripts are what a fresh sandbox prints (ports, paths and ages aside)", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    let section = readme.slice(readme.indexOf('## Try it without a cluster: `sandbox`'));
    section = section.slice(0, section.indexOf('\n## ', 5));
    const blocks = [...section.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1].split('\n').filter(Boolean));
    const PROMPT = '~/rs-reconcile$ kubectl rs-reconcile ';
    const starts = blocks.filter((b) => b[0].startsWith(`${PROMPT}sandbox `));
    expect(starts).toHaveLength(2);
    const stopBlock = blocks.find((b) => b[0] === '^C' && b.length === 2);
    expect(stopBlock).toBeDefined();
    const home = await mkdtemp(join(tmpdir(), 'sbx-readme-home-'));
    const runtime = await mkdtemp(join(tmpdir(), 'sbx-readme-run-'));
    const userKubeconfig = join(home, '.kube', 'config');
    const userConfig =
      'apiVersion: v1\nkind: Config\nclusters: [{name: prod, cluster: {server: "https://prod.example:6443"}}]\nusers: [{name: me, user: {token: t}}]\ncontexts: [{name: prod, context: {cluster: prod, user: me}}]\ncurrent-context: prod\n';
    const normal = (t: string) =>
      t
        .replaceAll(runtime, '/run/user/1000')
        .replaceAll(home, '/home/me')
        .replace(/https:\/\/127\.0\.0\.1:\d+/g, 'https://127.0.0.1:PORT');
    try {
      await mkdir(join(home, '.kube'));
      await writeFile(userKubeconfig, userConfig);
      for (const block of starts) {
        const args = block[0].slice(`${PROMPT}sandbox `.length).replace('~/.kube/config', userKubeconfig).split(' ');
        const merging = args.includes('--write-kubeconfig');
        const kubeconfig = merging ? userKubeconfig : join(runtime, 'rs-reconcile-sandbox', 'kubeconfig');
        const getAt = block.indexOf('$ kubectl get rs,pods -n shop');
        // what the sandbox prints: up to the other shell's first command, and the Ctrl-C block after the first transcript
        const printed = (
          getAt >= 0
            ? [
                ...block.slice(
                  1,
                  block.findIndex((l) => l.startsWith('$ ')),
                ),
                ...stopBlock!.slice(1),
              ]
            : block.slice(1)
        )
          .filter((l) => l !== '^C')
          .map(normal);
        // the README runs the default --nodes (3)
        const r = await runUntil(args.includes('--nodes') ? args : [...args, '--nodes', '3'], kubeconfig, 'SIGINT', { XDG_RUNTIME_DIR: runtime }, () => {
          if (getAt < 0) return;
          const k = spawnSync('kubectl', ['get', 'rs,pods', '-n', 'shop'], {
            encoding: 'utf8',
            env: { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: kubeconfig },
          });
          const noAge = (l: string) => l.replace(/\s+\S+$/, '');
          expect(k.stdout.split('\n').filter(Boolean).map(noAge)).toEqual(block.slice(getAt + 1).map(noAge));
        });
        expect(r.code).toBe(130);
        const got = [...normal(r.stdout).split('\n'), ...normal(r.stderr).split('\n')].filter(Boolean);
        const port = (l: string) => l.replace(/https:\/\/127\.0\.0\.1:\d+/g, 'https://127.0.0.1:PORT');
        expect(
          got.filter((l) => l.startsWith('export ')),
          block[0],
        ).toEqual(printed.filter((l) => l.startsWith('export ')).map(port));
        expect(
          got.filter((l) => !l.startsWith('export ')),
          block[0],
        ).toEqual(printed.filter((l) => !l.startsWith('export ')).map(port));
      }
      expect(parseYaml(await readFile(userKubeconfig, 'utf8'))).toEqual(parseYaml(userConfig));
    } finally {
      await rm(home, { recursive: true, force: true });
      await rm(runtime, { recursive: true, force: true });
    }
  }, 120_000);

  it('--help names --write-kubeconfig', () => {
    const r = cli(['sandbox', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {4}--write-kubeconfig='':\n {8}The kubeconfig to merge the sandbox into \(made if absent; its entries taken out again/m);
    expect(r.stdout).toMatch(/^ {4}--name='':\n {8}The sandbox's name: its cluster, user and context are rs-reconcile-NAME/m);
    expect(r.stdout).not.toMatch(/^ {4}--kubeconfig/m); // the deprecated spelling is not advertised
  });
});
