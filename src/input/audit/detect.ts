// Which export a file is, from its first bytes (decompressed): never from its name. reference/
// docs/cloud-audit-logs.md: `[` (an array: gcloud, bq, az, the Insights console) vs `{` (a
// document: {"events"}, {"records"}, {"results"}, {"entries"}, {"logEvents"}; or JSON lines:
// kube-apiserver Events, LogEntries, diagnostic records, BigQuery NDJSON) vs text lines
// (`<ISO 8601> {` S3 export, `<node> {` oc adm node-logs, a CSV header with @message). Told by
// the members of the first entry; a forced format keeps the layout read here and reads every
// entry as that format.

import { isUtf8 } from 'node:buffer';
import { fileParseError, type FilePosition, type UserError } from '../../errors.js';
import type { AuditExport, CsvOps, Members } from './formats/format.js';
import { memberString } from './formats/format.js';
import { AUDIT_EXPORTS, exportOf, type AuditFormat } from './formats/index.js';

export interface Plan {
  format: AuditFormat;
  /** The export the entries are read as (the recognised one, or the one forced). */
  of: AuditExport;
  layout: 'lines' | 'document' | 'csv';
  /** CSV: how its records are read (the export whose header was recognised). */
  csv: CsvOps | null;
  /** Lines: what comes before the JSON on each line (when the line does not open with `{`). */
  prefix: 'none' | 'node' | 'time';
  /** Documents: the members of a top-level object that hold the entries. */
  wrapperKeys: ReadonlySet<string>;
  /** Plain kube-apiserver lines, in the order the server wrote them: read as they come. */
  serverOrder: boolean;
}

const EXPECTED =
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

/** The export of one entry, from its members; null when none fits. */
function exportOfEntry(ordered: readonly AuditExport[], m: Members, file: string, where: FilePosition): AuditExport | null {
  for (const x of ordered) if (x.recognise.entry?.(m)) return x;
  if (memberString(m, 'kind') === 'Recording')
    throw fileParseError(file, 'a recording of rs-reconcile record, not an audit log: give it with --recording', where);
  return null;
}

function unknownObject(file: string, where: FilePosition, m: Map<string, string | null>, what: string): UserError {
  const keys = [...m.keys()].slice(0, 6);
  const kind = memberString(m, 'kind');
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
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c)
      return `a binary file, not an audit log (a control character, 0x${c.toString(16).padStart(2, '0')}, at byte ${i})`;
  }
  // a multi-byte character may be cut at the end of the probe
  let end = probe.length;
  if (b.length > probe.length) while (end > probe.length - 4 && end > 0 && (probe[end - 1] & 0xc0) === 0x80) end--;
  if (b.length > probe.length && end > 0 && probe[end - 1] >= 0xc0) end--;
  if (!isUtf8(probe.subarray(0, end))) return 'a binary file, not an audit log (not UTF-8 text)';
  return null;
}

type Layout = Plan['layout'];
type Extra = { prefix?: Plan['prefix']; wrapperKeys?: ReadonlySet<string> };

/** What one file's recognition works with: the exports in the order they are asked, and what the caller forces. */
class Recognizer {
  readonly ordered = [...AUDIT_EXPORTS].sort((a, b) => a.recognise.precedence - b.recognise.precedence);
  readonly wrappers = new Set(this.ordered.flatMap((x) => x.recognise.wrappers ?? []));
  readonly forced: AuditExport | undefined;

  constructor(
    readonly file: string,
    private readonly mustGather: boolean,
    forced: AuditFormat | undefined,
  ) {
    this.forced = forced === undefined ? undefined : exportOf(forced);
    if (forced !== undefined && this.forced === undefined) throw new Error(`no audit format ${forced}`);
  }

