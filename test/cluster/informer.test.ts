// The informer against the embedded API server, over HTTPS, with the real client-node: list in
// pages, watch, relist on 410, reconnects, faults, bookmarks, scoping, resync, indexes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppsV1Api, CoreV1Api, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node';
import { controllerUidIndexer, namespaceIndexer } from '../../src/cluster/cache.js';
import type { Tombstone, Pod, ReplicaSet, ReplicationController } from '../../src/core/types.js';
import { ClusterError } from '../../src/cluster/errors.js';
import { audited, nameOf, namespace, pod, removeTempDirs, runInformer, sleep, startEnv, waitFor, type Env, type Running } from './informer-helpers.js';
import { metaNamespaceKey } from '../../src/core/object-key.js';

const keyOf = (o: { metadata: { namespace?: string; name: string } }) => metaNamespaceKey(o.metadata.namespace, o.metadata.name);

const merge = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const envs: Env[] = [];
const running: Running<any>[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((r) => r.stop()));
  await Promise.all(envs.splice(0).map((e) => e.sb.close()));
  removeTempDirs();
});

async function env(...args: Parameters<typeof startEnv>): Promise<Env & { core: CoreV1Api; apps: AppsV1Api }> {
  const e = await startEnv(...args);
  envs.push(e);
  return { ...e, core: e.conn.kc.makeApiClient(CoreV1Api), apps: e.conn.kc.makeApiClient(AppsV1Api) };
}

function start<T extends { metadata: { name: string; uid: string } }>(e: Env, o: Parameters<typeof runInformer>[1]): Running<T> {
  const r = runInformer<T>(e, o);
  running.push(r);
  return r;
}

/** What the server holds now: name → resourceVersion. */
async function serverPods(core: CoreV1Api, ns?: string): Promise<Map<string, string>> {
  const list = ns ? await core.listNamespacedPod({ namespace: ns }) : await core.listPodForAllNamespaces();
  return new Map(list.items.map((p) => [`${p.metadata!.namespace}/${p.metadata!.name}`, p.metadata!.resourceVersion!]));
}

function cachedPods(r: Running<Pod>): Map<string, string> {
  return new Map(r.informer.cache.list().map((p) => [keyOf(p), p.metadata.resourceVersion!]));
}

const watchRVs = (r: Running<any>) => r.metrics.filter((m) => m.event === 'watch').map((m) => m.detail!.replace('resourceVersion=', ''));

// Fake-clock tests: the informer's timers run on vitest's fake clock, the HTTP exchanges with the
// sandbox are real, so these wait for them on the real clock (saved before any test fakes it).
const realSetTimeout = globalThis.setTimeout;
const realIo = (ms = 20) => new Promise((r) => realSetTimeout(r, ms));
async function realUntil(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await realIo(10);
  if (!ok()) throw new Error(`no ${what}`);
}

