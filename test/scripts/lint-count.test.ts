// `npm test`'s lint phase counts what `biome check` reports (scripts/lint-count.mjs), here over
// real runs of this project's Biome and biome.json on tiny projects, as scripts/test.mjs runs it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { countBiomeCheck } from '../../scripts/lint-count.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `biome check` as scripts/test.mjs runs it, on a project of `files` with this project's biome.json and plugin. */
function checkOn(files: Record<string, string>, config?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'rs-lint-'));
  dirs.push(dir);
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  if (config === undefined) copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
  else write('biome.json', config);
  write('tools/biome/double-assertion.grit', readFileSync(join(ROOT, 'tools', 'biome', 'double-assertion.grit'), 'utf8'));
  write('.gitignore', 'node_modules/\n');
  for (const [name, text] of Object.entries(files)) write(name, text);
  const c = spawnSync(process.execPath, [BIOME, 'check', '--reporter=summary', '--colors=off', '--max-diagnostics=none', '.'], { cwd: dir, encoding: 'utf8' });
  return { output: `${c.stdout}${c.stderr}`, status: c.status };
}

describe('the lint phase of npm test', () => {
  it('passes once on clean, formatted code', () => {
    const run = checkOn({ 'src/a.ts': "import { b } from './b.js';\n\nexport const a = b + 1;\n", 'src/b.ts': 'export const b = 1;\n' });
    expect(countBiomeCheck(run)).toEqual({ passed: 1, failed: 0, findings: 0, problem: null });
  });

  it('fails once, counting every finding: an unused import, an unused parameter, a double assertion, a format change', () => {
    const run = checkOn({
      'src/a.ts': "import { b } from './b.js';\n\nexport const a = (n: number) => 1 as unknown as string;\n",
      'src/b.ts': 'export const b=1\n',
    });
    expect(run.output).toContain('noUnusedImports');
    expect(run.output).toContain('noUnusedFunctionParameters');
    expect(run.output).toContain('plugin');
    expect(countBiomeCheck(run)).toEqual({ passed: 0, failed: 1, findings: 4, problem: 'lint and format: 4 findings (`npm run lint` shows them)' });
  });

  it('counts warnings and infos as findings too', () => {
    const run = checkOn({ 'src/a.ts': 'export const a = (o: { a?: { b: number } }) => o.a && o.a.b;\n' });
    expect(run.status).toBe(0); // a warning alone does not fail biome itself
    expect(countBiomeCheck(run)).toMatchObject({ passed: 0, failed: 1, findings: 1 });
  });

  it('keeps an assertion whose reason is given, and reports a reason given where none is needed', () => {
    const why = '// biome-ignore lint/plugin/double-assertion: the test asks for one\n';
    expect(countBiomeCheck(checkOn({ 'src/a.ts': `${why}export const a = 1 as unknown as string;\n` }))).toMatchObject({ passed: 1, findings: 0 });
    expect(countBiomeCheck(checkOn({ 'src/a.ts': `${why}export const a = 1;\n` }))).toMatchObject({ failed: 1, findings: 1 });
  });

  it('fails when biome fails without a finding: a broken biome.json', () => {
    const run = checkOn({ 'src/a.ts': 'export const a = 1;\n' }, '{ "linter": { "rules": { "nope": {} } } }\n');
    expect(run.status).not.toBe(0);
    expect(countBiomeCheck(run)).toMatchObject({ passed: 0, failed: 1 });
  });

  it('reads the counts of the default reporter as well as the summary one', () => {
    expect(
      countBiomeCheck({ output: 'Checked 3 files in 9ms. No fixes applied.\nFound 1 error.\nFound 2 warnings.\nFound 1 info.\n', status: 1 }),
    ).toMatchObject({ findings: 4 });
    expect(countBiomeCheck({ output: 'Checked 0 files in 1ms. No fixes applied.\n', status: 0 })).toMatchObject({
      failed: 1,
      problem: 'lint and format: biome check checked no file',
    });
    expect(countBiomeCheck({ output: '', status: null })).toMatchObject({ failed: 1 });
  });
});
