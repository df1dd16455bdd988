// Which export a file is, from its first bytes (decompressed): never from its name. reference/
// docs/cloud-audit-logs.md: `[` (an array: gcloud, bq, az, the Insights console) vs `{` (a
// document: {"events"}, {"records"}, {"results"}, {"entries"}, {"logEvents"}; or JSON lines:
// kube-apiserver Events, LogEntries, diagnostic records, BigQuery NDJSON) vs text lines
// (`<ISO 8601> {` S3 export, `<node> {` oc adm node-logs, a CSV header with @message). Told by
// the members of the first entry; a forced format keeps the layout read here and reads every
// entry as that format.

import { isUtf8 } from 'node:buffer';
import { fileParseError, type FilePosition, UserError } from '../../errors.js';
import type { AuditFormat } from './formats.js';

export type Shape = 'event' | 'message' | 'cloudwatch-event' | 'insights-row' | 'insights-csv' | 'log-entry' | 'bigquery-row' | 'aks-record' | 'la-row';

export interface Plan {
  format: AuditFormat;
  layout: 'lines' | 'document' | 'csv';
  shape: Shape;
  /** Lines: what comes before the JSON on each line (when the line does not open with `{`). */
  prefix: 'none' | 'node' | 'time';
  /** Documents: the members of a top-level object that hold the entries. */
  wrapperKeys: ReadonlySet<string>;
  /** Plain kube-apiserver lines, in the order the server wrote them: read as they come. */
  serverOrder: boolean;
}

const WRAPPERS: Record<string, { format: AuditFormat; shape: Shape }> = {
  events: { format: 'eks-cloudwatch', shape: 'cloudwatch-event' },
  logEvents: { format: 'eks-cloudwatch', shape: 'cloudwatch-event' },
  records: { format: 'aks-event-hub', shape: 'aks-record' },
  results: { format: 'eks-logs-insights', shape: 'insights-row' },
  entries: { format: 'gke-cloud-logging', shape: 'log-entry' },
};
const ALL_WRAPPERS = new Set(Object.keys(WRAPPERS));

const SHAPE_OF: Record<AuditFormat, Shape> = {
  'kube-apiserver': 'event',
  'openshift-node-logs': 'event',
  'openshift-must-gather': 'event',
  'eks-s3-export': 'message',
  'eks-cloudwatch': 'cloudwatch-event',
  'eks-logs-insights': 'insights-row',
  'gke-cloud-logging': 'log-entry',
  'gke-bigquery': 'bigquery-row',
  'aks-storage': 'aks-record',
  'aks-event-hub': 'aks-record',
  'aks-log-analytics': 'la-row',
};

export const EXPECTED =
  'kube-apiserver JSON lines, gcloud logging read --format=json, a GKE Cloud Storage or BigQuery sink, aws logs filter-log-events, a CloudWatch export to S3, Logs Insights results, AKS diagnostic logs (storage, Event Hub, Log Analytics), oc adm node-logs or must-gather';

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The members of the object starting at b[i], as far as the head holds them: name → raw value text (null when cut). */
function membersOf(b: Buffer, i: number): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const n = b.length;
  i++;
  for (;;) {
    while (i < n && (isWs(b[i]) || b[i] === 0x2c)) i++;
    if (i >= n || b[i] !== 0x22) return out;
    let j = i + 1;
    for (; j < n && b[j] !== 0x22; j++) if (b[j] === 0x5c) j++;
    if (j >= n) return out;
    let key: string;
    try {
      key = JSON.parse(b.toString('utf8', i, j + 1)) as string;
    } catch {
      return out;
    }
    i = j + 1;
    while (i < n && isWs(b[i])) i++;
    if (b[i] !== 0x3a) return out;
    i++;
    while (i < n && isWs(b[i])) i++;
    const end = valueEnd(b, i);
    if (end < 0) {
      out.set(key, null);
      return out;
    }
    out.set(key, b.toString('utf8', i, end));
    i = end;
  }
}

function valueEnd(b: Buffer, i: number): number {
  const n = b.length;
  const c = b[i];
  if (c === 0x22) {
    for (let j = i + 1; j < n; j++) {
      if (b[j] === 0x22) return j + 1;
      if (b[j] === 0x5c) j++;
    }
    return -1;
  }
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < n; j++) {
      const d = b[j];
      if (d === 0x22) {
        for (j++; j < n && b[j] !== 0x22; j++) if (b[j] === 0x5c) j++;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
    }
    return -1;
  }
  let j = i;
  while (j < n && !isWs(b[j]) && b[j] !== 0x2c && b[j] !== 0x7d && b[j] !== 0x5d) j++;
  return j < n ? j : -1;
}

