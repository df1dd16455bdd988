// Nothing in the suite is skipped unseen: a conditional skip goes through test/skips.ts (itUnless,
// skipAllIf) or ctx.skip(true, reason), so that `npm test` names it with its reason in its closing
// lines. vitest's own skipIf, runIf and .skip skip without a word, and are not used.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TEST = fileURLToPath(new URL('..', import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return /\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('skips say why', () => {
  it('no test file skips through skipIf, runIf or .skip (they give no reason)', () => {
    const silent: string[] = [];
    for (const file of testFiles(TEST)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(it|test|describe)\.(skipIf|runIf|skip|todo)\b/.test(line)) silent.push(`${relative(TEST, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(silent).toEqual([]);
  });

  it('ctx.skip is always given a reason', () => {
    const bare: string[] = [];
    for (const file of testFiles(TEST)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bctx\.skip\(\s*\)/.test(line) || /\bctx\.skip\(\s*true\s*\)/.test(line)) bare.push(`${relative(TEST, file)}:${i + 1}`);
        });
    }
    expect(bare).toEqual([]);
  });
});
