// The kubeconfig the sandbox hands out: one cluster (with its self-signed CA), one token user, one
// context. `sandbox` merges them into the user's file (as kind does with kind-NAME), named
// rs-reconcile-NAME, and takes out only those entries when it stops.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { UserError } from '../errors.js';

/** A kubeconfig's text, as kubectl writes one: block YAML, no aliases, long lines kept whole. */
function configText(doc: Config): string {
  return dump(doc, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
}

export function kubeconfigText(o: { url: string; token: string; ca: string; contextName?: string; namespace?: string }): string {
  const ctx = o.contextName ?? 'sandbox';
  return configText({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'sandbox', cluster: { server: o.url, 'certificate-authority-data': Buffer.from(o.ca).toString('base64') } }],
    users: [{ name: 'sandbox-admin', user: { token: o.token } }],
    contexts: [{ name: ctx, context: { cluster: 'sandbox', user: 'sandbox-admin', namespace: o.namespace ?? 'default' } }],
    'current-context': ctx,
    preferences: {},
  });
}

export interface WriteKubeconfigOptions {
  /** The name of the temporary file for an attempt (tests make it predictable). */
  tempName?: (target: string, attempt: number) => string;
  /** The owner the file keeps (an existing file's): the new file is given it before it replaces the old one. */
  owner?: { uid: number; gid: number };
  /** The mode (default 0600: the file holds a bearer token). */
  mode?: number;
}

const ATTEMPTS = 8;
const defaultTempName = (target: string) => `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`;
const reason = (err: unknown) => ((err as Error).message ?? String(err)).replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');

/** Gives the new file the old one's owner; a file we cannot give it to is not replaced. */
async function chownKept(file: FileHandle, owner: { uid: number; gid: number }): Promise<void> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (owner.uid === uid && owner.gid === gid) return;
  try {
    await file.chown(owner.uid, owner.gid);
  } catch {
    throw new Error(`it belongs to uid ${owner.uid} (gid ${owner.gid}), and a file written by uid ${uid} cannot keep that owner`);
  }
}

/**
 * Writes the kubeconfig (it holds the sandbox's bearer token) readable by its owner only: a new
 * file next to the target, created exclusively (O_EXCL|O_NOFOLLOW: never a file or link someone
 * prepared under that name) with mode 0600, then renamed over the target. The target ends up
 * 0600 even if it existed with a wider mode, and a symlink at the target is replaced by the new
 * file instead of written through (mergeSandboxEntry resolves a user's link first and writes
 * its target, as kubectl's clientcmd writes through it). An existing file's owner is kept
 * (`owner`); its mode is not, as the file now holds a bearer token.
 */
