// A small stand-in for kube-apiserver v1.32 that serves recorded list responses over real HTTP(S).
//
// The fixtures under fixtures/ are full lists as the API server returns them (items without
// kind/apiVersion, RFC3339 timestamps, managedFields). This server cuts them into pages the way
// the real one does for `limit` / `continue` (continue token = base64url of
// {"v":"meta.k8s.io/v1","rv":…,"start":"<key>\u0000"}, remainingItemCount only without a label
// selector), filters by namespace and label selector, checks the bearer token, and records every
// request so tests can assert what the client sent.

import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const TEST_TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InRlc3QifQ.rs-reconcile-test-token';

type Json = Record<string, any>;

export function fixture(name: string): Json {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
}

export function tlsFile(name: string): string {
  return path.join(FIXTURES, 'tls', name);
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** Header lines as sent, [name, value, name, value, …] (shows repeated headers). */
  rawHeaders: string[];
}

export interface Failure {
  match: (req: RecordedRequest) => boolean;
  status: number;
  /** A fixture file for the body, or the body itself (string, sent as is). */
  fixture?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Answer this way only so many times (default: always). */
  times?: number;
}

export interface RecordedServerOptions {
  /** Serve HTTPS with fixtures/tls/server.crt (signed by ca.crt). Default true. */
  tls?: boolean;
  /** The bearer token to accept; null accepts any request. */
  token?: string | null;
  versionFixture?: string;
  failures?: Failure[];
  /** Answer every request carrying a continue token with 410 Expired. */
  expireContinue?: boolean;
  /** Accept requests and never answer them. */
  hang?: boolean;
  /** Gzip bodies larger than this when the client accepts it (the API server: 128 KiB). */
  gzipThreshold?: number;
}

export interface RecordedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Base64 of the CA that signed the server certificate (certificate-authority-data). */
  caData: string;
  close(): Promise<void>;
}

interface ResourceData {
  kind: string;
  apiVersion: string;
  items: Json[];
  resourceVersion: string;
}

function loadList(name: string): ResourceData {
  const list = fixture(name);
  return { kind: list.kind, apiVersion: list.apiVersion, items: list.items, resourceVersion: list.metadata.resourceVersion };
}

// ------------------------------------------------------------------------------------------
// Label selectors, as the API server parses them (the subset kubectl users write).

type Requirement = (labels: Record<string, string>) => boolean;

