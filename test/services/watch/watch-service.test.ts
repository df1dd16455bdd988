import { describe, expect, it } from 'vitest';
import type { ControllerAPI } from '../../../src/runtime/api.js';
import { ReplicaSetController, type Listers } from '../../../src/controller/controller.js';
import { FakeClock } from '../../../src/runtime/clock.js';
import type { Pod, ReplicaSet, ReplicationController, Snapshot } from '../../../src/core/types.js';
import { UserError } from '../../../src/errors.js';
import { actionText, describeUpdate } from '../../../src/render/watch-log.js';
import { newsEntry } from '../../../src/ui/news.js';
import { expectationsSatisfiedBy, queueInfo, uiLogger } from '../../../src/services/watch/reconcile.js';
import { actionReporter } from '../../../src/services/run-service.js';
import { informerSource, staticSource, type InformerLike, type TombstoneLike } from '../../../src/services/watch/sources.js';
import { planFrame } from '../../../src/services/watch/frame.js';
import { scopePredicate } from '../../../src/services/watch/scope.js';
import { WatchSession } from '../../../src/services/watch/session.js';
import type { LogEntry, PlanFrame, WatchNews } from '../../../src/ui/state.js';
import { behaviour, frameOf, loadExamples, NOW_MS, syntheticSnapshot } from '../../ui/fixtures.js';

/** News as the log pane words it (src/ui/news.ts): level and text, nothing for noise. */
const worded = (push: (level: string, text: string) => void) => (news: WatchNews) => {
  const e = newsEntry(0, news);
  if (e) push(e.level, e.text);
};
/** A session's news into the same list as its log lines, as the dashboard keeps them. */
const intoLog = (logs: LogEntry[]) => (at: number, news: WatchNews) => {
  const e = newsEntry(at, news);
  if (e) logs.push(e);
};

describe('scope and plans', () => {
  it('scopePredicate: namespace, -l on the controllers, names (rs/ and rc/)', async () => {
    const snap = await loadExamples('drifted-replicaset', 'replication-controller', 'deployment-rollout');
    const shown = (scope: Parameters<typeof scopePredicate>[0]) => frameOf(snap, { scope }).plan.controllers.map((c) => `${c.kind}/${c.namespace}/${c.name}`);
    expect(shown({ namespace: null, targets: [] })).toHaveLength(4);
    expect(shown({ namespace: 'legacy', targets: [] })).toEqual(['ReplicationController/legacy/legacy-db']);
    expect(shown({ namespace: null, targets: [{ kind: null, name: 'shop-web' }] })).toEqual(['ReplicaSet/shop/shop-web']);
    expect(shown({ namespace: null, targets: [{ kind: 'ReplicationController', name: 'shop-web' }] })).toEqual([]);
    expect(shown({ namespace: null, selector: 'app=checkout', targets: [] })).toEqual(['ReplicaSet/shop/checkout-6b8d', 'ReplicaSet/shop/checkout-9c2f']);
    expect(() => scopePredicate({ namespace: null, selector: 'app in (', targets: [] })).toThrow(UserError);
  });

  it('planFrame: counts pods in scope, caches explain models, and checks names on the first plan', async () => {
    const snap = await loadExamples('drifted-replicaset', 'scale-down-ranking');
    const frame = planFrame(snap, { behaviour, nowMs: NOW_MS, at: 123, source: 'file', scope: { namespace: 'search', targets: [] } });
    expect(frame.at).toBe(123);
    expect(frame.pods).toBe(9);
    expect(frame.plan.controllers.map((c) => c.name)).toEqual(['search-5f7c9']);
    const c = frame.plan.controllers[0];
    const model = frame.explain(c);
    expect(model?.pods).toHaveLength(9);
    expect(model?.pods.filter((p) => p.deleteIndex !== null)).toHaveLength(6);
    expect(frame.explain(c)).toBe(model);
    expect(frame.explain({ ...c, name: 'nope' })).toBeNull();
    expect(() => planFrame(snap, { behaviour, nowMs: NOW_MS, at: 0, source: 'file', scope: { namespace: null, targets: [{ kind: null, name: 'nope' }] }, strictTargets: true })).toThrow(
      /replicasets.apps "nope" not found in the snapshot/,
    );
  });
});

/** An in-memory informer with the Informer API the dashboard uses. */
class FakeInformer<T extends { metadata: { name: string; namespace?: string; resourceVersion?: string } }> implements InformerLike<T> {
  items = new Map<string, T>();
  handlers: { add?(o: T): void; update?(a: T, b: T): void; delete?(o: T | TombstoneLike<T>): void }[] = [];
  synced = false;
  private waiters: (() => void)[] = [];
  cache = { list: () => [...this.items.values()] };
  addHandlers(h: FakeInformer<T>['handlers'][number]) {
    this.handlers.push(h);
    for (const o of this.items.values()) h.add?.(o);
  }
  async run() {}
  waitForSync() {
    return this.synced ? Promise.resolve() : new Promise<void>((r) => this.waiters.push(r));
  }
  hasSynced() {
    return this.synced;
  }
  sync() {
    this.synced = true;
    for (const w of this.waiters.splice(0)) w();
  }
  key(o: T) {
    return `${o.metadata.namespace}/${o.metadata.name}`;
  }
  add(o: T) {
    this.items.set(this.key(o), o);
    for (const h of this.handlers) h.add?.(o);
  }
  update(o: T) {
    const old = this.items.get(this.key(o))!;
    this.items.set(this.key(o), o);
    for (const h of this.handlers) h.update?.(old, o);
  }
  remove(o: T, tombstone = false) {
    this.items.delete(this.key(o));
    for (const h of this.handlers) h.delete?.(tombstone ? { tombstone: true, key: this.key(o), obj: o } : o);
  }
}

