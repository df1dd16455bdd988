#!/usr/bin/env node
// Benchmarks of the embedded API server, `reconcile` and `run` (issues 3 and 4), against the
// sandbox over real HTTPS. Reports numbers; asserts nothing about time. The commands run as the
// CLI (bin/run.js) with its default client-side limits: no --kube-api-qps/--kube-api-burst.
//   node bench/controller.mjs [--quick] [--only sandbox,reconcile,run,memory,scale,deployment-rollout] [--metrics FILE]
// Prints markdown rows; bench/run.mjs includes them in docs/benchmarks.md, and its goals table is
// made of the numbers written to FILE (JSON).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const { startSandbox } = await import(dist('sandbox/index.js'));
const { KubeConfig, CoreV1Api } = await import('@kubernetes/client-node');
const { default: Reconcile } = await import(dist('commands/reconcile.js'));
const runJs = join(root, 'bin', 'run.js');
const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : null;
const metricsAt = process.argv.indexOf('--metrics');
const metricsFile = metricsAt >= 0 ? process.argv[metricsAt + 1] : null;
/** The numbers behind the rows, for bench/run.mjs's goals table. */
const metrics = {};
const want = (section) => !only || only.includes(section);
export const lines = [];
const log = (s = '') => {
  console.log(s);
  lines.push(s);
};
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const labels = (i) => ({ app: `app-${i}` });
function rs(i, replicas, ns = 'default') {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `app-${i}`, namespace: ns, uid: `rs-uid-${i}`, generation: 1 },
    spec: { replicas, selector: { matchLabels: labels(i) }, template: { metadata: { labels: labels(i) }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    // the sandbox reports v1.32: no terminatingReplicas in status, as a 1.32 server would have
    status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 },
  };
}
function pod(i, j, ns = 'default') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `app-${i}-${j}`,
      namespace: ns,
      uid: `pod-${i}-${j}`,
      labels: labels(i),
      creationTimestamp: '2025-12-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${i}`, uid: `rs-uid-${i}`, controller: true, blockOwnerDeletion: true }],
    },
    spec: { nodeName: `node-${j % 10}`, containers: [{ name: 'c', image: 'x' }] },
    // container statuses as a kubelet reports them: a sandbox kubelet has nothing to add to these pods
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-01T00:01:00Z' }],
      containerStatuses: [
        { name: 'c', image: 'x', imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: '2025-12-01T00:00:30Z' } } },
      ],
    },
  };
}
function world(nRS, perRS) {
  const items = [];
  for (let i = 0; i < nRS; i++) {
    items.push(rs(i, perRS));
    for (let j = 0; j < perRS; j++) items.push(pod(i, j));
  }
  return items;
}
async function client(sb) {
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-'));
  await sb.writeKubeconfig(join(dir, 'config'));
  return { core: kc.makeApiClient(CoreV1Api), kubeconfig: join(dir, 'config') };
}

