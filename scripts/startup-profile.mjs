// Where one start of a command goes: runs `node bin/run.cjs ARGS…` with V8's sampling profiler
// (--cpu-prof) several times, each after a warm-up run (the code cache written), and prints a
// Markdown table of the phases of a start, in milliseconds of samples per run. The phases are
// inclusive (a phase holds what it calls) and may nest (reading holds the YAML parse), so their
// sum is not the whole. A phase resumed after an `await` is counted by its own frames only (a
// sampled stack starts at the resumed function).
//
//   node scripts/startup-profile.mjs [--runs 25] [--interval 250] -- diff -f examples/drifted-replicaset.yaml
//
// Sampling slows what it samples: compare phases with each other and with `node -e 0` profiled
// the same way (the first row), not with npm run bench's wall clock. NODE_EXTRA_CA_CERTS is
// unset, as in the bench.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const sep = args.indexOf('--');
if (sep < 0 || sep === args.length - 1) {
  console.error('usage: node scripts/startup-profile.mjs [--runs N] [--interval MICROSECONDS] -- COMMAND ARGS…');
  process.exit(2);
}
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0 || i > sep) return fallback;
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`startup-profile: ${name} takes a positive integer`);
    process.exit(2);
  }
  return n;
};
const runs = option('--runs', 25);
const interval = option('--interval', 250);
const command = args.slice(sep + 1);

/** Phases of a start: a label and the frames (V8's function name, and the file it is in) whose inclusive samples it counts. */
const BUNDLE = /\/dist\/bundle\/(main(-[a-z]+)?|heavy)\.cjs$/;
const BOOT = /\/dist\/bundle\/boot\.cjs$/;
const PHASES = [
  ['Node.js bootstrap before the entry (prepareExecution)', [['prepareExecution']]],
  ['the bundle loaded (boot.cjs load)', [['load', BOOT]]],
  [
    '  a bundle file and its code cache read',
    [
      ['source', BOOT],
      ['readCache', BOOT],
    ],
  ],
  ['  the code cache deserialised (vm.Script)', [['Script', /^node:vm$/]]],
  ['  the bundle evaluated (its top level)', [['', BUNDLE, 0]]],
  ["the command's modules initialised (on its import)", [[/^src\/commands\//, BUNDLE]]],
  ['flags parsed (oclif)', [['parse', BUNDLE]]],
  ['snapshot read (files, YAML or JSON, checks)', [['loadSnapshotFiles', BUNDLE]]],
  [
    '  YAML parsed (js-yaml, with loading it)',
    [
      ['loadAll', BUNDLE],
      [/^node_modules\/js-yaml\//, BUNDLE],
    ],
  ],
  ['plan made (the rules)', [['decideAll', BUNDLE]]],
  ['output drawn', [['renderOutput', BUNDLE]]],
  ['output written', [['printChunks', BUNDLE]]],
  ['garbage collection', [['(garbage collector)']]],
  ['idle (the main thread waiting, mostly at exit for V8 background work)', [['(idle)']]],
];

/** Whether a profile frame is one of a phase's. */
const isFrame = (frame, [fn, url, line]) =>
  (typeof fn === 'string' ? frame.functionName === fn : fn.test(frame.functionName)) &&
  (!url || url.test(frame.url)) &&
  (line === undefined || frame.lineNumber === line);

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

/** Milliseconds per run of each phase, and of the whole profile, over `runs` profiled runs of `argv`. */
function profile(argv) {
  const dir = mkdtempSync(join(tmpdir(), 'rs-startup-profile-'));
  try {
    spawnSync(process.execPath, argv, { cwd: root, stdio: 'ignore', env }); // warm-up: page cache, code cache
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', String(interval), ...argv], {
        cwd: root,
        stdio: 'ignore',
        env,
      });
      if (r.status !== 0 && r.status !== 1) throw new Error(`startup-profile: ${argv.join(' ')} exited ${r.status}`);
    }
    const totals = new Map(PHASES.map(([label]) => [label, 0]));
    let whole = 0;
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    for (const f of files) {
      const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const nodes = new Map(p.nodes.map((n) => [n.id, n]));
      const parent = new Map();
      for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      p.samples.forEach((id, i) => {
        const dt = p.timeDeltas[i] ?? 0;
        whole += dt;
        const frames = [];
        for (let x = id; x !== undefined; x = parent.get(x)) frames.push(nodes.get(x).callFrame);
        for (const [label, specs] of PHASES) if (frames.some((frame) => specs.some((spec) => isFrame(frame, spec)))) totals.set(label, totals.get(label) + dt);
      });
    }
    const perRun = (us) => us / files.length / 1000;
    return { whole: perRun(whole), phases: new Map([...totals].map(([k, v]) => [k, perRun(v)])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const base = profile(['-e', '0']);
const cmd = profile([join('bin', 'run.cjs'), ...command]);
const ms = (v) => `${v.toFixed(1)} ms`;
console.log(`### Where a start goes: \`${command.join(' ')}\` (${runs} profiled runs, one sample per ${interval} µs, Node.js ${process.version})`);
console.log('| phase | ms of samples per run | share of the command |');
console.log('|---|---|---|');
console.log(`| \`node -e 0\`, the whole | ${ms(base.whole)} | |`);
console.log(`| the command, the whole | ${ms(cmd.whole)} | 100% |`);
for (const [label] of PHASES) {
  const v = cmd.phases.get(label);
  if (v < 0.05) continue;
  console.log(`| ${label.replace(/^( +)/, (s) => '&nbsp;'.repeat(2 * s.length))} | ${ms(v)} | ${Math.round((100 * v) / cmd.whole)}% |`);
}
