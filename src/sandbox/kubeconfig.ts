// The kubeconfig the sandbox hands out: one cluster (with its self-signed CA), one token user, one context.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';
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
    let file;
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
