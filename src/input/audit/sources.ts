// The entries of one file, as a source for the merge: either read as they come (plain
// kube-apiserver lines, which the server wrote in the order it answered), or indexed first and
// then read in time order (every other export: newest first, grouped by stream, unordered, or
// simply not known to be in order). The index holds, per entry, its time (µs), its offset and
// length in the decompressed content and its line: 28 bytes, in typed arrays; the entries
// themselves are read back with positioned reads (RegionReader), from the file or, for gzip and
// pipes, from a spool of the decompressed bytes.

import { fileParseError, fileReadError, type UserError } from '../../errors.js';
import { JsonScanError } from '../json-scan.js';
import { AuditCoverage, type AuditFileReport } from './coverage.js';
import { formatBytes } from '../read-input.js';
import type { Plan } from './detect.js';
import { EntryError, FileError, type EntryContext } from './entry.js';
import { EntryIndex } from './entry-index.js';
import { eventOutside, hasTruncatedMark, markTruncated, recoverCutEvent } from './event.js';
import { type AuditFilter, HISTORY_WRITES } from './filter.js';
import type { EntryOps } from './formats/format.js';
import type { AuditFormat } from './formats/index.js';
import { ByteReader, CutShort, RegionReader, Spool, type Positioned } from './source.js';
import { CsvSplitter, csvFields, DocumentSplitter, LineSplitter, Window } from './split.js';
import { timeUs } from './time.js';

/** One line of a file of JSON lines (a recording's). */
export interface JsonLine {
  file: string;
  /** The entry's line (1-based) in a file of lines (JSON lines, prefixed lines, CSV); 0 in a JSON document. */
  line: number;
  /** The parsed JSON (for an audit log: the audit.k8s.io/v1 Event). */
  value: unknown;
  /** The time the merge orders by (for an audit log: the Event's stageTimestamp, else requestReceivedTimestamp; '' when it has none). */
  at: string;
}

export interface AuditLine extends JsonLine {
  /** The same time in microseconds since the epoch (NaN when it has none). */
  atUs: number;
  /** Where the entry starts in the (decompressed) content, in bytes. */
  offset: number;
  format: AuditFormat;
  /** Read without its bodies because they were cut (and marked with audit.k8s.io/truncated). */
  truncated: boolean;
}

/** `FILE:LINE`, or `FILE: byte N` for an entry of a JSON document: where to look, for messages. */
export function whereOf(l: Pick<AuditLine, 'file' | 'line' | 'offset'>): string {
  return l.line > 0 ? `${l.file}:${l.line}` : `${l.file}: byte ${l.offset}`;
}

/** A problem with one entry, as every file error reads: `error parsing FILE: … (line N)`. */
export function entryError(l: Pick<AuditLine, 'file' | 'line' | 'offset'>, msg: string): UserError {
  return l.line > 0 ? fileParseError(l.file, msg, { line: l.line }) : fileParseError(l.file, `byte ${l.offset}: ${msg}`);
}

export interface ReadContext {
  coverage: AuditCoverage;
  filter?: AuditFilter;
  maxLineBytes: number;
  spoolDir?: string;
  /** Bytes read at a time (CHUNK_BYTES; tests make it tiny to cut entries across reads). */
  chunkBytes: number;
  /** Adds `n` units of work done (bytes, weighted by how often a file is read). */
  progress(n: number): void;
}

const WRITE_VERBS = HISTORY_WRITES.verbs;
const WRITE_RESOURCES = HISTORY_WRITES.resources;

/** The AuditLine of an Event read from a file; notes what coverage needs. */
function lineOf(
  ev: Record<string, any>,
  file: string,
  line: number,
  offset: number,
  format: AuditFormat,
  truncated: boolean,
  report: AuditFileReport,
  coverage: AuditCoverage,
  key: number,
): AuditLine {
  const at = typeof ev.stageTimestamp === 'string' ? ev.stageTimestamp : typeof ev.requestReceivedTimestamp === 'string' ? ev.requestReceivedTimestamp : '';
  report.entries++;
  if (!truncated && WRITE_VERBS.has(ev.verb)) {
    const ref = ev.objectRef;
    if (ref !== undefined && WRITE_RESOURCES.has(ref.resource) && (ev.stage === undefined || ev.stage === 'ResponseComplete')) {
      coverage.noteWrite(format, ev.level === 'RequestResponse' || ev.level === 'Request');
    }
  }
  return { file, line, value: ev, at, atUs: key, offset, format, truncated };
}

