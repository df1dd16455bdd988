// `history` for a person: the timeline table (time, who, verb, controller, pod, reason, whether
// the rules predicted it; -o wide adds the nearest cause and the message), the writes the rules
// did not predict spelled out, a pod's story with the cause chain of each controller write told
// in words, and the one line saying what the log covers. Every time is UTC and says so.

import { isControllerKind } from '../core/controller.js';
import type { ChalkInstance } from 'chalk';
import type { CauseStep, HistoryCounts, HistoryCoverage, HistoryEvent, HistoryVerb, RefusedWrite } from '../history/types.js';
import { type Cell, type Column, humanDuration, kindShort, plural, renderTable, sanitize, tableWidth, visibleLength, wrap } from './text.js';

export interface HistoryRenderOptions {
  chalk: ChalkInstance;
  wide: boolean;
  noHeaders?: boolean;
  /** The terminal's width: a table wider than it drops the date of its times when they share one day. */
  width?: number;
}

// ---------------------------------------------------------------------------------------------
// Times: always UTC

const LOGGED_TIME = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(\.\d+)?(Z|z|[+-]\d\d:?\d\d)?$/;

/** The date, the time of day and its milliseconds (`.871`, or '') of a logged time, in UTC. */
function utcParts(t: string): { date: string; clock: string; ms: string } | null {
  let m = LOGGED_TIME.exec(t);
  if (!m) return null;
  // a time logged with an offset is said in UTC, like every other
  if (m[4] !== undefined && !/^[Zz]$/.test(m[4])) {
    const at = Date.parse(t);
    if (Number.isNaN(at)) return null;
    m = LOGGED_TIME.exec(new Date(at).toISOString());
    if (!m) return null;
  }
  return { date: m[1], clock: m[2], ms: (m[3] ?? '').slice(0, 4) };
}

/** `2026-11-25 02:52:48.871`: the logged time to the millisecond, in UTC (the table's header says so). */
export function eventTime(t: string): string {
  const p = utcParts(t);
  return p ? `${p.date} ${p.clock}${p.ms}` : t;
}

/** `2026-11-25 02:52:48.871Z`: a time in a sentence, marked UTC. */
export function utcTime(t: string): string {
  const p = utcParts(t);
  return p ? `${p.date} ${p.clock}${p.ms}Z` : t;
}

/** `02:52:55Z` (to the second), with the date when it is not `sameDay`'s. */
function clockTime(t: string, sameDay?: string): string {
  const p = utcParts(t);
  if (!p) return t;
  return p.date === sameDay ? `${p.clock}Z` : `${p.date} ${p.clock}Z`;
}

const dateOf = (t: string): string | undefined => utcParts(t)?.date;

// ---------------------------------------------------------------------------------------------
// Who, and what

/** The user as people say it: a service account by its name, `system:node:x` as is. */
export function who(user: string): string {
  const sa = /^system:serviceaccount:([^:]+):(.+)$/.exec(user);
  if (sa) return sa[1] === 'kube-system' ? sa[2] : `${sa[1]}/${sa[2]}`;
  return user;
}

/** kubectl's short names of the kinds a cause chain goes through: rs, rc, deploy, pod, hpa… */
function kindAbbrev(kind: string): string {
  if (isControllerKind(kind)) return kindShort(kind);
  const short: Record<string, string> = {
    Deployment: 'deploy',
    Pod: 'pod',
    HorizontalPodAutoscaler: 'hpa',
    StatefulSet: 'sts',
    DaemonSet: 'ds',
    Node: 'node',
    Job: 'job',
  };
  return short[kind] ?? kind.toLowerCase();
}

/** `ReplicaSet web-7d9c5`, and a pod as `pod web-x2kq9`. */
function objectWords(o: CauseStep['object']): string {
  return `${o.kind === 'Pod' ? 'pod' : o.kind} ${o.name}`;
}

const PAST: Record<HistoryVerb, string> = {
  create: 'created',
  delete: 'deleted',
  adopt: 'adopted',
  release: 'released',
  status: 'wrote the status of',
  scale: 'scaled',
  update: 'updated',
  patch: 'patched',
};