const str = (raw: string | null | undefined): string | undefined => {
  if (raw === null || raw === undefined || raw[0] !== '"') return undefined;
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
};

/** The format of one entry, from its members; null when none fits. */
function formatOfEntry(m: Map<string, string | null>, file: string, where: FilePosition): { format: AuditFormat; shape: Shape } | null {
  if (m.has('protoPayload')) return { format: 'gke-cloud-logging', shape: 'log-entry' };
  if (m.has('protopayload_auditlog')) return { format: 'gke-bigquery', shape: 'bigquery-row' };
  if (m.has('AuditId') || m.has('log_s') || (m.has('TableName') && m.has('Verb'))) return { format: 'aks-log-analytics', shape: 'la-row' };
  if (m.has('@message') || (m.has('@timestamp') && m.has('@ptr'))) return { format: 'eks-logs-insights', shape: 'insights-row' };
  if (m.has('category') && m.has('properties')) return { format: 'aks-storage', shape: 'aks-record' };
  if (m.has('message') && (m.has('timestamp') || m.has('ingestionTime') || m.has('logStreamName'))) return { format: 'eks-cloudwatch', shape: 'cloudwatch-event' };
  const kind = str(m.get('kind'));
  if (kind === 'Event' && (str(m.get('apiVersion')) ?? '').startsWith('audit.k8s.io/')) return { format: 'kube-apiserver', shape: 'event' };
  if (kind === 'Recording') throw fileParseError(file, 'a recording of rs-reconcile record, not an audit log: give it with --recording', where);
  return null;
}

function unknownObject(file: string, where: FilePosition, m: Map<string, string | null>, what: string): UserError {
  const keys = [...m.keys()].slice(0, 6);
  const kind = str(m.get('kind'));
  return fileParseError(
    file,
    `not an audit log: ${what}${kind ? ` of kind ${kind}` : keys.length > 0 ? ` with members ${keys.join(', ')}` : ''} (expected ${EXPECTED})`,
    where,
  );
}

/** What a binary file looks like, for the message. */
function binaryKind(b: Buffer): string | null {
  const magic: [number[], string][] = [
    [[0x50, 0x4b, 0x03, 0x04], 'a zip archive: unpack it first'],
    [[0x4f, 0x62, 0x6a, 0x01], 'an Avro file (Event Hub Capture?): convert it to JSON first'],
    [[0x50, 0x41, 0x52, 0x31], 'a Parquet file: export the table as JSON'],
    [[0x28, 0xb5, 0x2f, 0xfd], 'zstd-compressed: decompress it first (zstd -d)'],
    [[0x42, 0x5a, 0x68], 'bzip2-compressed: decompress it first (bunzip2)'],
    [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz-compressed: decompress it first (xz -d)'],
  ];
  for (const [m, what] of magic) if (m.every((x, k) => b[k] === x)) return what;
  const probe = b.subarray(0, 8192);
  const nul = probe.indexOf(0);
  if (nul >= 0) return `a binary file, not an audit log (a NUL byte at byte ${nul})`;
  for (let i = 0; i < probe.length; i++) {
    const c = probe[i];
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) return `a binary file, not an audit log (a control character, 0x${c.toString(16).padStart(2, '0')}, at byte ${i})`;
  }
  // a multi-byte character may be cut at the end of the probe
  let end = probe.length;
  if (b.length > probe.length) while (end > probe.length - 4 && end > 0 && (probe[end - 1] & 0xc0) === 0x80) end--;
  if (b.length > probe.length && end > 0 && probe[end - 1] >= 0xc0) end--;
  if (!isUtf8(probe.subarray(0, end))) return 'a binary file, not an audit log (not UTF-8 text)';
  return null;
}

/**
 * The plan to read a file whose content starts with `head` (decompressed; `whole` when that is all
 * of it), or 'empty'. Throws a UserError naming the file for what is no audit export.
 */