function located(file: string, line: number, offset: number, msg: string): UserError {
  return entryError({ file, line, offset }, msg);
}

const cutNotice = (file: string, at: string, entries: number) => `${file}: cut off at ${at}: read the ${entries} entr${entries === 1 ? 'y' : 'ies'} before it`;

// ---- sources ---------------------------------------------------------------------------------

export abstract class Source {
  head: AuditLine | null = null;
  /** The head's merge key (µs); an entry without a time keeps the key before it. */
  key = -Infinity;
  /** A lower bound of the first entry's key: the merge opens the source no later than this. */
  first = -Infinity;

  constructor(
    readonly file: string,
    readonly plan: Plan,
    readonly report: AuditFileReport,
    protected readonly rc: ReadContext,
  ) {}

  /** Loads the first head (null when there is none). */
  abstract open(): Promise<void>;
  /**
   * Moves to the next entry when it is at hand (parsed only now: one parsed entry a source is
   * alive at a time); false when more must be read first (then refill).
   */
  abstract advance(): boolean;
  /** Reads on until there is a next entry; head is null at the end. */
  abstract refill(): Promise<void>;
  abstract close(): void;

  protected ctx(fallbackUs: number): EntryContext {
    return { coverage: this.rc.coverage, fallbackUs, truncated: false };
  }
}

/** 3 when the content opens with a UTF-8 byte order mark (Windows tools write one), else 0. */
const bomLength = (b: Buffer, len: number) => (len >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);

/** How far back in time an entry of a file read in its own order may be before it is reported. */
export const OUT_OF_ORDER_US = 60_000_000;

/** Plain kube-apiserver lines (and must-gather files), read as they come, a chunk at a time. */
export class StreamSource extends Source {
  private reader: ByteReader | null = null;
  private win: Window;
  private splitter: LineSplitter;
  // the lines of the chunk at hand, not parsed yet
  private starts = new Uint32Array(4096);
  private ends = new Uint32Array(4096);
  private lines = new Float64Array(4096);
  private count = 0;
  private idx = 0;
  private eof = false;
  private cut = false;
  private lastKey = -Infinity;
  private maxKey = -Infinity;
  private firstLate = '';
  private readonly onLine: (b: Buffer, s: number, e: number, abs: number, line: number) => void;

  constructor(file: string, plan: Plan, report: AuditFileReport, rc: ReadContext, first: number) {
    super(file, plan, report, rc);
    this.first = first;
    this.win = new Window(rc.chunkBytes + 64 * 1024);
    this.splitter = new LineSplitter(rc.maxLineBytes, (line) =>
      fileParseError(file, `a line longer than ${formatBytes(rc.maxLineBytes)}: not an audit log written with --audit-log-format=json?`, { line }),
    );
    const filter = rc.filter;
    this.onLine = (b, s, e, _abs, line) => {
      while (s < e && (b[s] === 0x20 || b[s] === 0x09)) s++;
      if (s === e) return;
      if (filter !== undefined && eventOutside(b, s, e, filter)) {
        report.skipped++;
        return;
      }
      if (this.count === this.starts.length) {
        const grow = <T extends Uint32Array | Float64Array>(x: T): T => {
          const y = new (x.constructor as new (n: number) => T)(x.length * 2);
          y.set(x);
          return y;
        };
        this.starts = grow(this.starts);
        this.ends = grow(this.ends);
        this.lines = grow(this.lines);
      }
      this.starts[this.count] = s;
      this.ends[this.count] = e;
      this.lines[this.count++] = line;
    };
  }

  async open(): Promise<void> {
    this.reader = ByteReader.open(this.file);
    await this.refill();
  }

