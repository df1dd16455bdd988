// The kubeconfig the sandbox hands out: one cluster (with its self-signed CA), one token user, one
// context; and its removal when the sandbox stops.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { UserError } from '../errors.js';

export function kubeconfigText(o: { url: string; token: string; ca: string; contextName?: string; namespace?: string }): string {
  const ctx = o.contextName ?? 'sandbox';
  return stringify({
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
}

const ATTEMPTS = 8;
const defaultTempName = (target: string) => `.${basename(target)}.${randomBytes(8).toString('hex')}.tmp`;
const reason = (err: unknown) => ((err as Error).message ?? String(err)).replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');

/**
 * Writes the kubeconfig (it holds the sandbox's bearer token) readable by its owner only: a new
 * file next to the target, created exclusively (O_EXCL|O_NOFOLLOW: never a file or link someone
 * prepared under that name) with mode 0600, then renamed over the target. The target ends up
 * 0600 even if it existed with a wider mode, and a symlink at the target is replaced by the new
 * file instead of written through. kubectl's clientcmd (os.WriteFile) would write into the file
 * the link points to and keep an existing file's mode; the sandbox writes a fresh kubeconfig
 * each time, so nothing is lost by not following the link.
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
        await file.chmod(0o600);
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

export type KubeconfigCleanup = 'removed' | 'pruned' | 'absent' | 'foreign';

const named = (v: unknown): v is { name: string } & Record<string, any> =>
  typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';

/**
 * When the sandbox stops, nothing may keep pointing at its dead port: the kubeconfig it wrote is
 * removed if it still holds exactly what was written; if someone changed the file since (merged
 * other clusters into it), only the sandbox's cluster (by its server), user (by its token) and the
 * contexts using them are taken out, and the rest is written back. A file without them is left.
 */
export async function removeKubeconfigFile(target: string, written: string, mine: { server: string; token: string }): Promise<KubeconfigCleanup> {
  let text: string;
  try {
    text = await readFile(target, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw new UserError(`cannot remove the sandbox from the kubeconfig "${target}": ${reason(err)}`);
  }
  if (text === written) {
    await rm(target, { force: true });
    return 'removed';
  }
  let doc: Record<string, any>;
  try {
    doc = parse(text) ?? {};
  } catch {
    return 'foreign'; // not a kubeconfig any more: not ours to edit
  }
  const list = (k: string): any[] => (Array.isArray(doc[k]) ? doc[k] : []);
  const clusters = new Set(
    list('clusters')
      .filter((c) => named(c) && c.cluster?.server === mine.server)
      .map((c) => c.name),
  );
  const users = new Set(
    list('users')
      .filter((u) => named(u) && u.user?.token === mine.token)
      .map((u) => u.name),
  );
  const contexts = new Set(
    list('contexts')
      .filter((c) => named(c) && (clusters.has(c.context?.cluster) || users.has(c.context?.user)))
      .map((c) => c.name),
  );
  if (clusters.size + users.size + contexts.size === 0) return 'foreign';
  doc.clusters = list('clusters').filter((c) => !(named(c) && clusters.has(c.name)));
  doc.users = list('users').filter((u) => !(named(u) && users.has(u.name)));
  doc.contexts = list('contexts').filter((c) => !(named(c) && contexts.has(c.name)));
  if (contexts.has(doc['current-context'])) doc['current-context'] = '';
  await writeKubeconfigFile(target, stringify(doc));
  return 'pruned';
}
