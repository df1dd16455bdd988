#!/usr/bin/env node
// kubectl-rs_reconcile / rs-reconcile: oclif loads only the command that runs (manifest-driven).
// `npm run build` also bundles the CLI into dist/bundle/ (scripts/bundle.mjs): a self-contained
// oclif root that starts several times faster. It runs when present and not older than the plain
// tsc output in dist/ (a `tsc -w` after the last build), or unless RS_RECONCILE_NO_BUNDLE=1.
// The bundle's single file (dist/bundle/boot.cjs → main.cjs) runs the commands and their --help
// directly, without oclif's start; what it leaves (other help forms, --version, unknown commands)
// goes to oclif. RS_RECONCILE_NO_FAST=1 skips it (the tests compare the two). npm's bins are
// bin/run.cjs and bin/complete.cjs (CommonJS: no ESM loader), which end here for oclif's path.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';

const bundle = new URL('../dist/bundle/run.js', import.meta.url);

function mtime(url) {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return null;
  }
}

function useBundle() {
  if (process.env.RS_RECONCILE_NO_BUNDLE === '1') return false;
  const built = mtime(bundle);
  if (built === null) return false;
  const compiled = mtime(new URL('../dist/commands/diff.js', import.meta.url));
  return compiled === null || compiled <= built;
}

async function direct() {
  if (process.env.RS_RECONCILE_NO_FAST === '1' || globalThis.__rsDirectTried) return false;
  const start = new URL('../dist/bundle/boot.cjs', import.meta.url);
  if (mtime(start) === null) return false;
  return createRequire(import.meta.url)(start.pathname).run(process.argv.slice(2));
}

if (useBundle()) {
  if (!(await direct())) await import(bundle.href);
} else {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