  advance(): boolean {
    const b = this.win.buf;
    while (this.idx < this.count) {
      const i = this.idx++;
      const s = this.starts[i];
      const e = this.ends[i];
      const line = this.lines[i];
      const text = b.toString('utf8', s, e);
      let v: any;
      let broken = false;
      try {
        v = JSON.parse(text);
      } catch (err) {
        if ((this.eof || this.cut) && i === this.count - 1 && b[s] === 0x7b) {
          // the last line, cut: a log being written, or a download stopped
          this.cut = true;
          continue;
        }
        // one record broken in the middle of the log (a disk full, an export's glitch): counted,
        // named by its line, and read as an entry cut there, so that what it may have written is
        // unknown rather than unseen; the rest of the file is read
        this.rc.coverage.brokenEntry(this.file, `${this.file}:${line}`, `not a JSON audit event (${(err as Error).message.split('\n')[0]})`);
        v = recoverCutEvent(text, this.lastKey);
        broken = true;
      }
      const obj = v !== null && typeof v === 'object' && !Array.isArray(v);
      let truncated = broken;
      if (obj && v.annotations !== undefined && hasTruncatedMark(v)) {
        markTruncated(v);
        truncated = true;
      }
      const t = !obj
        ? ''
        : typeof v.stageTimestamp === 'string'
          ? v.stageTimestamp
          : typeof v.requestReceivedTimestamp === 'string'
            ? v.requestReceivedTimestamp
            : '';
      let key = t === '' ? NaN : timeUs(t);
      if (Number.isNaN(key)) key = this.lastKey;
      else {
        if (key < this.maxKey - OUT_OF_ORDER_US && this.report.outOfOrder++ === 0) this.firstLate = `${this.file}:${line}`;
        if (key > this.maxKey) this.maxKey = key;
      }
      this.lastKey = key;
      const abs = this.win.base + s;
      if (obj) this.head = lineOf(v, this.file, line, abs, this.plan.format, truncated, this.report, this.rc.coverage, key);
      else {
        this.report.entries++;
        this.head = { file: this.file, line, value: v, at: t, atUs: key, offset: abs, format: this.plan.format, truncated };
      }
      this.key = key;
      return true;
    }
    return false;
  }

  async refill(): Promise<void> {
    const r = this.reader;
    for (;;) {
      if (this.advance()) return;
      if (this.eof || r === null) {
        if (this.eof) this.done();
        this.head = null;
        return;
      }
      this.count = 0;
      this.idx = 0;
      const chunk = this.rc.chunkBytes;
      this.win.prepare(this.splitter.keepFrom(), chunk);
      let n = 0;
      const before = r.fileBytesRead;
      try {
        n = await r.readInto(this.win.buf, this.win.len, Math.min(chunk, this.win.buf.length - this.win.len));
      } catch (e) {
        if (!(e instanceof CutShort)) throw fileReadError(this.file, e);
        this.cut = true;
      }
      this.rc.progress(r.fileBytesRead - before);
      if (n === 0) {
        this.eof = true;
        this.splitter.process(this.win, true, this.onLine);
        this.reader?.close();
        this.reader = null;
      } else {
        this.win.len += n;
        if (this.win.base === 0 && this.splitter.pos === 0) this.splitter.pos = bomLength(this.win.buf, this.win.len);
        this.splitter.process(this.win, false, this.onLine);
      }
    }
  }

  /** At the end: what was cut short, and what was out of order. */
  private done(): void {
    this.rc.coverage.brokenEntriesEnd(this.file);
    const report = this.report;
    if (this.cut && report.cutOff === null) {
      report.cutOff = `line ${this.splitter.line}`;
      this.rc.coverage.cutOff.push(cutNotice(this.file, report.cutOff, report.entries));
    }
    if (report.outOfOrder > 0) {
      this.rc.coverage.notices.push(
        `${this.file}: ${report.outOfOrder} entr${report.outOfOrder === 1 ? 'y is' : 'ies are'} more than a minute earlier than one before (first at ${this.firstLate}): read in the order of the file`,
      );
    }
    this.eof = false;
    this.reader = null;
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
  }
}

