// The ControllerAPI over @kubernetes/client-node: the writes a sync makes, with upstream's patch
// content type, `dryRun=All` for --dry-run=server, and a client-side token bucket
// (--kube-api-qps / --kube-api-burst) in front of every request.
//
// With a write fence (leader election), this is the one place every controller write passes:
// pod create / delete / patch, status update, event create. The fence is checked before a
// write waits for the rate limiter, again after the wait, and last in the request pipeline right
// before the request leaves; its signal aborts the waits and the requests in flight. A refused
// or cut-short request fails with a FencedError.

import { AppsV1Api, CoreV1Api, Observable, PatchStrategy, setHeaderOptions, type ConfigurationOptions, type CoreV1Event, type KubeConfig, type ObservableMiddleware } from '@kubernetes/client-node';
// Not re-exported by the package root; the models carry Date objects and need it both ways.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import type { Clock } from '../core/clock.js';
import { namespaceOf } from '../core/controller.js';
import type { TokenBucket } from '../core/rate-limiter.js';
import type { Controller, ControllerKind, Pod } from '../core/types.js';
import { ApiError, FencedError, type ControllerAPI, type ControllerObject, type WriteFence } from '../runtime/api.js';

export const REPORTING_CONTROLLER = 'rs-reconcile';

const BASE_USER_AGENT = `rs-reconcile (${process.platform}/${process.arch}) node/${process.version}`;

/**
 * The User-Agent of one client of one instance, as client-go names its clients
 * (`kube-controller-manager/v1.x (linux/amd64) kubernetes/hash/leader-election`), plus the lease
 * identity: audit logs tell apart the instances that compete for a lease.
 */
export function userAgentFor(client: string, identity: string): string {
  return `${BASE_USER_AGENT} ${client}/${identity.replace(/[^\x21-\x7e]/g, '_')}`;
}

export interface ClientOptions {
  dryRun?: boolean; // send every write with dryRun=All
  limiter?: TokenBucket; // client-side rate limit of all requests
  hostname?: string; // reportingInstance of events
  now?: () => number;
  onRequest?: (verb: string, resource: string, code: number) => void; // metrics
  /** Leader election: no write is sent unless it passes (see the top of this file). */
  fence?: WriteFence;
  /** Sent with every request (default: the transport's). */
  userAgent?: string;
  /** Timers of the rate limiter's waits (default setTimeout). */
  clock?: Pick<Clock, 'setTimer' | 'clearTimer'>;
}

/** An ApiException (or a transport error) as an ApiError with the server's Status. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: number; body?: unknown; message?: string };
  if (typeof e?.code === 'number' && e.code >= 100) {
    let body: unknown = e.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep the text */
      }
    }
    const status = (body && typeof body === 'object' ? body : {}) as { message?: string; reason?: string; details?: { causes?: { reason?: string; message?: string; field?: string }[] } };
    const message = status.message ?? (typeof body === 'string' && body ? body : `HTTP ${e.code}`);
    return new ApiError(message, e.code, status.reason ?? '', status.details?.causes ?? []);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(message, 0, 'Unreachable');
}

function toWire<T>(obj: T, type: string): unknown {
  // client-node models carry Date objects; the sync works with the wire shape (RFC 3339 strings)
  return ObjectSerializer.serialize(obj, type);
}

function fromWire<T>(obj: unknown, type: string): T {
  return ObjectSerializer.deserialize(obj, type) as T;
}

export class KubeControllerAPI implements ControllerAPI {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly pendingEvents = new Set<Promise<void>>();

  constructor(
    kc: KubeConfig,
    private readonly opts: ClientOptions = {},
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
    this.apps = kc.makeApiClient(AppsV1Api);
  }

  private get dryRun(): string | undefined {
    return this.opts.dryRun ? 'All' : undefined;
  }

