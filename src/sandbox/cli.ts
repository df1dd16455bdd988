// Everything `rs-reconcile sandbox` does, so the oclif command stays a thin flag parser.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UserError, fileReadError, yamlParseError } from '../errors.js';
import { type Sandbox, startSandbox } from './index.js';
import { removeKubeconfigFile } from './kubeconfig.js';

export interface SandboxCliOptions {
  port?: number;
  nodes?: number;
  seedFiles?: string[];
  kubeconfigPath?: string;
  auditLog?: string;
  /** Newest audit entries kept in memory (GET /sandbox/audit). */
  auditMaxEntries?: number;
  /** kube-controller-manager's simulated controllers (default true); false: a bare API server. */
  controllers?: boolean;
  out: NodeJS.WritableStream;
  /** Where the hint goes (default: process.stderr). */
  err?: NodeJS.WritableStream;
  signal: AbortSignal;
}

async function readSeed(files: string[]): Promise<unknown[]> {
  const objects: unknown[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = await readFile(f, 'utf8');
    } catch (e) {
      throw fileReadError(f, e);
    }
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length) throw yamlParseError(f, doc.errors[0]);
      const v = doc.toJS();
      if (v !== null && v !== undefined) objects.push(v);
    }
  }
  return objects;
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
      seed,
      auditLog: o.auditLog,
      auditMaxEntries: o.auditMaxEntries,
      controllers: o.controllers,
    });
  } catch (e) {
    throw new UserError(`cannot start the sandbox: ${(e as Error).message}`);
  }
  const path = resolve(o.kubeconfigPath ?? 'sandbox.kubeconfig');
  let wrote = false;
  try {
    await sb.writeKubeconfig(path);
    wrote = true;
    o.out.write(`export KUBECONFIG=${path}\n`);
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
    if (wrote) await forgetKubeconfig(path, sb.kubeconfig(), { server: sb.url, token: sb.token }, err);
    const failed = await closed;
    // biome-ignore lint/correctness/noUnsafeFinally: a failed flush of the audit file is reported even when the run itself failed
    if (failed) throw new UserError(failed.message);
  }
}

/** Takes the stopped sandbox out of the kubeconfig it wrote, and says so. */
async function forgetKubeconfig(path: string, written: string, mine: { server: string; token: string }, err: NodeJS.WritableStream): Promise<void> {
  const done = await removeKubeconfigFile(path, written, mine);
  if (done === 'removed') err.write(`sandbox stopped: removed ${path}, whose server ${mine.server} no longer answers\n`);
  else if (done === 'pruned')
    err.write(`sandbox stopped: removed its cluster, user and context from ${path} (changed since it was written; the rest is kept)\n`);
}
