// Lists of API objects, read in pages as client-go's pager reads them (k8s.io/client-go/tools/pager,
// ListPager.List): `limit` and `continue`, and when a continue token has expired (410, reason
// Expired) one list without pages, whose answer (or error) is final. Used by the one-shot reads
// (read.ts: explain, diff, reconcile) and by the informers (lister-watcher.ts, under the informers of run and watch).
//
// Requests go through the Connection's API client configuration (its transport, credentials,
// impersonation and --request-timeout), built from the resource's group, version and plural: any
// resource the API server serves can be listed, not only those client-node has methods for.
// Bodies are read raw: objects stay the JSON the API server sent (RFC3339 strings, fields newer
// than the library), never client-node's model classes, which would also be built for every item
// of every page for nothing.
//
// Memory: one page's text at a time; the items a caller keeps (it chooses each one through
// `accept`) and the continue tokens seen. A fallback to one full list first lets go of the items
// of the earlier pages.

import { HttpMethod, type ApiType, type Configuration } from '@kubernetes/client-node';
import { apiVersionOf } from '../core/controller.js';
import { ClusterError, ResourceExpiredError, RetryAfterError, clusterError, parseStatus, type Operation } from './errors.js';
import type { Connection } from './kubeconfig.js';
import { sleep } from '../runtime/sleep.js';
import { isObj } from '../core/guards.js';

/** A resource as the API serves it: group ("" for core), version, plural, and its objects' kind. */
export interface ApiResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
}

export const POD_RESOURCE: ApiResource = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' };

