// `-o`: one table from output format to renderer, for every command that has the flag. A command
// says what it can show (its views); the table picks the renderer, so `-o yaml` is the same
// emitter for a plan, a reconcile report and the version, and no command dispatches by hand.

import { historyHtmlChunks } from './history-html/document.js';
import { planJsonChunks, planYamlChunks } from './plan-output.js';

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

/** A view by name, as a command declares what it can show (`wide`: its human view has a wide form; `page`: a page script). */
export type ViewName = 'document' | 'names' | 'human' | 'wide' | 'page';

/** One format of -o: its name, the views it draws from, and how. */
export interface OutputFormat {
  name: string;
  /** A command offers the format when it has every one of these views. */
  needs: readonly ViewName[];
  render: Renderer;
}

// lazily: a view may give its text in parts too long to hold together (history's table)
function* blocks(texts: Iterable<string>): Iterable<string> {
  for (const t of texts) yield t === '' || t.endsWith('\n') ? t : t + '\n';
}

/**
 * The formats of -o, in the order help and completion list them. Adding one is one entry here and
 * its renderer's module: every command whose views it needs offers it (test/render/formats.test.ts
 * adds a throw-away one). json and yaml are written in pieces: a plan of 150k pods is beyond one string.
 */
export const OUTPUT_FORMATS: OutputFormat[] = [
  { name: 'json', needs: ['document'], render: (v) => v.document && planJsonChunks(v.document()) },
  { name: 'yaml', needs: ['document'], render: (v) => v.document && planYamlChunks(v.document()) },
  { name: 'wide', needs: ['wide'], render: (v) => v.human && blocks(v.human(true)) },
  { name: 'name', needs: ['names'], render: (v) => v.names && blocks([v.names()]) },
  { name: 'html', needs: ['document', 'page'], render: (v) => v.document && v.pageScript && historyHtmlChunks(v.document(), { script: v.pageScript() }) },
];

/** No -o: the human view. */
const HUMAN: Renderer = (v) => v.human && blocks(v.human(false));

/** The names of the formats a command with these views offers, in the table's order. */
export function formatsFor(views: readonly ViewName[]): string[] {
  return OUTPUT_FORMATS.filter((f) => f.needs.every((n) => views.includes(n))).map((f) => f.name);
}

/** The text of `format` (undefined: no -o), in pieces to write one after the other. */
export function renderOutput(format: string | undefined, views: Views): Iterable<string> {
  const renderer = format === undefined ? HUMAN : OUTPUT_FORMATS.find((f) => f.name === format)?.render;
  const out = renderer?.(views);
  // the flag's options come from the command's formats, so this is a command declaring a format
  // it has no view for: a bug, not bad input
  if (!out) throw new Error(`output format ${JSON.stringify(format)} has no view here`);
  return out;
}
