#!/usr/bin/env node
// Where a process's instructions go, by kind of work: runs one command under
// `valgrind --tool=callgrind` (instructions, not seconds: the same on a loaded machine) and sums
// its functions by what they are: V8's optimizing compiler (on its background threads), compiled
// JavaScript (no symbols: code V8 made at run time), V8's builtins (inline caches, bytecode
// handlers), JSON.parse and JSON.stringify's C++, the garbage collector, string internalization,
// and the rest of V8 and Node.js. docs/dependencies.md reads the 10k snapshot's `diff` with it.
//
//   node bench/instruction-mix.mjs -- node --predictable bin/run.js diff -f SNAP.json -A -o json --now T
//   node bench/instruction-mix.mjs -- node --predictable -e "JSON.parse(require('fs').readFileSync('SNAP.json','utf8'))"
//
// Needs valgrind (callgrind_annotate comes with it). Each command's output is thrown away.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Kinds of work, the first whose pattern names the function wins. */
const KINDS = [
  ['V8 optimizing compiler (TurboFan, background threads)', /compiler::|turboshaft|maglev/],
  ['JSON.parse (C++)', /JsonParser/],
  ['JSON.stringify (C++)', /JsonStringifier/],
  ['garbage collector', /Scaveng|Heap::|MarkCompact|Marking|Sweeper|heap::|Evacuat|MemoryChunk/],
  ['string internalization', /StringTable|Internalize/],
  ['compiled JavaScript (code made at run time)', /^\?\?\?:0x/],
  ['V8 builtins (inline caches, bytecode handlers)', /Builtins_/],
  ['JavaScript source parser', /Parser|Scanner/],
  ['libc (memcpy, malloc)', /libc|memcpy|memmove|memset|malloc/],
];

function instructionMix(argv) {
  const dir = mkdtempSync(join(tmpdir(), 'instruction-mix-'));
  try {
    const out = join(dir, 'callgrind.out');
    const run = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (run.error) throw new Error(`valgrind: ${run.error.message}`);
    const annotated = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (annotated.status !== 0) throw new Error(`callgrind_annotate: ${annotated.stderr}`);
    const totals = new Map();
    let total = 0;
    for (const line of annotated.stdout.split('\n')) {
      const m = /^\s*([\d,]+) \([ \d.]+%\)\s+(.*)$/.exec(line);
      if (!m || m[2].includes('PROGRAM TOTALS')) continue;
      const n = Number(m[1].replaceAll(',', ''));
      const kind = KINDS.find(([, re]) => re.test(m[2]))?.[0] ?? 'the rest of V8 and Node.js';
      totals.set(kind, (totals.get(kind) ?? 0) + n);
      total += n;
    }
    return { total, kinds: [...totals].sort((a, b) => b[1] - a[1]), status: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sep = process.argv.indexOf('--');
if (sep < 0 || sep === process.argv.length - 1) {
  console.error('usage: node bench/instruction-mix.mjs -- COMMAND ARGS…');
  process.exit(2);
}
const { total, kinds, status } = instructionMix(process.argv.slice(sep + 1));
const g = (n) => `${(n / 1e9).toFixed(2)} G`;
console.log(`| work (\`${process.argv.slice(sep + 1).join(' ')}\`, exit ${status}) | instructions | share |`);
console.log('|---|---|---|');
for (const [kind, n] of kinds) console.log(`| ${kind} | ${g(n)} | ${((100 * n) / total).toFixed(1)}% |`);
console.log(`| all | ${g(total)} | |`);
