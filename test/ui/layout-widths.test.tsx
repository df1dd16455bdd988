// The layout module at 60, 80, 120 and 160 columns: fitTable takes its order's steps one by one
// and cuts only last, fitItems drops the least kept items first, wrapSegs breaks sentences only
// at spaces; and the whole App, in every view, draws no line wider than the terminal.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { App } from '../../src/ui/App.js';
import { helpLines } from '../../src/ui/HelpOverlay.js';
import { fitItems, fitTable, type ColumnSpec } from '../../src/ui/layout.js';
import { plainText, wrapSegs } from '../../src/ui/line.js';
import { logLines } from '../../src/ui/LogPane.js';
import { initialState } from '../../src/ui/state.js';
import type { HistoryRow, WatchMeta } from '../../src/services/watch/contract.js';
import { WatchStore } from '../../src/ui/store.js';
import { frameOf, loadExamples, META, NOW_MS, resize, tick, width } from './fixtures.js';

const WIDTHS = [60, 80, 120, 160];

describe('fitTable', () => {
  const columns: ColumnSpec[] = [
    { id: 'NAME', natural: 30, cut: 10 },
    { id: 'A', natural: 10, narrow: 4 },
    { id: 'B', natural: 10, empty: true },
    { id: 'C', natural: 10 },
  ];
  const order = [{ drop: 'B', ifEmpty: true }, { narrow: 'A' }, { drop: 'C' }];
  const widthsAt = (w: number) => Object.fromEntries(fitTable(columns, order, w, { gap: 1, fixed: 2 }).widths);

  it('takes the steps in order and stops as soon as the row fits; cuts the name last, down to its floor', () => {
    expect(widthsAt(160)).toEqual({ NAME: 30, A: 10, B: 10, C: 10 });
    expect(widthsAt(60)).toEqual({ NAME: 30, A: 10, C: 10 }); // B dropped: it said nothing
    expect(widthsAt(50)).toEqual({ NAME: 30, A: 4, C: 10 }); // then A narrowed
    expect(widthsAt(40)).toEqual({ NAME: 30, A: 4 }); // then C dropped
    expect(widthsAt(25)).toEqual({ NAME: 18, A: 4 }); // only then the name is cut
    expect(widthsAt(10)).toEqual({ NAME: 10, A: 4 }); // never below its floor: the line itself is cut
  });

  it('a column whose cells say something is not dropped by an ifEmpty step', () => {
    const said = columns.map((c) => (c.id === 'B' ? { ...c, empty: false } : c));
    expect(Object.fromEntries(fitTable(said, order, 60, { gap: 1, fixed: 2 }).widths)).toEqual({ NAME: 30, A: 4, B: 10, C: 10 });
    expect(Object.fromEntries(fitTable(said, order, 45, { gap: 1, fixed: 2 }).widths)).toEqual({ NAME: 27, A: 4, B: 10 });
  });
});

describe('fitItems', () => {
  it('drops the least kept items first (the last of equals first), never an item kept always', () => {
    const items = [
      { segs: ['aaaa'], keep: Number.POSITIVE_INFINITY },
      { segs: ['bbbb'], keep: 1 },
      { segs: ['cccc'], keep: 2 },
      { segs: ['dddd'], keep: 1 },
    ];
    const w = (s: string[]) => s.join('').length;
    expect(fitItems(items, 16, w)).toEqual(['aaaa', 'bbbb', 'cccc', 'dddd']);
    expect(fitItems(items, 12, w)).toEqual(['aaaa', 'bbbb', 'cccc']);
    expect(fitItems(items, 8, w)).toEqual(['aaaa', 'cccc']);
    expect(fitItems(items, 2, w)).toEqual(['aaaa']);
  });
});

