// Small text helpers shared by the human views: kubectl-style durations, sanitising text that
// comes from the cluster, truncation and word wrapping of plain text, and a borderless
// kubectl-like table on top of cli-table3 that fits a width by truncating cells with "…"
// (./table.ts draws it in chunks, so its cost grows linearly with the rows).
//
// Every function works on plain text; colour is applied after truncation/wrapping so that an
// escape sequence is never cut in half and widths are always counted on visible characters.

import { controllerKindInfo } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { humanDuration as coreHumanDuration } from '../core/time.js';
import { drawTable } from './table.js';

const ELLIPSIS = '…';

/** A surrogate pair: two UTF-16 units of one code point. */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Number of visible characters of a plain string (code points; the text we print is narrow):
 * its UTF-16 units less one for each surrogate pair, as `for…of` counts them. No loop in
 * JavaScript: wrapping calls this for every word, and a loop over every character became hot
 * enough for V8 to optimise it in every `explain` run.
 */
export function visibleLength(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/**
 * Text from objects (names, messages, annotations) may contain control characters; printed as
 * is they could move the cursor or inject escape sequences. Replace them (newlines and tabs
 * included) with a space so one value stays on one line.
 */
export function sanitize(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** A copy of a JSON-like value with every string passed through `sanitize`. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}

/** `text` cut to at most `width` visible characters, ending in "…" when it was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width) return text; // no more code points than UTF-16 units: nothing to cut
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width === 1) return ELLIPSIS;
  return chars.slice(0, width - 1).join('') + ELLIPSIS;
}

/**
 * Word-wrap plain text to `width` columns. The first line starts with `first`, the following
 * ones with `rest` (usually spaces of the same length). Words longer than a line are cut.
 */
export function wrap(text: string, width: number, first = '', rest = first): string[] {
  const words = sanitize(text)
    .split(' ')
    .filter((w) => w !== '');
  const lines: string[] = [];
  let prefix = first;
  let line = '';
  const room = (): number => Math.max(10, width - visibleLength(prefix));
  const flush = (): void => {
    lines.push(prefix + line);
    prefix = rest;
    line = '';
  };
  for (let word of words) {
    while (visibleLength(word) > room()) {
      if (line !== '') flush();
      const chars = [...word];
      line = chars.slice(0, room()).join('');
      word = chars.slice(room()).join('');
      flush();
    }
    if (word === '') continue;
    if (line === '') line = word;
    else if (visibleLength(line) + 1 + visibleLength(word) <= room()) line += ' ' + word;
    else {
      flush();
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(prefix + line);
  return lines;
}

/** kubectl's age format (core's HumanDuration); `<unknown>` when the time is not known. */
export function humanDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '<unknown>';
  return coreHumanDuration(seconds);
}

/** A short duration for requeue delays: `12s`, `1.5s`, and kubectl style from 2 minutes on. */
export function shortSeconds(seconds: number): string {
  if (seconds >= 120) return humanDuration(seconds);
  const rounded = Math.round(seconds * 10) / 10;
  return `${rounded}s`;
}

export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/** `rs` / `rc`, the kubectl short names used in the KIND column. */
export function kindShort(kind: ControllerKind): string {
  return controllerKindInfo(kind).shortName;
}

/** The resource as `kubectl get -o name` prints it: `replicaset.apps` / `replicationcontroller`. */
export function resourceName(kind: ControllerKind): string {
  const info = controllerKindInfo(kind);
  return `${kind.toLowerCase()}${info.group ? `.${info.group}` : ''}`;
}

/** The path the controller PUTs the status to. */
export function statusPath(kind: ControllerKind, namespace: string, name: string): string {
  const info = controllerKindInfo(kind);
  const root = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  return `${root}/namespaces/${namespace}/${info.resource}/${name}/status`;
}

// ---------------------------------------------------------------------------------------------
// Tables

/** One table cell: plain text and an optional style applied after truncation. */
export interface Cell {
  text: string;
  style?: (s: string) => string;
}

export interface Column {
  header: string;
  /**
   * Floors the column may be truncated down to in order to fit the width, one per shrink tier:
   * every column is first shrunk to its tier-0 floor (widest first), then to its tier-1 floor,
   * and so on; a column keeps its last floor in later tiers. Absent: never truncated. A column
   * is never narrower than its header (when headers are shown).
   */
  shrink?: number[];
  /** Where to cut: `end` (default) or `middle`, which keeps the distinguishing end of pod names. */
  ellipsis?: 'end' | 'middle';
}

export interface TableLayout {
  noHeaders?: boolean;
  /** Maximum line width; undefined means no limit. */
  width?: number;
  /** Spaces between columns (kubectl uses 3). */
  gap?: number;
  /** Spaces before every line. */
  indent?: number;
  /**
   * Natural widths measured beforehand over every row of a table drawn in parts (each part then
   * lays its columns out as the whole table would).
   */
  minWidths?: number[];
}

/** Natural column widths: the widest cell (or header) of each column. */
export function naturalWidths(columns: Column[], rows: string[][], noHeaders = false, minWidths?: number[]): number[] {
  return columns.map((col, i) => {
    let w = Math.max(noHeaders ? 0 : visibleLength(col.header), minWidths?.[i] ?? 0);
    for (const row of rows) w = Math.max(w, visibleLength(row[i] ?? ''));
    return w;
  });
}

/** Line width of a table with these column widths (gaps and indent included). */
export function tableWidth(widths: number[], layout: TableLayout): number {
  return (layout.indent ?? 0) + widths.reduce((a, b) => a + b, 0) + (layout.gap ?? 3) * Math.max(0, widths.length - 1);
}

/**
 * Column widths for `rows`, shrinking the shrinkable columns tier by tier (widest first) until
 * the table fits `layout.width`. `maxTier` limits how far shrinking may go.
 */
export function fitColumns(columns: Column[], rows: string[][], layout: TableLayout, maxTier = Infinity): number[] {
  const widths = naturalWidths(columns, rows, layout.noHeaders, layout.minWidths);
  if (layout.width === undefined) return widths;
  let total = tableWidth(widths, layout);
  const tiers = Math.min(maxTier + 1, Math.max(0, ...columns.map((c) => c.shrink?.length ?? 0)));
  for (let tier = 0; tier < tiers && total > layout.width; tier++) {
    const floors = columns.map((c) => {
      if (!c.shrink || c.shrink.length === 0) return Infinity;
      const floor = c.shrink[Math.min(tier, c.shrink.length - 1)];
      return Math.max(1, floor, layout.noHeaders ? 0 : visibleLength(c.header));
    });
    while (total > layout.width) {
      let pick = -1;
      for (let i = 0; i < columns.length; i++) {
        if (widths[i] <= floors[i]) continue;
        if (pick === -1 || widths[i] > widths[pick]) pick = i;
      }
      if (pick === -1) break; // this tier cannot shrink any further
      widths[pick]--;
      total--;
    }
  }
  return widths;
}

/** `text` cut in the middle to `width` characters: `web-7d4…-x2k9p`. */
export function truncateMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 2) return truncate(text, width);
  const tail = Math.floor((width - 1) / 2);
  const head = width - 1 - tail;
  return chars.slice(0, head).join('') + ELLIPSIS + chars.slice(chars.length - tail).join('');
}

