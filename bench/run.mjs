#!/usr/bin/env node
// `npm run bench`: the speed goals of the project, measured in one run on this machine.
//   node bench/run.mjs [--quick] [--only startup,snapshot,tables,history,timeline,planner,rollout,watch,input,controller] [--write docs/benchmarks.md]
// `controller` (bench/controller.mjs) measures the sandbox, `reconcile` and `run` over HTTPS; its
// own sections (sandbox, reconcile, run, memory, scale, deployment-rollout) can be named in --only alone, e.g.
// `--only scale` for `run` scaling one ReplicaSet 0 → 500 → 0 with its writes counted.
// Snapshots come from gen-snapshot.mjs (../shared/tools when it exists, else the vendored copy in
// tools/) and are cached in .bench-cache/. Nothing here asserts on time: it reports numbers, and
// the goals next to them. --write replaces the whole page with this run: every number on it is
// measured here (the prose around the tables is fixed, below).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measurePhases } from './snapshot-phases.mjs';

const root = new URL('..', import.meta.url).pathname;
const cache = join(root, '.bench-cache');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const writeTo = args.includes('--write') ? args[args.indexOf('--write') + 1] : null;
const want = (name) => !only || only.includes(name);
// Every process measured inherits this environment. NODE_EXTRA_CA_CERTS makes each Node.js start
// read a CA bundle before any of its own code runs, the bare references (`node -e 0`, a bare
// JSON.parse) included: left set, it adds the same time to both sides of every ratio and hides
// them. A user's shell seldom sets it; no measurement here needs it (the API server's CA comes
// from the bench's kubeconfig).
delete process.env.NODE_EXTRA_CA_CERTS;
const sharedGen = join(root, '..', 'shared', 'tools', 'gen-snapshot.mjs');
const gen = existsSync(sharedGen) ? sharedGen : join(root, 'tools', 'gen-snapshot.mjs');
const runJs = join(root, 'bin', 'run.js');
// what npm installs as the commands (package.json bin): CommonJS entries
const runCjs = join(root, 'bin', 'run.cjs');
const completeJs = join(root, 'bin', 'complete.cjs');
// the single executable `npm run release` builds for this machine's platform, when it is there
const seaBin = join(
  root,
  'release',
  `sea-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`,
  process.platform === 'win32' ? 'kubectl-rs_reconcile.exe' : 'kubectl-rs_reconcile',
);
const lines = [];
const log = (s = '') => {
  console.log(s);
  lines.push(s);
};
/** The measurements the goals table is made of (filled by the sections that ran). */
const m = {};

if (!existsSync(join(root, 'dist', 'commands', 'diff.js'))) {
  console.error('bench: build first (npm run build)');
  process.exit(2);
}
mkdirSync(cache, { recursive: true });

const GEN_ARGS = (rs, perRs) => ['--rs', String(rs), '--pods-per-rs', String(perRs), '--namespaces', '20', '--nodes', '200', '--drift', '0.1', '--seed', '7'];

/**
 * A cached snapshot is used only if it is whole: not empty, a List with items, closed. A
 * generation that was interrupted (or an empty file) is thrown away and made again. The cache
 * key includes the generator's text, so a changed generator never reuses an old snapshot.
 */
function wholeSnapshot(file) {
  if (!existsSync(file)) return false;
  const size = statSync(file).size;
  if (size < 64) return false;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(256);
    readSync(fd, head, 0, 256, 0);
    const tail = Buffer.alloc(16);
    readSync(fd, tail, 0, 16, size - 16);
    return /"kind":"List"/.test(head.toString()) && /"items":\[\s*\{/.test(head.toString()) && /\]\}\s*$/.test(tail.toString());
  } finally {
    closeSync(fd);
  }
}

function snapshot(rs, perRs) {
  const key = createHash('sha256').update(readFileSync(gen)).update(GEN_ARGS(rs, perRs).join(' ')).digest('hex').slice(0, 12);
  const file = join(cache, `snap-${rs}x${perRs}-${key}.json`);
  if (existsSync(file) && !wholeSnapshot(file)) {
    console.error(`bench: ${file} is not a whole snapshot (empty or cut short): generating it again`);
    rmSync(file);
  }
  if (!existsSync(file)) {
    const part = `${file}.part`;
    const fd = openSync(part, 'w');
    const r = spawnSync(process.execPath, [gen, ...GEN_ARGS(rs, perRs)], { stdio: ['ignore', fd, 'inherit'] });
    closeSync(fd);
    if (r.status !== 0 || !wholeSnapshot(part)) {
      rmSync(part, { force: true });
      throw new Error(`gen-snapshot failed (status ${r.status})`);
    }
    renameSync(part, file); // only a whole snapshot gets the cache's name
  }
  return file;
}

/** Runs a command under /usr/bin/time; returns wall ms and peak RSS (KiB). */
function timed(cmd, argv, { stdout = 'ignore', env = process.env } = {}) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...argv], { encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'], maxBuffer: 1 << 30, env });
  const ms = performance.now() - t0;
  const rssKiB = Number((r.stderr.trim().split('\n').pop() ?? '').trim());
  return { ms, rssKiB, status: r.status, stderr: r.stderr };
}

/**
 * The environment of a measurement whose commands start with a code cache folder of its own
 * (RS_RECONCILE_CACHE_DIR), empty until the measurement's warm-up run writes it. A command's code
 * cache is written by the first run of its form and serves every later one (dist/bundle/boot.cjs),
 * so in the checkout's folder the code a row starts with would be what an earlier run left, on
 * other data or an older code cache scheme. `done()` removes the folder.
 */
