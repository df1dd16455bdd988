// EKS: the audit log in CloudWatch Logs. Each CloudWatch event's `message` is the kube-apiserver
// Event's JSON text, as `aws logs filter-log-events` / `get-log-events` print them
// ({"events": [...]}), a subscription delivers them ({"logEvents": [...]}), an export task writes
// them to S3 ("<ISO 8601> <message>" lines) and Logs Insights returns them (`@message`, in
// get-query-results' {"results": [[{field, value}]]}, the console's JSON array, or CSV). Messages
// CloudWatch cut end with `[Truncated...]` and are not JSON: read as far as they go
// (recoverCutEvent). Messages that are no audit Event (other streams of the log group) are left out.

import { EntryError, type EntryContext } from './entry.js';
import { eventOfEventText, isObj, recoverCutEvent } from './event.js';
import { timeUs } from './time.js';

const TRUNCATED = '[Truncated...]';

/** The Event of a CloudWatch message, or null when it is not an audit Event. */
export function eventOfMessage(msg: unknown, ctx: EntryContext): Record<string, any> | null {
  if (typeof msg !== 'string') return null;
  let text = msg;
  if (text.endsWith('\n')) text = text.trimEnd();
  if (text.endsWith(TRUNCATED)) {
    ctx.truncated = true;
    return recoverCutEvent(text.slice(0, -TRUNCATED.length), ctx.fallbackUs);
  }
  return eventOfEventText(text, ctx);
}

/** A CloudWatch event ({logStreamName?, timestamp, message, …}) as an Event. */
export function eventOfCloudWatchEvent(text: string, ctx: EntryContext): Record<string, any> | null {
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

/** An S3 export line's message (the prefix already read as the fallback time). */
export function eventOfExportLine(text: string, ctx: EntryContext): Record<string, any> | null {
  return eventOfMessage(text, ctx);
}

export class InsightsError extends EntryError {}

function fromFields(fields: Map<string, unknown>, ctx: EntryContext): Record<string, any> | null {
  const msg = fields.get('@message');
  if (msg === undefined) throw new InsightsError('Logs Insights results without @message: run the query with `fields @timestamp, @message`');
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
export function eventOfInsightsRow(text: string, ctx: EntryContext): Record<string, any> | null {
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

/** A Logs Insights CSV record, given the header's columns. */
export function eventOfInsightsCsv(fields: string[], header: string[], ctx: EntryContext): Record<string, any> | null {
  const m = new Map<string, unknown>();
  header.forEach((h, i) => m.set(h, fields[i]));
  return fromFields(m, ctx);
}
