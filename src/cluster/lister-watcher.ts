// What an informer reads a resource through: client-go's cache.ListerWatcher (one page of a
// list, and a watch from a resourceVersion), for one resource in one namespace (or all) under
// one label selector. The informer's reflector (informer.ts) needs nothing else of the cluster,
// so its tests give it a ListerWatcher of their own and a fake clock.
//
// ApiListerWatcher is the one over a Connection: pages through src/cluster/list.ts (the
// Connection's transport: impersonation, --request-timeout, keep-alive; objects as the JSON the
// API server sent), watches through client-node's Watch fed the Connection's KubeConfig (its
// applyToFetchOptions adds the impersonation headers; CA, client certificates and tokens come
// from the same kubeconfig).

import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { ClusterError, ResourceExpiredError, clusterError, type Operation } from './errors.js';
import { USER_AGENT } from './http.js';
import type { Connection } from './kubeconfig.js';
import { ApiReader, collectionPath, type ApiResource, type ListPage, type PageRequest } from './list.js';

/** What a watch request asks (client-go's ListOptions of a watch). */
export interface WatchOptions {
  /** Where the watch starts; "" asks for the current state first (no resourceVersion is sent). */
  resourceVersion: string;
  /** How long the server keeps the watch open before it ends it cleanly. */
  timeoutSeconds: number;
  allowWatchBookmarks: boolean;
}

/**
 * What a watch reports, until it is stopped or done. After stop() or onDone nothing more is
 * reported. onDone's error: null when the server ended the stream cleanly, a ResourceExpiredError
 * for 410 Gone, else a one-line ClusterError.
 */
export interface WatchEvents {
  /** The server answered the watch request: events may follow. */
  onOpen(): void;
  onEvent(type: string, object: unknown): void;
  onDone(err: Error | null): void;
}

/** Ends a watch: its request if not answered yet, its stream if open. Safe to call more than once. */
export type StopWatch = () => void;

/**
 * client-go's cache.ListerWatcher. list rejects with a one-line error: a ResourceExpiredError
 * when a continue token expired, a RetryAfterError when the answer asked to wait; with the
 * signal's reason when it aborts.
 */
export interface ListerWatcher {
  list(request: PageRequest, signal: AbortSignal): Promise<ListPage>;
  watch(options: WatchOptions, events: WatchEvents): StopWatch;
}

/** A ListerWatcher over a Connection: what the informers use unless given another. */
export class ApiListerWatcher implements ListerWatcher {
  constructor(
    private readonly conn: Connection,
    private readonly resource: ApiResource,
    private readonly namespace: string | null,
    private readonly labelSelector?: string,
  ) {}

  list(request: PageRequest, signal: AbortSignal): Promise<ListPage> {
    return new ApiReader(this.conn, { signal }).page(this.resource, this.namespace, this.labelSelector, request);
  }

  watch(options: WatchOptions, events: WatchEvents): StopWatch {
    const query: Record<string, string | number | boolean | undefined> = {
      allowWatchBookmarks: options.allowWatchBookmarks,
      resourceVersion: options.resourceVersion || undefined,
      timeoutSeconds: options.timeoutSeconds,
      labelSelector: this.labelSelector || undefined,
    };
    const request = new WatchRequest();
    const done = (err: unknown) => {
      if (request.stopped) return;
      request.stop();
      events.onDone(this.watchEnd(err));
    };
    new Watch(request.kubeConfigView(this.conn.kc))
      .watch(
        collectionPath(this.resource, this.namespace),
        query,
        (type: string, object: unknown) => {
          if (!request.stopped) events.onEvent(type, object);
        },
        done,
      )
      .then(
        (controller) => {
          if (request.opened(controller)) events.onOpen();
        },
        (err: unknown) => done(err ?? new Error('the watch request failed')),
      );
    return () => request.stop();
  }

  /** How the watch ended, as WatchEvents.onDone says it. */
  private watchEnd(err: unknown): Error | null {
    if (err === null || err === undefined) return null;
    const status = typeof err === 'object' && 'statusCode' in err ? err.statusCode : undefined;
    if (status === 410) return new ResourceExpiredError('watch answered 410 Gone');
    const op: Operation = { verb: 'watch', resource: this.resource.resource, group: this.resource.group, namespace: this.namespace };
    const error = typeof status === 'number' ? clusterError(this.conn, err, op, { status }) : clusterError(this.conn, err, op);
    if (error instanceof ClusterError) return error;
    // e.g. node-fetch's "Premature close" when the connection drops mid-stream
    return new ClusterError(`the watch of ${this.resource.resource} from ${this.conn.server} broke off: ${error.message}`, 'unreachable');
  }
}

/** One watch request's handles to end it: the request's agent until Watch answers, then its AbortController. */
class WatchRequest {
  stopped = false;
  private controller: AbortController | undefined;
  private agent: { destroy(): void } | undefined;

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.controller?.abort();
    // Also ends a request still waiting for its answer (Watch gives no handle on it until then).
    this.agent?.destroy();
  }

  /** Watch handed out its AbortController (the request is answered); false when stopped already. */
  opened(controller: AbortController): boolean {
    this.controller = controller;
    if (this.stopped) controller.abort();
    return !this.stopped;
  }

  /**
   * Watch reads only these two members of its KubeConfig; the request's agent is kept to be able
   * to end the request before Watch hands out its AbortController.
   */
  kubeConfigView(kc: KubeConfig): KubeConfig {
    const view: Pick<KubeConfig, 'getCurrentCluster' | 'applyToFetchOptions'> = {
      getCurrentCluster: () => kc.getCurrentCluster(),
      applyToFetchOptions: async (o) => {
        const init = await kc.applyToFetchOptions(o);
        const a: unknown = init.agent;
        if (typeof a === 'object' && a !== null && 'destroy' in a && typeof a.destroy === 'function') {
          this.agent = a as { destroy(): void };
          if (this.stopped) this.agent.destroy();
        }
        (init.headers as { set(k: string, v: string): void } | undefined)?.set('User-Agent', USER_AGENT);
        return init;
      },
    };
    return view as KubeConfig;
  }
}
