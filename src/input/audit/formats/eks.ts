// EKS: the audit log in CloudWatch Logs. Each CloudWatch event's `message` is the kube-apiserver
// Event's JSON text, as `aws logs filter-log-events` / `get-log-events` print them
// ({"events": [...]}), a subscription delivers them ({"logEvents": [...]}), an export task writes
// them to S3 ("<ISO 8601> <message>" lines) and Logs Insights returns them (`@message`, in
// get-query-results' {"results": [[{field, value}]]}, the console's JSON array, or CSV). Messages
// CloudWatch cut end with `[Truncated...]` and are not JSON: read as far as they go
// (recoverCutEvent). Messages that are no audit Event (other streams of the log group) are left out.

import { EntryError, FileError, type EntryContext } from '../entry.js';
import { cutEvent, escapedEventOutside, eventOfEventText, eventOutside, readAsFarAsItGoes, recoverCutEvent } from '../event.js';
import { isObj } from '../../../core/guards.js';
import type { AuditFilter } from '../filter.js';
import { eventTimeOf, numberOf, valueAt } from '../keys.js';
import { timeUs } from '../time.js';
import { auditExport } from './format.js';
import { METADATA_BODIES } from './kube-apiserver.js';

const TRUNCATED = '[Truncated...]';

/** The Event of a CloudWatch message, or null when it is not an audit Event. */
function eventOfMessage(msg: unknown, ctx: EntryContext): Record<string, any> | null {
  if (typeof msg !== 'string') return null;
  let text = msg;
  if (text.endsWith('\n')) text = text.trimEnd();
  if (text.endsWith(TRUNCATED)) {
    ctx.truncated = true;
    return recoverCutEvent(text.slice(0, -TRUNCATED.length), ctx.fallbackUs);
  }
  return eventOfEventText(text, ctx);
}

/**
 * The Event of the message of a broken entry: the message read whole, or as far as it goes
 * (`cutText`, the break in it); without either, an Event of unknown object. Always cut (cutEvent).
 */
function recoverMessage(msg: unknown, cutText: string | null, ctx: EntryContext): Record<string, any> | null {
  const ev = typeof msg === 'string' ? eventOfMessage(msg, ctx) : recoverCutEvent(cutText ?? '', ctx.fallbackUs);
  return ev === null ? null : cutEvent(ev, ctx.fallbackUs);
}

