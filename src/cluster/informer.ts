// A shared informer for one resource: client-go's reflector (list, then watch from the list's
// resourceVersion, relist on 410 Gone), indexer and event handlers.
//
// Why not client-node's own makeInformer: its list is not paginated, it keeps no indexes, its
// update handler gets only the new object, and it stops for good on any error but 410.
//
// The reflector reads the resource through a ListerWatcher (lister-watcher.ts: by default the
// one over the Connection, pages through src/cluster/list.ts and watches through client-node's
// Watch) and reads time from a Clock (src/runtime/clock.ts: by default the wall clock): its
// backoff, watch timeouts and resync run on that clock alone. Any resource can be watched: pods,
// a kind of CONTROLLER_KINDS by its plural, or any group/version/plural given.
//
// Objects are stored as parsed, with no copy: kind/apiVersion are set on them in place (lists
// and some watch events carry none) and metadata.managedFields is dropped on arrival (no
// controller reads it; on a real cluster it is often the largest part of an object; `record`
// keeps it, keepManagedFields, to tell who wrote a change). Handlers
// and cache readers must treat objects as read-only.

import { CONTROLLER_KINDS, apiVersionOf } from '../core/controller.js';
import type { Tombstone } from '../core/types.js';
import { realClock, type Clock, type TimerHandle } from '../runtime/clock.js';
import { IndexedCache, namespaceIndexer, type CachedObject, type Indexer } from './cache.js';
import { ClusterError, ResourceExpiredError, clusterError, suggestedDelayMs, type Operation } from './errors.js';
import type { Connection } from './kubeconfig.js';
import { ApiListerWatcher, type ListerWatcher, type StopWatch } from './lister-watcher.js';
import { DEFAULT_PAGE_SIZE, POD_RESOURCE, listInPages, type ApiResource } from './list.js';
import { isObj } from '../core/guards.js';
import { metaNamespaceKey } from '../core/object-key.js';

export interface InformerHandlers<T> {
  add?(obj: T): void;
  /** oldObj is the copy the cache held before; on a resync both are the same object. */
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T | Tombstone<T>): void;
}

/** "pods", the plural of a controller kind (CONTROLLER_KINDS), or any resource as the API serves it. */
type InformerResource = string | ApiResource;

/** The resources known by name: pods and every controller kind. */
function namedResource(name: string): ApiResource | undefined {
  if (name === POD_RESOURCE.resource) return POD_RESOURCE;
  return CONTROLLER_KINDS.find((k) => k.resource === name);
}

export interface InformerMetric {
  event: 'list' | 'watch' | 'relist' | 'reconnect' | 'bookmark' | 'error';
  detail?: string;
}

export interface InformerOptions {
  /** The cluster: its server and context name the informer's errors. */
  conn: Connection;
  /** What the resource is read through; default: the one over conn (ApiListerWatcher). */
  listerWatcher?: ListerWatcher;
  /** The backoff, watch timeouts and resync run on it; default: the wall clock. */
  clock?: Clock;
  /** A number in [0, 1) for each backoff's jitter and each watch's timeout; default Math.random. */
  random?: () => number;
  resource: InformerResource;
  /** null: all namespaces. */
  namespace: string | null;
  labelSelector?: string;
  /** Items per list page (limit/continue); 0 lists without pages. Default 500. */
  pageSize?: number;
  /** Every resyncMs, update(obj, obj) for every cached object; 0 (default) = off. */
  resyncMs?: number;
  /**
   * Between failed attempts: initialMs (default 800) doubling up to maxMs (default 30 000), each
   * stretched by a random 0–50 % (jitter). Reset by a successful list or a healthy watch.
   */
  backoff?: { initialMs?: number; maxMs?: number };
  onError?: (e: Error) => void;
  onMetric?: (m: InformerMetric) => void;
  /** Indexes of the cache; default { namespace }. */
  indexers?: Record<string, Indexer<any>>;
  /** Keep metadata.managedFields (dropped by default): `record` tells from them who wrote a change. */
  keepManagedFields?: boolean;
}

