// The ControllerAPI over @kubernetes/client-node: the writes a sync makes, with upstream's patch
// content type, `dryRun=All` for --dry-run=server, and a client-side token bucket
// (--kube-api-qps / --kube-api-burst) in front of every request.

import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type CoreV1Event, type KubeConfig } from '@kubernetes/client-node';
// Not re-exported by the package root; the models carry Date objects and need it both ways.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { namespaceOf } from '../core/controller.js';
import type { TokenBucket } from '../core/rate-limiter.js';
import type { Controller, ControllerKind, Pod } from '../core/types.js';
import { ApiError, type ControllerAPI, type ControllerObject } from '../controller/api.js';

export const REPORTING_CONTROLLER = 'rs-reconcile';

export interface ClientOptions {
  dryRun?: boolean; // send every write with dryRun=All
  limiter?: TokenBucket; // client-side rate limit of all requests
  hostname?: string; // reportingInstance of events
  now?: () => number;
  onRequest?: (verb: string, resource: string, code: number) => void; // metrics
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

  private async call<T>(verb: string, resource: string, fn: () => Promise<T>): Promise<T> {
    const wait = this.opts.limiter?.take() ?? 0;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    try {
      const out = await fn();
      this.opts.onRequest?.(verb, resource, 200);
      return out;
    } catch (err) {
      const api = toApiError(err);
      this.opts.onRequest?.(verb, resource, api.code);
      throw api;
    }
  }

  async createPod(namespace: string, pod: Pod): Promise<Pod> {
    const body = fromWire(pod, 'V1Pod');
    const created = await this.call('create', 'pods', () => this.core.createNamespacedPod({ namespace, body: body as never, dryRun: this.dryRun }));
    return toWire(created, 'V1Pod') as Pod;
  }

  async deletePod(namespace: string, name: string): Promise<void> {
    await this.call('delete', 'pods', () => this.core.deleteNamespacedPod({ namespace, name, dryRun: this.dryRun }));
  }

  async patchPod(namespace: string, name: string, patch: object): Promise<void> {
    await this.call('patch', 'pods', () =>
      this.core.patchNamespacedPod({ namespace, name, body: patch, dryRun: this.dryRun }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)),
    );
  }

  async getController(kind: ControllerKind, namespace: string, name: string): Promise<ControllerObject> {
    if (kind === 'ReplicaSet') {
      const rs = await this.call('get', 'replicasets', () => this.apps.readNamespacedReplicaSet({ namespace, name }));
      return { apiVersion: 'apps/v1', kind: 'ReplicaSet', ...(toWire(rs, 'V1ReplicaSet') as object) } as ControllerObject;
    }
    const rc = await this.call('get', 'replicationcontrollers', () => this.core.readNamespacedReplicationController({ namespace, name }));
    return { apiVersion: 'v1', kind: 'ReplicationController', ...(toWire(rc, 'V1ReplicationController') as object) } as ControllerObject;
  }

  async updateControllerStatus(kind: ControllerKind, obj: ControllerObject): Promise<ControllerObject> {
    const namespace = namespaceOf(obj);
    const name = obj.metadata.name;
    if (kind === 'ReplicaSet') {
      const body = fromWire({ apiVersion: 'apps/v1', kind: 'ReplicaSet', ...obj }, 'V1ReplicaSet');
      const out = await this.call('update', 'replicasets/status', () => this.apps.replaceNamespacedReplicaSetStatus({ namespace, name, body: body as never, dryRun: this.dryRun }));
      return toWire(out, 'V1ReplicaSet') as ControllerObject;
    }
    const body = fromWire({ apiVersion: 'v1', kind: 'ReplicationController', ...obj }, 'V1ReplicationController');
    const out = await this.call('update', 'replicationcontrollers/status', () =>
      this.core.replaceNamespacedReplicationControllerStatus({ namespace, name, body: body as never, dryRun: this.dryRun }),
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
    const sent = this.call('create', 'events', () => this.core.createNamespacedEvent({ namespace, body: event, dryRun: this.dryRun })).then(
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
