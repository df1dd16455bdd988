// `rs-reconcile sandbox` (the built CLI) as a shell runs it: --write-kubeconfig names the file it
// writes (--kubeconfig, which everywhere else names a file to read, still works with a warning),
// and when it stops (Ctrl-C, SIGTERM) it removes that kubeconfig, says so, and exits 130 / 143.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, ROOT, RUN_JS } from './cli.js';

let dir: string;
beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), 'sbx-cmd-'));
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Stopped {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The kubeconfig as it was while the sandbox ran. */
  written: string;
}

/** Starts the sandbox with `flags`, waits for its hint line, reads the kubeconfig at `path`, then sends `signal`. */
async function runUntil(flags: string[], path: string, signal: NodeJS.Signals): Promise<Stopped> {
  const child = spawn(process.execPath, [RUN_JS, 'sandbox', '--nodes', '0', ...flags], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (c) => {
      stderr += c;
      if (stderr.includes('Ctrl-C to stop.')) resolve();
    });
    child.on('exit', () => reject(new Error(`sandbox exited: ${stderr}`)));
  });
  const written = await readFile(path, 'utf8');
  child.kill(signal);
  const code = await exited;
  return { code, stdout, stderr, written };
}

const serverOf = (kubeconfig: string) => /server: (https:\/\/127\.0\.0\.1:\d+)/.exec(kubeconfig)?.[1];

describe('sandbox --write-kubeconfig', () => {
  it('Ctrl-C: exit 130, and the kubeconfig it wrote is gone, as stderr says', async () => {
    const path = join(dir, 'int.kubeconfig');
    const r = await runUntil(['--write-kubeconfig', path], path, 'SIGINT');
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(`export KUBECONFIG=${path}\n`);
    const server = serverOf(r.written);
    expect(server).toBeDefined();
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`sandbox stopped: removed ${path}, whose server ${server} no longer answers`);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('SIGTERM: exit 143, removed as well', async () => {
    const path = join(dir, 'term.kubeconfig');
    const r = await runUntil(['--write-kubeconfig', path], path, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toContain(`sandbox stopped: removed ${path}`);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('--kubeconfig still works, with a one-line deprecation warning first (both spellings)', async () => {
    for (const flags of [['--kubeconfig', join(dir, 'old-a.kubeconfig')], [`--kubeconfig=${join(dir, 'old-b.kubeconfig')}`]]) {
      const path = flags.length === 2 ? flags[1] : flags[0].slice('--kubeconfig='.length);
      const r = await runUntil(flags, path, 'SIGINT');
      expect(r.code, flags.join(' ')).toBe(130);
      expect(r.stderr.split('\n')[0]).toBe(
        'Warning: sandbox --kubeconfig is deprecated: it writes the file, where --kubeconfig everywhere else reads one; use --write-kubeconfig',
      );
      expect(r.stderr.match(/deprecated/g)).toHaveLength(1);
      expect(serverOf(r.written)).toBeDefined();
      expect(existsSync(path)).toBe(false);
    }
  }, 90_000);

  it('--help names --write-kubeconfig', () => {
    const r = cli(['sandbox', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {4}--write-kubeconfig='sandbox\.kubeconfig':\n {8}Where to write the kubeconfig \(removed again when the sandbox stops\)\.$/m);
    expect(r.stdout).not.toMatch(/^ {4}--kubeconfig/m); // the deprecated spelling is not advertised
  });
});
