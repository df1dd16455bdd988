#!/usr/bin/env node
// How one command's start depends on what ran before it with the same code cache folder: in an
// empty RS_RECONCILE_CACHE_DIR, runs FIRST once, then THEN twice (either may write the cache a
// later start reads), then counts the instructions of a third start of THEN under callgrind, on
// the main thread (the one a start waits on; V8's compiler threads run beside it).
//
//   node bench/code-cache-order.mjs [--root DIR] --first 'diff -f BIG.json -A -o json --now T' --then 'diff -f examples/drifted-replicaset.yaml --now T'
//
// --root is the checkout whose bin/run.cjs runs (another build, to compare; default this one).
// Words are split at spaces. Needs valgrind. Node.js 20 and the single executable keep the cache
// this measures (dist/bundle/boot.cjs); Node.js 22.1 and newer keep their own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = resolve(opt('--root') ?? fileURLToPath(new URL('..', import.meta.url)));
const first = opt('--first')?.split(' ');
const then = opt('--then')?.split(' ');
if (!first || !then) {
  console.error("usage: node bench/code-cache-order.mjs [--root DIR] --first 'WORDS' --then 'WORDS'");
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'code-cache-order-'));
try {
  const env = { ...process.env, RS_RECONCILE_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' };
  delete env.NODE_EXTRA_CA_CERTS; // it makes every start read a CA bundle first
  const start = (words) => [join(root, 'bin', 'run.cjs'), ...words];
  for (const words of [first, then, then]) spawnSync(process.execPath, start(words), { stdio: 'ignore', env });
  const out = join(dir, 'callgrind.out');
  const run = spawnSync('valgrind', ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${out}`, process.execPath, ...start(then)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env,
  });
  if (run.error) throw new Error(`valgrind: ${run.error.message}`);
  // one file a thread: out-01 is the main thread
  const main = `${out}-01`;
  if (!existsSync(main)) throw new Error(`callgrind wrote no file for the main thread: ${run.stderr.split('\n').slice(-3).join(' ')}`);
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(main, 'utf8'));
  if (!totals) throw new Error('callgrind: no totals line');
  const caches = existsSync(join(dir, 'cache')) ? readdirSync(join(dir, 'cache')).filter((f) => f.endsWith('.cache')) : [];
  console.log(
    `${(Number(totals[1]) / 1e6).toFixed(1)} M instructions on the main thread: \`${then.join(' ')}\` after \`${first.join(' ')}\` (${root}; caches: ${caches.join(', ') || 'none'})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