function ownCodeCache(label, extra = {}) {
  const dir = mkdtempSync(join(tmpdir(), `rs-bench-cache-${label}-`));
  return { env: { ...process.env, ...extra, RS_RECONCILE_CACHE_DIR: dir }, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const fmtMiB = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
const fmtX = (r) => `${r.toFixed(2)}x`;

const bareParse = (file) =>
  `const t=performance.now();const s=require('fs').readFileSync(${JSON.stringify(file)},'utf8');JSON.parse(s);console.log(performance.now()-t)`;

/** The 10k whole-cluster `diff -o json` against a bare parse of the same file (docs/benchmarks.md). */
const SNAP10K_GOAL = 1.5;

function measureSnapshot(label, rs, perRs, runs, goalRatio, { phases = false } = {}) {
  const file = snapshot(rs, perRs);
  const mb = statSync(file).size / 1e6;
  log(`\n### ${label}: ${rs * perRs} pods / ${rs} ReplicaSets (${mb.toFixed(0)} MB JSON)`);
  const bare = [];
  const diff = [];
  let rss = 0;
  let bareRss = 0;
  const cache = ownCodeCache('snapshot');
  const diffArgv = [runJs, 'diff', '-f', file, '-A', '-o', 'json', '--now', '2026-01-01T00:00:00Z'];
  timed(process.execPath, diffArgv, { env: cache.env }); // warm-up: the page cache, the code cache
  for (let i = 0; i < runs; i++) {
    const b = timed(process.execPath, ['-e', bareParse(file)], { stdout: 'pipe' });
    bare.push(b.ms);
    bareRss = Math.max(bareRss, b.rssKiB);
    const d = timed(process.execPath, diffArgv, { env: cache.env });
    if (d.status !== 0 && d.status !== 1) throw new Error(`diff failed: ${d.stderr}`);
    diff.push(d.ms);
    rss = Math.max(rss, d.rssKiB);
  }
  cache.done();
  // in-process parse time alone (no node start-up), for reference
  const r = spawnSync(process.execPath, ['-e', bareParse(file)], { encoding: 'utf8' });
  const bareIn = Number(r.stdout.trim());
  const ratio = median(diff) / median(bare);
  log(`| measure | median of ${runs} | peak RSS |`);
  log(`|---|---|---|`);
  log(`| bare \`node -e JSON.parse(readFileSync(f))\` (process) | ${fmtMs(median(bare))} | ${fmtMiB(bareRss)} |`);
  log(`| of which read + JSON.parse in-process | ${fmtMs(bareIn)} | |`);
  log(`| \`diff -f snap.json -A -o json\` end to end | ${fmtMs(median(diff))} | ${fmtMiB(rss)} |`);
  log(`| ratio diff / bare parse (goal ≤ ${goalRatio}x) | **${fmtX(ratio)}** | |`);
  if (phases) logPhases(file);
  return { ratio, rssKiB: rss, diffMs: median(diff), bareMs: median(bare) };
}

/** The same work phase by phase in one process, cold (a `diff` process's) and warm (bench/snapshot-phases.mjs). */
function logPhases(file) {
  const p = measurePhases(file);
  const f = (ms) => `${ms.toFixed(0)} ms`;
  log('\nIn one process (`bench/snapshot-phases.mjs`): the first run is what a `diff` process pays, its code');
  log('still cold; the warm column (median of the runs after the second) is the same work once V8 compiled it.');
  log('');
  log('| phase | first run | warm |');
  log('|---|---|---|');
  log(`| read the snapshot (\`-f\`) | ${f(p.diff.first.read)} | ${f(p.diff.warm.read)} |`);
  log(`| the newest timestamp (the hint a \`diff\` without --now gives) | ${f(p.diff.first.hint)} | ${f(p.diff.warm.hint)} |`);
  log(`| plan every controller | ${f(p.diff.first.plan)} | ${f(p.diff.warm.plan)} |`);
  log(`| render \`-o json\` | ${f(p.diff.first.json)} | ${f(p.diff.warm.json)} |`);
  log(`| bare read + \`JSON.parse\` | ${f(p.bare.first.read)} | ${f(p.bare.warm.read)} |`);
}

/**
 * The human tables against `-o json` on 100k pods / 10k ReplicaSets: one row per ReplicaSet, all
 * drawn by cli-table3 (src/render/table.ts lays them out in chunks; one table of 10k rows took
 * 28–41 s by default and 88 s wide, issue 13). Output to a pipe: no colour, no width limit.
 */
function measureTables(runs) {
  const [rs, perRs] = [10000, 10];
  const file = snapshot(rs, perRs);
  log(`\n### Tables: \`diff -f snap.json -A\` on ${rs * perRs} pods / ${rs} ReplicaSets (${(statSync(file).size / 1e6).toFixed(0)} MB JSON)`);
  const modes = [
    ['json', '`-o json`', ['-o', 'json']],
    ['table', 'default table', []],
    ['wide', '`-o wide`', ['-o', 'wide']],
  ];
  const ms = { json: [], table: [], wide: [] };
  const rss = { json: 0, table: 0, wide: 0 };
  for (let i = 0; i < runs; i++) {
    for (const [key, , extra] of modes) {
      const r = timed(process.execPath, [runJs, 'diff', '-f', file, '-A', ...extra, '--now', '2026-01-01T00:00:00Z']);
      if (r.status !== 0 && r.status !== 1) throw new Error(`diff ${extra.join(' ')} failed: ${r.stderr}`);
      ms[key].push(r.ms);
      rss[key] = Math.max(rss[key], r.rssKiB);
    }
  }
  const out = { jsonMs: median(ms.json), tableMs: median(ms.table), wideMs: median(ms.wide), pods: rs * perRs };
  log(`| output | median of ${runs} | ratio to \`-o json\` | peak RSS |`);
  log(`|---|---|---|---|`);
  for (const [key, label] of modes) {
    const t = median(ms[key]);
    const goal = key === 'table' ? ' (goal ≤ 1.3x)' : '';
    log(`| ${label} | ${fmtMs(t)} | ${key === 'json' ? '' : `**${fmtX(t / out.jsonMs)}**${goal}`} | ${fmtMiB(rss[key])} |`);
  }
  return out;
}

/**
 * `history` on a realistic audit log (bench/gen-audit-log.mjs: a GiB by default, 100 MiB with
 * --quick), read in one streaming pass: time, throughput and peak RSS for `-o json` and the
 * default table, and what the run found (from its own summary line). Side by side: a bare
 * line-by-line JSON.parse of the same JSON lines (the floor of any reader), and the same log as a
 * managed cluster exports it, converted to that size (a gcloud array, newest first; a CloudWatch
 * filter-log-events document), read by `history -A -o json` with no format flag.
 */
async function auditLogFile(bytes) {
  const { generateAuditLog } = await import('./gen-audit-log.mjs');
  const genFile = join(root, 'bench', 'gen-audit-log.mjs');
  const key = createHash('sha256').update(readFileSync(genFile)).update(String(bytes)).digest('hex').slice(0, 12);
  const file = join(cache, `audit-${bytes / 1024 ** 2}M-${key}.jsonl`);
  let lines;
  const linesFile = `${file}.lines`;
  if (!existsSync(file) || !existsSync(linesFile)) {
    const part = `${file}.part`;
    const r = await generateAuditLog({ out: part, bytes });
    renameSync(part, file);
    writeFileSync(linesFile, String(r.lines));
  }
  lines = Number(readFileSync(linesFile, 'utf8'));
  return { file, lines };
}

/** The JSON lines `from` as `to` (gcloud, cloudwatch) of about `bytes`, cached like them. */
async function auditExportFile(from, to, bytes) {
  const { convertAuditLog } = await import('./gen-audit-log.mjs');
  const file = from.replace(/\.jsonl$/, `.${to}.json`);
  const eventsFile = `${file}.events`;
  if (!existsSync(file) || !existsSync(eventsFile)) {
    const part = `${file}.part`;
    const r = await convertAuditLog({ from, out: part, to, bytes });
    renameSync(part, file);
    writeFileSync(eventsFile, String(r.events));
  }
  return { file, lines: Number(readFileSync(eventsFile, 'utf8')) };
}

/** A bare reader: each line of a file handed to JSON.parse, nothing else. */
const bareLineParse = (file) =>
  `const rl=require('readline').createInterface({input:require('fs').createReadStream(${JSON.stringify(file)}),crlfDelay:Infinity});let n=0;rl.on('line',(l)=>{if(l){JSON.parse(l);n++}});rl.on('close',()=>console.log(n))`;

async function measureHistory() {
  const bytes = quick ? 100 * 1024 ** 2 : 1024 ** 3;
  const { file, lines } = await auditLogFile(bytes);
  const size = statSync(file).size;
  const gcloud = await auditExportFile(file, 'gcloud', bytes);
  const cloudwatch = await auditExportFile(file, 'cloudwatch', bytes);
  log(`\n### \`history\` on an audit log of ${(size / 1024 ** 2).toFixed(0)} MiB (${lines.toLocaleString('en-US')} lines, bench/gen-audit-log.mjs)`);
  log('| input | run | time | throughput | peak RSS |');
  log('|---|---|---|---|---|');
  const out = { bytes: size, lines };
  const row = (key, input, label, bytesIn, entries, r) => {
    out[key] = { ms: r.ms, rssKiB: r.rssKiB, bytes: bytesIn, entries };
    log(
      `| ${input} | ${label} | ${fmtMs(r.ms)} | ${(bytesIn / 1024 ** 2 / (r.ms / 1000)).toFixed(0)} MiB/s, ${Math.round(entries / (r.ms / 1000)).toLocaleString('en-US')} entries/s | ${fmtMiB(r.rssKiB)} |`,
    );
  };
  const bare = timed(process.execPath, ['-e', bareLineParse(file)]);
  if (bare.status !== 0) throw new Error(`bare parse failed: ${bare.stderr}`);
  row('bare', 'JSON lines', 'bare line-by-line `JSON.parse`', size, lines, bare);
  for (const [key, label, extra] of [
    ['json', '`history -A -o json`', ['-o', 'json']],
    ['table', '`history -A` (table)', []],
  ]) {
    const r = timed(process.execPath, [runJs, 'history', '--audit-log', file, '-A', ...extra]);
    if (r.status !== 0 && r.status !== 1) throw new Error(`history ${extra.join(' ')} failed: ${r.stderr}`);
    row(key, 'JSON lines', label, size, lines, r);
  }
  for (const [key, input, doc] of [
    ['gcloud', `gcloud array (newest first), ${gcloud.lines.toLocaleString('en-US')} entries`, gcloud],
    ['cloudwatch', `CloudWatch filter-log-events, ${cloudwatch.lines.toLocaleString('en-US')} entries`, cloudwatch],
  ]) {
    const r = timed(process.execPath, [runJs, 'history', '--audit-log', doc.file, '-A', '-o', 'json']);
    if (r.status !== 0 && r.status !== 1) throw new Error(`history on ${key} failed: ${r.stderr}`);
    row(key, input, '`history -A -o json`', statSync(doc.file).size, doc.lines, r);
  }
  // memory bounded by the live objects: a log ten times smaller, with as many objects alive
  if (!quick) {
    const small = await auditLogFile(100 * 1024 ** 2);
    const r = timed(process.execPath, [runJs, 'history', '--audit-log', small.file, '-A', '-o', 'json']);
    out.smallRssKiB = r.rssKiB;
    log(
      `| JSON lines, the first 100 MiB of such a log | \`history -A -o json\` | ${fmtMs(r.ms)} | ${(statSync(small.file).size / 1024 ** 2 / (r.ms / 1000)).toFixed(0)} MiB/s | ${fmtMiB(r.rssKiB)} |`,
    );
  }
  // what it found: the summary line under the table
  const summary = spawnSync(process.execPath, [runJs, 'history', '--audit-log', file, '-A'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const found = /(\d+) writes?: (\d+) controller writes? \((\d+) predicted, (\d+) not predicted(?:, (\d+) on unknown state)?\)/.exec(summary.stdout);
  if (found) {
    out.found = { events: Number(found[1]), controller: Number(found[2]), predicted: Number(found[3]), notPredicted: Number(found[4]) };
    log(`\nExplained: ${found[0]}.`);
  }
  return out;
}

async function measurePlanner() {
  log(`\n### Planner alone (src/core, in-process, snapshot already loaded)`);
  const { loadSnapshotFiles } = await import(join(root, 'dist', 'input', 'snapshot-files.js'));
  const { planSnapshot } = await import(join(root, 'dist', 'core', 'plan.js'));
  const { defaultBehaviour } = await import(join(root, 'dist', 'core', 'versions.js'));
  log(`| pods | ReplicaSets | claim decisions | planner time (median of 3) | per pod |`);
  log(`|---|---|---|---|---|`);
  const sizes = quick
    ? [[1000, 10]]
    : [
        [1000, 10],
        [15000, 10],
      ];
  const perPod = {};
  for (const [rs, per] of sizes) {
    const { snapshot: snap } = await loadSnapshotFiles([snapshot(rs, per)]);
    const times = [];
    let decisions = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const plan = planSnapshot(snap, { now: Date.parse('2026-01-01T00:00:00Z'), behaviour: defaultBehaviour(), source: 'file' });
      times.push(performance.now() - t0);
      decisions = plan.controllers.reduce((n, c) => n + c.pods.length, 0);
    }
    const t = median(times);
    perPod[rs * per] = (t * 1000) / (rs * per);
    log(`| ${rs * per} | ${rs} | ${decisions} | ${fmtMs(t)} | ${perPod[rs * per].toFixed(2)} µs |`);
  }
  return perPod;
}

/**
 * A rollout foreseen (explain deploy/NAME --image): predictRollout in-process for a Deployment of
 * 1,000 ready pods rolled with maxSurge 10%, maxUnavailable 0, every step's pod choices included.
 */
async function measureRollout() {
  log(`\n### A rollout foreseen (src/core/deployment/rollout.ts, in-process)`);
  const { predictRollout } = await import(join(root, 'dist', 'core', 'deployment', 'rollout.js'));
  const { defaultBehaviour } = await import(join(root, 'dist', 'core', 'versions.js'));
  const now = Date.parse('2026-01-01T00:00:00Z');
  const at = (ms) => new Date(now - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const labels = { app: 'web', 'pod-template-hash': 'old' };
  const template = (image, l) => ({ metadata: { labels: l }, spec: { containers: [{ name: 'app', image }] } });
  const owner = (kind, name, uid) => [{ apiVersion: 'apps/v1', kind, name, uid, controller: true, blockOwnerDeletion: true }];
  const replicas = 1000;
  const old = {
    metadata: {
      name: 'web-old',
      namespace: 'bench',
      uid: 'rs-old',
      generation: 1,
      creationTimestamp: at(86400e3),
      labels,
      annotations: { 'deployment.kubernetes.io/revision': '1' },
      ownerReferences: owner('Deployment', 'web', 'd-web'),
    },
    spec: { replicas, selector: { matchLabels: labels }, template: template('web:1', labels) },
    status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 },
  };
  const pods = Array.from({ length: replicas }, (_, i) => ({
    metadata: {
      name: `web-old-${i}`,
      namespace: 'bench',
      uid: `p-${i}`,
      creationTimestamp: at(3600e3 + i * 1000),
      labels,
      ownerReferences: owner('ReplicaSet', 'web-old', 'rs-old'),
    },
    spec: { nodeName: `node-${i % 50}` },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at(3000e3 + i * 1000) }] },
  }));
  const deployment = {
    metadata: {
      name: 'web',
      namespace: 'bench',
      uid: 'd-web',
      generation: 2,
      creationTimestamp: at(86400e3),
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: template('web:2', { app: 'web' }),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 } },
      progressDeadlineSeconds: 600,
      revisionHistoryLimit: 10,
    },
    status: { observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas },
  };
  const times = [];
  let result;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    result = predictRollout({
      deployment,
      replicaSets: [old],
      pods,
      nowMs: now,
      behaviour: defaultBehaviour(),
      assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 },
    });
    times.push(performance.now() - t0);
  }
  const deletes = result.steps.filter((s) => s.controller === 'replicaset' && s.verb === 'delete').length;
  log('| replicas | strategy | steps (pod deletes) | simulated | prediction time (median of 3) |');
  log('|---|---|---|---|---|');
  log(
    `| ${replicas} | maxSurge 10%, maxUnavailable 0 | ${result.steps.length} (${deletes}) | ${result.end.state} after ${result.end.at} s | ${fmtMs(median(times))} |`,
  );
  return { ms: median(times), complete: result.end.state === 'complete' };
}

