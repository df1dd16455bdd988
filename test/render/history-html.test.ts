// history -o html: how a ReconcileHistory document becomes the timeline's rows, pod bars and
// marks (src/render/history-html/model.ts, layout.ts), the time axis (scale.ts), and the page's
// text (document.ts): embedded once, escaped, sampled by controller when too big.
import { describe, expect, it } from 'vitest';
import type { CauseStep, HistoryEvent, ReconcileHistory } from '../../src/history/types.js';
import { historyHtmlChunks } from '../../src/render/history-html/document.js';
import { buildTimeline } from '../../src/render/history-html/layout.js';
import { barSegments, deploymentsOf, verdictOf, WRITER_KINDS, WRITER_STYLE, writerKind } from '../../src/render/history-html/model.js';
import { CSS } from '../../src/render/history-html/page/style.js';
import { fit as fitBounds, pan, ticks, visibleRange, xOf, zoom } from '../../src/render/history-html/scale.js';

const RSC = 'system:serviceaccount:kube-system:replicaset-controller';
const RCC = 'system:serviceaccount:kube-system:replication-controller';
const DC = 'system:serviceaccount:kube-system:deployment-controller';
const T = (s: string) => `2026-11-25T10:00:${s}Z`;
const ms = (s: string) => Date.parse(T(s));

const webA = { kind: 'ReplicaSet' as const, namespace: 'shop', name: 'web-a' };
const db = { kind: 'ReplicationController' as const, namespace: 'shop', name: 'db' };

function ev(
  time: string,
  user: string,
  verb: HistoryEvent['verb'],
  controller: HistoryEvent['controller'],
  pod: string | null,
  extra: Partial<HistoryEvent> = {},
): HistoryEvent {
  const mine = user === RSC || user === RCC;
  return {
    time: T(time),
    actor: { user, controller: mine },
    verb,
    controller,
    pod,
    reason: null,
    message: `${verb} ${pod ?? controller?.name}`,
    predicted: mine ? true : null,
    cause: null,
    ...extra,
  };
}
const step = (time: string, user: string, verb: CauseStep['verb'], kind: string, name: string, field: string, change: string): CauseStep => ({
  time: T(time),
  user,
  verb,
  object: { kind, namespace: 'shop', name },
  field,
  change,
});

const dcScale = step('05.000', DC, 'scale', 'ReplicaSet', 'web-a', 'spec.replicas', '1 → 0');
const imageChange = step('04.000', 'admin', 'patch', 'Deployment', 'web', 'spec.template', 'image nginx:1.25 → nginx:1.26');
const running = step('01.500', 'system:node:n1', 'status', 'Pod', 'web-a-1', 'status.phase', 'Pending → Running');
const readyStep = step('01.800', 'system:node:n1', 'status', 'Pod', 'web-a-1', 'a Ready condition', 'not set → True');

const EVENTS: HistoryEvent[] = [
  ev('00.000', DC, 'create', webA, null),
  ev('00.100', RSC, 'create', webA, 'web-a-1', { reason: 'TooFewReplicas' }),
  ev('00.200', RCC, 'create', db, 'db-1', { predicted: null, message: 'unknown: db was created before the log starts' }),
  ev('02.000', RSC, 'status', webA, null, { cause: [running] }),
  ev('02.100', RSC, 'status', webA, null, { cause: [readyStep] }),
  ev('05.000', DC, 'scale', webA, null),
  ev('05.010', RSC, 'delete', webA, 'web-a-1', { reason: 'Unscheduled', predicted: false, cause: [dcScale, imageChange] }),
  ev('06.000', 'system:node:n1', 'delete', webA, 'web-a-1'),
];
const DOC: ReconcileHistory = {
  apiVersion: 'rs-reconcile/v1alpha1',
  kind: 'ReconcileHistory',
  source: 'audit-log',
  kubernetesVersion: '1.32',
  from: T('00.000'),
  to: T('06.000'),
  events: EVENTS,
  coverage: { format: 'kube-apiserver', truncated: 0, duplicates: 0, missing: [] },
};

