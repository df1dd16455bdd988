// The ControllerAPI over @kubernetes/client-node: the writes a sync makes, with upstream's patch
// content type, `dryRun=All` for --dry-run=server, and a client-side token bucket
// (--kube-api-qps / --kube-api-burst) in front of every request.
//
// With a write fence (leader election), this is the one place every controller write passes:
// pod create / delete / patch, status update, event create. The fence is checked before a
// write waits for the rate limiter, again after the wait, and last in the request pipeline right
// before the request leaves; its signal aborts the waits and the requests in flight. A refused
// or cut-short request fails with a FencedError.
//
// Events go as kube-controller-manager's recorder sends them (client-go tools/record): through
// the EventCorrelator (aggregation, dedup into count patches, the per-object spam filter), one at
// a time in the order recorded, from a queue of their own. An event takes a limiter token only
// when one is free, so it never queues ahead of a pod or status write nor holds one back.

import {
  AppsV1Api,
  CoreV1Api,
  Observable,
  PatchStrategy,
  setHeaderOptions,
  type ConfigurationOptions,
  type CoreV1Event,
  type KubeConfig,
  type ObservableMiddleware,
  type V1Deployment,
  type V1Pod,
  type V1ReplicaSet,
  type V1ReplicationController,
} from '@kubernetes/client-node';
// Not re-exported by the package root; the models carry Date objects and need it both ways.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../runtime/clock.js';
import { namespaceOf } from '../core/controller.js';
import { clientUserAgent } from '../core/user-agent.js';
import { USER_AGENT } from './http.js';
import type { TokenBucket } from '../runtime/rate-limiter.js';
import type { Deployment, Controller, ControllerKind, Pod, ReplicaSet, ControllerObject } from '../core/types.js';
import { ApiError, FencedError, type ControllerAPI, type DeploymentControllerAPI, type WriteFence } from '../runtime/api.js';
import { EventCorrelator, rfc3339, type CoreEvent, type EventAction } from '../runtime/event-correlator.js';

export const REPORTING_CONTROLLER = 'rs-reconcile';

/** client-go record: events waiting to be sent beyond this many are dropped (maxQueuedEvents). */
const MAX_QUEUED_EVENTS = 1000;
/** client-go record: tries of an event the server did not answer (maxTriesPerEvent), 10 s apart. */
export const MAX_TRIES_PER_EVENT = 12;
const EVENT_RETRY_SLEEP_MS = 10_000;

/**
 * The User-Agent of one client of one instance, as client-go names its clients
 * (`kube-controller-manager/v1.x (linux/amd64) kubernetes/hash/leader-election`), plus the lease
 * identity: audit logs tell apart the instances that compete for a lease. A controller's client
 * also names the Kubernetes minor whose rules it runs (`rules/v1.32`), as kube-controller-manager's
 * version does: `history` applies the same rules to its writes.
 */