/** Any export: indexed in a first pass, read in time order in a second. */
export class SortedSource extends Source {
  private index = new EntryIndex();
  private order: Uint32Array | null = null;
  private k = 0;
  private spool: Spool | null = null;
  private readerForPass2: ByteReader | null = null;
  private regions: RegionReader | null = null;
  private csvHeader: string[] | null = null;
  private fileSize = 0;
  private done = 0;
  private ticked = 0;
  private finished = false;

  // pass 1's state: the export's entry ops (null for CSV records), the filter's probe, the time
  // an entry without one keeps, and whether the last line is cut
  private ops: EntryOps | null = null;
  private probe: EntryContext | null = null;
  private lastT = -Infinity;
  private finalCall = false;
  private cutLine = false;
  // pass 2's: the entries read whole, and the refusal of the first broken one (a file none of whose
  // entries reads, nor was skipped unparsed, is of another shape: refused, as a forced format that
  // does not fit it)
  private whole = 0;
  private refusal: UserError | null = null;

  /** Pass 1: reads the whole file once, indexing every entry the filter may want. */
  async build(): Promise<void> {
    const { file, plan, rc } = this;
    this.ops = plan.layout === 'csv' ? null : plan.of.entries;
    this.probe = this.ctx(NaN);
    const reader = ByteReader.open(file);
    this.fileSize = reader.size;
    this.spool = reader.seekable ? null : new Spool(rc.spoolDir);
    const split = splittersOf(plan, rc, (line) =>
      fileParseError(file, `a line longer than ${formatBytes(rc.maxLineBytes)}: not ${plan.format} lines?`, { line }),
    );
    let cut: boolean;
    try {
      cut = await this.indexAll(reader, split);
    } catch (e) {
      reader.close();
      this.spool?.close();
      if (e instanceof JsonScanError) throw fileParseError(file, `byte ${e.offset}: ${e.message}: not a whole JSON document`);
      if (e instanceof EntryError || e instanceof FileError) throw fileParseError(file, e.message);
      throw e;
    }
    const end = reader.offset;
    if (reader.seekable) this.readerForPass2 = reader;
    else reader.close();
    this.noteEnd(split, cut, end);
  }

  /** Reads every chunk through the splitter into the index; true when the content was cut short. */
  private async indexAll(reader: ByteReader, split: Splitters): Promise<boolean> {
    const { file, rc, spool } = this;
    const chunk = rc.chunkBytes;
    const win = new Window(chunk + 64 * 1024);
    const { lines, csv, doc } = split;
    const onEntry = (b: Buffer, s: number, e: number, abs: number, line: number) => this.indexEntry(split, b, s, e, abs, line);
    let cut = false;
    let eof = false;
    while (!eof) {
      win.prepare(lines ? lines.keepFrom() : csv ? csv.keepFrom() : doc!.keepFrom(), chunk);
      let n = 0;
      const before = reader.fileBytesRead;
      try {
        n = await reader.readInto(win.buf, win.len, Math.min(chunk, win.buf.length - win.len));
      } catch (e) {
        if (!(e instanceof CutShort)) throw fileReadError(file, e);
        cut = true;
      }
      rc.progress(reader.fileBytesRead - before);
      if (n > 0 && spool) spool.write(win.buf, win.len, win.len + n);
      win.len += n;
      if (n === 0) {
        eof = true;
        this.finalCall = true;
      }
      if (win.base === 0 && n > 0 && win.len === n) {
        const bom = bomLength(win.buf, win.len);
        if (lines) lines.pos = bom;
        else if (csv) csv.pos = bom;
        else doc!.pos = bom;
      }
      if (lines) lines.process(win, eof, onEntry);
      else if (csv) csv.process(win, eof, onEntry);
      else doc!.process(win, onEntry);
    }
    return cut;
  }