/**
 * Start-up of every command a person or a shell waits on, against a bare `node -e 0` (issue 20,
 * item 8). The runs are interleaved (node, then each command, round after round), so a machine
 * whose speed drifts slows all of them alike; each ratio is the median of the per-round ratios.
 * NODE_EXTRA_CA_CERTS is unset (above, for every process the bench starts). One warm-up round
 * first: it also writes each command's code cache, in a folder of this measurement's own
 * (ownCodeCache). `RS_BENCH_STARTUP_RUNS` sets the rounds (default 21, --quick 7).
 */
const STARTUP_CASES = (small) => [
  ['help', '`--help`', [runCjs, '--help'], 1.5],
  ['version', '`version --client`', [runCjs, 'version', '--client'], 1.5],
  ['completionBash', '`completion bash`', [runCjs, 'completion', 'bash'], 1.5],
  ['tabCommands', "TAB: commands (`kubectl_complete-rs_reconcile ''`)", [completeJs, ''], 1.5],
  ['tabFlags', 'TAB: flags (`kubectl_complete-rs_reconcile diff --`)', [completeJs, 'diff', '--'], 1.5],
  ['explain', '`explain shop-web -f examples/drifted-replicaset.yaml`', [runCjs, 'explain', 'shop-web', '-f', small, '--now', '2026-01-01T00:00:00Z'], 1.8],
  ['diff', '`diff -f examples/drifted-replicaset.yaml`', [runCjs, 'diff', '-f', small, '--now', '2026-01-01T00:00:00Z'], 1.8],
];

