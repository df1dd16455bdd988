// No unused export, file or dependency: knip (knip.json: the entries are bin/, the commands, the
// single-file entries, scripts/, bench/ and the tests) reads the whole import graph offline and
// must find nothing. An export only its own file uses is un-exported; a dead one is deleted.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');
const run = promisify(execFile);

/** knip's findings in `dir` (its exit code and report); offline, no cache written. */
async function knip(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [KNIP, '--no-progress', '--no-config-hints'], { cwd: dir, timeout: 240_000, maxBuffer: 16 << 20 });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe('knip', () => {
  it('finds no unused export, type, file or dependency in the project', { timeout: 300_000 }, async () => {
    const r = await knip(ROOT);
    expect(r.out.trim()).toBe('');
    expect(r.code).toBe(0);
  });

  it('reports an export nobody imports (the check can fail)', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-knip-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'k', type: 'module', main: 'main.js' }));
      writeFileSync(join(dir, 'knip.json'), JSON.stringify({ entry: ['main.js'], project: ['*.js'] }));
      writeFileSync(join(dir, 'main.js'), "import { used } from './lib.js';\nconsole.log(used);\n");
      writeFileSync(join(dir, 'lib.js'), 'export const used = 1;\nexport const unusedThing = 2;\n');
      const r = await knip(dir);
      expect(r.out).toContain('unusedThing');
      expect(r.code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
