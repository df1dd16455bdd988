#!/usr/bin/env node
// Where `diff -f SNAPSHOT -A -o json` spends its time, phase by phase, in one process:
//   node bench/snapshot-phases.mjs FILE [RUNS]     (needs `npm run build`; RUNS default 8)
//   import { measurePhases } from './snapshot-phases.mjs'; measurePhases(file, runs) → result
//
// Each run reads the snapshot (the loader of `-f`), looks for its newest timestamp (the --now hint
// a `diff` without --now gives), plans every controller (the planner `diff` runs) and renders the
// plan as `-o json` does, timing each phase. The first run is what a `diff`
// process pays: its code runs cold, in V8's interpreter until it is compiled. The later runs show
// the same work warm: the difference is the price of starting cold, not of the work. A bare
// read + JSON.parse of the file (of each line, for .ndjson and .jsonl) is timed the same way. Every measurement runs in
// a child process of its own. Nothing here asserts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const distUrl = (p) => pathToFileURL(join(root, 'dist', p)).href;
const NOW = Date.parse('2026-01-01T00:00:00Z');

/** Files of one JSON document a line, which the bare parse reads line by line. */
const LINES = /\.(ndjson|jsonl)$/;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function child(mode, file, runs) {
  const runsOut = [];
  if (mode === 'bare') {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const text = readFileSync(file, 'utf8');
      if (LINES.test(file)) for (const line of text.split('\n')) line.trim() && JSON.parse(line);
      else JSON.parse(text);
      runsOut.push({ read: performance.now() - t0 });
    }
    return runsOut;
  }
  const { loadSnapshotFiles } = await import(distUrl('input/snapshot-files.js'));
  const { ClusterPlanner } = await import(distUrl('core/plan.js'));
  const { defaultBehaviour } = await import(distUrl('core/versions.js'));
  const { planJsonChunks } = await import(distUrl('render/plan-output.js'));
  const { staleSnapshotHint } = await import(distUrl('services/plan-service.js'));
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const { snapshot } = await loadSnapshotFiles([file], { onProgress: () => {} }); // diff always passes one (its spinner's)
    const th = performance.now();
    staleSnapshotHint(snapshot, NOW);
    const t1 = performance.now();
    const { plan } = new ClusterPlanner(snapshot, { now: NOW, behaviour: defaultBehaviour(), source: 'file', controllersComplete: true }).decideAll(false);
    const t2 = performance.now();
    let chars = 0;
    for (const chunk of planJsonChunks(plan)) chars += chunk.length;
    const t3 = performance.now();
    if (chars === 0) throw new Error('empty plan');
    runsOut.push({ read: th - t0, hint: t1 - th, plan: t2 - t1, json: t3 - t2 });
  }
  return runsOut;
}

if (process.argv[2] === '--child') {
  const [, , , mode, file, runs] = process.argv;
  process.stdout.write(JSON.stringify(await child(mode, file, Number(runs))));
  process.exit(0);
}

function inChild(mode, file, runs) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--child', mode, file, String(runs)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`snapshot-phases ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Phases of the first run and medians of the warm ones (the runs after the second), per phase, in ms. */
export function measurePhases(file, runs = 8) {
  const summarize = (rs) => {
    const warm = rs.slice(2);
    const out = { first: {}, warm: {} };
    for (const k of Object.keys(rs[0])) {
      out.first[k] = rs[0][k];
      out.warm[k] = median(warm.map((r) => r[k]));
    }
    return out;
  };
  return { diff: summarize(inChild('diff', file, runs)), bare: summarize(inChild('bare', file, runs)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, runs] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/snapshot-phases.mjs FILE [RUNS]');
    process.exit(2);
  }
  const m = measurePhases(file, runs ? Number(runs) : 8);
  const f = (x) => `${x.toFixed(1)} ms`;
  console.log('| phase | first run | warm (median) |');
  console.log('|---|---|---|');
  for (const k of ['read', 'hint', 'plan', 'json']) console.log(`| ${k} | ${f(m.diff.first[k])} | ${f(m.diff.warm[k])} |`);
  console.log(`| bare read + JSON.parse | ${f(m.bare.first.read)} | ${f(m.bare.warm.read)} |`);
}
