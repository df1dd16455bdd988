#!/usr/bin/env node
// `npm test`: check lint and format with Biome (biome.json; writes nothing), build the CLI, run
// every vitest suite (unit, integration over HTTP, end-to-end on the built CLI), the integration
// suite again against a sandbox reached only through its kubeconfig, then the shared plan contract
// checker against bin/run.js when ../shared exists, with RS_TEST_SHIPPED_NODE=/path/to/node (set by
// .ci/run) the end-to-end tests of every command again on that Node.js (the one the single
// executables embed), and close with what was skipped and why (each
// test file and reason, the plan contract when ../shared is absent) and one last line
// `N passed, N failed, N skipped` (vitest does not print that form). That line is always printed,
// and the exit status is non-zero whenever something failed: a test, a test file that did not load,
// an unhandled error or crashed worker, a lint or format finding, the build, the sandbox, a checker.
// The counting of a vitest run is scripts/test-count.mjs, of the Biome check scripts/lint-count.mjs
// (both tested in test/scripts/).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countBiomeCheck } from './lint-count.mjs';
import { countVitestRun, skipLines } from './test-count.mjs';
import { SHIPPED_NODE_TESTS } from './shipped-node.mjs';
import { waitForReadyLine } from './ready-line.mjs';

const root = new URL('..', import.meta.url).pathname;
const extra = process.argv.slice(2);
const SANDBOX_READY_MS = 60_000;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
/** What did not run, one line each with its reason (scripts/test-count.mjs's skipLines). */
const skips = [];
const fail = (message) => {
  failed += 1;
  problems.push(message);
};
const dir = mkdtempSync(join(tmpdir(), 'rs-test-'));
const started = Date.now();

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null; // not written (or cut short): counted as a failure by countVitestRun
  }
};

/** One vitest run, counted: its JSON report, its unhandled errors and its exit status. `node` runs vitest (and so the CLI the tests start). */
function vitest(name, args, env = process.env, node = null) {
  const report = join(dir, `${name}.json`);
  const errors = join(dir, `${name}.errors.json`);
  const skipsFile = join(dir, `${name}.skips.json`);
  const r = run(
    node ?? 'npx',
    [
      ...(node ? [join(root, 'node_modules', 'vitest', 'vitest.mjs')] : ['vitest']),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      `--reporter=${join(root, 'scripts', 'vitest-errors.mjs')}`,
      ...args,
    ],
    {
      env: { ...env, RS_TEST_ERRORS_FILE: errors, RS_TEST_SKIPS_FILE: skipsFile },
    },
  );
  if (r.error) return fail(`${name}: could not run vitest: ${r.error.message}`);
  const c = countVitestRun({ report: readJson(report), errors: readJson(errors), status: r.status });
  passed += c.passed;
  failed += c.failed;
  problems.push(...c.problems.map((p) => `${name}: ${p}`));
  const skippedHere = readJson(skipsFile) ?? [];
  skipped += skippedHere.length;
  skips.push(...skipLines(skippedHere, name === 'vitest' ? undefined : `${name} phase`));
  // RS_TEST_REPORT_DIR keeps the JSON reports (per-file durations) for measuring the run
  if (process.env.RS_TEST_REPORT_DIR && existsSync(report)) cpSync(report, join(process.env.RS_TEST_REPORT_DIR, `${name}.json`));
}

/**
 * Biome over our JS/TS (biome.json): lint, format and the double-assertion plugin, writing nothing.
 * One passed when clean, one failed naming how many findings; the summary shows where they are.
 */
function lintPhase() {
  console.log('lint and format (biome check):');
  const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
  const c = spawnSync(process.execPath, [biome, 'check', '--reporter=summary', '--colors=off', '--max-diagnostics=none', '.'], { cwd: root, encoding: 'utf8' });
  if (c.error) return fail(`lint and format: could not run biome: ${c.error.message}`);
  const output = `${c.stdout ?? ''}${c.stderr ?? ''}`;
  process.stdout.write(output);
  const r = countBiomeCheck({ output, status: c.status });
  passed += r.passed;
  failed += r.failed;
  if (r.problem) problems.push(r.problem);
}