describe('initial list', () => {
  it('lists in pages (limit/continue), adds every object once, then watches from the list resourceVersion', async () => {
    const seed = [namespace('a'), namespace('b')];
    for (let i = 0; i < 1200; i++) seed.push(pod(`p-${String(i).padStart(4, '0')}`, { namespace: i % 2 ? 'a' : 'b', managedFields: true }));
    const e = await env({ seed });
    const r = start<Pod>(e, { resource: 'pods', pageSize: 500 });
    expect(r.informer.hasSynced()).toBe(false);
    await r.informer.waitForSync();
    expect(r.informer.hasSynced()).toBe(true);
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');

    const requests = e.sb
      .audit()
      .filter((a) => a.resource === 'pods')
      .map((a) => a.verb);
    expect(requests).toEqual(['list', 'list', 'list', 'watch']);
    expect(r.rec.of('add')).toHaveLength(1200);
    expect(new Set(r.rec.names('add')).size).toBe(1200);
    expect(r.rec.of('update')).toHaveLength(0);
    expect(r.informer.cache.size()).toBe(1200);
    expect(cachedPods(r)).toEqual(await serverPods(e.core));

    const p = r.informer.cache.get('a/p-0001')!;
    expect(p.kind).toBe('Pod');
    expect(p.apiVersion).toBe('v1');
    expect('managedFields' in p.metadata).toBe(false);
    expect(typeof p.metadata.creationTimestamp).toBe('string'); // wire JSON, not Date
    expect(p.spec?.containers?.[0].image).toBe('nginx:1.27');

    const listRV = (await e.core.listNamespacedPod({ namespace: 'a', limit: 1 })).metadata!.resourceVersion!;
    expect(r.informer.lastResourceVersion()).toBe(listRV);
    expect(watchRVs(r)).toEqual([listRV]);
    expect(r.metrics[0]).toEqual({ event: 'list', detail: `1200 pods in 3 pages at resourceVersion ${listRV}` });
    expect(r.errors).toEqual([]);
  });

  it('sets kind/apiVersion on ReplicaSets and ReplicationControllers and follows their updates', async () => {
    const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const e = await env({
      seed: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'rs1', namespace: 'default' },
          spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template },
        },
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          metadata: { name: 'rc1', namespace: 'default' },
          spec: { replicas: 1, selector: { app: 'x' }, template },
        },
      ],
    });
    const rs = start<ReplicaSet>(e, { resource: 'replicasets' });
    const rc = start<ReplicationController>(e, { resource: 'replicationcontrollers' });
    await Promise.all([rs.informer.waitForSync(), rc.informer.waitForSync()]);
    expect(rs.informer.cache.get('default/rs1')).toMatchObject({ kind: 'ReplicaSet', apiVersion: 'apps/v1', spec: { replicas: 1 } });
    expect(rc.informer.cache.get('default/rc1')).toMatchObject({ kind: 'ReplicationController', apiVersion: 'v1', spec: { replicas: 1 } });

    await waitFor(() => audited(e.sb, 'watch', 'replicasets').length === 1, 'the RS watch');
    await e.apps.patchNamespacedReplicaSet({ name: 'rs1', namespace: 'default', body: { spec: { replicas: 3 } } }, merge());
    const up = await waitFor(() => rs.rec.of('update')[0], 'the RS update');
    if (up.type !== 'update') throw new Error('not an update');
    expect(up.old.spec.replicas).toBe(1);
    expect(up.obj.spec.replicas).toBe(3);
    expect(up.obj).toMatchObject({ kind: 'ReplicaSet', apiVersion: 'apps/v1' });
    expect(rc.rec.of('update')).toEqual([]);
  });

  it('handlers added after the sync first get add() for every cached object; run() runs once', async () => {
    const e = await env({ seed: [pod('a'), pod('b')] });
    const r = start<Pod>(e, { resource: 'pods' });
    await r.informer.waitForSync();
    const late: string[] = [];
    r.informer.addHandlers({ add: (p) => late.push(p.metadata.name) });
    expect(late.sort()).toEqual(['a', 'b']);
    await expect(r.informer.run(new AbortController().signal)).rejects.toThrow(/already running/);
  });
});

describe('watch events', () => {
  it('add, update with the old object, delete with the final object; a throwing handler does not stop it', async () => {
    const e = await env({ seed: [namespace('shop')] });
    const r = start<Pod>(e, { resource: 'pods', namespace: 'shop' });
    const seen: string[] = [];
    r.informer.addHandlers({
      add: () => {
        throw new Error('handler bug');
      },
    });
    r.informer.addHandlers({ add: (p) => seen.push(p.metadata.name) });
    await r.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');

    const created = await e.core.createNamespacedPod({ namespace: 'shop', body: pod('web-1', { namespace: 'shop', labels: { app: 'web', v: '1' } }) as any });
    await waitFor(() => r.rec.of('add').length === 1, 'add');
    expect(seen).toEqual(['web-1']);
    expect(r.errors.map((x) => x.message)).toEqual(['handler bug']);

    await e.core.patchNamespacedPod({ name: 'web-1', namespace: 'shop', body: { metadata: { labels: { v: '2' } } } }, merge());
    const upd = await waitFor(() => r.rec.of('update')[0], 'update');
    if (upd.type !== 'update') throw new Error('not an update');
    expect(upd.old.metadata.labels).toEqual({ app: 'web', v: '1' });
    expect(upd.obj.metadata.labels).toEqual({ app: 'web', v: '2' });
    expect(upd.old.metadata.resourceVersion).toBe(created.metadata!.resourceVersion);
    expect(Number(upd.obj.metadata.resourceVersion)).toBeGreaterThan(Number(upd.old.metadata.resourceVersion));
    expect(upd.old).not.toBe(upd.obj);
    expect(r.informer.cache.get('shop/web-1')).toBe(upd.obj);

    await e.core.deleteNamespacedPod({ name: 'web-1', namespace: 'shop' });
    const del = await waitFor(() => r.rec.of('delete')[0], 'delete');
    expect('tombstone' in del.obj).toBe(false);
    expect(nameOf(del.obj)).toBe('web-1');
    expect(r.informer.cache.get('shop/web-1')).toBeUndefined();
    expect(r.informer.lastResourceVersion()).toBe((del.obj as Pod).metadata.resourceVersion);
    expect(r.rec.events.map((x) => x.type)).toEqual(['add', 'update', 'delete']);
  });
});