export async function writeKubeconfigFile(target: string, text: string, opts: WriteKubeconfigOptions = {}): Promise<void> {
  const tempName = opts.tempName ?? defaultTempName;
  const dir = dirname(target);
  const fail = (err: unknown) => new UserError(`cannot write the kubeconfig "${target}": ${reason(err)}`);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const temp = join(dir, tempName(target, attempt));
    let file: FileHandle;
    try {
      file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue; // someone else's file: not ours to touch
      throw fail(err);
    }
    try {
      try {
        // The umask may have narrowed the mode; exactly 0600 is wanted.
        await file.chmod(opts.mode ?? 0o600);
        if (opts.owner) await chownKept(file, opts.owner);
        await file.writeFile(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw fail(err);
    }
    return;
  }
  throw fail(new Error(`no free temporary file name in ${dir} after ${ATTEMPTS} attempts`));
}

/** The cluster, user and context a sandbox merges into a kubeconfig: all three named `entry`. */
export interface SandboxEntry {
  /** rs-reconcile-NAME. */
  entry: string;
  server: string;
  token: string;
  ca: string;
  namespace?: string;
}

/** What mergeSandboxEntry did, for removeSandboxEntry to undo exactly that. */
export interface MergedEntry extends SandboxEntry {
  /** The file as the user named it (the lock file is next to it, as kubectl locks). */
  path: string;
  /** The sandbox created the file: it may delete it when nothing else is left in it. */
  created: boolean;
  /** current-context before the sandbox set its own (undefined: there was none). */
  previousContext?: string;
  /** The file's text before the merge (undefined: no file), written back as it was when the cleanup leaves the same content. */
  previousText?: string;
  /** The file's permission bits before the merge, given back once no sandbox's token is left in it. */
  previousMode?: number;
}

export type MergeResult = { merged: MergedEntry } | { taken: true };

/** What removeSandboxEntry did: removed the file, pruned the entries out of it, or found nothing of the sandbox's. */
export type KubeconfigCleanup = { done: 'removed' | 'absent' | 'foreign' } | { done: 'pruned'; currentContext?: string };

const LISTS = ['clusters', 'users', 'contexts'] as const;
const KUBECONFIG_KEYS = new Set(['apiVersion', 'kind', 'preferences', 'clusters', 'users', 'contexts', 'current-context', 'extensions']);
const LOCK_ATTEMPTS = 50;
const LOCK_WAIT_MS = 100;

/**
 * Runs `fn` holding `FILE.lock`, the lock file kubectl's clientcmd (and kind) take before they
 * write a kubeconfig: two sandboxes, or a sandbox and `kubectl config`, never interleave their
 * read-modify-write. A lock held for about 5 s is reported, not waited on for ever.
 */
async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  let handle: FileHandle | undefined;
  for (let attempt = 0; !handle; attempt++) {
    try {
      handle = await open(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new UserError(`cannot lock the kubeconfig "${path}": ${reason(err)}`);
      if (attempt >= LOCK_ATTEMPTS)
        throw new UserError(`the kubeconfig "${path}" is locked by ${lock}: another program is writing it (if none is, remove ${lock})`);
      await sleep(LOCK_WAIT_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await handle.close();
    await rm(lock, { force: true });
  }
}

interface LoadedKubeconfig {
  /** Where the bytes are (a symlink's target: kubectl writes through the link, so does the sandbox). */
  real: string;
  text: string;
  doc: Config;
  /** The existing file's owner and permission bits (undefined: no file). */
  owner?: { uid: number; gid: number };
  mode?: number;
}

const notAKubeconfig = (path: string, why: string) =>
  new UserError(`"${path}" is not a kubeconfig (${why}): refusing to write into it; name another file with --write-kubeconfig`);

/** The file's values; undefined when there is no file. A file that is not a kubeconfig is refused. */
async function loadKubeconfig(path: string): Promise<LoadedKubeconfig | undefined> {
  let real = path;
  try {
    if ((await lstat(path)).isSymbolicLink()) real = await realpath(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && real === path) return undefined;
    throw new UserError(`cannot read the kubeconfig "${path}": ${reason(err)}`);
  }
  let text: string;
  let owner: { uid: number; gid: number };
  let mode: number;
  try {
    const st = await stat(real);
    if (!st.isFile()) throw notAKubeconfig(path, 'not a regular file');
    owner = { uid: st.uid, gid: st.gid };
    mode = st.mode & 0o777;
    text = await readFile(real, 'utf8');
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read the kubeconfig "${path}": ${reason(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = load(text, { schema: CORE_SCHEMA });
  } catch (err) {
    throw notAKubeconfig(path, `not YAML or JSON: ${String((err as { reason?: string }).reason ?? (err as Error).message).split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) return { real, text, doc: {}, owner, mode }; // empty: kubectl reads it as an empty Config
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw notAKubeconfig(path, 'not a map of kind Config');
  const v = parsed as Config;
  if (v.kind !== undefined && v.kind !== 'Config') throw notAKubeconfig(path, `kind ${String(v.kind)}, not Config`);
  if (v.kind === undefined) {
    const unknown = Object.keys(v).find((k) => !KUBECONFIG_KEYS.has(k));
    if (unknown !== undefined) throw notAKubeconfig(path, `no kind Config, and a field "${unknown}"`);
  }
  for (const k of LISTS) {
    const list = v[k];
    if (list !== undefined && list !== null && !Array.isArray(list)) throw notAKubeconfig(path, `${k} is not a list`);
  }
  const doc = v;
  return { real, text, doc, owner, mode };
}

/** A kubeconfig as read (its lists checked to be lists): the values, in the file's order of keys. */
type Config = Record<string, any>;

/** The list `k` of the document, made when absent. */
function listOf(doc: Config, k: (typeof LISTS)[number]): unknown[] {
  if (!Array.isArray(doc[k])) doc[k] = [];
  return doc[k];
}

function itemsOf(doc: Config, k: (typeof LISTS)[number]): Record<string, any>[] {
  const list = doc[k];
  return Array.isArray(list) ? list.map((it) => (it !== null && typeof it === 'object' && !Array.isArray(it) ? it : {})) : [];
}

/** The servers of the clusters named `entry`: where the other sandbox of that name would be. */
function serversOf(doc: Config, entry: string): string[] {
  return itemsOf(doc, 'clusters')
    .filter((c) => c.name === entry)
    .map((c) => String(c.cluster?.server ?? ''));
}

async function save(path: string, loaded: LoadedKubeconfig | undefined, doc: Config, text = configText(doc), mode?: number): Promise<void> {
  await writeKubeconfigFile(loaded?.real ?? path, text, { owner: loaded?.owner, mode });
}

/**
 * Merges the sandbox's cluster, user and context (each named `entry`) into the kubeconfig at
 * `path` (made when absent), and makes its context current. Everything else in the file keeps its
 * value; the file is written again as `kubectl config` writes one, without its comments (they come
 * back with the user's bytes when the sandbox stops and nothing else changed). When the file already names `entry` for a server that still answers
 * (`alive`), nothing is written: `{ taken: true }`, for the caller to choose another name; an entry
 * whose server is gone (a sandbox that was killed) is replaced.
 */
export async function mergeSandboxEntry(path: string, e: SandboxEntry, alive: (server: string) => Promise<boolean>): Promise<MergeResult> {
  return withLock(path, async () => {
    const loaded = await loadKubeconfig(path);
    const doc: Config = loaded?.doc ?? {};
    if (LISTS.some((k) => itemsOf(doc, k).some((x) => x.name === e.entry))) {
      // Only a killed sandbox's entry is replaced: a cluster of that name on 127.0.0.1 that no longer answers.
      const servers = serversOf(doc, e.entry);
      if (servers.length === 0) return { taken: true };
      for (const server of servers) if (!server.startsWith('https://127.0.0.1:') || (await alive(server))) return { taken: true };
    }
    if (Object.keys(doc).length === 0) Object.assign(doc, { apiVersion: 'v1', kind: 'Config' });
    removeEntries(doc, e.entry, () => true);
    listOf(doc, 'clusters').push({ name: e.entry, cluster: { server: e.server, 'certificate-authority-data': Buffer.from(e.ca).toString('base64') } });
    listOf(doc, 'users').push({ name: e.entry, user: { token: e.token } });
    listOf(doc, 'contexts').push({ name: e.entry, context: { cluster: e.entry, user: e.entry, namespace: e.namespace ?? 'default' } });
    const previous = doc['current-context'];
    doc['current-context'] = e.entry;
    await save(path, loaded, doc);
    const previousContext = typeof previous === 'string' && previous !== e.entry ? previous : undefined;
    return { merged: { ...e, path, created: loaded === undefined, previousContext, previousText: loaded?.text, previousMode: loaded?.mode } };
  });
}

/** Takes the items named `entry` that `mine` accepts out of the three lists; how many went. */
function removeEntries(doc: Config, entry: string, mine: (list: (typeof LISTS)[number], item: Record<string, any>) => boolean): number {
  let removed = 0;
  for (const k of LISTS) {
    const list = doc[k];
    if (!Array.isArray(list)) continue;
    for (let i = list.length - 1; i >= 0; i--) {
      const it = list[i];
      const v = it !== null && typeof it === 'object' && !Array.isArray(it) ? (it as Record<string, any>) : undefined;
      if (v?.name === entry && mine(k, v)) {
        list.splice(i, 1);
        removed++;
      }
    }
  }
  return removed;
}

/** Nothing but what an empty kubeconfig holds is left: no entries, no preferences, no extensions. */
function isEmptyKubeconfig(doc: Config): boolean {
  const v = doc;
  const empty = (x: unknown) =>
    x === undefined || x === null || x === '' || (Array.isArray(x) ? x.length === 0 : typeof x === 'object' && Object.keys(x).length === 0);
  return Object.entries(v).every(([k, x]) => k === 'apiVersion' || k === 'kind' || empty(x));
}

/**
 * When the sandbox stops, nothing may keep pointing at its dead port: its cluster, user and
 * context (named `entry`, and still holding its server and token: an entry someone else wrote
 * under that name is not taken) leave the file as it is now (re-read, never a stale copy).
 * current-context goes back to what it was if it still names the sandbox's context (the user
 * did not switch meanwhile) and that context is still there; otherwise it is left unset, never
 * naming a context that is gone. The file is deleted only if the sandbox created it and nothing
 * else is left in it.
 */
export async function removeSandboxEntry(m: MergedEntry): Promise<KubeconfigCleanup> {
  return withLock(m.path, async () => {
    let loaded: LoadedKubeconfig | undefined;
    try {
      loaded = await loadKubeconfig(m.path);
    } catch {
      return { done: 'foreign' }; // not a kubeconfig any more: not ours to edit
    }
    if (!loaded) return { done: 'absent' };
    const { doc } = loaded;
    const removed = removeEntries(doc, m.entry, (k, v) =>
      k === 'clusters'
        ? v.cluster?.server === m.server
        : k === 'users'
          ? v.user?.token === m.token
          : v.context?.cluster === m.entry && v.context?.user === m.entry,
    );
    if (removed === 0) return { done: 'foreign' };
    if (doc['current-context'] === m.entry) {
      // The previous context, if it is still there (another sandbox's may have gone meanwhile).
      const previous = m.previousContext;
      if (previous !== undefined && (previous === '' || itemsOf(doc, 'contexts').some((c) => c.name === previous))) doc['current-context'] = previous;
      else delete doc['current-context'];
    }
    if (m.created && isEmptyKubeconfig(doc)) {
      await rm(loaded.real, { force: true });
      return { done: 'removed' };
    }
    // Nothing else changed meanwhile: the user's bytes (layout, quoting, comments) come back exactly.
    const before = m.previousText === undefined ? undefined : (load(m.previousText, { schema: CORE_SCHEMA }) as Config | null | undefined);
    const same = m.previousText !== undefined && (before === null || before === undefined ? isEmptyKubeconfig(doc) : isDeepStrictEqual(before, doc));
    // The user's mode again once no sandbox's token is in the file (another sandbox's may still be).
    const sandboxUsers = itemsOf(doc, 'users').some((u) => typeof u.name === 'string' && u.name.startsWith('rs-reconcile-'));
    await save(m.path, loaded, doc, same ? m.previousText : undefined, sandboxUsers ? undefined : m.previousMode);
    const current = doc['current-context'];
    return { done: 'pruned', currentContext: typeof current === 'string' && current !== '' ? current : undefined };
  });
}
