/// <reference lib="dom" />
// The timeline page's script: reads the ReconcileHistory document embedded in the page (once, in
// <script id="history-document">), lays it out (../layout.ts) and draws it (chart.ts), with the
// filters, zoom and pan, and the keys. It decides nothing: every verdict, reason, message and cause
// on the page is the document's.

import type { ReconcileHistory } from '../../../history/types.js';
import { renderCoverageLine, utcTime, who } from '../../history.js';
import type { PageSample } from '../document.js';
import type { PredictedHistory } from '../prediction.js';
import { buildTimeline } from '../layout.js';
import { WRITER_KINDS, WRITER_STYLE, type TimelineModel } from '../model.js';
import { fit } from '../scale.js';
import { chartDefs, drawChart, type ChartView } from './chart.js';
import { detailHtml, type DetailContext } from './detail.js';
import { attachControls, type Page } from './controls.js';
import { CSS, STATE_COLOR, STATE_LABEL } from './style.js';
import { metaNamespaceKey } from '../../../core/object-key.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function readJson<T>(id: string): T {
  return JSON.parse(document.getElementById(id)!.textContent ?? 'null') as T;
}

/** What the page draws: a history, or a rollout foreseen as history would show it. */
export type TimelineDocument = ReconcileHistory | PredictedHistory;

function legendHtml(foreseen: boolean): string {
  const writers = WRITER_KINDS.map((k) => `<span><i style="background:${WRITER_STYLE[k].color}"></i>${esc(WRITER_STYLE[k].label)}</span>`).join('');
  const verdicts = foreseen
    ? '<span><i style="background:#0072b2"></i>foreseen by the rules: every write on this page is a prediction, none is recorded</span>' +
      '<span><i style="background:#999;border-radius:50%"></i>a change the prediction starts from or assumes (the kubelet)</span>'
    : '<span><i style="background:#0072b2"></i>predicted</span>' +
      '<span><i style="background:#0072b2;outline:2.5px solid #d00000"></i>not predicted</span>' +
      '<span><i style="background:#0072b2;outline:1.5px dashed #1d232a"></i>unknown</span>' +
      '<span><i style="background:#999;border-radius:50%"></i>a cause step the log shows only as a cause</span>';
  const states = Object.keys(STATE_COLOR)
    .map((k) => `<span><i style="background:${STATE_COLOR[k]}"></i>${esc(STATE_LABEL[k])}</span>`)
    .join('');
  // a prediction tells only the Ready changes it assumes: a pod's state before them is not in it
  const unknown = foreseen ? 'state the prediction does not tell' : 'state not in the log';
  const hatch = `<span><i style="background:repeating-linear-gradient(45deg,#9aa3ad 0 2px,#f4f5f7 2px 5px)"></i>${unknown}</span>`;
  return `<div class="legend"><b>writes:</b>${writers}</div><div class="legend"><b>controller writes:</b>${verdicts}</div><div class="legend"><b>pods:</b>${states}${hatch}</div>`;
}

function sampleText(sample: PageSample | null): string {
  if (!sample) return '';
  return (
    `Sampled: this page holds the first ${sample.shownEvents.toLocaleString('en-US')} of the history's ${sample.events.toLocaleString('en-US')} writes, ` +
    `up to ${utcTime(sample.until)}${sample.to ? ` (the history goes on to ${utcTime(sample.to)})` : ''}. ` +
    'Run history with --since/--until, -n or a target (rs/NAME, deploy/NAME) to see another part whole.'
  );
}

/** The header's title and source lines: the history's span and coverage, or the prediction's change, assumptions and end. */
function headHtml(doc: TimelineDocument, model: TimelineModel, sample: PageSample | null): string {
  const counts = `${doc.events.length.toLocaleString('en-US')} writes, ${model.bars.length.toLocaleString('en-US')} pods, ${model.lanes.length.toLocaleString('en-US')} controllers`;
  if (doc.source === 'prediction') {
    const n = doc.prediction;
    return (
      `<h1>A prediction, not a record: the rollout of Deployment ${esc(n.deployment.namespace)}/${esc(n.deployment.name)} after ${esc(n.change)}</h1>` +
      `<span>${counts} foreseen</span>` +
      `<div id="assumptions">Assumes: ${esc(n.assumes)}</div><div id="result">Result: ${esc(n.result)}</div>` +
      `<div id="coverage">Second 0 is ${esc(utcTime(n.evaluatedAt))}, when the change is made; the times after it are foreseen.</div>`
    );
  }
  const span = doc.from && doc.to ? `${utcTime(doc.from)} → ${utcTime(doc.to)}` : 'no write';
  return (
    `<h1>What the controllers did, and why: ${esc(span)}</h1><span>${counts}</span>` +
    `<div id="coverage">${esc(renderCoverageLine(doc.coverage, doc.from, doc.to))}</div><div id="sample-note">${esc(sampleText(sample))}</div>`
  );
}

