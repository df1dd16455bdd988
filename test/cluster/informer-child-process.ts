// Bundles informer-child.ts (esbuild, a dev dependency) into a temporary ES module whose package imports
// point at this project's node_modules, and runs it with node: no TypeScript loader needed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Leaves packages out of the bundle, imported by absolute URL (the bundle lives in a temp dir). */
const packagesByUrl: Plugin = {
  name: 'packages-by-url',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'inner' });
      if (r.errors.length > 0) return { errors: r.errors };
      if (r.external || !path.isAbsolute(r.path)) return { path: args.path, external: true };
      return { path: pathToFileURL(r.path).href, external: true };
    });
  },
};

/**
 * `createRequire(import.meta.url)(pkg)` (a package loaded on first use) resolves from the source
 * file's own place, not from the temporary bundle's.
 */
const requireFromSource: Plugin = {
  name: 'require-from-source',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)(')) return undefined;
      const contents = text.split('createRequire(import.meta.url)(').join(`createRequire(${JSON.stringify(pathToFileURL(args.path).href)})(`);
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/** Removes the bundle (call in afterAll). */
export function removeChildScript(): void {
  if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  bundleDir = undefined;
  bundled = undefined;
}

export function childScript(): Promise<string> {
  bundled ??= (async () => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-informer-child-'));
    const outfile = path.join(bundleDir, 'informer-child.mjs');
    await build({
      entryPoints: [path.join(HERE, 'informer-child.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: [],
      logLevel: 'silent',
      plugins: [packagesByUrl, requireFromSource],
    });
    return outfile;
  })();
  return bundled;
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs the child; kills it (and says so) if it has not exited within timeoutMs. */
export async function runChild(args: string[], timeoutMs: number, nodeArgs: string[] = []): Promise<ChildResult> {
  const script = await childScript();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}