/** What a step's change says happened to the object: made or removed (and how), or neither. */
function lifecycle(step: CauseStep): { verb: 'created' | 'deleted' | 'evicted'; rest: string } | null {
  const m = /^(created|deleted|evicted|deletion started)\b\s*(.*)$/i.exec(step.change.trim());
  if (m) return { verb: m[1].toLowerCase() === 'deletion started' ? 'deleted' : (m[1].toLowerCase() as 'created' | 'deleted' | 'evicted'), rest: m[2] };
  // a create or delete of the object itself whose change says more than that
  if (!step.field.includes('.') && (step.verb === 'create' || step.verb === 'delete'))
    return { verb: step.verb === 'create' ? 'created' : 'deleted', rest: step.change === step.verb + 'd' ? '' : step.change };
  return null;
}

const isReadyField = (field: string): boolean => /ready/i.test(field);

/** The value after the arrow of a change ("4 → 3": "3"), or the whole change without one. */
function after(change: string): string {
  const parts = change.split(/\s*(?:→|->)\s*/);
  return parts[parts.length - 1].trim();
}

/** An image reference: `nginx:1.26`, `registry.k8s.io/pause:3.10`, `app@sha256:…`. */
const IMAGE = /^[a-z0-9][\w.\-/]*(?::[\w.-]+)?(?:@sha256:[0-9a-f]+)?$/i;

/** What a template change changed: "its image nginx:1.25 → nginx:1.26", "its pod template (…)". */
function templateChange(change: string, whose: string): string {
  const c = change.trim();
  if (c === '' || c === 'changed') return `${whose} pod template`;
  // the change names what changed ("image nginx:1.25 → nginx:1.26", "labels a=1 → a=2")
  if (/^images?\b/i.test(c)) return `${whose} ${c}`;
  if (/^(labels|annotations)\b/i.test(c)) return `${whose} pod template's ${c}`;
  if (/^(containers?|env|resources|command|args|ports|volumes)\b/i.test(c)) return `${whose} ${c}`;
  const sides = c.split(/\s*(?:→|->)\s*/);
  if (sides.length === 2 && sides.every((side) => IMAGE.test(side) && /[:/@]/.test(side))) return `${whose} image ${c}`;
  return `${whose} pod template (${c})`;
}

/** "4 → 3" as is; "→ 3 (before unknown…)" as "to 3 (before unknown…)". */
const scaledTo = (change: string): string => change.trim().replace(/^(?:→|->)\s*/, 'to ');

/**
 * One step of a cause chain as a clause: "admin scaled ReplicationController api 4 → 1",
 * "pod web-x2kq9 became not ready". `its`: the object was just named (say "its").
 */
function stepClause(step: CauseStep, its = false): string {
  const actor = who(step.user);
  const obj = objectWords(step.object);
  const it = its ? 'it' : obj;
  const whose = its ? 'its' : `${obj}'s`;
  const { field, change } = step;
  const life = lifecycle(step);
  if (life) return `${actor} ${life.verb} ${it}${life.rest ? ` ${life.rest}` : ''}`;
  const what = change.trim() === 'changed' ? '' : ` ${change.trim()}`;
  if (field === 'spec.replicas') return `${actor} scaled ${it} ${scaledTo(change)}`;
  if (field === 'spec.template') return `${actor} changed ${templateChange(change, whose)}`;
  if (field === 'spec.selector') return `${actor} changed ${whose} selector${what}`;
  if (field === 'metadata.labels') return `${actor} changed ${whose} labels${what}`;
  if (field === 'metadata.ownerReferences') {
    const to = /^controller (?!reference removed$)(.+)$/.exec(change.trim());
    return to ? `${actor} made ${to[1]} ${whose} controller` : `${actor} removed ${whose} controller reference`;
  }
  // the kubelet's status writes: what became of the pod matters, not who wrote it
  if (field === 'status.phase') return `${it} became ${after(change)}`;
  if (isReadyField(field)) {
    const now = after(change).toLowerCase();
    if (now === 'true' || now === 'ready') return `${it} became ready`;
    if (now === 'false' || now === 'unknown' || now === 'not ready' || now === 'notready') return `${it} became not ready`;
    return `${whose} Ready condition went ${change}`;
  }
  return `${actor} ${PAST[step.verb] ?? step.verb} ${it}: ${field}${what}`;
}

const isDeploymentController = (user: string): boolean => who(user) === 'deployment-controller';

/**
 * Why a controller acted, in words, nearest first: "because deployment-controller scaled
 * ReplicaSet web-7d9c5 4 → 3 at 10:15:01Z, rolling out Deployment web after admin changed its
 * image nginx:1.25 → nginx:1.26 at 10:15:00Z". Each step after the first is why the writer of
 * the one before acted; the last is a person's (or another non-controller's) write. Times are
 * to the second, UTC, with the date when it is not that of `at`.
 */