describe('who wrote, and the verdict, as the page colours them', () => {
  it('takes the controller flag of the document first, then kube-system users by name', () => {
    expect(writerKind(DC, true)).toBe('replicaset-controller');
    expect(writerKind(DC, false)).toBe('deployment-controller');
    expect(writerKind('system:serviceaccount:kube-system:generic-garbage-collector', false)).toBe('garbage-collector');
    expect(writerKind('system:node:kind-worker', false)).toBe('node');
    expect(writerKind('system:kube-scheduler', false)).toBe('node');
    expect(writerKind('system:serviceaccount:kube-system:horizontal-pod-autoscaler', false)).toBe('other-controller');
    expect(writerKind('system:serviceaccount:argocd:argocd-application-controller', false)).toBe('person');
    expect(writerKind('admin', false)).toBe('person');
  });

  it('colours each writer kind apart, and the page styles each mark by its kind', () => {
    const colours = WRITER_KINDS.map((k) => WRITER_STYLE[k].color);
    expect(new Set(colours).size).toBe(WRITER_KINDS.length);
    for (const k of WRITER_KINDS) expect(CSS).toContain(`.mark[data-writer="${k}"]{fill:${WRITER_STYLE[k].color}}`);
  });

  it("gives the document's verdicts as they are, and none for others' writes", () => {
    expect(EVENTS.map(verdictOf)).toEqual([null, 'predicted', 'unknown', 'predicted', 'predicted', null, 'not-predicted', null]);
  });
});

describe('the timeline of a document', () => {
  const m = buildTimeline(DOC);

  it('groups a ReplicaSet under the Deployment its cause chains show the deployment controller rolling', () => {
    expect(deploymentsOf(EVENTS)).toEqual(new Map([['ReplicaSet/shop/web-a', 'web']]));
    expect(m.rows.map((r) => `${r.kind} ${r.name}`)).toEqual(['controller db', 'pod db-1', 'deployment web', 'controller web-a', 'pod web-a-1']);
    expect(m.rows.map((r) => [r.lane, r.group])).toEqual([
      [0, -1],
      [0, -1],
      [-1, 2],
      [3, 2],
      [3, 2],
    ]);
    expect(m.namespaces).toEqual(['shop']);
  });

  it('draws a pod from its create to its last delete, shaded as its phase and Ready steps say', () => {
    const bar = m.bars.find((b) => b.name === 'web-a-1')!;
    expect(bar).toMatchObject({ start: ms('00.100'), end: ms('06.000'), createdInLog: true, deletedInLog: true, row: 4 });
    expect(bar.segments).toEqual([
      { from: ms('00.100'), to: ms('01.500'), state: 'unknown' },
      { from: ms('01.500'), to: ms('01.800'), state: 'Running' },
      { from: ms('01.800'), to: ms('05.010'), state: 'ready' },
      { from: ms('05.010'), to: ms('06.000'), state: 'terminating' },
    ]);
    // a pod the log never saw go runs to the end, its state unknown throughout
    expect(m.bars.find((b) => b.name === 'db-1')).toMatchObject({
      start: ms('00.200'),
      end: ms('06.000'),
      deletedInLog: false,
      segments: [{ from: ms('00.200'), to: ms('06.000'), state: 'unknown' }],
    });
  });

  it('a bar whose create is before the log starts at the log, and says so', () => {
    const segs = barSegments({ phase: [[5, 'Failed']], ready: [[2, false]], deletes: [] }, 0, 10);
    expect(segs).toEqual([
      { from: 0, to: 2, state: 'unknown' },
      { from: 2, to: 5, state: 'not-ready' },
      { from: 5, to: 10, state: 'Failed' },
    ]);
    const noCreate = buildTimeline({ ...DOC, events: EVENTS.filter((e) => !(e.verb === 'create' && e.pod === 'web-a-1')) });
    expect(noCreate.bars.find((b) => b.name === 'web-a-1')).toMatchObject({ start: noCreate.from, createdInLog: false });
  });

  it('puts one mark per write on the row of what it wrote, and one per cause step that is no write of the document', () => {
    const writes = m.marks.filter((x) => x.event >= 0);
    expect(writes.map((x) => x.event).sort()).toEqual(EVENTS.map((_, i) => i));
    const row = (i: number) => m.rows[m.marks.find((x) => x.event === i)!.row].name;
    expect(EVENTS.map((_, i) => row(i))).toEqual(['web-a', 'web-a-1', 'db-1', 'web-a', 'web-a', 'web-a', 'web-a-1', 'web-a-1']);
    const steps = m.marks.filter((x) => x.event < 0);
    // the deployment controller's scale is the document's write at 05.000: no mark of its own
    expect(steps.map((x) => [x.step!.field, m.rows[x.row].kind, x.writer])).toEqual([
      ['status.phase', 'pod', 'node'],
      ['a Ready condition', 'pod', 'node'],
      ['spec.template', 'deployment', 'person'],
    ]);
    expect(m.marks.map((x) => x.time)).toEqual([...m.marks.map((x) => x.time)].sort((a, b) => a - b));
  });

  it('links each cause step of a write to its mark, nearest first', () => {
    const del = m.marks.find((x) => x.event === 6)!;
    expect(del).toMatchObject({ verdict: 'not-predicted', writer: 'replicaset-controller', verb: 'delete' });
    expect(del.causes.map((c) => m.marks[c].event)).toEqual([5, -1]);
    expect(m.marks[del.causes[1]].step).toEqual(imageChange);
  });

  it("keeps each controller's writes, its pods' included, in time order for the keys", () => {
    const lane = m.lanes.find((l) => m.rows[l.row].name === 'web-a')!;
    expect(lane.marks.map((i) => m.marks[i].event)).toEqual([0, 1, 3, 4, 5, 6, 7]);
    expect(m.rowMarks.flat().sort((a, b) => a - b)).toEqual(m.marks.map((_, i) => i));
  });
});