  /** One entry the splitter found: its CSV header, a prefix before its JSON, or a cut last line. */
  private indexEntry(split: Splitters, b: Buffer, s: number, e: number, abs: number, line: number): void {
    const plan = this.plan;
    if (plan.layout === 'document') return this.push(b, s, e, abs, line, NaN);
    const s0 = s;
    while (s < e && (b[s] === 0x20 || b[s] === 0x09)) s++;
    if (s === e) return;
    if (split.csv !== null) {
      const text = b.toString('utf8', s, e);
      if (this.csvHeader === null) {
        this.csvHeader = csvFields(text);
        const problem = plan.csv!.headerProblem(this.csvHeader);
        if (problem !== null) throw fileParseError(this.file, problem, { line });
        return;
      }
      return this.push(b, s, e, abs + (s - s0), line, this.slowTime(text));
    }
    let fallback = NaN;
    const prefix = plan.prefix;
    if (prefix !== 'none' && b[s] !== 0x7b) {
      const sp = b.indexOf(0x20, s);
      if (sp < 0 || sp >= e) {
        if (this.finalCall) {
          this.cutLine = true;
          return;
        }
        throw fileParseError(this.file, `not a "${prefix === 'time' ? '<time>' : '<node>'} <event>" line`, { line });
      }
      if (prefix === 'time') fallback = timeUs(b.toString('latin1', s, sp));
      s = sp + 1;
      while (s < e && b[s] === 0x20) s++;
    }
    const mark = plan.of.cutMark;
    if (this.finalCall && b[e - 1] !== 0x7d && b[s] === 0x7b && !(mark !== undefined && b.toString('latin1', Math.max(s, e - mark.length), e) === mark)) {
      // the last line, unterminated and no whole JSON object: the content was cut there
      this.cutLine = true;
      return;
    }
    this.push(b, s, e, abs + (s - s0), line, fallback);
  }

  /** Indexes one entry the filter may want, at its time (else the one before it). */
  private push(b: Buffer, s: number, e: number, abs: number, line: number, fallback: number): void {
    const ops = this.ops;
    const filter = this.rc.filter;
    if (filter !== undefined && ops?.outside(b, s, e, filter, this.probe!)) {
      this.report.skipped++;
      return;
    }
    let t = ops !== null ? ops.rawTime(b, s, e) : NaN;
    if (Number.isNaN(t)) t = fallback;
    if (Number.isNaN(t)) t = this.slowTime(b.toString('utf8', s, e));
    if (Number.isNaN(t)) t = this.lastT;
    this.lastT = t;
    this.index.push(t, abs, e - s, line);
  }

  /** At the end of pass 1: where the content was cut, a query's limit reached, the first entry's time. */
  private noteEnd({ lines, csv, doc }: Splitters, cut: boolean, end: number): void {
    const { file, plan, report, rc } = this;
    const idx = this.index;
    if (doc !== null && !doc.atRest) {
      report.cutOff = `byte ${end}`;
      rc.coverage.cutOff.push(cutNotice(file, report.cutOff, idx.n + report.skipped));
    } else if (cut || this.cutLine) {
      report.cutOff = cut ? `byte ${end}` : `line ${lines?.line ?? csv?.line ?? 0}`;
      rc.coverage.cutOff.push(cutNotice(file, report.cutOff, idx.n + report.skipped));
    }
    const cap = plan.of.rowCap;
    if (cap !== undefined && doc !== null && doc.entries > 0 && doc.entries % cap === 0) rc.coverage.seen.capped.add(plan.format);
    let first = Infinity;
    for (let i = 0; i < idx.n; i++) if (idx.t[i] < first) first = idx.t[i];
    this.first = idx.n > 0 ? first : Infinity;
  }

  /** The time of an entry read whole (the few whose time is not found in their bytes). */
  private slowTime(text: string): number {
    if (this.plan.layout === 'csv') {
      const h = this.csvHeader;
      return h === null ? NaN : this.plan.csv!.time(csvFields(text), h);
    }
    try {
      const coverage = new AuditCoverage();
      coverage.add(this.file, this.plan.format);
      const scratch: EntryContext = { coverage, fallbackUs: NaN, truncated: false };
      const ev = this.plan.of.entries.read(text, scratch);
      const t = ev?.stageTimestamp ?? ev?.requestReceivedTimestamp;
      return typeof t === 'string' ? timeUs(t) : Number.isFinite(scratch.fallbackUs) ? scratch.fallbackUs : NaN;
    } catch {
      return NaN;
    }
  }

