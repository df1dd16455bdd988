// `history` for a person: the timeline table (time, who, verb, controller, pod, reason, whether
// the rules predicted it), the writes the rules did not predict spelled out, and a pod's story.

import type { ChalkInstance } from 'chalk';
import type { HistoryCounts, HistoryEvent } from '../history/types.js';
import { type Cell, type Column, kindShort, plural, renderTable, sanitize, visibleLength, wrap } from './text.js';

export interface HistoryRenderOptions {
  chalk: ChalkInstance;
  wide: boolean;
  noHeaders?: boolean;
  width?: number;
}

/** `2026-11-25 02:52:48.871`: the logged time to the millisecond. */
export function eventTime(t: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d{1,3})?/.exec(t);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ''}` : t;
}

/** The user as people say it: a service account by its name, `system:node:x` as is. */
export function who(user: string): string {
  const sa = /^system:serviceaccount:([^:]+):(.+)$/.exec(user);
  if (sa) return sa[1] === 'kube-system' ? sa[2] : `${sa[1]}/${sa[2]}`;
  return user;
}

function predictedCell(e: HistoryEvent, chalk: ChalkInstance): Cell {
  if (e.predicted === true) return { text: 'yes', style: chalk.green };
  if (e.predicted === false) return { text: 'NO', style: chalk.bold.red };
  return e.actor.controller ? { text: 'unknown', style: chalk.magenta } : { text: '-', style: chalk.dim };
}

const COLUMNS: Column[] = [
  { header: 'TIME' },
  { header: 'WHO', shrink: [24, 12] },
  { header: 'VERB' },
  { header: 'CONTROLLER', shrink: [24, 12], ellipsis: 'middle' },
  { header: 'POD', shrink: [24, 12], ellipsis: 'middle' },
  { header: 'REASON' },
  { header: 'PREDICTED' },
];

function cellsOf(e: HistoryEvent, o: HistoryRenderOptions): Cell[] {
  const { chalk } = o;
  const row: Cell[] = [
    { text: eventTime(e.time) },
    { text: who(e.actor.user), style: e.actor.controller ? chalk.cyan : undefined },
    { text: e.verb, style: e.verb === 'delete' ? chalk.red : e.verb === 'create' ? chalk.green : undefined },
    { text: e.controller ? `${kindShort(e.controller.kind)}/${e.controller.name}` : '-' },
    { text: e.pod ?? '-' },
    { text: e.reason ?? '-' },
    predictedCell(e, chalk),
  ];
  if (o.wide) row.push({ text: e.message });
  return row;
}

/** Rows a part of the timeline table holds: the whole history is never in memory. */
export const TABLE_PART_ROWS = 1000;

/**
 * The timeline table, in parts of TABLE_PART_ROWS rows: the columns are measured over every
 * event first (one read of `events`), then each part is drawn with those widths (a second read).
 */
export function* historyTableChunks(events: Iterable<HistoryEvent>, o: HistoryRenderOptions): Generator<string> {
  const columns = o.wide ? [...COLUMNS, { header: 'MESSAGE' }] : COLUMNS;
  // the header is drawn in the first part only, but every part is as wide as the header needs
  const minWidths = columns.map((c) => (o.noHeaders ? 0 : visibleLength(c.header)));
  let count = 0;
  for (const e of events) {
    count++;
    cellsOf(e, o).forEach((c, i) => (minWidths[i] = Math.max(minWidths[i], visibleLength(sanitize(c.text)))));
  }
  if (count === 0 && o.noHeaders) return;
  const layout = { width: o.wide ? undefined : o.width, gap: 3, minWidths };
  let rows: Cell[][] = [];
  let first = true;
  for (const e of events) {
    rows.push(cellsOf(e, o));
    if (rows.length === TABLE_PART_ROWS) {
      yield renderTable(columns, rows, { ...layout, noHeaders: o.noHeaders || !first });
      first = false;
      rows = [];
    }
  }
  if (rows.length > 0 || first) yield renderTable(columns, rows, { ...layout, noHeaders: o.noHeaders || !first });
}

/** One line of counts, and the writes the rules did not predict with what they would have done. */
export function renderHistoryNotes(counts: HistoryCounts, notPredicted: HistoryEvent[], o: HistoryRenderOptions): string {
  const { chalk } = o;
  const others = counts.events - counts.controller;
  let out =
    `${plural(counts.events, 'write')}: ${plural(counts.controller, 'controller write')} (${counts.predicted} predicted, ` +
    `${counts.notPredicted === 0 ? '0' : chalk.bold.red(String(counts.notPredicted))} not predicted${counts.unknown ? `, ${counts.unknown} on unknown state` : ''}), ` +
    `${plural(others, 'other write')}\n`;
  if (counts.notPredicted > 0) {
    out += `\n${chalk.bold.red('Not predicted by the rules:')}\n`;
    const width = Math.max(60, o.width ?? 100);
    for (const e of notPredicted) out += wrap(`${eventTime(e.time)} ${e.verb} ${e.pod ?? e.controller?.name ?? ''}: ${e.message}`, width, '  ', '    ').join('\n') + '\n';
    if (counts.notPredicted > notPredicted.length) out += `  … and ${counts.notPredicted - notPredicted.length} more (-o json lists every one, with "predicted": false)\n`;
  }
  return out;
}

/** `history pod/NAME`: the pod's life, one paragraph a write, the ranking sentence of its delete as it stood. */
export function renderPodStory(events: Iterable<HistoryEvent>, pod: string, namespace: string | null, o: HistoryRenderOptions): string {
  const { chalk } = o;
  const width = Math.max(60, o.width ?? 100);
  const lines = [chalk.bold(`pod ${pod}${namespace ? ` (namespace ${namespace})` : ''}`)];
  for (const e of events) {
    const mark = e.predicted === false ? chalk.bold.red(' [not predicted by the rules]') : '';
    const by = e.actor.controller ? `${who(e.actor.user)} (the controller)` : who(e.actor.user);
    lines.push(`${chalk.dim(eventTime(e.time))}  ${chalk.bold(e.verb)} by ${by}${e.reason ? `, ${e.reason}` : ''}${mark}`);
    lines.push(...wrap(e.message, width, '    ', '    '));
  }
  return lines.join('\n') + '\n';
}