export function userAgentFor(client: string, identity: string, rulesVersion?: string): string {
  return clientUserAgent(USER_AGENT, client, identity, rulesVersion);
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
  /** Timers of the rate limiter's waits and of event retries (default setTimeout). */
  clock?: Pick<Clock, 'setTimer' | 'clearTimer'>;
  /** The first event retry sleeps a random part of 10 s (default Math.random). */
  random?: () => number;
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
    const status = (body && typeof body === 'object' ? body : {}) as {
      message?: string;
      reason?: string;
      details?: { causes?: { reason?: string; message?: string; field?: string }[] };
    };
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

/** The client-node models the writes send, by the name ObjectSerializer knows them by. */
interface WireModels {
  V1Pod: V1Pod;
  V1ReplicaSet: V1ReplicaSet;
  V1ReplicationController: V1ReplicationController;
  V1Deployment: V1Deployment;
  CoreV1Event: CoreV1Event;
}

function fromWire<K extends keyof WireModels>(obj: unknown, type: K): WireModels[K] {
  return ObjectSerializer.deserialize(obj, type);
}

export class KubeControllerAPI implements ControllerAPI, DeploymentControllerAPI {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly correlator = new EventCorrelator({ uuid: randomUUID });
  private readonly eventQueue: { event: CoreEvent; done: () => void }[] = [];
  /** The loop sending the queued events, while there are any. */
  private draining: Promise<void> | null = null;
  /** Set by flush: events still queued are sent, but a failed one is not retried later. */
  private flushing = false;
  /** Ends the retry sleep of the event being sent, if any. */
  private wakeRetry: (() => void) | null = null;

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

  private setTimer(fn: () => void, ms: number): unknown {
    return this.opts.clock ? this.opts.clock.setTimer(fn, ms) : setTimeout(fn, ms);
  }

  private clearTimer(h: unknown): void {
    if (this.opts.clock) this.opts.clock.clearTimer(h);
    else clearTimeout(h as NodeJS.Timeout);
  }

  /** Waits `ms` for the rate limiter; a fence that ends cuts the wait short (FencedError). */
  private wait(ms: number): Promise<void> {
    const signal = this.opts.fence?.signal;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(this.fenced());
      const onAbort = () => {
        this.clearTimer(timer);
        reject(this.fenced());
      };
      const timer = this.setTimer(() => {
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

  /**
   * Waits until the limiter has a token free and takes it. Writes reserve theirs (`take`) and
   * drive the bucket negative while they wait, so this one waits behind all of them.
   */
  private async spareToken(): Promise<void> {
    const limiter = this.opts.limiter;
    if (!limiter) return;
    while (!limiter.tryTake()) {
      const missing = 1 - limiter.tokensAvailable();
      await this.wait(Math.max(1, Math.ceil((missing * 1000) / limiter.qps)));
    }
  }

  /** `spare`: the request takes a limiter token only when one is free (events). */
  private async call<T>(
    verb: string,
    resource: string,
    write: boolean,
    fn: (options: ConfigurationOptions | undefined) => Promise<T>,
    spare = false,
  ): Promise<T> {
    const fence = this.opts.fence;
    if (write) fence?.check(); // refused before it takes a token
    if (spare) await this.spareToken();
    else {
      const wait = this.opts.limiter?.take() ?? 0;
      if (wait > 0) await this.wait(wait);
    }
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
    const created = await this.call('create', 'pods', true, (o) => this.core.createNamespacedPod({ namespace, body, dryRun: this.dryRun }, o));
    return toWire(created, 'V1Pod') as Pod;
  }

  async deletePod(namespace: string, name: string): Promise<void> {
    await this.call('delete', 'pods', true, (o) => this.core.deleteNamespacedPod({ namespace, name, dryRun: this.dryRun }, o));
  }

  async patchPod(namespace: string, name: string, patch: object): Promise<void> {
    await this.call('patch', 'pods', true, (o) =>
      this.core.patchNamespacedPod(
        { namespace, name, body: patch, dryRun: this.dryRun },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch, o),
      ),
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
      const out = await this.call('update', 'replicasets/status', true, (o) =>
        this.apps.replaceNamespacedReplicaSetStatus({ namespace, name, body, dryRun: this.dryRun }, o),
      );
      return toWire(out, 'V1ReplicaSet') as ControllerObject;
    }
    const body = fromWire({ apiVersion: 'v1', kind: 'ReplicationController', ...obj }, 'V1ReplicationController');
    const out = await this.call('update', 'replicationcontrollers/status', true, (o) =>
      this.core.replaceNamespacedReplicationControllerStatus({ namespace, name, body, dryRun: this.dryRun }, o),
    );
    return toWire(out, 'V1ReplicationController') as ControllerObject;
  }

  async patchReplicaSet(namespace: string, name: string, patch: object): Promise<ReplicaSet> {
    const out = await this.call('patch', 'replicasets', true, (o) =>
      this.apps.patchNamespacedReplicaSet(
        { namespace, name, body: patch, dryRun: this.dryRun },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch, o),
      ),
    );
    return toWire(out, 'V1ReplicaSet') as ReplicaSet;
  }

  async createReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet> {
    const body = fromWire({ apiVersion: 'apps/v1', kind: 'ReplicaSet', ...rs }, 'V1ReplicaSet');
    const out = await this.call('create', 'replicasets', true, (o) => this.apps.createNamespacedReplicaSet({ namespace, body, dryRun: this.dryRun }, o));
    return toWire(out, 'V1ReplicaSet') as ReplicaSet;
  }

  async updateReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet> {
    const body = fromWire({ apiVersion: 'apps/v1', kind: 'ReplicaSet', ...rs }, 'V1ReplicaSet');
    const out = await this.call('update', 'replicasets', true, (o) =>
      this.apps.replaceNamespacedReplicaSet({ namespace, name: rs.metadata.name, body, dryRun: this.dryRun }, o),
    );
    return toWire(out, 'V1ReplicaSet') as ReplicaSet;
  }

  async deleteReplicaSet(namespace: string, name: string): Promise<void> {
    await this.call('delete', 'replicasets', true, (o) => this.apps.deleteNamespacedReplicaSet({ namespace, name, dryRun: this.dryRun }, o));
  }

  async getReplicaSet(namespace: string, name: string): Promise<ReplicaSet> {
    const rs = await this.call('get', 'replicasets', false, (o) => this.apps.readNamespacedReplicaSet({ namespace, name }, o));
    return toWire(rs, 'V1ReplicaSet') as ReplicaSet;
  }

  async updateDeploymentStatus(namespace: string, d: Deployment): Promise<Deployment> {
    const body = fromWire({ apiVersion: 'apps/v1', kind: 'Deployment', ...d }, 'V1Deployment');
    const out = await this.call('update', 'deployments/status', true, (o) =>
      this.apps.replaceNamespacedDeploymentStatus({ namespace, name: d.metadata.name, body, dryRun: this.dryRun }, o),
    );
    return toWire(out, 'V1Deployment') as Deployment;
  }

  async updateDeployment(namespace: string, d: Deployment): Promise<Deployment> {
    const body = fromWire({ apiVersion: 'apps/v1', kind: 'Deployment', ...d }, 'V1Deployment');
    const out = await this.call('update', 'deployments', true, (o) =>
      this.apps.replaceNamespacedDeployment({ namespace, name: d.metadata.name, body, dryRun: this.dryRun }, o),
    );
    return toWire(out, 'V1Deployment') as Deployment;
  }

  /** Queues the event (makeEvent); it resolves once the event is sent or dropped, and never rejects. */
  recordEvent(c: Controller | Deployment, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const namespace = namespaceOf(c);
    const kind = 'object' in c ? c.kind : 'Deployment';
    const now = this.now();
    const at = rfc3339(now);
    const event: CoreEvent = {
      metadata: { name: this.correlator.eventName(c.metadata.name, now), namespace },
      involvedObject: {
        apiVersion: kind === 'ReplicationController' ? 'v1' : 'apps/v1',
        kind,
        name: c.metadata.name,
        namespace,
        uid: c.metadata.uid,
        resourceVersion: c.metadata.resourceVersion,
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: at,
      lastTimestamp: at,
      source: { component: REPORTING_CONTROLLER },
      reportingComponent: REPORTING_CONTROLLER,
      reportingInstance: this.opts.hostname ?? REPORTING_CONTROLLER,
    };
    // the broadcaster's queue drops what does not fit (watch.DropIfChannelFull)
    if (this.eventQueue.length >= MAX_QUEUED_EVENTS) return Promise.resolve();
    return new Promise<void>((done) => {
      this.eventQueue.push({ event, done });
      this.draining ??= this.drainEvents();
    });
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** One event at a time, in the order recorded, as the recorder's goroutine (recordToSink). */
  private async drainEvents(): Promise<void> {
    for (;;) {
      const next = this.eventQueue.shift();
      if (!next) {
        this.draining = null; // in the same turn as the empty check: a later push starts a new loop
        return;
      }
      try {
        await this.recordToSink(next.event);
      } catch {
        // a lost event never fails anything
      } finally {
        next.done();
      }
    }
  }

  /** recordToSink: correlate, then send; an event the server did not answer is tried again. */
  private async recordToSink(event: CoreEvent): Promise<void> {
    const action = this.correlator.correlate(event, this.now());
    if (action.kind === 'drop') return;
    for (let tries = 1; ; tries++) {
      if (await this.sendEvent(action)) return;
      if (tries >= MAX_TRIES_PER_EVENT || this.flushing) return;
      // the first sleep is randomized so that clients do not retry in step
      const ms = tries === 1 ? EVENT_RETRY_SLEEP_MS * (this.opts.random ?? Math.random)() : EVENT_RETRY_SLEEP_MS;
      await this.retrySleep(ms); // a fence that ends rejects here: the event is dropped
      if (this.flushing) return;
    }
  }

  /** Sleeps before an event's next try; a flush ends the sleep (as the broadcaster's Shutdown). */
  private retrySleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: unknown;
      const end = () => {
        this.wakeRetry = null;
        this.clearTimer(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        end();
        reject(this.fenced());
      };
      const signal = this.opts.fence?.signal;
      if (signal?.aborted) return reject(this.fenced());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wakeRetry = () => {
        end();
        resolve();
      };
      timer = this.setTimer(() => this.wakeRetry?.(), ms);
    });
  }

  /**
   * recordEvent of client-go: PATCH a known event (POST it anew when the PATCH answers 404),
   * POST a new one. True when done: sent, or refused by the server (never retried: the request
   * would be the same), or fenced. False when there was no answer: try again.
   */
  private async sendEvent(action: Exclude<EventAction, { kind: 'drop' }>): Promise<boolean> {
    const { namespace } = action.event.metadata;
    try {
      let out: unknown;
      if (action.kind === 'patch') {
        try {
          out = await this.call(
            'patch',
            'events',
            true,
            (o) =>
              this.core.patchNamespacedEvent(
                { namespace, name: action.name, body: action.patch, dryRun: this.dryRun },
                setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch, o),
              ),
            true,
          );
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 404) throw err;
        }
      }
      if (out === undefined) {
        const { resourceVersion: _rv, ...metadata } = action.event.metadata; // a create carries none
        const body = fromWire({ apiVersion: 'v1', kind: 'Event', ...action.event, metadata }, 'CoreV1Event');
        out = await this.call('create', 'events', true, (o) => this.core.createNamespacedEvent({ namespace, body, dryRun: this.dryRun }, o), true);
      }
      this.correlator.updateState(toWire(out, 'CoreV1Event') as CoreEvent);
      return true;
    } catch (err) {
      if (err instanceof FencedError) return true;
      return toApiError(err).code >= 100;
    }
  }

  /** Waits for the queued events to be sent; meanwhile one that fails is not tried again. */
  async flush(): Promise<void> {
    this.flushing = true;
    try {
      this.wakeRetry?.();
      while (this.draining) await this.draining;
    } finally {
      this.flushing = false;
    }
  }
}