/**
 * CPU time of the reaped children so far (user + system, ms), from Linux's own accounting
 * (/proc/self/stat cutime + cstime, in clock ticks of 10 ms): summed over every round, its mean is
 * a CPU figure that a loaded machine disturbs far less than wall time. Null elsewhere.
 */
function childCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10; // fields 16 and 17; USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

function measureStartup() {
  const rounds = Number(process.env.RS_BENCH_STARTUP_RUNS) || (quick ? 7 : 21);
  const small = join(root, 'examples', 'drifted-replicaset.yaml');
  const cache = ownCodeCache('startup', { NO_COLOR: '1' });
  const { env } = cache;
  const cases = [['node', '`node -e 0` (reference)', ['-e', '0'], null], ...STARTUP_CASES(small)];
  if (existsSync(seaBin)) {
    cases.push(['seaVersion', 'single executable: `version --client`', [seaBin, 'version', '--client'], 1.5]);
    cases.push([
      'seaDiff',
      'single executable: `diff -f examples/drifted-replicaset.yaml`',
      [seaBin, 'diff', '-f', small, '--now', '2026-01-01T00:00:00Z'],
      1.8,
    ]);
  }
  const cpu = Object.fromEntries(cases.map(([key]) => [key, 0]));
  const once = (argv, key) => {
    const c0 = childCpuMs();
    const t0 = performance.now();
    const [cmd, ...rest] = argv[0] === seaBin ? argv : [process.execPath, ...argv];
    const r = spawnSync(cmd, rest, { stdio: 'ignore', env });
    if (r.status !== 0 && r.status !== 1) throw new Error(`start-up: ${argv.join(' ')} exited ${r.status}`);
    const t = performance.now() - t0;
    if (key && c0 !== null) cpu[key] += childCpuMs() - c0;
    return t;
  };
  for (const [, , argv] of cases) once(argv); // warm-up: the page cache, the code cache
  const ms = Object.fromEntries(cases.map(([key]) => [key, []]));
  const ratios = Object.fromEntries(cases.map(([key]) => [key, []]));
  for (let i = 0; i < rounds; i++) {
    let nodeMs = 0;
    for (const [key, , argv] of cases) {
      const t = once(argv, key);
      if (key === 'node') nodeMs = t;
      ms[key].push(t);
      ratios[key].push(t / nodeMs);
    }
  }
  cache.done();
  log(`\n### Start-up: ${rounds} interleaved rounds, medians, wall clock with the process spawn`);
  const hasCpu = childCpuMs() !== null;
  log(`| command | median wall | ratio to \`node -e 0\` (median of per-round ratios) | goal | |${hasCpu ? ' mean CPU (user + sys) | CPU ratio |' : ''}`);
  log(`|---|---|---|---|---|${hasCpu ? '---|---|' : ''}`);
  const out = { rounds, node: median(ms.node), cases: {} };
  for (const [key, label, , goal] of cases) {
    const t = median(ms[key]);
    const ratio = median(ratios[key]);
    const cpuMs = cpu[key] / rounds;
    const cpuRatio = cpu[key] / cpu.node;
    out.cases[key] = { label, ms: t, ratio, goal, cpuMs, cpuRatio };
    const cpuCols = hasCpu ? ` ${fmtMs(cpuMs)} | ${key === 'node' ? '' : fmtX(cpuRatio)} |` : '';
    log(
      `| ${label} | ${fmtMs(t)} | ${key === 'node' ? '' : `**${fmtX(ratio)}**`} | ${goal ? `≤ ${goal}x` : ''} | ${goal ? (ratio <= goal ? 'met' : '**not met**') : ''} |${cpuCols}`,
    );
  }
  log(
    `Load while measured: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (1, 5, 15 min) on ${cpus().length} cores.`,
  );
  return out;
}

