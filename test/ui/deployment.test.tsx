// A Deployment on the dashboard: its decision made once per plan (frame.deployments), its row and
// its ReplicaSets' rows in the list, its detail, the plain stream's line, and every line no wider
// than the terminal at 60, 80, 120 and 160 columns.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { App } from '../../src/ui/App.js';
import { WatchStore } from '../../src/ui/store.js';
import type { Deployment, Snapshot } from '../../src/core/types.js';
import { ControllersPane } from '../../src/ui/ControllersPane.js';
import { DeploymentPane, replicaSetTable, stepSentences } from '../../src/ui/DeploymentPane.js';
import { nextStep, sizesText } from '../../src/ui/deployment-words.js';
import { deploymentDetailLayout } from '../../src/ui/layout.js';
import { plainDeploymentLine, PlainStream } from '../../src/ui/plain.js';
import { initialState, selectedController, selectedDeployment } from '../../src/ui/state.js';
import { apply, frameOf, key, loadExamples, META, NOW, NOW_MS, resize, stateWith, tick, width } from './fixtures.js';

const WIDTHS = [60, 80, 120, 160];
const lines = (frame: string | undefined) => (frame ?? '').split('\n');
const SCALE_OLD = 'scale web-5f6b4c8d9 3 → 2: maxUnavailable 25% of 4 = 1 (rounded down), so at least 3 available';

async function midRollout(edit?: (d: Deployment) => void): Promise<Snapshot> {
  const snap = await loadExamples('deployment-midrollout');
  if (edit) for (const d of snap.deployments ?? []) edit(d);
  return snap;
}

describe('the frame: one decision per Deployment in scope', () => {
  it('the mid-rollout Deployment: the old ReplicaSet scaled 3 → 2, the new one first, each with its sizes', async () => {
    const f = frameOf(await midRollout());
    expect(f.deployments).toHaveLength(1);
    const v = f.deployments![0];
    expect(v.decision.actions).toEqual([expect.objectContaining({ verb: 'scale', replicaSet: 'web-5f6b4c8d9', from: 3, to: 2 })]);
    expect(v.replicaSets.map((rs) => [rs.name, rs.role, rs.revision, rs.images, sizesText(rs)])).toEqual([
      ['web-7d9c5b6f4', 'new', '2', ['nginx:1.27'], '2/2'],
      ['web-5f6b4c8d9', 'old', '1', ['nginx:1.26'], '3/3 → 2'],
    ]);
    expect(v.arithmetic.slice(0, 3)).toEqual([
      'maxSurge 25% of 4 = 1 (rounded up)',
      'maxUnavailable 25% of 4 = 1 (rounded down)',
      'so at most 5 pods, at least 3 available',
    ]);
    expect(nextStep(v)).toEqual({ text: expect.stringContaining(SCALE_OLD), tone: 'acts' });
  });

  it('scope: another namespace, a -l that does not match, or rs/NAME targets show no Deployment; deploy/web does', async () => {
    const snap = await midRollout();
    expect(frameOf(snap, { scope: { namespace: 'other' } }).deployments).toEqual([]);
    expect(frameOf(snap, { scope: { selector: 'app=api' } }).deployments).toEqual([]);
    expect(frameOf(snap, { scope: { targets: [{ kind: 'ReplicaSet', name: 'web-5f6b4c8d9' }] } }).deployments).toEqual([]);
    expect(frameOf(snap, { scope: { targets: [{ kind: 'Deployment', name: 'web' }] } }).deployments).toHaveLength(1);
    expect(frameOf({ ...snap, deployments: null }).deployments).toBeNull();
  });

  it('the next step in words: paused, progress deadline exceeded, in sync', async () => {
    const paused = frameOf(await midRollout((d) => (d.spec.paused = true))).deployments![0];
    expect(nextStep(paused).text.startsWith('paused')).toBe(true);
    expect(stepSentences(paused)[0]).toMatch(/^paused: the rollout waits/);
    // the Progressing condition last moved an hour before now, with a 600 s deadline: the sync says it timed out
    const late = frameOf(
      await midRollout((d) => {
        for (const c of d.status?.conditions ?? []) if (c.type === 'Progressing') c.lastUpdateTime = '2025-12-31T23:00:00Z';
      }),
    ).deployments![0];
    expect(late.deadlineExceeded).toBe(true);
    expect(nextStep(late)).toEqual({ text: expect.stringMatching(/^progress deadline exceeded/), tone: 'stuck' });
    const rest = frameOf(await loadExamples('deployment-at-rest')).deployments![0];
    expect(nextStep(rest)).toEqual({ text: 'in sync', tone: 'in-sync' });
  });
});

