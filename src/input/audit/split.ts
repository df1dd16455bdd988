// Splitting a stream of bytes into entries without parsing them: JSON lines (and prefixed lines,
// and CSV records) at newlines; JSON documents (a top-level array, an object holding the entries'
// array at a known key such as `events` or `records`, or several of them one after another) at
// the elements' boundaries, found by a resumable scan that tracks only strings, escapes and
// nesting, so a document of any size (a 1 GiB gcloud array, `bq --format=json`'s one line) is
// read a chunk at a time. Pretty-printed documents (gcloud, the AWS CLI, az) give each element's
// end away: the first later line holding only its closing brace at its indentation; that is
// found with one native search instead of the byte scan. Every element is validated by
// JSON.parse when it is read.
//
// Offsets are absolute (from the start of the decompressed content); the Window holds the bytes
// still needed, from `base` on.

import { JsonScanError } from '../json-scan.js';

export class Window {
  buf: Buffer;
  /** Absolute offset of buf[0]. */
  base = 0;
  /** Bytes held. */
  len = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Drops the bytes before absolute offset `keep`, and makes room for `want` more. */
  prepare(keep: number, want: number): void {
    const drop = Math.max(0, Math.min(keep - this.base, this.len));
    if (drop > 0) {
      this.buf.copy(this.buf, 0, drop, this.len);
      this.len -= drop;
      this.base += drop;
    }
    if (this.buf.length - this.len < want) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + want));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
  }

  get end(): number {
    return this.base + this.len;
  }
}

export type OnEntry = (b: Buffer, s: number, e: number, abs: number, line: number) => void;

const LF = 0x0a;
const CR = 0x0d;

/** Lines: each handed out without its line break (and a CR before it). */
export class LineSplitter {
  /** Absolute offset of the next line's start. */
  pos = 0;
  /** Lines handed out so far (the next line's number is line + 1). */
  line = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly tooLong: (line: number) => Error,
  ) {}

  process(w: Window, final: boolean, on: OnEntry): void {
    const b = w.buf;
    let rel = this.pos - w.base;
    const len = w.len;
    for (;;) {
      const nl = rel < len ? b.indexOf(LF, rel) : -1;
      if (nl === -1 || nl >= len) break;
      let e = nl;
      if (e > rel && b[e - 1] === CR) e--;
      this.line++;
      on(b, rel, e, w.base + rel, this.line);
      rel = nl + 1;
    }
    if (len - rel > this.maxLineBytes) throw this.tooLong(this.line + 1);
    if (final && rel < len) {
      let e = len;
      if (b[e - 1] === CR) e--;
      this.line++;
      on(b, rel, e, w.base + rel, this.line);
      rel = len;
    }
    this.pos = w.base + rel;
  }

  keepFrom(): number {
    return this.pos;
  }
}

/** CSV records: lines, joined while a quoted field runs on (an odd number of quotes so far). */
export class CsvSplitter {
  pos = 0;
  line = 0;
  private scanned = 0;
  private quotes = 0;
  private lines = 0;

  constructor(
    private readonly maxRecordBytes: number,
    private readonly tooLong: (line: number) => Error,
  ) {}

  process(w: Window, final: boolean, on: OnEntry): void {
    const b = w.buf;
    const len = w.len;
    let start = this.pos - w.base;
    let i = Math.max(start, this.scanned - w.base);
    for (; i < len; i++) {
      const c = b[i];
      if (c === 0x22) this.quotes++;
      else if (c === LF) {
        this.lines++;
        if ((this.quotes & 1) === 0) {
          let e = i;
          if (e > start && b[e - 1] === CR) e--;
          const first = this.line + 1;
          this.line += this.lines;
          this.lines = 0;
          this.quotes = 0;
          on(b, start, e, w.base + start, first);
          start = i + 1;
        }
      }
    }
    if (len - start > this.maxRecordBytes) throw this.tooLong(this.line + 1);
    if (final && start < len) {
      const first = this.line + 1;
      this.line += this.lines + 1;
      on(b, start, len, w.base + start, first);
      start = len;
    }
    this.pos = w.base + start;
    this.scanned = w.base + len;
  }

  keepFrom(): number {
    return this.pos;
  }
}

