// A vitest reporter for `npm test` (scripts/test.mjs): writes the run's unhandled errors (uncaught
// exceptions, unhandled rejections, crashed workers) as JSON to $RS_TEST_ERRORS_FILE. vitest's
// JSON report leaves them out: a run whose worker died can report every test file as passed.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_modules, unhandledErrors) {
    const file = process.env.RS_TEST_ERRORS_FILE;
    if (!file) return;
    const errors = unhandledErrors.map((e) => ({ type: e.type ?? e.name ?? 'Error', message: String(e.message ?? e) }));
    writeFileSync(file, JSON.stringify(errors));
  }
}
