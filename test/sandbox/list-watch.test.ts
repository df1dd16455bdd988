// Lists (selectors, pagination, resourceVersion) and watches (resume, bookmarks, 410, drops,
// selector transitions), through client-node's list calls and its Watch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watch } from '@kubernetes/client-node';
import { failure, mergePatch, openWatch, podBody, raw, startEnv, waitFor, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv({ bookmarkIntervalMs: 100 });
  await env.core.createNamespace({ body: { metadata: { name: 'sel' } } });
  const pods = [
    ['a1', { app: 'a', tier: 'fe' }],
    ['a2', { app: 'a', tier: 'be' }],
    ['b1', { app: 'b' }],
    ['c1', { app: 'c', canary: '' }],
  ] as const;
  for (const [name, labels] of pods) await env.core.createNamespacedPod({ namespace: 'sel', body: podBody(name, { ...labels }) });
  await env.core.patchNamespacedPodStatus({ name: 'a1', namespace: 'sel', body: { status: { phase: 'Running' } } }, mergePatch());
});
afterAll(async () => {
  await env.sb.close();
});

const names = (l: { items: { metadata?: { name?: string } }[] }) => l.items.map((i) => i.metadata!.name!);

describe('label and field selectors', () => {
  it.each([
    ['app=a', ['a1', 'a2']],
    ['app==a', ['a1', 'a2']],
    ['app!=a', ['b1', 'c1']],
    ['app in (a, c)', ['a1', 'a2', 'c1']],
    ['app notin (a)', ['b1', 'c1']],
    ['tier', ['a1', 'a2']],
    ['!tier', ['b1', 'c1']],
    ['canary', ['c1']],
    ['app=a,tier notin (be)', ['a1']],
    ['tier!=fe', ['a2', 'b1', 'c1']],
  ])('labelSelector %s', async (labelSelector, expected) => {
    expect(names(await env.core.listNamespacedPod({ namespace: 'sel', labelSelector }))).toEqual(expected);
  });

  it('rejects a malformed label selector with 400', async () => {
    const f = await failure(env.core.listNamespacedPod({ namespace: 'sel', labelSelector: 'app in a' }));
    expect(f.code).toBe(400);
    expect(f.status.reason).toBe('BadRequest');
  });

  it.each([
    ['metadata.name=b1', ['b1']],
    ['metadata.name==b1', ['b1']],
    ['metadata.name!=b1', ['a1', 'a2', 'c1']],
    ['metadata.namespace=sel,status.phase=Running', ['a1']],
    ['status.phase!=Running', ['a2', 'b1', 'c1']],
    ['spec.nodeName=', ['a1', 'a2', 'b1', 'c1']],
  ])('fieldSelector %s', async (fieldSelector, expected) => {
    expect(names(await env.core.listNamespacedPod({ namespace: 'sel', fieldSelector }))).toEqual(expected);
  });

  it('rejects an unsupported field label with 400', async () => {
    const f = await failure(env.core.listNamespacedPod({ namespace: 'sel', fieldSelector: 'spec.foo=bar' }));
    expect(f.code).toBe(400);
    expect(f.status.message).toBe('field label not supported: spec.foo');
  });

  it('lists across namespaces with the cluster-wide path', async () => {
    const all = await env.core.listPodForAllNamespaces({ fieldSelector: 'metadata.namespace=sel' });
    expect(names(all)).toEqual(['a1', 'a2', 'b1', 'c1']);
  });
});

describe('pagination', () => {
  it('limit/continue is consistent: later writes do not show up in later pages', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'page' } } });
    for (let i = 0; i < 7; i++) await env.core.createNamespacedPod({ namespace: 'page', body: podBody(`p${i}`) });
    const first = await env.core.listNamespacedPod({ namespace: 'page', limit: 3 });
    expect(names(first)).toEqual(['p0', 'p1', 'p2']);
    expect(first.metadata?._continue).toBeTruthy();
    expect(first.metadata?.remainingItemCount).toBe(4);
    // Writes between pages: a delete, a create, a label change.
    await env.core.deleteNamespacedPod({ name: 'p4', namespace: 'page' });
    await env.core.createNamespacedPod({ namespace: 'page', body: podBody('p3a') });
    await env.core.patchNamespacedPod({ name: 'p5', namespace: 'page', body: { metadata: { labels: { changed: 'yes' } } } }, mergePatch());
    const second = await env.core.listNamespacedPod({ namespace: 'page', limit: 3, _continue: first.metadata!._continue });
    expect(names(second)).toEqual(['p3', 'p4', 'p5']);
    expect(second.items[2].metadata?.labels?.changed).toBeUndefined();
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
    const third = await env.core.listNamespacedPod({ namespace: 'page', limit: 3, _continue: second.metadata!._continue });
    expect(names(third)).toEqual(['p6']);
    expect(third.metadata?._continue).toBeUndefined();
    const fresh = await env.core.listNamespacedPod({ namespace: 'page' });
    expect(names(fresh)).toEqual(['p0', 'p1', 'p2', 'p3', 'p3a', 'p5', 'p6']);
  });

  it('rejects a garbled continue token with 400', async () => {
    const f = await failure(env.core.listNamespacedPod({ namespace: 'page', limit: 2, _continue: 'garbage!' }));
    expect(f.code).toBe(400);
  });

  it('answers a too large resourceVersion with 504 and an exact older one with that snapshot', async () => {
    const l = await env.core.listNamespacedPod({ namespace: 'sel' });
    const big = await failure(env.core.listNamespacedPod({ namespace: 'sel', resourceVersion: String(Number(l.metadata!.resourceVersion) + 1000) }));
    expect(big.code).toBe(504);
    expect(big.status.details?.causes?.[0]?.reason).toBe('ResourceVersionTooLarge');
    await env.core.createNamespacedPod({ namespace: 'sel', body: podBody('later', { app: 'z' }) });
    const exact = await env.core.listNamespacedPod({ namespace: 'sel', resourceVersion: l.metadata!.resourceVersion, resourceVersionMatch: 'Exact' });
    expect(names(exact)).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(exact.metadata?.resourceVersion).toBe(l.metadata?.resourceVersion);
    await env.core.deleteNamespacedPod({ name: 'later', namespace: 'sel' });
  });
});

