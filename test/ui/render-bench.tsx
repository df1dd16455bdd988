// The 10k-pod render measurement, run by render-budget.test.tsx in a child process with
// NODE_ENV=production (React's production build, as the CLI runs it). Bundled with esbuild from
// the sources, so it always measures the current code. Prints one JSON object.

import { render } from 'ink-testing-library';
import { FakeClock } from '../../src/runtime/clock.js';
import { App } from '../../src/ui/App.js';
import { initialState } from '../../src/ui/state.js';
import type { PlanFrame } from '../../src/services/watch/contract.js';
import { WatchStore } from '../../src/ui/store.js';
import { frameOf, META, NOW_MS, resize, syntheticSnapshot, tick } from './fixtures.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);

async function main() {
  const snapshot = syntheticSnapshot(200, 50, 8); // 10,000 pods
  const plans: number[] = [];
  const frames: PlanFrame[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    frames.push(frameOf(snapshot, { at: NOW_MS + i * 1000 }));
    plans.push(performance.now() - t);
  }
  const clock = new FakeClock(NOW_MS);
  const store = new WatchStore(initialState({ ...META, scope: 'all namespaces' }, { columns: 120, rows: 40 }, NOW_MS), clock, 0);
  let commitAt = 0;
  const r = render(<App store={store} color={false} onCommit={() => (commitAt = performance.now())} />);
  resize(r.stdout, 120, 40);
  await tick();
  const timeIt = async (fn: () => void) => {
    const s = performance.now();
    fn();
    await tick();
    return commitAt - s;
  };
  const list: number[] = [];
  for (let i = 0; i < 15; i++) list.push(await timeIt(() => store.dispatch({ type: 'snapshotChanged', frame: frames[i % frames.length] })));
  const listScreen = r.lastFrame() ?? '';
  const moves: number[] = [];
  for (let i = 0; i < 15; i++) moves.push(await timeIt(() => r.stdin.write('j')));
  const open = await timeIt(() => r.stdin.write('\r'));
  const detailScreen = r.lastFrame() ?? '';
  const detailMoves: number[] = [];
  for (let i = 0; i < 15; i++) detailMoves.push(await timeIt(() => r.stdin.write('j')));

  // one ReplicaSet owning all 10k pods, its detail view open
  const one = syntheticSnapshot(1, 10_000, 1);
  const t = performance.now();
  const big = frameOf(one);
  const planOne = performance.now() - t;
  await timeIt(() => r.stdin.write('\x1b'));
  await tick();
  const bigOpen = await timeIt(() => {
    store.dispatch({ type: 'snapshotChanged', frame: big });
    r.stdin.write('\r');
  });
  const bigScreen = r.lastFrame() ?? '';
  const bigMoves: number[] = [];
  for (let i = 0; i < 15; i++) bigMoves.push(await timeIt(() => r.stdin.write('j')));
  // as for the list: each new plan is made first (planOne times one), then its frame is dispatched
  const nexts = Array.from({ length: 7 }, (_, i) => frameOf(one, { at: NOW_MS + 1 + i }));
  const bigReplans: number[] = [];
  for (const next of nexts) bigReplans.push(await timeIt(() => store.dispatch({ type: 'snapshotChanged', frame: next })));
  r.unmount();
  process.stdout.write(
    JSON.stringify({
      nodeEnv: process.env.NODE_ENV,
      pods: snapshot.pods.length,
      plan: { median: median(plans), max: max(plans) },
      list: { median: median(list), max: max(list) },
      move: { median: median(moves), max: max(moves) },
      open,
      detailMove: { median: median(detailMoves), max: max(detailMoves) },
      planOne,
      bigOpen,
      bigMove: { median: median(bigMoves), max: max(bigMoves) },
      bigReplanRender: { median: median(bigReplans), max: max(bigReplans) },
      listScreen,
      detailScreen,
      bigScreen,
    }) + '\n',
  );
}

await main();
