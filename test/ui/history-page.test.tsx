// `w` in the history pane: the selected controller's kept writes (explained live by LiveHistory)
// written as history -o html's timeline page, its path said in the pane's title and the log.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import { changeLine } from '../../src/history/recording.js';
import { headerLine } from '../../src/history/recording-header.js';
import type { ReconcileHistory } from '../../src/history/types.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { historyPageScript } from '../../src/services/history-page.js';
import { LiveHistory, liveHistoryDocument } from '../../src/services/watch/live-history.js';
import { HistoryPane } from '../../src/ui/HistoryPane.js';
import { historyPageName, writeHistoryPage } from '../../src/ui/history-page.js';
import { HISTORY_CAPACITY, historyRows } from '../../src/ui/state.js';
import type { HistoryRow } from '../../src/services/watch/contract.js';
import { apply, behaviour, frameOf, key, loadExamples, NOW_MS, stateWith } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-history-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('w in the history pane', () => {
  it("asks for the selected controller's page only where the pane shows it, once per press", async () => {
    const s0 = stateWith(frameOf(await loadExamples('drifted-replicaset')));
    expect(apply(s0, key('w'))).toBe(s0); // the log is shown: w is nothing there
    const pane = apply(s0, key('h'));
    const asked = apply(pane, key('w'));
    expect(asked.pageRequest).toEqual({ key: s0.selectedKey, seq: 1 });
    expect(asked.historyNote).toBe('writing the timeline page…');
    expect(apply(asked, key('w')).pageRequest?.seq).toBe(2);
    const done = apply(asked, { type: 'historyPage', level: 'info', text: 'page written: /tmp/x.html' });
    expect(done.historyNote).toBe('page written: /tmp/x.html');
    expect(done.log.last(1)[0]).toMatchObject({ level: 'info', text: 'page written: /tmp/x.html' });
  });

  it('the pane says the key, and where the page went', () => {
    expect(render(<HistoryPane title="rs shop/web" rows={[]} total={0} height={3} width={100} paused={false} />).lastFrame()).toContain(
      'w: timeline page · h: log',
    );
    const after =
      render(<HistoryPane title="rs shop/web" rows={[]} total={0} height={3} width={100} paused={false} note="page written: /tmp/x.html" />).lastFrame() ?? '';
    expect(after.split('\n')[0]).toMatch(/^── History rs shop\/web · page written: \/tmp\/x\.html · h: log ─+$/);
  });

  it('names the file after the controller and the time, in UTC', () => {
    expect(historyPageName('ReplicaSet/shop/web', Date.parse('2026-11-27T10:45:03.250Z'))).toBe('history-rs-shop-web-20261127T104503Z.html');
    expect(historyPageName('ReplicationController/a b/c', 0)).toBe('history-rc-a_b-c-19700101T000000Z.html');
  });

  it('writes the page of the writes LiveHistory explained, with what the session did not keep', async () => {
    const clock = new FakeClock(NOW_MS);
    const rows: [string, HistoryRow][] = [];
    const live = new LiveHistory(behaviour, clock, (k, r) => rows.push([k, r]));
    const labels = { app: 'web' };
    const rs = (replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web',
        namespace: 'shop',
        uid: 'rs-1',
        generation: replicas,
        resourceVersion: String(replicas),
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      status: { replicas: 1 },
    });
    const t = () => new Date(clock.now()).toISOString();
    live.push(headerLine(t(), 'shop', 'test'));
    live.push(changeLine('ADDED', 'replicasets', rs(1), t(), true));
    clock.advance(1000);
    live.push(changeLine('MODIFIED', 'replicasets', rs(2), t(), false, rs(1)));
    expect(rows.length).toBeGreaterThan(0);
    const [k] = rows[0];
    const file = await writeHistoryPage(
      { feed: { historyDocument: liveHistoryDocument(behaviour) }, pageScript: historyPageScript, dir, kept: HISTORY_CAPACITY },
      k,
      rows.map(([, r]) => r),
      clock.now(),
    );
    expect(file).toBe(join(dir, historyPageName(k, clock.now())));
    const html = readFileSync(file, 'utf8');
    const doc = JSON.parse(/<script type="application\/json" id="history-document">([\s\S]*?)<\/script>/.exec(html)![1]) as ReconcileHistory;
    expect(doc.events).toEqual(rows.map(([, r]) => JSON.parse(JSON.stringify(r.event))));
    expect(doc).toMatchObject({
      kind: 'ReconcileHistory',
      source: 'recording',
      kubernetesVersion: behaviour.version,
      coverage: { format: 'recording', missing: [expect.stringContaining('before the watch started'), expect.stringContaining(`last ${HISTORY_CAPACITY}`)] },
    });
    // the page's own script is inlined: the same page history -o html writes
    expect(html).toContain((await historyPageScript()).slice(0, 200));
    expect(historyRows(apply(stateWith(null), { type: 'history', key: k, row: rows[0][1] }), 5)).toHaveLength(0); // no controller selected: nothing shown
  });
});
