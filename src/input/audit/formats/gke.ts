// GKE: Cloud Logging LogEntry objects carrying an AuditLog (`protoPayload`), as `gcloud logging
// read --format=json`, a Cloud Storage sink, Pub/Sub or the Logging API print them, and the rows of
// a BigQuery sink's table (`protopayload_auditlog`, bodies as JSON strings). Mapped back to an
// audit.k8s.io/v1 Event as docs/cloud-audit-logs.md (GKE) says:
//   insertId → auditID; methodName's last segment → verb; resourceName → objectRef (core → no
//   apiGroup, as kube-apiserver omits an empty one; the subresource from methodName, so that
//   `pods.status.patch` is pods with subresource status); requestURI rebuilt (no query string);
//   principalEmail → user.username; callerIp → sourceIPs; callerSuppliedUserAgent → userAgent;
//   request/response minus "@type" → requestObject/responseObject; the google.rpc code → an HTTP
//   code (grpcToHttp); timestamp → both times; labels → annotations; stage ResponseComplete;
//   level RequestResponse with a response body, Request with a request body only, else Metadata.

import { EntryError, type EntryContext } from '../entry.js';
import { cutEvent, markTruncated, methodOutside, type ObjectRef, readAsFarAsItGoes, recoverCutEvent, uriOfRef, hasTruncatedMark } from '../event.js';
import { isObj } from '../../../core/guards.js';
import type { AuditFilter } from '../filter.js';
import { stringOf, timeOf } from '../keys.js';
import { normalizeTime } from '../time.js';
import { auditExport, type EntryOps, type FormatSeen } from './format.js';

/** Noted by the readers: an entry of a Data Access audit log was seen (status writes are there). */
const DATA_ACCESS = 'gke-data-access';

/**
 * The HTTP status of a google.rpc code, as grpc-gateway's HTTPStatusFromCode maps them (the
 * upstream mapping of gRPC to HTTP), with OK read as 201 for a create, as kube-apiserver answers one.
 * Kubernetes' 409 Conflict (resourceVersion mismatch) is logged as 10 ABORTED; 422 Invalid as 3.
 */
function grpcToHttp(code: number, verb: string): number {
  switch (code) {
    case 0:
      return verb === 'create' ? 201 : 200;
    case 1:
      return 499; // CANCELLED
    case 3: // INVALID_ARGUMENT
    case 9: // FAILED_PRECONDITION
    case 11: // OUT_OF_RANGE
      return 400;
    case 4:
      return 504; // DEADLINE_EXCEEDED
    case 5:
      return 404; // NOT_FOUND
    case 6: // ALREADY_EXISTS
    case 10: // ABORTED
      return 409;
    case 7:
      return 403; // PERMISSION_DENIED
    case 8:
      return 429; // RESOURCE_EXHAUSTED
    case 12:
      return 501; // UNIMPLEMENTED
    case 14:
      return 503; // UNAVAILABLE
    case 16:
      return 401; // UNAUTHENTICATED
    default:
      return 500; // UNKNOWN, INTERNAL, DATA_LOSS, and any other
  }
}

/** objectRef from `resourceName` (`core/v1/namespaces/demo/pods/web-1`) and `methodName` (`io.k8s.core.v1.pods.status.patch`). */
function refOfResourceName(resourceName: unknown, method: string): ObjectRef | undefined {
  if (typeof resourceName !== 'string' || resourceName === '') return undefined;
  const path = resourceName.split('/');
  const segs = method.split('.');
  const last = segs[segs.length - 2];
  const prev = segs[segs.length - 3];
  const ref: ObjectRef = {};
  let r: number; // index of the resource in path
  if (path.length >= 5 && path[path.length - 1] === last && path[path.length - 3] === prev) {
    r = path.length - 3;
    ref.subresource = last;
  } else r = path[2] === 'namespaces' && path.length > 4 && last !== 'namespaces' ? 4 : 2;
  ref.resource = path[r];
  if (path[2] === 'namespaces' && path.length > 3) ref.namespace = path[3];
  if (r + 1 < path.length) ref.name = path[r + 1];
  const group = path[0];
  if (group !== 'core' && group !== '') ref.apiGroup = group;
  if (path[1] !== undefined) ref.apiVersion = path[1];
  return ref;
}

interface AuditLogParts {
  insertId: unknown;
  timestamp: unknown;
  labels: unknown;
  payload: Record<string, any>;
  request: unknown;
  response: unknown;
  /** The google.rpc code; null when the status was lost (the entry broken before it). */
  code: number | null;
  statusMessage: unknown;
}

const stripType = (o: unknown): Record<string, unknown> | undefined => {
  if (!isObj(o)) return undefined;
  if (!('@type' in o)) return o;
  const { '@type': _t, ...rest } = o;
  return rest;
};