log(
  `## Run of ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}${quick ? ' (--quick: fewer runs, no 150k snapshot, shorter steady-state window)' : ''}`,
);
if (want('startup')) m.startup = measureStartup();
if (want('snapshot')) {
  m.snap10k = measureSnapshot('Whole-cluster diff', 1000, 10, quick ? 1 : 5, SNAP10K_GOAL, { phases: true });
  if (!quick) m.snap150k = measureSnapshot('Scalability envelope', 15000, 10, 2, 2.5);
}
if (want('tables')) m.tables = measureTables(quick ? 1 : 3);
if (want('history')) m.history = await measureHistory();
if (want('timeline')) {
  // history -o html of the same generated log (bench/timeline.mjs), drawn in headless Chromium
  const { file } = await auditLogFile(quick ? 100 * 1024 ** 2 : 1024 ** 3);
  log(`\n### \`history -A -o html\`: the timeline page of the ${(statSync(file).size / 1024 ** 2).toFixed(0)} MiB log's history, drawn in headless Chromium`);
  const { measureTimeline } = await import('./timeline.mjs');
  m.timeline = await measureTimeline({ log: file, out: join(cache, 'timeline.html'), timed, fmtMs });
  for (const line of m.timeline.lines) log(line);
}
if (want('planner')) m.planner = await measurePlanner();
if (want('rollout')) m.rollout = await measureRollout();
if (want('watch')) {
  const { measureWatchRender, watchRenderLines } = await import('./watch-render.mjs');
  const r = await measureWatchRender();
  if (r.status !== 0) throw new Error(`watch render measurement failed: ${r.stderr}`);
  m.watch = r.metrics;
  log('\n### `watch`: render times with 10k pods, 120x40, React production build (goal: re-render < 50 ms)');
  log('| step | median (max) |');
  log('|---|---|');
  for (const line of watchRenderLines(r.metrics)) log(line);
}
// Reading input (bench/input.mjs, when it is there): its own section, markdown lines.
if (want('input') && existsSync(join(root, 'bench', 'input.mjs'))) {
  const { measureInput } = await import('./input.mjs');
  log('\n### Reading snapshots: each reader in its own process (wall, CPU, peak RSS)');
  for (const line of await measureInput({ quick })) log(line);
}
const CONTROLLER_SECTIONS = ['sandbox', 'reconcile', 'run', 'memory', 'scale', 'deployment-rollout'];
const controllerOnly = only?.filter((s) => CONTROLLER_SECTIONS.includes(s)) ?? [];
if (want('controller') || controllerOnly.length) {
  const metricsFile = join(tmpdir(), `rs-bench-controller-${process.pid}.json`);
  const select = want('controller') ? [] : ['--only', controllerOnly.join(',')];
  const r = spawnSync(process.execPath, [join(root, 'bench', 'controller.mjs'), ...(quick ? ['--quick'] : []), ...select, '--metrics', metricsFile], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`bench/controller.mjs exited ${r.status}`);
  for (const line of r.stdout.replace(/\n$/, '').split('\n')) log(line);
  m.controller = JSON.parse(readFileSync(metricsFile, 'utf8'));
  rmSync(metricsFile, { force: true });
}

