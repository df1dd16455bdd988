// Shared helpers for the sandbox tests: every test talks to a real sandbox over HTTPS.
import { request } from 'node:https';
import { ApiException, AppsV1Api, CoordinationV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface Env {
  sb: Sandbox;
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  coord: CoordinationV1Api;
}

export async function startEnv(opts: SandboxOptions = {}): Promise<Env> {
  const sb = await startSandbox(opts);
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  return { sb, kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api), coord: kc.makeApiClient(CoordinationV1Api) };
}

export const smp = () => setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
export const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export interface StatusBody {
  kind: string;
  status: string;
  message: string;
  reason: string;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

/** Runs a client call that must fail; returns the HTTP code and the decoded Status. */
export async function failure(p: Promise<unknown>): Promise<{ code: number; status: StatusBody; headers: Record<string, string> }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, status: body as StatusBody, headers: e.headers };
  }
  throw new Error('expected the call to fail');
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** A plain HTTPS request to the sandbox (token sent unless `token: null`). */
export function raw(
  sb: Sandbox,
  method: string,
  path: string,
  o: { body?: unknown; contentType?: string; token?: string | null; accept?: string; userAgent?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    const token = o.token === undefined ? sb.token : o.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    if (o.accept) headers.Accept = o.accept;
    if (o.userAgent) headers['User-Agent'] = o.userAgent;
    let payload: string | undefined;
    if (o.body !== undefined) {
      payload = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['Content-Type'] = o.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const req = request(`${sb.url}${path}`, { method, headers, ca: sb.ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Opens a raw watch stream and collects its events until closed. */
export function openWatch(sb: Sandbox, path: string, accept?: string) {
  const events: any[] = [];
  let status = 0;
  let ended = false;
  let resolveEnd!: () => void;
  const endPromise = new Promise<void>((r) => (resolveEnd = r));
  const headers: Record<string, string> = { Authorization: `Bearer ${sb.token}` };
  if (accept) headers.Accept = accept;
  const req = request(`${sb.url}${path}`, { method: 'GET', headers, ca: sb.ca }, (res) => {
    status = res.statusCode ?? 0;
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      buf += c;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) events.push(JSON.parse(line));
      }
    });
    const finish = () => {
      ended = true;
      resolveEnd();
    };
    res.on('end', finish);
    res.on('close', finish);
    res.on('error', finish);
  });
  req.on('error', () => {
    ended = true;
    resolveEnd();
  });
  req.end();
  return {
    events,
    get status() {
      return status;
    },
    get ended() {
      return ended;
    },
    ended$: endPromise,
    close: () => req.destroy(),
  };
}

export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as Truthy<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function podBody(name: string, labels: Record<string, string> = { app: 'web' }, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels, ...extra }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
}

export function rsBody(name: string, replicas = 2, labels: Record<string, string> = { app: name }) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  };
}

export function rcBody(name: string, replicas = 1, labels: Record<string, string> = { app: name }) {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name },
    spec: { replicas, selector: labels, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  };
}
