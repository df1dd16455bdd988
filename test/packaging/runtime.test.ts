// The runtime the project is installed and built on: every dependency whose install script runs
// is approved in package.json's allowScripts (npm 11 warns at `npm ci` about any other), and the
// build asks no tool for its updates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

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