function eventOf(p: AuditLogParts, ctx: EntryContext): Record<string, any> {
  const pl = p.payload;
  const method = typeof pl.methodName === 'string' ? pl.methodName : '';
  const segs = method.split('.');
  const verb = segs[segs.length - 1] ?? '';
  const ref = refOfResourceName(pl.resourceName, method);
  const request = stripType(p.request);
  const response = stripType(p.response);
  const time = normalizeTime(p.timestamp);
  const auth = isObj(pl.authenticationInfo) ? pl.authenticationInfo : {};
  const meta = isObj(pl.requestMetadata) ? pl.requestMetadata : {};
  const ev: Record<string, any> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: response !== undefined ? 'RequestResponse' : request !== undefined ? 'Request' : 'Metadata',
    auditID: p.insertId,
    stage: 'ResponseComplete',
    requestURI: ref ? uriOfRef(ref, verb) : '/',
    verb,
    user: { username: auth.principalEmail ?? auth.principalSubject },
  };
  if (typeof meta.callerIp === 'string') ev.sourceIPs = [meta.callerIp];
  if (typeof meta.callerSuppliedUserAgent === 'string') ev.userAgent = meta.callerSuppliedUserAgent;
  if (ref) ev.objectRef = ref;
  if (p.code !== null)
    ev.responseStatus = {
      metadata: {},
      code: grpcToHttp(p.code, verb),
      ...(p.code !== 0 && typeof p.statusMessage === 'string' ? { status: 'Failure', message: p.statusMessage } : {}),
    };
  if (request !== undefined) ev.requestObject = request;
  if (response !== undefined) ev.responseObject = response;
  ev.requestReceivedTimestamp = time;
  ev.stageTimestamp = time;
  if (isObj(p.labels) && Object.keys(p.labels).length > 0) ev.annotations = { ...p.labels };
  if (hasTruncatedMark(ev)) {
    markTruncated(ev);
    ctx.truncated = true;
  }
  return ev;
}

const isDataAccess = (logName: unknown) => typeof logName === 'string' && /(%2F|\/)data_access$/.test(logName);

/** The google.rpc code of an AuditLog's status: 0 when it has none, null when it may have been lost (`cut`: the payload broken). */
const codeOf = (status: unknown, cut: boolean): number | null => (isObj(status) ? Number(status.code ?? 0) || 0 : cut ? null : 0);

/** A LogEntry as an Event; null for entries that are not Kubernetes audit logs (other services in the export). */
function eventOfLogEntry(text: string, ctx: EntryContext): Record<string, any> | null {
  let e: any;
  try {
    e = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON log entry (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObj(e)) throw new EntryError('not a log entry (a JSON object)');
  return eventOfLogEntryObject(e, ctx, false);
}

/** A LogEntry's members as an Event (`cut`: its protoPayload is broken, its status maybe lost); null for other services. */
function eventOfLogEntryObject(e: Record<string, any>, ctx: EntryContext, cut: boolean): Record<string, any> | null {
  const pl = e.protoPayload;
  if (
    !isObj(pl) ||
    (pl.serviceName !== undefined && pl.serviceName !== 'k8s.io') ||
    (isObj(e.resource) && e.resource.type !== undefined && e.resource.type !== 'k8s_cluster')
  )
    return null;
  if (isDataAccess(e.logName)) ctx.coverage.note(DATA_ACCESS);
  return eventOf(
    {
      insertId: e.insertId ?? e.operation?.id,
      timestamp: e.timestamp ?? e.receiveTimestamp,
      labels: e.labels,
      payload: pl,
      request: pl.request,
      response: pl.response,
      code: codeOf(pl.status, cut),
      statusMessage: isObj(pl.status) ? pl.status.message : undefined,
    },
    ctx,
  );
}

/**
 * A broken LogEntry (or BigQuery row, its AuditLog at `payload`): its AuditLog's members before
 * the break (methodName and resourceName name the write) read as a cut Event; without an
 * AuditLog, an Event of unknown object.
 */
function recoverLogEntry(payload: string, of: (e: Record<string, any>, ctx: EntryContext, cut: boolean) => Record<string, any> | null) {
  return (text: string, ctx: EntryContext): Record<string, any> | null => {
    const { members, cut } = readAsFarAsItGoes(text);
    const pl = members[payload];
    if (!isObj(pl)) return recoverCutEvent('', ctx.fallbackUs);
    // gcloud's sorted keys put resourceName after the request body: broken there, the object is
    // the one authorised (authorizationInfo's resource, the same path, before the bodies)
    const auth = Array.isArray(pl.authorizationInfo) ? pl.authorizationInfo[0] : undefined;
    if (pl.resourceName === undefined && isObj(auth)) pl.resourceName = auth.resource;
    const ev = of(members, ctx, cut[0] === payload);
    return ev === null ? null : cutEvent(ev, ctx.fallbackUs);
  };
}

function jsonColumn(v: unknown, ctx: EntryContext): unknown {
  if (typeof v !== 'string' || v === '') return isObj(v) ? v : undefined;
  try {
    return JSON.parse(v);
  } catch {
    ctx.truncated = true;
    return undefined;
  }
}

/** BigQuery labels: a RECORD of strings, or the repeated {key, value} of some exports. */
function labelsOf(v: unknown): Record<string, string> | undefined {
  if (Array.isArray(v)) return Object.fromEntries(v.filter((x) => isObj(x) && typeof x.key === 'string').map((x) => [x.key, String(x.value)]));
  if (isObj(v))
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, String(x)]),
    );
  return undefined;
}

