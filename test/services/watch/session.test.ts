import type { ReplicaSet } from '../../../src/core/types.js';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/runtime/clock.js';
import { planFrame } from '../../../src/services/watch/frame.js';
import { WatchSession } from '../../../src/services/watch/session.js';
import { informerSource, staticSource } from '../../../src/services/watch/sources.js';
import type { LogEntry, PlanFrame } from '../../../src/services/watch/contract.js';
import { newsEntry } from '../../../src/ui/news.js';
import { behaviour, frameOf, loadExamples, NOW_MS, syntheticSnapshot } from '../../ui/fixtures.js';
import { fakeCluster, flush, intoLog } from './fakes.js';

describe('the session: source → plan → sink', () => {
  it('the session re-plans at most every 100 ms from the caches (fake clock), and not while paused', async () => {
    const snap = syntheticSnapshot(3, 2, 1);
    const cl = fakeCluster(snap);
    const clock = new FakeClock(NOW_MS);
    const frames: PlanFrame[] = [];
    const logs: LogEntry[] = [];
    const session = new WatchSession({
      source: informerSource(cl, { run: true }),
      clock,
      plan: (s, first) =>
        planFrame(s, { behaviour, nowMs: clock.now(), at: clock.now(), source: 'cluster', scope: { namespace: null, targets: [] }, strictTargets: first }),
      onFrame: (f) => frames.push(f),
      onLog: (e) => logs.push(e),
      onNews: intoLog(logs),
    });
    const started = session.start(new AbortController().signal);
    cl.syncAll();
    const first = await started;
    expect(frames).toEqual([first]);
    expect(first.plan.controllers).toHaveLength(3);
    const planTimes: number[] = [];
    const base = (snap.controllers.ReplicaSet as ReplicaSet[])[1];
    for (let i = 0; i < 100; i++) {
      cl.replicasets.update({ ...base, metadata: { ...base.metadata, resourceVersion: `v${i}` }, spec: { ...base.spec, replicas: 10 + i } });
      const before = frames.length;
      clock.advance(10);
      if (frames.length > before) planTimes.push(clock.now());
    }
    clock.advance(1000);
    expect(session.plans - 1).toBeLessThanOrEqual(11);
    expect(session.plans - 1).toBeGreaterThanOrEqual(5);
    for (const t of planTimes) expect(planTimes.filter((x) => x >= t && x < t + 1000).length).toBeLessThanOrEqual(10);
    expect(frames[frames.length - 1].plan.controllers.find((c) => c.name === 'app-0001')?.replicas.desired).toBe(109);
    expect(logs.filter((l) => l.text.startsWith('rs ns-0/app-0001 scaled'))).toHaveLength(100);

    session.setPaused(true);
    const n = session.plans;
    cl.replicasets.update({ ...base, metadata: { ...base.metadata, resourceVersion: 'p' }, spec: { ...base.spec, replicas: 1 } });
    clock.advance(1000);
    expect(session.plans).toBe(n);
    session.setPaused(false);
    clock.advance(200);
    expect(session.plans).toBe(n + 1);
    expect(frames[frames.length - 1].plan.controllers.find((c) => c.name === 'app-0001')?.replicas.desired).toBe(1);
  });

  it('backs off when planning takes longer than the interval', async () => {
    const cl = fakeCluster(syntheticSnapshot(1, 1, 1));
    const clock = new FakeClock(0);
    const session = new WatchSession({
      source: informerSource(cl, { run: false }),
      clock,
      plan: (s) => {
        const f = frameOf(s);
        clock.advance(300); // a slow plan
        return f;
      },
      onFrame: () => {},
      onLog: () => {},
      onNews: () => {},
    });
    const started = session.start(new AbortController().signal);
    cl.syncAll();
    await started;
    expect(session.interval).toBe(100);
    cl.pods.add({ ...cl.pods.cache.list()[0], metadata: { ...cl.pods.cache.list()[0].metadata, name: 'other', uid: 'o' } });
    expect(session.interval).toBe(600);
    await flush();
  });

  it('a static source plans once and logs what it holds', async () => {
    const frames: PlanFrame[] = [];
    const logs: LogEntry[] = [];
    const clock = new FakeClock(NOW_MS);
    const session = new WatchSession({
      source: staticSource(await loadExamples('invalid-selector')),
      clock,
      plan: (s, first) => planFrame(s, { behaviour, nowMs: NOW_MS, at: NOW_MS, source: 'file', scope: { namespace: null, targets: [] }, strictTargets: first }),
      onFrame: (f) => frames.push(f),
      onLog: (e) => logs.push(e),
      onNews: intoLog(logs),
    });
    await session.start(new AbortController().signal);
    clock.advance(10_000);
    expect(frames).toHaveLength(1);
    expect(logs.map((l) => l.text)).toEqual([
      'snapshot: 2 controllers in scope, 3 pods (static: no updates)',
      expect.stringMatching(/^ReplicaSet web\/broken: invalid selector/),
    ]);
    expect(logs[1].level).toBe('warn');
  });
});

