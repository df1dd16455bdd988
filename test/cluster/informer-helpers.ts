// Shared helpers of the informer tests: a sandbox reached through a real Connection (connect()
// on a kubeconfig file, so the ClusterKubeConfig with its transport is what the informer uses).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type Connection } from '../../src/cluster/kubeconfig.js';
import type { ConnectionFlags } from '../../src/cluster/config-overrides.js';
import { Informer, type InformerHandlers, type InformerMetric, type InformerOptions } from '../../src/cluster/informer.js';
import type { Tombstone } from '../../src/core/types.js';
import type { CachedObject } from '../../src/cluster/cache.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { tlsFile } from './recorded-server.js';

const dirs: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-informer-test-'));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export interface Env {
  sb: Sandbox;
  conn: Connection;
  kubeconfigPath: string;
}

export async function startEnv(opts: SandboxOptions = {}, flags: Omit<ConnectionFlags, 'kubeconfig'> = {}): Promise<Env> {
  const sb = await startSandbox(opts);
  const kubeconfigPath = path.join(tempDir(), 'kubeconfig');
  await sb.writeKubeconfig(kubeconfigPath);
  const conn = connect({ kubeconfig: kubeconfigPath, ...flags }, {});
  return { sb, conn, kubeconfigPath };
}

/** A pod as a seed or create body. */
export function pod(
  name: string,
  o: { namespace?: string; labels?: Record<string, string>; owner?: { name: string; uid: string; kind?: string }; managedFields?: boolean } = {},
): Record<string, any> {
  const metadata: Record<string, any> = { name, namespace: o.namespace ?? 'default', labels: o.labels ?? { app: 'web' } };
  if (o.owner) {
    metadata.ownerReferences = [
      { apiVersion: 'apps/v1', kind: o.owner.kind ?? 'ReplicaSet', name: o.owner.name, uid: o.owner.uid, controller: true, blockOwnerDeletion: true },
    ];
  }
  if (o.managedFields) {
    metadata.managedFields = [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ];
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
}

export function namespace(name: string): Record<string, any> {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export type Recorded<T> = { type: 'add'; obj: T } | { type: 'update'; old: T; obj: T } | { type: 'delete'; obj: T | Tombstone<T> };

/** Handlers that record every call. */
export class Recorder<T extends CachedObject> implements InformerHandlers<T> {
  readonly events: Recorded<T>[] = [];
  add(obj: T): void {
    this.events.push({ type: 'add', obj });
  }
  update(old: T, obj: T): void {
    this.events.push({ type: 'update', old, obj });
  }
  delete(obj: T | Tombstone<T>): void {
    this.events.push({ type: 'delete', obj });
  }
  of(type: Recorded<T>['type']): Recorded<T>[] {
    return this.events.filter((e) => e.type === type);
  }
  names(type: Recorded<T>['type']): string[] {
    return this.of(type).map((e) => nameOf(e.obj));
  }
  clear(): void {
    this.events.length = 0;
  }
}

export function nameOf(obj: CachedObject | Tombstone<CachedObject>): string {
  return 'tombstone' in obj ? obj.obj.metadata.name : obj.metadata.name;
}

export interface Running<T extends CachedObject> {
  informer: Informer<T>;
  rec: Recorder<T>;
  metrics: InformerMetric[];
  errors: Error[];
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Starts an informer with a recorder; stop() aborts it and waits for run() to return. */
export function runInformer<T extends CachedObject>(env: { conn: Connection }, o: Partial<InformerOptions> & Pick<InformerOptions, 'resource'>): Running<T> {
  const metrics: InformerMetric[] = [];
  const errors: Error[] = [];
  const informer = new Informer<T>({
    conn: env.conn,
    namespace: null,
    backoff: { initialMs: 20, maxMs: 200 },
    onMetric: (m) => metrics.push(m),
    onError: (e) => errors.push(e),
    ...o,
  });
  const rec = new Recorder<T>();
  informer.addHandlers(rec);
  const ac = new AbortController();
  const done = informer.run(ac.signal);
  return {
    informer,
    rec,
    metrics,
    errors,
    done,
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Watch requests the sandbox saw for a resource. */
export const audited = (sb: Sandbox, verb: string, resource: string) => sb.audit().filter((e) => e.verb === verb && e.resource === resource);

/**
 * A connection to a test HTTPS server through a kubeconfig file (the test CA, a bearer token,
 * namespace shop), as a user's kubeconfig would give it.
 */
export function connectionTo(url: string, flags: Omit<ConnectionFlags, 'kubeconfig'> = {}, token = 't'): Connection {
  const file = path.join(tempDir(), 'kubeconfig');
  fs.writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: url, 'certificate-authority': tlsFile('ca.crt') } }],
      users: [{ name: 'u', user: { token } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'shop' } }],
      'current-context': 'ctx',
    }),
  );
  return connect({ kubeconfig: file, ...flags }, {});
}
