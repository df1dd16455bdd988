// The history pane: its model (rows per controller, a redraw only when the shown controller gets
// one), its rendering, the App with `h`, and the live feed that explains the informers' changes.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLine } from '../../src/history/recording.js';
import { headerLine } from '../../src/history/recording-header.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { LiveHistory } from '../../src/services/watch/live-history.js';
import { App } from '../../src/ui/App.js';
import { HistoryPane, shortWho } from '../../src/ui/HistoryPane.js';
import { HISTORY_CAPACITY, historyRows, initialState } from '../../src/ui/state.js';
import type { HistoryRow } from '../../src/services/watch/contract.js';
import { WatchStore } from '../../src/ui/store.js';
import { apply, behaviour, frameOf, key, loadExamples, META, NOW_MS, resize, stateWith, tick, width } from './fixtures.js';

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const row = (i: number, o: Partial<HistoryRow> = {}): HistoryRow => ({
  at: NOW_MS + i * 1000,
  who: RS_USER,
  controller: true,
  verb: 'delete',
  pod: `web-${i}`,
  reason: 'NotReady',
  predicted: true,
  message: `deleted pod web-${i}`,
  event: {
    time: new Date(NOW_MS + i * 1000).toISOString(),
    actor: { user: RS_USER, controller: true },
    verb: 'delete',
    controller: { kind: 'ReplicaSet', namespace: 'shop', name: 'web' },
    pod: `web-${i}`,
    reason: 'NotReady',
    message: `deleted pod web-${i}`,
    predicted: true,
    cause: null,
  },
  ...o,
});

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

describe('the history pane model', () => {
  it('h toggles it; rows are kept per controller, the newest HISTORY_CAPACITY of each', async () => {
    const s0 = stateWith(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking')));
    const selected = s0.selectedKey!;
    expect(s0.historyPane).toBe(false);
    const shown = apply(s0, key('h'));
    expect(shown.historyPane).toBe(true);
    expect(apply(shown, key('h')).historyPane).toBe(false);
    let s = shown;
    for (let i = 0; i < HISTORY_CAPACITY + 5; i++) s = apply(s, { type: 'history', key: selected, row: row(i) });
    s = apply(s, { type: 'history', key: 'ReplicaSet/other/x', row: row(999) });
    expect(historyRows(s, 3).map((r) => r.pod)).toEqual([`web-${HISTORY_CAPACITY + 2}`, `web-${HISTORY_CAPACITY + 3}`, `web-${HISTORY_CAPACITY + 4}`]);
    expect(historyRows(s, 1000)).toHaveLength(HISTORY_CAPACITY);
  });

  it('a row is a redraw (a new state) only when the pane shows its controller, unpaused', async () => {
    const s0 = stateWith(frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking')));
    const selected = s0.selectedKey!;
    // hidden pane: kept, no redraw
    expect(apply(s0, { type: 'history', key: selected, row: row(1) })).toBe(s0);
    const shown = apply(s0, key('h'));
    // another controller: kept, no redraw
    expect(apply(shown, { type: 'history', key: 'ReplicaSet/other/x', row: row(2) })).toBe(shown);
    const next = apply(shown, { type: 'history', key: selected, row: row(3) });
    expect(next).not.toBe(shown);
    expect(next.historySeq).toBe(shown.historySeq + 1);
    // the rows seen while hidden are there when it opens
    expect(historyRows(next, 10).map((r) => r.pod)).toEqual(['web-1', 'web-3']);
    // paused: the screen stays as it is; the row is kept on resume
    const paused = apply(next, key('p'));
    expect(apply(paused, { type: 'history', key: selected, row: row(4) })).toBe(paused);
    expect(historyRows(paused, 10).map((r) => r.pod)).toEqual(['web-1', 'web-3']);
    const resumed = apply(paused, key('p'));
    expect(historyRows(resumed, 10).map((r) => r.pod)).toEqual(['web-1', 'web-3', 'web-4']);
  });
});

describe('HistoryPane', () => {
  it('time, who (service accounts shortened), verb, pod, reason, predicted; the newest at the bottom', () => {
    const rows = [
      row(1),
      row(2, { who: 'kubectl', controller: false, verb: 'scale', pod: null, reason: null, predicted: null }),
      row(3, { predicted: false, reason: null }),
    ];
    const { lastFrame } = render(<HistoryPane title="rs shop/web" rows={rows} total={3} height={4} width={100} paused={false} />);
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/^── History rs shop\/web · who verb pod reason predicted · w: timeline page · h: log ─+$/);
    expect(lines.slice(1)).toEqual([
      '00:00:01 replicaset-controller delete web-1 NotReady yes',
      '00:00:02 kubectl               scale  -     -        -',
      '00:00:03 replicaset-controller delete web-3 -        NO',
    ]);
    expect(shortWho('system:serviceaccount:kube-system:replication-controller')).toBe('replication-controller');
  });

  it('empty, no controller, paused, and cut to the width', () => {
    expect(render(<HistoryPane title="rs shop/web" rows={[]} total={0} height={3} width={100} paused />).lastFrame()).toMatch(
      /History[\s\S]*\(paused\)[\s\S]*no write seen since the watch started/,
    );
    const narrow =
      render(<HistoryPane title="rs shop/web" rows={[row(1, { pod: 'p'.repeat(200) })]} total={1} height={2} width={60} paused={false} />).lastFrame() ?? '';
    for (const l of narrow.split('\n')) expect(width(l)).toBeLessThanOrEqual(60);
  });
});

describe('App with the history pane', () => {
  it("h shows the selected controller's history in place of the log, and back", async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset'));
    const clock = new FakeClock(NOW_MS);
    const store = new WatchStore(initialState(META, { columns: 100, rows: 30 }, NOW_MS), clock, 0);
    store.dispatch({ type: 'snapshotChanged', frame });
    const r = render(<App store={store} color={false} />);
    resize(r.stdout, 100, 30);
    cleanups.push(() => r.unmount());
    const selected = store.getState().selectedKey!;
    store.dispatch({ type: 'history', key: selected, row: row(7, { pod: 'shop-web-x', reason: 'Unscheduled' }) });
    await tick();
    expect(r.lastFrame()).toContain('── Log');
    expect(r.lastFrame()).toContain('h history');
    r.stdin.write('h');
    await tick();
    await tick();
    const s = r.lastFrame() ?? '';
    expect(s).not.toContain('── Log');
    expect(s).toMatch(/── History rs shop\/shop-web/);
    expect(s).toMatch(/00:00:07 replicaset-controller delete\s+shop-web-x Unscheduled yes/);
    r.stdin.write('h');
    await tick();
    await tick();
    expect(r.lastFrame()).toContain('── Log');
  });
});

