// The krew release: per-platform archives that run on their own, and the Plugin manifest.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, NOW, ROOT, RUN_JS, baseEnv, ensureBundle, isolatedBase, node, noNodeModulesAbove, tempDir } from './helpers.js';
import { skipAllIf } from '../skips.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const VERSION = pkg.version as string;
const PLATFORMS = ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64'];
// the single executables (the default of `npm run release`) add windows
const SEA_PLATFORMS = [...PLATFORMS, 'windows/amd64'];
const archiveName = (p: string) => `rs-reconcile-${VERSION}-${p.replace('/', '-')}.tar.gz`;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let out: string;
let manifestFile: string;

/** The manifest fields krew requires, for any manifest we ship (single executables, or JavaScript with --no-sea). */
function expectValidPlugin(plugin: any) {
  const sea = plugin.spec.platforms.length === SEA_PLATFORMS.length;
  expect(plugin.apiVersion).toBe('krew.googlecontainertools.github.com/v1alpha2');
  expect(plugin.kind).toBe('Plugin');
  expect(plugin.metadata).toEqual({ name: 'rs-reconcile' });
  const spec = plugin.spec;
  expect(spec.version).toBe(`v${VERSION}`);
  expect(spec.homepage).toMatch(/^https:\/\//);
  expect(typeof spec.shortDescription).toBe('string');
  expect(spec.shortDescription.length).toBeGreaterThan(10);
  expect(spec.shortDescription.length).toBeLessThanOrEqual(50); // krew-index asks for short ones
  expect(spec.description).toContain('kubectl rs-reconcile');
  expect(spec.caveats).toMatch(sea ? /needs no Node\.js/ : /Node\.js 20\.19 or newer/);
  expect(spec.platforms.map((p: any) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`)).toEqual(sea ? SEA_PLATFORMS : PLATFORMS);
  for (const p of spec.platforms) {
    expect(Object.keys(p.selector)).toEqual(['matchLabels']);
    expect(p.uri).toMatch(new RegExp(`^https://.+/${archiveName(`${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`).replace(/\./g, '\\.')}$`));
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(p.bin).toBe(p.selector.matchLabels.os === 'windows' ? 'kubectl-rs_reconcile.exe' : 'kubectl-rs_reconcile');
    expect(p.files).toEqual([{ from: '*', to: '.' }]);
  }
}

beforeAll(() => {
  ensureBundle();
  out = tempDir('rs-release-');
  manifestFile = join(out, 'rs-reconcile.yaml');
  // --no-sea: the JavaScript archives (the single executables are test/packaging/sea.test.ts's)
  const r = node(join(ROOT, 'scripts', 'release.mjs'), ['--out', out, '--manifest', manifestFile, '--quiet', '--no-sea']);
  if (r.status !== 0) throw new Error(`release failed: ${r.stderr}`);
}, 300_000);

describe('release archives', () => {
  it('writes one archive per platform', () => {
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.tar.gz'))
        .sort(),
    ).toEqual(PLATFORMS.map(archiveName).sort());
  });

  it('holds the launcher, the completion helper, the bundle, examples and LICENSE/README', () => {
    const list = spawnSync('tar', ['-tvzf', join(out, archiveName('linux/amd64'))], { encoding: 'utf8' });
    expect(list.status).toBe(0);
    const entries = list.stdout.split('\n').filter(Boolean);
    const mode = (name: string) => entries.find((l) => l.endsWith(` ${name}`))?.split(/\s+/)[0];
    expect(mode('kubectl-rs_reconcile')).toBe('-rwxr-xr-x');
    expect(mode('kubectl_complete-rs_reconcile')).toBe('-rwxr-xr-x');
    for (const f of [
      'LICENSE',
      'README.md',
      'lib/start.cjs',
      'lib/run.js',
      'lib/package.json',
      'lib/oclif.manifest.json',
      'lib/help.js',
      'lib/commands/diff.js',
      'lib/THIRD-PARTY-NOTICES.txt',
      'examples/drifted-replicaset.yaml',
    ]) {
      expect(mode(f), f).toBe('-rw-r--r--');
    }
    expect(entries.some((l) => /node_modules|\.ts$|\/src\//.test(l))).toBe(false);
  });

  it('is reproducible: the same bundle gives the same bytes', () => {
    const again = tempDir('rs-release2-');
    const r = node(join(ROOT, 'scripts', 'release.mjs'), [
      '--out',
      again,
      '--manifest',
      join(again, 'm.yaml'),
      '--quiet',
      '--no-sea',
      '--platforms',
      'linux/amd64',
    ]);
    expect(r.status).toBe(0);
    expect(sha256(join(again, archiveName('linux/amd64')))).toBe(sha256(join(out, archiveName('linux/amd64'))));
  });
});

describe('the krew manifest', () => {
  it('written by the release script: every field, and each sha256 is that of its archive', () => {
    const plugin = parse(readFileSync(manifestFile, 'utf8'));
    expectValidPlugin(plugin);
    for (const p of plugin.spec.platforms) {
      const file = join(out, archiveName(`${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`));
      expect(p.sha256).toBe(sha256(file));
      expect(p.uri.endsWith(`/v${VERSION}/${archiveName(`${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`)}`)).toBe(true);
    }
  });

  it('plugins/rs-reconcile.yaml in the repository is a valid manifest of this version', () => {
    expectValidPlugin(parse(readFileSync(join(ROOT, 'plugins', 'rs-reconcile.yaml'), 'utf8')));
  });
});

const base = isolatedBase();

describe('an unpacked archive, alone', () => {
  skipAllIf(base === null ? 'every temp location has a node_modules above it: an archive cannot be tried alone' : null);
  let dir: string;
  let nodeDir: string;
  beforeAll(() => {
    if (base === null) return;
    dir = tempDir('rs-krew-', base!);
    expect(noNodeModulesAbove(dir)).toBe(true);
    const x = spawnSync('tar', ['-xzf', join(out, archiveName('linux/amd64')), '-C', dir]);
    expect(x.status).toBe(0);
    copyFileSync(EXAMPLE, join(dir, 'snap.yaml'));
    nodeDir = dirname(process.execPath);
  });
  // only node and the base system on PATH: nothing of the repository
  const env = (extra: Record<string, string | undefined> = {}) => baseEnv({ PATH: `${nodeDir}:/usr/bin:/bin`, NODE_PATH: undefined, ...extra });
  const launch = (args: string[], extra: Record<string, string | undefined> = {}) =>
    spawnSync(join(dir, 'kubectl-rs_reconcile'), args, { cwd: dir, encoding: 'utf8', env: env(extra) });

  it('runs diff on a snapshot exactly as the repository does', () => {
    const args = ['diff', '-f', 'snap.yaml', '-o', 'json', '--now', NOW];
    const alone = launch(args);
    const repo = node(RUN_JS, ['diff', '-f', EXAMPLE, '-o', 'json', '--now', NOW]);
    expect(alone.stderr).toBe('');
    expect(alone.status).toBe(1);
    expect(alone.stdout).toBe(repo.stdout);
    expect(JSON.parse(alone.stdout).summary).toMatchObject({ controllers: 1, adopt: 1, release: 1, create: 1 });
  });

  it('runs explain, version and help, as "kubectl rs-reconcile"', () => {
    const explain = launch(['explain', 'shop-web', '-f', 'examples/drifted-replicaset.yaml', '--now', NOW]);
    expect(explain.status).toBe(0); // a describe: 0 once explained (--exit-code for diff's codes)
    expect(explain.stdout).toContain('shop-web-manual');
    expect(launch(['version']).stdout).toContain(`rs-reconcile ${VERSION}`);
    const help = launch(['diff', '--help']);
    expect(help.stdout).toContain('Usage:\n  kubectl rs-reconcile diff [NAME...] [flags]');
  });

  it('works through a symlink, as krew links it into its bin directory', () => {
    const bin = tempDir('rs-krewbin-', dirname(dir));
    spawnSync('ln', ['-s', join(dir, 'kubectl-rs_reconcile'), join(bin, 'kubectl-rs_reconcile')]);
    spawnSync('ln', ['-s', join(dir, 'kubectl_complete-rs_reconcile'), join(bin, 'kubectl_complete-rs_reconcile')]);
    const r = spawnSync('kubectl-rs_reconcile', ['version', '-o', 'json'], {
      cwd: bin,
      encoding: 'utf8',
      env: env({ PATH: `${bin}:${nodeDir}:/usr/bin:/bin` }),
    });
    expect(JSON.parse(r.stdout).rsReconcile).toBe(VERSION);
    const c = spawnSync('kubectl_complete-rs_reconcile', ['diff', '-o', ''], {
      cwd: bin,
      encoding: 'utf8',
      env: env({ PATH: `${bin}:${nodeDir}:/usr/bin:/bin` }),
    });
    expect(c.stdout).toBe('json\nyaml\nwide\nname\n:4\n');
  });

  it('says in one line that Node.js is missing, or too old', () => {
    const missing = launch(['version'], { RS_RECONCILE_NODE: join(dir, 'no-such-node') });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^error: kubectl rs-reconcile needs Node\.js >= 20\.19 on PATH/);
    // a node that reports 18.20.0
    const fake = join(dir, 'old-node');
    const preload = join(dir, 'old.cjs');
    writeFileSync(
      preload,
      "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.0' } });\nObject.defineProperty(process, 'version', { value: 'v18.20.0' });\n",
    );
    writeFileSync(fake, `#!/bin/sh\nexec "${process.execPath}" -r "${preload}" "$@"\n`);
    chmodSync(fake, 0o755);
    const old = launch(['version'], { RS_RECONCILE_NODE: fake });
    expect(old.status).toBe(2);
    expect(old.stdout).toBe('');
    expect(old.stderr.trim().split('\n')).toHaveLength(1);
    expect(old.stderr).toMatch(/needs Node\.js >= 20\.19, but .* is v18\.20\.0/);
  });

  it('contains no JavaScript from outside the archive', () => {
    const lib = join(dir, 'lib');
    const files = readdirSync(lib, { recursive: true }) as string[];
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
    expect(existsSync(join(lib, 'run.js')) && statSync(join(lib, 'run.js')).size > 0).toBe(true);
  });
});
