#!/usr/bin/env node
// Reading snapshots: how fast each reader takes each style of the same objects.
//   node bench/input.mjs [--quick]          prints the table (needs `npm run build`)
//   import { measureInput } from './input.mjs'; (await measureInput({ quick })) → markdown lines
//
// The objects come from gen-snapshot.mjs (../shared/tools when it exists, else the vendored copy in
// tools/; a `kind: List` of ReplicaSets and Pods,
// JSON); the same list is written here as kubectl's block YAML and as flow-style YAML (each item
// one flow mapping, `- {apiVersion: v1, kind: Pod, …}`, as some tools print it). Every
// measurement runs in its own child process, so its peak RSS is its own. Nothing here asserts.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const cache = join(root, '.bench-cache');
const sharedGen = join(root, '..', 'shared', 'tools', 'gen-snapshot.mjs');
const gen = existsSync(sharedGen) ? sharedGen : join(root, 'tools', 'gen-snapshot.mjs');
const distUrl = (p) => pathToFileURL(join(dist, p)).href;

/**
 * The readers: each loads its modules, then returns what reads a file (timed alone) and returns
 * how many objects it read.
 */
const READERS = {
  // The loader itself (-f): what a user waits for.
  'rs-reconcile': async () => {
    const { loadSnapshotFiles } = await import(distUrl('input/snapshot-files.js'));
    return async (file) => {
      const r = await loadSnapshotFiles([file]);
      return r.snapshot.pods.length + r.snapshot.controllers.ReplicaSet.length;
    };
  },
  'js-yaml': async () => {
    const jsyaml = createRequire(join(root, 'package.json'))('js-yaml');
    return async (file) => jsyaml.load(readFileSync(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA }).items.length;
  },
  yaml: async () => {
    const { parse } = createRequire(join(root, 'package.json'))('yaml');
    return async (file) => parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }).items.length;
  },
  'JSON.parse': async () => async (file) => JSON.parse(readFileSync(file, 'utf8')).items.length,
};

/** Which readers are measured on which style (the yaml package only on the smaller inputs: it takes minutes). */
const PLAN = [
  ['JSON', 'json', ['rs-reconcile', 'JSON.parse']],
  ['block YAML', 'block.yaml', ['rs-reconcile', 'js-yaml', 'yaml']],
  ['flow YAML', 'flow.yaml', ['rs-reconcile', 'js-yaml', 'yaml']],
];
const YAML_PACKAGE_MAX_OBJECTS = 12_000;

if (process.argv[2] === '--child') {
  const [, , , reader, file] = process.argv;
  const read = await READERS[reader]();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const objects = await read(file);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, rssKiB: process.resourceUsage().maxRSS, objects }));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Inputs

const RESERVED = /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const flowString = (s) => (/^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(s) && !RESERVED.test(s) ? s : JSON.stringify(s));

function flow(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${flowString(k)}: ${flow(x)}`)
      .join(', ')}}`;
  return typeof v === 'string' ? flowString(v) : JSON.stringify(v);
}

/** The snapshot as JSON, block YAML and flow YAML (cached in .bench-cache/). */
async function inputs(rs, perRs) {
  mkdirSync(cache, { recursive: true });
  const base = join(cache, `input-${rs}x${perRs}`);
  const files = { json: `${base}.json`, 'block.yaml': `${base}.block.yaml`, 'flow.yaml': `${base}.flow.yaml` };
  // Written under a temporary name and renamed when whole: an interrupted run leaves no empty or
  // cut-short file behind to be measured next time (and an empty one is made again).
  const whole = (f) => existsSync(f) && statSync(f).size > 0;
  if (!whole(files.json)) {
    const fd = openSync(`${files.json}.tmp`, 'w');
    const r = spawnSync(process.execPath, [gen, '--rs', String(rs), '--pods-per-rs', String(perRs), '--namespaces', '20', '--nodes', '200', '--seed', '7'], {
      stdio: ['ignore', fd, 'inherit'],
    });
    closeSync(fd);
    if (r.status !== 0) throw new Error('gen-snapshot failed');
    renameSync(`${files.json}.tmp`, files.json);
  }
  if (!whole(files['flow.yaml']) || !whole(files['block.yaml'])) {
    const { toYaml } = await import(distUrl('render/yaml-emit.js'));
    const { items } = JSON.parse(readFileSync(files.json, 'utf8'));
    // kubectl's layout: the items' `- ` at the start of the line.
    let fd = openSync(`${files['block.yaml']}.tmp`, 'w');
    writeSync(fd, 'apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: ""\nitems:\n');
    for (const item of items) writeSync(fd, toYaml([item]));
    closeSync(fd);
    renameSync(`${files['block.yaml']}.tmp`, files['block.yaml']);
    fd = openSync(`${files['flow.yaml']}.tmp`, 'w');
    writeSync(fd, 'apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ""}\nitems:\n');
    for (const item of items) writeSync(fd, `- ${flow(item)}\n`);
    closeSync(fd);
    renameSync(`${files['flow.yaml']}.tmp`, files['flow.yaml']);
  }
  return files;
}

function measure(reader, file) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--child', reader, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0)
    return {
      error: (
        r.stderr
          .trim()
          .split('\n')
          .find((l) => /Error/.test(l)) ?? `exit ${r.status}`
      ).slice(0, 80),
    };
  return JSON.parse(r.stdout);
}

const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const fmtMiB = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
const fmtMB = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

/**
 * The table: one row per style and reader, one column per size: the time to read the file
 * (modules loaded before; the CPU time too, steadier on a busy machine), and the peak RSS of the
 * whole process, Node.js included. Returns markdown lines.
 */
export async function measureInput({ quick = false } = {}) {
  if (!existsSync(join(dist, 'input', 'snapshot-files.js'))) throw new Error('bench/input.mjs: build first (npm run build)');
  const sizes = quick
    ? [[100, 10]]
    : [
        [1000, 10],
        [10000, 10],
      ];
  const columns = [];
  for (const [rs, perRs] of sizes) columns.push({ objects: rs * (perRs + 1), files: await inputs(rs, perRs) });
  const { statSync } = await import('node:fs');
  const lines = [
    `| input | reader | ${columns.map((c) => `${c.objects.toLocaleString('en-US')} objects`).join(' | ')} |`,
    `| --- | --- | ${columns.map(() => '---').join(' | ')} |`,
  ];
  for (const [style, ext, readers] of PLAN) {
    for (const reader of readers) {
      const cells = columns.map((c) => {
        const file = c.files[ext];
        if (reader === 'yaml' && c.objects > YAML_PACKAGE_MAX_OBJECTS) return '(not run: minutes)';
        const m = measure(reader, file);
        if (m.error) return `failed: ${m.error}`;
        return `${fmtMs(m.ms)} (CPU ${fmtMs(m.cpuMs)}), ${fmtMiB(m.rssKiB)}`;
      });
      lines.push(`| ${style} (${columns.map((c) => fmtMB(statSync(c.files[ext]).size)).join(', ')}) | ${reader} | ${cells.join(' | ')} |`);
    }
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await measureInput({ quick: process.argv.includes('--quick') })) console.log(line);
}
