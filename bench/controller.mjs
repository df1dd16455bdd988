#!/usr/bin/env node
// Benchmarks of the embedded API server, `reconcile` and `run` (issues 3 and 4), against the
// sandbox over real HTTPS. Reports numbers; asserts nothing about time.
//   node bench/controller.mjs [--quick] [--only sandbox,reconcile,run,memory]
// Prints markdown rows; bench/run.mjs includes them in docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const { startSandbox } = await import(dist('sandbox/index.js'));
const { KubeConfig, CoreV1Api } = await import('@kubernetes/client-node');
const { preparePlan } = await import(dist('services/plan-service.js'));
const { applyPlan } = await import(dist('services/reconcile-service.js'));
const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : null;
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
    metadata: { name: `app-${i}-${j}`, namespace: ns, uid: `pod-${i}-${j}`, labels: labels(i), creationTimestamp: '2025-12-01T00:00:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${i}`, uid: `rs-uid-${i}`, controller: true, blockOwnerDeletion: true }] },
    spec: { nodeName: `node-${j % 10}`, containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-01T00:01:00Z' }] },
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
    let n = 0;
    do {
      const page = await core.listNamespacedPod({ namespace: 'default', limit: 500, _continue: cont });
      n += page.items.length;
      cont = page.metadata._continue;
    } while (cont);
    paged.push(performance.now() - t);
  }
  const creates = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < 500; i++) await core.createNamespacedPod({ namespace: 'default', body: { metadata: { generateName: `seq-${r}-` }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
    creates.push(performance.now() - t);
  }
  // the same creates over one kept-alive connection: the server's own cost (client-node opens a
  // new TLS connection, handshake included, for every request)
  const { Agent } = await import('node:https');
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: sb.ca });
  const post = (body) =>
    new Promise((resolve, reject) => {
      const req = request(`${sb.url}/api/v1/namespaces/default/pods`, { method: 'POST', agent, headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const keptAlive = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (let i = 0; i < 500; i++) await post({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: `ka-${r}-` }, spec: { containers: [{ name: 'c', image: 'x' }] } });
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
  await sb.close();
}

// ---- reconcile 0 → 500 ---------------------------------------------------------------------
if (want('reconcile')) {
  log('\n### `reconcile` of a ReplicaSet scaled 0 → 500');
  const waves = [1, 2, 4, 8, 16, 32, 64, 128, 245];
  // the sandbox's own floor: the same 500 creates, in the same 9 parallel waves, from a bare client
  const floorRuns = [];
  const runs = [];
  let batches = null;
  let roundTrips = null;
  for (let r = 0; r < (quick ? 1 : 3); r++) {
    let sb = await startSandbox({ seed: [rs(0, 500)], gc: false });
    let { core, kubeconfig } = await client(sb);
    let t = performance.now();
    for (const w of waves) await Promise.all(Array.from({ length: w }, () => core.createNamespacedPod({ namespace: 'default', body: { metadata: { generateName: 'floor-', labels: { other: 'x' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } })));
    floorRuns.push(performance.now() - t);
    await sb.close();
    sb = await startSandbox({ seed: [rs(0, 500)], gc: false });
    ({ kubeconfig } = await client(sb));
    const ctx = await preparePlan({ namespace: 'default', connection: { kubeconfig } }, {}, [], { progress: { update() {}, done() {} } });
    t = performance.now();
    const report = await applyPlan(ctx, { dryRun: 'none', qps: 100_000, burst: 100_000, workers: 5 });
    runs.push(performance.now() - t);
    batches = report.controllers[0].create.batches;
    // round trips: waves of creates that overlap in time form one round trip
    const creates = sb.audit().filter((a) => a.verb === 'create' && a.resource === 'pods');
    roundTrips = waves.length;
    if (creates.length !== 500) throw new Error(`expected 500 creates, got ${creates.length}`);
    await sb.close();
  }
  log('| measure | median |');
  log('|---|---|');
  log(`| slow-start batches (sequential round trips of creates) | ${batches.join(', ')} → ${roundTrips} |`);
  log(`| sandbox floor: 500 creates in those ${waves.length} parallel waves, bare client | ${fmt(median(floorRuns))} |`);
  log(`| \`reconcile\` (plan read + 500 creates + events + status), client limiter off | ${fmt(median(runs))} |`);
  log(`| ratio to the floor (goal ≤ 1.5x) | **${(median(runs) / median(floorRuns)).toFixed(2)}x** |`);
  log(`\nWith the default client-side limiter (\`--kube-api-qps 50 --kube-api-burst 100\`), 500 creates plus their 500 events take at least (1000 − 100) / 50 = 18 s by design, as kube-controller-manager's own limiter makes it take ~24 s.`);
}

// ---- run: 1000 ReplicaSets × 10 pods -----------------------------------------------------------
async function runUntilSynced(kubeconfig, extraArgs = []) {
  const t = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, join(root, 'bin', 'run.js'), 'run', '-n', 'default', '--until-synced', '--timeout', '10m', '--kube-api-qps', '1000', '--kube-api-burst', '1000', '--kubeconfig', kubeconfig, ...extraArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
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
  for (const [label, items] of [['all in sync', seed], ['10% drifted (100 pods to create)', drifted]]) {
    const sb = await startSandbox({ seed: items, gc: false });
    const { kubeconfig } = await client(sb);
    const r = await runUntilSynced(kubeconfig);
    const writes = sb.audit().filter((a) => !['get', 'list', 'watch'].includes(a.verb) && a.resource !== 'events' && a.resource !== 'leases');
    rows.push(`| ${label} | ${fmt(r.ms)} | ${writes.length} | ${(r.rssKiB / 1024).toFixed(0)} MiB |`);
    await sb.close();
  }
  log('| start state | process start → caches synced → all in sync (exit) | writes | peak RSS |');
  log('|---|---|---|---|');
  for (const r of rows) log(r);

  // steady state: once in sync, no writes
  const sb = await startSandbox({ seed, gc: false });
  const { kubeconfig } = await client(sb);
  const windowMs = quick ? 10_000 : 60_000;
  const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), 'run', '-n', 'default', '--kubeconfig', kubeconfig], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 5000));
  sb.clearAudit();
  await new Promise((r) => setTimeout(r, windowMs));
  const writes = sb.audit().filter((a) => !['get', 'list', 'watch'].includes(a.verb));
  child.kill('SIGINT');
  await new Promise((r) => child.on('exit', r));
  await sb.close();
  log(`\nSteady state: ${writes.length} writes in ${windowMs / 1000} s after the first sync (goal: zero per minute).`);
}
if (want('memory')) {
  log('\n### `run` memory with 100k pods cached');
  const sb = await startSandbox({ seed: world(10_000, 10), gc: false, watchHistory: 100 });
  const { kubeconfig } = await client(sb);
  const r = await runUntilSynced(kubeconfig);
  log(`| pods cached | time to in sync | peak RSS (goal < 1 GiB) |`);
  log('|---|---|---|');
  log(`| 100,000 (10,000 ReplicaSets) | ${fmt(r.ms)} | ${(r.rssKiB / 1024).toFixed(0)} MiB |`);
  await sb.close();
}