/**
 * A borderless, left-aligned table like `kubectl get`: upper-case headers, columns separated by
 * `gap` spaces, no trailing spaces, cells truncated with "…" to fit `layout.width`.
 */
export function renderTable(columns: Column[], rows: Cell[][], layout: TableLayout = {}): string {
  const plainRows = rows.map((row) => columns.map((_, i) => sanitize(row[i]?.text ?? '')));
  const widths = fitColumns(columns, plainRows, layout);
  const cut = (text: string, i: number): string => (columns[i].ellipsis === 'middle' ? truncateMiddle(text, widths[i]) : truncate(text, widths[i]));
  const shown = plainRows.map((plain, r) =>
    plain.map((text, i) => {
      const cell = cut(text, i);
      const style = rows[r][i]?.style;
      return style && cell !== '' ? style(cell) : cell;
    }),
  );
  const head = layout.noHeaders ? undefined : columns.map((c, i) => truncate(c.header, widths[i]));
  if (!layout.noHeaders || rows.length > 0) {
    const pad = ' '.repeat(layout.indent ?? 0);
    return (
      drawTable(head, shown, layout.gap ?? 3, layout.minWidths ? widths : undefined)
        .map((line) => pad + line.trimEnd())
        .join('\n') + '\n'
    );
  }
  return '';
}
