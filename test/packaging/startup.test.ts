// Start-up (issue 20, item 8): bin/run.js runs the commands from one CommonJS file (dist/bundle/
// main.cjs, src/main/dispatch.ts) without oclif's start, the packages the hot commands never run
// stay in heavy.cjs, and a V8 code cache (boot.cjs) is kept beside the bundle or in the user's
// cache folder. Nothing here measures time: it checks what runs, what is written, and that the
// output is the same byte for byte as oclif's path (RS_RECONCILE_NO_FAST=1).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nameOrder } from '../../src/core/order.js';
import { COMMANDS } from '../../src/main/commands.js';
import { seaFallback } from '../../src/main/sea.js';
import { BUNDLE, EXAMPLE, NOW, ROOT, RUN_JS, baseEnv, ensureBundle, loadedBy, node, run, tempDir } from './helpers.js';

beforeAll(() => ensureBundle(), 300_000);

const COMPLETE_JS = join(ROOT, 'bin', 'complete.js');

/** The hot commands of the issue: what a person or a shell waits on. */
const HOT: Array<[string, string[], string?]> = [
  ['--help', ['--help']],
  ['diff --help', ['diff', '--help']],
  ['version --client', ['version', '--client']],
  ['version --client -o json', ['version', '--client', '-o', 'json']],
  ['completion bash', ['completion', 'bash']],
  ['TAB: commands', [''], COMPLETE_JS],
  ['TAB: flags', ['diff', '--'], COMPLETE_JS],
  ['TAB: -o values', ['diff', '-o', ''], COMPLETE_JS],
  ['diff -f', ['diff', '-f', EXAMPLE, '--now', NOW]],
  ['diff -f -o yaml', ['diff', '-f', EXAMPLE, '-o', 'yaml', '--now', NOW]],
  ['explain -f', ['explain', 'shop-web', '-f', EXAMPLE, '--now', NOW]],
];

/**
 * A copy of the bundle whose single file records each module it evaluates: esbuild wraps every
 * lazily evaluated module in __commonJS or __esm, keyed by its path; the copy's helpers note the key.
 */