/** The collection's path: /api/v1/namespaces/shop/pods, /apis/apps/v1/replicasets (all namespaces). */
export function collectionPath(r: ApiResource, namespace: string | null): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${base}${namespace === null ? '' : `/namespaces/${encodeURIComponent(namespace)}`}/${r.resource}`;
}

/** kubectl's page size (--chunk-size). */
export const DEFAULT_PAGE_SIZE = 500;
/** client-go retries a 429 or 5xx carrying Retry-After up to 10 times. */
export const MAX_RETRIES = 10;
const MAX_RETRY_AFTER_SECONDS = 60;

/** One HTTP answer, as sent. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An API client of one verb, on the connection's configuration: GET a path, answer as sent. */
class RawApi implements ApiType {
  constructor(private readonly config: Configuration) {}

  async get(path: string, query: Record<string, string>, signal: AbortSignal | undefined): Promise<Answer> {
    const ctx = this.config.baseServer.makeRequestContext(path, HttpMethod.GET);
    ctx.setHeaderParam('Accept', 'application/json, */*;q=0.8');
    for (const [name, value] of Object.entries(query)) ctx.setQueryParam(name, value);
    // as client-node's generated clients: the named method, then the default (the KubeConfig)
    await this.config.authMethods.BearerToken?.applySecurityAuthentication(ctx);
    await this.config.authMethods.default?.applySecurityAuthentication(ctx);
    if (signal) ctx.setSignal(signal);
    const rsp = await this.config.httpApi.send(ctx).toPromise();
    return { status: rsp.httpStatusCode, headers: rsp.headers, body: await rsp.body.text() };
  }
}

function retryAfterSeconds(answer: Answer): number | undefined {
  const value = answer.headers['retry-after'];
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
}

const ok = (a: Answer) => a.status >= 200 && a.status < 300;

export interface ReaderOptions {
  /** Cancels the request in flight and every later one; they reject with the signal's reason. */
  signal?: AbortSignal;
  /** How often a 429 or 5xx carrying Retry-After is retried after waiting as asked (default 0). */
  retries?: number;
}

/** How a list is read in pages, from whatever source of pages. */
export interface PagerOptions<T> {
  /** Items per page; 0: one list without pages. */
  pageSize: number;
  /** Each item of each page, in order: what to keep of it, or null to leave it out. */
  accept(item: unknown): T | null;
  /** After each page: the items kept and the pages read so far (both restart at a fallback). */
  onPage?(p: { items: number; pages: number }): void;
  /** Stop after this many pages, with what they held (shell completion reads one). */
  maxPages?: number;
}

export interface ListOptions<T> extends PagerOptions<T> {
  resource: ApiResource;
  /** null: all namespaces. */
  namespace: string | null;
  labelSelector?: string;
}

/** What one page's request asks beyond the list's own scope: client-go's ListOptions Limit and Continue. */
export interface PageRequest {
  /** Items per page; absent: the whole list at once. */
  limit?: number;
  continue?: string;
}

/** One page of a list as the API server sent it. */
export interface ListPage {
  /** The items as sent (no kind, no apiVersion). */
  items: unknown[];
  /** The list's resourceVersion ("" when the server sent none). */
  resourceVersion: string;
  /** The next page's token; absent on the last page. */
  continue?: string;
}

export interface ListResult<T> {
  items: T[];
  /** The list's resourceVersion (of its first page: every page of a consistent list has it). */
  resourceVersion: string;
  pages: number;
}

/**
 * Every page of a list, as client-go's ListPager.List: `limit` and `continue`; a token whose
 * snapshot expired (a ResourceExpiredError) gives one list without pages, whose answer or error
 * is final. `source` names the server and the resource in messages.
 */
export async function listInPages<T>(
  source: { server: string; resource: string },
  page: (request: PageRequest) => Promise<ListPage>,
  o: PagerOptions<T>,
): Promise<ListResult<T>> {
  let items: T[] = [];
  let pages = 0;
  let resourceVersion: string | undefined;
  let token: string | undefined;
  let paged = o.pageSize > 0;
  const tokens = new Set<string>();
  for (;;) {
    const request: PageRequest = {};
    if (paged) request.limit = o.pageSize;
    if (token !== undefined) request.continue = token;
    let answer: ListPage;
    try {
      answer = await page(request);
    } catch (err) {
      // The snapshot behind the token is gone (the first page's resourceVersion was compacted):
      // list everything at once, still consistent. client-go does this only for "Expired".
      if (token === undefined || !(err instanceof ResourceExpiredError)) throw err;
      items = [];
      pages = 0;
      resourceVersion = undefined;
      token = undefined;
      paged = false;
      tokens.clear();
      continue;
    }
    for (const item of answer.items) {
      const kept = o.accept(item);
      if (kept !== null) items.push(kept);
    }
    pages++;
    o.onPage?.({ items: items.length, pages });
    resourceVersion ??= answer.resourceVersion;
    const next = answer.continue;
    // Without a limit the answer is the whole list (client-go returns the fallback's as is).
    if (next === undefined || !paged || pages === o.maxPages) return { items, resourceVersion, pages };
    if (tokens.has(next)) {
      throw new ClusterError(`the server at ${source.server} repeated a continue token while listing ${source.resource}`, 'unexpected');
    }
    tokens.add(next);
    token = next;
  }
}

/** Reads from one connection; a failure is a one-line ClusterError (src/cluster/errors.ts). */
export class ApiReader {
  /** HTTP requests sent, retries included. */
  requests = 0;
  private readonly api: RawApi;

  constructor(
    readonly conn: Connection,
    private readonly opts: ReaderOptions = {},
  ) {
    this.api = conn.kc.makeApiClient(RawApi);
  }

  /** One GET; any HTTP answer is returned (after the retries asked for), a transport failure thrown. */
  private async send(op: Operation, path: string, query: Record<string, string>): Promise<Answer> {
    const { signal, retries = 0 } = this.opts;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw signal.reason;
      this.requests++;
      let answer: Answer;
      try {
        answer = await this.api.get(path, query, signal);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        throw clusterError(this.conn, err, op);
      }
      if (ok(answer)) return answer;
      const wait = retryAfterSeconds(answer);
      if (wait !== undefined && (answer.status === 429 || answer.status >= 500) && attempt < retries) {
        if (!(await sleep(wait * 1000, signal))) throw signal!.reason;
        continue;
      }
      return answer;
    }
  }

  /**
   * A failed answer as one line: a ResourceExpiredError for 410 Expired, a RetryAfterError when it
   * carried Retry-After (capped at 60 s), else the plain ClusterError.
   */
  private failure(op: Operation, answer: Answer): Error {
    const failure = clusterError(this.conn, new Error(`HTTP ${answer.status}`), op, { status: answer.status, body: answer.body });
    if (!(failure instanceof ClusterError)) return failure;
    if (answer.status === 410 && parseStatus(answer.body)?.reason === 'Expired') return new ResourceExpiredError(failure.message, failure.reason);
    const wait = retryAfterSeconds(answer);
    return wait === undefined ? failure : new RetryAfterError(failure, wait * 1000);
  }

  private parse(op: Operation, body: string): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      value = undefined;
    }
    if (!isObj(value)) {
      throw new ClusterError(`the server at ${this.conn.server} did not answer with JSON (${op.verb} ${op.resource})`, 'unexpected');
    }
    return value;
  }

  /** GET a path; its JSON object. */
  async get(op: Operation, path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const answer = await this.send(op, path, query);
    if (!ok(answer)) throw this.failure(op, answer);
    return this.parse(op, answer.body);
  }

  /** One page of a collection, in one namespace or all, filtered by a label selector. */
  async page(r: ApiResource, namespace: string | null, labelSelector: string | undefined, request: PageRequest): Promise<ListPage> {
    const op: Operation = { verb: 'list', resource: r.resource, group: r.group, namespace };
    const query: Record<string, string> = labelSelector ? { labelSelector } : {};
    if (request.limit !== undefined) query.limit = String(request.limit);
    if (request.continue !== undefined) query.continue = request.continue;
    const answer = await this.send(op, collectionPath(r, namespace), query);
    if (!ok(answer)) throw this.failure(op, answer);
    const list = this.parse(op, answer.body);
    if (!Array.isArray(list.items)) {
      throw new ClusterError(`the server at ${this.conn.server} sent a list without items (${op.verb} ${op.resource})`, 'unexpected');
    }
    const meta = isObj(list.metadata) ? list.metadata : {};
    const page: ListPage = { items: list.items as unknown[], resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '' };
    if (typeof meta.continue === 'string' && meta.continue !== '') page.continue = meta.continue;
    return page;
  }

  /** Every page of a list, as client-go's ListPager.List. */
  list<T>(o: ListOptions<T>): Promise<ListResult<T>> {
    return listInPages(
      { server: this.conn.server, resource: o.resource.resource },
      (request) => this.page(o.resource, o.namespace, o.labelSelector, request),
      o,
    );
  }
}

/** Sets kind and apiVersion on a list item (list items carry none on the wire). */
export function withKind(r: ApiResource): { kind: string; apiVersion: string } {
  return { kind: r.kind, apiVersion: apiVersionOf(r) };
}