describe('wrapSegs: sentences at word boundaries', () => {
  const sentence = 'search-5f7c9-cheap has pod-deletion-cost -100, lower than search-5f7c9-fresh (the first pod that stays) with 0';
  it.each(WIDTHS.map((w) => [w / 2, w] as const))('at %i (a pane of half of %i columns) no line is wider and no word is split', (w) => {
    const lines = wrapSegs([{ text: '#4 ', bold: true }, { text: sentence }], w, 3).map(plainText);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(w);
    expect(lines.join(' ').split(/\s+/)).toEqual(`#4 ${sentence}`.split(/\s+/));
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {3}\S/);
  });

  it('only a word longer than a whole line is broken', () => {
    const lines = wrapSegs([{ text: `short ${'x'.repeat(25)} end` }], 10).map(plainText);
    expect(lines).toEqual(['short', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx end']);
  });

  it('the log: whole entries, newest last, each wrapped under its text', () => {
    const entries = [1, 2, 3].map((i) => ({
      at: NOW_MS + i * 1000,
      level: 'action' as const,
      text: `rs shop/web: update status (replicas 3, ready 3, available 3); status write retried after a conflict (409): the ReplicaSet changed since it was read #${i}`,
    }));
    for (const w of WIDTHS) {
      const lines = logLines(entries, 3, w).map(plainText);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines.at(-1)).toMatch(/#3$/);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(w);
      for (const l of lines.slice(1)) expect(l).toMatch(/^(\d\d:\d\d:\d\d | {9}\S)/);
    }
  });

  it('the help: each key, its sentence wrapped under itself', () => {
    for (const w of WIDTHS) {
      const lines = helpLines(w).map(plainText);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(w);
      const words = lines.slice(1).join(' ').split(/\s+/);
      expect(words).toContain('timeline');
      expect(words).toContain('(history');
    }
  });
});

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const historyRow = (i: number): HistoryRow => ({
  at: NOW_MS + i * 1000,
  who: RS_USER,
  controller: true,
  verb: 'delete',
  pod: `search-5f7c9-crowd${i}`,
  reason: 'OwnedMatching',
  predicted: true,
  message: `deleted pod search-5f7c9-crowd${i}`,
  event: {
    time: new Date(NOW_MS + i * 1000).toISOString(),
    actor: { user: RS_USER, controller: true },
    verb: 'delete',
    controller: { kind: 'ReplicaSet', namespace: 'search', name: 'search-5f7c9' },
    pod: `search-5f7c9-crowd${i}`,
    reason: 'OwnedMatching',
    message: `deleted pod search-5f7c9-crowd${i}`,
    predicted: true,
    cause: null,
  },
});

describe.each(WIDTHS)('the App at %i × 24', (columns) => {
  async function mount(meta: WatchMeta = META) {
    const size = { columns, rows: 24 };
    const store = new WatchStore(initialState(meta, size, NOW_MS), new FakeClock(NOW_MS), 0);
    const frame = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'overlapping-selectors', 'orphans-and-released'));
    store.dispatch({ type: 'snapshotChanged', frame });
    const r = render(<App store={store} color={false} />);
    resize(r.stdout, columns, 24);
    cleanups.push(() => r.unmount());
    const press = async (...keys: string[]) => {
      for (const k of keys) {
        r.stdin.write(k);
        await tick();
        await tick();
      }
    };
    return { store, press, screen: () => r.lastFrame() ?? '' };
  }
  const fits = (s: string) => {
    const lines = s.split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(width(l), l).toBeLessThanOrEqual(columns);
    return lines;
  };

  it('list: one line per controller', async () => {
    const app = await mount();
    const lines = fits(app.screen());
    const head = lines.findIndex((l) => /^ {4}K {2}NAME/.test(l));
    const rows = lines.slice(head + 1).filter((l) => /^[> ] [ *~!] rs /.test(l));
    expect(rows.length).toBe(app.store.getState().order.length);
    // nothing between the rows that is not a row: none continued on the next line
    expect(lines.slice(head + 1, head + 1 + rows.length)).toEqual(rows);
  });

  it('detail, help and history: every line fits, pod rows are one line each', async () => {
    const app = await mount();
    const search = app.store.getState().order.findIndex((i) => app.store.getState().frame?.plan.controllers[i].name === 'search-5f7c9');
    for (let i = 0; i < search; i++) await app.press('j');
    await app.press('\r');
    let lines = fits(app.screen());
    const head = lines.findIndex((l) => /^ {2}NAME +DECISION +REASON/.test(l));
    expect(head).toBeGreaterThan(0);
    const pods = lines.slice(
      head + 1,
      lines.findIndex((l) => l.startsWith('── Deletion order')),
    );
    expect(pods.length).toBeGreaterThan(0);
    for (const l of pods) expect(l).toMatch(/^[> ] search-5f7c9-\S+ +(keep|delete) +OwnedMatching/);
    await app.press('h');
    for (let i = 1; i <= 4; i++) app.store.dispatch({ type: 'history', key: app.store.getState().selectedKey!, row: historyRow(i) });
    await tick();
    lines = fits(app.screen());
    const history = lines.slice(lines.findIndex((l) => l.startsWith('── History')) + 1, -1);
    expect(history.length).toBeGreaterThan(0);
    for (const l of history)
      if (columns >= 80) expect(l).toMatch(/^(\d\d:\d\d:\d\d )?replicaset-controller +delete +search-5f7c9-crowd\d +OwnedMatching +yes$/);
      // at 60 nothing else is left to give way: who and the pod are cut (the pod in the middle)
      else expect(l).toMatch(/^replicaset-\S*… +delete +search-\S*…\S* +OwnedMatching +yes$/);
    await app.press('?');
    fits(app.screen());
    expect(app.screen()).toContain('── Help');
  });

  it('reconcile mode: the queue pane and a long action line fit', async () => {
    const app = await mount({ ...META, mode: 'reconcile' });
    app.store.dispatch({
      type: 'queue',
      queue: {
        queues: [
          { name: 'replicaset', depth: 3, inFlight: 1, retries: 2, adds: 40 },
          { name: 'replicationmanager', depth: 0, inFlight: 0, retries: 0, adds: 0 },
        ],
        expectations: [{ kind: 'ReplicaSet', key: 'shop/shop-web', add: 1, del: 0, ageMs: 2000 }],
      },
    });
    app.store.dispatch({
      type: 'log',
      entry: {
        at: NOW_MS,
        level: 'action',
        text: 'rs shop/shop-web: update status (replicas 5, ready 4, available 4); status write retried after a conflict (409): the ReplicaSet changed since it was read',
      },
    });
    await tick();
    const lines = fits(app.screen());
    expect(lines.some((l) => l.startsWith('── Controller'))).toBe(true);
    expect(app.screen()).toMatch(/depth 3/);
  });
});

describe('the help at 60 columns and wider', () => {
  it.each(WIDTHS)('%i: every sentence starts in the same column, two spaces after the longest key', (w) => {
    const lines = helpLines(w).map(plainText).slice(1);
    // the longest key is "PgUp PgDn  g G" (14): the sentences start at 2 + 14 + 2
    expect(lines.find((l) => l.startsWith('  PgUp PgDn  g G'))).toMatch(/^ {2}PgUp PgDn {2}g G {2}page, first, last$/);
    for (const l of lines) if (l.trim() !== '') expect(l, l).toMatch(/^.{17} \S/);
  });
});