describe('an hour of changes (fake clock)', () => {
  it('keeps memory flat: caches, plans, the log and the dashboard state hold only the present', async () => {
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const { WatchStore } = await import('../../../src/ui/store.js');
    const { initialState } = await import('../../../src/ui/state.js');

    const snap = syntheticSnapshot(20, 5, 2);
    const cl = fakeCluster(snap);
    const clock = new FakeClock(NOW_MS);
    const store = new WatchStore(initialState({ context: 'soak', scope: 'all namespaces', mode: 'read-only' }, { columns: 120, rows: 40 }, NOW_MS), clock);
    const session = new WatchSession({
      source: informerSource(cl, { run: true }),
      clock,
      plan: (s, first) =>
        planFrame(s, { behaviour, nowMs: clock.now(), at: clock.now(), source: 'cluster', scope: { namespace: null, targets: [] }, strictTargets: first }),
      onFrame: (frame) => store.dispatch({ type: 'snapshotChanged', frame }),
      onLog: (entry) => store.dispatch({ type: 'log', entry }),
      onNews: (at, news) => {
        const entry = newsEntry(at, news);
        if (entry) store.dispatch({ type: 'log', entry });
      },
    });
    const ac = new AbortController();
    const started = session.start(ac.signal);
    cl.syncAll();
    await started;

    // Every 500 ms a pod changes (restarts, readiness); every 10 s one pod is replaced by a new
    // one with a new name (names, uids and log lines never repeat); every minute a scale.
    let serial = 0;
    const simulate = (minutes: number) => {
      for (let step = 0; step < minutes * 120; step++) {
        serial++;
        const pods = [...cl.pods.items.values()];
        const p = pods[serial % pods.length];
        cl.pods.update({
          ...p,
          metadata: { ...p.metadata, resourceVersion: `r${serial}` },
          status: { ...p.status, containerStatuses: [{ name: 'app', ready: serial % 2 === 0, restartCount: serial }] },
        });
        if (serial % 20 === 0) {
          const old = pods[(serial / 20) % pods.length];
          cl.pods.remove(old);
          const name = `${old.metadata.generateName ?? 'pod-'}s${serial}`;
          cl.pods.add({ ...old, metadata: { ...old.metadata, name, uid: `uid-${serial}`, resourceVersion: `r${serial}` } });
        }
        if (serial % 120 === 0) {
          const rs = [...cl.replicasets.items.values()][serial % 20];
          cl.replicasets.update({ ...rs, metadata: { ...rs.metadata, resourceVersion: `r${serial}` }, spec: { ...rs.spec, replicas: 3 + (serial % 5) } });
        }
        clock.advance(500);
      }
    };
    simulate(10); // warm up: the log ring fills, the JIT settles
    const after10 = heap();
    simulate(50);
    const after60 = heap();
    ac.abort();
    store.dispose();
    expect(store.getState().logSeq).toBeGreaterThan(700); // the log saw the whole hour (adds, deletes, scales)
    expect(store.getState().log.size).toBeLessThanOrEqual(500); // and keeps the newest only
    expect(cl.pods.items.size).toBe(100);
    // anything kept per change would show as megabytes here (the 50 minutes made 30,000 changes)
    expect(after60 - after10).toBeLessThan(2 * 1024 * 1024);
    // 36,000 plans on a fake clock: CPU bound, so a loaded machine needs more than the default limit
  }, 300_000);
});
