// AKS: the kube-audit and kube-audit-admin diagnostic categories. A diagnostic setting archives
// records to a storage account (PT1H.json: one record a line) or sends them to Event Hub
// ({"records": [...]}); each record holds the kube-apiserver Event's JSON text in
// `properties.log`, cut at 16 KiB on the storage export (Azure/AKS#4635). Log Analytics rows, as
// `az monitor log-analytics query` prints them (every value a string), are AKSAudit /
// AKSAuditAdmin columns (objects as JSON text; big bodies replaced by
// "skipped-too-big-size-object"; no impersonated user) or AzureDiagnostics' `log_s` (the Event's
// JSON text, trimmed at 32,766 bytes). Records of other categories are left out.

import { EntryError, FileError, type EntryContext } from '../entry.js';
import { cutEvent, escapedEventOutside, eventOfEventText, hasTruncatedMark, markTruncated, readAsFarAsItGoes, recoverCutEvent } from '../event.js';
import { isObj } from '../../../core/guards.js';
import type { AuditFilter } from '../filter.js';
import { eventTimeOf, stringOf, timeOf, valueAt } from '../keys.js';
import { normalizeTime, timeUs } from '../time.js';
import { auditExport, type EntryOps } from './format.js';
import { METADATA_BODIES } from './kube-apiserver.js';

/** Noted by the readers: an AKSAudit or AKSAuditAdmin row was read (they have no impersonated user). */
const AUDIT_ROWS = 'aks-audit-rows';

const SKIPPED_BODY = 'skipped-too-big-size-object';

/** The Event in an Event's JSON text that may be cut (null when the text is no audit Event). */
function eventOfLogText(log: unknown, ctx: EntryContext): Record<string, any> | null {
  return typeof log === 'string' ? eventOfEventText(log.trimEnd(), ctx) : null;
}

const isAuditCategory = (c: unknown) => c === undefined || c === null || (typeof c === 'string' && c.toLowerCase().startsWith('kube-audit'));

/** A diagnostic record (storage line or Event Hub record) as an Event; null for other categories. */
function eventOfRecord(text: string, ctx: EntryContext): Record<string, any> | null {
  let r: any;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON record (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObj(r)) throw new EntryError('not a diagnostic record (a JSON object)');
  if (!isAuditCategory(r.category)) return null;
  let props = r.properties;
  if (typeof props === 'string') {
    try {
      props = JSON.parse(props);
    } catch {
      return null;
    }
  }
  noteTime(r.time, ctx);
  return isObj(props) ? eventOfLogText(props.log, ctx) : null;
}

/** A record's (or row's) own time as the fallback of an Event that has none. */
function noteTime(t: unknown, ctx: EntryContext): void {
  const us = typeof t === 'string' ? timeUs(t) : NaN;
  if (!Number.isNaN(us) && Number.isNaN(ctx.fallbackUs)) ctx.fallbackUs = us;
}

/**
 * The Event of a broken entry's Event text: read whole, or as far as it goes (`cutText`, the
 * break in it); without either, an Event of unknown object. Always cut (cutEvent).
 */
function recoverLogText(log: unknown, cutText: string | null, ctx: EntryContext): Record<string, any> | null {
  const ev = typeof log === 'string' ? eventOfLogText(log, ctx) : recoverCutEvent(cutText ?? '', ctx.fallbackUs);
  return ev === null ? null : cutEvent(ev, ctx.fallbackUs);
}

/** A broken diagnostic record: its `properties.log` as far as it goes (category and time come before it). */
function recoverRecord(text: string, ctx: EntryContext): Record<string, any> | null {
  const { members: r, cut, text: cutText } = readAsFarAsItGoes(text);
  if (!isAuditCategory(r.category)) return null;
  noteTime(r.time, ctx);
  const props = r.properties;
  return recoverLogText(isObj(props) ? props.log : undefined, cut[0] === 'properties' && cut[1] === 'log' ? cutText : null, ctx);
}

/** A Log Analytics column holding JSON text (or, from other clients, the value itself). */
function column(v: unknown, ctx: EntryContext, body = false): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return v;
  if (body && v === SKIPPED_BODY) {
    ctx.truncated = true;
    return undefined;
  }
  const c = v.charCodeAt(0);
  if (c !== 0x7b && c !== 0x5b) return v;
  try {
    return JSON.parse(v);
  } catch {
    if (body) ctx.truncated = true;
    return undefined;
  }
}

/** A Log Analytics row (AKSAudit, AKSAuditAdmin or AzureDiagnostics) as an Event; null for other categories. */
function eventOfLogAnalyticsRow(text: string, ctx: EntryContext): Record<string, any> | null {
  let r: any;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON row (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObj(r)) throw new EntryError('not a Log Analytics row (a JSON object)');
  noteTime(r.TimeGenerated, ctx);
  if ('log_s' in r) {
    if (!isAuditCategory(r.Category ?? r.category)) return null;
    return eventOfLogText(r.log_s, ctx);
  }
  if (!('AuditId' in r) && !('Verb' in r)) throw new FileError('not an AKSAudit, AKSAuditAdmin or AzureDiagnostics row (no AuditId, Verb or log_s column)');
  return eventOfAuditRow(r, ctx);
}

