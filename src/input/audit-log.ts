// Reading audit logs, in any of the shapes users of managed clusters hold them:
// kube-apiserver JSON lines, GKE (gcloud, Cloud Storage / Pub/Sub / BigQuery sinks), EKS
// (CloudWatch filter-log-events, S3 export, Logs Insights), AKS (storage, Event Hub, Log
// Analytics), OpenShift (node-logs, must-gather). Files and directories in any mix, plain or gzip
// (told by the magic bytes), the format of each file recognised from its content
// (audit/detect.ts) unless one is forced. Every entry comes out as an audit.k8s.io/v1 Event, all
// files merged in time order (stageTimestamp), entries seen twice (same auditID and stage) left
// out, in bounded memory:
//   - plain kube-apiserver lines are read as they come (the order the server answered), a MiB at
//     a time; a file whose head or tail shows it is not in that order (newest first) is sorted;
//   - every other file is indexed in a first pass (28 bytes an entry: time, offset, length, line)
//     and read in time order in a second, with positioned reads from the file, or from a spool of
//     the decompressed bytes (gzip, pipes) in a private temporary file removed when done;
//   - JSON documents (a 1 GiB gcloud array, bq's single line) are split into their elements at the
//     byte level, each parsed alone: no document is parsed whole, and they have no line limit;
//   - duplicates are found within a window of time (DEDUP_WINDOW_MS, see there).
// What the inputs could not tell (truncated entries, duplicates, documents cut off, formats'
// known gaps) is filled into an AuditCoverage passed in the options.
// Recordings (`record`, docs/recording-format.md) are JSON lines read by readJsonLines.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { fileParseError, fileReadError, UserError } from '../errors.js';
import { AuditCoverage, type AuditFileReport } from './audit/coverage.js';
import { detect, type Plan } from './audit/detect.js';
import { objectKnown } from './audit/event.js';
import type { AuditFilter } from './audit/filter.js';
import type { AuditFormat } from './audit/formats/index.js';
import { eventTimeOf } from './audit/keys.js';
import { ByteReader, CHUNK_BYTES } from './audit/source.js';
import { OUT_OF_ORDER_US, SortedSource, StreamSource, type AuditLine, type JsonLine, type ReadContext, type Source } from './audit/sources.js';
import { expandInputs, type InputFile } from './audit/walk.js';
import { formatBytes } from './read-input.js';

/** The longest line read (a pod body with its managedFields is a few KiB; a list response is more). */
const DEFAULT_MAX_AUDIT_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Entries seen twice are one event delivered twice (a GCS sink's overlapping writes; AKS's
 * kube-audit and kube-audit-admin both on; the same file given twice): the copies carry the same
 * times, so they meet within moments of each other in time order. An auditID (with its stage) is
 * remembered for a minute of log time after it was read, at most DEDUP_MAX_KEYS of them: memory
 * holds the IDs of one minute of (filtered) entries, never the whole log's.
 */
const DEDUP_WINDOW_MS = 60_000;
const DEDUP_MAX_KEYS = 1 << 20;

/** How long (log time) a truncated entry waits for a whole copy of itself from another input. */
const HOLD_US = 5_000_000;

interface Held {
  line: AuditLine;
  src: Source;
  key: number;
  dedupKey: string;
}

/**
 * The auditIDs (with the stages) read in the last window of log time: a Map from the ID to the
 * time it was last read (ms) and its stages (a bit each), and a ring of IDs in the order read,
 * to forget them once the log has moved a window past them (or more than DEDUP_MAX_KEYS are held).
 */
class Dedup {
  private readonly ids = new Map<string, number>();
  private ring: string[] = [];
  private ringT: number[] = [];
  private head = 0;
  private max = -Infinity;

  constructor(private readonly windowUs: number) {}

  /** The ID an entry is known by ('' + stage bits are kept apart by seen()), or null when it has none. */
  keyOf(ev: unknown): string | null {
    const id = ev !== null && typeof ev === 'object' ? (ev as Record<string, unknown>).auditID : undefined;
    if (typeof id !== 'string' || id === '') return null;
    const stage = (ev as Record<string, unknown>).stage;
    return stage === undefined || stage === 'ResponseComplete' ? id : `${id}\u0000${String(stage)}`;
  }

