// How `npm test` (scripts/test.mjs) counts one vitest run: every failed test, every test file that
// failed without a failed test (it did not load, or a hook threw), every unhandled error and
// crashed worker, and a vitest that failed without saying why. Pure: it reads what vitest left.

/**
 * @param {object} run
 * @param {any} run.report  vitest's JSON report (`--reporter=json`), parsed; null when none was written
 * @param {Array<{type?: string, message?: string}> | null} run.errors  the unhandled errors that
 *   scripts/vitest-errors.mjs recorded (crashed workers are among them); null when it wrote nothing
 * @param {number | null} run.status  vitest's exit status; null when a signal ended it
 * @returns {{ passed: number, failed: number, problems: string[] }} problems: one line for each
 *   failure that vitest's own list of failed tests does not show
 */
export function countVitestRun({ report, errors, status }) {
  let passed = 0;
  let failed = 0;
  const problems = [];
  if (report && Array.isArray(report.testResults)) {
    for (const file of report.testResults) {
      const assertions = Array.isArray(file.assertionResults) ? file.assertionResults : [];
      const failedHere = assertions.filter((a) => a.status === 'failed').length;
      passed += assertions.filter((a) => a.status === 'passed').length;
      failed += failedHere;
      const message = typeof file.message === 'string' ? file.message.trim() : '';
      // a file that failed with no failed test did not load (or a hook threw); one that also says
      // why failed besides its tests (an afterAll that threw)
      if (file.status === 'failed' && (failedHere === 0 || message !== '')) {
        failed += 1;
        problems.push(`${file.name ?? 'a test file'}: ${message.split('\n')[0] || 'failed without a failed test'}`);
      }
    }
  } else {
    failed += 1;
    problems.push('vitest wrote no report (it crashed or did not start)');
  }
  for (const e of errors ?? []) {
    failed += 1;
    problems.push(`${e.type ?? 'Unhandled error'}: ${String(e.message ?? '').split('\n')[0]}`);
  }
  if (status !== 0 && failed === 0) {
    failed += 1;
    problems.push(`vitest ${status === null ? 'was killed' : `exited with status ${status}`} with no failure accounted for`);
  }
  return { passed, failed, problems };
}

/**
 * The closing lines' account of skipped tests: one line per test file and reason, with how many
 * tests it covers, e.g. `7 in test/e2e/history-html.test.ts: /usr/bin/chromium is missing …`.
 * A skip that gave no reason is named by its tests instead, so that nothing is skipped unseen.
 *
 * @param {Array<{file: string, test: string, reason: string | null}>} skipped  as
 *   scripts/vitest-errors.mjs writes them
 * @param {string} [phase]  the run they belong to, when not the main one (e.g. `real-cluster`)
 * @returns {string[]}
 */
export function skipLines(skipped, phase) {
  const groups = new Map();
  for (const s of skipped) {
    const key = `${s.file}\u0000${s.reason ?? ''}`;
    if (!groups.has(key)) groups.set(key, { file: s.file, reason: s.reason, tests: [] });
    groups.get(key).tests.push(s.test);
  }
  const where = phase ? ` (${phase})` : '';
  return [...groups.values()].map((g) => {
    const n = g.tests.length;
    const why = g.reason ?? `no reason given (${g.tests.join('; ')})`;
    return `${n} ${n === 1 ? 'test' : 'tests'} in ${g.file}${where}: ${why}`;
  });
}
