#!/usr/bin/env node
'use strict';
// kubectl-rs_reconcile / rs-reconcile as npm installs them: a CommonJS entry, so a start needs no
// ESM loader (about a fifth of a start on Node 20, issue 20). It runs the commands from the
// bundle's single file (dist/bundle/boot.cjs → main.cjs, without oclif's start) when the bundle is
// there and current; anything else, and whatever the single file leaves to oclif (other help
// forms, --version, unknown commands), goes to bin/run.js as before.
const { statSync } = require('node:fs');
const { join } = require('node:path');

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** bin/run.js's rule: the bundle unless RS_RECONCILE_NO_BUNDLE=1 or it is older than the tsc output. */
function direct() {
  if (process.env.RS_RECONCILE_NO_BUNDLE === '1' || process.env.RS_RECONCILE_NO_FAST === '1') return false;
  const built = mtime(join(__dirname, '..', 'dist', 'bundle', 'boot.cjs'));
  if (built === null) return false;
  const compiled = mtime(join(__dirname, '..', 'dist', 'commands', 'diff.js'));
  return compiled === null || compiled <= built;
}

const oclif = () => {
  globalThis.__rsDirectTried = true; // bin/run.js does not try the single file again
  return import('./run.js');
};

if (direct()) {
  require('../dist/bundle/boot.cjs')
    .run(process.argv.slice(2))
    .then((handled) => handled || oclif());
} else {
  oclif();
}
