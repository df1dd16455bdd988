#!/usr/bin/env node
// `npm run bench`: the speed goals of the project, measured in one run on this machine.
//   node bench/run.mjs [--quick] [--only startup,snapshot,planner,watch,controller] [--write docs/benchmarks.md]
// `controller` (bench/controller.mjs) measures the sandbox, `reconcile` and `run` over HTTPS.
// Snapshots come from ../shared/tools/gen-snapshot.mjs and are cached in .bench-cache/.
// Nothing here asserts on time: it reports numbers (and the goals next to them).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const cache = join(root, '.bench-cache');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const writeTo = args.includes('--write') ? args[args.indexOf('--write') + 1] : null;
const want = (name) => !only || only.includes(name);
const gen = join(root, '..', 'shared', 'tools', 'gen-snapshot.mjs');
const runJs = join(root, 'bin', 'run.js');
const lines = [];
const log = (s = '') => {
  console.log(s);
  lines.push(s);
};

if (!existsSync(join(root, 'dist', 'commands', 'diff.js'))) {
  console.error('bench: build first (npm run build)');
  process.exit(2);
}
mkdirSync(cache, { recursive: true });

/**
 * gen-snapshot.mjs's random numbers lose precision (its LCG multiplies past 2^53 in floating
 * point), so its sequence cycles early and ReplicaSets get the same uid: 132 distinct uids for
 * 15,000 ReplicaSets. Upstream identifies owners by uid, so ReplicaSets of one namespace sharing
 * a uid claim (and release) each other's pods: the plan grows to millions of claim decisions.
 * The `exact` variant runs the same generator with its LCG in exact integer arithmetic.
 */
function generator(exact) {
  if (!exact) return gen;
  const file = join(cache, 'gen-snapshot-exact.mjs');
  const text = readFileSync(gen, 'utf8');
  const from = 'const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);';
  if (!text.includes(from)) throw new Error('gen-snapshot.mjs changed: review generator() in bench/run.mjs');
  writeFileSync(file, text.replace(from, 'const rand = () => ((seed = Number((BigInt(seed) * 1103515245n + 12345n) % 2147483648n)) / 2147483648);'));
  return file;
}

function snapshot(rs, perRs, exact = false) {
  const file = join(cache, `snap-${exact ? 'exact-' : ''}${rs}x${perRs}.json`);
  if (!existsSync(file)) {
    const fd = openSync(file, 'w');
    const r = spawnSync(process.execPath, [generator(exact), '--rs', String(rs), '--pods-per-rs', String(perRs), '--namespaces', '20', '--nodes', '200', '--drift', '0.1', '--seed', '7'], { stdio: ['ignore', fd, 'inherit'] });
    closeSync(fd);
    if (r.status !== 0) throw new Error('gen-snapshot failed');
  }
  return file;
}

/** How many ReplicaSets share their uid with another one (see generator()). */
function sharedUids(file) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', '-e', `const s=JSON.parse(require('fs').readFileSync(${JSON.stringify(file)},'utf8'));const n=new Map();for(const o of s.items)if(o.kind==='ReplicaSet')n.set(o.metadata.uid,(n.get(o.metadata.uid)||0)+1);let rs=0,u=0;for(const v of n.values()){u++;if(v>1)rs+=v}console.log(rs+' '+u)`], { encoding: 'utf8' });
  const [rs, distinct] = r.stdout.trim().split(' ').map(Number);
  return { rs, distinct };
}

