// ApiListerWatcher, the informers' ListerWatcher over a Connection: one page per list call, the
// failures a reflector tells apart (410 Expired, Retry-After), and watches as WatchEvents say
// them: over the recorded server (answers as recorded) and the embedded API server (a live watch).
import { afterEach, describe, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { connect } from '../../src/cluster/kubeconfig.js';
import { ClusterError, ResourceExpiredError, RetryAfterError } from '../../src/cluster/errors.js';
import { ApiListerWatcher, type WatchEvents } from '../../src/cluster/lister-watcher.js';
import { POD_RESOURCE } from '../../src/cluster/list.js';
import { kubeconfigFileFor, recordedServers } from './helpers.js';
import { fixture } from './recorded-server.js';
import { pod, removeTempDirs, startEnv, waitFor, type Env } from './informer-helpers.js';

const serve = recordedServers();
const envs: Env[] = [];
afterEach(async () => {
  await Promise.all(envs.splice(0).map((e) => e.sb.close()));
  removeTempDirs();
});

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

async function recorded(opts: Parameters<typeof serve>[0] = {}) {
  const server = await serve(opts);
  const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
  return { server, lw: new ApiListerWatcher(conn, POD_RESOURCE, 'shop') };
}

/** What a watch reported, in order. */
function recorder(): { seen: string[]; events: WatchEvents; ended: Promise<Error | null> } {
  const seen: string[] = [];
  let end: (e: Error | null) => void = () => {};
  const ended = new Promise<Error | null>((resolve) => (end = resolve));
  return {
    seen,
    ended,
    events: {
      onOpen: () => seen.push('open'),
      onEvent: (type, object: any) => seen.push(`${type} ${object?.metadata?.name}`),
      onDone: (err) => {
        seen.push('done');
        end(err);
      },
    },
  };
}

describe('ApiListerWatcher.list', () => {
  it('one page per call: limit and continue as asked, the items as sent, the next token', async () => {
    const { server, lw } = await recorded();
    const signal = new AbortController().signal;
    const first = await lw.list({ limit: 5 }, signal);
    expect(first.items).toHaveLength(5);
    expect(first.resourceVersion).toBe(fixture('pods.json').metadata.resourceVersion);
    expect(first.continue).toEqual(expect.any(String));
    const second = await lw.list({ limit: 5, continue: first.continue }, signal);
    expect(second.items).toHaveLength(5);
    expect(server.requests.map((r) => r.query)).toEqual([{ limit: '5' }, { limit: '5', continue: first.continue }]);
    expect((first.items[0] as any).kind).toBeUndefined(); // as sent: the informer sets kind
  });

  it("a 410 Expired is a ResourceExpiredError; a Retry-After is a RetryAfterError, in the failure's own words", async () => {
    const { lw } = await recorded({ expireContinue: true });
    const signal = new AbortController().signal;
    const { continue: token } = await lw.list({ limit: 5 }, signal);
    const expired = await lw.list({ limit: 5, continue: token }, signal).catch((e) => e);
    expect(expired).toBeInstanceOf(ResourceExpiredError);
    expect(expired).toBeInstanceOf(ClusterError);
    expect(expired.status).toBe(410);

    const throttled = await recorded({
      failures: [{ match: () => true, status: 429, body: status(429, 'TooManyRequests', 'slow down'), headers: { 'Retry-After': '2' } }],
    });
    const err = await throttled.lw.list({ limit: 5 }, signal).catch((e) => e);
    expect(err).toBeInstanceOf(RetryAfterError);
    expect(err.retryAfterMs).toBe(2000);
    expect(err.reason).toBe('too-many-requests');
    expect(err.message).toBe('too many requests: slow down (list pods)');
  });
});

describe('ApiListerWatcher.watch', () => {
  it('an answer of 410 is done with a ResourceExpiredError, and nothing is reported after it', async () => {
    const { server, lw } = await recorded({ failures: [{ match: (r) => r.query.watch === 'true', status: 410, body: status(410, 'Gone', 'gone') }] });
    const r = recorder();
    lw.watch({ resourceVersion: '42', timeoutSeconds: 300, allowWatchBookmarks: true }, r.events);
    const err = await r.ended;
    expect(err).toBeInstanceOf(ResourceExpiredError);
    expect(err?.message).toBe('watch answered 410 Gone');
    await waitFor(() => server.requests.length === 1, 'the request');
    expect(server.requests[0].query).toEqual({ watch: 'true', resourceVersion: '42', timeoutSeconds: '300', allowWatchBookmarks: 'true' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.seen).toEqual(['done']); // no onOpen after onDone
  });

  it('an answer of 500 is done with a one-line ClusterError', async () => {
    const { lw } = await recorded({ failures: [{ match: (r) => r.query.watch === 'true', status: 500, body: status(500, 'InternalError', 'boom') }] });
    const r = recorder();
    lw.watch({ resourceVersion: '', timeoutSeconds: 300, allowWatchBookmarks: true }, r.events);
    const err = await r.ended;
    expect(err).toBeInstanceOf(ClusterError);
    expect(err).not.toBeInstanceOf(ResourceExpiredError);
    expect((err as ClusterError).status).toBe(500);
  });

  it('over the embedded API server: open, the events from the resourceVersion on, and stop() ends it quietly', async () => {
    const e = await startEnv({ seed: [pod('a')] });
    envs.push(e);
    const lw = new ApiListerWatcher(e.conn, POD_RESOURCE, 'default', 'app=web');
    const page = await lw.list({}, new AbortController().signal);
    expect(page.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    const r = recorder();
    const stop = lw.watch({ resourceVersion: page.resourceVersion, timeoutSeconds: 300, allowWatchBookmarks: true }, r.events);
    await waitFor(() => r.seen.includes('open'), 'the watch to open');
    const core = e.conn.kc.makeApiClient(CoreV1Api);
    await core.createNamespacedPod({ namespace: 'default', body: pod('b') as any });
    await core.createNamespacedPod({ namespace: 'default', body: pod('other', { labels: { app: 'db' } }) as any });
    await core.createNamespacedPod({ namespace: 'default', body: pod('c') as any });
    await waitFor(() => r.seen.includes('ADDED c'), 'the events');
    stop();
    stop(); // twice is harmless
    // a second watch from the same resourceVersion sees d; the stopped one does not
    const later = recorder();
    const stopLater = lw.watch({ resourceVersion: page.resourceVersion, timeoutSeconds: 300, allowWatchBookmarks: true }, later.events);
    await waitFor(() => later.seen.includes('ADDED c'), 'the second watch to catch up');
    await core.createNamespacedPod({ namespace: 'default', body: pod('d') as any });
    await waitFor(() => later.seen.includes('ADDED d'), 'd on the second watch');
    stopLater();
    expect(r.seen).toEqual(['open', 'ADDED b', 'ADDED c']);
  });
});