describe("LiveHistory: the informers' changes explained as they come", () => {
  const labels = { app: 'web' };
  const rs = (replicas: number, managedFields?: unknown[]) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'rs-1',
      generation: replicas,
      resourceVersion: String(replicas),
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(managedFields ? { managedFields } : {}),
    },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    status: { replicas: 1 },
  });
  const pod = (name: string, managedFields?: unknown[]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      uid: `u-${name}`,
      labels,
      creationTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true }],
      ...(managedFields ? { managedFields } : {}),
    },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });

  it('a controller create is a predicted row of its controller; a delete without Event goes on tick as <unknown user>', () => {
    const clock = new FakeClock(NOW_MS);
    const rows: [string, HistoryRow][] = [];
    const live = new LiveHistory(behaviour, clock, (k, r) => rows.push([k, r]));
    const t = () => new Date(clock.now()).toISOString();
    live.push(headerLine(t(), 'shop', 'test'));
    live.push(changeLine('ADDED', 'replicasets', rs(1), t(), true));
    clock.advance(1000);
    const kcm = [{ manager: 'kube-controller-manager', operation: 'Update', time: '2026-01-01T00:00:01Z', fieldsV1: {} }];
    live.push(changeLine('MODIFIED', 'replicasets', rs(2), t(), false, rs(1)));
    live.push(changeLine('ADDED', 'pods', pod('web-b', kcm), t(), false));
    expect(rows.map(([k, r]) => [k, r.who, r.verb, r.pod, r.reason, r.predicted])).toEqual([
      ['ReplicaSet/shop/web', '<unknown user>', 'update', null, null, null],
      ['ReplicaSet/shop/web', RS_USER, 'create', 'web-b', 'TooFewReplicas', true],
    ]);
    live.push(changeLine('DELETED', 'pods', pod('web-b'), t(), false));
    expect(rows).toHaveLength(2); // waits for the controller's Event
    clock.advance(31_000);
    live.tick();
    expect(rows[2][1]).toMatchObject({ who: '<unknown user>', verb: 'delete', pod: 'web-b', predicted: null });
  });
});