interface Seen {
  type: string;
  obj: any;
}

function watchWith(path: string, params: Record<string, string | number | boolean | undefined>) {
  const seen: Seen[] = [];
  let done: unknown = 'open';
  const ctrl = new Watch(env.kc).watch(
    path,
    params,
    (type, obj) => seen.push({ type, obj }),
    (err) => (done = err),
  );
  return { seen, ctrl, done: () => done };
}

describe('watch', () => {
  it('resumes from a resourceVersion with ADDED, MODIFIED, DELETED and periodic bookmarks', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'w1' } } });
    const l = await env.core.listNamespacedPod({ namespace: 'w1' });
    await env.core.createNamespacedPod({ namespace: 'w1', body: podBody('before') });
    const w = watchWith('/api/v1/namespaces/w1/pods', { resourceVersion: l.metadata!.resourceVersion, allowWatchBookmarks: true });
    await waitFor(() => w.seen.length >= 1, 'replayed event');
    await env.core.patchNamespacedPod({ name: 'before', namespace: 'w1', body: { metadata: { labels: { m: '1' } } } }, mergePatch());
    await env.core.deleteNamespacedPod({ name: 'before', namespace: 'w1' });
    await waitFor(() => w.seen.some((e) => e.type === 'DELETED'), 'DELETED event');
    // a bookmark after the DELETED event (an earlier one, sent while the machine was slow, marks an older state)
    const afterDelete = () => w.seen.slice(w.seen.findIndex((e) => e.type === 'DELETED')).find((e) => e.type === 'BOOKMARK');
    await waitFor(afterDelete, 'a bookmark after the DELETED event');
    const changes = w.seen.filter((e) => e.type !== 'BOOKMARK');
    expect(changes.map((e) => [e.type, e.obj.metadata.name])).toEqual([
      ['ADDED', 'before'],
      ['MODIFIED', 'before'],
      ['DELETED', 'before'],
    ]);
    expect(changes[0].obj.kind).toBe('Pod');
    const rvs = changes.map((e) => Number(e.obj.metadata.resourceVersion));
    expect(rvs[1]).toBeGreaterThan(rvs[0]);
    expect(rvs[2]).toBeGreaterThan(rvs[1]);
    const bm = afterDelete()!;
    expect(bm.obj).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });
    expect(Number(bm.obj.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvs[2]);
    (await w.ctrl).abort();
  });

  it('without a resourceVersion starts with the current state; the /watch/ prefix works', async () => {
    const r = openWatch(env.sb, '/api/v1/watch/namespaces/sel/pods?labelSelector=app%3Da');
    await waitFor(() => r.events.length >= 2, 'initial events');
    expect(r.events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'a1'],
      ['ADDED', 'a2'],
    ]);
    r.close();
  });

  it('sendInitialEvents: the current state, then a bookmark marking the end of the initial events', async () => {
    const r = openWatch(
      env.sb,
      '/api/v1/namespaces/sel/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=tier',
    );
    await waitFor(() => r.events.length >= 3, 'initial events and bookmark');
    expect(r.events.slice(0, 3).map((e) => [e.type, e.object.metadata.name ?? null])).toEqual([
      ['ADDED', 'a1'],
      ['ADDED', 'a2'],
      ['BOOKMARK', null],
    ]);
    expect(r.events[2].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    r.close();
  });

  it('an object that stops matching the selector yields DELETED, and ADDED when it matches again', async () => {
    const l = await env.core.listNamespacedPod({ namespace: 'sel' });
    const r = openWatch(env.sb, `/api/v1/namespaces/sel/pods?watch=1&labelSelector=app%3Db&resourceVersion=${l.metadata!.resourceVersion}`);
    await waitFor(() => r.status === 200, 'stream open');
    await env.core.patchNamespacedPod({ name: 'b1', namespace: 'sel', body: { metadata: { labels: { app: 'x' } } } }, mergePatch());
    await env.core.patchNamespacedPod({ name: 'a2', namespace: 'sel', body: { metadata: { labels: { other: '1' } } } }, mergePatch());
    await env.core.patchNamespacedPod({ name: 'b1', namespace: 'sel', body: { metadata: { labels: { app: 'b' } } } }, mergePatch());
    await waitFor(() => r.events.length >= 2, 'two events');
    expect(r.events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.labels.app])).toEqual([
      ['DELETED', 'b1', 'x'],
      ['ADDED', 'b1', 'b'],
    ]);
    r.close();
  });

  it('answers a field-selected watch of one object (what kubectl wait does)', async () => {
    const l = await env.core.listNamespacedPod({ namespace: 'sel' });
    const r = openWatch(env.sb, `/api/v1/namespaces/sel/pods?watch=true&fieldSelector=metadata.name%3Dc1&resourceVersion=${l.metadata!.resourceVersion}`);
    await waitFor(() => r.status === 200, 'stream open');
    await env.core.patchNamespacedPod({ name: 'a1', namespace: 'sel', body: { metadata: { labels: { n: '1' } } } }, mergePatch());
    await env.core.patchNamespacedPod({ name: 'c1', namespace: 'sel', body: { metadata: { labels: { n: '1' } } } }, mergePatch());
    await waitFor(() => r.events.length >= 1, 'event');
    expect(r.events.map((e) => e.object.metadata.name)).toEqual(['c1']);
    r.close();
  });

  it('dropped watches end the stream (client-node calls done)', async () => {
    const w = watchWith('/api/v1/namespaces/sel/pods', {});
    await waitFor(() => w.seen.length >= 4, 'initial events');
    expect(env.sb.faults.dropWatches()).toBeGreaterThanOrEqual(1);
    await waitFor(() => w.done() !== 'open', 'done callback');
    expect(w.done()).toBeNull();
    const w2 = watchWith('/api/v1/namespaces/sel/pods', {});
    await waitFor(() => w2.seen.length >= 4, 'initial events');
    const r = await raw(env.sb, 'POST', '/sandbox/watches/drop');
    expect(r.json.dropped).toBeGreaterThanOrEqual(1);
    await waitFor(() => w2.done() !== 'open', 'done callback');
  });

  it('forceGone: the next watch gets the 410 ERROR event even with a fresh resourceVersion', async () => {
    const l = await env.core.listNamespacedPod({ namespace: 'sel' });
    env.sb.faults.forceGone('pods');
    const r = openWatch(env.sb, `/api/v1/namespaces/sel/pods?watch=true&resourceVersion=${l.metadata!.resourceVersion}`);
    await r.ended$;
    expect(r.status).toBe(200);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 } });
    const again = openWatch(env.sb, `/api/v1/namespaces/sel/pods?watch=true&resourceVersion=${l.metadata!.resourceVersion}`);
    await waitFor(() => again.status === 200, 'second watch open');
    await new Promise((res) => setTimeout(res, 50));
    expect(again.ended).toBe(false);
    again.close();
  });
});

