#!/usr/bin/env node
// `npm test`: build the CLI, run every vitest suite (unit, integration over HTTP, end-to-end on
// the built CLI), then the shared plan contract checker against bin/run.js, and print one
// closing line `N passed, N failed` (vitest does not print that form).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });

const build = run('npm', ['run', '--silent', 'build']);
if (build.status !== 0) {
  console.log('build failed');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'rs-test-'));
const dir0 = () => dir;
const report = join(dir, 'vitest.json');
const extra = process.argv.slice(2);
const vitest = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);
let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0);
} else {
  failed += 1;
}
if (vitest.status !== 0 && failed === 0) failed += 1; // a crash or an unhandled error

// The integration suite in TEST_KUBECONFIG mode, against a sandbox started as a separate
// process and reached only through its kubeconfig, as a real cluster would be.
if (extra.length === 0) {
  console.log('\nintegration tests in real-cluster mode (TEST_KUBECONFIG):');
  const { spawn } = await import('node:child_process');
  const kc = join(dir0(), 'real.kubeconfig');
  const server = spawn(process.execPath, [join(root, 'bin', 'run.js'), 'sandbox', '--nodes', '0', '--kubeconfig', kc], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => server.stdout.once('data', resolve));
  const out = join(dir0(), 'real.json');
  run('npx', ['vitest', 'run', 'test/integration/reconcile.test.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], { env: { ...process.env, TEST_KUBECONFIG: kc } });
  server.kill('SIGINT');
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
  } else failed += 1;
}

// The shared plan contract, run against the built CLI exactly as its README says.
const checker = join(root, '..', 'shared', 'contract', 'check.mjs');
if (existsSync(checker) && extra.length === 0) {
  console.log('\nplan contract (../shared/contract):');
  const c = spawnSync(process.execPath, [checker, root], { cwd: root, encoding: 'utf8' });
  process.stdout.write(c.stdout);
  process.stderr.write(c.stderr);
  const m = /(\d+) passed, (\d+) failed/.exec(c.stdout);
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  } else failed += 1;
}

rmSync(dir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