// ---- the sandbox itself --------------------------------------------------------------------
if (want('sandbox')) {
  log('\n### Embedded API server (sandbox)');
  const sb = await startSandbox({ seed: world(1000, 10), gc: false });
  const { core } = await client(sb);
  const { request } = await import('node:https');
  const raw = () =>
    new Promise((resolve, reject) => {
      const req = request(`${sb.url}/api/v1/namespaces/default/pods`, { headers: { Authorization: `Bearer ${sb.token}` }, ca: sb.ca }, (res) => {
        let n = 0;
        res.on('data', (d) => (n += d.length));
        res.on('end', () => resolve(n));
      });
      req.on('error', reject);
      req.end();
    });
  const rawTimes = [];
  let bytes = 0;
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    bytes = await raw();
    rawTimes.push(performance.now() - t);
  }
  const single = [];
  const paged = [];
  for (let r = 0; r < 5; r++) {
    let t = performance.now();
    const all = await core.listNamespacedPod({ namespace: 'default' });
    single.push(performance.now() - t);
    if (all.items.length !== 10_000) throw new Error('expected 10k pods');
    t = performance.now();
    let cont;
    do {
      const page = await core.listNamespacedPod({ namespace: 'default', limit: 500, _continue: cont });
      cont = page.metadata._continue;
    } while (cont);
    paged.push(performance.now() - t);
  }
  const creates = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < 500; i++)
      await core.createNamespacedPod({
        namespace: 'default',
        body: { metadata: { generateName: `seq-${r}-` }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      });
    creates.push(performance.now() - t);
  }
  // the same creates over one kept-alive connection: the server's own cost (client-node opens a
  // new TLS connection, handshake included, for every request)
  const { Agent } = await import('node:https');
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: sb.ca });
  const post = (body) =>
    new Promise((resolve, reject) => {
      const req = request(
        `${sb.url}/api/v1/namespaces/default/pods`,
        { method: 'POST', agent, headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create: ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const keptAlive = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < 500; i++)
      await post({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: `ka-${r}-` }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    keptAlive.push(performance.now() - t);
  }
  agent.destroy();
  log('| measure | median | goal |');
  log('|---|---|---|');
  log(`| list 10k pods, one request, served (raw HTTPS, ${(bytes / 1e6).toFixed(1)} MB) | ${fmt(median(rawTimes))} | < 200 ms |`);
  log(`| list 10k pods, one request, through client-node (incl. its model decoding) | ${fmt(median(single))} | |`);
  log(`| list 10k pods in pages of 500 (20 requests) | ${fmt(median(paged))} | |`);
  log(`| 500 sequential creates through client-node (a TLS handshake each) | ${fmt(median(creates))} | < 2 s |`);
  log(`| 500 sequential creates over one kept-alive connection (raw HTTPS) | ${fmt(median(keptAlive))} | < 2 s |`);
  metrics.sandbox = { listMs: median(rawTimes), createsMs: median(creates), keptAliveMs: median(keptAlive) };
  await sb.close();
}

// ---- reconcile 0 → 500 ---------------------------------------------------------------------
/**
 * `reconcile -n default --yes --once -o json` as a user runs it: process start to exit, and its
 * report. One sync: converging would wait for the 500 pods to turn ready, and this sandbox runs no
 * kubelet (the pods' start is not what is measured).
 */
async function reconcileCli(kubeconfig) {
  const t = performance.now();
  const child = spawn(process.execPath, [runJs, 'reconcile', '-n', 'default', '--yes', '--once', '-o', 'json', '--kubeconfig', kubeconfig], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.on('exit', r));
  const ms = performance.now() - t;
  if (code !== 0) throw new Error(`reconcile exited ${code}: ${err.slice(-500)}`);
  return { ms, report: JSON.parse(out) };
}

/**
 * Sequential round trips of pod creates, from the audit log of a run in which the sandbox holds
 * every pod create for `holdMs` before answering: a create of the next round trip can only be
 * answered holdMs after the last answer of the one before, while the answers of one round trip
 * (spread only by the client's limiter) follow each other closer than holdMs / 2.
 */
function roundTripsInAudit(entries, holdMs) {
  const times = entries
    .filter((a) => a.verb === 'create' && a.resource === 'pods' && a.code === 201)
    .map((a) => Date.parse(a.time))
    .sort((a, b) => a - b);
  let trips = times.length ? 1 : 0;
  for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] > holdMs / 2) trips++;
  return { trips, creates: times.length };
}