describe('watch history', () => {
  it('a resourceVersion older than the kept history: HTTP 200, one ERROR event with the Expired Status, then the end', async () => {
    const small = await startEnv({ watchHistory: 5 });
    try {
      const l = await small.core.listNamespacedPod({ namespace: 'default' });
      for (let i = 0; i < 8; i++) await small.core.createNamespacedPod({ namespace: 'default', body: podBody(`h${i}`) });
      const seen: { type: string; obj: any }[] = [];
      let done: unknown = 'open';
      await new Watch(small.kc).watch(
        '/api/v1/namespaces/default/pods',
        { resourceVersion: l.metadata!.resourceVersion },
        (type, obj) => seen.push({ type, obj }),
        (err) => (done = err),
      );
      await waitFor(() => done !== 'open', 'stream end');
      expect(done).toBeNull();
      expect(seen).toHaveLength(1);
      expect(seen[0].type).toBe('ERROR');
      const oldest = Number(l.metadata!.resourceVersion) + 3;
      expect(seen[0].obj).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${l.metadata!.resourceVersion} (${oldest})`,
        reason: 'Expired',
        code: 410,
      });
      // A continue token whose snapshot left the history expires the same way.
      const page = await small.core.listNamespacedPod({ namespace: 'default', limit: 2 });
      for (let i = 0; i < 6; i++)
        await small.core.patchNamespacedPod({ name: `h${i}`, namespace: 'default', body: { metadata: { labels: { n: String(i) } } } }, mergePatch());
      const f = await failure(small.core.listNamespacedPod({ namespace: 'default', limit: 2, _continue: page.metadata!._continue }));
      expect(f.code).toBe(410);
      expect(f.status.reason).toBe('Expired');
      expect(f.status.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    } finally {
      await small.sb.close();
    }
  });
});
