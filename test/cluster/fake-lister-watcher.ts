// A ListerWatcher held in memory, for the informer's tests without a server: lists serve the
// objects it holds, in pages of the limit asked for (continue = the offset); each watch is kept
// for the test to drive (open it, send events, end it). Nothing here reads a clock.
import { KubeConfig } from '@kubernetes/client-node';
import type { Connection } from '../../src/cluster/kubeconfig.js';
import type { ListerWatcher, WatchEvents, WatchOptions } from '../../src/cluster/lister-watcher.js';
import type { ListPage, PageRequest } from '../../src/cluster/list.js';

export interface FakeWatch {
  options: WatchOptions;
  events: WatchEvents;
  stopped: boolean;
}

/** A Connection that is never dialled: it only names the server in the informer's messages. */
export const FAKE_CONNECTION: Connection = {
  kc: new KubeConfig(),
  contextName: 'fake',
  namespace: 'default',
  server: 'https://fake.invalid',
  requestTimeoutMs: null,
};

export class FakeListerWatcher implements ListerWatcher {
  /** What a list answers: these objects (copied at each list), at this resourceVersion. */
  objects: Record<string, any>[] = [];
  resourceVersion = '1';
  /** Every list request, in order. */
  readonly lists: PageRequest[] = [];
  /** Errors the next lists reject with, one each, before lists answer again. */
  readonly failures: Error[] = [];
  readonly watches: FakeWatch[] = [];

  list(request: PageRequest, signal: AbortSignal): Promise<ListPage> {
    this.lists.push(request);
    if (signal.aborted) return Promise.reject(signal.reason);
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    const from = request.continue === undefined ? 0 : Number(request.continue);
    const to = request.limit === undefined ? this.objects.length : Math.min(this.objects.length, from + request.limit);
    const page: ListPage = { items: structuredClone(this.objects.slice(from, to)), resourceVersion: this.resourceVersion };
    if (to < this.objects.length) page.continue = String(to);
    return Promise.resolve(page);
  }

  watch(options: WatchOptions, events: WatchEvents): () => void {
    const w: FakeWatch = { options, events, stopped: false };
    this.watches.push(w);
    return () => {
      w.stopped = true;
    };
  }

  /** The latest watch; throws when there is none. */
  get current(): FakeWatch {
    const w = this.watches.at(-1);
    if (!w) throw new Error('no watch was started');
    return w;
  }
}

/** A pod as the API server would send it (a fresh object at each call). */
export function fakePod(name: string, resourceVersion: string, labels: Record<string, string> = { app: 'web' }): Record<string, any> {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion, labels },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
  };
}

/**
 * Lets every promise the informer chains run to its next wait (a fake timer or a fake watch):
 * turns of the event loop, no time passes, nothing else is awaited.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
