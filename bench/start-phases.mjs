#!/usr/bin/env node
// Where a hot command's start goes, phase by phase, in instructions (callgrind: the same on a
// loaded machine). A copy of the built bundle gets a marker at each phase's end (a call of
// process.getegid, which callgrind is told to cut its count at); the copy runs twice to write its
// code cache, then once under callgrind, beside one `node -e 0`. Markers only: the command does
// what it always does, and what the copy prints is compared with the build's own output.
//
//   node bench/start-phases.mjs [--root DIR] -- explain shop-web -f examples/drifted-replicaset.yaml --now 2026-01-01T00:00:00Z
//
// Each phase is the work from the marker before it to its own, V8's background threads
// included. A marker that does not fire (a JSON input has no YAML phases) leaves its phase's
// work in the next phase's row.
// The anchors are texts of the minified bundle: a build that lacks one stops this script naming
// it. Needs valgrind; Node.js 20's cache (dist/bundle/boot.cjs's vm.Script block).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const sep = args.indexOf('--');
const opt = (name) => (args.includes(name) && args.indexOf(name) < sep ? args[args.indexOf(name) + 1] : undefined);
const root = resolve(opt('--root') ?? fileURLToPath(new URL('..', import.meta.url)));
const words = sep < 0 ? [] : args.slice(sep + 1);
const SPLIT = ['diff', 'explain', 'version', 'completion'];
if (words.length === 0 || !SPLIT.includes(words[0])) {
  console.error(`usage: node bench/start-phases.mjs [--root DIR] -- ${SPLIT.join('|')} WORDS…`);
  process.exit(2);
}

const MARK = (label) => `globalThis.__rsMark?.(${JSON.stringify(label)});`;

/** [file, anchor, replacement]: each anchor must occur once. `$` is the anchor itself. */
const PATCHES = [
  [
    'boot.cjs',
    "const Module = require('node:module');",
    `$\nconst __rsLabels = [];\nglobalThis.__rsMark = (l) => { __rsLabels.push(l); process.getegid(); };\nprocess.on('exit', () => { ${MARK('rendered and written')} fs.writeFileSync(process.env.RS_PHASES_LABELS, __rsLabels.join('\\n')); });\n${MARK('Node.js start, bin/run.cjs, boot.cjs required')}`,
  ],
  ['boot.cjs', '  const script = new vm.Script(', `  ${MARK('the code cache and the file read')}\n$`],
  ['boot.cjs', '  const mod = { exports: {} };', `  ${MARK('compiled from the cache (deserialized)')}\n$`],
  ['boot.cjs', '  return mod.exports;\n}', `  ${MARK("the file's top level evaluated")}\n$`],
  [
    'main',
    'try{let Cmd=(await commands[r.id]()).default;',
    `try{${MARK('the dispatch')}let Cmd=(await commands[r.id]()).default;${MARK("the command's modules evaluated")}`,
  ],
  [
    'main',
    'async function loadSnapshotFiles(',
    `async function loadSnapshotFiles(a,b){${MARK('flags parsed, the command up to its input')}const r=await loadSnapshotFiles__phases(a,b);${MARK('the objects ingested')}return r}async function loadSnapshotFiles__phases(`,
  ],
  [
    'main',
    'n readYamlDocuments(text,file){let{jsyaml,schema}=jsYaml(),docs;try{docs=jsyaml.loadAll(text,void 0,{schema})}',
    `n readYamlDocuments(text,file){${MARK('the file read')}let{jsyaml,schema}=jsYaml(),docs;${MARK("js-yaml's module and schema set up")}try{docs=jsyaml.loadAll(text,void 0,{schema});${MARK("js-yaml's loadAll")}}`,
  ],
  ['main', 'function renderOutput(format2,views){', `$${MARK('the plan')}`],
];