// ---- the goals, from this run's numbers ------------------------------------------------------
function goalRows() {
  const rows = [];
  const row = (goal, measured, met) => rows.push(`| ${goal} | ${measured} | ${met === undefined ? '' : met ? 'met' : '**not met**'} |`);
  if (m.rollout)
    row(
      'a 1,000-replica rollout (maxSurge 10%, maxUnavailable 0) foreseen, pod by pod, in well under a second',
      fmtMs(m.rollout.ms),
      m.rollout.complete && m.rollout.ms < 500,
    );
  const s = m.startup;
  if (s) {
    for (const c of Object.values(s.cases)) {
      if (c.goal)
        row(`${c.label} ≤ ${c.goal}x \`node -e 0\``, `${fmtX(c.ratio)} (${fmtMs(c.ms)} vs ${fmtMs(s.node)}); CPU ${fmtX(c.cpuRatio)}`, c.ratio <= c.goal);
    }
    const times = Object.entries(s.cases)
      .filter(([k]) => k !== 'node')
      .map(([, c]) => c.ms);
    row(
      'start-up under 150 ms (issue 2)',
      `${fmtMs(Math.min(...times))}–${fmtMs(Math.max(...times))}; \`node -e 0\` alone ${fmtMs(s.node)}`,
      Math.max(...times) < 150,
    );
  }
  if (m.snap10k) row(`10k pods: \`diff -o json\` ≤ ${SNAP10K_GOAL}x a bare \`JSON.parse\``, fmtX(m.snap10k.ratio), m.snap10k.ratio <= SNAP10K_GOAL);
  if (m.snap150k) {
    row('150k pods: completes, peak RSS < 2 GiB', `completes; ${fmtMiB(m.snap150k.rssKiB)}`, m.snap150k.rssKiB < 2 * 1024 * 1024);
    row('150k pods: ≤ 2.5x a bare parse', `${fmtX(m.snap150k.ratio)} (${fmtMs(m.snap150k.diffMs)} vs ${fmtMs(m.snap150k.bareMs)})`, m.snap150k.ratio <= 2.5);
  }
  if (m.tables) {
    const t = m.tables;
    row(
      `${t.pods / 1000}k pods: the default \`diff\` table ≤ 1.3x \`-o json\``,
      `${fmtX(t.tableMs / t.jsonMs)} (${fmtMs(t.tableMs)} vs ${fmtMs(t.jsonMs)}); \`-o wide\` ${fmtX(t.wideMs / t.jsonMs)} (${fmtMs(t.wideMs)})`,
      t.tableMs / t.jsonMs <= 1.3,
    );
  }
  if (m.timeline?.chromium) {
    const c = m.timeline.chromium;
    const slowest = Math.max(c.redraws.zoomIn, c.redraws.zoomOut, c.redraws.scroll);
    row(
      '`history -o html` of the generated log: one file, drawn in headless Chromium, each redraw (zoom, scroll) < 100 ms',
      `${(m.timeline.bytes / 2 ** 20).toFixed(1)} MiB; first drawing ${fmtMs(c.wallMs)}; redraws ≤ ${fmtMs(slowest)}`,
      slowest < 100,
    );
  }
  if (m.history?.smallRssKiB) {
    const h = m.history;
    row(
      "`history` on a 1 GiB audit log: one streaming pass, memory bounded by the live objects (peak RSS within 1.5x of a 100 MiB log's)",
      `${fmtMs(h.json.ms)}, ${fmtMiB(h.json.rssKiB)} (100 MiB log: ${fmtMiB(h.smallRssKiB)})`,
      h.json.rssKiB <= 1.5 * h.smallRssKiB,
    );
  }
  if (m.history?.bare) {
    const h = m.history;
    row(
      'JSON-lines path (`history -A -o json`) ≤ 1.5x a bare line-by-line JSON.parse',
      `${fmtX(h.json.ms / h.bare.ms)} (${fmtMs(h.json.ms)} vs ${fmtMs(h.bare.ms)})`,
      h.json.ms <= 1.5 * h.bare.ms,
    );
    const mibs = (r) => r.bytes / 1024 ** 2 / (r.ms / 1000);
    for (const [key, label] of [
      ['gcloud', 'gcloud array'],
      ['cloudwatch', 'CloudWatch document'],
    ]) {
      const r = h[key];
      const ratio = mibs(r) / mibs(h.json);
      const perEntry = r.entries / r.ms / (h.json.entries / h.json.ms);
      row(
        `${label} ≥ 80% of the JSON-lines throughput at the same memory bound (peak RSS within 1.5x)`,
        `${(100 * ratio).toFixed(0)}% (${mibs(r).toFixed(0)} vs ${mibs(h.json).toFixed(0)} MiB/s; per entry ${(100 * perEntry).toFixed(0)}%); ${fmtMiB(r.rssKiB)} vs ${fmtMiB(h.json.rssKiB)}`,
        ratio >= 0.8 && r.rssKiB <= 1.5 * h.json.rssKiB,
      );
    }
  }
  if (m.planner && m.planner[150000] !== undefined) {
    const [a, b] = [m.planner[10000], m.planner[150000]];
    row('planner scales linearly (time per pod at 150k within 1.5x of 10k)', `${a.toFixed(2)} → ${b.toFixed(2)} µs per pod`, b <= 1.5 * a);
  }
  const c = m.controller ?? {};
  if (c.sandbox) {
    row('sandbox: list 10k pods < 200 ms', fmtMs(c.sandbox.listMs), c.sandbox.listMs < 200);
    row(
      'sandbox: 500 sequential creates < 2 s',
      `${fmtMs(c.sandbox.createsMs)} through client-node (a TLS handshake each); ${fmtMs(c.sandbox.keptAliveMs)} over one kept-alive connection`,
      c.sandbox.createsMs < 2000,
    );
  }
  if (c.reconcile) {
    const x = c.reconcile;
    row(
      '`reconcile` 0 → 500: round trips = slow-start batches',
      `${x.batches.length} batches, ${x.roundTrips} round trips of creates in the audit log`,
      x.roundTrips === x.batches.length,
    );
    row(
      '`reconcile` 0 → 500: ≤ 1.5x the sandbox floor',
      `${fmtX(x.ms / x.floorMs)} (${fmtMs(x.ms)} vs ${fmtMs(x.floorMs)}) with the CLI's default limiter (${x.qps} qps, burst ${x.burst}), whose own minimum for its ${x.requests} requests is ${fmtMs(x.limiterMinMs)}`,
      x.ms <= 1.5 * x.floorMs,
    );
  }
  if (c.run) row('`run` 1,000 × 10: caches synced and all in sync', c.run.map((r) => `${fmtMs(r.ms)} (${r.label})`).join(', '));
  if (c.steady) row('`run` steady state: zero writes per minute', `${c.steady.writes} writes in ${c.steady.windowS} s`, c.steady.writes === 0);
  if (c.scale) {
    const w = c.scale.counts.all;
    const pods = w.podCreates + w.podDeletes + w.podPatches;
    const events = w.eventCreates + w.eventPatches;
    row(
      '`run` 0 → 500 → 0 at its defaults: about 1,000 pod writes (± 5%), a few dozen event writes (< 100), a handful of status writes (≤ 10)',
      `${pods} pod writes (${w.podCreates} creates, ${w.podDeletes} deletes, ${w.podPatches} patches), ${events} event writes (${w.eventCreates} creates, ${w.eventPatches} patches), ${w.statusUpdates} status updates, ${w.leaseWrites} lease writes; 500 ready in ${fmtMs(c.scale.phases.readyMs)}, back to 0 in ${fmtMs(c.scale.phases.zeroMs)}`,
      Math.abs(pods - 1000) <= 50 && events < 100 && w.statusUpdates <= 10,
    );
  }
  if (c.deploymentRollout) {
    const { made, implied } = c.deploymentRollout;
    const keys = ['replicaSetCreates', 'replicaSetUpdates', 'replicaSetDeletes', 'podCreates', 'podDeletes'];
    row(
      "`run` rolls a 500-pod Deployment with no more writes than upstream's rules imply for the same rollout (ReplicaSet and pod writes; the rules foreseen by `explain deploy/web --image`)",
      `ReplicaSets: ${made.replicaSetCreates} create, ${made.replicaSetUpdates} updates, ${made.replicaSetDeletes} deletes (rules: ${implied.replicaSetCreates}, ${implied.replicaSetUpdates}, ${implied.replicaSetDeletes}); pods: ${made.podCreates} creates, ${made.podDeletes} deletes (rules: ${implied.podCreates}, ${implied.podDeletes}); ${made.deploymentStatus} Deployment and ${made.replicaSetStatus} ReplicaSet status updates; complete in ${fmtMs(c.deploymentRollout.ms)}`,
      keys.every((k) => made[k] <= implied[k]),
    );
  }
  if (c.memory)
    row('`run` with 100k pods cached: RSS < 1 GiB', `${fmtMiB(c.memory.rssKiB)} (in sync after ${fmtMs(c.memory.ms)})`, c.memory.rssKiB < 1024 * 1024);
  if (m.watch) {
    const w = m.watch;
    const worst = Math.max(w.list.median, w.move.median, w.bigMove.median, w.bigReplanRender.median);
    row(
      '`watch`: re-render with 10k pods < 50 ms',
      `200 × 50 pods: new plan → frame ${w.list.median.toFixed(1)} ms, key moves ${w.move.median.toFixed(1)} ms; one ReplicaSet of 10k pods: key moves ${w.bigMove.median.toFixed(1)} ms, a new plan's frame → its detail ${w.bigReplanRender.median.toFixed(1)} ms (the plan itself: ${w.planOne.toFixed(1)} ms)`,
      worst < 50,
    );
  }
  return rows;
}

