// `history -o html`: one self-contained HTML file, the timeline of a ReconcileHistory document.
// The document is embedded once, as JSON in a <script type="application/json"> block, and the
// page's script (src/render/history-html/page/, bundled by scripts/bundle.mjs and handed in by
// the caller: this renderer reads no file) draws it. Written in pieces, as -o json is: the events
// are read one at a time from wherever the history keeps them.
//
// A document of more than `maxEvents` writes is sampled by time: the page holds its first writes (a
// window from the first write on, whole within it: a sync, a pod's life seen as the log shows them)
// and says on the page how many it left out and until when it holds them.

import type { HistoryEvent } from '../../history/types.js';
import type { PredictedHistory } from './prediction.js';

/** Writes a page holds at most: a browser parses and lays out this many in a few seconds. */
const PAGE_MAX_EVENTS = 100_000;

/** What the page says when it holds only part of the document (null: all of it). */
export interface PageSample {
  /** Writes in the document. */
  events: number;
  /** Writes the page holds: the first ones, up to `until`. */
  shownEvents: number;
  /** The time of the last write held, and of the document's last. */
  until: string;
  to: string | null;
}

export interface HistoryPageOptions {
  /** The page's script (the bundled asset), inlined as is. */
  script: string;
  maxEvents?: number;
}

/** `<` in JSON only ever stands in a string: as \u003c no `</script>` or `<!--` can end the block. */
const jsonInHtml = (json: string): string => json.replace(/</g, '\\u003c');

const htmlText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The document's fields other than its events, as they are. */
function headerOf(doc: Record<string, unknown>): Record<string, unknown> {
  const { events: _events, ...rest } = doc;
  return rest;
}

/** The page's title: the history's span, or what a prediction foresees and that it is one. */
function titleOf(header: Record<string, unknown>): string {
  const note = (header as Partial<PredictedHistory>).prediction;
  if (header.kind === 'PredictedHistory' && note)
    return `predicted rollout of deploy/${note.deployment.name} -n ${note.deployment.namespace} after ${note.change}: a prediction, not a record (rs-reconcile)`;
  return `history${typeof header.from === 'string' ? ` ${header.from} → ${header.to}` : ''} (rs-reconcile)`;
}

/**
 * The page, in pieces to write one after the other. `doc` is the ReconcileHistory document
 * (its events an array or a list read from disk, src/render/list-stream.ts), or a rollout foreseen
 * as history would show it (./prediction.ts).
 */
export function* historyHtmlChunks(doc: object, opts: HistoryPageOptions): Generator<string> {
  const d = doc as Record<string, unknown> & { events: Iterable<HistoryEvent> };
  const max = opts.maxEvents ?? PAGE_MAX_EVENTS;
  let sample: PageSample | null = null;
  const header = headerOf(d);
  const title = titleOf(header);
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  // nothing leaves the file: no request of any kind, whoever opens it
  yield `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">\n`;
  yield `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${htmlText(title)}</title>\n</head>\n<body>\n`;
  yield '<noscript>This page draws the history with JavaScript; the document it draws is in the script block named history-document.</noscript>\n';
  // the document: its fields in the contract's order, the events written one at a time
  yield '<script type="application/json" id="history-document">{';
  let first = true;
  for (const [k, v] of Object.entries(d)) {
    if (k !== 'events') {
      if (v === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(k)}:${jsonInHtml(JSON.stringify(v))}`;
      first = false;
      continue;
    }
    yield `${first ? '' : ','}"events":[`;
    first = false;
    let i = 0;
    let last = '';
    for (const e of d.events) {
      if (i < max) {
        yield (i === 0 ? '' : ',') + jsonInHtml(JSON.stringify(e));
        last = e.time;
      }
      i++;
    }
    if (i > max) sample = { events: i, shownEvents: max, until: last, to: typeof header.to === 'string' ? header.to : null };
    yield ']';
  }
  yield '}</script>\n';
  yield `<script type="application/json" id="history-sample">${jsonInHtml(JSON.stringify(sample))}</script>\n`;
  // the script may hold "</script" in a string: said as "<\/script", the same string to JavaScript
  yield `<script>${opts.script.replace(/<\/(script)/gi, '<\\/$1')}</script>\n</body>\n</html>\n`;
}
