// The README's offline examples (`-f examples/…`, `--audit-log test/…`) print exactly what the
// README shows: scripts/readme-examples.mjs runs each with the built CLI; `--write` rewrites them.
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script, without types
import { examplesOf, holds, run } from '../../scripts/readme-examples.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureBundle } from './helpers.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README examples', () => {
  const examples: { line: number; start: number; end: number; args: string; status: number | null }[] = examplesOf(README);
  const lines = README.split('\n');

  it('finds the offline examples (explain, explain pod/, diff, history)', () => {
    const commands = examples.map((e) => e.args.split(' ')[0]);
    for (const c of ['explain', 'diff', 'history']) expect(commands).toContain(c);
  });

  for (const ex of examples) {
    it(`README.md:${ex.line + 1}: ${ex.args}`, () => {
      ensureBundle();
      const { output, status } = run(ex.args);
      expect(holds(lines.slice(ex.start, ex.end).join('\n'), output), output).toBe(true);
      if (ex.status !== null) expect(status).toBe(Number(lines[ex.status]));
    }, 120_000);
  }

  it('an excerpt holds only with its runs of lines whole and in order', () => {
    expect(holds('a\n…\nc', 'a\nb\nc')).toBe(true);
    expect(holds('c\n…\na', 'a\nb\nc')).toBe(false);
    expect(holds('a\nc', 'a\nb\nc')).toBe(false);
  });
});
