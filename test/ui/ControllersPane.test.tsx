import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ControllersPane, compact, controllerColumns, controllerRowSegs, readyBar } from '../../src/ui/ControllersPane.js';
import { plainText } from '../../src/ui/line.js';
import { frameOf, loadExamples, syntheticSnapshot, width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('ControllersPane', () => {
  it('a row per controller: drift marker, kind, name, counts and the ready bar', async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'invalid-selector'));
    const order = [0, 1, 2, 3];
    const { lastFrame } = render(<ControllersPane frame={frame} order={order} top={0} cursor={1} rows={10} width={100} showNamespace filter="" />);
    const out = lines(lastFrame());
    expect(out[0]).toMatch(/K\s+NAME\s+DES\s+CUR\s+RDY\s+AVL\s+ADP\s+REL\s+CRT\s+DEL\s+RDY\/DES/);
    const row = (name: string) => out.find((l) => l.includes(name))!;
    expect(row('search/search-5f7c9')).toMatch(/^ {2}\* rs search\/search-5f7c9\s+3\s+9\s+6\s+6\s+0\s+0\s+0\s+6 █{10}$/);
    expect(row('shop/shop-web')).toMatch(/^> \* rs shop\/shop-web\s+5\s+4\s+4\s+4\s+1\s+1\s+1\s+0 █{8}░{2}$/);
    expect(row('web/broken')).toMatch(/^ {2}! rs web\/broken/);
    expect(row('web/frontend')).toMatch(/^ {4}rs web\/frontend/);
  });

  it('renders only the rows of the window (virtualised)', () => {
    const frame = frameOf(syntheticSnapshot(1000, 1, 1));
    const order = frame.plan.controllers.map((_, i) => i);
    const { lastFrame } = render(<ControllersPane frame={frame} order={order} top={500} cursor={503} rows={8} width={80} showNamespace={false} filter="" />);
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
      const segs = controllerRowSegs(c, controllerColumns(w, { longest: 12, anyClaims: true }), true, true);
      expect(width(plainText(segs))).toBe(w);
    }
    expect(controllerColumns(80)).toEqual({ name: 22, bar: 10, claims: true });
    expect(controllerColumns(120).bar).toBe(20);
    expect(compact(9999)).toBe('9999');
    expect(compact(12_345)).toBe('12k');
    expect(compact(2_500_000)).toBe('2.5M');
    expect(readyBar(3, 4, 8)).toEqual({ filled: '██████', empty: '░░' });
    expect(readyBar(0, 0, 4).filled).toBe('████');
  });

  it('never cuts a name: the bar goes first, then all-zero ADP/REL, and a row still too wide wraps', () => {
    // 30 characters: wider than the 22 a name gets at 80 columns with every column shown
    const name = 'checkout-api-legacy-7f9c6d8b8d';
    expect(controllerColumns(80, { longest: name.length, anyClaims: true })).toEqual({ name: 33, bar: 0, claims: true });
    expect(controllerColumns(80, { longest: 40, anyClaims: false })).toEqual({ name: 43, bar: 0, claims: false });
    expect(controllerColumns(80, { longest: 60, anyClaims: false })).toEqual({ name: 60, bar: 0, claims: false });

    const snap = syntheticSnapshot(3, 2, 1);
    const frame = frameOf(snap);
    const long = 'payments-ledger-reconciliation-worker-canary-5d8f7c9b6a';
    frame.plan.controllers[1] = { ...frame.plan.controllers[1], name: long };
    const order = [0, 1, 2];
    for (const w of [60, 80, 100]) {
      const out = lines(render(<ControllersPane frame={frame} order={order} top={0} cursor={1} rows={10} width={w} showNamespace filter="" />).lastFrame());
      const text = out.join('');
      expect(text).not.toContain('…');
      // the whole name is on screen, maybe across the wrap of its row
      expect(text.replace(/\s+/g, '')).toContain(long);
      for (const l of out) expect(width(l)).toBeLessThanOrEqual(w);
      // the selected (wrapped) row and its neighbours are all drawn
      expect(text).toContain(frame.plan.controllers[0].name);
      expect(text).toContain(frame.plan.controllers[2].name);
      expect(out[0]).not.toMatch(/RDY\/DES|READY\/DESIRED/);
    }
  });

  it('keeps the cursor row whole on screen when rows above it wrap', () => {
    const frame = frameOf(syntheticSnapshot(6, 2, 1));
    for (const [i, c] of frame.plan.controllers.entries()) frame.plan.controllers[i] = { ...c, name: `${c.name}-${'x'.repeat(70)}` };
    const order = frame.plan.controllers.map((_, i) => i);
    // at 80 columns the header and each row take two lines: 7 lines hold the header and two rows
    const out = lines(
      render(<ControllersPane frame={frame} order={order} top={0} cursor={3} rows={7} width={80} showNamespace={false} filter="" />).lastFrame(),
    );
    expect(out).toHaveLength(7);
    expect(out[1]).toMatch(/DES\s+CUR\s+RDY\s+AVL\s+CRT\s+DEL/);
    expect(out[2]).toContain('app-0002');
    expect(out.findIndex((l) => l.startsWith('>'))).toBe(4);
    expect(out.slice(4).join('').replace(/\s+/g, '')).toContain(frame.plan.controllers[3].name);
    expect(out.join('')).not.toContain('app-0001');
  });

  it('empty states: no plan yet, nothing in scope, nothing matches the filter', async () => {
    const none = render(<ControllersPane frame={null} order={[]} top={0} cursor={0} rows={5} width={80} showNamespace={false} filter="" />);
    expect(none.lastFrame()).toContain('waiting for the first snapshot');
    const empty = frameOf({ controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] });
    expect(render(<ControllersPane frame={empty} order={[]} top={0} cursor={0} rows={5} width={80} showNamespace={false} filter="" />).lastFrame()).toContain(
      'No ReplicaSets or ReplicationControllers in scope',
    );
    const frame = frameOf(await loadExamples('drifted-replicaset'));
    expect(
      render(<ControllersPane frame={frame} order={[]} top={0} cursor={0} rows={5} width={80} showNamespace={false} filter="zzz" />).lastFrame(),
    ).toContain('No controller matches "zzz"');
  });
});
