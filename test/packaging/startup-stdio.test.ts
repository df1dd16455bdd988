// diff and explain write a file, a pipe or /dev/null as a file descriptor, without process.stdout
// and process.stderr (src/cli/stdio.ts: their streams load node:stream, 1.8 ms of a start), and
// read a small snapshot without node:fs/promises or node:perf_hooks. What they print must not
// change: byte for byte what oclif's path prints (RS_RECONCILE_NO_FAST=1, which writes through
// the streams), to a pipe, a file, a pipe another process left non-blocking (EAGAIN), a reader
// that goes away (EPIPE), and a terminal (colours and width), with the same exit status.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, NOW, ROOT, baseEnv, ensureBundle, run, tempDir } from './helpers.js';
import { itUnless } from '../skips.js';

beforeAll(() => ensureBundle(), 300_000);

const RUN_CJS = join(ROOT, 'bin', 'run.cjs');
const DIFF = ['diff', '-f', EXAMPLE, '--now', NOW];
const EXPLAIN = ['explain', 'shop-web', '-f', EXAMPLE, '--now', NOW];

/** A snapshot of `n` drifted ReplicaSets (each short of one pod), for output larger than a pipe holds. */
function bigSnapshot(n: number): string {
  const file = join(tempDir('rs-stdio-'), 'big.yaml');
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    items.push(`- apiVersion: apps/v1
  kind: ReplicaSet
  metadata: {name: web-${i}, namespace: shop, uid: 00000000-0000-4000-8000-${String(i).padStart(12, '0')}, generation: 1}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web-${i}}}
    template: {metadata: {labels: {app: web-${i}}}, spec: {containers: [{name: c, image: i}]}}
  status: {replicas: 1, observedGeneration: 1}
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-${i}-a
    namespace: shop
    uid: 10000000-0000-4000-8000-${String(i).padStart(12, '0')}
    labels: {app: web-${i}}
    creationTimestamp: "2025-12-01T00:00:00Z"
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-${i}, uid: 00000000-0000-4000-8000-${String(i).padStart(12, '0')}, controller: true}]
  spec: {nodeName: node-1, containers: [{name: c, image: i}]}
  status: {phase: Running}`);
  }
  writeFileSync(file, `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`);
  return file;
}