describe('410 Gone and relist', () => {
  it('relists on an expired watch and reconciles: tombstones for what vanished, updates with old objects, adds', async () => {
    const seed = Array.from({ length: 8 }, (_, i) => pod(`p${i}`));
    const e = await env({ seed });
    const r = start<Pod>(e, { resource: 'pods' });
    await r.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');
    const before = new Map(r.informer.cache.list().map((p) => [p.metadata.name, p]));
    r.rec.clear();

    // The next watch answers late (and with 410): what happens meanwhile is seen only by the relist.
    e.sb.faults.set({ verb: 'watch', resource: 'pods', errorRate: 0, code: 500, latencyMs: 700, count: 1 });
    e.sb.faults.forceGone('pods');
    expect(e.sb.faults.dropWatches()).toBe(1);
    await e.core.deleteNamespacedPod({ name: 'p0', namespace: 'default' });
    await e.core.deleteNamespacedPod({ name: 'p1', namespace: 'default' });
    await e.core.patchNamespacedPod({ name: 'p2', namespace: 'default', body: { metadata: { labels: { app: 'web', moved: 'yes' } } } }, merge());
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('p8') as any });
    expect(r.rec.events).toEqual([]); // not watching

    await waitFor(() => audited(e.sb, 'list', 'pods').length === 2 && audited(e.sb, 'watch', 'pods').length === 3, 'relist and a new watch');
    await waitFor(() => r.rec.of('delete').length === 2, 'tombstones');
    expect(r.metrics.some((m) => m.event === 'relist' && /expired: too old resource version/.test(m.detail ?? ''))).toBe(true);

    const tombstones = r.rec.of('delete').map((d) => d.obj as Tombstone<Pod>);
    expect(tombstones.map((t) => t.tombstone)).toEqual([true, true]);
    expect(tombstones.map((t) => t.key).sort()).toEqual(['default/p0', 'default/p1']);
    for (const t of tombstones) expect(t.obj).toBe(before.get(t.obj.metadata.name)); // the last known state

    expect(r.rec.names('add')).toEqual(['p8']);
    const updates = r.rec.of('update') as Extract<(typeof r.rec.events)[number], { type: 'update' }>[];
    expect(updates.map((u) => u.obj.metadata.name).sort()).toEqual(['p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    for (const u of updates) {
      expect(u.old).toBe(before.get(u.obj.metadata.name));
      if (u.obj.metadata.name === 'p2') {
        expect(u.old.metadata.labels).toEqual({ app: 'web' });
        expect(u.obj.metadata.labels).toEqual({ app: 'web', moved: 'yes' });
      } else {
        expect(u.obj.metadata.resourceVersion).toBe(u.old.metadata.resourceVersion); // handlers skip these
      }
    }
    expect(cachedPods(r)).toEqual(await serverPods(e.core));
    expect(r.informer.hasSynced()).toBe(true);
    // the watch after the relist starts from the relist's resourceVersion
    const rvs = watchRVs(r);
    expect(rvs).toHaveLength(3);
    expect(rvs[2]).toBe(r.metrics.filter((m) => m.event === 'list')[1].detail!.match(/resourceVersion (\d+)/)![1]);
    expect(Number(rvs[2])).toBeGreaterThan(Number(rvs[0]));
    expect(r.errors).toEqual([]); // 410 is no error

    // and it keeps watching
    await e.core.deleteNamespacedPod({ name: 'p3', namespace: 'default' });
    await waitFor(() => r.rec.of('delete').some((d) => !('tombstone' in d.obj) && nameOf(d.obj) === 'p3'), 'a live delete after the relist');
  });
});

