import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { App } from '../../src/ui/App.js';
import { initialState } from '../../src/ui/state.js';
import type { PlanFrame, WatchMeta } from '../../src/services/watch/contract.js';
import { WatchStore } from '../../src/ui/store.js';
import { frameOf, loadExamples, META, NOW_MS, resize, syntheticSnapshot, tick, width } from './fixtures.js';

const ESC = '\x1b';
const DOWN = '\x1b[B';
const UP = '\x1b[A';
const ENTER = '\r';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** An App over a store published at once (interval 0), on a terminal of the given size. */
function mount(frame: PlanFrame | null, size = { columns: 100, rows: 30 }, meta: WatchMeta = META, onQuit?: () => void) {
  const clock = new FakeClock(NOW_MS);
  const store = new WatchStore(initialState(meta, size, NOW_MS), clock, 0);
  if (frame) store.dispatch({ type: 'snapshotChanged', frame });
  const r = render(<App store={store} color={false} onQuit={onQuit} />);
  resize(r.stdout, size.columns, size.rows);
  cleanups.push(() => r.unmount());
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      r.stdin.write(k);
      await tick(); // ink flushes a lone Esc on the next turn
      await tick();
    }
  };
  const screen = () => r.lastFrame() ?? '';
  return { ...r, store, clock, press, screen };
}

function checkFits(screen: string, columns: number, rows: number) {
  const lines = screen.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows);
  for (const l of lines) expect(width(l)).toBeLessThanOrEqual(columns);
}