function fakeCluster(snap: Snapshot) {
  const pods = new FakeInformer<Pod>();
  const replicasets = new FakeInformer<ReplicaSet>();
  const replicationcontrollers = new FakeInformer<ReplicationController>();
  for (const p of snap.pods) pods.items.set(pods.key(p), p);
  for (const r of snap.replicaSets) replicasets.items.set(replicasets.key(r), r);
  for (const r of snap.replicationControllers) replicationcontrollers.items.set(replicationcontrollers.key(r), r);
  const syncAll = () => [pods, replicasets, replicationcontrollers].forEach((i) => i.sync());
  return { pods, replicasets, replicationcontrollers, syncAll };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the live source over informers', () => {
  it('marks dirty on every event, logs changes only once synced, ignores resyncs', async () => {
    const snap = syntheticSnapshot(2, 2, 1);
    const cl = fakeCluster(snap);
    const src = informerSource(cl, { run: true });
    let changed = 0;
    const logs: string[] = [];
    const started = src.start({ changed: () => changed++, log: (_l, t) => logs.push(t), news: worded((_l, t) => logs.push(t)) }, new AbortController().signal);
    expect(changed).toBe(6); // the initial adds of the cached objects
    expect(logs).toEqual([]);
    cl.syncAll();
    await started;
    expect(logs).toEqual(['synced: 4 pods, 2 replicasets, 0 replicationcontrollers']);
    const rs = snap.replicaSets[0];
    changed = 0;
    cl.replicasets.update({ ...rs, metadata: { ...rs.metadata, resourceVersion: '9' }, spec: { ...rs.spec, replicas: 5 } });
    cl.replicasets.update(cl.replicasets.items.get('ns-0/app-0000')!); // a resync: same object
    const p = snap.pods[0];
    cl.pods.remove(p, true);
    expect(changed).toBe(2);
    expect(logs.slice(1)).toEqual(['rs ns-0/app-0000 scaled 0→5', 'pod ns-0/app-0000-00000 deleted']);
    expect(src.snapshot().pods).toHaveLength(3);
    expect(src.snapshot().replicaSets.find((r) => r.metadata.name === 'app-0000')?.spec.replicas).toBe(5);
  });

  it('the session re-plans at most every 100 ms from the caches (fake clock), and not while paused', async () => {
    const snap = syntheticSnapshot(3, 2, 1);
    const cl = fakeCluster(snap);
    const clock = new FakeClock(NOW_MS);
    const frames: PlanFrame[] = [];
    const logs: LogEntry[] = [];
    const session = new WatchSession({
      source: informerSource(cl, { run: true }),
      clock,
      plan: (s, first) => planFrame(s, { behaviour, nowMs: clock.now(), at: clock.now(), source: 'cluster', scope: { namespace: null, targets: [] }, strictTargets: first }),
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
    const base = snap.replicaSets[1];
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

describe('reconcile mode: what the controller machinery shows', () => {
  const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };
  // no objects: only the queues and expectations are looked at
  const listers: Listers = {
    pods: { inNamespace: () => [], controlledBy: () => [], orphans: () => [], withLabel: () => [] },
    controllers: { get: () => undefined, inNamespace: () => [], all: () => [], ownedBy: () => [] },
  };
  const api = {} as ControllerAPI;

  it('queueInfo samples the real workqueues and expectations; expectationsSatisfiedBy asks every controller', () => {
    const clock = new FakeClock(NOW_MS);
    const rs = new ReplicaSetController({ kind: 'ReplicaSet', listers, api, behaviour, burstReplicas: 500, clock, log: quiet });
    const rc = new ReplicaSetController({ kind: 'ReplicationController', listers, api, behaviour, burstReplicas: 500, clock, log: quiet });
    rs.queue.add('shop/web');
    rs.queue.add('shop/api');
    rs.queue.addRateLimited('shop/db');
    rs.expectations.expectCreations('shop/web', 3);
    clock.advance(2000);
    rc.expectations.expectDeletions('legacy/db', ['legacy/db-1']);
    const q = queueInfo([rs, rc]);
    expect(q.queues).toEqual([
      { name: 'replicaset', depth: 3, inFlight: 0, retries: 1, adds: 3 }, // the rate-limited add landed after its delay
      { name: 'replicationmanager', depth: 0, inFlight: 0, retries: 0, adds: 0 },
    ]);
    expect(q.expectations).toEqual([
      { kind: 'ReplicationController', key: 'legacy/db', add: 0, del: 1, ageMs: 0 },
      { kind: 'ReplicaSet', key: 'shop/web', add: 3, del: 0, ageMs: 2000 },
    ]);
    const satisfied = expectationsSatisfiedBy([rs, rc]);
    expect(satisfied('shop/web')).toBe(false);
    expect(satisfied('legacy/db')).toBe(false);
    expect(satisfied('shop/other')).toBe(true);
  });

  it('the controller log as log lines (klog -v 0)', () => {
    const lines: string[] = [];
    const log = uiLogger((level, text) => lines.push(`${level} ${text}`));
    log.info('Caches are synced', { controllers: 'ReplicaSet' });
    log.error('informer error', { err: 'boom' });
    log.v(2).info('Finished syncing');
    log.v(0).info('shown');
    expect(lines).toEqual(['info Caches are synced controllers=ReplicaSet', 'error informer error err=boom', 'info shown']);
  });

  it('the controller reports its actions as values: a dashboard that hears them gets no action text in the log', () => {
    const logged: string[] = [];
    const log = uiLogger((level, text) => logged.push(`${level} ${text}`));
    const heard: string[] = [];
    const created = { action: 'create' as const, pod: 'web-1', ok: true };
    const failed = { action: 'delete' as const, pod: 'web-2', ok: false, code: 500, error: 'boom' };
    const toPane = actionReporter({ log, onAction: (kind, key, a) => heard.push(actionText(kind, key, a).text) });
    toPane('ReplicaSet', 'shop/web', created);
    toPane('ReplicaSet', 'shop/web', failed);
    expect(heard).toEqual(['rs shop/web: create pod web-1', 'rs shop/web: delete pod web-2 failed (500): boom']);
    expect(logged).toEqual([]);
    // `run` gives no onAction: its log has every action, as kube-controller-manager's has
    const toLog = actionReporter({ log });
    toLog('ReplicaSet', 'shop/web', created);
    toLog('ReplicaSet', 'shop/web', failed);
    expect(logged).toEqual(['info ReplicaSet shop/web: create pod web-1', 'error ReplicaSet shop/web: delete pod web-2 failed code=500 err=boom']);
  });
});

describe('a status write is logged once', () => {
  it('reconcile mode: the action line only (no informer status line)', async () => {
    const snap = syntheticSnapshot(1, 2, 1);
    const cl = fakeCluster(snap);
    const lines: string[] = [];
    const push = (level: string, text: string) => lines.push(`${level} ${text}`);
    const src = informerSource(cl, { run: false, controllerStatus: false });
    const started = src.start({ changed: () => {}, log: push, news: worded(push) }, new AbortController().signal);
    cl.syncAll();
    await started;
    lines.length = 0;
    // what one status write makes: the action (a value, worded once) and the informer update
    const hear = worded(push);
    hear({ type: 'action', kind: 'ReplicaSet', key: 'ns-0/app-0000', outcome: { action: 'status', ok: true, note: 'replicas 2, ready 2, available 2' } });
    const rs = cl.replicasets.items.get('ns-0/app-0000')!;
    cl.replicasets.update({ ...rs, metadata: { ...rs.metadata, resourceVersion: '99' }, status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 } });
    expect(lines).toEqual(['action rs ns-0/app-0000: update status (replicas 2, ready 2, available 2)']);
    // a failed write is logged once too, and a scale by someone else still is
    lines.length = 0;
    hear({ type: 'action', kind: 'ReplicaSet', key: 'ns-0/app-0000', outcome: { action: 'status', ok: false, code: 409, error: 'conflict' } });
    const rs2 = cl.replicasets.items.get('ns-0/app-0000')!;
    cl.replicasets.update({ ...rs2, metadata: { ...rs2.metadata, resourceVersion: '100' }, spec: { ...rs2.spec, replicas: 4 }, status: { replicas: 4, readyReplicas: 2, availableReplicas: 2 } });
    expect(lines).toEqual(['error rs ns-0/app-0000: update status failed (409): conflict', 'change rs ns-0/app-0000 scaled 0→4']);
  });

  it('read-only: the informer line is the only notice of a status change, and stays', () => {
    const rs = syntheticSnapshot(1, 2, 1).replicaSets[0];
    const after = { ...rs, status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 } };
    expect(describeUpdate('replicasets', rs, after)).toBe('rs ns-0/app-0000 status replicas 1 ready 1 available 1');
    expect(describeUpdate('replicasets', rs, after, { status: false })).toBeNull();
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
      plan: (s, first) => planFrame(s, { behaviour, nowMs: clock.now(), at: clock.now(), source: 'cluster', scope: { namespace: null, targets: [] }, strictTargets: first }),
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
        cl.pods.update({ ...p, metadata: { ...p.metadata, resourceVersion: `r${serial}` }, status: { ...p.status, containerStatuses: [{ name: 'app', ready: serial % 2 === 0, restartCount: serial }] } });
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
  });
});