  /** Whether `k` was read within the window before `key` (µs); notes it when not. */
  seen(k: string, key: number): boolean {
    const t = Number.isFinite(key) ? key : 0;
    if (t > this.max) this.max = t;
    while (this.head < this.ring.length && (this.ringT[this.head] < this.max - this.windowUs || this.ring.length - this.head > DEDUP_MAX_KEYS)) {
      const old = this.ring[this.head];
      if (this.ids.get(old) === this.ringT[this.head]) this.ids.delete(old);
      this.head++;
    }
    if (this.head > 65536 && this.head * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.head);
      this.ringT = this.ringT.slice(this.head);
      this.head = 0;
    }
    if (this.ids.has(k)) return true;
    this.ids.set(k, t);
    this.ring.push(k);
    this.ringT.push(t);
    return false;
  }
}

/** How much of a file is read to tell its format (decompressed). */
const SNIFF_BYTES = 64 * 1024;

/** What the files hold, for the merge order and for messages. */
export interface JsonLinesKind {
  /** "audit log", "recording": `cannot read audit log FILE`. */
  noun: string;
  /** "a JSON audit event": `FILE:3: not a JSON audit event (…)`. */
  lineNoun: string;
  /** What a too long line suggests: `…: not an audit log written with --audit-log-format=json?`. */
  tooLongHint: string;
  /** The time a line is merged by ('' when it has none). */
  timeOf(value: any): string;
}

export interface AuditReadOptions {
  maxLineBytes?: number;
  /**
   * Called with the work done so far and the whole work, for progress: bytes of the files
   * (compressed ones for gzip), counted twice for a file read in two passes.
   */
  onBytes?: (read: number, total: number) => void;
  /** Reads every input as this format instead of recognising it from the content. */
  format?: AuditFormat;
  /** Filled in as the inputs are read: formats, truncated, duplicates, cut-off documents, what is missing. */
  coverage?: AuditCoverage;
  /**
   * Leaves out, unparsed, the entries this filter certainly does not want (HISTORY_WRITES for the
   * history). Only entries read (those it may want) are deduplicated and counted as truncated.
   */
  filter?: AuditFilter;
  /** Where spools of decompressed bytes go (default: the system's temporary directory). */
  spoolDir?: string;
  /** Duplicates are looked for within this much log time (default DEDUP_WINDOW_MS). */
  dedupWindowMs?: number;
  /** @internal bytes read at a time (default 1 MiB); tests make it tiny so entries span reads */
  chunkBytes?: number;
}

/** Whether the first lines of `head` (and the last line of `tail`) show a file that is not in time order. */
function outOfOrder(head: Buffer, tail: Buffer | null): { first: number; sort: boolean } {
  const times: number[] = [];
  let s = 0;
  for (;;) {
    const nl = head.indexOf(0x0a, s);
    if (nl < 0) break;
    const t = eventTimeOf(head, s, nl, false);
    if (!Number.isNaN(t)) times.push(t);
    s = nl + 1;
  }
  if (times.length === 0) return { first: -Infinity, sort: false };
  const first = times[0];
  let back = 0;
  let forth = 0;
  for (let i = 1; i < times.length; i++) {
    if (times[i] < times[i - 1]) back++;
    else if (times[i] > times[i - 1]) forth++;
  }
  let last = times[times.length - 1];
  if (tail !== null) {
    const end = tail.lastIndexOf(0x0a, tail.length - 2);
    const t = eventTimeOf(tail, end + 1, tail.length, false);
    if (!Number.isNaN(t)) last = t;
  }
  // newest first (gcloud-like, Loki's logcli), or the last line well before the first
  const sort = (back > forth && times.length >= 3) || last < first - OUT_OF_ORDER_US;
  return { first: Math.min(...times), sort };
}

/** A file to read, with what its first bytes told. */
interface Planned {
  file: string;
  plan: Plan;
  /** A lower bound of its first entry's time (µs; -Infinity when not known). */
  first: number;
  /** Read in two passes: indexed, then in time order. */
  sort: boolean;
  report: AuditFileReport;
  size: number;
}

/** The first and last bytes of a file (decompressed), closed again. */
async function sniff(file: string): Promise<{ reader: ByteReader; head: Buffer; tail: Buffer | null }> {
  let reader: ByteReader;
  try {
    reader = ByteReader.open(file);
  } catch (e) {
    throw fileReadError(file, e);
  }
  if (!reader.seekable && !reader.gzip) {
    reader.close();
    throw fileReadError(file, 'not a regular file (a pipe or a device): save it to a file first');
  }
  try {
    return { reader, head: await reader.peek(SNIFF_BYTES), tail: reader.tail(SNIFF_BYTES) };
  } catch (e) {
    throw fileReadError(file, e);
  } finally {
    reader.close();
  }
}