  async open(): Promise<void> {
    this.order = this.index.order();
    const src: Positioned = this.readerForPass2 ?? this.spool!;
    this.regions = new RegionReader(src);
    await this.refill();
  }

  advance(): boolean {
    const { file, plan, report, rc } = this;
    const order = this.order!;
    const ix = this.index;
    const ops = plan.layout === 'csv' ? null : plan.of.entries;
    while (this.k < order.length) {
      const i = order[this.k];
      const off = ix.off[i];
      const line = ix.line[i];
      const bytes = this.regions!.read(off, ix.len[i], this.upcoming);
      if ((++this.k & 255) === 0) this.tick();
      const text = bytes.toString('utf8');
      let ctx = this.ctx(ix.t[i]);
      let ev: Record<string, any> | null;
      let broken = false;
      try {
        if (ops !== null) ev = ops.read(text, ctx);
        else ev = plan.csv!.read(csvFields(text), this.csvHeader!, ctx);
      } catch (e) {
        if (e instanceof FileError) throw located(file, line, off, e.message);
        if (!(e instanceof EntryError)) throw e;
        // an entry broken mid-export: named, and read as cut there (what its wrapper still holds),
        // so that what it may have written is unknown rather than unseen; the rest is read
        this.rc.coverage.brokenEntry(file, whereOf({ file, line, offset: off }), e.message);
        this.refusal ??= located(file, line, off, e.message);
        broken = true;
        ctx = this.ctx(ix.t[i]);
        ev = ops !== null ? ops.recover(text, ctx) : recoverCutEvent('', ctx.fallbackUs);
        ctx.truncated = true;
      }
      if (!broken) this.whole++;
      if (ev === null) {
        report.ignored++;
        rc.coverage.ignored++;
        continue;
      }
      this.head = lineOf(ev, file, line, off, plan.format, ctx.truncated, report, rc.coverage, ix.t[i]);
      this.key = ix.t[i];
      return true;
    }
    return false;
  }

  private readonly upcoming = (j: number): [number, number] | null => {
    const k = this.k + j;
    const order = this.order!;
    if (k >= order.length) return null;
    const i = order[k];
    return [this.index.off[i], this.index.len[i]];
  };

  /** Progress: a share of the file's size for the entries read since the last tick. */
  private tick(): void {
    const n = this.order!.length;
    const share = Math.round((this.fileSize * (this.k - this.ticked)) / Math.max(n, 1));
    this.ticked = this.k;
    this.done += share;
    this.rc.progress(share);
  }

  async refill(): Promise<void> {
    if (this.advance()) return;
    this.head = null;
    if (this.order !== null && !this.finished) this.finish();
  }

  private finish(): void {
    this.finished = true;
    this.index = new EntryIndex();
    const rest = this.fileSize - this.done;
    if (rest > 0) this.rc.progress(rest);
    this.done = this.fileSize;
    this.rc.coverage.brokenEntriesEnd(this.file);
    if (this.report.ignored > 0) {
      const n = this.report.ignored;
      this.rc.coverage.notices.push(`${this.file}: ${n} entr${n === 1 ? 'y' : 'ies'} of other logs left out (not kube-apiserver audit events)`);
    }
    this.close();
    if (this.whole === 0 && this.report.skipped === 0 && this.refusal !== null) throw this.refusal;
  }

  close(): void {
    this.readerForPass2?.close();
    this.readerForPass2 = null;
    this.spool?.close();
    this.spool = null;
  }
}

/** The splitter of a plan's layout (the other two null). */
interface Splitters {
  lines: LineSplitter | null;
  csv: CsvSplitter | null;
  doc: DocumentSplitter | null;
}

function splittersOf(plan: Plan, rc: ReadContext, tooLong: (line: number) => UserError): Splitters {
  return {
    lines: plan.layout === 'lines' ? new LineSplitter(rc.maxLineBytes, tooLong) : null,
    csv: plan.layout === 'csv' ? new CsvSplitter(rc.maxLineBytes, tooLong) : null,
    doc: plan.layout === 'document' ? new DocumentSplitter(plan.wrapperKeys) : null,
  };
}
