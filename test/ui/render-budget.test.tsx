// Rendering budget: coalesced renders under a fake clock, and what a frame with 10k pods costs
// (times are logged, not asserted: they depend on the machine).
// @ts-expect-error: a plain ES module of the bench, without types
import { measureWatchRender, watchRenderLines } from '../../bench/watch-render.mjs';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { initialState } from '../../src/ui/state.js';
import type { PlanFrame } from '../../src/services/watch/contract.js';
import { WatchStore } from '../../src/ui/store.js';
import { frameOf, META, NOW_MS, syntheticSnapshot, tick } from './fixtures.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function mountApp(store: WatchStore, onCommit: () => void) {
  const r = render(<App store={store} color={false} onCommit={onCommit} />);
  cleanups.push(() => r.unmount());
  return r;
}

describe('render coalescing (fake clock)', () => {
  it('100 plan changes in 1 s → at most 10 renders, the last plan on screen', async () => {
    const clock = new FakeClock(NOW_MS);
    const store = new WatchStore(initialState(META, { columns: 100, rows: 30 }, NOW_MS), clock);
    const snapshot = syntheticSnapshot(20, 2, 1);
    const frames: PlanFrame[] = [];
    for (let i = 0; i < 100; i++) {
      // each change scales one ReplicaSet: every plan differs
      const rs = snapshot.controllers.ReplicaSet.map((r, j) => (j === i % 20 ? { ...r, spec: { ...r.spec, replicas: 2 + i } } : r));
      frames.push(frameOf({ ...snapshot, controllers: { ...snapshot.controllers, ReplicaSet: rs } }));
    }
    const commitTimes: number[] = [];
    const r = mountApp(store, () => commitTimes.push(clock.now()));
    await tick();
    const mounted = commitTimes.length;
    const start = clock.now();
    for (let i = 0; i < 100; i++) {
      store.dispatch({ type: 'snapshotChanged', frame: frames[i] });
      await tick(); // let React commit whatever was published
      clock.advance(10);
    }
    const renders = commitTimes.slice(mounted);
    const inTheSecond = renders.filter((t) => t < start + 1000).length;
    clock.advance(500);
    await tick();
    expect(inTheSecond).toBeGreaterThanOrEqual(5);
    expect(inTheSecond).toBeLessThanOrEqual(10);
    for (const t of renders) expect(renders.filter((x) => x >= t && x < t + 1000).length).toBeLessThanOrEqual(10);
    expect(store.publishes).toBeLessThanOrEqual(11);
    // the newest plan is on screen: app-0019 was scaled to 2 + 99
    expect(store.getSnapshot().frame).toBe(frames[99]);
    expect(r.lastFrame()).toMatch(/app-0019\s+101\s+2/);
  });

  it('keys are coalesced the same way, and the last key press always shows', () => {
    const clock = new FakeClock(NOW_MS);
    const store = new WatchStore(initialState(META, { columns: 100, rows: 30 }, NOW_MS), clock);
    store.dispatch({ type: 'snapshotChanged', frame: frameOf(syntheticSnapshot(200, 1, 1)) });
    clock.advance(1000);
    const before = store.publishes;
    for (let i = 0; i < 50; i++) {
      store.dispatch({ type: 'key', key: { input: 'j' } });
      clock.advance(5);
    }
    expect(store.publishes - before).toBeLessThanOrEqual(3);
    clock.advance(100);
    expect(store.getSnapshot().cursor).toBe(50);
  });
});

describe('an idle live dashboard (fake clock)', () => {
  it('10 minutes of 1 s ticks and no change: redrawn when the age shown changes (69 times), not every second', async () => {
    const clock = new FakeClock(NOW_MS);
    const live = { ...META, mode: 'read-only' as const };
    const store = new WatchStore(initialState(live, { columns: 100, rows: 30 }, NOW_MS), clock);
    store.dispatch({ type: 'snapshotChanged', frame: frameOf(syntheticSnapshot(20, 2, 1)) });
    let commits = 0;
    const r = mountApp(store, () => commits++);
    clock.advance(100);
    await tick();
    const before = { commits, publishes: store.publishes };
    for (let t = 1; t <= 600; t++) {
      clock.advance(900); // + 100 below: one tick a second
      store.dispatch({ type: 'tick', now: clock.now() }); // what runDashboard's timer does
      store.dispatch({ type: 'queue', queue: { queues: [{ name: 'replicaset', depth: 0, inFlight: 0, retries: 0, adds: 7 }], expectations: [] } });
      clock.advance(100);
      await tick();
    }
    // 1s…59s ago, then 1m…10m ago, and the first queue sample (the same sample again is no change)
    expect(store.publishes - before.publishes).toBe(59 + 10 + 1);
    expect(commits - before.commits).toBeLessThanOrEqual(59 + 10 + 1); // at most one React commit per publish
    expect(r.lastFrame()).toContain('(10m ago)');
  });
});

describe('10k pods', () => {
  it('re-plan and render in production mode (times logged, not asserted); only the visible rows are drawn', async () => {
    // React's production build, as the CLI runs it (bench/watch-render.mjs: the same run as `npm run bench`)
    const run = await measureWatchRender();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const m = run.metrics as Record<string, any>;
    expect(m.nodeEnv).toBe('production');
    expect(m.pods).toBe(10_000);
    // what was on screen: the header counts, a window of the 200 controllers, the detail views
    expect(m.listScreen).toContain('controllers 200');
    expect(m.listScreen).toContain('pods 10000');
    const rows = (m.listScreen as string).split('\n').filter((l) => / rs ns-\d\/app-\d{4}/.test(l));
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.length).toBeLessThan(40);
    expect((m.listScreen as string).split('\n').length).toBeLessThanOrEqual(40);
    expect(m.detailScreen).toMatch(/ReplicaSet ns-\d\/app-\d{4}/);
    expect(m.bigScreen).toContain('ReplicaSet ns-0/app-0000');
    expect(m.bigScreen).toContain('current 10000');
    console.log(['watch: render times with 10k pods, 120x40, React production build (median, max)', ...watchRenderLines(m)].join('\n'));
  });
});