  /** Waits `ms` for the rate limiter; a fence that ends cuts the wait short (FencedError). */
  private wait(ms: number): Promise<void> {
    const signal = this.opts.fence?.signal;
    const clock = this.opts.clock;
    const set = (fn: () => void, t: number): unknown => (clock ? clock.setTimer(fn, t) : setTimeout(fn, t));
    const clear = (h: unknown) => (clock ? clock.clearTimer(h) : clearTimeout(h as NodeJS.Timeout));
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(this.fenced());
      const onAbort = () => {
        clear(timer);
        reject(this.fenced());
      };
      const timer = set(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private fenced(): FencedError {
    const reason = this.opts.fence?.signal.reason as unknown;
    return reason instanceof FencedError ? reason : new FencedError(`write refused: not leading${reason instanceof Error ? ` (${reason.message})` : ''}`);
  }

  /** Per-request options: the fence's signal, the User-Agent, and the fence checked last for a write. */
  private requestOptions(write: boolean): ConfigurationOptions | undefined {
    const { fence, userAgent } = this.opts;
    if (!fence && !userAgent) return undefined;
    const middleware: ObservableMiddleware = {
      pre: (ctx) => {
        if (userAgent) ctx.setHeaderParam('User-Agent', userAgent);
        if (fence) {
          ctx.setSignal(fence.signal);
          if (write) {
            try {
              fence.check();
            } catch (err) {
              return new Observable(Promise.reject(err));
            }
          }
        }
        return new Observable(Promise.resolve(ctx));
      },
      post: (rsp) => new Observable(Promise.resolve(rsp)),
    };
    return { middleware: [middleware], middlewareMergeStrategy: 'append' };
  }

  private async call<T>(verb: string, resource: string, write: boolean, fn: (options: ConfigurationOptions | undefined) => Promise<T>): Promise<T> {
    const fence = this.opts.fence;
    if (write) fence?.check(); // refused before it takes a token
    const wait = this.opts.limiter?.take() ?? 0;
    if (wait > 0) await this.wait(wait);
    try {
      if (write) fence?.check(); // the wait may have outlasted the lease
      const out = await fn(this.requestOptions(write));
      this.opts.onRequest?.(verb, resource, 200);
      return out;
    } catch (err) {
      if (err instanceof FencedError) throw err;
      if (fence?.signal.aborted) throw this.fenced(); // cut short when leading stopped
      const api = toApiError(err);
      this.opts.onRequest?.(verb, resource, api.code);
      throw api;
    }
  }

  async createPod(namespace: string, pod: Pod): Promise<Pod> {
    const body = fromWire(pod, 'V1Pod');
    const created = await this.call('create', 'pods', true, (o) => this.core.createNamespacedPod({ namespace, body: body as never, dryRun: this.dryRun }, o));
    return toWire(created, 'V1Pod') as Pod;
  }

  async deletePod(namespace: string, name: string): Promise<void> {
    await this.call('delete', 'pods', true, (o) => this.core.deleteNamespacedPod({ namespace, name, dryRun: this.dryRun }, o));
  }

  async patchPod(namespace: string, name: string, patch: object): Promise<void> {
    await this.call('patch', 'pods', true, (o) =>
      this.core.patchNamespacedPod({ namespace, name, body: patch, dryRun: this.dryRun }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch, o)),
    );
  }

  async getController(kind: ControllerKind, namespace: string, name: string): Promise<ControllerObject> {
    if (kind === 'ReplicaSet') {
      const rs = await this.call('get', 'replicasets', false, (o) => this.apps.readNamespacedReplicaSet({ namespace, name }, o));
      return { apiVersion: 'apps/v1', kind: 'ReplicaSet', ...(toWire(rs, 'V1ReplicaSet') as object) } as ControllerObject;
    }
    const rc = await this.call('get', 'replicationcontrollers', false, (o) => this.core.readNamespacedReplicationController({ namespace, name }, o));
    return { apiVersion: 'v1', kind: 'ReplicationController', ...(toWire(rc, 'V1ReplicationController') as object) } as ControllerObject;
  }

  async updateControllerStatus(kind: ControllerKind, obj: ControllerObject): Promise<ControllerObject> {
    const namespace = namespaceOf(obj);
    const name = obj.metadata.name;
    if (kind === 'ReplicaSet') {
      const body = fromWire({ apiVersion: 'apps/v1', kind: 'ReplicaSet', ...obj }, 'V1ReplicaSet');
      const out = await this.call('update', 'replicasets/status', true, (o) => this.apps.replaceNamespacedReplicaSetStatus({ namespace, name, body: body as never, dryRun: this.dryRun }, o));
      return toWire(out, 'V1ReplicaSet') as ControllerObject;
    }
    const body = fromWire({ apiVersion: 'v1', kind: 'ReplicationController', ...obj }, 'V1ReplicationController');
    const out = await this.call('update', 'replicationcontrollers/status', true, (o) =>
      this.core.replaceNamespacedReplicationControllerStatus({ namespace, name, body: body as never, dryRun: this.dryRun }, o),
    );
    return toWire(out, 'V1ReplicationController') as ControllerObject;
  }

  async recordEvent(c: Controller, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const namespace = namespaceOf(c);
    const now = new Date(this.opts.now?.() ?? Date.now());
    const event: CoreV1Event = {
      metadata: { generateName: `${c.metadata.name}.`, namespace },
      involvedObject: {
        apiVersion: c.kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
        kind: c.kind,
        name: c.metadata.name,
        namespace,
        uid: c.metadata.uid,
        resourceVersion: c.metadata.resourceVersion,
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      eventTime: undefined,
      source: { component: REPORTING_CONTROLLER },
      reportingComponent: REPORTING_CONTROLLER,
      reportingInstance: this.opts.hostname ?? REPORTING_CONTROLLER,
    };
    const sent = this.call('create', 'events', true, (o) => this.core.createNamespacedEvent({ namespace, body: event, dryRun: this.dryRun }, o)).then(
      () => undefined,
      () => undefined, // like upstream's broadcaster: a lost event never fails a sync
    );
    this.pendingEvents.add(sent);
    void sent.finally(() => this.pendingEvents.delete(sent));
    return sent;
  }

  async flush(): Promise<void> {
    while (this.pendingEvents.size) await Promise.all([...this.pendingEvents]);
  }
}