/** A row of a BigQuery sink's table (`bq query --format=json`) as an Event; null for other services. */
function eventOfBigQueryRow(text: string, ctx: EntryContext): Record<string, any> | null {
  let r: any;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON row (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isObj(r)) throw new EntryError('not a BigQuery row (a JSON object)');
  return eventOfBigQueryObject(r, ctx, false);
}

/** A BigQuery row's members as an Event (`cut`: its protopayload_auditlog is broken, its status maybe lost); null for other services. */
function eventOfBigQueryObject(r: Record<string, any>, ctx: EntryContext, cut: boolean): Record<string, any> | null {
  const pl = r.protopayload_auditlog;
  if (!isObj(pl) || (pl.serviceName !== undefined && pl.serviceName !== null && pl.serviceName !== 'k8s.io')) return null;
  if (isDataAccess(r.logName)) ctx.coverage.note(DATA_ACCESS);
  const request = jsonColumn(pl.requestJson, ctx);
  const response = jsonColumn(pl.responseJson, ctx);
  const ev = eventOf(
    {
      insertId: r.insertId ?? r.operation?.id,
      timestamp: r.timestamp ?? r.receiveTimestamp,
      labels: labelsOf(r.labels),
      payload: pl,
      request,
      response,
      code: codeOf(pl.status, cut),
      statusMessage: isObj(pl.status) ? pl.status.message : undefined,
    },
    ctx,
  );
  if (ctx.truncated && ev.level !== 'Metadata') markTruncated(ev);
  return ev;
}

/**
 * A raw LogEntry (or BigQuery row) certainly outside `f`, told from its methodName (the first
 * one: AuditLog's methodName comes before the bodies in every layout, gcloud's sorted keys and
 * protojson's field order alike). Notes a Data Access entry on the way.
 */
function logEntryOutside(b: Buffer, s: number, e: number, f: AuditFilter, ctx: EntryContext): boolean {
  const lim = Math.min(e, s + 16384);
  const method = stringOf(b, s, lim, 'methodName');
  if (!ctx.coverage.noted(DATA_ACCESS)) {
    const log = stringOf(b, s, lim, 'logName');
    if (log !== null && isDataAccess(log)) ctx.coverage.note(DATA_ACCESS);
  }
  if (method === null) return false;
  return methodOutside(method, f);
}

export const GKE_DATA_ACCESS = 'status writes (pods/status, replicasets/status): GKE logs them in Data Access audit logs, which are off by default';
const GKE_CODES =
  'HTTP status codes: GKE logs gRPC codes, read as HTTP codes (0 as 200, or 201 for a create; 5 as 404; 6 and 10 as 409; 7 as 403; 3, 9 and 11 as 400)';

const missing = (seen: FormatSeen): string[] => (seen.noted(DATA_ACCESS) ? [GKE_CODES] : [GKE_DATA_ACCESS, GKE_CODES]);
const rawTime = (b: Buffer, s: number, e: number) => timeOf(b, s, e, 'timestamp', true);

const LOG_ENTRIES: EntryOps = { read: eventOfLogEntry, recover: recoverLogEntry('protoPayload', eventOfLogEntryObject), rawTime, outside: logEntryOutside };
const BIGQUERY_ROWS: EntryOps = {
  read: eventOfBigQueryRow,
  recover: recoverLogEntry('protopayload_auditlog', eventOfBigQueryObject),
  rawTime,
  outside: logEntryOutside,
};

export const gkeCloudLogging = auditExport({
  name: 'gke-cloud-logging',
  description: 'GKE Cloud Logging entries (gcloud logging read --format=json, a Cloud Storage sink, Pub/Sub)',
  recognise: { precedence: 10, entry: (m) => m.has('protoPayload'), wrappers: ['entries'] },
  entries: LOG_ENTRIES,
  oneTimeAnEntry: true,
  missing,
});

export const gkeBigquery = auditExport({
  name: 'gke-bigquery',
  description: 'GKE audit logs from a BigQuery sink (bq query --format=json)',
  recognise: { precedence: 20, entry: (m) => m.has('protopayload_auditlog') },
  entries: BIGQUERY_ROWS,
  oneTimeAnEntry: true,
  missing,
});