function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function parseSelector(selector: string): Requirement[] {
  return splitTopLevel(selector).map((part) => {
    let m: RegExpExecArray | null;
    const check = (key: string, values: string[]) => {
      if (!LABEL_KEY.test(key)) throw new Error(`unable to parse requirement: invalid label key "${key}"`);
      for (const v of values) {
        if (!LABEL_VALUE.test(v)) {
          throw new Error(
            `unable to parse requirement: values[0][${key}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
          );
        }
      }
    };
    if ((m = /^(\S+?)\s*(==|!=|=)\s*(\S*)$/.exec(part))) {
      const [, key, op, value] = m;
      check(key, [value]);
      return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
    }
    if ((m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part))) {
      const [, key, op, list] = m;
      const values = list.split(',').map((v) => v.trim());
      check(key, values);
      return op === 'in' ? (l) => key in l && values.includes(l[key]) : (l) => !(key in l) || !values.includes(l[key]);
    }
    if ((m = /^!\s*(\S+)$/.exec(part))) {
      const key = m[1];
      check(key, []);
      return (l) => !(key in l);
    }
    check(part, []);
    return (l) => part in l;
  });
}

// ------------------------------------------------------------------------------------------

function encodeContinue(rv: string, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  if (value.v !== 'meta.k8s.io/v1' || typeof value.start !== 'string') throw new Error('invalid continue token');
  return value;
}

function status(code: number, reason: string, message: string, extra: Json = {}): Json {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...extra, code };
}

const ROUTES: { re: RegExp; data: string }[] = [
  { re: /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?pods$/, data: 'pods.json' },
  { re: /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?replicationcontrollers$/, data: 'replicationcontrollers.json' },
  { re: /^\/apis\/apps\/v1\/(?:namespaces\/([^/]+)\/)?replicasets$/, data: 'replicasets.json' },
];

export async function startRecordedServer(opts: RecordedServerOptions = {}): Promise<RecordedServer> {
  const useTls = opts.tls ?? true;
  const token = opts.token === undefined ? TEST_TOKEN : opts.token;
  const gzipThreshold = opts.gzipThreshold ?? 128 * 1024;
  const requests: RecordedRequest[] = [];
  const failures = (opts.failures ?? []).map((f) => ({ ...f, left: f.times ?? Infinity }));
  const data = new Map(ROUTES.map((r) => [r.data, loadList(r.data)]));

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://apiserver');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      rawHeaders: req.rawHeaders,
    };
    requests.push(recorded);
    req.resume();
    if (opts.hang) return;

    const send = (code: number, body: Json | string, headers: Record<string, string> = {}) => {
      let payload: Buffer = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const out: Record<string, string> = {
        'Audit-Id': randomUUID(),
        'Cache-Control': 'no-cache, private',
        'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
        'X-Kubernetes-Pf-Flowschema-Uid': '0c2c9fd5-7b1e-4d6a-9a0e-5b1c0f7f3a11',
        'X-Kubernetes-Pf-Prioritylevel-Uid': '6a8f1b9e-2d4c-4b8e-8f3a-1c2d3e4f5a6b',
        ...headers,
      };
      if (payload.length > gzipThreshold && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        payload = zlib.gzipSync(payload);
        out['Content-Encoding'] = 'gzip';
      }
      out['Content-Length'] = String(payload.length);
      res.writeHead(code, out);
      res.end(payload);
    };

    if (token !== null && req.headers.authorization !== `Bearer ${token}`) return send(401, fixture('status-401.json'));
    const failure = failures.find((f) => f.left > 0 && f.match(recorded));
    if (failure) {
      failure.left--;
      return send(failure.status, failure.fixture ? fixture(failure.fixture) : (failure.body ?? ''), failure.headers);
    }
    if (req.method !== 'GET') {
      return send(405, status(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`));
    }
    if (url.pathname === '/version') return send(200, fixture(opts.versionFixture ?? 'version.json'));

    const route = ROUTES.find((r) => r.re.test(url.pathname));
    if (!route) return send(404, fixture('status-404.json'));
    const namespace = route.re.exec(url.pathname)?.[1];
    const list = data.get(route.data) as ResourceData;
    const keyOf = (item: Json) => (namespace ? item.metadata.name : `${item.metadata.namespace}/${item.metadata.name}`);

    const selector = url.searchParams.get('labelSelector') ?? '';
    let requirements: Requirement[];
    try {
      requirements = parseSelector(selector);
    } catch (err) {
      return send(400, status(400, 'BadRequest', (err as Error).message));
    }
    const matching = list.items
      .filter((item) => !namespace || item.metadata.namespace === namespace)
      .filter((item) => requirements.every((r) => r(item.metadata.labels ?? {})));

    let start = '';
    const cont = url.searchParams.get('continue');
    if (cont) {
      if (opts.expireContinue) {
        const expired = fixture('status-410-expired.json');
        expired.metadata.continue = encodeContinue('-1', decodeContinue(cont).start);
        return send(410, expired);
      }
      try {
        start = decodeContinue(cont).start;
      } catch (err) {
        return send(400, status(400, 'BadRequest', `continue key is not valid: ${(err as Error).message}`));
      }
    }
    const rest = matching.filter((item) => keyOf(item) >= start);
    const limit = Number(url.searchParams.get('limit') ?? '0');
    const page = limit > 0 ? rest.slice(0, limit) : rest;
    const metadata: Json = { resourceVersion: list.resourceVersion };
    if (page.length < rest.length) {
      metadata.continue = encodeContinue(list.resourceVersion, `${keyOf(page[page.length - 1])}\u0000`);
      if (!selector) metadata.remainingItemCount = rest.length - page.length;
    }
    return send(200, { kind: list.kind, apiVersion: list.apiVersion, metadata, items: page });
  };

  const server = useTls
    ? https.createServer({ key: fs.readFileSync(tlsFile('server.key')), cert: fs.readFileSync(tlsFile('server.crt')) }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${useTls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    caData: fs.readFileSync(tlsFile('ca.crt')).toString('base64'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
