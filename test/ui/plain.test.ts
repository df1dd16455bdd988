import { describe, expect, it } from 'vitest';
import { frameStamp, PlainStream, plainLine, runPlain } from '../../src/ui/plain.js';
import type { WatchFeed } from '../../src/services/watch/contract.js';
import { frameOf, loadExamples, NOW_MS } from './fixtures.js';

describe('plain-text update stream', () => {
  it('one line per controller, then only the lines that changed, and the ones gone', async () => {
    const a = await loadExamples('drifted-replicaset', 'scale-down-ranking');
    const stream = new PlainStream();
    expect(stream.update(frameOf(a).plan, '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-01T00:00:00Z search/search-5f7c9 rs desired=3 current=9 adopt=0 release=0 create=0 delete=6 drift',
      '2026-01-01T00:00:00Z shop/shop-web rs desired=5 current=4 adopt=1 release=1 create=1 delete=0 drift',
    ]);
    expect(stream.update(frameOf(a).plan, '2026-01-01T00:00:01Z')).toEqual([]);
    const scaled = {
      ...a,
      controllers: {
        ...a.controllers,
        ReplicaSet: a.controllers.ReplicaSet.map((r) => (r.metadata.name === 'shop-web' ? { ...r, spec: { ...r.spec, replicas: 4 } } : r)),
      },
    };
    expect(stream.update(frameOf(scaled).plan, '2026-01-01T00:00:05Z')).toEqual([
      '2026-01-01T00:00:05Z shop/shop-web rs desired=4 current=4 adopt=1 release=1 create=0 delete=0 drift',
    ]);
    const without = {
      ...scaled,
      controllers: { ...scaled.controllers, ReplicaSet: scaled.controllers.ReplicaSet.filter((r) => r.metadata.name !== 'search-5f7c9') },
    };
    expect(stream.update(frameOf(without).plan, '2026-01-01T00:00:09Z')).toEqual(['2026-01-01T00:00:09Z search/search-5f7c9 rs gone']);
  });

  it('in sync and skipped controllers', async () => {
    const [broken, frontend] = frameOf(await loadExamples('invalid-selector')).plan.controllers;
    expect(plainLine(broken)).toBe('web/broken rs desired=2 current=1 adopt=0 release=0 create=0 delete=0 skipped=InvalidSelector');
    expect(plainLine(frontend)).toBe('web/frontend rs desired=2 current=2 adopt=0 release=0 create=0 delete=0 in-sync');
  });

  it('stamps: the snapshot time for -f, the wall-clock second when live', async () => {
    const f = frameOf(await loadExamples('drifted-replicaset'), { at: NOW_MS + 5_678 });
    expect(frameStamp(false, f)).toBe('2026-01-01T00:00:00Z');
    expect(frameStamp(true, f)).toBe('2026-01-01T00:00:05Z');
  });

  it('runPlain over a live feed: frames and actions until the signal aborts', async () => {
    const one = frameOf(await loadExamples('drifted-replicaset'), { at: NOW_MS });
    const two = frameOf(await loadExamples('scale-down-ranking', 'drifted-replicaset'), { at: NOW_MS + 3000 });
    const out: string[] = [];
    const err: string[] = [];
    const ac = new AbortController();
    let stopped = false;
    const feed: WatchFeed = {
      meta: { context: 'x', scope: 'all namespaces', mode: 'reconcile' },
      live: true,
      queue: null,
      setPaused: () => {},
      stopped: async () => {
        stopped = true;
      },
      async start(sink) {
        sink.frame(one);
        setTimeout(() => {
          sink.log({ at: NOW_MS + 2000, level: 'action', text: 'rs shop/shop-web: create pod shop-web-abcde' });
          sink.log({ at: NOW_MS + 2000, level: 'change', text: 'pod shop/x added' });
          sink.log({ at: NOW_MS + 2000, level: 'error', text: 'rs shop/shop-web: delete pod y failed (500)' });
          sink.frame(two);
          ac.abort();
        }, 5);
      },
    };
    await runPlain(feed, { out: { write: (t: string) => out.push(t) }, err: { write: (t: string) => err.push(t) }, signal: ac.signal });
    expect(stopped).toBe(true);
    expect(out.join('')).toBe(
      [
        '2026-01-01T00:00:00Z shop/shop-web rs desired=5 current=4 adopt=1 release=1 create=1 delete=0 drift',
        '2026-01-01T00:00:02Z rs shop/shop-web: create pod shop-web-abcde',
        '2026-01-01T00:00:03Z search/search-5f7c9 rs desired=3 current=9 adopt=0 release=0 create=0 delete=6 drift',
        '',
      ].join('\n'),
    );
    expect(err).toEqual(['Warning: rs shop/shop-web: delete pod y failed (500)\n']);
  });
});