function tracedBundle(): string {
  const dir = join(tempDir('rs-startup-'), 'bundle');
  cpSync(BUNDLE, dir, { recursive: true, filter: (f) => !f.endsWith('.cache') });
  const TRACE = 'var __rsTrace=(o)=>{if(o)(globalThis.__rsModules??=[]).push(Object.getOwnPropertyNames(o)[0])};\n';
  for (const f of readdirSync(dir).filter((n) => /^(main(-[a-z-]+)?|heavy)\.cjs$/.test(n))) {
    let text = readFileSync(join(dir, f), 'utf8');
    // (esbuild renames a helper's parameters when a name is taken: mod, mod2, …)
    const esm = /var __esm=\((\w+),\w+,\w+\)=>function\(\)\{/;
    const cjs = /var __commonJS=\(cb,(\w+)\)=>function\(\)\{/;
    expect(cjs.test(text) && (f === 'heavy.cjs' || esm.test(text)), `${f}: esbuild's module helpers changed: update tracedBundle()`).toBe(true);
    text = TRACE + text.replace(esm, (m, fn) => `${m}__rsTrace(${fn});`).replace(cjs, (m, mod) => `${m}__rsTrace(${mod}?0:cb);`);
    writeFileSync(join(dir, f), text, 'utf8');
  }
  return dir;
}

/** Runs the traced copy's boot.cjs as bin/run.js would; returns the output and the modules evaluated. */
function traced(dir: string, argv: string[], env: Record<string, string | undefined> = {}) {
  const log = join(dir, '..', 'modules.json');
  rmSync(log, { force: true });
  const script = `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(globalThis.__rsModules ?? [])));
require(${JSON.stringify(join(dir, 'boot.cjs'))}).run(${JSON.stringify(argv)}).then((handled) => { if (!handled) process.exitCode = 99; });`;
  const result = run(process.execPath, ['-e', script], { env: baseEnv({ RS_RECONCILE_NO_CODE_CACHE: '1', ...env }) });
  const modules: string[] = existsSync(log) ? JSON.parse(readFileSync(log, 'utf8')) : [];
  return { result, modules };
}

/** light.cjs's answer to the words (stdout's text), or null when main.cjs runs them. */
function lightAnswer(argv: string[]): string | null {
  return createRequire(import.meta.url)(join(BUNDLE, 'light.cjs')).answer(argv);
}

/** What the hot commands must not evaluate: oclif's start (Config, main, its index, its help), the logger, the heavy packages. */
const NOT_HOT = [
  /@oclif\/core\/lib\/(index|main|execute|config\/|help\/index|module-loader)/,
  /node_modules\/debug\//,
  /@kubernetes\/client-node/,
  /node_modules\/(ink|react|react-reconciler|yoga-layout|protobufjs|prom-client)\//,
];

describe('direct dispatch (dist/bundle/main.cjs)', () => {
  it('carries every command of the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'));
    expect(Object.keys(COMMANDS).sort()).toEqual(Object.keys(manifest.commands).sort());
  });

  it('bin/run.js runs the hot commands from the single file, not from oclif (a loader hook records every module loaded)', () => {
    for (const [label, args, script] of HOT) {
      const { result, esm, cjs } = loadedBy(args, {}, script ?? RUN_JS);
      expect([0, 1], label).toContain(result.status);
      expect(cjs, label).toContain(join(BUNDLE, 'boot.cjs'));
      expect(
        esm.filter((f) => f.startsWith(BUNDLE)),
        label,
      ).toEqual([]); // no ESM chunk: oclif's run.js, its commands
      expect(
        [...esm, ...cjs].filter((f) => f.includes('/node_modules/')),
        label,
      ).toEqual([]);
    }
  });

  it("the hot commands evaluate neither oclif's Config, index, help nor logger, nor the heavy packages", () => {
    const dir = tracedBundle();
    for (const [label, args, script] of HOT) {
      const argv = script === COMPLETE_JS ? ['completion', '__complete', '--', ...args] : args;
      const { result, modules } = traced(dir, argv);
      expect([0, 1], `${label}: ${result.stderr}`).toContain(result.status);
      // light.cjs's answers evaluate nothing of main.cjs (what light.cjs carries is checked below)
      if (lightAnswer(argv) !== null) expect(modules, label).toEqual([]);
      else expect(modules.length, label).toBeGreaterThan(0); // the trace sees the modules
      expect(
        modules.filter((m) => NOT_HOT.some((re) => re.test(m))),
        label,
      ).toEqual([]);
    }
    // … and the check can see them: a live cluster read loads the Kubernetes client from heavy.cjs
    const live = traced(dir, ['diff', '--request-timeout', '1s'], { KUBECONFIG: join(ROOT, 'test', 'packaging', 'fixtures', 'unreachable.kubeconfig') });
    expect(live.result.status).toBe(2);
    expect(live.modules.some((m) => /@kubernetes\/client-node/.test(m))).toBe(true);
  }, 120_000);

  it('light.cjs carries none of them, and answers what it answers as main.cjs does, byte for byte (RS_RECONCILE_NO_LIGHT=1)', () => {
    const carried: string[] = JSON.parse(readFileSync(join(BUNDLE, '..', 'bundle-light-meta.json'), 'utf8')).inputs;
    expect(carried.some((i) => i.endsWith('src/main/light.ts'))).toBe(true);
    expect(carried.filter((i) => NOT_HOT.some((re) => re.test(i)) || /src\/(commands|services)\//.test(i))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'));
    const tab = (...words: string[]) => ['completion', '__complete', '--', ...words];
    const answered = [
      ['--help'],
      ...Object.keys(manifest.commands).map((id) => [id, '--help']),
      ...['bash', 'zsh', 'fish', 'kubectl'].map((shell) => ['completion', shell]),
      tab(''),
      tab('d'),
      tab('-'),
      tab('--v'),
      tab('diff', '--'),
      tab('diff', '-'),
      tab('diff', '-n', 'x', '--'),
      tab('diff', '-o', ''),
      tab('diff', '--output=ya'),
      tab('diff', '-f', ''),
      tab('explain', 'rs/web', ''),
      tab('nosuch', ''),
      tab('history', '-o', ''),
      tab('reconcile', '--dry-run='),
      ['completion', '__complete', 'diff', '--'],
    ];
    const dir = tracedBundle();
    for (const argv of answered) {
      expect(lightAnswer(argv), argv.join(' ')).not.toBeNull();
      const light = traced(dir, argv);
      expect(light.modules, argv.join(' ')).toEqual([]);
      const main = traced(dir, argv, { RS_RECONCILE_NO_LIGHT: '1' });
      expect(main.modules.length, argv.join(' ')).toBeGreaterThan(0); // main.cjs ran it
      expect(light.result, argv.join(' ')).toEqual(main.result);
    }
    // what needs a lookup, a parse, or oclif: main.cjs's
    for (const argv of [
      tab('diff', '-n', ''),
      tab('explain', ''),
      tab('diff', '--context', ''),
      ['completion', '__complete', '--help'],
      ['completion', 'tcsh'],
      ['completion', 'bash', 'x'],
      ['version', '--client'],
      ['diff', '-h'],
      ['diff', '--help', 'x'],
      [],
    ]) {
      expect(lightAnswer(argv), argv.join(' ')).toBeNull();
    }
  }, 120_000);

  // one test per command line: each runs the CLI twice, so no test's time grows with the list
  const oclifCases: Array<[string[], string?]> = [
    ...HOT.map(([, args, script]) => [args, script] as [string[], string?]),
    [['diff', '-o', 'xml', '-f', EXAMPLE]],
    [['diff', '--bogus']],
    [['explain']],
    [['version', '--client', '--kube-version', '1.2']],
    [['completion', 'tcsh']],
    [['diff', '-f', join(ROOT, 'no-such-file.yaml')]],
    // (the history renderer matches non-ASCII text with regular expressions: "4 → 1" becomes "4→1")
    [['history', '--audit-log', join(ROOT, 'test', 'history', 'fixtures', 'demo-audit.jsonl'), '-o', 'wide', '--kube-version', '1.32']],
  ];
  it.each(oclifCases.map(([args, script]) => ({ args, script, line: `${script ? `${script} ` : ''}${args.join(' ')}` })))(
    'prints what oclif prints, byte for byte, with the same exit status: $line',
    ({ args, script }) => {
      const fast = node(script ?? RUN_JS, args);
      const oclif = node(script ?? RUN_JS, args, { RS_RECONCILE_NO_FAST: '1' });
      expect(fast, args.join(' ')).toEqual(oclif);
    },
  );

  it('leaves to oclif what it does not run: --version, other help forms (-h, help X, --help after other words), unknown commands', () => {
    for (const args of [['--version'], ['help', 'diff'], ['explian'], [], ['-h'], ['diff', '-h'], ['diff', '-f', EXAMPLE, '--help']]) {
      const { esm } = loadedBy(args);
      expect(esm, args.join(' ')).toContain(join(BUNDLE, 'run.js'));
    }
  });
});

describe('code cache (dist/bundle/boot.cjs)', () => {
  const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cache')) : []);

  it("is written beside the bundle, or in the user's cache folder when the bundle's folder cannot take it; a corrupt one is ignored", () => {
    const base = tempDir('rs-cache-');
    const bundle = join(base, 'bundle');
    cpSync(BUNDLE, bundle, { recursive: true, filter: (f) => !f.endsWith('.cache') });
    const xdg = join(base, 'xdg');
    const env = { XDG_CACHE_HOME: xdg, RS_RECONCILE_CACHE_DIR: undefined, RS_RECONCILE_NO_CODE_CACHE: undefined };
    const expected = node(RUN_JS, ['diff', '-f', EXAMPLE, '--now', NOW]);
    // as bin/run.cjs starts it (the cache is per command: process.argv[2])
    writeFileSync(join(base, 'run.cjs'), `require(${JSON.stringify(join(bundle, 'boot.cjs'))}).run(process.argv.slice(2));\n`);
    const runCopy = () => run(process.execPath, [join(base, 'run.cjs'), 'diff', '-f', EXAMPLE, '--now', NOW], { env: baseEnv(env) });

    // writable install folder: beside the bundle (a cache of an older bundle there is removed)
    mkdirSync(join(bundle, '.cache'), { mode: 0o700 });
    writeFileSync(join(bundle, '.cache', 'main-0123456789abcdef-diff-v20.0.0-x64.cache'), 'old');
    expect(runCopy()).toEqual(expected);
    expect(cacheFiles(join(bundle, '.cache'))).toEqual([expect.stringMatching(/^main-diff-[0-9a-f]{16}-diff\.yaml-v\d+\.\d+\.\d+-\w+\.cache$/)]);

    // an install folder that cannot take it (tests run as root, which writes through a read-only
    // mode: the folder's place is taken by a file instead): the user's cache folder
    rmSync(join(bundle, '.cache'), { recursive: true });
    writeFileSync(join(bundle, '.cache'), 'not a folder');
    expect(runCopy()).toEqual(expected);
    const fallback = join(xdg, 'rs-reconcile');
    const [name] = cacheFiles(fallback);
    expect(name).toMatch(/^main-/);

    // corrupt: V8 refuses it, the command runs as before and the cache is written again
    const garbage = Buffer.alloc(4096, 0x5a);
    writeFileSync(join(fallback, name), garbage);
    expect(runCopy()).toEqual(expected);
    expect(readFileSync(join(fallback, name)).equals(garbage)).toBe(false);
    // cut short
    writeFileSync(join(fallback, name), readFileSync(join(fallback, name)).subarray(0, 100));
    expect(runCopy()).toEqual(expected);
  }, 60_000);

  it('is one per command and form (the input of -f, the -o), and a run that ends in an error writes none', () => {
    const dir = tempDir('rs-cache-forms-');
    const env = baseEnv({ RS_RECONCILE_CACHE_DIR: dir, RS_RECONCILE_NO_CODE_CACHE: undefined });
    const start = (...argv: string[]) => run(process.execPath, [join(ROOT, 'bin', 'run.cjs'), ...argv], { env });
    const names = () => cacheFiles(dir).map((f) => f.replace(/-[0-9a-f]{16}-/, '-HASH-').replace(/-v\d+\.\d+\.\d+-\w+\.cache$/, ''));

    // stopped by an error before most of the command ran: no cache, so the next run writes the whole one
    expect(start('diff', '-f', join(dir, 'missing.yaml')).status).toBe(2);
    expect(start('diff', '--bogus').status).toBe(2);
    expect(names()).toEqual([]);

    expect(start('diff', '-f', EXAMPLE, '--now', NOW).status).toBe(1);
    // the spellings of -o that kubectl accepts are one form
    for (const o of [['-o', 'json'], ['-ojson'], ['--output=json'], ['-o=json']]) expect(start('diff', ...o, '-f', EXAMPLE, '--now', NOW).status).toBe(1);
    expect(start('diff', '-f', EXAMPLE, '-o', 'wide', '--now', NOW).status).toBe(1);
    expect(start('version', '--client').status).toBe(0);
    expect(names().sort()).toEqual([
      'main-diff-HASH-diff.yaml',
      'main-diff-HASH-diff.yaml.o-json',
      'main-diff-HASH-diff.yaml.o-wide',
      'main-version-HASH-version',
    ]);
  }, 60_000);
});

describe('nameOrder (help and completion sort without starting ICU for plain names)', () => {
  it('orders every pair of strings as localeCompare does', () => {
    const plain = fc.stringMatching(/^[a-z0-9 -]{0,8}$/);
    const any = fc.string({ maxLength: 8 });
    for (const arb of [plain, any, fc.oneof(plain, fc.constantFrom('rs/web', 'deploy/api', 'A', 'Z', 'ä', 'a:b', 'a0'))]) {
      fc.assert(
        fc.property(arb, arb, (a, b) => Math.sign(nameOrder(a, b)) === Math.sign(a.localeCompare(b))),
        { numRuns: 3000 },
      );
    }
  });
});

describe("the single executable's answers where there is no oclif (src/main/sea.ts)", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  it('--version, the help forms, and an unknown command', () => {
    expect(seaFallback(['--version'], manifest, pkg)).toEqual({
      stdout: `rs-reconcile ${pkg.version}\nNode.js ${process.version}\n`,
      status: 0,
    });
    const root = seaFallback([], manifest, pkg);
    expect(root.status).toBe(0);
    for (const id of Object.keys(manifest.commands)) expect(root.stdout).toContain(`  ${id} `);
    for (const args of [
      ['diff', '-h'],
      ['help', 'diff'],
      ['diff', '-f', 'x.yaml', '--help'],
    ]) {
      const r = seaFallback(args, manifest, pkg);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Show what the ReplicaSet controller would change/);
      expect(r.stdout, args.join(' ')).toContain('diff [NAME...] [flags]');
    }
    // an unknown command: kubectl's answer, as oclif's command_not_found hook gives it elsewhere
    const unknown = seaFallback(['explian'], manifest, pkg);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^error: unknown command "explian" for "[^"]+"\n\nDid you mean this\?\n\texplain\n/);
    expect(seaFallback(['help', 'explian'], manifest, pkg).stderr).toMatch(/^error: unknown command "explian"/);
    expect(seaFallback(['-n', 'shop', 'diff'], manifest, pkg)).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^error: unknown shorthand flag: 'n' in -n \(the command goes first: .* diff -n shop\)/),
    });
  });
});