/** Runs a command under /usr/bin/time; returns wall ms and peak RSS (KiB). */
function timed(cmd, argv, { stdout = 'ignore' } = {}) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...argv], { encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'], maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  const rssKiB = Number((r.stderr.trim().split('\n').pop() ?? '').trim());
  return { ms, rssKiB, status: r.status, stderr: r.stderr };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const fmtMiB = (kib) => `${(kib / 1024).toFixed(0)} MiB`;

const bareParse = (file) =>
  `const t=performance.now();const s=require('fs').readFileSync(${JSON.stringify(file)},'utf8');JSON.parse(s);console.log(performance.now()-t)`;

function measureSnapshot(label, rs, perRs, runs, goalRatio, exact = false) {
  const file = snapshot(rs, perRs, exact);
  const mb = statSync(file).size / 1e6;
  const shared = sharedUids(file);
  log(`\n### ${label}: ${rs * perRs} pods / ${rs} ReplicaSets (${mb.toFixed(0)} MB JSON)`);
  log(
    exact
      ? `Generated with the generator's LCG in exact integer arithmetic: ${shared.distinct} distinct ReplicaSet uids.`
      : `As gen-snapshot.mjs makes it: ${shared.distinct} distinct uids for ${rs} ReplicaSets (${shared.rs} share theirs), so ReplicaSets of a namespace claim each other's pods, as upstream would.`,
  );
  const bare = [];
  const bareIn = [];
  const diff = [];
  let rss = 0;
  let bareRss = 0;
  for (let i = 0; i < runs; i++) {
    const b = timed(process.execPath, ['-e', bareParse(file)], { stdout: 'pipe' });
    bare.push(b.ms);
    bareRss = Math.max(bareRss, b.rssKiB);
    const d = timed(process.execPath, [runJs, 'diff', '-f', file, '-A', '-o', 'json', '--now', '2026-01-01T00:00:00Z']);
    if (d.status !== 0 && d.status !== 1) throw new Error(`diff failed: ${d.stderr}`);
    diff.push(d.ms);
    rss = Math.max(rss, d.rssKiB);
  }
  // in-process parse time alone (no node start-up), for reference
  const r = spawnSync(process.execPath, ['-e', bareParse(file)], { encoding: 'utf8' });
  bareIn.push(Number(r.stdout.trim()));
  const ratio = median(diff) / median(bare);
  log(`| measure | median of ${runs} | peak RSS |`);
  log(`|---|---|---|`);
  log(`| bare \`node -e JSON.parse(readFileSync(f))\` (process) | ${fmtMs(median(bare))} | ${fmtMiB(bareRss)} |`);
  log(`| of which read + JSON.parse in-process | ${fmtMs(median(bareIn))} | |`);
  log(`| \`diff -f snap.json -A -o json\` end to end | ${fmtMs(median(diff))} | ${fmtMiB(rss)} |`);
  log(`| ratio diff / bare parse (goal ≤ ${goalRatio}x) | **${ratio.toFixed(2)}x** | |`);
  return { ratio, rss };
}

async function measurePlanner() {
  log(`\n### Planner alone (src/core, in-process, snapshot already loaded)`);
  const { loadSnapshotFiles } = await import(join(root, 'dist', 'input', 'snapshot-files.js'));
  const { planSnapshot } = await import(join(root, 'dist', 'core', 'plan.js'));
  const { defaultBehaviour } = await import(join(root, 'dist', 'core', 'versions.js'));
  log(`| pods | ReplicaSets | snapshot | claim decisions | planner time (median of 3) | per pod |`);
  log(`|---|---|---|---|---|---|`);
  const sizes = quick ? [[1000, 10]] : [[1000, 10], [15000, 10]];
  for (const exact of [true, false]) {
    for (const [rs, per] of sizes) {
      const { snapshot: snap } = await loadSnapshotFiles([snapshot(rs, per, exact)]);
      const times = [];
      let decisions = 0;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const plan = planSnapshot(snap, { now: Date.parse('2026-01-01T00:00:00Z'), behaviour: defaultBehaviour(), source: 'file' });
        times.push(performance.now() - t0);
        decisions = plan.controllers.reduce((n, c) => n + c.pods.length, 0);
      }
      const m = median(times);
      log(`| ${rs * per} | ${rs} | ${exact ? 'unique uids' : 'as generated'} | ${decisions} | ${fmtMs(m)} | ${((m * 1000) / (rs * per)).toFixed(2)} µs |`);
    }
  }
}

function measureStartup() {
  log(`\n### Start-up (median of 15 runs, wall clock, process spawn included)`);
  const small = join(root, 'examples', 'drifted-replicaset.yaml');
  const cases = [
    ['node -e 0 (reference)', ['-e', '0']],
    ['kubectl-rs_reconcile --help (goal ≤ 2.5x)', [runJs, '--help']],
    ['version', [runJs, 'version']],
    ['diff -f examples/drifted-replicaset.yaml (goal ≤ 3.5x)', [runJs, 'diff', '-f', small, '--now', '2026-01-01T00:00:00Z']],
    ['diff -f … -o json', [runJs, 'diff', '-f', small, '-o', 'json', '--now', '2026-01-01T00:00:00Z']],
  ];
  log(`| command | median | ratio to node -e 0 |`);
  log(`|---|---|---|`);
  let base = 0;
  for (const [label, argv] of cases) {
    const ts = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      spawnSync(process.execPath, argv, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
      ts.push(performance.now() - t0);
    }
    const m = median(ts);
    if (!base) base = m;
    log(`| ${label} | ${fmtMs(m)} | ${(m / base).toFixed(2)}x |`);
  }
}

log(`## Run of ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
if (want('startup')) measureStartup();
if (want('snapshot')) {
  measureSnapshot('Whole-cluster diff', 1000, 10, quick ? 1 : 5, 2);
  measureSnapshot('Whole-cluster diff, unique uids', 1000, 10, quick ? 1 : 5, 2, true);
  if (!quick) {
    measureSnapshot('Scalability envelope', 15000, 10, 2, 2.5);
    measureSnapshot('Scalability envelope, unique uids', 15000, 10, 2, 2.5, true);
  }
}
if (want('planner')) await measurePlanner();
if (want('watch')) {
  const { measureWatchRender, watchRenderLines } = await import('./watch-render.mjs');
  const r = await measureWatchRender();
  if (r.status !== 0) throw new Error(`watch render measurement failed: ${r.stderr}`);
  log('\n### `watch`: render times with 10k pods, 120x40, React production build (goal: re-render < 50 ms)');
  log('| step | median (max) |');
  log('|---|---|');
  for (const line of watchRenderLines(r.metrics)) log(line);
}
if (want('controller')) {
  const r = spawnSync(process.execPath, [join(root, 'bench', 'controller.mjs'), ...(quick ? ['--quick'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bench/controller.mjs exited ${r.status}`);
  for (const line of r.stdout.replace(/\n$/, '').split('\n')) log(line);
}

if (writeTo) {
  const path = join(root, writeTo);
  const prev = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const marker = '<!-- bench:run -->';
  const body = `${marker}\n${lines.join('\n')}\n${marker}`;
  const next = prev.includes(marker) ? prev.replace(new RegExp(`${marker}[\\s\\S]*${marker}`), body) : `${prev}\n${body}\n`;
  writeFileSync(path, next);
  console.log(`\nwrote ${writeTo}`);
}
