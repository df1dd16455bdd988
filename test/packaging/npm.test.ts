// The npm package: what `npm pack` puts in the tarball, and `npm install -g` of it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, NOW, ROOT, RUN_JS, baseEnv, ensureBundle, node, tempDir } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** npm without the build of prepack (the tests run on the build already made). */
function npm(args: string[], opts: { cwd?: string; timeout?: number } = {}) {
  const r = spawnSync('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    timeout: opts.timeout ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('npm pack', () => {
  let files: string[];
  beforeAll(() => {
    const r = npm(['pack', '--dry-run', '--json']);
    if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
    files = JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path);
  }, 120_000);

  it('ships the launchers, the bundle, examples and docs', () => {
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'bin/run.js',
      'bin/complete.js',
      'bin/run.cjs',
      'bin/complete.cjs',
      'dist/bundle/run.js',
      'dist/bundle/main.cjs',
      'dist/bundle/boot.cjs',
      'dist/bundle/package.json',
      'dist/bundle/oclif.manifest.json',
      'dist/bundle/help.js',
      'dist/bundle/commands/diff.js',
      'dist/bundle/THIRD-PARTY-NOTICES.txt',
      'dist/bundle/history-page.js',
      'examples/drifted-replicaset.yaml',
      'docs/commands.md',
    ]) {
      expect(files, f).toContain(f);
    }
    for (const id of Object.keys(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).commands))
      expect(files).toContain(`dist/bundle/commands/${id}.js`);
  });

  it('ships no tests, no TypeScript sources, no unbundled build, no bench cache and no release archives', () => {
    const bad = files.filter(
      (f) =>
        f.startsWith('test/') ||
        f.startsWith('src/') ||
        /\.tsx?$/.test(f) ||
        f.startsWith('.bench-cache') ||
        f.startsWith('bench/') ||
        f.startsWith('release/') ||
        f.startsWith('scripts/') ||
        f.startsWith('plugins/') ||
        f.startsWith('deploy/') ||
        f.startsWith('node_modules/') ||
        f.endsWith('.tgz') ||
        f.endsWith('.tar.gz') ||
        (f.startsWith('dist/') && !f.startsWith('dist/bundle/')),
    );
    expect(bad).toEqual([]);
  });

  it('declares no runtime dependency: what builds and tests the bundle is a devDependency', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.bundleDependencies ?? pkg.bundledDependencies ?? []).toEqual([]);
  });

  it('declares the three executables', () => {
    // CommonJS entries (no ESM loader at start-up); bin/run.js is the checkout's way into the same file
    expect(pkg.bin).toEqual({ 'kubectl-rs_reconcile': 'bin/run.cjs', 'rs-reconcile': 'bin/run.cjs', 'kubectl_complete-rs_reconcile': 'bin/complete.cjs' });
    for (const f of Object.values(pkg.bin) as string[]) expect(readFileSync(join(ROOT, f), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});

describe('npm install -g of the packed tarball', () => {
  const NETWORK = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH)|ENOTCACHED|network|socket hang up|request to .* failed/i;

  it('installs the three executables, which run the bundle', (ctx) => {
    const dir = tempDir('rs-npm-');
    const packed = npm(['pack', '--pack-destination', dir, '--json']);
    expect(packed.status).toBe(0);
    const tgz = join(dir, JSON.parse(packed.stdout)[0].filename);
    const prefix = join(dir, 'prefix');
    // from the npm cache when it has everything, else from the registry
    let install = npm(['install', '-g', '--prefix', prefix, '--offline', tgz], { timeout: 240_000 });
    if (install.status !== 0) install = npm(['install', '-g', '--prefix', prefix, '--prefer-offline', tgz], { timeout: 240_000 });
    if (install.status !== 0 && NETWORK.test(install.stderr)) {
      ctx.skip(true, `npm could not reach the registry: ${install.stderr.split('\n').find((l) => NETWORK.test(l)) ?? ''}`);
      return;
    }
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    // the bundle is the whole program: npm installs no dependency beside it
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'rs-reconcile', 'node_modules'))).toBe(false);
    const bin = join(prefix, 'bin');
    expect(readdirSync(bin).sort()).toEqual(['kubectl-rs_reconcile', 'kubectl_complete-rs_reconcile', 'rs-reconcile']);
    const env = baseEnv({ PATH: `${bin}:${process.env.PATH}` });
    const args = ['diff', '-f', EXAMPLE, '-o', 'json', '--now', NOW];
    const installed = spawnSync(join(bin, 'kubectl-rs_reconcile'), args, { cwd: dir, encoding: 'utf8', env });
    expect(installed.status).toBe(1);
    expect(installed.stdout).toBe(node(RUN_JS, args).stdout);
    const help = spawnSync(join(bin, 'kubectl-rs_reconcile'), ['explain', '--help'], { cwd: dir, encoding: 'utf8', env });
    expect(help.stdout).toContain('Usage:\n  kubectl rs-reconcile explain NAME [flags]');
    const version = spawnSync(join(bin, 'rs-reconcile'), ['version', '-o', 'json'], { cwd: dir, encoding: 'utf8', env });
    expect(JSON.parse(version.stdout).rsReconcile).toBe(pkg.version);
    const complete = spawnSync(join(bin, 'kubectl_complete-rs_reconcile'), ['diff', '-o', ''], { cwd: dir, encoding: 'utf8', env });
    expect(complete.stdout).toBe('json\nyaml\nwide\nname\n:4\n');
    // history -o html inlines the page script the package carries (dist/bundle/history-page.js)
    const page = spawnSync(
      join(bin, 'rs-reconcile'),
      ['history', '--audit-log', join(ROOT, 'test', 'history', 'fixtures', 'demo-audit.jsonl'), '-A', '-o', 'html'],
      { cwd: dir, encoding: 'utf8', env },
    );
    expect(page.status, page.stderr).toBe(0);
    expect(page.stdout).toContain('<script type="application/json" id="history-document">');
    expect(page.stdout).toContain(readFileSync(join(ROOT, 'dist', 'bundle', 'history-page.js'), 'utf8').slice(0, 200));
  }, 300_000);
});
