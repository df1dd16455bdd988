#!/usr/bin/env node
// The README's offline examples, run: every console block line `$ kubectl rs-reconcile ARGS` whose
// input is a bundled file (`-f examples/…`, `--audit-log test/…`) is run as `node bin/run.js ARGS`
// with its stderr in its stdout (as a terminal shows them), and the lines up to the next `$ `
// line or the end of the block are its output (blank lines between examples are not), and a
// following `$ echo $?` line is its exit status. An output with `…` lines is an excerpt: each run
// of lines between them must appear, whole and in order, in what the command prints.
// Examples against a cluster (no file input) are left to the e2e tests that start the sandbox.
//
//   node scripts/readme-examples.mjs           check: lists each example whose output differs, exit 1
//   node scripts/readme-examples.mjs --write   rewrites those outputs in README.md
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = `${root}README.md`;
const PROMPT = '$ kubectl rs-reconcile ';
const OFFLINE = /(^| )(-f|--audit-log|--events-file|--recording) (examples|test)\//;

/** The examples of `text`: where each one's output lines start and end, its args, its status line. */
export function examplesOf(text) {
  const lines = text.split('\n');
  const out = [];
  let inConsole = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (out.length && i < out[out.length - 1].end) continue;
    if (l.startsWith('```')) {
      inConsole = !inConsole && l.startsWith('```console');
      continue;
    }
    if (!inConsole || !l.startsWith(PROMPT)) continue;
    const args = l.slice(PROMPT.length);
    if (!OFFLINE.test(` ${args}`) || /[|>;&]/.test(args)) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith('$ ') && !lines[end].startsWith('```')) end++;
    while (end > i + 1 && lines[end - 1] === '') end--;
    const status = lines[end] === '$ echo $?' ? end + 1 : null;
    out.push({ line: i, start: i + 1, end, args, status });
  }
  return out;
}

/** What the example prints, run as the README shows it (at 100 columns, no colour). */
export function run(args) {
  const r = spawnSync('sh', ['-c', `node bin/run.js ${args} 2>&1`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '100', NO_COLOR: '1', FORCE_COLOR: '0', TZ: 'UTC' },
  });
  return { output: r.stdout.replace(/\n$/, ''), status: r.status };
}

/** Whether `shown` (an excerpt when it has `…` lines) is what `output` says. */
export function holds(shown, output) {
  const parts = shown.split('\n…\n');
  if (parts.length === 1) return shown === output;
  const printed = output.split('\n');
  let at = 0;
  for (const part of parts.map((p) => p.split('\n').filter((l) => l !== '…'))) {
    let found = -1;
    for (let k = at; k + part.length <= printed.length && found < 0; k++) if (part.every((l, j) => printed[k + j] === l)) found = k;
    if (found < 0) return false;
    at = found + part.length;
  }
  return true;
}

function main() {
  const write = process.argv.includes('--write');
  const text = readFileSync(readme, 'utf8');
  const lines = text.split('\n');
  const examples = examplesOf(text);
  let stale = 0;
  // from the last, so that replacing one's lines keeps the earlier ones' line numbers
  for (const ex of [...examples].reverse()) {
    const { output, status } = run(ex.args);
    const shown = lines.slice(ex.start, ex.end).join('\n');
    const statusShown = ex.status === null ? null : Number(lines[ex.status]);
    const same = holds(shown, output);
    if (same && (statusShown === null || statusShown === status)) continue;
    stale++;
    const excerpt = shown.includes('\n…\n');
    console.error(
      `README.md:${ex.line + 1}: ${PROMPT}${ex.args}: ${same ? `exit status ${status}, README says ${statusShown}` : excerpt ? 'the excerpt is not in the output (rewrite it by hand)' : 'the output differs'}`,
    );
    if (write && !(excerpt && !same)) {
      if (ex.status !== null) lines[ex.status] = String(status);
      lines.splice(ex.start, ex.end - ex.start, ...output.split('\n'));
    }
  }
  if (write && stale) writeFileSync(readme, lines.join('\n'));
  console.error(`${examples.length} examples, ${stale} ${write ? 'rewritten' : 'out of date'}`);
  process.exitCode = stale && !write ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
