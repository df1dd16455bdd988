// Temp dirs and kubeconfig files for the cluster tests.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterEach } from 'vitest';
import { TEST_TOKEN, startRecordedServer, type RecordedServer, type RecordedServerOptions } from './recorded-server.js';

const dirs: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-reconcile-cluster-'));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function writeFile(dir: string, name: string, content: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

export function writeKubeconfig(dir: string, name: string, config: object): string {
  return writeFile(dir, name, YAML.stringify(config));
}

export interface KubeconfigFor {
  context?: string;
  namespace?: string;
  token?: string;
  caData?: string | null;
}

/** A kubeconfig with one context pointing at the recorded server. */
export function kubeconfigFor(server: RecordedServer, o: KubeconfigFor = {}): object {
  const context = o.context ?? 'kind-test';
  const caData = o.caData === undefined ? server.caData : o.caData;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kind-test', cluster: { server: server.url, ...(caData ? { 'certificate-authority-data': caData } : {}) } }],
    users: [{ name: 'kind-test-admin', user: { token: o.token ?? TEST_TOKEN } }],
    contexts: [{ name: context, context: { cluster: 'kind-test', user: 'kind-test-admin', ...(o.namespace ? { namespace: o.namespace } : {}) } }],
    'current-context': context,
    preferences: {},
  };
}

/** Writes kubeconfigFor(server) to a temp file and returns its path. */
export function kubeconfigFileFor(server: RecordedServer, o: KubeconfigFor = {}): string {
  return writeKubeconfig(tempDir(), 'config', kubeconfigFor(server, o));
}

/** The values of one header, however many lines carried it. */
export function headerValues(rawHeaders: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name.toLowerCase()) out.push(rawHeaders[i + 1]);
  return out;
}

/**
 * What a test file starts its recorded servers with: each is closed, and the temp dirs removed,
 * after every test.
 */
export function recordedServers(): (opts?: RecordedServerOptions) => Promise<RecordedServer> {
  const servers: RecordedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    removeTempDirs();
  });
  return async (opts = {}) => {
    const server = await startRecordedServer(opts);
    servers.push(server);
    return server;
  };
}