describe('the list: a Deployment row with its ReplicaSets under it, then the controllers', () => {
  it('rows, Enter on the Deployment opens its detail, on a ReplicaSet its own; the cursor stays on its row across plans', async () => {
    const snap = await midRollout();
    const s0 = stateWith(frameOf(snap));
    expect(s0.rows.map((r) => r.type)).toEqual(['deployment', 'replicaSet', 'replicaSet', 'controller', 'controller']);
    expect(selectedDeployment(s0)?.decision.name).toBe('web');
    expect(selectedController(s0)).toBeNull();
    const detail = apply(s0, key('', { return: true }));
    expect(detail.view).toBe('detail');
    expect(apply(detail, key('', { escape: true })).view).toBe('list');
    // the old ReplicaSet's row (third): Enter opens that ReplicaSet's pods
    const onOld = apply(s0, key('j'), key('j'));
    expect(selectedController(onOld)?.name).toBe('web-5f6b4c8d9');
    expect(onOld.selectedKey).toBe('ReplicaSet/shop/web-5f6b4c8d9');
    expect(apply(onOld, key('', { return: true })).view).toBe('detail');
    // a new plan keeps the cursor on that row
    const again = apply(onOld, { type: 'snapshotChanged', frame: frameOf(snap, { at: Date.parse(NOW) + 1000 }) });
    expect(again.cursor).toBe(2);
    // the filter finds the Deployment by a ReplicaSet's name too
    const filtered = apply(s0, key('/'), ...[...'7d9c5'].map((c) => key(c)));
    expect(filtered.rows.map((r) => r.type)).toEqual(['deployment', 'replicaSet', 'replicaSet', 'controller']);
  });

  for (const w of WIDTHS) {
    it(`at ${w} columns: one line each, no wider than the screen; name, sizes and the step's start stay`, async () => {
      const s = stateWith(frameOf(await midRollout()), { columns: w, rows: 30 });
      const r = render(<ControllersPane frame={s.frame} rows={s.rows} top={0} cursor={0} height={8} width={w} showNamespace={false} filter="" />);
      resize(r.stdout, w, 40);
      const out = lines(r.lastFrame());
      for (const l of out) expect(width(l)).toBeLessThanOrEqual(w);
      expect(out[1]).toMatch(/^> \* deploy\/web {2}/);
      expect(out[1]).toContain('scale web-5f6b');
      expect(out[2]).toMatch(/^ {4}├ web-7d9c5b6f4 {2}2\/2/);
      expect(out[3]).toMatch(/^ {4}└ web-5f6b4c8d9 {2}3\/3 → 2/);
      // the strategy goes first, then the available count, then the updated one (DEPLOYMENT_ROW_KEEP)
      if (w >= 120) expect(out[1]).toMatch(/deploy\/web {2}2\/4 updated {2}4 available {2}RollingUpdate {2}scale/);
      if (w === 60) expect(out[1]).not.toContain('RollingUpdate');
      if (w >= 160) {
        expect(out[1]).toContain(SCALE_OLD);
        expect(out[3]).toContain('rev 1 old  3 ready 3 available  nginx:1.26');
      }
      if (w === 60) expect(out[3]).not.toContain('nginx');
    });
  }
});

