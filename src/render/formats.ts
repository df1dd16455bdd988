// `-o`: one table from output format to renderer, for every command that has the flag. A command
// says what it can show (its views); the table picks the renderer, so `-o yaml` is the same
// emitter for a plan, a reconcile report and the version, and no command dispatches by hand.

import { historyHtmlChunks } from './history-html/document.js';
import { planJsonChunks, planYamlChunks } from './plan-output.js';

/** The formats of -o, in the order help and completion list them. No -o: the human view. */
export const OUTPUT_FORMATS = ['json', 'yaml', 'wide', 'name', 'html'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a command can show. Each is called only for the format that needs it. */
export interface Views {
  /** -o json and -o yaml: the document (the plan of ../shared/plan-format.md, a report…). */
  document?(): object;
  /** -o name: `replicaset.apps/web` lines. */
  names?(): string;
  /**
   * No -o (and -o wide, with `wide`): the text for a person, as blocks printed one after the
   * other, each ending in a newline (one is added when missing; an empty block prints nothing).
   */
  human?(wide: boolean): Iterable<string>;
  /**
   * -o html (with `document`): the script of the page that draws the document (history's
   * timeline, src/render/history-html/), which the caller loads: the renderer reads no file.
   */
  pageScript?(): string;
}

type Renderer = (views: Views) => Iterable<string> | undefined;

// lazily: a view may give its text in parts too long to hold together (history's table)
function* blocks(texts: Iterable<string>): Iterable<string> {
  for (const t of texts) yield t === '' || t.endsWith('\n') ? t : t + '\n';
}

// json and yaml are written in pieces: a plan of 150k pods is beyond one string.
const RENDERERS: Readonly<Record<OutputFormat | 'human', Renderer>> = {
  json: (v) => v.document && planJsonChunks(v.document()),
  yaml: (v) => v.document && planYamlChunks(v.document()),
  name: (v) => v.names && blocks([v.names()]),
  html: (v) => v.document && v.pageScript && historyHtmlChunks(v.document(), { script: v.pageScript() }),
  wide: (v) => v.human && blocks(v.human(true)),
  human: (v) => v.human && blocks(v.human(false)),
};

/** The text of `format` (undefined: no -o), in pieces to write one after the other. */
export function renderOutput(format: string | undefined, views: Views): Iterable<string> {
  const key = format ?? 'human';
  const renderer = Object.hasOwn(RENDERERS, key) ? RENDERERS[key as OutputFormat | 'human'] : undefined;
  const out = renderer?.(views);
  // the flag's options come from the command's formats, so this is a command declaring a format
  // it has no view for: a bug, not bad input
  if (!out) throw new Error(`output format ${JSON.stringify(format)} has no view here`);
  return out;
}
