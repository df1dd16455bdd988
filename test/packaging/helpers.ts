// Shared helpers of the packaging tests: the bundle, child processes, and a module-load log.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUNDLE = join(ROOT, 'dist', 'bundle');
export const RUN_JS = join(ROOT, 'bin', 'run.js');
export const NOW = '2026-01-01T00:00:00Z';
export const EXAMPLE = join(ROOT, 'examples', 'drifted-replicaset.yaml');
const LOAD_LOG = join(ROOT, 'test', 'packaging', 'fixtures', 'load-log.mjs');

/** Builds once if the bundle (or the plain output it is made from) is missing. */
export function ensureBundle(): void {
  if (existsSync(join(BUNDLE, 'run.js')) && existsSync(join(BUNDLE, 'oclif.manifest.json')) && existsSync(join(ROOT, 'dist', 'commands', 'diff.js'))) return;
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

export interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: no color, no cluster, no home. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/nonexistent-home' };
  for (const k of ['FORCE_COLOR', 'RS_RECONCILE_INVOKED_AS', 'RS_RECONCILE_NO_BUNDLE', 'RS_RECONCILE_NODE']) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function run(cmd: string, args: string[], opts: SpawnSyncOptions & { env?: NodeJS.ProcessEnv } = {}): Result {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    encoding: 'utf8',
    input: '',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    ...opts,
    env: opts.env ?? baseEnv(),
  });
  return { status: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** `node <script> args` with the test environment. */
export function node(script: string, args: string[], env: Record<string, string | undefined> = {}, opts: SpawnSyncOptions = {}): Result {
  return run(process.execPath, [script, ...args], { ...opts, env: baseEnv(env) });
}

export interface Loaded {
  result: Result;
  /** Files loaded as ESM (paths) and as CommonJS (paths). */
  esm: string[];
  cjs: string[];
}

/** Runs the CLI with a loader hook that records every module it loads. */
export function loadedBy(args: string[], env: Record<string, string | undefined> = {}, script = RUN_JS): Loaded {
  const dir = mkdtempSync(join(tmpdir(), 'rs-load-'));
  const log = join(dir, 'loaded.txt');
  try {
    const result = run(process.execPath, ['--import', LOAD_LOG, script, ...args], { env: baseEnv({ ...env, RS_LOAD_LOG: log }) });
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    const esm = [...new Set(lines.filter((l) => l.startsWith('esm ')).map((l) => fileURLToPath(l.slice(4))))];
    const cjs = [...new Set(lines.filter((l) => l.startsWith('cjs ')).map((l) => l.slice(4)))];
    return { result, esm, cjs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BundleMeta {
  outputs: Record<string, { bytes: number; entryPoint: string | null; imports: { path: string; kind: string }[]; externals: string[]; packages: string[] }>;
}

export function bundleMeta(): BundleMeta {
  return JSON.parse(readFileSync(join(ROOT, 'dist', 'bundle-meta.json'), 'utf8'));
}

/** The npm packages whose code is in the given bundle files. */
export function packagesIn(files: string[], meta = bundleMeta()): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    if (!f.startsWith(BUNDLE + '/')) continue;
    const rel = f.slice(BUNDLE.length + 1);
    for (const p of meta.outputs[rel]?.packages ?? []) out.add(p);
  }
  return out;
}

/** The bundle files reached from `entry` through static imports only. */
export function staticClosure(entry: string, meta = bundleMeta()): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of meta.outputs[f]?.imports ?? []) if (i.kind === 'import-statement') todo.push(i.path);
  }
  return [...seen];
}

const made: string[] = [];
/** A fresh directory under the system temp dir (or `base`), removed when the test process exits. */
export function tempDir(prefix: string, base = tmpdir()): string {
  const dir = mkdtempSync(join(base, prefix));
  if (!made.length)
    process.once('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  made.push(dir);
  return dir;
}

/** True when no directory from `dir` up to / holds a node_modules. */
export function noNodeModulesAbove(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return false;
    if (dirname(d) === d) return true;
  }
}

/**
 * A temp location with no node_modules in it or in any parent (Node.js would resolve packages
 * from there), or null when none is clean (e.g. a /tmp/node_modules someone made).
 */
export function isolatedBase(): string | null {
  for (const base of [tmpdir(), '/var/tmp', '/dev/shm']) {
    if (existsSync(base) && noNodeModulesAbove(base)) return base;
  }
  return null;
}