describe('reconnecting', () => {
  it('after dropped watches resumes from the last resourceVersion: no relist, no duplicate adds, nothing missed', async () => {
    const spy = vi.spyOn(Watch.prototype, 'watch');
    const e = await env({ seed: [pod('a')] });
    const r = start<Pod>(e, { resource: 'pods' });
    await r.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('b') as any });
    await waitFor(() => r.rec.of('add').length === 2, 'add b');
    const rvB = r.informer.lastResourceVersion();
    expect(rvB).toBe(r.informer.cache.get('default/b')!.metadata.resourceVersion);

    // a clean close; the new watch is served late, and pods created meanwhile come from the replay
    e.sb.faults.set({ verb: 'watch', resource: 'pods', errorRate: 0, code: 500, latencyMs: 400, count: 1 });
    expect(e.sb.faults.dropWatches()).toBe(1);
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('c') as any });
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('d') as any });
    await waitFor(() => r.rec.of('add').length === 4, 'adds of c and d');

    // an abrupt drop (socket destroyed mid-stream): an error, then the same
    const before = r.informer.lastResourceVersion();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 2, 'the second watch');
    await sleep(50);
    expect(e.sb.faults.dropWatches({ abrupt: true })).toBe(1);
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 3, 'the third watch');
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('e') as any });
    await waitFor(() => r.rec.of('add').length === 5, 'add e');
    await sleep(100);

    expect(r.rec.names('add')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.rec.of('update')).toEqual([]);
    expect(audited(e.sb, 'list', 'pods')).toHaveLength(1);
    expect(watchRVs(r)).toEqual([watchRVs(r)[0], rvB, before]);
    // what client-node's Watch was asked for
    const queries = spy.mock.calls.map((c) => c[1]);
    expect(queries).toHaveLength(3);
    for (const q of queries) {
      expect(q.allowWatchBookmarks).toBe(true);
      expect(Number(q.timeoutSeconds)).toBeGreaterThanOrEqual(300);
      expect(Number(q.timeoutSeconds)).toBeLessThan(600);
    }
    expect(queries.map((q) => q.resourceVersion)).toEqual(watchRVs(r));
    expect(r.errors.length).toBeGreaterThanOrEqual(1); // the abrupt drop
    expect(r.errors.every((x) => x instanceof ClusterError && /broke off/.test(x.message))).toBe(true);
    expect(cachedPods(r)).toEqual(await serverPods(e.core));
  });

  it('retries a failing list with growing backoff until it succeeds', async () => {
    const e = await env({ seed: [pod('a'), pod('b')] });
    e.sb.faults.set({ verb: 'list', resource: 'pods', errorRate: 1, code: 500, count: 3 });
    const r = start<Pod>(e, { resource: 'pods', backoff: { initialMs: 40, maxMs: 1000 } });
    await r.informer.waitForSync();
    const lists = audited(e.sb, 'list', 'pods');
    expect(lists.map((l) => l.code)).toEqual([500, 500, 500, 200]);
    expect(r.errors).toHaveLength(3);
    for (const err of r.errors) {
      expect(err).toBeInstanceOf(ClusterError);
      expect((err as ClusterError).status).toBe(500);
      expect(err.message).toMatch(/server error \(500/);
    }
    const delays = r.metrics.filter((m) => m.event === 'reconnect').map((m) => Number(/in (\d+)ms/.exec(m.detail!)![1]));
    expect(delays).toHaveLength(3);
    [40, 80, 160].forEach((base, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.5);
    });
    expect(r.rec.names('add').sort()).toEqual(['a', 'b']);
  });

  it('lists again when its backoff ends, not before (fake clock)', async () => {
    const e = await env({ seed: [pod('a')] });
    e.sb.faults.set({ verb: 'list', resource: 'pods', errorRate: 1, code: 500, count: 2 });
    const io = realIo;
    const until = realUntil;
    const lists = () => audited(e.sb, 'list', 'pods').length;
    const delays = (r: Running<Pod>) => r.metrics.filter((m) => m.event === 'reconnect').map((m) => Number(/in (\d+)ms/.exec(m.detail!)![1]));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const r = start<Pod>(e, { resource: 'pods', backoff: { initialMs: 1000, maxMs: 10_000 } });
      for (const n of [1, 2]) {
        await until(() => delays(r).length === n, `backoff ${n}`);
        const delay = delays(r)[n - 1];
        expect(delay).toBeGreaterThanOrEqual(1000 * 2 ** (n - 1));
        await vi.advanceTimersByTimeAsync(delay - 1);
        await io(100);
        expect(lists(), `list ${n + 1} before the backoff of ${delay} ms ended`).toBe(n);
        await vi.advanceTimersByTimeAsync(1);
        await until(() => lists() === n + 1, `list ${n + 1}`);
      }
      await until(() => r.informer.hasSynced(), 'sync');
      expect(audited(e.sb, 'list', 'pods').map((l) => l.code)).toEqual([500, 500, 200]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits as long as a 429 Retry-After asks before listing again (fake clock)', async () => {
    const e = await env({ seed: [pod('a')] });
    e.sb.faults.set({ verb: 'list', resource: 'pods', errorRate: 1, code: 429, retryAfterSeconds: 1, count: 1 });
    const lists = () => audited(e.sb, 'list', 'pods');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const r = start<Pod>(e, { resource: 'pods' });
      await realUntil(() => r.metrics.some((m) => m.event === 'reconnect'), 'the wait');
      expect(r.metrics.filter((m) => m.event === 'reconnect')).toEqual([{ event: 'reconnect', detail: 'in 1000ms' }]);
      await vi.advanceTimersByTimeAsync(999);
      await realIo(100);
      expect(lists(), 'listed again before the Retry-After second').toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await realUntil(() => r.informer.hasSynced(), 'sync');
      expect(lists().map((l) => l.code)).toEqual([429, 200]);
      expect((r.errors[0] as ClusterError).reason).toBe('too-many-requests');
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a failing watch from the same resourceVersion, without a relist', async () => {
    const e = await env({ seed: [pod('a')] });
    e.sb.faults.set({ verb: 'watch', resource: 'pods', errorRate: 1, code: 500, count: 2 });
    const r = start<Pod>(e, { resource: 'pods' });
    await r.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').filter((w) => w.code === 200).length === 1, 'a watch that works');
    expect(audited(e.sb, 'watch', 'pods').map((w) => w.code)).toEqual([500, 500, 200]);
    expect(audited(e.sb, 'list', 'pods')).toHaveLength(1);
    const rvs = watchRVs(r);
    expect(new Set(rvs).size).toBe(1);
    expect(r.errors).toHaveLength(2);
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('b') as any });
    await waitFor(() => r.rec.names('add').includes('b'), 'add b');
  });
});

