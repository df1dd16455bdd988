import { describe, expect, it } from 'vitest';
import { computeLayout, detailLayout, listRows } from '../../src/ui/layout.js';
import { entryKey } from '../../src/core/plan-compare.js';
import { agoText, orderControllers, reduce, selectedController, visibleControllers } from '../../src/ui/state.js';
import type { LogEntry } from '../../src/services/watch/contract.js';
import { apply, frameOf, key, loadExamples, META, NOW_MS, stateWith, syntheticSnapshot } from './fixtures.js';

const LIVE = { ...META, mode: 'read-only' as const };

const names = (s: ReturnType<typeof stateWith>) => s.order.map((i) => s.frame!.plan.controllers[i].name);

describe('watch state: the reducer', () => {
  it('shows the first plan, sorted by namespace/name, with the cursor on the first controller', async () => {
    const s = stateWith(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    expect(names(s)).toEqual(['search-5f7c9', 'checkout-6b8d', 'checkout-9c2f', 'shop-web']);
    expect(s.cursor).toBe(0);
    expect(s.selectedKey).toBe('ReplicaSet/search/search-5f7c9');
    expect(selectedController(s)?.name).toBe('search-5f7c9');
  });

  it('moves with arrows and j/k, clamped at both ends, and pages', async () => {
    let s = stateWith(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    s = apply(s, key('j'), key('', { downArrow: true }));
    expect(s.cursor).toBe(2);
    s = apply(s, key('j'), key('j'), key('j'));
    expect(s.cursor).toBe(3);
    s = apply(s, key('k'), key('', { upArrow: true }), key('k'), key('k'));
    expect(s.cursor).toBe(0);
    s = apply(s, key('G'));
    expect(s.cursor).toBe(3);
    s = apply(s, key('g'));
    expect(s.cursor).toBe(0);
    s = apply(s, key('', { pageDown: true }));
    expect(s.cursor).toBe(3);
  });

  it('Enter opens the detail of the selected controller, j/k move the pod cursor there, Esc goes back', async () => {
    let s = stateWith(frameOf(await loadExamples('scale-down-ranking', 'drifted-replicaset')));
    s = apply(s, key('', { return: true }));
    expect(s.view).toBe('detail');
    expect(s.selectedPod).toBe('search-5f7c9-cheap');
    s = apply(s, key('j'), key('j'));
    expect(s.podCursor).toBe(2);
    expect(s.selectedPod).toBe('search-5f7c9-crowd2');
    expect(s.cursor).toBe(0); // the controller cursor did not move
    s = apply(s, key('G'));
    expect(s.selectedPod).toBe('search-5f7c9-unsched');
    s = apply(s, key('', { escape: true, meta: true })); // ink reports Esc with meta
    expect(s.view).toBe('list');
  });

  it('filters by namespace/name substring while typing; Enter keeps it, Esc clears it', async () => {
    let s = stateWith(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    s = apply(s, key('/'));
    expect(s.filtering).toBe(true);
    s = apply(s, key('c'), key('h'), key('e'));
    expect(names(s)).toEqual(['checkout-6b8d', 'checkout-9c2f']);
    s = apply(s, key('', { backspace: true }), key('', { backspace: true }), key('', { backspace: true }), key('s'), key('e'), key('a'));
    expect(names(s)).toEqual(['search-5f7c9']); // namespace "search" matches too
    s = apply(s, key('', { backspace: true }), key('', { backspace: true }), key('', { backspace: true }), key('s'), key('h'), key('o'), key('p'), key('/'));
    expect(s.filter).toBe('shop/');
    expect(names(s)).toEqual(['checkout-6b8d', 'checkout-9c2f', 'shop-web']);
    s = apply(s, key('', { return: true }));
    expect(s.filtering).toBe(false);
    expect(s.filter).toBe('shop/');
    s = apply(s, key('j')); // keys work again once the filter is kept
    expect(selectedController(s)?.name).toBe('checkout-9c2f');
    s = apply(s, key('', { escape: true, meta: true }));
    expect(s.filter).toBe('');
    expect(names(s)).toHaveLength(4);
    expect(selectedController(s)?.name).toBe('checkout-9c2f'); // the selection survives the filter change
    s = apply(s, key('/'), key('z'), key('z'), key('', { escape: true, meta: true }));
    expect(s.filtering).toBe(false);
    expect(s.filter).toBe('');
  });

  it('s cycles the sort: name, drift first, desired', async () => {
    let s = stateWith(frameOf(await loadExamples('invalid-selector', 'drifted-replicaset', 'scale-down-ranking')));
    expect(names(s)).toEqual(['search-5f7c9', 'shop-web', 'broken', 'frontend']);
    s = apply(s, key('s'));
    expect(s.sort).toBe('drift');
    expect(names(s)).toEqual(['search-5f7c9', 'shop-web', 'broken', 'frontend']); // drifted, skipped, in sync
    s = apply(s, key('s'));
    expect(s.sort).toBe('desired');
    expect(names(s)).toEqual(['shop-web', 'search-5f7c9', 'broken', 'frontend']); // 5, 3, 2, 2
    s = apply(s, key('s'));
    expect(s.sort).toBe('name');
  });

  it('drift-first puts drifted controllers before in-sync ones', () => {
    const frame = frameOf(syntheticSnapshot(30, 3, 1));
    const order = orderControllers(frame.plan.controllers, '', 'drift');
    const drifted = order.map((i) => !frame.plan.controllers[i].inSync);
    const firstInSync = drifted.indexOf(false);
    expect(firstInSync).toBeGreaterThan(0);
    expect(drifted.slice(firstInSync).every((d) => !d)).toBe(true);
  });

  it('p pauses: new plans and log lines are held (PAUSED) and shown on resume', async () => {
    const a = frameOf(await loadExamples('drifted-replicaset'));
    const b = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking'));
    let s = apply(stateWith(a), key('p'));
    expect(s.paused).toBe(true);
    const entry: LogEntry = { at: NOW_MS, level: 'change', text: 'rs shop/web scaled 3→5' };
    s = apply(s, { type: 'snapshotChanged', frame: b }, { type: 'log', entry });
    expect(s.frame).toBe(a);
    expect(s.waiting).toBe(1);
    expect(s.log.toArray()).toEqual([]);
    s = apply(s, key('p'));
    expect(s.paused).toBe(false);
    expect(s.frame).toBe(b);
    expect(s.waiting).toBe(0);
    expect(s.log.toArray()).toEqual([entry]);
  });

  it('? opens help, Esc or ? closes it; q and Ctrl-C quit', async () => {
    const s = stateWith(frameOf(await loadExamples('drifted-replicaset')));
    const h = apply(s, key('?'));
    expect(h.help).toBe(true);
    expect(apply(h, key('j')).help).toBe(true);
    expect(apply(h, key('?')).help).toBe(false);
    expect(apply(h, key('', { escape: true, meta: true })).help).toBe(false);
    expect(apply(s, key('q')).quit).toBe(true);
    expect(apply(s, key('c', { ctrl: true })).quit).toBe(true);
    expect(apply(s, key('/'), key('q')).quit).toBe(false); // typing a filter
    expect(apply(s, key('/'), key('c', { ctrl: true })).quit).toBe(true);
  });

  it('keeps the selected controller across re-plans, even when it moves in the order', () => {
    const big = syntheticSnapshot(50, 2, 1);
    let s = apply(stateWith(frameOf(big)), key('j'), key('j'), key('j'));
    expect(s.selectedKey).toBe('ReplicaSet/ns-0/app-0003');
    const fewer = {
      ...big,
      controllers: {
        ...big.controllers,
        ReplicaSet: big.controllers.ReplicaSet.filter((r) => r.metadata.name !== 'app-0000' && r.metadata.name !== 'app-0001'),
      },
    };
    s = reduce(s, { type: 'snapshotChanged', frame: frameOf(fewer) });
    expect(selectedController(s)?.name).toBe('app-0003');
    expect(s.cursor).toBe(1);
    const gone = { ...fewer, controllers: { ...fewer.controllers, ReplicaSet: fewer.controllers.ReplicaSet.filter((r) => r.metadata.name !== 'app-0003') } };
    s = reduce(s, { type: 'snapshotChanged', frame: frameOf(gone) });
    expect(selectedController(s)?.name).toBe('app-0004'); // same position when it is gone
  });

  it('virtualises: only the rows in the window are visible, and the window follows the cursor', () => {
    let s = stateWith(frameOf(syntheticSnapshot(1000, 1, 1)), { columns: 80, rows: 24 });
    const rows = listRows(computeLayout(s.size, s.meta.mode));
    expect(visibleControllers(s)).toHaveLength(rows);
    s = apply(s, key('G'));
    expect(s.cursor).toBe(999);
    expect(s.top).toBe(1000 - rows);
    const vis = visibleControllers(s);
    expect(vis).toHaveLength(rows);
    expect(vis[vis.length - 1].controller.name).toBe('app-0999');
    s = apply(s, key('', { pageUp: true }));
    expect(s.cursor).toBe(999 - rows);
    expect(s.top).toBe(999 - rows);
  });

  it('a resize keeps the cursor on screen', () => {
    let s = stateWith(frameOf(syntheticSnapshot(200, 1, 1)), { columns: 120, rows: 40 });
    s = apply(s, key('', { pageDown: true }), key('', { pageDown: true }));
    const cursor = s.cursor;
    s = reduce(s, { type: 'resize', size: { columns: 80, rows: 24 } });
    const rows = listRows(computeLayout(s.size, s.meta.mode));
    expect(s.cursor).toBe(cursor);
    expect(s.cursor).toBeGreaterThanOrEqual(s.top);
    expect(s.cursor).toBeLessThan(s.top + rows);
    expect(reduce(s, { type: 'resize', size: { columns: 80, rows: 24 } })).toBe(s);
  });

  it('in the detail view the pod window follows the pod cursor', () => {
    let s = stateWith(frameOf(syntheticSnapshot(1, 300, 1)), { columns: 80, rows: 24 });
    s = apply(s, key('', { return: true }), key('G'));
    const c = selectedController(s)!;
    const podRows = detailLayout(computeLayout(s.size, s.meta.mode).main, c.delete.length).pods;
    expect(s.podCursor).toBe(299);
    expect(s.podTop).toBe(300 - podRows);
  });

  it('tick, log and queue actions', () => {
    let s = stateWith(frameOf(syntheticSnapshot(1, 1, 1)), undefined, LIVE);
    s = reduce(s, { type: 'tick', now: NOW_MS + 5000 });
    expect(s.now).toBe(NOW_MS + 5000);
    expect(reduce(s, { type: 'tick', now: NOW_MS + 5000 })).toBe(s);
    s = reduce(s, { type: 'log', entry: { at: NOW_MS, level: 'action', text: 'rs shop/web: create pod web-1' } });
    expect(s.logSeq).toBe(1);
    expect(s.actions.toArray().map((e) => e.text)).toEqual(['rs shop/web: create pod web-1']);
    s = reduce(s, { type: 'queue', queue: { queues: [{ name: 'replicaset', depth: 2, inFlight: 1, retries: 0, adds: 9 }], expectations: [] } });
    expect(s.queue?.queues[0].depth).toBe(2);
    // the same sample again (an idle controller) is no change, so no redraw
    expect(reduce(s, { type: 'queue', queue: { queues: [{ name: 'replicaset', depth: 2, inFlight: 1, retries: 0, adds: 9 }], expectations: [] } })).toBe(s);
    const pending = (ageMs: number) => ({ queues: s.queue!.queues, expectations: [{ kind: 'ReplicaSet' as const, key: 'shop/web', add: 2, del: 0, ageMs }] });
    s = reduce(s, { type: 'queue', queue: pending(1000) });
    expect(reduce(s, { type: 'queue', queue: pending(1400) })).toBe(s); // "1s" either way
    expect(reduce(s, { type: 'queue', queue: pending(2000) }).queue?.expectations[0].ageMs).toBe(2000);
    expect(entryKey({ kind: 'ReplicaSet', namespace: 'a', name: 'b' })).toBe('ReplicaSet/a/b');
    expect(META.mode).toBe('snapshot');
  });
});

describe('the clock: the state changes only when the age on screen does', () => {
  it('an idle live dashboard changes each second for the first minute, then once a minute', () => {
    let s = stateWith(frameOf(syntheticSnapshot(3, 2, 1)), undefined, LIVE);
    const ages = new Set<string>();
    let changes = 0;
    for (let t = 1; t <= 600; t++) {
      const next = reduce(s, { type: 'tick', now: NOW_MS + t * 1000 });
      if (next !== s) changes++;
      s = next;
      ages.add(agoText(s.now - NOW_MS));
    }
    expect(changes).toBe(59 + 10); // 1s…59s ago, then 1m…10m ago (was 600: one per tick)
    expect(ages.size).toBe(changes);
    expect(agoText(s.now - NOW_MS)).toBe('10m ago');
    // a new plan starts the count again; a stale clock never shows a negative age
    s = reduce(s, { type: 'snapshotChanged', frame: frameOf(syntheticSnapshot(3, 2, 1), { at: NOW_MS + 700_000 }) });
    expect(agoText(s.now - s.frame!.at)).toBe('0s ago');
    expect(reduce(s, { type: 'tick', now: NOW_MS + 700_999 })).toBe(s);
    expect(agoText(reduce(s, { type: 'tick', now: NOW_MS + 701_000 }).now - s.frame!.at)).toBe('1s ago');
  });

  it('a snapshot (-f) or no plan yet: ticks change nothing', () => {
    const snap = stateWith(frameOf(syntheticSnapshot(1, 1, 1)));
    expect(reduce(snap, { type: 'tick', now: NOW_MS + 5000 })).toBe(snap);
    const none = stateWith(null, undefined, LIVE);
    expect(reduce(none, { type: 'tick', now: NOW_MS + 5000 })).toBe(none);
  });

  it('agoText: seconds for a minute, then minutes, hours, days', () => {
    expect([0, 999, 59_999, 60_000, 3_599_999, 3_600_000, 86_400_000 * 2, -5].map(agoText)).toEqual([
      '0s ago',
      '0s ago',
      '59s ago',
      '1m ago',
      '59m ago',
      '1h ago',
      '2d ago',
      '0s ago',
    ]);
  });
});