export function causeSentence(steps: readonly CauseStep[], at?: string): string {
  return causeClauses(steps, at).join('');
}

/**
 * causeSentence in its parts, one a step (joined, they are the sentence): the timeline page
 * makes each part a link to the step's own mark.
 */
export function causeClauses(steps: readonly CauseStep[], at?: string): string[] {
  const day = at === undefined ? undefined : dateOf(at);
  return steps.map((step, i) => {
    const when = ` at ${clockTime(step.time, day)}`;
    const prev = steps[i - 1];
    if (i === 0) return `because ${stepClause(step)}${when}`;
    // the deployment controller scaling ReplicaSets because a Deployment's template changed: a rollout
    if (prev && isDeploymentController(prev.user) && step.object.kind === 'Deployment' && step.field === 'spec.template') {
      return `, rolling out Deployment ${step.object.name} after ${stepClause(step, true)}${when}`;
    }
    return `, after ${stepClause(step)}${when}`;
  });
}

/** The nearest cause, short, for the CAUSE column: `deployment-controller scale rs/web-7d9c5 4→3`. */
export function causeCell(cause: readonly CauseStep[] | null): string {
  const step = cause?.[0];
  if (!step) return '-';
  const obj = `${kindAbbrev(step.object.kind)}/${step.object.name}`;
  const compact = step.change.trim().replace(/\s*(?:→|->)\s*/g, '→');
  const life = lifecycle(step);
  if (life) return `${who(step.user)} ${life.verb === 'created' ? 'create' : life.verb === 'evicted' ? 'evict' : 'delete'} ${obj}`;
  if (step.field === 'spec.replicas') return `${who(step.user)} scale ${obj} ${compact}`;
  const field = isReadyField(step.field) ? 'Ready' : (step.field.split('.').pop() ?? step.field);
  return `${who(step.user)} ${step.verb} ${obj} ${field}${compact === 'changed' ? '' : ` ${compact}`}`.trimEnd();
}

// ---------------------------------------------------------------------------------------------
// The coverage line

/** "a", "a and b", "a, b and c". */
function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * What the input covers and lacks, one line, first on stderr:
 * `coverage: gke-cloud-logging, 2026-11-25 02:52:48Z → 02:52:58Z (10s); lacks status writes (…);
 * 3 entries truncated; 12 duplicates dropped`. Only what applies; `from`/`to` are the first and
 * last write shown.
 */
export function renderCoverageLine(coverage: HistoryCoverage, from: string | null, to: string | null): string {
  const parts: string[] = [];
  let span = 'no write shown';
  if (from !== null && to !== null) {
    const start = clockTime(from);
    // the span as the two times read, to the second
    const seconds = (Date.parse(utcSecond(to)) - Date.parse(utcSecond(from))) / 1000;
    span = seconds === 0 ? start : `${start} → ${clockTime(to, dateOf(from))} (${humanDuration(seconds)})`;
  }
  parts.push(`${coverage.format}, ${span}`);
  if (coverage.missing.length > 0) {
    const lacks = coverage.missing.map(shortMissing);
    // "what: why" items have commas of their own: each is then a part of the line
    if (lacks.some((l) => l.includes(': '))) parts.push(...lacks.map((l) => `lacks ${l}`));
    else parts.push(`lacks ${listWords(lacks)}`);
  }
  if (coverage.truncated > 0) parts.push(`${plural(coverage.truncated, 'entry', 'entries')} truncated`);
  if (coverage.duplicates > 0) parts.push(`${plural(coverage.duplicates, 'duplicate')} dropped`);
  return sanitize(`coverage: ${parts.join('; ')}`);
}

/** Longer than this, a missing kind of write is said without its details (-o json has it whole). */
const MISSING_WORDS = 60;

/**
 * "status writes (Data Access logs are off)" as is; a long one in words still, what is missing and
 * why, without its parenthesised details and what follows a semicolon: "status writes: GKE logs
 * them in Data Access audit logs, which are off by default". Never an ellipsis: the line says why.
 */
function shortMissing(item: string): string {
  const text = item.trim();
  if (visibleLength(text) <= MISSING_WORDS) return text;
  const plain = text
    .replace(/ \([^()]*\)/g, '')
    .replace(/;.*$/, '')
    .trim();
  return plain || text;
}

/** The logged time cut to its second, as an ISO string. */
function utcSecond(t: string): string {
  const p = utcParts(t);
  return p ? `${p.date}T${p.clock}Z` : t;
}