describe('bookmarks', () => {
  it('advance the resourceVersion while nothing in scope changes, and the next watch starts there', async () => {
    const e = await env({ seed: [namespace('quiet'), namespace('busy'), pod('q', { namespace: 'quiet' })], bookmarkIntervalMs: 50 });
    const r = start<Pod>(e, { resource: 'pods', namespace: 'quiet' });
    await r.informer.waitForSync();
    const listRV = r.informer.lastResourceVersion();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');
    await e.core.createNamespacedPod({ namespace: 'busy', body: pod('x', { namespace: 'busy' }) as any });
    const xRV = (await e.core.readNamespacedPod({ name: 'x', namespace: 'busy' })).metadata!.resourceVersion!;
    await waitFor(() => Number(r.informer.lastResourceVersion()) >= Number(xRV), 'a bookmark past the other namespace write');
    expect(Number(xRV)).toBeGreaterThan(Number(listRV));
    expect(r.metrics.some((m) => m.event === 'bookmark')).toBe(true);
    expect(r.rec.events.map((x) => x.type)).toEqual(['add']); // bookmarks are no events

    const rv = r.informer.lastResourceVersion();
    e.sb.faults.dropWatches();
    await waitFor(() => watchRVs(r).length === 2, 'a new watch');
    expect(watchRVs(r)[1]).toBe(rv);
  });
});