describe("the Deployment's detail", () => {
  for (const w of WIDTHS) {
    it(`at ${w} columns: title, strategy, ReplicaSets and the next step; every line fits`, async () => {
      const v = frameOf(await midRollout()).deployments![0];
      const r = render(<DeploymentPane deployment={v} rows={20} width={w} />);
      resize(r.stdout, w, 40);
      const out = lines(r.lastFrame());
      for (const l of out) expect(width(l)).toBeLessThanOrEqual(w);
      const text = out.join('\n');
      expect(out[0]).toMatch(/^Deployment shop\/web/);
      expect(out[1]).toMatch(/^replicas 4/);
      expect(text).toContain('maxSurge 25% of 4 = 1 (rounded up)');
      expect(text).toMatch(/── ReplicaSets \(2\)/);
      expect(text).toMatch(/── Next step/);
      expect(text.replace(/\s+/g, ' ')).toContain(SCALE_OLD);
      expect(text).toContain('synced again in 9m31s (its progress checked)');
      const header = out.find((l) => l.trimStart().startsWith('NAME'))!;
      expect(header).toMatch(/NAME +.*DES +CUR +.*NEXT/);
      if (w >= 80) expect(header).toMatch(/REV +ROLE +IMAGE +DES +CUR +RDY +AVL +NEXT/);
      expect(out.find((l) => l.includes('web-5f6b4c8d9') && !l.includes('scale'))).toMatch(/3 +3 +(3 +3 +)?2$/);
    });
  }

  it('the ReplicaSet table gives way in DEPLOYMENT_RS_ORDER: the image first, then role and revision', async () => {
    const v = frameOf(await midRollout()).deployments![0];
    expect(replicaSetTable(v, 160)[0]).toMatch(/IMAGE/);
    const narrow = replicaSetTable(v, 40)[0];
    expect(narrow).not.toMatch(/IMAGE|ROLE/);
    expect(narrow).toMatch(/NAME +.*DES +CUR/);
  });

  it('a short pane keeps the title and the next step first, then the ReplicaSets, then the arithmetic', () => {
    expect(deploymentDetailLayout(6, { step: 3, replicaSets: 2, arithmetic: 4 })).toEqual({ title: 1, step: 3, replicaSets: 2, arithmetic: 0 });
    expect(deploymentDetailLayout(20, { step: 3, replicaSets: 2, arithmetic: 4 })).toEqual({ title: 2, step: 4, replicaSets: 4, arithmetic: 5 });
  });
});

describe('the plain stream', () => {
  it("a Deployment's line: counts, its ReplicaSets' sizes, drift and the next step; printed again only when it changes", async () => {
    const f = frameOf(await midRollout());
    const v = f.deployments![0];
    expect(plainDeploymentLine(v)).toBe(
      `shop/web deploy replicas=4 updated=2 available=4 replicasets=web-7d9c5b6f4:2/2,web-5f6b4c8d9:3/3→2 drift next: ${nextStep(v).text}`,
    );
    const stream = new PlainStream();
    const first = stream.update(f.plan, NOW, f.waiting, f.deployments);
    expect(first[0]).toBe(`${NOW} ${plainDeploymentLine(v)}`);
    expect(stream.update(f.plan, NOW, f.waiting, f.deployments)).toEqual([]);
    expect(stream.update(f.plan, NOW, f.waiting, [])).toEqual([`${NOW} shop/web deploy gone`]);
  });
});

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

describe.each(WIDTHS)('the App at %i × 24 with a Deployment', (columns) => {
  it('the list, Enter on the Deployment (its detail), Esc back: every line fits', async () => {
    const store = new WatchStore(initialState(META, { columns, rows: 24 }, NOW_MS), new FakeClock(NOW_MS), 0);
    const snap = await loadExamples('deployment-midrollout', 'drifted-replicaset');
    store.dispatch({ type: 'snapshotChanged', frame: frameOf(snap) });
    const r = render(<App store={store} color={false} />);
    resize(r.stdout, columns, 24);
    cleanups.push(() => r.unmount());
    const press = async (k: string) => {
      r.stdin.write(k);
      await tick();
      await tick();
    };
    const fits = () => {
      const out = lines(r.lastFrame());
      expect(out.length).toBeLessThanOrEqual(24);
      for (const l of out) expect(width(l), l).toBeLessThanOrEqual(columns);
      return out;
    };
    let out = fits();
    const head = out.findIndex((l) => /^ {4}K {2}NAME/.test(l));
    expect(out[head + 1]).toMatch(/^> \* deploy\/shop\/web {2}/);
    expect(out[head + 3]).toMatch(/^ {4}└ web-5f6b4c8d9 {2}3\/3 → 2/);
    expect(out[head + 4]).toMatch(/^ {2}\* rs shop\/shop-web/);
    await press('\r');
    out = fits();
    expect(out.some((l) => l.startsWith('Deployment shop/web'))).toBe(true);
    expect(out.some((l) => l.startsWith('── Next step'))).toBe(true);
    await press('\u001b');
    expect(lines(r.lastFrame()).some((l) => /^> \* deploy\/shop\/web/.test(l))).toBe(true);
  });
});