// ---------------------------------------------------------------------------------------------
// The table

function predictedCell(e: HistoryEvent, chalk: ChalkInstance): Cell {
  if (e.predicted === true) return { text: 'yes', style: chalk.green };
  if (e.predicted === false) return { text: 'NO', style: chalk.bold.red };
  return e.actor.controller ? { text: 'unknown', style: chalk.magenta } : { text: '-', style: chalk.dim };
}

// Names (who, controller, pod) are never cut, as kubectl never cuts them: a table wider than the
// terminal drops the date of its times when they are all of one day, and the terminal wraps the rest.
const COLUMNS: Column[] = [
  { header: 'TIME (UTC)' },
  { header: 'WHO' },
  { header: 'VERB' },
  { header: 'CONTROLLER' },
  { header: 'POD' },
  { header: 'REASON' },
  { header: 'PREDICTED' },
];
const WIDE_COLUMNS: Column[] = [...COLUMNS, { header: 'CAUSE' }, { header: 'MESSAGE' }];

function cellsOf(e: HistoryEvent, o: HistoryRenderOptions, timeOfDay: boolean): Cell[] {
  const { chalk } = o;
  const time = eventTime(e.time);
  const row: Cell[] = [
    { text: timeOfDay ? time.slice(11) : time },
    { text: who(e.actor.user), style: e.actor.controller ? chalk.cyan : undefined },
    { text: e.verb, style: e.verb === 'delete' ? chalk.red : e.verb === 'create' ? chalk.green : undefined },
    { text: e.controller ? `${kindShort(e.controller.kind)}/${e.controller.name}` : '-' },
    { text: e.pod ?? '-' },
    { text: e.reason ?? '-' },
    predictedCell(e, chalk),
  ];
  if (o.wide) row.push({ text: causeCell(e.cause) }, { text: e.message });
  return row;
}

/** Rows a part of the timeline table holds: the whole history is never in memory. */
export const TABLE_PART_ROWS = 1000;

/** How the table was drawn: `day` when its times left out their one date (the notes name it). */
export interface HistoryTableLayout {
  day: string | null;
}

/**
 * The timeline table, in parts of TABLE_PART_ROWS rows: the columns are measured over every
 * event first (one read of `events`), then each part is drawn with those widths (a second read).
 * Returns (as the generator's value) whether the times left out their date.
 */
export function* historyTableChunks(events: Iterable<HistoryEvent>, o: HistoryRenderOptions): Generator<string, HistoryTableLayout> {
  const columns = o.wide ? WIDE_COLUMNS : COLUMNS;
  // the header is drawn in the first part only, but every part is as wide as the header needs
  const minWidths = columns.map((c) => (o.noHeaders ? 0 : visibleLength(c.header)));
  let count = 0;
  // the one UTC day of every event, null once there are two
  let day: string | null | undefined;
  let clockWidth = 0;
  for (const e of events) {
    count++;
    const cells = cellsOf(e, o, false);
    cells.forEach((c, i) => {
      minWidths[i] = Math.max(minWidths[i], visibleLength(sanitize(c.text)));
    });
    const d = dateOf(e.time) ?? null;
    day = day === undefined ? d : day === d ? day : null;
    clockWidth = Math.max(clockWidth, visibleLength(cells[0].text) - 11);
  }
  if (count === 0 && o.noHeaders) return { day: null };
  const gap = 3;
  const timeOfDay = !o.wide && o.width !== undefined && typeof day === 'string' && tableWidth(minWidths, { gap }) > o.width;
  if (timeOfDay) minWidths[0] = Math.max(o.noHeaders ? 0 : visibleLength(columns[0].header), clockWidth);
  const layout = { gap, minWidths };
  let rows: Cell[][] = [];
  let first = true;
  for (const e of events) {
    rows.push(cellsOf(e, o, timeOfDay));
    if (rows.length === TABLE_PART_ROWS) {
      yield renderTable(columns, rows, { ...layout, noHeaders: o.noHeaders || !first });
      first = false;
      rows = [];
    }
  }
  if (rows.length > 0 || first) yield renderTable(columns, rows, { ...layout, noHeaders: o.noHeaders || !first });
  return { day: timeOfDay ? (day as string) : null };
}

/**
 * One line of counts, and the writes the rules did not predict with what they would have done.
 * `layout.day`: the table's times left out this date (the line names it).
 */