describe('scope', () => {
  it('watches one namespace with a label selector: objects entering and leaving the selection', async () => {
    const e = await env({
      seed: [
        namespace('shop'),
        namespace('other'),
        pod('web-1', { namespace: 'shop', labels: { app: 'web' } }),
        pod('db-1', { namespace: 'shop', labels: { app: 'db' } }),
        pod('web-x', { namespace: 'other', labels: { app: 'web' } }),
      ],
    });
    const r = start<Pod>(e, { resource: 'pods', namespace: 'shop', labelSelector: 'app=web' });
    await r.informer.waitForSync();
    expect(r.informer.cache.keys()).toEqual(['shop/web-1']);
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');
    expect(
      e.sb
        .audit()
        .filter((a) => a.resource === 'pods')
        .map((a) => [a.verb, a.namespace]),
    ).toEqual([
      ['list', 'shop'],
      ['watch', 'shop'],
    ]);

    await e.core.createNamespacedPod({ namespace: 'other', body: pod('web-y', { namespace: 'other' }) as any });
    await e.core.createNamespacedPod({ namespace: 'shop', body: pod('db-2', { namespace: 'shop', labels: { app: 'db' } }) as any });
    await e.core.patchNamespacedPod({ name: 'db-1', namespace: 'shop', body: { metadata: { labels: { app: 'web' } } } }, merge());
    await waitFor(() => r.rec.names('add').includes('db-1'), 'db-1 entering');
    await e.core.patchNamespacedPod({ name: 'web-1', namespace: 'shop', body: { metadata: { labels: { app: 'old' } } } }, merge());
    await waitFor(() => r.rec.of('delete').length === 1, 'web-1 leaving');
    expect(r.rec.names('add')).toEqual(['web-1', 'db-1']);
    expect(r.rec.names('delete')).toEqual(['web-1']);
    expect(r.informer.cache.keys()).toEqual(['shop/db-1']);
    expect(r.rec.of('update')).toEqual([]);
  });
});

describe('resync', () => {
  it('calls update(obj, obj) for every cached object periodically, and never when off', async () => {
    const e = await env({ seed: [pod('a'), pod('b'), pod('c')] });
    const on = start<Pod>(e, { resource: 'pods', resyncMs: 80 });
    const off = start<Pod>(e, { resource: 'pods' });
    await Promise.all([on.informer.waitForSync(), off.informer.waitForSync()]);
    await waitFor(() => on.rec.of('update').length >= 9, 'three rounds of resync');
    for (const u of on.rec.of('update')) {
      if (u.type !== 'update') throw new Error('not an update');
      expect(u.old).toBe(u.obj);
      expect(on.informer.cache.get(keyOf(u.obj))).toBe(u.obj);
    }
    const names = on.rec.names('update');
    expect(new Set(names.slice(0, 3))).toEqual(new Set(['a', 'b', 'c']));
    expect(off.rec.of('update')).toEqual([]);
    expect(on.rec.of('add')).toHaveLength(3);
    expect(on.rec.of('delete')).toEqual([]);
  });
});

describe('indexes', () => {
  it('by namespace and controller uid stay right through owner-reference changes and deletes', async () => {
    const rsA = { name: 'rs-a', uid: 'aaaaaaaa-0000-0000-0000-000000000001' };
    const rsB = { name: 'rs-b', uid: 'bbbbbbbb-0000-0000-0000-000000000002' };
    const e = await env({
      seed: [
        namespace('x'),
        namespace('y'),
        pod('p1', { namespace: 'x', owner: rsA }),
        pod('p2', { namespace: 'x', owner: rsA }),
        pod('p3', { namespace: 'y', owner: rsB }),
        pod('p4', { namespace: 'y' }),
      ],
      gc: false,
    });
    const r = start<Pod>(e, { resource: 'pods', indexers: { namespace: namespaceIndexer, controllerUid: controllerUidIndexer } });
    await r.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').length === 1, 'the watch');
    const c = r.informer.cache;
    const names = (index: string, value: string) =>
      c
        .byIndex(index, value)
        .map((p) => p.metadata.name)
        .sort();
    expect(names('controllerUid', rsA.uid)).toEqual(['p1', 'p2']);
    expect(names('controllerUid', rsB.uid)).toEqual(['p3']);
    expect(names('namespace', 'x')).toEqual(['p1', 'p2']);
    expect(names('namespace', 'y')).toEqual(['p3', 'p4']);

    // p1 released by rs-a and adopted by rs-b (a merge patch replaces the whole list)
    const ownedBy = (o: { name: string; uid: string }) => [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.name, uid: o.uid, controller: true, blockOwnerDeletion: true },
    ];
    await e.core.patchNamespacedPod({ name: 'p1', namespace: 'x', body: { metadata: { ownerReferences: ownedBy(rsB) } } }, merge());
    await waitFor(() => names('controllerUid', rsB.uid).includes('p1'), 'p1 under rs-b');
    expect(names('controllerUid', rsA.uid)).toEqual(['p2']);
    expect(names('controllerUid', rsB.uid)).toEqual(['p1', 'p3']);

    // p2 orphaned, p4 adopted by rs-a
    await e.core.patchNamespacedPod({ name: 'p2', namespace: 'x', body: { metadata: { ownerReferences: null } } }, merge());
    await e.core.patchNamespacedPod({ name: 'p4', namespace: 'y', body: { metadata: { ownerReferences: ownedBy(rsA) } } }, merge());
    await waitFor(() => names('controllerUid', rsA.uid).join() === 'p4', 'p2 orphaned, p4 adopted');
    expect(c.indexValues('controllerUid').sort()).toEqual([rsA.uid, rsB.uid]);

    // deletes leave every index
    await e.core.deleteNamespacedPod({ name: 'p3', namespace: 'y' });
    await e.core.deleteNamespacedPod({ name: 'p1', namespace: 'x' });
    await waitFor(() => c.byIndex('controllerUid', rsB.uid).length === 0, 'rs-b has no pods');
    expect(c.indexValues('controllerUid')).toEqual([rsA.uid]);
    expect(names('namespace', 'x')).toEqual(['p2']);
    expect(names('namespace', 'y')).toEqual(['p4']);
    // the indexes agree with a scan of the cache
    for (const p of c.list()) {
      const own = controllerUidIndexer(p);
      for (const uid of own) expect(c.byIndex('controllerUid', uid)).toContain(p);
    }
  });
});

