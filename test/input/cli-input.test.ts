// The built CLI on input that never ends or is not text: each run must end by itself, with a
// one-line error and kubectl diff's error status (greater than 1).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT, RUN_JS } from '../e2e/cli.js';
import { itUnless } from '../skips.js';

/**
 * A safety net only: a run that needs it has failed (it did not end by itself). Nothing here
 * measures time; the net is generous because 512Mi go through a pipe in one test.
 */
const SAFETY_NET_MS = 60_000;

interface Run {
  status: number | null;
  stderr: string;
  /** Whether the safety net had to kill the process (it did not end by itself). */
  killed: boolean;
}

/** Runs the CLI; with `feed`, writes it to stdin again and again for as long as the CLI reads. */
function run(args: string[], feed?: Buffer): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [RUN_JS, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    let killed = false;
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdin.on('error', () => {}); // EPIPE once the CLI stops reading
    if (feed) {
      const pump = () => {
        while (!child.stdin.destroyed && child.stdin.write(feed));
      };
      child.stdin.on('drain', pump);
      pump();
    } else {
      child.stdin.end();
    }
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, SAFETY_NET_MS);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stderr, killed });
    });
  });
}

function expectOneLineError(r: Run, message: RegExp): void {
  expect(r.killed).toBe(false);
  expect(r.status).toBeGreaterThan(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
}

describe('reading -f safely (built CLI)', () => {
  beforeAll(() => {
    ensureBuilt();
  }, 120_000);

  itUnless(existsSync('/dev/zero') ? null : '/dev/zero is missing')(
    'refuses /dev/zero as binary at its first bytes',
    async () => {
      const r = await run(['diff', '-f', '/dev/zero']);
      expectOneLineError(r, /^error: error parsing \/dev\/zero: not a text file \(binary data at byte 0\): expected YAML or JSON$/);
    },
    90_000,
  );

  itUnless(existsSync('/dev/urandom') ? null : '/dev/urandom is missing')(
    'refuses /dev/urandom as binary at its first bytes',
    async () => {
      const r = await run(['diff', '-f', '/dev/urandom']);
      expectOneLineError(r, /^error: error parsing \/dev\/urandom: not a text file \(binary data at byte \d+\): expected YAML or JSON$/);
    },
    90_000,
  );

  it('stops reading an endless stdin of text at the default limit', async () => {
    const r = await run(['diff', '-f', '-'], Buffer.alloc(64 * 1024, 'a: b\n'));
    expectOneLineError(r, /^error: error reading <stdin>: too large: stopped reading at the input limit of 512Mi \(raise it with --max-input-size\)$/);
  }, 90_000);

  it('stops reading an endless stdin at --max-input-size', async () => {
    const r = await run(['explain', 'x', '-f', '-', '--max-input-size', '2Mi'], Buffer.alloc(64 * 1024, 'a: b\n'));
    expectOneLineError(r, /^error: error reading <stdin>: too large: stopped reading at the input limit of 2Mi \(raise it with --max-input-size\)$/);
  }, 90_000);

  it('refuses a file over --max-input-size before reading it', async () => {
    const r = await run(['diff', '-f', 'package-lock.json', '--max-input-size', '1Ki']);
    expectOneLineError(r, /^error: error reading package-lock\.json: too large: [\d.]+Ki, over the input limit of 1Ki \(raise it with --max-input-size\)$/);
  }, 90_000);

  it('refuses a malformed --max-input-size', async () => {
    const r = await run(['diff', '-f', 'package.json', '--max-input-size', 'lots']);
    expectOneLineError(r, /^error: invalid --max-input-size "lots": expected a quantity of bytes such as 512Mi, 2Gi or 100M$/);
  }, 90_000);
});