// printed last, written first (after the run's heading)
const goals = ['', '### Against the goals', '| goal | measured | |', '|---|---|---|', ...goalRows()];
for (const line of goals) console.log(line);

if (writeTo) {
  const page = [
    '<!-- Written by `node bench/run.mjs --write docs/benchmarks.md` from one run: do not edit by hand. -->',
    '# Benchmarks',
    '',
    '`npm run bench` (bench/run.mjs, with bench/controller.mjs for the API server, `reconcile` and',
    '`run`) measures every speed goal of the project in one run and prints the numbers next to the',
    'goals. Nothing in the test suite asserts on time; this page is one run, written whole by',
    '`npm run bench -- --write docs/benchmarks.md`: every number below comes from that run.',
    '',
    'Snapshots come from `gen-snapshot.mjs --rs N --pods-per-rs 10 --namespaces 20 --nodes 200',
    '--drift 0.1 --seed 7` (`../shared/tools/`, or its vendored copy in `tools/`): 10% of the',
    'ReplicaSets drift, so the plans have real work in them, and every object has its own uid. The',
    'controller benchmarks run against the embedded API server over real HTTPS, in the same process',
    "as the measuring client (the sandbox and the measured command share the machine's cores), with",
    "the CLI's default client-side limits (`--kube-api-qps`, `--kube-api-burst`). `reconcile`'s round",
    "trips are counted in the sandbox's audit log. Start-up goals are ratios to a bare `node -e 0`",
    'on the same machine. Every process measured runs with `NODE_EXTRA_CA_CERTS` unset: set, it makes',
    'each Node.js start read a CA bundle first, adding the same time to both sides of every ratio.',
    'The start-up and whole-cluster rows give their commands a code cache folder of their own, which',
    "their warm-up run writes: a command's cache is written by the first run of its form, and the",
    "checkout's folder holds what earlier runs left.",
    '',
    'The `scale` row starts `run` at its default flags against a sandbox with the `sandbox`',
    "command's 3 fake nodes (its scheduler and kubelet bind a pod, run it and report it Ready about",
    '450 ms after it is created, and remove a deleted pod after 200 ms), scales one ReplicaSet',
    'through its scale subresource from 0 to 500, waits for `status.replicas` and',
    '`status.readyReplicas` to reach 500 and for `run` to go quiet, then scales it to 0 and waits for',
    "`status.replicas` 0. Its writes are counted in the sandbox's audit file (every entry) by the",
    "CLI's User-Agent, so the bench's scale requests and the simulated kubelet's writes are not",
    "among them; the phases are timed from the bench's scale request.",
    '',
    'The `watch` numbers come from bench/watch-render.mjs (the same measurement',
    '`test/ui/render-budget.test.tsx` runs to check the screens, without asserting on times).',
    '',
    lines[0],
    ...goals,
    ...lines.slice(1),
    '',
  ].join('\n');
  writeFileSync(resolve(root, writeTo), page);
  console.log(`\nwrote ${writeTo}`);
}