describe('stopping', () => {
  // No bound on how soon: each wait that stop() must cut short is longer than the test may run
  // (a 10-minute backoff, a watch the server keeps open for 5 to 10 minutes), or its end is seen
  // in the audit log (the held watch answer), so a stop() that waited would fail the test.
  it('abort ends run() at once, in every state, and rejects waitForSync', async () => {
    const e = await env({ seed: [pod('a')] });
    // backing off from a failing list
    e.sb.faults.set({ verb: 'list', resource: 'pods', errorRate: 1, code: 500 });
    const failing = runInformer<Pod>(e, { resource: 'pods', backoff: { initialMs: 600_000, maxMs: 600_000 } });
    const waiting = failing.informer.waitForSync();
    // a waiter with its own signal gives up alone
    const own = new AbortController();
    const mine = failing.informer.waitForSync(own.signal);
    own.abort(new Error('gave up'));
    await expect(mine).rejects.toThrow('gave up');
    await waitFor(() => failing.metrics.some((m) => m.event === 'reconnect'), 'backing off');
    await failing.stop(); // the backoff (10 minutes) is not waited out
    await expect(waiting).rejects.toBeDefined(); // run() stopped before a sync
    expect(failing.informer.hasSynced()).toBe(false);
    expect(audited(e.sb, 'list', 'pods')).toHaveLength(1);
    e.sb.faults.clear();

    // waiting for the answer to a watch request that the server holds back
    e.sb.faults.set({ verb: 'watch', resource: 'pods', errorRate: 0, code: 500, latencyMs: 5_000 });
    const held = runInformer<Pod>(e, { resource: 'pods' });
    await held.informer.waitForSync();
    await sleep(100);
    const watchesBefore = audited(e.sb, 'watch', 'pods').length; // recorded when answered
    await held.stop();
    expect(audited(e.sb, 'watch', 'pods'), 'stop() waited for the held answer').toHaveLength(watchesBefore);
    e.sb.faults.clear();

    // watching; a waitForSync with its own signal rejects when that signal aborts
    const live = runInformer<Pod>(e, { resource: 'pods', resyncMs: 50 });
    await live.informer.waitForSync();
    await waitFor(() => audited(e.sb, 'watch', 'pods').some((w) => w.code === 200), 'a watch');
    await live.stop(); // the watch itself would last 5 to 10 minutes
    const updates = live.rec.of('update').length;
    await sleep(150);
    expect(live.rec.of('update').length).toBe(updates); // the resync timer is gone
    await e.core.createNamespacedPod({ namespace: 'default', body: pod('late') as any });
    await sleep(100);
    expect(live.rec.names('add')).toEqual(['a']);
  });
});
