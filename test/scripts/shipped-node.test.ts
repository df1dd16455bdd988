// scripts/shipped-node.mjs: which Node.js CI runs the end-to-end subset on (the single
// executables' own), and which tests that subset is: every command is run by one of them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script, without types
import { SEA_TARGETS } from '../../scripts/sea.mjs';
// @ts-expect-error plain ESM script, without types
import { SHIPPED_NODE_TESTS, shippedTarget } from '../../scripts/shipped-node.mjs';

const ROOT = join(import.meta.dirname, '..', '..');

describe('shippedTarget', () => {
  it("is the linux executable's Node.js of this machine's architecture", () => {
    expect(shippedTarget('linux', 'x64')).toEqual(SEA_TARGETS['linux/amd64']);
    expect(shippedTarget('linux', 'arm64')).toEqual(SEA_TARGETS['linux/arm64']);
  });

  it('names the platforms it knows when the machine is another', () => {
    expect(() => shippedTarget('darwin', 'arm64')).toThrow('shipped-node: no single executable is built for darwin-arm64 (linux x64 and arm64 only)');
  });
});

describe('SHIPPED_NODE_TESTS', () => {
  const files: string[] = SHIPPED_NODE_TESTS;

  it('are test files of the suite', () => {
    for (const f of files) {
      expect(existsSync(join(ROOT, f)), f).toBe(true);
      expect(f).toMatch(/^test\/(e2e|packaging)\/[a-z-]+\.test\.ts$/);
    }
  });

  it('run every command of the CLI at least once', () => {
    const text = files.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const commands = readdirSync(join(ROOT, 'src', 'commands')).map((f) => f.replace(/\.tsx?$/, ''));
    expect(commands.length).toBeGreaterThan(5);
    const missing = commands.filter((c) => !new RegExp(`\\[(RUN_JS, )?'${c}'`).test(text));
    expect(missing).toEqual([]);
  });
});
