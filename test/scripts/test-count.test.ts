// `npm test` counts what happened (scripts/test-count.mjs over real vitest reports, produced here
// by running vitest on tiny projects), and waits for the sandbox with a limit
// (scripts/ready-line.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { countVitestRun, skipLines } from '../../scripts/test-count.mjs';
// @ts-expect-error plain ESM script without types
import { waitForReadyLine } from '../../scripts/ready-line.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Run {
  report: any;
  errors: any;
  skips: any;
  status: number | null;
}

/** Runs vitest (this project's) on a project made of `files`, as scripts/test.mjs runs it. */
function vitestOn(files: Record<string, string>): Run {
  const dir = mkdtempSync(join(tmpdir(), 'rs-count-'));
  dirs.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 't'));
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['t/*.test.mjs'], pool: 'forks' } };\n");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 't', name), text);
  // the environment of a vitest worker (VITEST_*) would make the inner vitest think it is one
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  const report = join(dir, 'report.json');
  const errors = join(dir, 'errors.json');
  const skips = join(dir, 'skips.json');
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=json',
      `--outputFile.json=${report}`,
      `--reporter=${join(ROOT, 'scripts', 'vitest-errors.mjs')}`,
    ],
    { cwd: dir, encoding: 'utf8', env: { ...env, RS_TEST_ERRORS_FILE: errors, RS_TEST_SKIPS_FILE: skips }, timeout: 60_000 },
  );
  const read = (f: string) => {
    try {
      return JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      return null;
    }
  };
  return { report: read(report), errors: read(errors), skips: read(skips), status: r.status };
}

const PASS = "import { it, expect } from 'vitest';\nit('passes', () => expect(1).toBe(1));\nit('passes too', () => expect(2).toBe(2));\n";
const FAIL = "import { it, expect } from 'vitest';\nit('passes', () => expect(1).toBe(1));\nit('fails', () => expect(1).toBe(2));\n";
const THROWS = "import { it } from 'vitest';\nthrow new Error('cannot load');\nit('never', () => {});\n";
const MISSING = "import { it } from 'vitest';\nimport { nope } from './no-such-module.mjs';\nit('never', () => nope());\n";
const HOOK = "import { it, beforeAll } from 'vitest';\nbeforeAll(() => { throw new Error('hook'); });\nit('a', () => {});\n";
const LATE =
  "import { it, expect } from 'vitest';\nit('passes, leaving an error behind', () => { setTimeout(() => { throw new Error('late'); }, 0); expect(1).toBe(1); });\nit('waits', async () => { await new Promise((r) => setTimeout(r, 50)); });\n";
const SKIPS =
  "import { beforeEach, describe, it, expect } from 'vitest';\n" +
  "describe('needs a tool', () => {\n  beforeEach((ctx) => { ctx.skip(true, 'the tool is missing'); });\n  it('a', () => expect(1).toBe(2));\n  it('b', () => expect(1).toBe(2));\n});\n" +
  "it('runs', () => expect(1).toBe(1));\nit.skipIf(true)('says nothing', () => {});\n";
// the suite's own helpers (test/skips.ts), as its test files use them
const HELPERS =
  `import { describe, expect } from 'vitest';\nimport { itUnless, skipAllIf } from ${JSON.stringify(join(ROOT, 'test', 'skips.ts'))};\n` +
  "itUnless('no zsh')('c', () => expect(1).toBe(2));\nitUnless(null)('d', () => expect(1).toBe(1));\n" +
  "describe('e', () => {\n  skipAllIf('no chromium');\n  itUnless(null)('f', () => expect(1).toBe(2));\n});\n" +
  "describe('g', () => {\n  skipAllIf(null);\n  itUnless(null)('h', () => expect(1).toBe(1));\n});\n";
const CRASH = "import { it } from 'vitest';\nit('kills its worker', () => { process.kill(process.pid, 'SIGKILL'); });\n";