describe('a document with no write (a --since window of nothing)', () => {
  it('has no rows and no marks, and still a span of time to draw', () => {
    const m = buildTimeline({ events: [], from: null, to: null });
    expect(m).toMatchObject({ rows: [], marks: [], bars: [], lanes: [], rowMarks: [], namespaces: [] });
    expect(m.to).toBeGreaterThan(m.from);
  });
});

describe('the time axis', () => {
  const bounds = { from: 0, to: 10_000 };

  it('places times proportionally, and zooms around a time within the padded history', () => {
    const s = { from: 0, to: 10_000, x0: 100, x1: 1100 };
    expect(xOf(s, 2500)).toBe(350);
    expect(fitBounds(bounds)).toEqual({ from: -500, to: 10_500 });
    expect(zoom({ from: 0, to: 10_000 }, 0.5, 2000, bounds)).toEqual({ from: 1000, to: 6000 });
    expect(zoom({ from: 0, to: 10_000 }, 10, 2000, bounds)).toEqual(fitBounds(bounds));
    expect(zoom({ from: 0, to: 2 }, 0.01, 1, bounds).to - zoom({ from: 0, to: 2 }, 0.01, 1, bounds).from).toBe(1);
    expect(pan({ from: 1000, to: 2000 }, -5000, bounds)).toEqual({ from: -500, to: 500 });
  });

  it('ticks at round UTC steps, the date where it changes', () => {
    const from = Date.parse('2026-11-25T23:59:58Z');
    const s = { from, to: from + 4000, x0: 0, x1: 400 };
    expect(ticks(s).map((t) => t.label)).toEqual(['2026-11-25 23:59:58Z', '23:59:59Z', '2026-11-26 00:00:00Z', '00:00:01Z', '00:00:02Z']);
    expect(ticks({ ...s, x1: 8000 }).every((t) => /\.\d{3}Z$/.test(t.label))).toBe(true);
  });

  it('finds the marks within the window by their times', () => {
    const times = [10, 20, 20, 30, 40];
    const idx = [0, 1, 2, 3, 4];
    expect(visibleRange(idx, (i) => times[i], { from: 20, to: 30 })).toEqual([1, 4]);
    expect(visibleRange(idx, (i) => times[i], { from: 41, to: 50 })).toEqual([5, 5]);
  });
});

/** The document and the sample note read back from a page's text. */
function embedded(html: string): { doc: ReconcileHistory; sample: unknown } {
  const block = (id: string) => JSON.parse(new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html)![1]);
  return { doc: block('history-document'), sample: block('history-sample') };
}

describe('the page', () => {
  const tricky = { ...DOC, events: [...EVENTS, ev('06.500', 'a</script><script>alert(1)</script>', 'patch', webA, null, { message: '<!-- & </SCRIPT>' })] };
  const page = [...historyHtmlChunks(tricky, { script: 'console.log("</script>")' })].join('');

  it('embeds the document once, whole, with nothing in it able to end its block', () => {
    expect(page.match(/id="history-document"/g)).toHaveLength(1);
    expect(page.match(/<\/script>/gi)).toHaveLength(3);
    expect(embedded(page)).toEqual({ doc: JSON.parse(JSON.stringify(tricky)), sample: null });
    expect(page).toContain('<script>console.log("<\\/script>")</script>');
    expect(page).toContain("default-src 'none'");
  });

  it('its footer says where the page comes from, for its reader: no notes on how it is drawn (docs/history-timeline.md has them)', async () => {
    const { historyPageScript } = await import('../../src/services/history-page.js');
    const script = await historyPageScript();
    expect(script).toContain('Made by rs-reconcile history from');
    expect(script).not.toMatch(/How this page holds the data|binary search|arrays of rows/);
  }, 120_000);

  it('holds the first writes when the document has more than it may, and says until when', () => {
    const small = [...historyHtmlChunks(DOC, { script: '', maxEvents: 3 })].join('');
    const { doc, sample } = embedded(small);
    expect(doc.events).toEqual(EVENTS.slice(0, 3));
    expect(sample).toEqual({ events: 8, shownEvents: 3, until: T('00.200'), to: T('06.000') });
    expect(doc.coverage).toEqual(DOC.coverage);
    expect(embedded([...historyHtmlChunks(DOC, { script: '', maxEvents: 8 })].join('')).sample).toBeNull();
  });
});
