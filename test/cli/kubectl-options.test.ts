// Every command that reaches a cluster takes every connection flag of cli-runtime's ConfigFlags
// that the real kubectl lists in `kubectl options`, with the same short name: read from kubectl
// itself, so a flag kubectl adds is missed by no command.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/commands.js';

/** kubectl's global flags that are not about the connection (logging, profiling, its own cache, its warning policy). */
const NOT_CONNECTION = new Set([
  'cache-dir',
  'log-flush-frequency',
  'match-server-version',
  'profile',
  'profile-output',
  'v',
  'vmodule',
  'namespace',
  'warnings-as-errors',
]);
/** The commands that never reach a cluster. */
const OFFLINE = new Set(['completion', 'sandbox']);

function kubectlOptions(): { name: string; char?: string }[] {
  const text = execFileSync('kubectl', ['options'], { encoding: 'utf8' });
  return [...text.matchAll(/^\s+(?:-(\w), )?--([a-z-]+)=/gm)].map((m) => ({ name: m[2], char: m[1] }));
}

describe("kubectl's connection flags on every command that reaches a cluster", () => {
  const options = kubectlOptions().filter((o) => !NOT_CONNECTION.has(o.name));

  it('kubectl lists the ones the issue names (the test reads the real list)', () => {
    expect(options.map((o) => o.name)).toEqual(expect.arrayContaining(['server', 'token', 'certificate-authority', 'insecure-skip-tls-verify', 'as-uid']));
    expect(options.find((o) => o.name === 'server')?.char).toBe('s');
  });

  it.each(Object.keys(COMMANDS).filter((c) => !OFFLINE.has(c)))('%s', async (id) => {
    const cmd = ((await COMMANDS[id]()) as { default: { flags: Record<string, { char?: string }> } }).default;
    for (const o of options) {
      expect(cmd.flags[o.name], `${id} --${o.name}`).toBeDefined();
      expect(cmd.flags[o.name].char, `${id} --${o.name} short name`).toBe(o.char);
    }
  });
});
