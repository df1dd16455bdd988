import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DetailPane, podRowSegs, podTable, whyText } from '../../src/ui/DetailPane.js';
import { frameOf, loadExamples, resize, syntheticSnapshot, width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('DetailPane', () => {
  it('the pods with decision, reason, node, phase, ready, restarts, age, cost and place; the deletion order; why', async () => {
    const frame = frameOf(await loadExamples('scale-down-ranking'));
    const c = frame.plan.controllers[0];
    const model = frame.explain(c);
    expect(model).not.toBeNull();
    const { lastFrame, stdout } = render(<DetailPane controller={c} model={model} podCursor={8} podTop={0} rows={26} width={120} />);
    resize(stdout, 120, 40);
    const out = lines(lastFrame());
    expect(out[0]).toContain('ReplicaSet search/search-5f7c9');
    expect(out[0]).toContain('selector app=search,pod-template-hash=5f7c9');
    expect(out[1]).toMatch(/desired 3\s+current 9\s+ready 6\s+available 6.*delete 6\s+status update/);
    expect(out[2]).toMatch(/NAME\s+DECISION\s+REASON\s+NODE\s+PHASE\s+READY\s+RST\s+AGE\s+COST\s+DEL/);
    const pod = (name: string) => out.find((l) => l.includes(name + ' '))!;
    expect(pod('search-5f7c9-cheap')).toMatch(/delete\s+OwnedMatching\s+node-g\s+Running\s+yes 8d\s+0\s+9d\s+-100\s+#4/);
    expect(pod('search-5f7c9-flaky')).toMatch(/node-c\s+Running\s+yes 9d\s+14\s+10d\s+-\s*$/);
    expect(pod('search-5f7c9-unsched')).toMatch(/^> .*<none>\s+Pending\s+no\s+0\s+5m\s+-\s+#1/);
    expect(lastFrame()).toContain('Deletion order (6 of 9 go)');
    expect(lastFrame()).toMatch(/#1 search-5f7c9-unsched\s+Unscheduled: search-5f7c9-unsched is not scheduled to a node yet/);
    expect(lastFrame()).toContain('Why: search-5f7c9-unsched');
    expect(lastFrame()).toContain('#1 in the deletion order: search-5f7c9-unsched is not scheduled');
    for (const l of out) expect(width(l)).toBeLessThanOrEqual(120);
    expect(out.length).toBeLessThanOrEqual(26);
  });

  it('claim decisions and their sentence (adopt / release)', async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset'));
    const c = frame.plan.controllers[0];
    const model = frame.explain(c)!;
    const adoptIdx = model.pods.findIndex((p) => p.decision === 'adopt');
    expect(adoptIdx).toBeGreaterThanOrEqual(0);
    const { lastFrame } = render(<DetailPane controller={c} model={model} podCursor={adoptIdx} podTop={0} rows={16} width={80} />);
    expect(lastFrame()).toMatch(/adopt\s+OrphanMa/);
    expect(lastFrame()).toMatch(/release\s+OwnedNot/);
    expect(lastFrame()).toContain(`Why: ${model.pods[adoptIdx].name}`);
    expect(lastFrame()).toContain('adopt (OrphanMatching):');
    for (const l of lines(lastFrame())) expect(width(l)).toBeLessThanOrEqual(80);
  });

  it('at 60, 80, 120 and 160 columns a pod row is one line: columns go in POD_ORDER, names and reasons stay whole while they can', async () => {
    const frame = frameOf(await loadExamples('scale-down-ranking'));
    const c = frame.plan.controllers[0];
    const model = frame.explain(c)!;
    const expected: Record<number, RegExp> = {
      60: /^ {2}NAME +DECISION REASON +READY DEL$/,
      80: /^ {2}NAME +DECISION REASON +NODE +PHASE +READY RST COST DEL$/,
      120: /^ {2}NAME +DECISION +REASON +NODE +PHASE +READY +RST +AGE +COST +DEL$/,
      160: /^ {2}NAME +DECISION +REASON +NODE +PHASE +READY +RST +AGE +COST +DEL$/,
    };
    for (const w of [60, 80, 120, 160]) {
      const { lastFrame, stdout } = render(<DetailPane controller={c} model={model} podCursor={0} podTop={0} rows={30} width={w} />);
      resize(stdout, w, 40);
      const out = lines(lastFrame());
      for (const l of out) expect(width(l)).toBeLessThanOrEqual(w);
      const head = out.findIndex((l) => /^ {2}NAME /.test(l));
      expect(out[head]).toMatch(expected[w]);
      // every pod: one line that starts with its whole name and its decision
      const rows = out.slice(head + 1, head + 1 + model.pods.length);
      expect(rows.map((l) => l.slice(2).split(/ +/)[0]).sort()).toEqual(model.pods.map((p) => p.name).sort());
      for (const l of rows) expect(l).toMatch(/^[> ] \S+ +(keep|delete|adopt|release|ignore) +Owned\w+/);
      // the sentences below wrap at words: every word of the deletion order's first entry is whole
      const words = new Set(c.delete.flatMap((d, i) => `#${i + 1} ${d.name} ${d.reason}: ${d.message}`.split(/\s+/)));
      const at = out.findIndex((l) => l.startsWith('#1 '));
      for (const l of out.slice(at, at + 3).filter((x) => !x.startsWith('──')))
        for (const word of l.trim().split(/\s+/)) if (word !== '…') expect(words).toContain(word);
    }
  });

  it('a pod in the deletion order says delete, in the colour of deletes', async () => {
    const frame = frameOf(await loadExamples('scale-down-ranking'));
    const c = frame.plan.controllers[0];
    const model = frame.explain(c)!;
    const first = model.pods.find((p) => p.name === c.delete[0].name)!;
    const segs = podRowSegs({ ...first, deleteIndex: 0 }, podTable(model, 120), false);
    const decision = segs.find((s) => s.text.trim() === 'delete');
    expect(decision?.color).toBe('red');
  });

  it('virtualises the pod table (300 pods, a window of them) and fits 80x(16 rows)', () => {
    const frame = frameOf(syntheticSnapshot(1, 300, 1));
    const c = frame.plan.controllers[0];
    const { lastFrame } = render(<DetailPane controller={c} model={frame.explain(c)} podCursor={150} podTop={148} rows={16} width={80} />);
    const out = lines(lastFrame());
    expect(out.length).toBeLessThanOrEqual(16);
    expect(lastFrame()).toContain('app-0000-00148');
    expect(lastFrame()).not.toContain('app-0000-00147 ');
    expect(out.find((l) => l.startsWith('>'))).toContain('app-0000-00150');
    for (const l of out) expect(width(l)).toBeLessThanOrEqual(80);
  });

  it('without an explain model (plan entry only), and a skipped controller', async () => {
    const frame = frameOf(await loadExamples('invalid-selector'));
    const broken = frame.plan.controllers.find((c) => c.name === 'broken')!;
    const { lastFrame } = render(<DetailPane controller={broken} model={null} podCursor={0} podTop={0} rows={12} width={80} />);
    expect(lastFrame()).toContain('ReplicaSet web/broken');
    expect(lastFrame()).toContain('skipped: InvalidSelector');
    expect(whyText(broken, undefined)).toContain('invalid selector');
  });

  it('warnings: named in the title, and in the sentence of the pods they concern', async () => {
    const frame = frameOf(await loadExamples('overlapping-selectors'));
    const api = frame.plan.controllers.find((c) => c.name === 'api')!;
    const model = frame.explain(api)!;
    const kept = model.pods.findIndex((p) => p.name === 'api-h2k9d');
    const { lastFrame, stdout } = render(<DetailPane controller={api} model={model} podCursor={kept} podTop={0} rows={20} width={120} />);
    resize(stdout, 120, 40);
    expect(lastFrame()).toMatch(/^ReplicaSet payments\/api {2}warnings: OverlappingSelectors, ContestedAdoption {2}selector app=payments/);
    expect(whyText(api, model.pods[kept])).toMatch(
      /^keep \(OwnedMatching\): .* Warning OverlappingSelectors: 4 pods are also selected by ReplicaSet api-canary/,
    );
    expect(lastFrame()).toContain('Warning OverlappingSelectors');
  });
});

describe('DetailPane: the lines the pods do not need', () => {
  it('go to the deletion order, so that its entry is whole at 60 columns, then to the why', async () => {
    const frame = frameOf(await loadExamples('orphaned-pods'));
    const c = frame.plan.controllers.find((x) => x.name === 'orders-api')!;
    const model = frame.explain(c)!;
    // the main pane of an 80x24 terminal (16 lines), 60 columns wide: 3 pods, 1 delete
    const { lastFrame } = render(<DetailPane controller={c} model={model} podCursor={0} podTop={0} rows={16} width={60} />);
    const out = lines(lastFrame());
    const at = out.findIndex((l) => l.startsWith('── Deletion order'));
    const entry = out.slice(
      at + 1,
      out.findIndex((l) => l.startsWith('── Why')),
    );
    expect(entry.join(' ').replace(/\s+/g, ' ')).toBe(`#1 ${c.delete[0].name} ${c.delete[0].reason}: ${c.delete[0].message}`.replace(/\s+/g, ' '));
    expect(entry.join('')).not.toContain('…');
    for (const l of out) expect(width(l)).toBeLessThanOrEqual(60);
    expect(out.length).toBeLessThanOrEqual(16);
  });
});