/** How to read one file, told from its first bytes; null for an empty one (noted in the coverage). */
async function planFile(input: InputFile, coverage: AuditCoverage, format: AuditFormat | undefined): Promise<Planned | null> {
  const file = input.path;
  const { reader, head, tail } = await sniff(file);
  const whole = head.length < SNIFF_BYTES;
  let plan: Plan | 'empty';
  try {
    plan = detect(head, whole, file, input.mustGather, format);
  } catch (e) {
    // gzip data that ends in the first KiBs and is no audit log: corrupt, not cut
    if (reader.peekError !== null) throw fileReadError(file, `gzip data cut short or corrupt (${reader.peekError})`);
    throw e;
  }
  if (plan === 'empty') {
    const blank = head.every((c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09);
    if (blank && !input.walked) throw fileParseError(file, `an empty file: no audit events in it`);
    coverage.add(file, null);
    if (!blank) coverage.notices.push(`${file}: an empty list: no entries in it`);
    return null;
  }
  let first = -Infinity;
  let sort = !plan.serverOrder;
  if (plan.serverOrder) {
    const o = outOfOrder(head, tail);
    first = o.first;
    sort = o.sort;
    if (sort) coverage.notices.push(`${file}: not in time order (newest first?): sorted by stageTimestamp`);
  }
  return { file, plan, first, sort, report: coverage.add(file, plan.format), size: reader.size };
}

/** Truncated entries held back, each with the entries after it, for a whole copy of itself from another input. */
class HeldBack {
  readonly held: Held[] = [];
  /** The held truncated entries by their dedup key. */
  readonly cut = new Map<string, Held>();

  constructor(private readonly coverage: AuditCoverage) {}

  hold(line: AuditLine, src: Source, key: number, k: string | null): void {
    const h: Held = { line, src, key, dedupKey: k ?? '' };
    this.held.push(h);
    if (line.truncated && k !== null) this.cut.set(k, h);
  }

  /** A copy of an entry seen before: a whole one takes a held truncated one's place. */
  duplicate(line: AuditLine, src: Source, k: string): void {
    const cut = this.cut.get(k);
    if (cut !== undefined && !line.truncated) {
      cut.src.report.duplicates++;
      this.cut.delete(k);
      cut.line = line;
      cut.src = src;
    } else src.report.duplicates++;
    this.coverage.duplicates++;
  }

  /** The held entries whose wait is over by log time `upTo`. */
  *release(upTo: number): Generator<AuditLine> {
    const { held, coverage } = this;
    while (held.length > 0 && (!held[0].line.truncated || held[0].key + HOLD_US < upTo)) {
      const h = held.shift()!;
      if (h.line.truncated) {
        this.cut.delete(h.dedupKey);
        coverage.truncated++;
        h.src.report.truncated++;
        if (!objectKnown(h.line.value as Record<string, any>)) coverage.unrecovered++;
      }
      yield h.line;
    }
  }
}

/**
 * Every entry of every audit log (files or directories), as audit.k8s.io/v1 Events merged in time
 * order (stageTimestamp); a plain kube-apiserver file keeps its own order between its lines (the
 * order the server answered). Throws a UserError naming the file (and line or byte) for what
 * cannot be read.
 */
export async function* readAuditLogs(inputs: string[], opts: AuditReadOptions = {}): AsyncGenerator<AuditLine> {
  const coverage = opts.coverage ?? new AuditCoverage();
  let done = 0;
  let total = 0;
  const rc: ReadContext = {
    coverage,
    filter: opts.filter,
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_AUDIT_LINE_BYTES,
    spoolDir: opts.spoolDir,
    chunkBytes: opts.chunkBytes ?? CHUNK_BYTES,
    progress: (n) => {
      if (n <= 0) return;
      done += n;
      opts.onBytes?.(Math.min(done, total), total);
    },
  };
  const sources: Source[] = [];
  try {
    const planned: Planned[] = [];
    for (const input of expandInputs(inputs)) {
      const p = await planFile(input, coverage, opts.format);
      if (p !== null) planned.push(p);
    }
    for (const p of planned) total += p.size * (p.sort ? 2 : 1);
    // index the files read in two passes
    for (const p of planned) {
      if (p.sort) {
        const s = new SortedSource(p.file, p.plan, p.report, rc);
        sources.push(s);
        await s.build();
      } else sources.push(new StreamSource(p.file, p.plan, p.report, rc, p.first));
    }
    // merge: a source is opened when the merge reaches the time its first entry may have
    const pending = sources
      .map((s, i) => ({ s, i }))
      .sort((a, b) => a.s.first - b.s.first || a.i - b.i)
      .map((x) => x.s);
    const active: Source[] = [];
    let p = 0;
    const dedup = new Dedup((opts.dedupWindowMs ?? DEDUP_WINDOW_MS) * 1000);
    // A truncated entry waits HOLD_US of log time (and the entries after it, in order) for a whole
    // copy of itself from another input, which then takes its place.
    const held = new HeldBack(coverage);
    for (;;) {
      let best = -1;
      for (let i = 0; i < active.length; i++) if (best < 0 || active[i].key < active[best].key) best = i;
      const minKey = best >= 0 ? active[best].key : Infinity;
      if (p < pending.length && pending[p].first <= minKey) {
        const s = pending[p++];
        await s.open();
        if (s.head !== null) active.push(s);
        continue;
      }
      if (best < 0) break;
      const src = active[best];
      const line = src.head!;
      const key = src.key;
      const k = dedup.keyOf(line.value);
      if (k !== null && dedup.seen(k, key)) held.duplicate(line, src, k);
      else if (held.held.length === 0 && !line.truncated) yield line;
      else held.hold(line, src, key, k);
      if (held.held.length > 0) yield* held.release(key);
      if (!src.advance()) {
        await src.refill();
        if (src.head === null) active.splice(best, 1);
      }
    }
    yield* held.release(Infinity);
  } finally {
    for (const s of sources) s.close();
  }
}

/** One line naming the file and why it cannot be read. */
function cannotRead(file: string, e: unknown): UserError {
  return fileReadError(file, e);
}

/** The lines of one file, in file order; blank lines are skipped. */
async function* linesOf(file: string, kind: JsonLinesKind, opts: AuditReadOptions, total: { read: number; size: number }): AsyncGenerator<JsonLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_AUDIT_LINE_BYTES;
  let head: Buffer;
  try {
    head = await firstBytes(file);
  } catch (e) {
    throw cannotRead(file, e);
  }
  const raw = createReadStream(file);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const count = (n: number) => {
    total.read += n;
    opts.onBytes?.(total.read, total.size);
  };
  // Progress counts the bytes of the file: compressed ones for gzip (counted as the pipe reads them).
  if (gzip) raw.on('data', (b: Buffer | string) => count(b.length));
  const stream: NodeJS.ReadableStream = gzip ? raw.pipe(createGunzip()) : raw;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const parse = (buf: Buffer): JsonLine | null => {
    lineNo++;
    const text = buf.toString('utf8').trim();
    if (text === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw fileParseError(file, `not ${kind.lineNoun} (${(e as Error).message.split('\n')[0]})`, { line: lineNo });
    }
    return { file, line: lineNo, value, at: kind.timeOf(value) };
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!gzip) count(chunk.length);
      let start = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, i);
        const whole = pendingBytes ? Buffer.concat([...pending, part]) : part;
        pending = [];
        pendingBytes = 0;
        const l = parse(whole);
        if (l) yield l;
        start = i + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > max) throw fileParseError(file, `a line longer than ${formatBytes(max)}: ${kind.tooLongHint}`, { line: lineNo + 1 });
      }
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw fileReadError(file, e);
  } finally {
    raw.destroy();
  }
  if (pendingBytes) {
    const l = parse(Buffer.concat(pending));
    if (l) yield l;
  }
}

async function firstBytes(file: string): Promise<Buffer> {
  const s = createReadStream(file, { start: 0, end: 1 });
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Every line of every file of `kind`, merged by time as readAuditLogs does. */
export async function* readJsonLines(
  files: string[],
  kind: JsonLinesKind,
  opts: Pick<AuditReadOptions, 'maxLineBytes' | 'onBytes'> = {},
): AsyncGenerator<JsonLine> {
  const total = { read: 0, size: 0 };
  for (const f of files) {
    try {
      total.size += (await stat(f)).size;
    } catch (e) {
      throw cannotRead(f, e);
    }
  }
  const its = files.map((f) => linesOf(f, kind, opts, total));
  const heads: (JsonLine | null)[] = [];
  for (const it of its) heads.push((await it.next()).value ?? null);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h && (pick === -1 || h.at < heads[pick]!.at)) pick = i;
    }
    if (pick === -1) return;
    yield heads[pick]!;
    heads[pick] = (await its[pick].next()).value ?? null;
  }
}