/** The fields of one CSV record (RFC 4180: quotes doubled inside quoted fields). */
export function csvFields(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  for (;;) {
    if (i < n && s[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          v += s.slice(i);
          i = n;
          break;
        }
        v += s.slice(i, q);
        if (s[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      while (i < n && s[i] !== ',') i++;
    } else {
      const c = s.indexOf(',', i);
      const e = c < 0 ? n : c;
      out.push(s.slice(i, e));
      i = e;
    }
    if (i >= n) return out;
    i++; // the comma
  }
}

// ---- documents -------------------------------------------------------------------------------

const SP = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isWs = (c: number) => c === SP || c === LF || c === CR || c === TAB;

interface ArrayFrame {
  kind: 'array';
  expect: 'value' | 'comma';
}
interface ObjectFrame {
  kind: 'object';
  start: number;
  wrapper: boolean;
  expect: 'key' | 'colon' | 'value' | 'comma';
  key: string;
}
type Frame = ArrayFrame | ObjectFrame;

/** A value being scanned across chunks. */
interface Scan {
  start: number;
  /** Absolute offset to resume at. */
  at: number;
  depth: number;
  inString: boolean;
  /** Pretty-printed: the closing line to search for (`\n` + indentation + `}`), else null. */
  closing: Buffer | null;
  /**
   * Pretty-printed: the opening line of a value at the same indentation (`\n` + indentation +
   * `{`), which no line inside a whole value is: found before the closing line, it opens the next
   * element, and the value ends broken just before it.
   */
  opening: Buffer | null;
  /** Ended at the next element's opening line: no comma to expect after it. */
  broken: boolean;
  /** What to do with it once whole. */
  then: 'entry' | 'skip';
}

export class DocumentSplitter {
  pos = 0;
  entries = 0;
  /** Top-level values read whole. */
  documents = 0;
  private stack: Frame[] = [];
  private scan: Scan | null = null;
  private keyStart = -1;

  /** `wrapperKeys`: the members of a top-level object that hold the entries' array (`events`, `records`). */
  constructor(private readonly wrapperKeys: ReadonlySet<string>) {}

  keepFrom(): number {
    let k = this.scan ? this.scan.start : this.pos;
    if (this.keyStart >= 0) k = Math.min(k, this.keyStart);
    for (const f of this.stack) if (f.kind === 'object' && !f.wrapper) k = Math.min(k, f.start);
    return k;
  }

  /** Whether the content so far ends between documents (nothing begun and not finished). */
  get atRest(): boolean {
    return this.stack.length === 0 && this.scan === null;
  }

  /** Hands out every whole entry in the window; throws JsonScanError on what no JSON document has. */
  process(w: Window, on: OnEntry): void {
    const b = w.buf;
    const base = w.base;
    const len = w.len;
    let i = this.pos - base;
    for (;;) {
      if (this.scan !== null) {
        const end = this.continueScan(b, base, len);
        if (end < 0) {
          this.pos = base + len;
          return;
        }
        const sc = this.scan;
        this.scan = null;
        i = end - base;
        if (sc.then === 'entry') {
          this.entries++;
          on(b, sc.start - base, end - base, sc.start, 0);
        }
        // an element broken before its closing line: handed out as it is (its reader says what is
        // wrong with it), and the next element read from its opening line on
        if (!sc.broken) this.afterValue();
        continue;
      }
      while (i < len && isWs(b[i])) i++;
      if (i >= len) {
        this.pos = base + i;
        return;
      }
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) i = this.opening(b[i], base, i);
      else if (top.kind === 'array') i = this.inArray(top, b, base, i, len);
      else i = this.inObject(top, b, base, i, len, on);
      // a property name cut by the end of the window: read on from it
      if (i < 0) return;
    }
  }

  /** The first token of a document: its array, or its object (a wrapper or an entry). */
  private opening(c: number, base: number, i: number): number {
    if (c === LBRACKET) this.stack.push({ kind: 'array', expect: 'value' });
    else if (c === LBRACE) this.stack.push({ kind: 'object', start: base + i, wrapper: false, expect: 'key', key: '' });
    else throw new JsonScanError(base + i, 'expected a JSON object or array');
    return i + 1;
  }

  /** A token in the entries' array: its end, a comma, or an element (scanned as an entry). */
  private inArray(top: ArrayFrame, b: Buffer, base: number, i: number, len: number): number {
    const c = b[i];
    if (c === RBRACKET) {
      this.stack.pop();
      this.afterValue();
      return i + 1;
    }
    if (top.expect === 'comma') {
      if (c !== COMMA) throw new JsonScanError(base + i, "expected ',' or ']' after an element");
      top.expect = 'value';
      return i + 1;
    }
    if (c !== LBRACE && c !== LBRACKET) throw new JsonScanError(base + i, 'an element that is not an object');
    this.startScan(b, base, i, len, 'entry');
    return i;
  }

  /** A token in an object at the top: a wrapper of the entries' array, or an entry itself; -1 when a name is cut. */
  private inObject(top: ObjectFrame, b: Buffer, base: number, i: number, len: number, on: OnEntry): number {
    const c = b[i];
    switch (top.expect) {
      case 'key': {
        if (c === RBRACE) {
          this.stack.pop();
          i++;
          if (!top.wrapper) {
            this.entries++;
            on(b, top.start - base, i, top.start, 0);
          }
          this.afterValue();
          return i;
        }
        if (c === COMMA) return i + 1;
        if (c !== QUOTE) throw new JsonScanError(base + i, 'expected a property name');
        let j = i + 1;
        for (; j < len; j++) {
          const d = b[j];
          if (d === QUOTE) break;
          if (d === BACKSLASH) j++;
        }
        if (j >= len) {
          this.keyStart = base + i;
          this.pos = base + i;
          return -1;
        }
        this.keyStart = -1;
        top.key = b.toString('utf8', i + 1, j);
        top.expect = 'colon';
        return j + 1;
      }
      case 'colon':
        if (c !== COLON) throw new JsonScanError(base + i, "expected ':'");
        top.expect = 'value';
        return i + 1;
      case 'value':
        if (c === LBRACKET && this.wrapperKeys.has(top.key) && this.stack.length === 1) {
          top.wrapper = true;
          top.expect = 'comma';
          this.stack.push({ kind: 'array', expect: 'value' });
          return i + 1;
        }
        this.startScan(b, base, i, len, 'skip');
        return i;
      case 'comma':
        if (c === COMMA) {
          top.expect = 'key';
          return i + 1;
        }
        if (c === RBRACE)
          top.expect = 'key'; // closed by the 'key' case
        else throw new JsonScanError(base + i, "expected ',' or '}'");
        return i;
    }
  }

  private afterValue(): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) this.documents++;
    else top.expect = 'comma';
  }

  private startScan(b: Buffer, base: number, i: number, len: number, then: 'entry' | 'skip'): void {
    const c = b[i];
    let closing: Buffer | null = null;
    let opening: Buffer | null = null;
    if (c === LBRACE || c === LBRACKET) {
      // Pretty-printed: the value opens its line, the line ends right after the bracket, and the
      // next line is indented deeper; then no line inside it holds only a bracket at its indentation.
      let p = i - 1;
      while (p >= 0 && (b[p] === SP || b[p] === TAB)) p--;
      let q = i + 1;
      if (q < len && b[q] === CR) q++;
      if (p >= 0 && b[p] === LF && q < len && b[q] === LF) {
        const indent = i - p - 1;
        let k = q + 1;
        while (k < len && (b[k] === SP || b[k] === TAB)) k++;
        if (k < len && k - q - 1 > indent) {
          closing = Buffer.allocUnsafe(indent + 2);
          closing[0] = LF;
          b.copy(closing, 1, p + 1, i);
          closing[indent + 1] = c === LBRACE ? RBRACE : RBRACKET;
          if (then === 'entry') {
            opening = Buffer.from(closing);
            opening[indent + 1] = c;
          }
        }
      }
    }
    this.scan = { start: base + i, at: base + i, depth: 0, inString: false, closing, opening, broken: false, then };
  }

  /** The absolute end of the value being scanned, or -1 when it goes on past the window. */
  private continueScan(b: Buffer, base: number, len: number): number {
    const sc = this.scan!;
    let i = sc.at - base;
    if (sc.closing !== null) {
      const from = Math.max(i, sc.start - base + 1);
      let at = from < len ? b.indexOf(sc.closing, from) : -1;
      if (at >= 0 && at + sc.closing.length > len) at = -1;
      // the opening line is searched for up to the closing line only (or the window's end)
      const region = sc.opening !== null ? b.subarray(0, at >= 0 ? at : len) : null;
      for (let o = region !== null && from < len ? region.indexOf(sc.opening!, from) : -1; o >= 0; o = region!.indexOf(sc.opening!, o + 1)) {
        const after = o + sc.opening!.length;
        if (after >= len) break; // read on: the line may go on
        if (b[after] === LF || b[after] === CR) {
          sc.broken = true;
          return base + o;
        }
      }
      if (at >= 0) return base + at + sc.closing.length;
      // the last bytes again next time: a line that the window's end cuts (and the byte after it)
      sc.at = base + Math.max(from, len - sc.closing.length);
      return -1;
    }
    const c0 = b[sc.start - base];
    if (sc.depth === 0 && !sc.inString && i === sc.start - base) {
      if (c0 === QUOTE) {
        sc.inString = true;
        i++;
      } else if (c0 !== LBRACE && c0 !== LBRACKET) {
        // a number, true, false or null
        while (i < len) {
          const d = b[i];
          if (isWs(d) || d === COMMA || d === RBRACE || d === RBRACKET) return base + i;
          i++;
        }
        sc.at = base + i;
        return -1;
      }
    }
    let depth = sc.depth;
    let inString = sc.inString;
    while (i < len) {
      const d = b[i++];
      if (inString) {
        if (d === QUOTE) {
          inString = false;
          if (depth === 0) return base + i;
        } else if (d === BACKSLASH) i++;
      } else if (d === QUOTE) inString = true;
      else if (d === LBRACE || d === LBRACKET) depth++;
      else if (d === RBRACE || d === RBRACKET) {
        if (--depth === 0) return base + i;
      }
    }
    sc.at = base + i;
    sc.depth = depth;
    sc.inString = inString;
    return -1;
  }
}
