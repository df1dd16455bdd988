// Everything `rs-reconcile sandbox` does, so the oclif command stays a thin flag parser.
import { lstat, mkdir, readdir, readFile, rmdir, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { UserError, fileReadError, yamlParseError, type YamlSyntaxError } from '../errors.js';
import { type Sandbox, startSandbox } from './index.js';
import { type KubeconfigCleanup, type MergedEntry, mergeSandboxEntry, removeSandboxEntry } from './kubeconfig.js';

export interface SandboxCliOptions {
  port?: number;
  nodes?: number;
  /** Files and directories (their *.yaml, *.yml and *.json, recursively) to preload. */
  seedFiles?: string[];
  /** The kubeconfig to merge into (default: defaultKubeconfigPath(name), outside the checkout). */
  kubeconfigPath?: string;
  /**
   * The sandbox's name: its cluster, user and context are `rs-reconcile-NAME`. Without one it is
   * `sandbox`, or `sandbox-2`, `sandbox-3`, … when another running sandbox has that name.
   */
  name?: string;
  auditLog?: string;
  /** Newest audit entries kept in memory (GET /sandbox/audit). */
  auditMaxEntries?: number;
  /** kube-controller-manager's simulated controllers (default true); false: a bare API server. */
  controllers?: boolean;
  out: NodeJS.WritableStream;
  /** Where the hint goes (default: process.stderr). */
  err?: NodeJS.WritableStream;
  signal: AbortSignal;
  /** Where the default kubeconfig's directory is made (default: $XDG_RUNTIME_DIR, else the OS temp directory). */
  runtimeDir?: string;
}

const DEFAULT_NAME = 'sandbox';
const NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
/** Default names tried (sandbox, sandbox-2, …) before giving up. */
const NAME_ATTEMPTS = 20;
const SEED_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** The kubeconfig a sandbox writes when not told where: owner-only, outside any checkout. */
export function defaultKubeconfigPath(name: string, runtimeDir = process.env.XDG_RUNTIME_DIR || tmpdir()): string {
  return join(runtimeDir, `rs-reconcile-${name}`, 'kubeconfig');
}

/** The files a seed argument names: a file itself, a directory's *.yaml/*.yml/*.json at any depth (sorted, as kubectl -f DIR -R). */
async function seedFilesOf(path: string, seen = new Set<string>()): Promise<string[]> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(path);
  } catch (e) {
    throw fileReadError(path, e);
  }
  if (!st.isDirectory()) return [path];
  // A directory is read once, so a symlink back up the tree cannot loop.
  const id = `${st.dev}:${st.ino}`;
  if (seen.has(id)) return [];
  seen.add(id);
  const out: string[] = [];
  let entries: string[];
  try {
    entries = (await readdir(path)).sort();
  } catch (e) {
    throw fileReadError(path, e);
  }
  for (const name of entries) {
    const p = join(path, name);
    const s = await stat(p).catch(() => undefined);
    if (s?.isDirectory()) out.push(...(await seedFilesOf(p, seen)));
    else if (s?.isFile() && SEED_EXTENSIONS.has(extname(name).toLowerCase())) out.push(p);
  }
  return out;
}

/** The seed's objects and, for each, the file it came from. */
async function readSeed(paths: string[]): Promise<{ objects: unknown[]; files: string[] }> {
  const objects: unknown[] = [];
  const files: string[] = [];
  for (const f of (await Promise.all(paths.map((p) => seedFilesOf(p)))).flat()) {
    let text: string;
    try {
      text = await readFile(f, 'utf8');
    } catch (e) {
      throw fileReadError(f, e);
    }
    let docs: unknown[];
    try {
      docs = loadAll(text, undefined, { schema: CORE_SCHEMA });
    } catch (e) {
      throw yamlParseError(f, e as YamlSyntaxError);
    }
    for (const v of docs) {
      if (v !== null && v !== undefined) {
        objects.push(v);
        files.push(f);
      }
    }
  }
  return { objects, files };
}

/** Whether something accepts connections at a kubeconfig server's host:port (another sandbox still running). */
function answers(server: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return Promise.resolve(true); // not ours to judge: treated as in use
  }
  return new Promise((done) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 443) });
    const finish = (alive: boolean) => {
      socket.destroy();
      done(alive);
    };
    socket.setTimeout(5000, () => finish(true));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * The default kubeconfig's directory, made owner-only; one that exists must be a directory of
 * ours that nobody else can enter (a shared temp directory must not hand the token to anyone).
 * Whether it was made here (and may be removed at exit).
 */
async function ensurePrivateDir(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { mode: 0o700 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot create the directory "${dir}": ${(e as Error).message}`);
  }
  const st = await lstat(dir);
  const uid = process.getuid?.(); // POSIX only: elsewhere there are no owners and modes to check
  if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o077) !== 0))) {
    throw new UserError(`"${dir}" is not a private directory of this user: not writing the sandbox's kubeconfig there; name one with --write-kubeconfig`);
  }
  return false;
}

