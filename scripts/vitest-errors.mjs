// A vitest reporter for `npm test` (scripts/test.mjs): writes the run's unhandled errors (uncaught
// exceptions, unhandled rejections, crashed workers) as JSON to $RS_TEST_ERRORS_FILE, and its
// skipped tests with the reason each gave (`ctx.skip(true, reason)`) to $RS_TEST_SKIPS_FILE.
// vitest's JSON report leaves both out: a run whose worker died can report every test file as
// passed, and a skipped test there carries no reason.
import { relative } from 'node:path';
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules, unhandledErrors) {
    const file = process.env.RS_TEST_ERRORS_FILE;
    if (file) {
      const errors = unhandledErrors.map((e) => ({ type: e.type ?? e.name ?? 'Error', message: String(e.message ?? e) }));
      writeFileSync(file, JSON.stringify(errors));
    }
    const skipsFile = process.env.RS_TEST_SKIPS_FILE;
    if (skipsFile) {
      const skipped = [];
      for (const m of modules) {
        const name = this.root ? relative(this.root, m.moduleId) : m.moduleId;
        for (const t of m.children.allTests()) {
          const r = t.result();
          if (r.state === 'skipped') skipped.push({ file: name, test: t.fullName, reason: r.note ?? null });
        }
      }
      writeFileSync(skipsFile, JSON.stringify(skipped));
    }
  }
}