describe('App', () => {
  it('renders header, the controllers, the log and the keys', async () => {
    const app = mount(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    const s = app.screen();
    expect(s).toContain('rs-reconcile watch');
    expect(s).toContain('controllers 4  drifted 4  pods 20');
    expect(s).toMatch(/> \* rs search\/search-5f7c9/);
    expect(s).toContain('── Log');
    expect(s).toContain('j/k move · Enter open');
    checkFits(s, 100, 30);
  });

  it('keys: move (j/k and arrows), open (Enter), back (Esc)', async () => {
    const app = mount(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    await app.press('j');
    expect(app.screen()).toMatch(/> \* rs shop\/checkout-6b8d/);
    await app.press(DOWN, DOWN);
    expect(app.screen()).toMatch(/> \* rs shop\/shop-web/);
    await app.press('k', UP);
    expect(app.screen()).toMatch(/> \* rs shop\/checkout-6b8d/);
    await app.press(ENTER);
    expect(app.screen()).toContain('ReplicaSet shop/checkout-6b8d');
    expect(app.screen()).toContain('Deletion order (2 of 4 go)');
    expect(app.screen()).toContain('j/k pod · Esc back');
    await app.press('j');
    expect(app.screen()).toMatch(/> checkout-6b8d-\w+/);
    await app.press(ESC);
    expect(app.screen()).not.toContain('Deletion order');
    expect(app.screen()).toMatch(/> \* rs shop\/checkout-6b8d/);
  });

  it('several keys in one read (fast typing, tmux send-keys) are several keys', async () => {
    const app = mount(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    await app.press('jj');
    expect(app.screen()).toMatch(/> \* rs shop\/checkout-9c2f/);
    await app.press('/shop\r');
    expect(app.screen()).toContain('filter "shop"');
  });

  it('filter: / then typing narrows the list, Enter keeps it, Esc clears it', async () => {
    const app = mount(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'deployment-rollout')));
    await app.press('/', 'c', 'h', 'e');
    let s = app.screen();
    expect(s).toMatch(/^\/che_/m);
    expect(s).toContain('controllers 4 (2 shown)');
    expect(s).not.toContain('search/search-5f7c9');
    expect(s).toContain('shop/checkout-9c2f');
    await app.press(ENTER);
    s = app.screen();
    expect(s).toContain('filter "che"');
    await app.press(ESC);
    s = app.screen();
    expect(s).not.toContain('filter "che"');
    expect(s).toContain('search/search-5f7c9');
  });

  it('sort: s cycles name → drift first → desired, shown in the header', async () => {
    const app = mount(frameOf(await loadExamples('invalid-selector', 'drifted-replicaset', 'scale-down-ranking')));
    const rowsOf = () =>
      app
        .screen()
        .split('\n')
        .filter((l) => / r[sc] /.test(l))
        .map((l) =>
          l
            .trim()
            .split(/\s+/)
            .find((w) => w.includes('/')),
        );
    expect(rowsOf()).toEqual(['search/search-5f7c9', 'shop/shop-web', 'web/broken', 'web/frontend']);
    await app.press('s');
    expect(app.screen()).toContain('sort drift first');
    await app.press('s');
    expect(app.screen()).toContain('sort desired');
    expect(rowsOf()).toEqual(['shop/shop-web', 'search/search-5f7c9', 'web/broken', 'web/frontend']);
  });

  it('pause: p freezes the screen (PAUSED) and shows the newest plan on resume', async () => {
    const one = frameOf(await loadExamples('drifted-replicaset'));
    const two = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking'));
    const app = mount(one);
    await app.press('p');
    expect(app.screen()).toMatch(/^ PAUSED /);
    app.store.dispatch({ type: 'snapshotChanged', frame: two });
    await tick();
    expect(app.screen()).toContain('PAUSED (1 update waiting)');
    expect(app.screen()).not.toContain('search-5f7c9');
    await app.press('p');
    expect(app.screen()).not.toContain('PAUSED');
    expect(app.screen()).toContain('search-5f7c9');
  });

  it('help: ? shows the keys, Esc closes it', async () => {
    const app = mount(frameOf(await loadExamples('drifted-replicaset')));
    await app.press('?');
    expect(app.screen()).toContain('── Help');
    expect(app.screen()).toContain('cycle the sort');
    await app.press(ESC);
    expect(app.screen()).not.toContain('── Help');
  });

  it('quit: q calls onQuit and unmounts; so does Ctrl-C', async () => {
    for (const k of ['q', '\x03']) {
      let quits = 0;
      const app = mount(frameOf(await loadExamples('drifted-replicaset')), undefined, META, () => quits++);
      await app.press(k);
      expect(quits).toBe(1);
      expect(app.store.getState().quit).toBe(true);
    }
  });

  it('resizes with the terminal: 80x24 and 120x40, nothing overflows, the layout fits', async () => {
    const app = mount(frameOf(syntheticSnapshot(300, 2, 3)), { columns: 120, rows: 40 });
    checkFits(app.screen(), 120, 40);
    expect(app.screen().split('\n').length).toBe(39);
    resize(app.stdout, 80, 24);
    await tick();
    let s = app.screen();
    checkFits(s, 80, 24);
    expect(s.split('\n').length).toBe(23);
    expect(app.store.getState().size).toEqual({ columns: 80, rows: 24 });
    await app.press(ENTER);
    s = app.screen();
    expect(s).toContain('ReplicaSet ns-0/app-0000');
    checkFits(s, 80, 24);
    await app.press('?');
    checkFits(app.screen(), 80, 24);
    await app.press(ESC, ESC, '/', 'a', 'p', 'p');
    checkFits(app.screen(), 80, 24);
    resize(app.stdout, 120, 40);
    await tick();
    checkFits(app.screen(), 120, 40);
    expect(app.screen().split('\n').length).toBe(39);
  });

  it('reconcile mode: the queue pane fits too', async () => {
    const meta: WatchMeta = { context: 'dev', scope: 'namespace shop', mode: 'reconcile' };
    const app = mount(frameOf(await loadExamples('drifted-replicaset')), { columns: 80, rows: 24 }, meta);
    app.store.dispatch({
      type: 'queue',
      queue: {
        queues: [{ name: 'replicaset', depth: 1, inFlight: 1, retries: 0, adds: 3 }],
        expectations: [{ kind: 'ReplicaSet', key: 'shop/shop-web', add: 1, del: 0, ageMs: 1000 }],
      },
    });
    app.store.dispatch({ type: 'log', entry: { at: NOW_MS, level: 'action', text: 'rs shop/shop-web: create pod shop-web-abcde' } });
    await tick();
    const s = app.screen();
    expect(s).toContain('mode reconcile');
    expect(s).toContain('rs depth 1 in flight 1 retries 0');
    expect(s).toContain('expectations pending (1): rs/shop/shop-web +1/-0');
    expect(s).toContain('rs shop/shop-web: create pod shop-web-abcde');
    checkFits(s, 80, 24);
  });

  it('colours on a colour terminal, none at all when colour is off (NO_COLOR)', async () => {
    const level = chalk.level;
    chalk.level = 1; // as on a terminal: ink colours through the default chalk instance
    try {
      const frame = frameOf(await loadExamples('drifted-replicaset'));
      const colourStore = new WatchStore(initialState(META, { columns: 100, rows: 30 }, NOW_MS), new FakeClock(NOW_MS), 0);
      colourStore.dispatch({ type: 'snapshotChanged', frame });
      const coloured = render(<App store={colourStore} color />);
      cleanups.push(() => coloured.unmount());
      const plain = mount(frame);
      // eslint-disable-next-line no-control-regex
      expect(plain.screen()).not.toMatch(/\x1b\[(3\d|9\d|4\d)m/);
      expect(plain.screen()).toContain('shop/shop-web');
      // eslint-disable-next-line no-control-regex
      expect(coloured.lastFrame()).toMatch(/\x1b\[3\dm/);
    } finally {
      chalk.level = level;
    }
  });
});