/** The built-in modules a run loaded beyond what `node -e 0` loads, recorded at exit without a stream. */
function builtinsLoaded(argv: string[], stdio: 'pipe' | 'ignore' | number): string[] {
  const dir = tempDir('rs-stdio-');
  const log = join(dir, 'modules.txt');
  const hook = join(dir, 'hook.cjs');
  writeFileSync(hook, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));\n`);
  const base = spawnSync(process.execPath, ['-e', `process.stdout.write(process.moduleLoadList.join('\\n'))`], { encoding: 'utf8' }).stdout.split('\n');
  const r = spawnSync(process.execPath, ['-r', hook, RUN_CJS, ...argv], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', stdio, 'pipe'], encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(argv[0] === 'diff' ? 1 : 0);
  const before = new Set(base);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((m) => m.startsWith('NativeModule ') && !before.has(m))
    .map((m) => m.slice('NativeModule '.length));
}

describe('diff and explain on a file, a pipe, /dev/null', () => {
  const AVOIDED = /^(stream|internal\/streams\/|tty$|net$|perf_hooks$|internal\/perf\/|fs\/promises$|internal\/fs\/promises$|readline|internal\/readline\/)/;

  it('load neither the streams, node:tty, node:perf_hooks nor node:fs/promises', () => {
    const out = join(tempDir('rs-stdio-'), 'out.txt');
    for (const argv of [DIFF, EXPLAIN]) {
      for (const stdio of ['pipe', 'ignore', 'file'] as const) {
        const fd = stdio === 'file' ? openSync(out, 'w') : undefined;
        try {
          const loaded = builtinsLoaded(argv, fd ?? (stdio === 'file' ? 'ignore' : stdio));
          expect(
            loaded.filter((m) => AVOIDED.test(m)),
            `${argv[0]} to ${stdio}: ${loaded.join(' ')}`,
          ).toEqual([]);
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
      }
    }
  });

  it('tell /dev/null, a file and a pipe from a terminal, whichever is asked first', () => {
    const stdio = join(ROOT, 'dist', 'cli', 'stdio.js');
    const file = join(tempDir('rs-stdio-'), 'out.txt');
    for (const order of [
      [2, 1],
      [1, 2],
    ]) {
      const fd = openSync(file, 'w');
      const script = `import(${JSON.stringify(stdio)}).then((m) => { const r = ${JSON.stringify(order)}.map((fd) => m.isPlainFd(fd)); require('fs').writeSync(3, JSON.stringify(r)); })`;
      for (const out of ['ignore', 'pipe', fd] as const) {
        const r = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', out, 'pipe', 'pipe'], encoding: 'utf8' });
        expect(r.output[3], `stdout ${out}, asked ${order}: ${r.stderr}`).toBe('[true,true]');
      }
      closeSync(fd);
    }
  });

  it('print what the streams print, byte for byte, to a pipe and to a file, with the same exit status', () => {
    const dir = tempDir('rs-stdio-');
    for (const argv of [
      DIFF,
      EXPLAIN,
      [...DIFF, '-o', 'yaml'],
      ['diff', '-f', EXAMPLE, '-n', 'nowhere', '--now', NOW],
      ['diff', '-f', join(dir, 'missing.yaml')],
    ]) {
      const oclif = run(process.execPath, [RUN_CJS, ...argv], { env: baseEnv({ RS_RECONCILE_NO_FAST: '1' }) });
      const piped = run(process.execPath, [RUN_CJS, ...argv]);
      expect(piped).toEqual(oclif);
      const file = join(dir, 'out.txt');
      const fd = openSync(file, 'w');
      const r = spawnSync(process.execPath, [RUN_CJS, ...argv], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      closeSync(fd);
      expect({ status: r.status, stdout: readFileSync(file, 'utf8'), stderr: r.stderr }).toEqual(oclif);
    }
  });

  itUnless(process.platform === 'linux' ? null : 'non-blocking pipes are tried on Linux only')(
    'write all of a large output to a non-blocking pipe (EAGAIN when full), read slowly',
    async () => {
      const big = bigSnapshot(3000);
      const argv = ['diff', '-f', big, '-o', 'json', '--now', NOW];
      const expected = run(process.execPath, [RUN_CJS, ...argv], { env: baseEnv({ RS_RECONCILE_NO_FAST: '1' }) });
      expect(expected.stdout.length).toBeGreaterThan(1 << 21); // several times what a pipe or a socket holds
      // as a shell or another program may leave it: the pipe made non-blocking before the CLI runs
      // (libuv opens a descriptor it is given O_NONBLOCK), and nothing reads it for a while
      const hook = join(tempDir('rs-stdio-'), 'nonblocking.cjs');
      writeFileSync(
        hook,
        "new (require('net').Socket)({ fd: 1, readable: false, writable: true });\n" +
          "if (!/^flags:\\s*\\d*[4-7]\\d{3}$/m.test(require('fs').readFileSync('/proc/self/fdinfo/1', 'utf8'))) throw new Error('stdout is blocking');\n",
      );
      const child = spawn(process.execPath, ['-r', hook, RUN_CJS, ...argv], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.pause();
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c;
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the pipe fills, the writer waits
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stdout.resume();
      expect({ status: await closed, stdout: Buffer.concat(chunks).toString('utf8'), stderr }).toEqual(expected);
    },
    60_000,
  );

  it('stop quietly when the reader goes away (EPIPE), with the exit status of the plan', async () => {
    const big = bigSnapshot(400);
    const child = spawn(process.execPath, [RUN_CJS, 'diff', '-f', big, '-o', 'json', '--now', NOW], {
      cwd: ROOT,
      env: baseEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ status, stderr }).toEqual({ status: 1, stderr: '' });
  }, 60_000);

  itUnless(
    process.platform !== 'linux'
      ? 'script(1) pseudo-terminals are tried on Linux only'
      : existsSync('/usr/bin/script')
        ? null
        : '/usr/bin/script is missing (util-linux)',
  )(
    'keep the colours and the width of a terminal, as the streams give them',
    () => {
      // script(1) runs the command on a pseudo-terminal of 60 columns; its output is the terminal's
      const onTerminal = (env: Record<string, string | undefined>, argv: string[]) => {
        const cmd = `stty cols 60; ${[process.execPath, RUN_CJS, ...argv].map((a) => `'${a}'`).join(' ')}`;
        return run('script', ['-qec', cmd, '/dev/null'], { env: baseEnv({ NO_COLOR: undefined, TERM: 'xterm-256color', ...env }) }).stdout;
      };
      for (const argv of [DIFF, EXPLAIN]) {
        const fast = onTerminal({}, argv);
        expect(fast).toContain('\x1b['); // coloured
        expect(fast).toEqual(onTerminal({ RS_RECONCILE_NO_FAST: '1' }, argv));
        expect(onTerminal({ NO_COLOR: '1' }, argv)).toEqual(onTerminal({ NO_COLOR: '1', RS_RECONCILE_NO_FAST: '1' }, argv));
      }
    },
    60_000,
  );

  it('colour a pipe when FORCE_COLOR asks, as the streams do', () => {
    for (const argv of [DIFF, EXPLAIN]) {
      const fast = run(process.execPath, [RUN_CJS, ...argv], { env: baseEnv({ NO_COLOR: undefined, FORCE_COLOR: '1' }) });
      expect(fast.stdout).toContain('\x1b[');
      expect(fast).toEqual(run(process.execPath, [RUN_CJS, ...argv], { env: baseEnv({ NO_COLOR: undefined, FORCE_COLOR: '1', RS_RECONCILE_NO_FAST: '1' }) }));
    }
  });
});