interface Placed {
  merged: MergedEntry;
  /** The default kubeconfig's directory, when this sandbox made it. */
  madeDir?: string;
}

/** Merges the sandbox into its kubeconfig under the first free name. */
async function placeKubeconfig(sb: Sandbox, o: SandboxCliOptions): Promise<Placed> {
  const explicit = o.name !== undefined;
  const base = o.name ?? DEFAULT_NAME;
  if (!NAME.test(base))
    throw new UserError(`invalid sandbox name "${base}": lowercase letters, digits and "-", at most 40, starting and ending with a letter or digit`);
  for (let i = 1; i <= (explicit ? 1 : NAME_ATTEMPTS); i++) {
    const name = i === 1 ? base : `${base}-${i}`;
    const path = o.kubeconfigPath !== undefined ? resolve(o.kubeconfigPath) : defaultKubeconfigPath(name, o.runtimeDir);
    const madeDir = o.kubeconfigPath === undefined && (await ensurePrivateDir(dirname(path))) ? dirname(path) : undefined;
    const r = await mergeSandboxEntry(path, { entry: `rs-reconcile-${name}`, server: sb.url, token: sb.token, ca: sb.ca }, answers).catch(
      async (e: unknown) => {
        if (madeDir) await rmdir(madeDir).catch(() => undefined);
        throw e;
      },
    );
    if ('merged' in r) return { merged: r.merged, madeDir };
    if (madeDir) await rmdir(madeDir).catch(() => undefined);
    if (explicit) {
      throw new UserError(
        `the kubeconfig "${path}" already has a context rs-reconcile-${name} of a running sandbox (or someone else's): choose another --name`,
      );
    }
  }
  throw new UserError(`no free sandbox name: ${base} to ${base}-${NAME_ATTEMPTS} are all in use`);
}

export async function runSandboxCli(o: SandboxCliOptions): Promise<void> {
  const err = o.err ?? process.stderr;
  const seed = await readSeed(o.seedFiles ?? []);
  if (o.signal.aborted) return;
  let sb: Sandbox;
  try {
    sb = await startSandbox({
      port: o.port ?? 0,
      nodes: o.nodes ?? 0,
      seed: seed.objects,
      auditLog: o.auditLog,
      auditMaxEntries: o.auditMaxEntries,
      controllers: o.controllers,
    });
  } catch (e) {
    throw new UserError(`cannot start the sandbox: ${(e as Error).message}`);
  }
  let placed: Placed | undefined;
  try {
    for (const s of sb.seed.skipped) err.write(`Warning: skipped ${s.what} (${seed.files[s.from]}): ${s.reason}\n`);
    placed = await placeKubeconfig(sb, o);
    const { merged } = placed;
    o.out.write(`export KUBECONFIG=${merged.path}\n`);
    if (!merged.created) {
      err.write(
        `merged the cluster, user and context ${merged.entry} into ${merged.path} and made it current` +
          `${merged.previousContext ? ` (was ${merged.previousContext})` : ''}; they are taken out again when the sandbox stops\n`,
      );
    }
    const absent = sb.seed.withAbsentOwners;
    if (absent > 0) {
      err.write(
        `${absent} seeded object${absent === 1 ? ' has an owner' : 's have owners'} not in the seed: kept (the garbage collector collects only dependents of owners deleted here)\n`,
      );
    }
    const nodes = o.nodes ?? 0;
    const bare = o.controllers === false ? ', no controllers' : '';
    err.write(
      `sandbox API server on ${sb.url} (${nodes} node${nodes === 1 ? '' : 's'}${nodes === 0 ? ', no kubelet' : ''}${bare}); ` +
        `run the line above, then e.g. \`kubectl get pods -A\`. Ctrl-C to stop.\n`,
    );
    if (!o.signal.aborted) await new Promise<void>((r) => o.signal.addEventListener('abort', () => r(), { once: true }));
  } finally {
    // close() flushes the audit file; a write that failed there is the user's to see.
    const closed = sb.close().then(
      () => null,
      (e: Error) => e,
    );
    if (placed) await forgetKubeconfig(placed, err);
    const failed = await closed;
    // biome-ignore lint/correctness/noUnsafeFinally: a failed flush of the audit file is reported even when the run itself failed
    if (failed) throw new UserError(failed.message);
  }
}

/** Takes the stopped sandbox out of the kubeconfig it merged into, and says so. */
async function forgetKubeconfig({ merged: m, madeDir }: Placed, err: NodeJS.WritableStream): Promise<void> {
  const r: KubeconfigCleanup = await removeSandboxEntry(m);
  if (r.done === 'removed') {
    if (madeDir) await rmdir(madeDir).catch(() => undefined); // only if empty: anything put there is kept
    err.write(`sandbox stopped: removed ${m.path}, whose server ${m.server} no longer answers\n`);
  } else if (r.done === 'pruned') {
    const ctx = r.currentContext ? `; current-context: ${r.currentContext}` : '';
    err.write(`sandbox stopped: removed its cluster, user and context ${m.entry} from ${m.path} (the rest is kept${ctx})\n`);
  }
}