  /** The plan to read the file as `x` in `layout` (a forced export is read in the layout found). */
  plan(x: AuditExport, layout: Layout, extra: Extra = {}): Plan {
    let of = this.forced ?? x;
    const csv = layout === 'csv' ? (x.csv ?? null) : null;
    if (this.mustGather) of = this.ordered.find((y) => y.recognise.inMustGather === of.name) ?? of;
    const prefix = extra.prefix ?? of.prefix ?? 'none';
    const serverOrder = layout === 'lines' && of.serverOrder === true && prefix === 'none';
    return { format: of.name as AuditFormat, of, layout, csv, prefix, wrapperKeys: extra.wrapperKeys ?? this.wrappers, serverOrder };
  }

  /** An array: told by its first element. */
  array(head: Buffer, i: number): Plan | 'empty' {
    const { file, forced } = this;
    let j = i + 1;
    while (j < head.length && isWs(head[j])) j++;
    if (j >= head.length) {
      if (forced) return this.plan(forced, 'document');
      throw fileParseError(file, `not an audit log: an array whose first element is not in the first ${head.length} bytes`);
    }
    if (head[j] === 0x5d) return 'empty';
    const rows = head[j] === 0x5b ? this.ordered.find((x) => x.recognise.rows) : undefined;
    if (rows !== undefined) return this.plan(rows, 'document');
    if (head[j] !== 0x7b) {
      if (forced) return this.plan(forced, 'document');
      throw fileParseError(file, `not an audit log: a JSON array of ${head[j] === 0x22 ? 'strings' : 'values'} (expected ${EXPECTED})`);
    }
    const m = membersOf(head, j);
    const x = exportOfEntry(this.ordered, m, file, {});
    if (x) return this.plan(x, 'document');
    if (forced) return this.plan(forced, 'document');
    throw unknownObject(file, {}, m, 'a JSON array of objects');
  }

  /** An object: a document wrapping the entries, or the first of JSON lines (or a pretty-printed entry). */
  object(head: Buffer, i: number): Plan {
    const { file, forced } = this;
    const m = membersOf(head, i);
    const wrapper = [...m.keys()].find((k) => this.wrappers.has(k) && (m.get(k) === null || m.get(k)!.startsWith('[')));
    if (wrapper !== undefined) {
      const w = this.ordered.find((x) => x.recognise.wrappers?.includes(wrapper))!;
      // another document with such a member falls through
      if (w.recognise.wrapperAccepts?.(m) !== false) return this.plan(w, 'document', { wrapperKeys: new Set([wrapper]) });
    }
    for (const x of this.ordered) {
      const keys = x.recognise.document?.(m);
      if (keys) return this.plan(x, 'document', { wrapperKeys: new Set(keys) });
    }
    let k = i + 1;
    while (k < head.length && (head[k] === 0x20 || head[k] === 0x09 || head[k] === 0x0d)) k++;
    const pretty = head[k] === 0x0a;
    const x = exportOfEntry(this.ordered, m, file, { line: 1 });
    if (x) return this.plan(x, pretty ? 'document' : 'lines', pretty ? { wrapperKeys: new Set() } : {});
    if (forced) return this.plan(forced, pretty ? 'document' : 'lines');
    throw unknownObject(file, pretty ? {} : { line: 1 }, m, pretty ? 'a JSON document' : 'a JSON object');
  }

  /** Text lines: told by the first. */
  text(firstLine: string): Plan {
    for (const x of this.ordered) {
      if (!x.recognise.firstLine?.(firstLine)) continue;
      return x.csv ? this.plan(x, 'csv') : this.plan(x, 'lines', { prefix: x.prefix ?? 'node' });
    }
    const forced = this.forced;
    if (forced) return this.plan(forced, forced.csv ? 'csv' : 'lines', { prefix: forced.prefix ?? 'node' });
    const shown = firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine;
    throw fileParseError(this.file, `not a JSON audit event, nor any other audit export: it starts with ${JSON.stringify(shown)} (expected ${EXPECTED})`, {
      line: 1,
    });
  }
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
  const r = new Recognizer(file, mustGather, forced);
  if (head[i] === 0x5b) return r.array(head, i);
  if (head[i] === 0x7b) return r.object(head, i);
  const lineEnd = head.indexOf(0x0a, i);
  return r.text(head.toString('utf8', i, lineEnd < 0 ? head.length : lineEnd).replace(/\r$/, ''));
}
