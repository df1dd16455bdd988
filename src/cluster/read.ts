// Read-only view of a live cluster: ReplicaSets, ReplicationControllers and pods, listed in pages
// the way kubectl does (limit + continue), as the plain JSON the API server sent.
//
// Objects are taken from the response text, not from client-node's model classes: those turn
// timestamps into Date objects and drop fields newer than the library. A per-call middleware
// keeps the raw body (and the Status of a failure, which client-node discards for a 401).

import {
  AppsV1Api,
  CoreV1Api,
  Observable,
  ResponseContext,
  VersionApi,
  type ConfigurationOptions,
  type ObservableMiddleware,
} from '@kubernetes/client-node';
import type { Pod, ReplicaSet, ReplicationController, Snapshot } from '../core/types.js';
import { UserError } from '../errors.js';
import { ClusterError, clusterError, type Operation } from './errors.js';
import type { Connection } from './kubeconfig.js';

export type ControllerKindName = 'ReplicaSet' | 'ReplicationController';

export interface ReadScope {
  /** null: all namespaces. */
  namespace: string | null;
  /** -l: applies to the ReplicaSet / ReplicationController lists only, never to pods. */
  controllerSelector?: string;
  /** Which controller kinds to read (default both). */
  kinds?: ControllerKindName[];
}

export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
}

export interface ClusterRead {
  snapshot: Snapshot;
  serverVersion: ServerVersion | null;
  /** HTTP requests sent, retries included. */
  requests: number;
}

export interface ReadProgress {
  resource: string;
  /** Items read so far for this resource. */
  items: number;
  pages: number;
}

export interface ReadOptions {
  /** Items per page (kubectl's --chunk-size); 0 lists without pages. Default 500. */
  pageSize?: number;
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
}

export const DEFAULT_PAGE_SIZE = 500;
/** client-go retries a 429 or 5xx carrying Retry-After up to 10 times. */
const MAX_RETRIES = 10;
const MAX_RETRY_AFTER_SECONDS = 60;

interface ListParams {
  labelSelector?: string;
  limit?: number;
  _continue?: string;
}

interface Resource {
  kind: string;
  apiVersion: string;
  resource: string;
  group: string;
  list(clients: Clients, namespace: string | null, params: ListParams, options: ConfigurationOptions): Promise<unknown>;
}

interface Clients {
  core: CoreV1Api;
  apps: AppsV1Api;
}

const REPLICA_SETS: Resource = {
  kind: 'ReplicaSet',
  apiVersion: 'apps/v1',
  resource: 'replicasets',
  group: 'apps',
  list: (c, namespace, params, options) =>
    namespace === null
      ? c.apps.listReplicaSetForAllNamespaces(params, options)
      : c.apps.listNamespacedReplicaSet({ namespace, ...params }, options),
};

const REPLICATION_CONTROLLERS: Resource = {
  kind: 'ReplicationController',
  apiVersion: 'v1',
  resource: 'replicationcontrollers',
  group: '',
  list: (c, namespace, params, options) =>
    namespace === null
      ? c.core.listReplicationControllerForAllNamespaces(params, options)
      : c.core.listNamespacedReplicationController({ namespace, ...params }, options),
};

const PODS: Resource = {
  kind: 'Pod',
  apiVersion: 'v1',
  resource: 'pods',
  group: '',
  list: (c, namespace, params, options) =>
    namespace === null
      ? c.core.listPodForAllNamespaces(params, options)
      : c.core.listNamespacedPod({ namespace, ...params }, options),
};

/** What one API call answered, as sent: status, headers and body text. */
interface Exchange {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

function capture(signal: AbortSignal | undefined): { options: ConfigurationOptions; exchange: Exchange } {
  const exchange: Exchange = {};
  const middleware: ObservableMiddleware = {
    pre: (ctx) => {
      if (signal) ctx.setSignal(signal);
      return new Observable(Promise.resolve(ctx));
    },
    post: (rsp) =>
      new Observable(
        rsp.body.text().then((text) => {
          exchange.status = rsp.httpStatusCode;
          exchange.headers = rsp.headers;
          exchange.body = text;
          return new ResponseContext(rsp.httpStatusCode, rsp.headers, {
            text: async () => text,
            binary: async () => Buffer.from(text, 'utf8'),
          });
        }),
      ),
  };
  return { options: { middleware: [middleware], middlewareMergeStrategy: 'append' }, exchange };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function retryAfterSeconds(exchange: Exchange): number | undefined {
  const value = exchange.headers?.['retry-after'];
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
}

class Reader {
  requests = 0;
  private readonly clients: Clients;

  constructor(
    private readonly conn: Connection,
    private readonly signal?: AbortSignal,
  ) {
    this.clients = { core: conn.kc.makeApiClient(CoreV1Api), apps: conn.kc.makeApiClient(AppsV1Api) };
  }

  /** One API call, retried as client-go does when the server asks to (429/5xx + Retry-After). */
  async call(op: Operation, send: (clients: Clients, options: ConfigurationOptions) => Promise<unknown>): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const { options, exchange } = capture(this.signal);
      this.requests++;
      try {
        await send(this.clients, options);
        return exchange.body ?? '';
      } catch (err) {
        if (this.signal?.aborted) throw this.signal.reason;
        const status = exchange.status;
        const wait = status !== undefined && (status === 429 || status >= 500) ? retryAfterSeconds(exchange) : undefined;
        if (wait !== undefined && attempt < MAX_RETRIES) {
          await sleep(wait * 1000, this.signal);
          continue;
        }
        throw clusterError(this.conn, err, op, status === undefined ? undefined : { status, body: exchange.body });
      }
    }
  }

