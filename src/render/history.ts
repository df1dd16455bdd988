// `history` for a person: the timeline table (time, who, verb, controller, pod, reason, whether
// the rules predicted it), the writes the rules did not predict spelled out, and a pod's story.

import type { ChalkInstance } from 'chalk';
import type { HistoryEvent, ReconcileHistory } from '../history/types.js';
import { type Cell, type Column, plural, renderTable, wrap } from './text.js';

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

function kindShort(kind: string): string {
  return kind === 'ReplicaSet' ? 'rs' : 'rc';
}

export function renderHistoryTable(h: ReconcileHistory, o: HistoryRenderOptions): string {
  const { chalk } = o;
  const columns: Column[] = [
    { header: 'TIME' },
    { header: 'WHO', shrink: [24, 12] },
    { header: 'VERB' },
    { header: 'CONTROLLER', shrink: [24, 12], ellipsis: 'middle' },
    { header: 'POD', shrink: [24, 12], ellipsis: 'middle' },
    { header: 'REASON' },
    { header: 'PREDICTED' },
  ];
  if (o.wide) columns.push({ header: 'MESSAGE' });
  const rows: Cell[][] = h.events.map((e) => {
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
  });
  if (rows.length === 0 && o.noHeaders) return '';
  return renderTable(columns, rows, { noHeaders: o.noHeaders, width: o.wide ? undefined : o.width, gap: 3 });
}

/** One line of counts, and each write the rules did not predict with what they would have done. */
export function renderHistoryNotes(h: ReconcileHistory, o: HistoryRenderOptions): string {
  const { chalk } = o;
  const mine = h.events.filter((e) => e.actor.controller);
  const yes = mine.filter((e) => e.predicted === true).length;
  const no = mine.filter((e) => e.predicted === false);
  const unknown = mine.filter((e) => e.predicted === null).length;
  const users = h.events.length - mine.length;
  let out =
    `${plural(h.events.length, 'write')}: ${plural(mine.length, 'controller write')} (${yes} predicted, ` +
    `${no.length === 0 ? '0' : chalk.bold.red(String(no.length))} not predicted${unknown ? `, ${unknown} on unknown state` : ''}), ` +
    `${plural(users, "other write")}\n`;
  if (no.length > 0) {
    out += `\n${chalk.bold.red('Not predicted by the rules:')}\n`;
    const width = Math.max(60, o.width ?? 100);
    for (const e of no) out += wrap(`${eventTime(e.time)} ${e.verb} ${e.pod ?? e.controller?.name ?? ''}: ${e.message}`, width, '  ', '    ').join('\n') + '\n';
  }
  return out;
}

/** `history pod/NAME`: the pod's life, one paragraph a write, the ranking sentence of its delete as it stood. */
export function renderPodStory(h: ReconcileHistory, pod: string, namespace: string | null, o: HistoryRenderOptions): string {
  const { chalk } = o;
  const width = Math.max(60, o.width ?? 100);
  const lines = [chalk.bold(`pod ${pod}${namespace ? ` (namespace ${namespace})` : ''}`)];
  for (const e of h.events) {
    const mark = e.predicted === false ? chalk.bold.red(' [not predicted by the rules]') : '';
    const by = e.actor.controller ? `${who(e.actor.user)} (the controller)` : who(e.actor.user);
    lines.push(`${chalk.dim(eventTime(e.time))}  ${chalk.bold(e.verb)} by ${by}${e.reason ? `, ${e.reason}` : ''}${mark}`);
    lines.push(...wrap(e.message, width, '    ', '    '));
  }
  return lines.join('\n') + '\n';
}