const DEFAULT_BACKOFF_INITIAL_MS = 800;
const DEFAULT_BACKOFF_MAX_MS = 30_000;
/** Backoff delays are stretched by up to this share (client-go's reflector jitters its backoff). */
const BACKOFF_JITTER = 0.5;
/** client-go's reflector asks for a server-side watch timeout of 5 to 10 minutes (minWatchTimeout × [1, 2)). */
const MIN_WATCH_TIMEOUT_S = 300;
/** A watch whose server-side timeout passed this long ago without the stream ending is given up. */
const WATCH_TIMEOUT_GRACE_MS = 30_000;
/** How long the answer (status line and headers) to a watch request may take. */
const WATCH_CONNECT_TIMEOUT_MS = 30_000;
/** A watch that ends sooner than this having delivered nothing was not healthy (client-go: "very short watch"). */
const HEALTHY_WATCH_MS = 1_000;

type Json = Record<string, unknown>;

/**
 * metadata without managedFields. Deleting a property other than the last one added turns a V8
 * object into a (twice as large) dictionary, for each of 100k cached pods: delete it only where
 * the API server puts it (last: ObjectMeta's field order), else rebuild metadata (a shallow copy).
 */
function withoutManagedFields(meta: Json): Json {
  let last: string | undefined;
  for (const k in meta) last = k;
  if (last === 'managedFields') {
    delete meta.managedFields;
    return meta;
  }
  const { managedFields: _dropped, ...rest } = meta;
  return rest;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** A watch event that ends the watch (healthy is added by the watch). */
type EventEnd = { kind: 'expired'; message: string } | { kind: 'error'; error: Error };

/** How one watch ended. */
type WatchOutcome =
  | { kind: 'aborted' }
  /** 410 Gone / Expired: the resourceVersion is no longer served; relist. */
  | { kind: 'expired'; healthy: boolean; message: string }
  /** The server ended the stream cleanly (its timeout, or a restart): watch again. */
  | { kind: 'ended'; healthy: boolean }
  | { kind: 'error'; healthy: boolean; error: Error };

/**
 * One watch request's lifetime: its connect and life timers on the clock, the caller's abort, the
 * handle to stop the watch, and the one outcome it settles with (the first; later ones are dropped).
 */
class WatchAttempt {
  settled = false;
  private isOpen = false;
  private events = 0;
  private readonly startedAt: number;
  private stopWatch: StopWatch | undefined;
  private readonly connectTimer: TimerHandle;
  private readonly lifeTimer: TimerHandle;
  private readonly onAbort = () => this.finish({ kind: 'aborted' });

  constructor(
    private readonly clock: Clock,
    private readonly signal: AbortSignal,
    private readonly resolve: (outcome: WatchOutcome) => void,
    timeouts: { connectTimeout: () => Error; lifeTimeout: () => Error; lifeMs: number },
  ) {
    this.startedAt = clock.now();
    this.connectTimer = clock.setTimer(() => this.finish({ kind: 'error', healthy: false, error: timeouts.connectTimeout() }), WATCH_CONNECT_TIMEOUT_MS);
    this.lifeTimer = clock.setTimer(() => this.finish({ kind: 'error', healthy: this.healthy(), error: timeouts.lifeTimeout() }), timeouts.lifeMs);
    if (signal.aborted) this.finish({ kind: 'aborted' });
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  healthy(): boolean {
    return this.isOpen && (this.events > 0 || this.clock.now() - this.startedAt >= HEALTHY_WATCH_MS);
  }

  eventReceived(): void {
    this.events++;
  }

  /** The watch started: how to stop it. */
  started(stop: StopWatch): void {
    this.stopWatch = stop;
    if (this.settled) stop();
  }

  /** The server answered the watch request. */
  opened(): void {
    if (this.settled) return;
    this.isOpen = true;
    this.clock.clearTimer(this.connectTimer);
  }

  finish(outcome: WatchOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.clock.clearTimer(this.connectTimer);
    this.clock.clearTimer(this.lifeTimer);
    this.signal.removeEventListener('abort', this.onAbort);
    this.stopWatch?.();
    this.resolve(outcome);
  }
}

/** How the watch ends when its ListerWatcher reports it done: cleanly (null), 410 Gone, or an error. */
function watchDone(err: Error | null, healthy: boolean): WatchOutcome {
  if (err === null) return { kind: 'ended', healthy };
  if (err instanceof ResourceExpiredError) return { kind: 'expired', healthy: false, message: err.message };
  return { kind: 'error', healthy, error: err };
}

/** Resolves true after `ms` on the clock, or false as soon as `signal` aborts; never rejects. */
function sleepOn(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      clock.clearTimer(timer);
      resolve(false);
    };
    const timer = clock.setTimer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class Informer<T extends CachedObject = CachedObject> {
  readonly cache: IndexedCache<T>;
  private readonly def: ApiResource;
  private readonly apiVersion: string;
  private readonly conn: Connection;
  private readonly lw: ListerWatcher;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly handlers: InformerHandlers<T>[] = [];
  private readonly pageSize: number;
  private readonly resyncMs: number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;
  private rv = '';
  private synced = false;
  private started = false;
  private syncWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(private readonly opts: InformerOptions) {
    const def = typeof opts.resource === 'string' ? namedResource(opts.resource) : opts.resource;
    if (!def) {
      const known = [POD_RESOURCE, ...CONTROLLER_KINDS].map((r) => r.resource).join(', ');
      throw new Error(`the informer cannot watch "${String(opts.resource)}" (${known}, or a resource given by group, version and plural)`);
    }
    this.def = def;
    this.apiVersion = apiVersionOf(def);
    this.conn = opts.conn;
    this.lw = opts.listerWatcher ?? new ApiListerWatcher(opts.conn, def, opts.namespace, opts.labelSelector);
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(this.pageSize) || this.pageSize < 0) throw new Error(`invalid page size ${this.pageSize}`);
    this.resyncMs = opts.resyncMs ?? 0;
    this.backoffInitialMs = Math.max(1, opts.backoff?.initialMs ?? DEFAULT_BACKOFF_INITIAL_MS);
    this.backoffMaxMs = Math.max(this.backoffInitialMs, opts.backoff?.maxMs ?? DEFAULT_BACKOFF_MAX_MS);
    this.cache = new IndexedCache<T>((opts.indexers ?? { namespace: namespaceIndexer }) as Record<string, Indexer<T>>);
  }

  /**
   * Handlers are called in the order they were added. Added after objects are cached (as
   * client-go's AddEventHandler on a running informer), they first get add() for each of them.
   */
  addHandlers(h: InformerHandlers<T>): void {
    this.handlers.push(h);
    if (h.add) for (const obj of this.cache.list()) this.call(() => h.add?.(obj));
  }

  /** True once the first full list has been applied to the cache (and its add() calls made). */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves when synced; rejects when `signal` aborts, or when run() stops before a sync. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (e: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      const onAbort = () => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(waiter);
    });
  }

  /** The resourceVersion the next watch starts from: the last list's, event's or bookmark's. */
  lastResourceVersion(): string {
    return this.rv;
  }

  /**
   * Lists, then watches, until the signal aborts; resolves then (never rejects for a failure of
   * the cluster: those go to onError and are retried with backoff).
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error(`the ${this.def.resource} informer is already running (an informer runs once)`);
    this.started = true;
    const stopResync = this.resyncMs > 0 ? this.everyResync() : undefined;
    try {
      await this.loop(signal);
    } finally {
      stopResync?.();
      const waiters = this.syncWaiters.splice(0);
      const reason: unknown = signal.reason ?? new Error(`the ${this.def.resource} informer stopped`);
      for (const w of waiters) w.reject(reason);
    }
  }

  // -------------------------------------------------------------------------------------------

  /** Calls resync() every resyncMs on the clock until the returned function is called. */
  private everyResync(): () => void {
    let timer: TimerHandle | undefined;
    let stopped = false;
    const arm = () => {
      timer = this.clock.setTimer(() => {
        if (stopped) return;
        arm();
        this.resync();
      }, this.resyncMs);
    };
    arm();
    return () => {
      stopped = true;
      if (timer !== undefined) this.clock.clearTimer(timer);
    };
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let needList = true;
    let failures = 0;
    let watchesSinceList = 0;
    const backoff = async (extraMs = 0): Promise<boolean> => {
      const base = Math.min(this.backoffMaxMs, this.backoffInitialMs * 2 ** Math.min(failures, 30));
      failures++;
      const delay = Math.max(Math.round(base * (1 + BACKOFF_JITTER * this.random())), extraMs);
      this.metric('reconnect', `in ${delay}ms`);
      return sleepOn(this.clock, delay, signal);
    };

    while (!signal.aborted) {
      if (needList) {
        try {
          await this.listAndReplace(signal);
        } catch (e) {
          if (signal.aborted) return;
          this.fail(asError(e));
          if (!(await backoff(suggestedDelayMs(e)))) return;
          continue;
        }
        needList = false;
        failures = 0;
        watchesSinceList = 0;
      }

      watchesSinceList++;
      const outcome = await this.watchOnce(signal);
      switch (outcome.kind) {
        case 'aborted':
          return;
        case 'expired':
          needList = true;
          this.metric('relist', outcome.message);
          // The list's own resourceVersion already expired: do not loop list → 410 → list.
          if (!outcome.healthy && watchesSinceList === 1 && !(await backoff())) return;
          break;
        case 'ended':
          if (outcome.healthy) failures = 0;
          else if (!(await backoff())) return;
          break;
        case 'error':
          this.fail(outcome.error);
          if (outcome.healthy) failures = 0;
          if (!(await backoff())) return;
          break;
      }
    }
  }

  private op(): Operation {
    return { verb: 'list', resource: this.def.resource, group: this.def.group, namespace: this.opts.namespace };
  }

  /** Every page (src/cluster/list.ts: client-go's pager); objects without a name or uid are reported and left out. */
  private listAll(signal: AbortSignal): Promise<{ items: T[]; resourceVersion: string; pages: number }> {
    const source = { server: this.conn.server, resource: this.def.resource };
    return listInPages<T>(source, (request) => this.lw.list(request, signal), {
      pageSize: this.pageSize,
      accept: (item) => {
        const obj = this.prepare(item);
        if (!obj) this.fail(new ClusterError(`the server at ${this.conn.server} sent a ${this.def.kind} without a name or uid; ignored`, 'unexpected'));
        return obj;
      },
    });
  }

  private async listAndReplace(signal: AbortSignal): Promise<void> {
    const relist = this.synced;
    const { items, resourceVersion, pages } = await this.listAll(signal);
    if (signal.aborted) return;
    const diff = this.cache.replace(items);
    this.rv = resourceVersion;
    this.metric(
      'list',
      `${items.length} ${this.def.resource} in ${pages} page${pages === 1 ? '' : 's'} at resourceVersion ${resourceVersion}${relist ? ' (relist)' : ''}`,
    );
    for (const obj of diff.added) this.emitAdd(obj);
    for (const [oldObj, newObj] of diff.updated) this.emitUpdate(oldObj, newObj);
    for (const obj of diff.removed) this.emitDelete({ tombstone: true, key: metaNamespaceKey(obj.metadata.namespace, obj.metadata.name), obj });
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w.resolve();
    }
  }

  /** Sets kind/apiVersion and drops managedFields, in place; null for an object without name or uid. */
  private prepare(item: unknown): T | null {
    if (!isObj(item) || !isObj(item.metadata)) return null;
    const meta = item.metadata;
    if (typeof meta.name !== 'string' || meta.name === '' || typeof meta.uid !== 'string') return null;
    if (meta.managedFields !== undefined && !this.opts.keepManagedFields) item.metadata = withoutManagedFields(meta);
    if (item.kind !== this.def.kind) item.kind = this.def.kind;
    if (item.apiVersion !== this.apiVersion) item.apiVersion = this.apiVersion;
    return item as T;
  }

  private watchOnce(signal: AbortSignal): Promise<WatchOutcome> {
    const timeoutSeconds = MIN_WATCH_TIMEOUT_S + Math.floor(this.random() * MIN_WATCH_TIMEOUT_S);
    const op: Operation = { ...this.op(), verb: 'watch' };
    this.metric('watch', `resourceVersion=${this.rv}`);

    return new Promise<WatchOutcome>((resolve) => {
      const attempt = new WatchAttempt(this.clock, signal, resolve, {
        connectTimeout: () =>
          new ClusterError(`no answer to the watch of ${this.def.resource} from ${this.conn.server} in ${WATCH_CONNECT_TIMEOUT_MS / 1000}s`, 'timeout'),
        lifeTimeout: () => new ClusterError(`the watch of ${this.def.resource} outlived its ${timeoutSeconds}s timeout; watching again`, 'timeout'),
        lifeMs: timeoutSeconds * 1000 + WATCH_TIMEOUT_GRACE_MS,
      });
      if (attempt.settled) return;
      const onEvent = (type: string, object: unknown) => {
        if (attempt.settled) return;
        if (type !== 'ERROR') attempt.eventReceived();
        let end: EventEnd | null;
        try {
          end = this.handleEvent(type, object, op);
        } catch (e) {
          end = { kind: 'error', error: asError(e) };
        }
        if (end) attempt.finish({ ...end, healthy: attempt.healthy() });
      };
      const onDone = (err: Error | null) => {
        if (!attempt.settled) attempt.finish(watchDone(err, attempt.healthy()));
      };
      const options = { resourceVersion: this.rv, timeoutSeconds, allowWatchBookmarks: true };
      attempt.started(this.lw.watch(options, { onOpen: () => attempt.opened(), onEvent, onDone }));
    });
  }

  /** Applies one watch event; returns how the watch ends when the event ends it. */
  private handleEvent(type: string, object: unknown, op: Operation): EventEnd | null {
    switch (type) {
      case 'ADDED':
      case 'MODIFIED': {
        const obj = this.prepare(object);
        if (!obj) throw new ClusterError(`the server at ${this.conn.server} sent a ${type} event without an object`, 'unexpected');
        const old = this.cache.upsert(obj);
        this.advance(obj);
        if (old === undefined) this.emitAdd(obj);
        else this.emitUpdate(old, obj);
        return null;
      }
      case 'DELETED': {
        const obj = this.prepare(object);
        if (!obj) throw new ClusterError(`the server at ${this.conn.server} sent a DELETED event without an object`, 'unexpected');
        const old = this.cache.remove(metaNamespaceKey(obj.metadata.namespace, obj.metadata.name));
        this.advance(obj);
        // As client-go: the final state from the event, and nothing for an object never seen.
        if (old !== undefined) this.emitDelete(obj);
        return null;
      }
      case 'BOOKMARK': {
        const meta = isObj(object) && isObj(object.metadata) ? object.metadata : undefined;
        if (typeof meta?.resourceVersion === 'string' && meta.resourceVersion !== '') {
          this.rv = meta.resourceVersion;
          this.metric('bookmark', `resourceVersion=${this.rv}`);
        }
        return null;
      }
      case 'ERROR': {
        const status = isObj(object) ? object : {};
        const code = typeof status.code === 'number' ? status.code : undefined;
        const message = typeof status.message === 'string' ? status.message : 'no details';
        if (code === 410 || status.reason === 'Expired' || status.reason === 'Gone') {
          return { kind: 'expired', message: `watch of ${this.def.resource} expired: ${message}` };
        }
        return { kind: 'error', error: clusterError(this.conn, new Error(message), op, { status: code ?? 500, body: JSON.stringify(status) }) };
      }
      default:
        throw new ClusterError(`the server at ${this.conn.server} sent a watch event of unknown type "${type}"`, 'unexpected');
    }
  }

  private advance(obj: T): void {
    const rv = obj.metadata.resourceVersion;
    if (rv) this.rv = rv;
  }

  private resync(): void {
    if (!this.synced) return;
    for (const obj of this.cache.list()) this.emitUpdate(obj, obj);
  }

  private emitAdd(obj: T): void {
    for (const h of this.handlers) if (h.add) this.call(() => h.add?.(obj));
  }

  private emitUpdate(oldObj: T, newObj: T): void {
    for (const h of this.handlers) if (h.update) this.call(() => h.update?.(oldObj, newObj));
  }

  private emitDelete(obj: T | Tombstone<T>): void {
    for (const h of this.handlers) if (h.delete) this.call(() => h.delete?.(obj));
  }

  /** A throwing handler must not stop the informer (nor the other handlers). */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.fail(asError(e));
    }
  }

  private fail(e: Error): void {
    this.metric('error', e.message);
    try {
      this.opts.onError?.(e);
    } catch {
      // a failing error callback must not stop the informer either
    }
  }

  private metric(event: InformerMetric['event'], detail?: string): void {
    try {
      this.opts.onMetric?.(detail === undefined ? { event } : { event, detail });
    } catch {
      // metrics are best effort
    }
  }
}