  parse(body: string, op: Operation): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ClusterError(`the server at ${this.conn.server} did not answer with JSON (${op.verb} ${op.resource})`, 'unexpected');
    }
    return value as Record<string, unknown>;
  }

  /** Every page of one list; on an expired continue token, one full list (client-go's pager). */
  async listAll(
    res: Resource,
    namespace: string | null,
    labelSelector: string | undefined,
    pageSize: number,
    onProgress?: (p: ReadProgress) => void,
  ): Promise<Record<string, unknown>[]> {
    const op: Operation = { verb: 'list', resource: res.resource, group: res.group, namespace };
    let items: Record<string, unknown>[] = [];
    let pages = 0;
    let limit: number | undefined = pageSize > 0 ? pageSize : undefined;
    let token: string | undefined;
    const tokens = new Set<string>();
    for (;;) {
      const params: ListParams = {
        ...(labelSelector ? { labelSelector } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(token !== undefined ? { _continue: token } : {}),
      };
      let body: string;
      try {
        body = await this.call(op, (c, options) => res.list(c, namespace, params, options));
      } catch (err) {
        if (err instanceof ClusterError && err.status === 410 && token !== undefined) {
          // The snapshot behind the token is gone: list everything at once, still consistent.
          items = [];
          pages = 0;
          limit = undefined;
          token = undefined;
          continue;
        }
        throw err;
      }
      const list = this.parse(body, op);
      if (!Array.isArray(list.items)) {
        throw new ClusterError(`the server at ${this.conn.server} sent a list without items (${op.verb} ${op.resource})`, 'unexpected');
      }
      for (const item of list.items as unknown[]) {
        if (typeof item !== 'object' || item === null) continue;
        // List items carry no kind/apiVersion on the wire.
        items.push({ apiVersion: res.apiVersion, kind: res.kind, ...(item as Record<string, unknown>) });
      }
      pages++;
      onProgress?.({ resource: res.resource, items: items.length, pages });
      const meta = list.metadata as Record<string, unknown> | undefined;
      const next = typeof meta?.continue === 'string' && meta.continue !== '' ? meta.continue : undefined;
      if (next === undefined) return items;
      if (tokens.has(next)) {
        throw new ClusterError(`the server at ${this.conn.server} repeated a continue token while listing ${op.resource}`, 'unexpected');
      }
      tokens.add(next);
      token = next;
    }
  }

  async version(): Promise<ServerVersion> {
    const op: Operation = { verb: 'get', resource: 'version', group: '', namespace: null, path: '/version' };
    const versionApi = this.conn.kc.makeApiClient(VersionApi);
    const body = await this.call(op, (_c, options) => versionApi.getCode({}, options));
    return parseServerVersion(this.parse(body, op));
  }
}

/** /version as sent; a minor like "32+" (EKS, GKE) becomes "32". */
export function parseServerVersion(info: Record<string, unknown>): ServerVersion {
  const gitVersion = typeof info.gitVersion === 'string' ? info.gitVersion : '';
  const fromGit = /^v?(\d+)\.(\d+)/.exec(gitVersion);
  const digits = (v: unknown) => (typeof v === 'string' ? (/^\d+/.exec(v)?.[0] ?? '') : typeof v === 'number' ? String(v) : '');
  return {
    major: digits(info.major) || fromGit?.[1] || '',
    minor: digits(info.minor) || fromGit?.[2] || '',
    gitVersion,
  };
}

export async function getServerVersion(conn: Connection, opts: { signal?: AbortSignal } = {}): Promise<ServerVersion> {
  return new Reader(conn, opts.signal).version();
}

/** Failures that every other request would meet as well: no point in going on. */
const FATAL: ReadonlySet<string> = new Set(['unreachable', 'tls', 'timeout', 'credentials', 'unauthorized']);

export async function readCluster(conn: Connection, scope: ReadScope, opts: ReadOptions = {}): Promise<ClusterRead> {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 0) {
    throw new UserError(`invalid page size ${pageSize}: use a whole number of items (0 lists without pages)`);
  }
  const kinds = new Set(scope.kinds ?? ['ReplicaSet', 'ReplicationController']);
  const selector = scope.controllerSelector?.trim() || undefined;
  const reader = new Reader(conn, opts.signal);

  let serverVersion: ServerVersion | null = null;
  try {
    serverVersion = await reader.version();
  } catch (err) {
    // /version is only informative; a server that hides it may still serve the lists.
    if (!(err instanceof ClusterError) || FATAL.has(err.reason)) throw err;
  }

  const replicaSets = kinds.has('ReplicaSet')
    ? await reader.listAll(REPLICA_SETS, scope.namespace, selector, pageSize, opts.onProgress)
    : [];
  const replicationControllers = kinds.has('ReplicationController')
    ? await reader.listAll(REPLICATION_CONTROLLERS, scope.namespace, selector, pageSize, opts.onProgress)
    : [];
  // Never filtered by -l: the controller must see every pod it could adopt or release.
  const pods = await reader.listAll(PODS, scope.namespace, undefined, pageSize, opts.onProgress);

  return {
    snapshot: {
      replicaSets: replicaSets as unknown as ReplicaSet[],
      replicationControllers: replicationControllers as unknown as ReplicationController[],
      pods: pods as unknown as Pod[],
    },
    serverVersion,
    requests: reader.requests,
  };
}
