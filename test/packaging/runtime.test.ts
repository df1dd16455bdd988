// The runtime the project is installed, built and shipped on: every dependency whose install
// script runs is approved in package.json's allowScripts (npm 11 warns at `npm ci` about any
// other), the build asks no tool for its updates, and the single executables embed a maintained
// Node.js line (docs/startup.md, Which Node.js the executables embed).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script, without types
import { SEA_TARGETS } from '../../scripts/sea.mjs';
import { ROOT, ensureBundle } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));

describe('npm ci', () => {
  it('every package of the lockfile with an install script is approved in allowScripts, and nothing else is', () => {
    const scripted = Object.entries<{ hasInstallScript?: boolean }>(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(scripted.length).toBeGreaterThan(0); // esbuild's postinstall at least
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(scripted)].sort());
    for (const name of scripted) expect(pkg.allowScripts[name], name).toBe(true);
  });
});

describe('npm run build', () => {
  it("runs the oclif dev tool without its update check (oclif 6 needs Node 22, above this package's oldest)", () => {
    expect(pkg.scripts.build).toMatch(/(^|&& )OCLIF_SKIP_NEW_VERSION_CHECK=true oclif manifest( |$)/);
    expect(pkg.devDependencies.oclif).toMatch(/^~4\./);
  });
});

describe('the single executables', () => {
  const major = (v: string) => Number(v.split('.')[0]);

  it('embed Node.js 24 or newer, an LTS line, on every platform', () => {
    const targets = Object.entries<{ pkg: string; version: string }>(SEA_TARGETS);
    expect(targets.map(([p]) => p).sort()).toEqual(['darwin/amd64', 'darwin/arm64', 'linux/amd64', 'linux/arm64', 'windows/amd64']);
    for (const [platform, t] of targets) {
      expect(major(t.version), platform).toBeGreaterThanOrEqual(24);
      expect(major(t.version) % 2, `${platform}: ${t.version} is not an LTS line`).toBe(0);
      expect(t.pkg, platform).toMatch(/^node-(bin-)?(linux|darwin|win)-(x64|arm64)$/);
    }
  });

  it('all embed one Node.js line, the one the npm package also supports', () => {
    const lines = new Set(Object.values<{ version: string }>(SEA_TARGETS).map((t) => major(t.version)));
    expect(lines.size).toBe(1);
    const oldest = Number(/^>=(\d+)/.exec(pkg.engines.node)?.[1]);
    expect([...lines][0]).toBeGreaterThanOrEqual(oldest);
  });
});

describe('the bundled files', () => {
  const warnings = (load: string) => {
    const script = `${load}
process.emitWarning('punycode', 'DeprecationWarning', 'DEP0040');
process.emitWarning('url.parse', { type: 'DeprecationWarning', code: 'DEP0169' });
process.emitWarning('another', 'DeprecationWarning', 'DEP0999');
process.emitWarning('plain');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stderr.split('\n').filter((l) => /Warning:/.test(l));
  };
  const others = [expect.stringMatching(/\[DEP0999\] DeprecationWarning: another$/), expect.stringMatching(/ Warning: plain$/)];

  it('drop the two deprecation warnings of node-fetch 2 (punycode, url.parse), and no other', () => {
    ensureBundle();
    // without a bundled file loaded, all four are printed: the filter is the bundle's
    expect(warnings('')).toHaveLength(4);
    const cjs = (f: string) => `import { createRequire } from 'node:module'; createRequire(import.meta.url)('./dist/bundle/${f}');`;
    for (const f of ['heavy.cjs', 'main.cjs']) expect(warnings(cjs(f)), f).toEqual(others);
    const chunk = readdirSync(join(ROOT, 'dist', 'bundle', 'chunks')).find((f) => f.endsWith('.js'));
    const text = readFileSync(join(ROOT, 'dist', 'bundle', 'chunks', String(chunk)), 'utf8');
    expect(text).toContain("if (c === 'DEP0040' || c === 'DEP0169') return;");
  }, 300_000);
});