/** A CloudWatch event ({logStreamName?, timestamp, message, …}) as an Event. */
function eventOfCloudWatchEvent(text: string, ctx: EntryContext): Record<string, any> | null {
  let el: any;
  try {
    el = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON CloudWatch event (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObj(el)) throw new EntryError('not a CloudWatch event (a JSON object with a message)');
  if (typeof el.logStreamName === 'string' && !el.logStreamName.startsWith('kube-apiserver-audit')) return null;
  if (typeof el.timestamp === 'number') ctx.fallbackUs = el.timestamp * 1000;
  return eventOfMessage(el.message, ctx);
}

/** A broken CloudWatch event: its message as far as it goes (AWS CLI prints logStreamName and timestamp before it). */
function recoverCloudWatchEvent(text: string, ctx: EntryContext): Record<string, any> | null {
  const { members: el, cut, text: cutText } = readAsFarAsItGoes(text);
  if (typeof el.logStreamName === 'string' && !el.logStreamName.startsWith('kube-apiserver-audit')) return null;
  if (typeof el.timestamp === 'number') ctx.fallbackUs = el.timestamp * 1000;
  return recoverMessage(el.message, cut[0] === 'message' ? cutText : null, ctx);
}

/** An S3 export line's message (the prefix already read as the fallback time). */
function eventOfExportLine(text: string, ctx: EntryContext): Record<string, any> | null {
  return eventOfMessage(text, ctx);
}

function fromFields(fields: Map<string, unknown>, ctx: EntryContext): Record<string, any> | null {
  const msg = fields.get('@message');
  if (msg === undefined) throw new FileError('Logs Insights results without @message: run the query with `fields @timestamp, @message`');
  const ts = fields.get('@timestamp');
  if (typeof ts === 'string') {
    const us = timeUs(ts);
    if (!Number.isNaN(us)) ctx.fallbackUs = us;
  }
  const stream = fields.get('@logStream');
  if (typeof stream === 'string' && stream !== '' && !stream.startsWith('kube-apiserver-audit')) return null;
  return eventOfMessage(msg, ctx);
}

/** A Logs Insights row: get-query-results' [{field, value}, …], or the console's {"@timestamp", "@message", …}. */
function eventOfInsightsRow(text: string, ctx: EntryContext): Record<string, any> | null {
  let row: any;
  try {
    row = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON Logs Insights row (${(err as Error).message.split('\n')[0]})`);
  }
  const fields = new Map<string, unknown>();
  if (Array.isArray(row)) {
    for (const f of row) if (isObj(f) && typeof f.field === 'string') fields.set(f.field, f.value);
  } else if (isObj(row)) {
    for (const [k, v] of Object.entries(row)) fields.set(k, v);
  } else throw new EntryError('not a Logs Insights row');
  return fromFields(fields, ctx);
}

/**
 * A broken Logs Insights row: the console's {"@timestamp", "@message", …} read as far as it goes
 * (get-query-results' [{field, value}, …] holds nothing read that way: an Event of unknown object).
 */
function recoverInsightsRow(text: string, ctx: EntryContext): Record<string, any> | null {
  const { members, cut, text: cutText } = readAsFarAsItGoes(text);
  const ts = members['@timestamp'];
  if (typeof ts === 'string' && !Number.isNaN(timeUs(ts))) ctx.fallbackUs = timeUs(ts);
  const stream = members['@logStream'];
  if (typeof stream === 'string' && stream !== '' && !stream.startsWith('kube-apiserver-audit')) return null;
  return recoverMessage(members['@message'], cut[0] === '@message' ? cutText : null, ctx);
}

/** A Logs Insights CSV record, given the header's columns. */
function eventOfInsightsCsv(fields: string[], header: string[], ctx: EntryContext): Record<string, any> | null {
  const m = new Map<string, unknown>();
  header.forEach((h, i) => {
    m.set(h, fields[i]);
  });
  return fromFields(m, ctx);
}

/** A raw CloudWatch event certainly outside `f`: its `message` told by escapedEventOutside. */
function messageOutside(b: Buffer, s: number, e: number, f: AuditFilter): boolean {
  const v = valueAt(b, s, e, 'message');
  return v >= 0 && b[v] === 0x22 && escapedEventOutside(b, v + 1, e, f);
}

export const eksCloudwatch = auditExport({
  name: 'eks-cloudwatch',
  description: 'EKS audit logs from CloudWatch (aws logs filter-log-events / get-log-events)',
  recognise: {
    precedence: 60,
    entry: (m) => m.has('message') && (m.has('timestamp') || m.has('ingestionTime') || m.has('logStreamName')),
    wrappers: ['events', 'logEvents'],
    // a subscription's delivery, its logEvents past the head
    document: (m) => (m.has('messageType') ? ['logEvents'] : null),
  },
  entries: {
    read: eventOfCloudWatchEvent,
    recover: recoverCloudWatchEvent,
    rawTime: (b, s, e) => {
      const t = eventTimeOf(b, s, e, true);
      return Number.isNaN(t) ? numberOf(b, s, e, 'timestamp') * 1000 : t;
    },
    outside: messageOutside,
  },
  bodiesMissing: METADATA_BODIES,
});

export const eksS3Export = auditExport({
  name: 'eks-s3-export',
  description: 'EKS audit logs exported from CloudWatch to S3 ("<time> <event>" lines)',
  recognise: { precedence: 35, firstLine: (line) => /^\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d) +\{/.test(line) },
  entries: {
    read: eventOfExportLine,
    recover: (text, ctx) => recoverCutEvent(text, ctx.fallbackUs),
    rawTime: (b, s, e) => eventTimeOf(b, s, e, false),
    outside: (b, s, e, f) => eventOutside(b, s, e, f),
  },
  prefix: 'time',
  cutMark: TRUNCATED,
  bodiesMissing: METADATA_BODIES,
});

/** A CSV record's time: the Event's in @message, else @timestamp. */
function csvTime(f: string[], h: string[]): number {
  const msg = f[h.indexOf('@message')] ?? '';
  const m = /"stageTimestamp":"([^"]+)"/.exec(msg) ?? /"requestReceivedTimestamp":"([^"]+)"/.exec(msg);
  if (m) return timeUs(m[1]);
  const ts = h.indexOf('@timestamp');
  return ts >= 0 && f[ts] !== undefined ? timeUs(f[ts]) : NaN;
}

export const eksLogsInsights = auditExport({
  name: 'eks-logs-insights',
  description: 'EKS audit logs from CloudWatch Logs Insights (get-query-results, console JSON or CSV)',
  recognise: {
    precedence: 40,
    entry: (m) => m.has('@message') || (m.has('@timestamp') && m.has('@ptr')),
    // get-query-results' {"results": [...], "status", "statistics"}, not any document with results
    wrappers: ['results'],
    wrapperAccepts: (m) => m.has('status') || m.has('statistics') || m.size <= 1,
    // get-query-results --query results: rows of {field, value}
    rows: true,
    firstLine: (line) => /(^|,)"?@message"?(,|$)/.test(line),
  },
  entries: { read: eventOfInsightsRow, recover: recoverInsightsRow, rawTime: (b, s, e) => eventTimeOf(b, s, e, true), outside: () => false },
  csv: {
    read: eventOfInsightsCsv,
    headerProblem: (h) => (h.includes('@message') ? null : 'Logs Insights CSV without a @message column: run the query with `fields @timestamp, @message`'),
    time: csvTime,
  },
  rowCap: 10_000,
  missing: (seen) => (seen.capped ? ['entries after the first 10,000 of a query: Logs Insights returns at most 10,000 rows'] : []),
  bodiesMissing: METADATA_BODIES,
});