describe('countVitestRun over real vitest runs', () => {
  let mixed: Run;
  let errors: Run;
  let crash: Run;
  let clean: Run;
  let skipping: Run;
  let helpers: Run;
  beforeAll(() => {
    skipping = vitestOn({ 'skips.test.mjs': SKIPS });
    helpers = vitestOn({ 'helpers.test.mjs': HELPERS });
    mixed = vitestOn({ 'pass.test.mjs': PASS, 'fail.test.mjs': FAIL, 'throws.test.mjs': THROWS, 'missing.test.mjs': MISSING, 'hook.test.mjs': HOOK });
    errors = vitestOn({ 'late.test.mjs': LATE, 'pass.test.mjs': PASS });
    crash = vitestOn({ 'crash.test.mjs': CRASH, 'pass.test.mjs': PASS });
    clean = vitestOn({ 'pass.test.mjs': PASS });
  }, 120_000);

  it('a clean run: its tests pass, nothing fails, exit status 0', () => {
    expect(clean.status).toBe(0);
    expect(countVitestRun(clean)).toEqual({ passed: 2, failed: 0, problems: [] });
  });

  it('one failed test and three files that fail without one (two do not load, one hook throws) are four failures', () => {
    expect(mixed.status).not.toBe(0);
    // what vitest's own summary counts: one failed test only
    expect(mixed.report.numFailedTests).toBe(1);
    const c = countVitestRun(mixed);
    expect(c.passed).toBe(3);
    expect(c.failed).toBe(4);
    expect(c.problems).toHaveLength(3);
    expect(c.problems.find((p: string) => p.includes('throws.test.mjs'))).toContain('cannot load');
    expect(c.problems.find((p: string) => p.includes('missing.test.mjs'))).toContain('no-such-module');
    expect(c.problems.find((p: string) => p.includes('hook.test.mjs'))).toContain('hook');
  });

  it('an unhandled error fails the run although every test passed', () => {
    expect(errors.status).not.toBe(0);
    expect(errors.report.success).toBe(true); // the JSON report alone does not show it
    const c = countVitestRun(errors);
    expect(c.passed).toBe(4);
    expect(c.failed).toBe(1);
    expect(c.problems[0]).toContain('late');
  });

  it('a crashed worker fails the run although its file "passed"', () => {
    expect(crash.status).not.toBe(0);
    expect(crash.report.testResults.every((f: any) => f.status === 'passed')).toBe(true);
    const c = countVitestRun(crash);
    expect(c.passed).toBe(2);
    expect(c.failed).toBe(1);
  });

  it('names every skipped test with the reason it gave, and those that gave none by their names', () => {
    expect(skipping.status).toBe(0);
    expect(countVitestRun(skipping)).toEqual({ passed: 1, failed: 0, problems: [] });
    expect(skipping.skips).toEqual([
      { file: 't/skips.test.mjs', test: 'needs a tool > a', reason: 'the tool is missing' },
      { file: 't/skips.test.mjs', test: 'needs a tool > b', reason: 'the tool is missing' },
      { file: 't/skips.test.mjs', test: 'says nothing', reason: null },
    ]);
    expect(skipLines(skipping.skips)).toEqual([
      '2 tests in t/skips.test.mjs: the tool is missing',
      '1 test in t/skips.test.mjs: no reason given (says nothing)',
    ]);
    expect(skipLines(skipping.skips.slice(2), 'real-cluster phase')).toEqual([
      '1 test in t/skips.test.mjs (real-cluster phase): no reason given (says nothing)',
    ]);
    expect(skipLines([])).toEqual([]);
  });

  it("test/skips.ts's itUnless and skipAllIf skip with their reason, and run the tests when there is none", () => {
    expect(countVitestRun(helpers)).toEqual({ passed: 2, failed: 0, problems: [] });
    expect(skipLines(helpers.skips)).toEqual(['1 test in t/helpers.test.mjs: no zsh', '1 test in t/helpers.test.mjs: no chromium']);
  });

  it('a non-zero exit with nothing else to show is one failure; so is a missing report', () => {
    expect(countVitestRun({ report: clean.report, errors: [], status: 1 })).toMatchObject({ passed: 2, failed: 1 });
    expect(countVitestRun({ report: clean.report, errors: null, status: null })).toMatchObject({ passed: 2, failed: 1 });
    expect(countVitestRun({ report: null, errors: null, status: 1 })).toMatchObject({ passed: 0, failed: 1 });
    expect(countVitestRun({ report: null, errors: null, status: 0 })).toMatchObject({ passed: 0, failed: 1 });
    // failures already counted are not counted again for the exit status
    expect(countVitestRun({ report: mixed.report, errors: [], status: mixed.status }).failed).toBe(4);
  });
});

describe('waitForReadyLine', () => {
  const child = (code: string) => spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  const pattern = /^export KUBECONFIG=.*\n/m;

  it('resolves on the ready line', async () => {
    const c = child("process.stdout.write('starting\\nexport KUBECONFIG=/tmp/x\\n'); setTimeout(() => {}, 60_000)");
    try {
      await expect(waitForReadyLine(c, { pattern, timeoutMs: 30_000 })).resolves.toContain('export KUBECONFIG=/tmp/x');
    } finally {
      c.kill('SIGKILL');
    }
  });

  it('rejects, with its words, when the child exits before the ready line', async () => {
    const c = child("process.stderr.write('cannot start the sandbox: boom'); process.exit(3)");
    let stderr = '';
    c.stderr.on('data', (d) => (stderr += d));
    await expect(waitForReadyLine(c, { pattern, timeoutMs: 30_000, describe: () => stderr })).rejects.toThrow(/exited \(status 3\) before it was ready/);
  });

  it('rejects when the child is already gone', async () => {
    const c = child('process.exit(0)');
    await new Promise((r) => c.once('exit', r));
    await expect(waitForReadyLine(c, { pattern, timeoutMs: 30_000 })).rejects.toThrow(/before it was ready/);
  });

  it('gives up after its time limit and ends the child', async () => {
    const c = child('setTimeout(() => {}, 60_000)');
    const exit = new Promise((r) => c.once('exit', (_code, signal) => r(signal)));
    await expect(waitForReadyLine(c, { pattern, timeoutMs: 1 })).rejects.toThrow(/not ready within/);
    expect(await exit).toBe('SIGKILL');
  });
});
