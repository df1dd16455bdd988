// Whether two builds print the same: runs the same read-only commands through `bin/run.cjs` of
// this checkout and of another one (a checkout of an older commit, built), and compares stdout,
// stderr and the exit status byte for byte. The commands: `diff` of every bundled example in each
// output format and with -A, `reconcile --dry-run=client`, `explain` of every controller of every
// example (and of each Deployment, in each format), every command's `--help`, the completion
// scripts, and, when ../shared is beside the checkout, `history` of the demo audit log in each
// format and of every managed-cluster shape of it. Nothing is written to a cluster: there is none.
//
//   git worktree add /tmp/old OLD_COMMIT && (cd /tmp/old && npm ci && npm run build)
//   node scripts/compare-outputs.mjs --base /tmp/old
//
// Prints how many commands printed the same and lists the others; exit status 1 when any differ.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--base');
const base = at > 0 ? resolve(process.argv[at + 1] ?? '') : '';
if (!base || !existsSync(join(base, 'bin', 'run.cjs'))) {
  console.error('usage: node scripts/compare-outputs.mjs --base DIR (a built checkout: DIR/bin/run.cjs)');
  process.exit(2);
}

const NOW = ['--now', '2026-01-01T00:00:00Z'];
const env = { ...process.env, NO_COLOR: '1', COLUMNS: '120' };
delete env.NODE_EXTRA_CA_CERTS;
delete env.FORCE_COLOR;

/** What one checkout prints for `argv`, run from its own folder (the examples' relative paths). */
function run(dir, argv) {
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'run.cjs'), ...argv], {
    cwd: root,
    env,
    encoding: 'latin1',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const examples = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join('examples', f));
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'));
const formats = (id) => [null, ...(manifest.commands[id].flags.output?.options ?? [])];
const withOutput = (argv, o) => (o === null ? argv : [...argv, '-o', o]);

/** The Deployments of an example: those it holds and those its ReplicaSets name as their controller. */
function deployments(ex) {
  const items = createRequire(import.meta.url)('js-yaml').load(readFileSync(join(root, ex), 'utf8')).items ?? [];
  const names = new Set();
  for (const o of items) {
    if (o.kind === 'Deployment') names.add(o.metadata.name);
    for (const ref of o.metadata?.ownerReferences ?? []) if (ref.kind === 'Deployment' && ref.controller) names.add(ref.name);
  }
  return [...names].sort();
}

const commands = [];
for (const ex of examples) {
  for (const o of formats('diff')) commands.push(withOutput(['diff', '-f', ex, ...NOW], o));
  commands.push(['diff', '-f', ex, '-A', ...NOW]);
  commands.push(['reconcile', '--dry-run=client', '-f', ex, ...NOW]);
  const names = run(root, ['diff', '-f', ex, '-o', 'name', ...NOW])
    .stdout.split('\n')
    .filter(Boolean);
  for (const name of names) commands.push(['explain', name.replace(/^replicaset\.apps\//, 'rs/').replace(/^replicationcontroller\//, 'rc/'), '-f', ex, ...NOW]);
  for (const name of deployments(ex))
    for (const o of formats('explain').filter((f) => f !== 'html')) commands.push(withOutput(['explain', `deploy/${name}`, '-f', ex, ...NOW], o));
}
for (const id of Object.keys(manifest.commands).sort()) commands.push([id, '--help']);
commands.push(['--help']);
for (const shell of ['bash', 'zsh', 'fish']) commands.push(['completion', shell]);
const demo = join(root, '..', 'shared', 'history', 'demo');
if (existsSync(join(demo, 'audit.jsonl'))) {
  for (const o of formats('history').filter((f) => f !== 'html')) commands.push(withOutput(['history', '--audit-log', join(demo, 'audit.jsonl'), '-A'], o));
  const cloud = join(demo, 'cloud');
  for (const f of readdirSync(cloud).sort()) if (f !== 'README.md') commands.push(['history', '--audit-log', join(cloud, f), '-A']);
}

const differ = [];
for (const argv of commands) {
  const a = run(base, argv);
  const b = run(root, argv);
  const what = ['status', 'stdout', 'stderr'].filter((k) => a[k] !== b[k]);
  if (what.length > 0) differ.push(`${argv.join(' ')}: ${what.join(', ')} differ`);
}
console.log(`${commands.length - differ.length} of ${commands.length} commands printed the same bytes and exit status in ${base} and ${root}`);
for (const d of differ) console.log(`  ${d}`);
process.exit(differ.length > 0 ? 1 : 0);