/** An AKSAudit or AKSAuditAdmin row's columns as an Event (only those present: a broken row's are those before the break). */
function eventOfAuditRow(r: Record<string, any>, ctx: EntryContext): Record<string, any> {
  ctx.coverage.note(AUDIT_ROWS);
  const ev: Record<string, any> = { kind: 'Event', apiVersion: 'audit.k8s.io/v1' };
  const set = (k: string, v: unknown) => {
    if (v !== undefined && v !== '') ev[k] = v;
  };
  set('level', r.Level);
  set('auditID', r.AuditId);
  set('stage', r.Stage);
  set('requestURI', r.RequestUri);
  set('verb', r.Verb);
  set('user', column(r.User, ctx));
  set('sourceIPs', column(r.SourceIps, ctx));
  set('userAgent', r.UserAgent);
  set('objectRef', column(r.ObjectRef, ctx));
  set('responseStatus', column(r.ResponseStatus, ctx));
  set('requestObject', column(r.RequestObject, ctx, true));
  set('responseObject', column(r.ResponseObject, ctx, true));
  set('requestReceivedTimestamp', normalizeTime(r.RequestReceivedTime));
  set('stageTimestamp', normalizeTime(r.StageReceivedTime ?? r.StageTimestamp));
  set('annotations', column(r.Annotations, ctx));
  if (ev.stageTimestamp === undefined && ev.requestReceivedTimestamp === undefined && typeof r.TimeGenerated === 'string')
    ev.stageTimestamp = normalizeTime(r.TimeGenerated);
  if (isObj(ev.responseStatus) && typeof ev.responseStatus.code === 'string') ev.responseStatus.code = Number(ev.responseStatus.code);
  if (ctx.truncated || hasTruncatedMark(ev)) {
    ctx.truncated = true;
    markTruncated(ev);
  }
  return ev;
}

/** A broken Log Analytics row: log_s as far as it goes, or the AKSAudit columns before the break. */
function recoverLogAnalyticsRow(text: string, ctx: EntryContext): Record<string, any> | null {
  const { members: r, cut, text: cutText } = readAsFarAsItGoes(text);
  noteTime(r.TimeGenerated, ctx);
  if ('log_s' in r || cut[0] === 'log_s') {
    if (!isAuditCategory(r.Category ?? r.category)) return null;
    return recoverLogText(r.log_s, cut[0] === 'log_s' ? cutText : null, ctx);
  }
  if (!('AuditId' in r) && !('Verb' in r)) return recoverCutEvent('', ctx.fallbackUs);
  return cutEvent(eventOfAuditRow(r, ctx), ctx.fallbackUs);
}

/** A raw record certainly outside `f`: its `properties.log` told by escapedEventOutside. */
function recordOutside(b: Buffer, s: number, e: number, f: AuditFilter): boolean {
  const v = valueAt(b, s, e, 'log');
  return v >= 0 && b[v] === 0x22 && escapedEventOutside(b, v + 1, e, f);
}

/** A raw Log Analytics row certainly outside `f`: its Stage or Verb column, or log_s. */
function rowOutside(b: Buffer, s: number, e: number, f: AuditFilter): boolean {
  const log = valueAt(b, s, e, 'log_s');
  if (log >= 0) return b[log] === 0x22 && escapedEventOutside(b, log + 1, e, f);
  const stage = stringOf(b, s, e, 'Stage');
  if (stage !== null && stage !== '' && !f.stages.has(stage)) return true;
  const verb = stringOf(b, s, e, 'Verb');
  if (verb !== null && verb !== '' && !f.verbs.has(verb)) return true;
  // ObjectRef's JSON text, whose first member is the resource (kube-apiserver's order)
  const ref = valueAt(b, s, e, 'ObjectRef');
  if (ref < 0 || b[ref] !== 0x22) return false;
  const m = /^"\{\\"resource\\": ?\\"([a-z0-9.-]+)\\"/.exec(b.toString('latin1', ref, Math.min(e, ref + 200)));
  return m !== null && !f.resources.has(m[1]);
}

const RECORDS: EntryOps = {
  read: eventOfRecord,
  recover: recoverRecord,
  rawTime: (b, s, e) => {
    const t = eventTimeOf(b, s, e, true);
    return Number.isNaN(t) ? timeOf(b, s, e, 'time', true) : t;
  },
  outside: (b, s, e, f) => recordOutside(b, s, e, f),
};

export const aksStorage = auditExport({
  name: 'aks-storage',
  description: 'AKS diagnostic logs archived to a storage account (PT1H.json)',
  recognise: { precedence: 50, entry: (m) => m.has('category') && m.has('properties') },
  entries: RECORDS,
  bodiesMissing: METADATA_BODIES,
});

export const aksEventHub = auditExport({
  name: 'aks-event-hub',
  description: 'AKS diagnostic logs from Event Hub ({"records": [...]})',
  recognise: { precedence: 70, wrappers: ['records'] },
  entries: RECORDS,
  bodiesMissing: METADATA_BODIES,
});

export const aksLogAnalytics = auditExport({
  name: 'aks-log-analytics',
  description: 'AKS audit rows from Log Analytics (az monitor log-analytics query: AKSAudit, AKSAuditAdmin, AzureDiagnostics)',
  recognise: { precedence: 30, entry: (m) => m.has('AuditId') || m.has('log_s') || (m.has('TableName') && m.has('Verb')) },
  entries: {
    read: eventOfLogAnalyticsRow,
    recover: recoverLogAnalyticsRow,
    rawTime: (b, s, e) => {
      let t = timeOf(b, s, e, 'StageReceivedTime');
      if (Number.isNaN(t)) t = eventTimeOf(b, s, e, true);
      return Number.isNaN(t) ? timeOf(b, s, e, 'TimeGenerated') : t;
    },
    outside: (b, s, e, f) => rowOutside(b, s, e, f),
  },
  missing: (seen) => (seen.noted(AUDIT_ROWS) ? ['impersonated users: AKSAudit and AKSAuditAdmin rows have no impersonatedUser column'] : []),
  bodiesMissing: METADATA_BODIES,
});