if (want('reconcile')) {
  log('\n### `reconcile --once` of a ReplicaSet scaled 0 → 500');
  const qps = Reconcile.flags['kube-api-qps'].default;
  const burst = Reconcile.flags['kube-api-burst'].default;
  const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
  const runs = [];
  const floorRuns = [];
  let batches = null;
  let writes = 0;
  for (let r = 0; r < (quick ? 1 : 3); r++) {
    let sb = await startSandbox({ seed: [rs(0, 500)], gc: false });
    const { kubeconfig } = await client(sb);
    const { ms, report } = await reconcileCli(kubeconfig);
    runs.push(ms);
    batches = report.controllers[0].create.batches;
    const audit = sb.audit();
    const created = audit.filter((a) => a.verb === 'create' && a.resource === 'pods' && a.code === 201).length;
    if (created !== 500) throw new Error(`expected 500 pod creates in the audit log, got ${created}`);
    writes = audit.filter((a) => WRITES.has(a.verb)).length;
    await sb.close();
    // the sandbox's own floor: the same 500 creates, in the same parallel waves, from a bare client
    sb = await startSandbox({ seed: [rs(0, 500)], gc: false });
    const { core } = await client(sb);
    const t = performance.now();
    for (const w of batches)
      await Promise.all(
        Array.from({ length: w }, () =>
          core.createNamespacedPod({
            namespace: 'default',
            body: { metadata: { generateName: 'floor-', labels: { other: 'x' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
          }),
        ),
      );
    floorRuns.push(performance.now() - t);
    await sb.close();
  }
  // one more run, not timed, to count the round trips in the audit log
  const HOLD_MS = 2000; // far above any pause between two creates of one round trip (limiter, GC, a busy machine)
  const sb = await startSandbox({ seed: [rs(0, 500)], gc: false });
  const { kubeconfig } = await client(sb);
  sb.faults.set({ verb: 'create', resource: 'pods', errorRate: 0, code: 500, latencyMs: HOLD_MS });
  await reconcileCli(kubeconfig);
  const { trips, creates } = roundTripsInAudit(sb.audit(), HOLD_MS);
  await sb.close();
  if (creates !== 500) throw new Error(`expected 500 pod creates in the audit log, got ${creates}`);
  const limiterMinMs = (Math.max(0, writes - burst) / qps) * 1000;
  log('| measure | median |');
  log('|---|---|');
  log(`| slow-start batches in reconcile's report | ${batches.join(', ')} (${batches.length}) |`);
  log(`| sequential round trips of pod creates in the sandbox's audit log (each create held ${HOLD_MS} ms) | ${trips} |`);
  log(`| writes reconcile sent (audit log: creates, events, status) | ${writes} |`);
  log(`| the client-side limiter's own minimum for them, at the CLI's defaults (${qps} qps, burst ${burst}) | ${fmt(limiterMinMs)} |`);
  log(`| sandbox floor: 500 creates in those ${batches.length} parallel waves, bare client, no limiter | ${fmt(median(floorRuns))} |`);
  log(`| \`reconcile -n default --yes\` end to end (process start to exit), CLI defaults | ${fmt(median(runs))} |`);
  log(`| ratio to the sandbox floor (goal ≤ 1.5x) | **${(median(runs) / median(floorRuns)).toFixed(2)}x** |`);
  metrics.reconcile = { batches, roundTrips: trips, ms: median(runs), floorMs: median(floorRuns), qps, burst, requests: writes, limiterMinMs };
}

// ---- run: 1000 ReplicaSets × 10 pods -----------------------------------------------------------
async function runUntilSynced(kubeconfig, extraArgs = []) {
  const t = performance.now();
  const child = spawn(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, runJs, 'run', '-n', 'default', '--until-synced', '--timeout', '10m', '--kubeconfig', kubeconfig, ...extraArgs],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.on('exit', r));
  const ms = performance.now() - t;
  const rssKiB = Number(err.trim().split('\n').pop());
  if (code !== 0) throw new Error(`run exited ${code}: ${err.slice(-500)}`);
  return { ms, rssKiB };
}
if (want('run')) {
  log('\n### `run`: 1,000 ReplicaSets × 10 pods');
  const seed = world(1000, 10);
  // 10% drift: one pod missing in every tenth ReplicaSet
  const drifted = seed.filter((o) => !(o.kind === 'Pod' && o.metadata.name.endsWith('-9') && Number(o.metadata.name.split('-')[1]) % 10 === 0));
  const rows = [];
  for (const [label, short, items] of [
    ['all in sync', 'all in sync', seed],
    ['10% drifted (100 pods to create)', '10% drifted', drifted],
  ]) {
    // a kubelet: --until-synced waits for the pods run creates to turn ready; its own writes are not counted
    const sb = await startSandbox({ seed: items, gc: false, nodes: 1 });
    const { kubeconfig } = await client(sb);
    const r = await runUntilSynced(kubeconfig);
    const writes = sb
      .audit()
      .filter((a) => !['get', 'list', 'watch'].includes(a.verb) && a.resource !== 'events' && a.resource !== 'leases' && !a.user?.startsWith('system:'));
    rows.push(`| ${label} | ${fmt(r.ms)} | ${writes.length} | ${(r.rssKiB / 1024).toFixed(0)} MiB |`);
    (metrics.run ??= []).push({ label: short, ms: r.ms, writes: writes.length, rssKiB: r.rssKiB });
    await sb.close();
  }
  log('| start state | process start → caches synced → all in sync (exit) | writes | peak RSS |');
  log('|---|---|---|---|');
  for (const r of rows) log(r);

  // steady state: once in sync, no writes
  const sb = await startSandbox({ seed, gc: false });
  const { kubeconfig } = await client(sb);
  const windowMs = quick ? 10_000 : 60_000;
  const child = spawn(process.execPath, [runJs, 'run', '-n', 'default', '--kubeconfig', kubeconfig], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 5000));
  sb.clearAudit();
  await new Promise((r) => setTimeout(r, windowMs));
  const writes = sb.audit().filter((a) => !['get', 'list', 'watch'].includes(a.verb));
  child.kill('SIGINT');
  await new Promise((r) => child.on('exit', r));
  await sb.close();
  log(`\nSteady state: ${writes.length} writes in ${windowMs / 1000} s after the first sync (goal: zero per minute).`);
  metrics.steady = { writes: writes.length, windowS: windowMs / 1000 };
}
if (want('memory')) {
  log('\n### `run` memory with 100k pods cached');
  const sb = await startSandbox({ seed: world(10_000, 10), gc: false, watchHistory: 100 });
  const { kubeconfig } = await client(sb);
  const r = await runUntilSynced(kubeconfig);
  log(`| pods cached | time to in sync | peak RSS (goal < 1 GiB) |`);
  log('|---|---|---|');
  log(`| 100,000 (10,000 ReplicaSets) | ${fmt(r.ms)} | ${(r.rssKiB / 1024).toFixed(0)} MiB |`);
  metrics.memory = { ms: r.ms, rssKiB: r.rssKiB };
  await sb.close();
}

/**
 * The bench's own client of the sandbox: one kept-alive connection, JSON in and out, with a
 * User-Agent that is not the CLI's, so its requests are not counted as `run`'s.
 */
async function benchClient(sb) {
  const { request, Agent } = await import('node:https');
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: sb.ca });
  const call = (method, path, body, contentType = 'application/json') =>
    new Promise((resolve, reject) => {
      const req = request(
        `${sb.url}${path}`,
        { method, agent, headers: { Authorization: `Bearer ${sb.token}`, 'User-Agent': 'rs-reconcile-bench', 'Content-Type': contentType } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () =>
            res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { call, close: () => agent.destroy() };
}

/** Resolves once `run` (the CLI's User-Agent) has written nothing to `sb` for quietMs: the time of its last write. */
async function runQuiet(sb, countWrites, isRun, quietMs = 3000) {
  for (;;) {
    let last = 0;
    for (const e of sb.audit()) if (isRun(e) && countWrites([e], isRun).total) last = Math.max(last, Date.parse(e.time));
    if (last && Date.now() - last >= quietMs) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---- run: one ReplicaSet 0 → 500 → 0, its writes counted in the audit log ----------------------
/**
 * `run` at its default flags against a sandbox with the `sandbox` command's default kubelet (3
 * nodes: pods are scheduled, run and turn Ready on their own), one ReplicaSet scaled 0 → 500 → 0
 * through its scale subresource. The writes are counted in the sandbox's audit file (every entry,
 * none dropped) by the CLI's User-Agent; the phases are timed from the bench's scale request to
 * the ReplicaSet's status (polled) and to the writes' audit times.
 */
async function measureScale() {
  const { readFileSync, rmSync } = await import('node:fs');
  const { countWrites, parseAuditLines, byUserAgent, CLI_USER_AGENT } = await import('./audit-count.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-scale-'));
  const auditFile = join(dir, 'audit.jsonl');
  const sb = await startSandbox({ nodes: 3, auditLog: auditFile });
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const { call, close } = await benchClient(sb);
  const rsPath = '/apis/apps/v1/namespaces/default/replicasets/scaled';
  const scale = (replicas) => call('PATCH', `${rsPath}/scale`, { spec: { replicas } }, 'application/merge-patch+json');
  const labels = { app: 'scaled' };
  await call('POST', '/apis/apps/v1/namespaces/default/replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'scaled', namespace: 'default' },
    spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  });
  const isRun = byUserAgent(CLI_USER_AGENT);
  /** Polls the ReplicaSet until `done(rs)`; the time it first held. */
  const until = async (what, done, limitMs = 600_000) => {
    const start = performance.now();
    for (;;) {
      const obj = await call('GET', rsPath);
      if (done(obj)) return performance.now();
      if (performance.now() - start > limitMs) throw new Error(`scale: no ${what} after ${limitMs / 1000} s: status ${JSON.stringify(obj.status)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Until `run` has written nothing for a while (its trailing events and status updates). */
  const quiet = () => runQuiet(sb, countWrites, isRun);

  // `run` at its defaults: no --kube-api-qps, --kube-api-burst, --workers or --burst-replicas
  const child = spawn(process.execPath, [runJs, 'run', '-n', 'default', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  let stopping = false;
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  void exited.then(({ code, signal }) => {
    if (!stopping) console.error(`scale: run exited early (${code ?? signal}): ${err}`);
  });
  // in sync: its first sync wrote the status of generation 1
  await until('first sync', (o) => o.status?.observedGeneration === 1, 60_000);
  await quiet();

  const wall0 = Date.now();
  const t0 = performance.now();
  await scale(500);
  const tReplicas = await until('500 replicas in status', (o) => o.status?.observedGeneration === 2 && o.status?.replicas === 500);
  const tReady = await until('500 ready in status', (o) => o.status?.readyReplicas === 500 && o.status?.availableReplicas === 500);
  const upQuietAt = await quiet();
  const wall1 = Date.now();
  const t1 = performance.now();
  await scale(0);
  const tZero = await until('0 replicas in status', (o) => o.status?.observedGeneration === 3 && o.status?.replicas === 0 && !o.status?.readyReplicas);
  const downQuietAt = await quiet();
  stopping = true;
  child.kill('SIGINT');
  const { code, signal } = await exited;
  // Ctrl-C: 130 as a shell expects (0 before rs-reconcile made it so)
  if (code !== 130 && code !== 0 && signal !== 'SIGINT') throw new Error(`run exited ${code ?? signal} after SIGINT: ${err}`);
  close();
  await sb.close(); // flushes the audit file: every entry is in it now
  const entries = parseAuditLines(readFileSync(auditFile, 'utf8'));
  rmSync(dir, { recursive: true, force: true });

  const at = (e) => Date.parse(e.time);
  const up = entries.filter((e) => at(e) >= wall0 && at(e) < wall1);
  const down = entries.filter((e) => at(e) >= wall1);
  const counts = { before: countWrites(entries.filter((e) => at(e) < wall0)), up: countWrites(up), down: countWrites(down), all: countWrites(entries) };
  const lastOf = (es, kind) => Math.max(...es.filter((e) => isRun(e) && e.resource === 'pods' && !e.subresource && e.verb === kind && e.code < 300).map(at));
  const phases = {
    createdMs: lastOf(up, 'create') - wall0,
    replicasMs: tReplicas - t0,
    readyMs: tReady - t0,
    upWritesMs: upQuietAt - wall0,
    deletedMs: lastOf(down, 'delete') - wall1,
    zeroMs: tZero - t1,
    downWritesMs: downQuietAt - wall1,
  };
  return { counts, phases };
}
if (want('scale')) {
  log('\n### `run`: one ReplicaSet scaled 0 → 500 → 0, its writes in the audit log');
  const { counts, phases } = await measureScale();
  const c = counts;
  const row = (label, k) => log(`| ${label} | ${c.before[k]} | ${c.up[k]} | ${c.down[k]} | ${c.all[k]} |`);
  log('| writes of `run` (audit log, by its User-Agent) | start, before the scale | 0 → 500 | 500 → 0 | whole run |');
  log('|---|---|---|---|---|');
  row('pod creates', 'podCreates');
  row('pod deletes', 'podDeletes');
  row('pod patches', 'podPatches');
  row('status updates', 'statusUpdates');
  row('event creates', 'eventCreates');
  row('event patches', 'eventPatches');
  row('lease writes', 'leaseWrites');
  if (c.all.other) row('other writes', 'other');
  row('**all writes**', 'total');
  if (c.all.failed) {
    const which = Object.entries(c.all.failures)
      .map(([what, n]) => `${n} × ${what}`)
      .join(', ');
    log(`| of which answered with an error (${which}) | ${c.before.failed} | ${c.up.failed} | ${c.down.failed} | ${c.all.failed} |`);
  }
  log('');
  log('| phase (from the scale request) | wall time |');
  log('|---|---|');
  log(`| 0 → 500: last pod create answered (audit log) | ${fmt(phases.createdMs)} |`);
  log(`| 0 → 500: \`status.replicas\` 500 | ${fmt(phases.replicasMs)} |`);
  log(`| 0 → 500: \`status.readyReplicas\` 500 | ${fmt(phases.readyMs)} |`);
  log(`| 0 → 500: \`run\`'s last write (audit log) | ${fmt(phases.upWritesMs)} |`);
  log(`| 500 → 0: last pod delete answered (audit log) | ${fmt(phases.deletedMs)} |`);
  log(`| 500 → 0: \`status.replicas\` 0 | ${fmt(phases.zeroMs)} |`);
  log(`| 500 → 0: \`run\`'s last write (audit log) | ${fmt(phases.downWritesMs)} |`);
  metrics.scale = { counts, phases };
}

// ---- run: a 500-pod Deployment rolled to a new image, against the writes the rules imply ---------
/**
 * `run` at its defaults (both controllers) against a sandbox with the `sandbox` command's kubelet:
 * a Deployment of 500 replicas (maxSurge and maxUnavailable 25%) settled, then its image changed.
 * The writes are counted in the audit file by the CLI's User-Agent from the change on; beside
 * them, what upstream's rules imply for the same rollout: `explain deploy/web --image` on the
 * same cluster just before the change, with the sandbox's kubelet as its assumptions.
 */
async function measureDeploymentRollout() {
  const { readFileSync, rmSync } = await import('node:fs');
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { countWrites, parseAuditLines, byUserAgent, CLI_USER_AGENT } = await import('./audit-count.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-rollout-'));
  const auditFile = join(dir, 'audit.jsonl');
  const sb = await startSandbox({ nodes: 3, auditLog: auditFile });
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const { call, close } = await benchClient(sb);
  const path = '/apis/apps/v1/namespaces/default/deployments/web';
  const labels = { app: 'web' };
  const template = (image) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image }] } });
  await call('POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 500, selector: { matchLabels: labels }, template: template('registry.example/web:1') },
  });
  const settled = (generation) => (d) =>
    d.status?.observedGeneration === generation &&
    d.status?.updatedReplicas === 500 &&
    d.status?.replicas === 500 &&
    d.status?.availableReplicas === 500 &&
    !d.status?.unavailableReplicas;
  const until = async (what, done, limitMs = 600_000) => {
    const start = performance.now();
    for (;;) {
      const d = await call('GET', path);
      if (done(d)) return performance.now();
      if (performance.now() - start > limitMs) throw new Error(`rollout: no ${what} after ${limitMs / 1000} s: status ${JSON.stringify(d.status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const isRun = byUserAgent(CLI_USER_AGENT);
  const quiet = () => runQuiet(sb, countWrites, isRun);
  const child = spawn(process.execPath, [runJs, 'run', '-n', 'default', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  await until('500 available', settled(1));
  await quiet();
  // what the rules imply, foreseen on the settled cluster with the sandbox's kubelet (Ready about
  // 450 ms after creation, a deleted pod gone after 200 ms); not a sync child: the sandbox is this process
  const foreseen = JSON.parse(
    (
      await promisify(execFile)(
        process.execPath,
        [
          runJs,
          'explain',
          'deploy/web',
          '-n',
          'default',
          '--image',
          'c=registry.example/web:2',
          '--pod-ready-after',
          '450ms',
          '--pod-gone-after',
          '200ms',
          '-o',
          'json',
          '--kubeconfig',
          kubeconfig,
        ],
        { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      )
    ).stdout,
  );
  const wall0 = Date.now();
  const t0 = performance.now();
  await call('PATCH', path, { spec: { template: template('registry.example/web:2') } }, 'application/merge-patch+json');
  const tDone = await until('the rollout complete', settled(2));
  await quiet();
  child.kill('SIGINT');
  await exited;
  close();
  await sb.close();
  const entries = parseAuditLines(readFileSync(auditFile, 'utf8')).filter((e) => Date.parse(e.time) >= wall0 && isRun(e) && e.code < 300);
  rmSync(dir, { recursive: true, force: true });
  const n = (f) => entries.filter(f).length;
  const rsWrite = (verb) => (e) => e.resource === 'replicasets' && !e.subresource && e.verb === verb;
  const made = {
    replicaSetCreates: n(rsWrite('create')),
    replicaSetUpdates: n((e) => rsWrite('update')(e) || rsWrite('patch')(e)),
    replicaSetDeletes: n(rsWrite('delete')),
    podCreates: n((e) => e.resource === 'pods' && !e.subresource && e.verb === 'create'),
    podDeletes: n((e) => e.resource === 'pods' && !e.subresource && e.verb === 'delete'),
    deploymentStatus: n((e) => e.resource === 'deployments' && e.subresource === 'status'),
    replicaSetStatus: n((e) => e.resource === 'replicasets' && e.subresource === 'status'),
  };
  const steps = foreseen.steps;
  const implied = {
    replicaSetCreates: steps.filter((s) => s.controller === 'deployment' && s.verb === 'create').length,
    replicaSetUpdates: steps.filter((s) => s.controller === 'deployment' && s.verb === 'scale').length,
    replicaSetDeletes: steps.filter((s) => s.controller === 'deployment' && s.verb === 'delete').length,
    podCreates: steps.filter((s) => s.controller === 'replicaset' && s.verb === 'create').reduce((a, s) => a + s.pods, 0),
    podDeletes: steps.filter((s) => s.controller === 'replicaset' && s.verb === 'delete').length,
  };
  return { made, implied, ms: tDone - t0, foreseenComplete: foreseen.complete, foreseenSeconds: foreseen.completeAfterSeconds };
}
if (want('deployment-rollout')) {
  log('\n### `run`: a 500-pod Deployment rolled to a new image (maxSurge 25%, maxUnavailable 25%), its writes in the audit log');
  const r = await measureDeploymentRollout();
  log('| writes of `run` from the change on (answered 2xx) | `run` | the rules, foreseen in lockstep (`explain deploy/web --image`) |');
  log('|---|---|---|');
  const row = (label, k) => log(`| ${label} | ${r.made[k]} | ${r.implied[k] ?? ''} |`);
  row('ReplicaSet creates (deployment controller)', 'replicaSetCreates');
  row('ReplicaSet updates (deployment controller: sizes, annotations)', 'replicaSetUpdates');
  row('ReplicaSet deletes (deployment controller)', 'replicaSetDeletes');
  row('pod creates (ReplicaSet controller)', 'podCreates');
  row('pod deletes (ReplicaSet controller)', 'podDeletes');
  row('Deployment status updates', 'deploymentStatus');
  row('ReplicaSet status updates', 'replicaSetStatus');
  log('');
  log(
    `The rollout took ${fmt(r.ms)} from the image change to the Deployment's status of 500 updated and available; foreseen: ${r.foreseenComplete ? `complete after ${r.foreseenSeconds} s` : 'not complete'}. The prediction lets every pod a sync created turn ready at one instant, so its count of ReplicaSet updates is the fewest the rules allow; \`run\` sees readiness as its informer delivers it and may take more, smaller steps (docs/deployment-controller.md §11).`,
  );
  metrics.deploymentRollout = r;
}
if (metricsFile) writeFileSync(metricsFile, JSON.stringify(metrics));
