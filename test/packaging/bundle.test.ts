// The esbuild bundle (dist/bundle): one entry per command, oclif's manifest pointing at them, the
// same output as the plain tsc build, and the heavy packages loaded only where they are needed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, EXAMPLE, NOW, ROOT, RUN_JS, bundleMeta, ensureBundle, loadedBy, node, packagesIn, staticClosure } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const HEAVY = ['@kubernetes/client-node', 'ink', 'react', 'yoga-layout'];
const manifest = () => JSON.parse(readFileSync(join(BUNDLE, 'oclif.manifest.json'), 'utf8'));

describe('bundle layout', () => {
  it('has one ESM entry per command of src/commands, and the manifest points at them', () => {
    const ids = readdirSync(join(ROOT, 'src', 'commands'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const m = manifest();
    expect(Object.keys(m.commands).sort()).toEqual(ids);
    for (const id of ids) {
      const cmd = m.commands[id];
      expect(cmd.isESM).toBe(true);
      expect(cmd.relativePath).toEqual(['commands', `${id}.js`]);
      expect(existsSync(join(BUNDLE, ...cmd.relativePath)), id).toBe(true);
    }
    // the root manifest (plain build) and the bundle's describe the same commands and flags
    const plain = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'));
    for (const id of ids) expect(Object.keys(m.commands[id].flags)).toEqual(Object.keys(plain.commands[id].flags));
  });

  it('is its own oclif root: package.json with the bundle paths, the same version', () => {
    const pkg = JSON.parse(readFileSync(join(BUNDLE, 'package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: root.name, version: root.version, type: 'module' });
    expect(pkg.oclif).toMatchObject({ commands: './commands', helpClass: './help.js', bin: 'kubectl-rs_reconcile' });
    expect(existsSync(join(BUNDLE, 'help.js'))).toBe(true);
    // -h, and cobra's answer to an unknown command, from the bundle as from the plain build
    expect(pkg.oclif).toMatchObject({ additionalHelpFlags: ['-h'], hooks: { command_not_found: './hooks/command_not_found.js' } });
    expect(existsSync(join(BUNDLE, 'hooks', 'command_not_found.js'))).toBe(true);
    expect(manifest().version).toBe(root.version);
  });

  it('imports nothing from node_modules: every external import is a Node.js built-in (or an optional peer never loaded)', () => {
    const optional = new Set(['react-devtools-core', 'bufferutil', 'utf-8-validate', 'encoding', 'typescript']);
    const externals = new Set(Object.values(bundleMeta().outputs).flatMap((o) => o.externals));
    expect(externals.size).toBeGreaterThan(0);
    for (const spec of externals) expect(spec.startsWith('node:') || builtinModules.includes(spec) || optional.has(spec), spec).toBe(true);
  });

  it('keeps @kubernetes/client-node and ink/React out of the static graph of --help, diff, explain and version', () => {
    const meta = bundleMeta();
    for (const entry of ['run.js', 'help.js', 'commands/diff.js', 'commands/explain.js', 'commands/version.js', 'commands/completion.js']) {
      const pkgs = packagesIn(
        staticClosure(entry, meta).map((f) => join(BUNDLE, f)),
        meta,
      );
      for (const heavy of HEAVY) expect(pkgs.has(heavy), `${entry} statically reaches ${heavy}`).toBe(false);
    }
    // … while they are in the bundle (for the commands that need them)
    const all = new Set(Object.values(meta.outputs).flatMap((o) => o.packages));
    expect(all.has('@kubernetes/client-node')).toBe(true);
    expect(all.has('ink')).toBe(true);
  });

  it('prom-client is loaded by `run` only, once it runs: not by any other command, nor by `run --help`', () => {
    const meta = bundleMeta();
    const entries = ['run.js', 'help.js', ...Object.keys(manifest().commands).map((id) => `commands/${id}.js`)];
    for (const entry of entries) {
      const pkgs = packagesIn(
        staticClosure(entry, meta).map((f) => join(BUNDLE, f)),
        meta,
      );
      expect(pkgs.has('prom-client'), `${entry} statically reaches prom-client`).toBe(false);
    }
    const all = new Set(Object.values(meta.outputs).flatMap((o) => o.packages));
    expect(all.has('prom-client')).toBe(true);
  });
});

describe('running the bundle', () => {
  // (RS_RECONCILE_NO_FAST=1: oclif's path through the ESM bundle, which runs whatever the single
  // file leaves to it; the single file itself is test/packaging/startup.test.ts's)
  it('bin/run.js runs the bundle when it is there', () => {
    const { result, esm } = loadedBy(['version'], { RS_RECONCILE_NO_FAST: '1' });
    expect(result.status).toBe(0);
    expect(esm).toContain(join(BUNDLE, 'run.js'));
    expect(esm).toContain(join(BUNDLE, 'commands', 'version.js'));
    expect(esm.some((f) => f.startsWith(join(ROOT, 'dist', 'commands')))).toBe(false);
  });

  it('RS_RECONCILE_NO_BUNDLE=1 runs the plain tsc output instead', () => {
    const { result, esm } = loadedBy(['version'], { RS_RECONCILE_NO_BUNDLE: '1' });
    expect(result.status).toBe(0);
    expect(esm).toContain(join(ROOT, 'dist', 'commands', 'version.js'));
    expect(esm.some((f) => f.startsWith(BUNDLE))).toBe(false);
  });

  it('prints the same plans as the plain build for every example', () => {
    for (const f of readdirSync(join(ROOT, 'examples'))) {
      const args = ['diff', '-f', join(ROOT, 'examples', f), '-A', '-o', 'json', '--now', NOW];
      const bundled = node(join(BUNDLE, 'run.js'), args);
      const plain = node(RUN_JS, args, { RS_RECONCILE_NO_BUNDLE: '1' });
      expect(bundled.stdout, f).toBe(plain.stdout);
      expect(bundled.status, f).toBe(plain.status);
      expect([0, 1, 2]).toContain(bundled.status);
    }
    // 2 processes per example, one after another: as below, more than the default on a loaded machine
  }, 180_000);

  it('draws the same coloured tables as the plain build', () => {
    for (const f of readdirSync(join(ROOT, 'examples'))) {
      for (const extra of [[], ['-o', 'wide']]) {
        const args = ['diff', '-f', join(ROOT, 'examples', f), '-A', ...extra, '--now', NOW];
        const env = { FORCE_COLOR: '1', NO_COLOR: undefined };
        const bundled = node(join(BUNDLE, 'run.js'), args, env);
        const plain = node(RUN_JS, args, { ...env, RS_RECONCILE_NO_BUNDLE: '1' });
        expect(bundled.stdout, `${f} ${extra.join(' ')}`).toBe(plain.stdout);
        expect(bundled.stdout).toContain('\u001b[');
      }
    }
    // 4 processes per example, one after another: a loaded 2-core machine needs more than the default
  }, 180_000);

  it('--help and explain work from the bundle', () => {
    const help = node(join(BUNDLE, 'run.js'), ['--help']);
    expect(help.status).toBe(0);
    for (const id of Object.keys(manifest().commands)) expect(help.stdout).toContain(`  ${id} `);
    const explain = node(join(BUNDLE, 'run.js'), ['explain', 'shop-web', '-f', EXAMPLE, '--now', NOW]);
    expect(explain.status).toBe(0); // a describe: 0 once explained (--exit-code for diff's codes)
    expect(explain.stdout).toContain('shop-web-manual');
  });
});

describe('lazy loading (a loader hook records every module loaded)', () => {
  const heavyLoaded = (files: string[]) => {
    const pkgs = packagesIn(files);
    const fromNodeModules = files.filter((f) => /node_modules\/(@kubernetes\/client-node|ink|react|yoga-layout)\//.test(f));
    return [...HEAVY.filter((p) => pkgs.has(p)), ...fromNodeModules];
  };

  for (const [label, args] of [
    ['--help', ['--help']],
    ['diff -f', ['diff', '-f', EXAMPLE, '--now', NOW]],
    ['diff --help', ['diff', '--help']],
  ] as const) {
    it(`the bundle loads neither the Kubernetes client nor ink/React, nor anything from node_modules, for ${label}`, () => {
      const { result, esm, cjs } = loadedBy([...args], { RS_RECONCILE_NO_FAST: '1' });
      expect([0, 1]).toContain(result.status);
      expect(esm).toContain(join(BUNDLE, 'run.js'));
      expect(heavyLoaded([...esm, ...cjs])).toEqual([]);
      expect([...esm, ...cjs].filter((f) => f.includes('/node_modules/'))).toEqual([]);
    });

    it(`the plain build does not load them either for ${label}`, () => {
      const { result, esm, cjs } = loadedBy([...args], { RS_RECONCILE_NO_BUNDLE: '1' });
      expect([0, 1]).toContain(result.status);
      expect(esm).toContain(join(ROOT, 'bin', 'run.js'));
      expect(esm.some((f) => f.startsWith(BUNDLE))).toBe(false);
      expect(cjs.some((f) => f.includes('/node_modules/@oclif/core/lib/'))).toBe(true); // the log sees CommonJS too
      expect(heavyLoaded([...esm, ...cjs])).toEqual([]);
    });
  }

  it('--help loads no command module, diff -f only its own', () => {
    const help = loadedBy(['--help'], { RS_RECONCILE_NO_FAST: '1' });
    expect(help.esm.filter((f) => f.startsWith(join(BUNDLE, 'commands')))).toEqual([]);
    const diff = loadedBy(['diff', '-f', EXAMPLE, '--now', NOW], { RS_RECONCILE_NO_FAST: '1' });
    expect(diff.esm.filter((f) => f.startsWith(join(BUNDLE, 'commands')))).toEqual([join(BUNDLE, 'commands', 'diff.js')]);
  });

  it('reading a live cluster does load the Kubernetes client (the check can see it)', () => {
    const { result, esm } = loadedBy(['diff', '--request-timeout', '1s'], {
      RS_RECONCILE_NO_FAST: '1',
      KUBECONFIG: join(ROOT, 'test', 'packaging', 'fixtures', 'unreachable.kubeconfig'),
    });
    expect(result.status).toBe(2);
    expect(packagesIn(esm).has('@kubernetes/client-node')).toBe(true);
  });
});