export function detect(head: Buffer, whole: boolean, file: string, mustGather: boolean, forced?: AuditFormat): Plan | 'empty' {
  const binary = binaryKind(head);
  if (binary !== null) throw fileParseError(file, `${binary}`);
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && isWs(head[i])) i++;
  if (i >= head.length) {
    if (whole) return 'empty';
    throw fileParseError(file, `not an audit log: ${head.length} bytes of blank space`);
  }
  const c = head[i];
  const plan = (format: AuditFormat, shape: Shape, layout: Plan['layout'], extra: Partial<Plan> = {}): Plan => {
    if (forced !== undefined && forced !== format) {
      format = forced;
      shape = SHAPE_OF[forced];
    }
    if (layout === 'csv') shape = 'insights-csv';
    if (format === 'kube-apiserver' && mustGather) format = 'openshift-must-gather';
    const serverOrder = layout === 'lines' && shape === 'event' && (extra.prefix ?? 'none') === 'none' && format !== 'openshift-node-logs';
    return { format, shape, layout, prefix: extra.prefix ?? (format === 'openshift-node-logs' ? 'node' : format === 'eks-s3-export' ? 'time' : 'none'), wrapperKeys: extra.wrapperKeys ?? ALL_WRAPPERS, serverOrder };
  };
  const lineEnd = head.indexOf(0x0a, i);
  const firstLine = head.toString('utf8', i, lineEnd < 0 ? head.length : lineEnd).replace(/\r$/, '');

  if (c === 0x5b) {
    // an array: told by its first element
    let j = i + 1;
    while (j < head.length && isWs(head[j])) j++;
    if (j >= head.length) {
      if (forced) return plan(forced, SHAPE_OF[forced], 'document');
      throw fileParseError(file, `not an audit log: an array whose first element is not in the first ${head.length} bytes`);
    }
    if (head[j] === 0x5d) return 'empty';
    if (head[j] === 0x5b) {
      // get-query-results --query results: rows of {field, value}
      return plan('eks-logs-insights', 'insights-row', 'document');
    }
    if (head[j] !== 0x7b) {
      if (forced) return plan(forced, SHAPE_OF[forced], 'document');
      throw fileParseError(file, `not an audit log: a JSON array of ${head[j] === 0x22 ? 'strings' : 'values'} (expected ${EXPECTED})`);
    }
    const m = membersOf(head, j);
    const f = formatOfEntry(m, file, {});
    if (f) return plan(f.format, f.shape, 'document');
    if (forced) return plan(forced, SHAPE_OF[forced], 'document');
    throw unknownObject(file, {}, m, 'a JSON array of objects');
  }

  if (c === 0x7b) {
    const m = membersOf(head, i);
    const wrapper = [...m.keys()].find((k) => ALL_WRAPPERS.has(k) && (m.get(k) === null || m.get(k)!.startsWith('[')));
    let k = i + 1;
    while (k < head.length && (head[k] === 0x20 || head[k] === 0x09 || head[k] === 0x0d)) k++;
    const pretty = head[k] === 0x0a;
    if (wrapper !== undefined) {
      const w = WRAPPERS[wrapper];
      if (wrapper === 'results' && !m.has('status') && !m.has('statistics') && m.size > 1) {
        // some other document with a `results` member
      } else return plan(w.format, w.shape, 'document', { wrapperKeys: new Set([wrapper]) });
    }
    if (m.has('messageType')) return plan('eks-cloudwatch', 'cloudwatch-event', 'document', { wrapperKeys: new Set(['logEvents']) });
    const f = formatOfEntry(m, file, { line: 1 });
    if (f) return plan(f.format, f.shape, pretty ? 'document' : 'lines', pretty ? { wrapperKeys: new Set() } : {});
    if (forced) return plan(forced, SHAPE_OF[forced], pretty ? 'document' : 'lines');
    throw unknownObject(file, pretty ? {} : { line: 1 }, m, pretty ? 'a JSON document' : 'a JSON object');
  }

  // text lines
  if (/^\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:?\d\d) +\{/.test(firstLine)) return plan('eks-s3-export', 'message', 'lines', { prefix: 'time' });
  if (/^[A-Za-z0-9][-A-Za-z0-9._]* +\{/.test(firstLine) && /"kind"\s*:\s*"Event"/.test(firstLine.slice(0, 400))) return plan('openshift-node-logs', 'event', 'lines', { prefix: 'node' });
  if (/(^|,)"?@message"?(,|$)/.test(firstLine)) return plan('eks-logs-insights', 'insights-csv', 'csv');
  if (forced) {
    const prefix = forced === 'eks-s3-export' ? 'time' : 'node';
    return plan(forced, SHAPE_OF[forced], forced === 'eks-logs-insights' ? 'csv' : 'lines', { prefix });
  }
  const shown = firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine;
  throw fileParseError(file, `not a JSON audit event, nor any other audit export: it starts with ${JSON.stringify(shown)} (expected ${EXPECTED})`, { line: 1 });
}
