// Shared helpers of the lease, fence and upstream-detect tests: a sandbox API server and a
// Connection made the way the CLI makes one (connect() on a kubeconfig file), so requests go
// through the real client-node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { connect, type Connection } from '../../src/cluster/kubeconfig.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface RunEnv {
  sb: Sandbox;
  conn: Connection;
  /** A direct client, for reading and writing leases behind the elector's back. */
  coord: CoordinationV1Api;
  close(): Promise<void>;
}

export async function startRunEnv(opts: SandboxOptions = {}): Promise<RunEnv> {
  const sb = await startSandbox({ gc: false, ...opts });
  const dir = mkdtempSync(join(tmpdir(), 'rs-run-parts-'));
  const file = join(dir, 'config');
  await sb.writeKubeconfig(file);
  const conn = connect({ kubeconfig: file }, {});
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  return {
    sb,
    conn,
    coord: kc.makeApiClient(CoordinationV1Api),
    close: async () => {
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