const dir = mkdtempSync(join(tmpdir(), 'start-phases-'));
try {
  const copy = join(dir, 'root');
  mkdirSync(join(copy, 'bin'), { recursive: true });
  cpSync(join(root, 'bin', 'run.cjs'), join(copy, 'bin', 'run.cjs'));
  cpSync(join(root, 'dist', 'bundle'), join(copy, 'dist', 'bundle'), { recursive: true, filter: (src) => !src.includes(join('bundle', '.cache')) });
  const mainFile = `main-${words[0]}.cjs`;
  for (const [file, anchor, replacement] of PATCHES) {
    const path = join(copy, 'dist', 'bundle', file === 'main' ? mainFile : file);
    const text = readFileSync(path, 'latin1');
    const n = text.split(anchor).length - 1;
    if (n !== 1) throw new Error(`${file === 'main' ? mainFile : file}: the anchor ${JSON.stringify(anchor.slice(0, 60))} occurs ${n} times, not once`);
    writeFileSync(
      path,
      text.replace(anchor, () => replacement.replace('$', anchor)),
      'latin1',
    );
  }
  const labelsFile = join(dir, 'labels.txt');
  const env = { ...process.env, RS_RECONCILE_CACHE_DIR: join(dir, 'cache'), RS_PHASES_LABELS: labelsFile, NO_COLOR: '1' };
  delete env.NODE_EXTRA_CA_CERTS; // it makes every start read a CA bundle first
  const own = spawnSync(process.execPath, [join(root, 'bin', 'run.cjs'), ...words], {
    encoding: 'utf8',
    env: { ...env, RS_RECONCILE_CACHE_DIR: join(dir, 'own-cache') },
  });
  for (let i = 0; i < 2; i++) {
    const warm = spawnSync(process.execPath, [join(copy, 'bin', 'run.cjs'), ...words], { encoding: 'utf8', env });
    if (warm.stdout !== own.stdout || warm.status !== own.status)
      throw new Error('the copy with markers printed something else than the build: an anchor moved');
  }
  // callgrind writes cg.out.1, cg.out.2, … (each cut) and cg.out (from the last cut to the end)
  const isPart = (f) => f === 'cg.out' || f.startsWith('cg.out.');
  const count = (argv) => {
    const run = spawnSync(
      'valgrind',
      ['--tool=callgrind', '--compress-strings=no', '--dump-before=*GetEGid*', `--callgrind-out-file=${join(dir, 'cg.out')}`, ...argv],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        env,
      },
    );
    if (run.error) throw new Error(`valgrind: ${run.error.message}`);
    const parts = readdirSync(dir)
      .filter(isPart)
      .map((f) => [f === 'cg.out' ? Number.POSITIVE_INFINITY : Number(f.slice('cg.out.'.length)), readFileSync(join(dir, f), 'utf8')])
      .sort((a, b) => a[0] - b[0])
      .map(([, text]) => Number(/^(?:summary|totals):\s+(\d+)/m.exec(text)?.[1] ?? Number.NaN));
    for (const f of readdirSync(dir)) if (isPart(f)) rmSync(join(dir, f));
    return parts;
  };
  const [bare] = count([process.execPath, '-e', '0']);
  const parts = count([process.execPath, join(copy, 'bin', 'run.cjs'), ...words]);
  const labels = readFileSync(labelsFile, 'utf8').split('\n');
  // part k (from 1) ends at marker k; the last part runs from the last marker to the process's end
  const rows = labels.map((label, k) => [label, parts[k]]);
  rows.push(["the exit handlers and the process's end", parts[labels.length]]);
  const total = parts.reduce((a, b) => a + b, 0);
  const M = (n) => `${(n / 1e6).toFixed(1)} M`;
  console.log(`| phase of \`${words.join(' ')}\` (${root}) | instructions | share |`);
  console.log('|---|---|---|');
  for (const [label, n] of rows) console.log(`| ${label} | ${M(n)} | ${((100 * n) / total).toFixed(1)}% |`);
  console.log(`| all | ${M(total)} | ${(total / bare).toFixed(2)}x \`node -e 0\` (${M(bare)}) |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
