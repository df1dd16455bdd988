// Read-only view of a live cluster: the controller kinds (CONTROLLER_KINDS: ReplicaSets,
// ReplicationControllers) and pods, listed in pages the way kubectl does (limit + continue,
// src/cluster/list.ts), as the plain JSON the API server sent.

import { CONTROLLER_KINDS, emptySnapshot } from '../core/controller.js';
import type { Deployment, ControllerKind, ControllerObject, Pod, Snapshot } from '../core/types.js';
import { UserError } from '../errors.js';
import { ClusterError, type Operation } from './errors.js';
import type { Connection } from './kubeconfig.js';
import { ApiReader, DEFAULT_PAGE_SIZE, MAX_RETRIES, POD_RESOURCE, withKind, type ApiResource } from './list.js';

const DEPLOYMENT_RESOURCE: ApiResource = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' };

export interface ReadScope {
  /** null: all namespaces. */
  namespace: string | null;
  /** -l: applies to the controller lists only, never to pods. */
  controllerSelector?: string;
  /** Which controller kinds to read (default all of CONTROLLER_KINDS). */
  kinds?: ControllerKind[];
  /**
   * Also list deployments.apps (never filtered by -l: a Deployment owns ReplicaSets whatever its
   * labels). A 403 leaves them unknown (snapshot.deployments null), a 404 (not served) absent,
   * and the rest as read.
   */
  deployments?: boolean;
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

/** A reader of one-shot reads: retries what the server asks to retry, as client-go's rest client. */
function reader(conn: Connection, signal?: AbortSignal): ApiReader {
  return new ApiReader(conn, { signal, retries: MAX_RETRIES });
}

/** Every object of a resource, each with its kind and apiVersion (list items carry none on the wire). */
async function listAll(
  r: ApiReader,
  res: ApiResource,
  namespace: string | null,
  labelSelector: string | undefined,
  pageSize: number,
  onProgress?: (p: ReadProgress) => void,
): Promise<Record<string, unknown>[]> {
  const typed = withKind(res);
  const { items } = await r.list<Record<string, unknown>>({
    resource: res,
    namespace,
    labelSelector,
    pageSize,
    accept: (item) => (typeof item === 'object' && item !== null ? { ...typed, ...(item as Record<string, unknown>) } : null),
    onPage: (p) => onProgress?.({ resource: res.resource, ...p }),
  });
  return items;
}

async function version(r: ApiReader): Promise<ServerVersion> {
  const op: Operation = { verb: 'get', resource: 'version', group: '', namespace: null, path: '/version' };
  // client-node's VersionApi asks for /version/ (the server answers both)
  return parseServerVersion(await r.get(op, '/version/'));
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
  return version(reader(conn, opts.signal));
}

/** Failures that every other request would meet as well: no point in going on. */
const FATAL: ReadonlySet<string> = new Set(['unreachable', 'tls', 'timeout', 'credentials', 'unauthorized']);

export async function readCluster(conn: Connection, scope: ReadScope, opts: ReadOptions = {}): Promise<ClusterRead> {
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 0) {
    throw new UserError(`invalid page size ${pageSize}: use a whole number of items (0 lists without pages)`);
  }
  const kinds = new Set(scope.kinds ?? CONTROLLER_KINDS.map((k) => k.kind));
  const selector = scope.controllerSelector?.trim() || undefined;
  const r = reader(conn, opts.signal);

  let serverVersion: ServerVersion | null = null;
  try {
    serverVersion = await version(r);
  } catch (err) {
    // /version is only informative; a server that hides it may still serve the lists.
    if (!(err instanceof ClusterError) || FATAL.has(err.reason)) throw err;
  }

  const snapshot: Snapshot = emptySnapshot();
  for (const k of CONTROLLER_KINDS) {
    if (!kinds.has(k.kind)) continue;
    // biome-ignore lint/plugin/double-assertion: the server's list items, each given its kind above, are the objects of the resource asked for
    snapshot.controllers[k.kind] = (await listAll(r, k, scope.namespace, selector, pageSize, opts.onProgress)) as unknown as ControllerObject[];
  }
  if (scope.deployments) {
    try {
      // biome-ignore lint/plugin/double-assertion: the server's list items, each given its kind above, are Deployments
      snapshot.deployments = (await listAll(r, DEPLOYMENT_RESOURCE, scope.namespace, undefined, pageSize, opts.onProgress)) as unknown as Deployment[];
    } catch (err) {
      // a server that does not serve deployments.apps holds none; one that forbids the list may
      if (!(err instanceof ClusterError) || (err.reason !== 'forbidden' && err.reason !== 'not-found')) throw err;
      if (err.reason === 'forbidden') snapshot.deployments = null;
    }
  }
  // Never filtered by -l: the controller must see every pod it could adopt or release.
  // biome-ignore lint/plugin/double-assertion: the server's list items, each given its kind above, are pods
  snapshot.pods = (await listAll(r, POD_RESOURCE, scope.namespace, undefined, pageSize, opts.onProgress)) as unknown as Pod[];

  return { snapshot, serverVersion, requests: r.requests };
}

/**
 * Whether the Deployment namespace/name exists: its uid, or null when it does not (404). Other
 * failures (403 included) are the caller's "unknown": rethrown as they are.
 */
export async function readDeploymentUid(conn: Connection, namespace: string, name: string): Promise<string | null> {
  const path = `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}`;
  const op: Operation = { verb: 'get', resource: 'deployments', group: 'apps', namespace };
  try {
    const d = await reader(conn).get(op, path);
    const uid = (d.metadata as { uid?: unknown } | undefined)?.uid;
    return typeof uid === 'string' ? uid : '';
  } catch (err) {
    if (err instanceof ClusterError && err.reason === 'not-found') return null;
    throw err;
  }
}
