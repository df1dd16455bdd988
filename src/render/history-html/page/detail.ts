/// <reference lib="dom" />
// The panel a click on a mark opens: what `history pod/NAME` says of the pod, in its words (the
// same functions write them: src/render/history.ts): each write with who made it and its reason,
// the verdict and message (a delete's ranking sentence), the cause chain with each step a link to
// its own mark, then the coverage notes of the source. A write of no pod (a scale, a status) is
// told alone, the same way; a cause step that is no write of the document says what it caused.

import type { HistoryEvent, ReconcileHistory } from '../../../history/types.js';
import { causeClauses, renderCoverageLine, utcTime, verdictText, who } from '../../history.js';
import type { TimelineModel } from '../model.js';
import type { PredictedHistory } from '../prediction.js';
import { metaNamespaceKey } from '../../../core/object-key.js';

export interface DetailContext {
  doc: ReconcileHistory | PredictedHistory;
  model: TimelineModel;
  /** Per event index, its mark. */
  markOfEvent: Int32Array;
  /** Per pod (namespace/name), its events in time order. */
  podEvents: Map<string, number[]>;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One write as the pod story tells it: when, what and by whom, the verdict and message, why. */
function writeHtml(ctx: DetailContext, i: number, current: boolean): string {
  const e = ctx.doc.events[i];
  const m = ctx.model.marks[ctx.markOfEvent[i]];
  const by = e.actor.controller ? `${who(e.actor.user)} (the controller)` : who(e.actor.user);
  // the story's own flag for a write the rules did not do; the page also names the other verdicts
  const flag =
    ctx.doc.source === 'prediction'
      ? ' <span class="predicted">[foreseen]</span>'
      : !e.actor.controller
        ? ''
        : e.predicted === false
          ? ' <span class="not-predicted">[not predicted by the rules]</span>'
          : e.predicted === true
            ? ' <span class="predicted">[predicted]</span>'
            : ' <span class="unknown">[unknown]</span>';
  const verdictCls = e.predicted === false ? 'not-predicted' : e.actor.controller && e.predicted === null ? 'unknown' : '';
  let out = `<div class="write${current ? ' current' : ''}" data-event="${i}">`;
  out += `<div><a href="#" class="when" data-goto="${ctx.markOfEvent[i]}">${esc(utcTime(e.time))}</a> <b>${esc(e.verb)}</b> by ${esc(by)}${e.reason ? `, ${esc(e.reason)}` : ''}${flag}</div>`;
  out += `<div class="message ${verdictCls}">${esc(verdictText(e))}</div>`;
  if (e.cause && e.cause.length > 0) {
    const parts = causeClauses(e.cause, e.time).map((text, k) => {
      const target = m.causes[k];
      // the joining ", " stays outside the link, so each link is one step
      const lead = /^(, )/.exec(text)?.[1] ?? '';
      return `${lead}<a href="#" class="cause-step" data-goto="${target}">${esc(text.slice(lead.length))}</a>`;
    });
    out += `<div class="cause">${parts.join('')}</div>`;
  }
  return out + '</div>';
}

function coverageHtml(doc: ReconcileHistory | PredictedHistory): string {
  if (doc.source === 'prediction')
    return `<h2>What the prediction assumes</h2><div class="coverage">${esc(doc.prediction.assumes)}</div><div class="coverage">${esc(doc.prediction.result)}</div>`;
  const c = doc.coverage;
  let out = `<h2>What the source tells</h2><div class="coverage">${esc(renderCoverageLine(c, doc.from, doc.to))}</div>`;
  if (c.missing.length > 0) out += `<ul>${c.missing.map((x) => `<li>lacks ${esc(x)}</li>`).join('')}</ul>`;
  return out;
}

function subjectOf(e: HistoryEvent): string {
  if (e.pod !== null) return `pod ${e.pod}${e.controller ? ` (namespace ${e.controller.namespace})` : ''}`;
  return e.controller ? `${e.controller.kind} ${e.controller.name} (namespace ${e.controller.namespace})` : 'a write of no controller';
}

/** The panel's HTML for mark `mark`. */
export function detailHtml(ctx: DetailContext, mark: number): string {
  const m = ctx.model.marks[mark];
  if (m.event < 0) return stepHtml(ctx, mark) + coverageHtml(ctx.doc);
  const e = ctx.doc.events[m.event];
  const podWrites = e.pod === null ? [m.event] : (ctx.podEvents.get(metaNamespaceKey(ctx.model.rows[m.row].namespace, e.pod)) ?? [m.event]);
  let out = `<h2>${esc(subjectOf(e))}</h2>`;
  for (const i of podWrites) out += writeHtml(ctx, i, i === m.event);
  return out + coverageHtml(ctx.doc);
}

/** A cause step the document names only as a cause: itself, and the writes it made happen. */
function stepHtml(ctx: DetailContext, mark: number): string {
  const m = ctx.model.marks[mark];
  const s = m.step!;
  const clause = causeClauses([s])[0].replace(/^because /, '');
  const caused = ctx.model.marks.flatMap((x, i) => (x.causes.includes(mark) ? [i] : []));
  let out = `<h2>${esc(s.object.kind)} ${esc(s.object.name)} (namespace ${esc(s.object.namespace)})</h2>`;
  out += `<div class="write current"><div class="when">${esc(utcTime(s.time))}</div><div>${esc(clause)}</div><div>${esc(s.field)}: ${esc(s.change)}</div></div>`;
  out += `<div>In the cause chain of:</div><ul>${caused
    .map((i) => {
      const e = ctx.doc.events[ctx.model.marks[i].event];
      return `<li><a href="#" data-goto="${i}">${esc(utcTime(e.time))} ${esc(e.verb)} ${esc(e.pod ?? e.controller?.name ?? '')}</a></li>`;
    })
    .join('')}</ul>`;
  return out;
}