export function renderHistoryNotes(counts: HistoryCounts, notPredicted: HistoryEvent[], o: HistoryRenderOptions, layout?: HistoryTableLayout): string {
  const { chalk } = o;
  const others = counts.events - counts.controller;
  let out =
    `${plural(counts.events, 'write')}${layout?.day ? `, all on ${layout.day} (UTC)` : ''}: ${plural(counts.controller, 'controller write')} (${counts.predicted} predicted, ` +
    `${counts.notPredicted === 0 ? '0' : chalk.bold.red(String(counts.notPredicted))} not predicted${counts.unknown ? `, ${counts.unknown} on unknown state` : ''}), ` +
    `${plural(others, 'other write')}\n`;
  if (counts.notPredicted > 0) {
    out += `\n${chalk.bold.red('Not predicted by the rules:')}\n`;
    const width = Math.max(60, o.width ?? 100);
    for (const e of notPredicted)
      out += wrap(`${utcTime(e.time)} ${e.verb} ${e.pod ?? e.controller?.name ?? ''}: ${e.message}`, width, '  ', '    ').join('\n') + '\n';
    if (counts.notPredicted > notPredicted.length)
      out += `  … and ${counts.notPredicted - notPredicted.length} more (-o json lists every one, with "predicted": false)\n`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A pod's story

/** What `history pod/NAME` tells: the pod's writes, and the controllers' writes of it the API server refused. */
export interface PodStory {
  pod: string;
  /** The namespace it was found in. */
  namespace: string | null;
  /** Its writes, in time order. */
  events: Iterable<HistoryEvent>;
  /** The controllers' writes of it that the API server refused, told with the others in time order. */
  refused?: readonly RefusedWrite[];
}

/** The reason phrase of the HTTP status codes the API server answers writes with. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `409 Conflict`. */
export function statusWords(code: number): string {
  const text = STATUS_TEXT[code];
  return text ? `${code} ${text}` : String(code);
}

const TRIED: Record<HistoryVerb, string> = {
  create: 'tried to create it',
  delete: 'tried to delete it',
  adopt: 'tried to adopt it',
  release: 'tried to release it',
  status: 'tried to write its status',
  scale: 'tried to scale it',
  update: 'tried to update it',
  patch: 'tried to patch it',
};

/** What the story says of a controller write's verdict, before its message. */
export function verdictText(e: HistoryEvent): string {
  if (!e.actor.controller) return e.message;
  if (e.predicted === null) return `unknown: ${e.message}`;
  if (e.predicted === false) return `not predicted by the rules: ${e.message}`;
  return e.message;
}

/**
 * `history pod/NAME`: the pod's life, one paragraph a write: when (UTC) and by whom, the message
 * (the ranking sentence of a delete as it stood), whether the rules predicted it, and why the
 * controller acted (its cause chain in words). The controllers' refused writes of the pod are
 * told among them, in time order.
 */
export function renderPodStory(story: PodStory, o: HistoryRenderOptions): string {
  const { chalk } = o;
  const width = Math.max(60, o.width ?? 100);
  const lines = [chalk.bold(`pod ${story.pod}${story.namespace ? ` (namespace ${story.namespace})` : ''}`)];
  const refused = [...(story.refused ?? [])].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  let r = 0;
  const tellRefused = (until?: string): void => {
    const limit = until === undefined ? Infinity : Date.parse(until);
    while (r < refused.length && !(Date.parse(refused[r].time) > limit)) {
      const w = refused[r++];
      lines.push(
        `${chalk.dim(utcTime(w.time))}  ${who(w.user)} (the controller) ${TRIED[w.verb] ?? `tried to ${w.verb} it`}: ${chalk.yellow(`refused with ${statusWords(w.code)}`)}`,
      );
      if (w.message) lines.push(...wrap(w.message, width, '    ', '    '));
    }
  };
  for (const e of story.events) {
    // a refused write told before the write received after it (at the same time: the refused first)
    tellRefused(e.time);
    const mark = e.predicted === false ? chalk.bold.red(' [not predicted by the rules]') : '';
    const by = e.actor.controller ? `${who(e.actor.user)} (the controller)` : who(e.actor.user);
    lines.push(`${chalk.dim(utcTime(e.time))}  ${chalk.bold(e.verb)} by ${by}${e.reason ? `, ${e.reason}` : ''}${mark}`);
    lines.push(...wrap(verdictText(e), width, '    ', '    '));
    if (e.cause && e.cause.length > 0) lines.push(...wrap(causeSentence(e.cause, e.time), width, '    ', '    '));
  }
  tellRefused();
  return lines.join('\n') + '\n';
}