function footerHtml(doc: TimelineDocument): string {
  if (doc.source === 'prediction')
    return (
      `<footer>Made by rs-reconcile explain deploy/${esc(doc.prediction.deployment.name)} from ${doc.prediction.snapshot === 'file' ? 'a snapshot file' : 'the cluster'}: ` +
      `both controllers foreseen by the rules of Kubernetes ${esc(doc.kubernetesVersion)}, the kubelet as assumed. Times are UTC. The same prediction: explain … -o json.</footer>`
    );
  // what the reader needs of where the page comes from; how it draws is in docs/history-timeline.md
  return (
    `<footer>Made by rs-reconcile history from ${doc.source === 'recording' ? 'a recording' : 'an audit log'} (${esc(doc.coverage.format)}), ` +
    `judged by the rules of Kubernetes ${esc(doc.kubernetesVersion)}. Times are UTC. The same writes: history -o json.</footer>`
  );
}

function pageHtml(doc: TimelineDocument, model: TimelineModel, sample: PageSample | null): string {
  const options = model.namespaces.map((n) => `<option value="${esc(n)}">${esc(n || '(none)')}</option>`).join('');
  return (
    `<header>${headHtml(doc, model, sample)}` +
    `<div class="filters"><label>namespace <select id="f-namespace"><option value="*">all</option>${options}</select></label>` +
    '<label>controller <input id="f-controller" type="search" placeholder="name contains"></label>' +
    '<label>pod <input id="f-pod" type="search" placeholder="name contains"></label>' +
    '<button id="zoom-in" title="zoom in (+)">+</button> <button id="zoom-out" title="zoom out (-)">−</button> <button id="zoom-fit" title="the whole history (0)">fit</button></div>' +
    `${legendHtml(doc.source === 'prediction')}</header>` +
    '<main><div id="chart" tabindex="0"><svg id="plot" xmlns="http://www.w3.org/2000/svg">' +
    chartDefs() +
    '</svg><div id="spacer"></div></div><aside id="detail"><p>Click a mark to read what history says of it.</p>' +
    '<p>Keys: ← → the previous and next write of the selected controller, ↑ ↓ the controller above and below, + − 0 zoom, Esc leaves the selection. ' +
    'Drag or shift+wheel pans, ctrl+wheel zooms.</p></aside></main>' +
    footerHtml(doc)
  );
}

/** What hovering a mark says: its time, writer, verb and object, reason and verdict. */
function titleOf(doc: TimelineDocument, model: TimelineModel, i: number): string {
  const m = model.marks[i];
  if (m.event < 0)
    return `${utcTime(m.step!.time)} ${who(m.step!.user)} ${m.step!.verb} ${m.step!.object.kind} ${m.step!.object.name}: ${m.step!.field} ${m.step!.change}`;
  const e = doc.events[m.event];
  const verdict = m.verdict ? ` [${m.verdict === 'not-predicted' ? 'not predicted' : m.verdict}]` : '';
  return `${utcTime(e.time)} ${who(e.actor.user)} ${e.verb} ${e.pod ?? e.controller?.name ?? ''}${e.reason ? ` (${e.reason})` : ''}${verdict}`;
}

function detailContext(doc: TimelineDocument, model: TimelineModel): DetailContext {
  const markOfEvent = new Int32Array(doc.events.length).fill(-1);
  model.marks.forEach((m, i) => {
    if (m.event >= 0) markOfEvent[m.event] = i;
  });
  const podEvents = new Map<string, number[]>();
  doc.events.forEach((e, i) => {
    if (e.pod === null) return;
    const k = metaNamespaceKey(model.rows[model.marks[markOfEvent[i]].row].namespace, e.pod);
    const list = podEvents.get(k);
    if (list) list.push(i);
    else podEvents.set(k, [i]);
  });
  return { doc, model, markOfEvent, podEvents };
}

function start(): void {
  const t0 = performance.now();
  const doc = readJson<TimelineDocument>('history-document');
  const sample = readJson<PageSample | null>('history-sample');
  const t1 = performance.now();
  // a sampled page ends at its last write: what comes after is not on it
  const model = buildTimeline(sample ? { ...doc, to: sample.until } : doc);
  const t2 = performance.now();
  const style = document.createElement('style');
  style.textContent = CSS;
  document.head.append(style);
  document.body.insertAdjacentHTML('afterbegin', pageHtml(doc, model, sample));
  const ctx = detailContext(doc, model);
  const view: ChartView = { model, window: fit(model), shown: model.rows.map((_, i) => i), selected: -1, title: (i) => titleOf(doc, model, i) };
  const page: Page = {
    view,
    // biome-ignore lint/plugin/double-assertion: getElementById is typed HTMLElement, and #plot is the page's <svg>
    svg: document.getElementById('plot') as unknown as SVGSVGElement,
    container: document.getElementById('chart')!,
    spacer: document.getElementById('spacer')!,
    detail: document.getElementById('detail')!,
    scale: null,
    draw() {
      page.scale = drawChart(page.svg, page.container, page.spacer, view);
    },
    show(mark) {
      page.detail.innerHTML = detailHtml(ctx, mark);
    },
  };
  attachControls(page);
  page.draw();
  // what the first drawing took, for the bench (bench/run.mjs) and anyone curious
  const t3 = performance.now();
  document.body.dataset.timings = JSON.stringify({
    parseMs: Math.round(t1 - t0),
    modelMs: Math.round(t2 - t1),
    drawMs: Math.round(t3 - t2),
    sinceNavigationMs: Math.round(t3),
  });
  document.body.dataset.ready = 'true';
}

start();