/**
 * The integration suite in TEST_KUBECONFIG mode, against a sandbox started as a separate process
 * and reached only through its kubeconfig, as a real cluster would be.
 */
async function realClusterPhase() {
  console.log('\nintegration tests in real-cluster mode (TEST_KUBECONFIG):');
  const kc = join(dir, 'real.kubeconfig');
  const errLog = join(dir, 'sandbox.stderr');
  const errFd = openSync(errLog, 'w');
  const server = spawn(process.execPath, [join(root, 'bin', 'run.js'), 'sandbox', '--nodes', '0', '--kubeconfig', kc], { stdio: ['ignore', 'pipe', errFd] });
  closeSync(errFd);
  const exited = new Promise((resolve) => server.once('exit', resolve));
  try {
    await waitForReadyLine(server, {
      pattern: /^export KUBECONFIG=.*\n/m,
      timeoutMs: SANDBOX_READY_MS,
      describe: () => (existsSync(errLog) ? readFileSync(errLog, 'utf8').trim().split('\n').slice(-3).join(' | ') : ''),
    });
  } catch (e) {
    fail(`real-cluster phase: the sandbox ${e.message}`);
    return;
  }
  try {
    vitest('real-cluster', ['test/integration/reconcile.test.ts'], { ...process.env, TEST_KUBECONFIG: kc });
  } finally {
    server.kill('SIGINT');
    const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(r, 10_000, false))]);
    if (!stopped) server.kill('SIGKILL');
  }
}

/** SHIPPED_NODE_TESTS on the Node.js at RS_TEST_SHIPPED_NODE (.ci/run installs it). */
function shippedNodePhase(node) {
  const v = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0) return fail(`shipped-node phase: RS_TEST_SHIPPED_NODE=${node} does not run: ${(v.stderr || v.error?.message || '').trim()}`);
  console.log(`\nend-to-end tests of every command on Node.js ${v.stdout.trim()} (the single executables' own):`);
  vitest('shipped-node', SHIPPED_NODE_TESTS, process.env, node);
}

/** The shared plan contract, run against the built CLI exactly as its README says. */
function contractChecker() {
  const checker = join(root, '..', 'shared', 'contract', 'check.mjs');
  if (!existsSync(checker)) {
    skips.push(`the plan contract: ${checker} is absent (it comes with ../shared, beside the checkout)`);
    return;
  }
  console.log('\nplan contract (../shared/contract):');
  const c = spawnSync(process.execPath, [checker, root], { cwd: root, encoding: 'utf8' });
  process.stdout.write(c.stdout ?? '');
  process.stderr.write(c.stderr ?? '');
  const m = /(\d+) passed, (\d+) failed/.exec(c.stdout ?? '');
  if (!m) return fail(`plan contract: check.mjs printed no result (exit status ${c.status})`);
  passed += Number(m[1]);
  failed += Number(m[2]);
  if (c.status !== 0 && Number(m[2]) === 0) fail(`plan contract: check.mjs exited with status ${c.status}`);
}

try {
  if (extra.length === 0) lintPhase();
  const build = run('npm', ['run', '--silent', 'build']);
  if (build.status !== 0) fail('the build failed');
  else {
    vitest('vitest', extra);
    if (extra.length === 0) {
      await realClusterPhase();
      contractChecker();
      if (process.env.RS_TEST_SHIPPED_NODE) shippedNodePhase(process.env.RS_TEST_SHIPPED_NODE);
    }
  }
} catch (e) {
  fail(`scripts/test.mjs: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (problems.length) console.log(`\nfailures besides failed tests:\n${problems.map((p) => `  ${p}`).join('\n')}`);
if (skips.length) console.log(`\nskipped:\n${skips.map((p) => `  ${p}`).join('\n')}`);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\ntook ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
