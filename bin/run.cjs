#!/usr/bin/env node
'use strict';
// The one entry of the CLI: npm's bins (kubectl-rs_reconcile, rs-reconcile, and through
// bin/complete.cjs kubectl_complete-rs_reconcile) and the checkout's `node bin/run.js` (which
// requires this file) start here. CommonJS, so a start needs no ESM loader.
//
//   the bundle, when it is there and not older than the tsc output in dist/ (a `tsc -w` after the
//   last build), and RS_RECONCILE_NO_BUNDLE is not 1:
//     dist/bundle/boot.cjs runs the words (light.cjs, a hot command's own file, or main.cjs); the
//     krew single executable runs the same boot (sea-start.cjs). What it leaves to oclif (other
//     help forms, --version, unknown commands), or everything under RS_RECONCILE_NO_FAST=1 (the
//     tests compare the two), goes to oclif's execute in the bundle (dist/bundle/run.js);
//   else: oclif's execute on the plain tsc output (dist/commands).
const { statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const bundle = join(__dirname, '..', 'dist', 'bundle');

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function useBundle() {
  if (process.env.RS_RECONCILE_NO_BUNDLE === '1') return false;
  const built = mtime(join(bundle, 'boot.cjs'));
  if (built === null) return false;
  const compiled = mtime(join(__dirname, '..', 'dist', 'commands', 'diff.js'));
  return compiled === null || compiled <= built;
}

/** oclif's execute: the bundle's own oclif root, or the package's (package.json, dist/commands). */
function oclif(root) {
  if (root) return import(pathToFileURL(join(root, 'run.js')).href);
  return import('@oclif/core').then(({ execute }) => execute({ dir: __filename }));
}

if (!useBundle()) oclif(null);
else if (process.env.RS_RECONCILE_NO_FAST === '1') oclif(bundle);
else
  require(join(bundle, 'boot.cjs'))
    .run(process.argv.slice(2))
    .then((handled) => handled || oclif(bundle));
