import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { controllerRows } from './fixtures.js';
import { ControllersPane, compact, controllerColumns, controllerRowSegs, readyBar } from '../../src/ui/ControllersPane.js';
import { plainText } from '../../src/ui/line.js';
import { frameOf, loadExamples, resize, syntheticSnapshot, width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('ControllersPane', () => {
  it('a row per controller: drift marker, kind, name, counts and the ready bar', async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'invalid-selector'));
    const order = [0, 1, 2, 3];
    const { lastFrame } = render(
      <ControllersPane frame={frame} rows={controllerRows(order)} top={0} cursor={1} height={10} width={100} showNamespace filter="" />,
    );
    const out = lines(lastFrame());
    expect(out[0]).toMatch(/K\s+NAME\s+DES\s+CUR\s+RDY\s+AVL\s+ADP\s+REL\s+CRT\s+DEL\s+READY\/DESIRED/);
    const row = (name: string) => out.find((l) => l.includes(name))!;
    expect(row('search/search-5f7c9')).toMatch(/^ {2}\* rs search\/search-5f7c9\s+3\s+9\s+6\s+6\s+0\s+0\s+0\s+6 █{20}$/);
    expect(row('shop/shop-web')).toMatch(/^> \* rs shop\/shop-web\s+5\s+4\s+4\s+4\s+1\s+1\s+1\s+0 █{16}░{4}$/);
    expect(row('web/broken')).toMatch(/^ {2}! rs web\/broken/);
    expect(row('web/frontend')).toMatch(/^ {4}rs web\/frontend/);
  });

  it('renders only the rows of the window (virtualised)', () => {
    const frame = frameOf(syntheticSnapshot(1000, 1, 1));
    const order = frame.plan.controllers.map((_, i) => i);
    const { lastFrame } = render(
      <ControllersPane frame={frame} rows={controllerRows(order)} top={500} cursor={503} height={8} width={80} showNamespace={false} filter="" />,
    );
    const out = lines(lastFrame());
    expect(out).toHaveLength(8);
    expect(out[1]).toContain('app-0500');
    expect(out[7]).toContain('app-0506');
    expect(out.find((l) => l.startsWith('>'))).toContain('app-0503');
    expect(lastFrame()).not.toContain('app-0499');
    expect(lastFrame()).not.toContain('app-0507');
    for (const l of out) expect(width(l)).toBeLessThanOrEqual(80);
  });

  it('fits 64, 80, 120 and 200 columns exactly when the names fit', () => {
    const c = frameOf(syntheticSnapshot(1, 12_345, 1)).plan.controllers[0];
    for (const w of [64, 80, 120, 200]) {
      const segs = controllerRowSegs(c, controllerColumns(w, { longest: 12, anyClaims: true, widestCount: 3 }), true, true);
      expect(width(plainText(segs))).toBe(w);
    }
    expect(controllerColumns(80, { longest: 22, anyClaims: true, widestCount: 4 })).toMatchObject({ name: 22, bar: 10 });
    expect(controllerColumns(120, { longest: 22, anyClaims: true, widestCount: 4 }).bar).toBe(20);
    expect(compact(9999)).toBe('9999');
    expect(compact(12_345)).toBe('12k');
    expect(compact(2_500_000)).toBe('2.5M');
    expect(readyBar(3, 4, 8)).toEqual({ filled: '██████', empty: '░░' });
    expect(readyBar(0, 0, 4).filled).toBe('████');
  });

  it('in the stated order (LIST_ORDER): the counts narrow, the bar halves and goes, all-zero ADP/REL go, then AVL, RDY; the name is cut last', () => {
    const ids = (w: number, longest: number, anyClaims = true) => {
      const cols = controllerColumns(w, { longest, anyClaims, widestCount: 1 });
      return { name: cols.name, numbers: [...cols.numbers.keys()].join(' '), widths: [...new Set(cols.numbers.values())], bar: cols.bar };
    };
    // 160 columns: everything at its natural width, the name fills the rest
    expect(ids(160, 30)).toEqual({ name: 160 - 7 - 40 - 21, numbers: 'DES CUR RDY AVL ADP REL CRT DEL', widths: [4], bar: 20 });
    // 80: the counts narrow to 3 and the bar halves
    expect(ids(80, 30)).toEqual({ name: 30, numbers: 'DES CUR RDY AVL ADP REL CRT DEL', widths: [3], bar: 10 });
    // 60 with a 30-character name: the bar goes, then AVL
    // 60 with a 30-character name: the bar goes, then AVL, RDY and REL
    expect(ids(60, 30)).toEqual({ name: 60 - 7 - 20, numbers: 'DES CUR ADP CRT DEL', widths: [3], bar: 0 });
    // no claims in the frame: ADP and REL go before AVL, and RDY can stay
    expect(ids(60, 30, false)).toEqual({ name: 60 - 7 - 20, numbers: 'DES CUR RDY CRT DEL', widths: [3], bar: 0 });
    // a name that cannot fit whole even with DES, CRT and DEL alone: cut to what is left
    expect(ids(60, 80)).toEqual({ name: 60 - 7 - 12, numbers: 'DES CRT DEL', widths: [3], bar: 0 });
  });

  it('at 60, 80, 120 and 160 columns every row is one line no wider than the screen; a name too long is cut with … only when nothing else is left', () => {
    const snap = syntheticSnapshot(3, 2, 1);
    const frame = frameOf(snap);
    const long = 'payments-ledger-reconciliation-worker-canary-5d8f7c9b6a';
    frame.plan.controllers[1] = { ...frame.plan.controllers[1], name: long };
    const order = [0, 1, 2];
    for (const w of [60, 80, 120, 160]) {
      const r = render(<ControllersPane frame={frame} rows={controllerRows(order)} top={0} cursor={1} height={10} width={w} showNamespace filter="" />);
      resize(r.stdout, w, 40);
      const out = lines(r.lastFrame());
      for (const l of out) expect(width(l)).toBeLessThanOrEqual(w);
      // the column header, then one line per controller, each with its kind and counts
      expect(out[0]).toMatch(/^ {4}K {2}NAME +DES/);
      expect(out.slice(1, 4).map((l) => /^[> ] [ *~!] rs \S+ +\d+( +\d+)+/.test(l))).toEqual([true, true, true]);
      expect(out.slice(4).every((l) => l.trim() === '')).toBe(true);
      const row = out[2];
      if (w >= 80) expect(row).toContain(long);
      else expect(row).toMatch(/payments-ledger-reconcil\S*…/);
    }
  });

  it('empty states: no plan yet, nothing in scope, nothing matches the filter', async () => {
    const none = render(<ControllersPane frame={null} rows={controllerRows([])} top={0} cursor={0} height={5} width={80} showNamespace={false} filter="" />);
    expect(none.lastFrame()).toContain('waiting for the first snapshot');
    const empty = frameOf({ controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] });
    expect(
      render(<ControllersPane frame={empty} rows={controllerRows([])} top={0} cursor={0} height={5} width={80} showNamespace={false} filter="" />).lastFrame(),
    ).toContain('No Deployments, ReplicaSets or ReplicationControllers in scope');
    const frame = frameOf(await loadExamples('drifted-replicaset'));
    expect(
      render(
        <ControllersPane frame={frame} rows={controllerRows([])} top={0} cursor={0} height={5} width={80} showNamespace={false} filter="zzz" />,
      ).lastFrame(),
    ).toContain('No controller matches "zzz"');
  });
});
