// Byte-level JSON scanning for large snapshots: the one item splitter.
//
// `kubectl get … -o json` on a big cluster prints hundreds of megabytes. Parsing that with one
// JSON.parse builds the whole tree (every volume, every container status) before anything can
// be dropped. Instead the reader walks the raw bytes of each document's top-level members, and
// hands each element of `items` to JSON.parse alone, keeping a slim projection of it. Element
// boundaries come from a tight scan that tracks only strings, escapes and nesting depth
// (`skipValue`). The scanner is not a validator: each slice it hands out is validated by
// JSON.parse, whose message names the problem and its position.

const SP = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** A structural problem found while scanning; `offset` is where scanning gave up. */
export class JsonScanError extends Error {
  constructor(
    readonly offset: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'JsonScanError';
  }
}

export function skipWhitespace(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i];
    if (c === SP || c === LF || c === CR || c === TAB) i++;
    else break;
  }
  return i;
}

/** `b[i]` is a quote; returns the offset after the closing quote. */
export function skipString(b: Uint8Array, i: number, n: number): number {
  const start = i;
  i++;
  while (i < n) {
    const c = b[i++];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  throw new JsonScanError(start, 'unterminated string');
}

/** `b[i]` is `{` or `[`; returns the offset after the matching closing bracket. */
function skipComposite(b: Uint8Array, i: number, n: number): number {
  const start = i;
  let depth = 0;
  while (i < n) {
    const c = b[i++];
    if (c === QUOTE) {
      // Inlined skipString: this loop is where the time goes on big files.
      for (;;) {
        if (i >= n) throw new JsonScanError(start, 'unexpected end of input');
        const d = b[i++];
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
      }
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
    } else if (c === RBRACE || c === RBRACKET) {
      if (--depth === 0) return i;
    }
  }
  throw new JsonScanError(start, 'unexpected end of input');
}

function isDelimiter(c: number): boolean {
  return (
    c === SP ||
    c === LF ||
    c === CR ||
    c === TAB ||
    c === COMMA ||
    c === COLON ||
    c === LBRACE ||
    c === RBRACE ||
    c === LBRACKET ||
    c === RBRACKET ||
    c === QUOTE
  );
}

/** Skips one value starting exactly at `i` (no leading whitespace); returns the offset after it. */
export function skipValue(b: Uint8Array, i: number, n: number): number {
  const c = b[i];
  if (c === LBRACE || c === LBRACKET) return skipComposite(b, i, n);
  if (c === QUOTE) return skipString(b, i, n);
  let j = i;
  while (j < n && !isDelimiter(b[j])) j++;
  if (j === i)
    throw new JsonScanError(i, i >= n ? 'unexpected end of input' : b[i] < 0x80 ? `unexpected '${String.fromCharCode(b[i])}'` : 'unexpected character');
  return j;
}

/** A property name: `b[start]` and `b[end - 1]` are its quotes. */
export function readKey(b: Uint8Array, start: number, end: number): string {
  // Keys without escapes are plain ASCII/UTF-8 between the quotes.
  let plain = true;
  for (let k = start + 1; k < end - 1; k++) {
    if (b[k] === BACKSLASH || b[k] < 0x20) {
      plain = false;
      break;
    }
  }
  if (plain) return Buffer.from(b.buffer, b.byteOffset + start + 1, end - start - 2).toString('utf8');
  try {
    return JSON.parse(Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('utf8')) as string;
  } catch {
    throw new JsonScanError(start, 'invalid property name');
  }
}

// ---------------------------------------------------------------------------------------------
// Strict validation (error path only)

// ---------------------------------------------------------------------------------------------
// Locations

/** 1-based line and column (in UTF-16 code units, like an editor) of a byte offset. */
export function lineColumnAt(b: Uint8Array, offset: number): { line: number; column: number } {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  let line = 1;
  let lineStart = 0;
  for (;;) {
    const nl = buf.indexOf(LF, lineStart);
    if (nl < 0 || nl >= offset) break;
    line++;
    lineStart = nl + 1;
  }
  const column = buf.toString('utf8', lineStart, Math.min(offset, buf.length)).length + 1;
  return { line, column };
}

/**
 * Offset of the deepest part of `path` found in the valid JSON value at `start`: the key of the
 * last matched property (or the start of the last matched array element).
 */
export function locateJsonPath(b: Uint8Array, start: number, path: ReadonlyArray<string | number>): number {
  const n = b.length;
  let i = skipWhitespace(b, start, n);
  let found = i;
  try {
    for (const seg of path) {
      const c = b[i];
      let next = -1;
      if (typeof seg === 'string' && c === LBRACE) {
        let j = skipWhitespace(b, i + 1, n);
        while (b[j] === QUOTE) {
          const keyEnd = skipString(b, j, n);
          const key = readKey(b, j, keyEnd);
          const v = skipWhitespace(b, skipWhitespace(b, keyEnd, n) + 1, n);
          if (key === seg) {
            // JSON.parse keeps the last duplicate: so do we.
            found = j;
            next = v;
          }
          j = skipWhitespace(b, skipValue(b, v, n), n);
          if (b[j] !== COMMA) break;
          j = skipWhitespace(b, j + 1, n);
        }
      } else if (typeof seg === 'number' && c === LBRACKET) {
        let j = skipWhitespace(b, i + 1, n);
        for (let k = 0; j < n && b[j] !== RBRACKET; k++) {
          if (k === seg) {
            found = j;
            next = j;
            break;
          }
          j = skipWhitespace(b, skipValue(b, j, n), n);
          if (b[j] !== COMMA) break;
          j = skipWhitespace(b, j + 1, n);
        }
      }
      if (next < 0) return found;
      i = next;
    }
  } catch {
    // Only reached on invalid JSON, which callers never pass; the best guess stands.
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Duplicate property names

/** A property name seen twice in one object: where the second one is, and its path. */
export interface DuplicateKey {
  /** Offset of the second occurrence's opening quote. */
  offset: number;
  /** Path from the scanned value to the property (its last segment is the name). */
  path: Array<string | number>;
}

/**
 * Scratch space of findDuplicateKey, reused across calls: the fingerprints of the names of the
 * open objects, and per open object or array where its names start and whether it is an object.
 */
let fingerprints = new Int32Array(1024);
let containerBase = new Int32Array(256);
let containerIsObject = new Uint8Array(256);

/**
 * The first property name that occurs twice in one object of the valid JSON value at
 * [start, end), or undefined. JSON.parse keeps the last value silently; the API server's strict
 * decoding refuses the object, and so do we.
 */
export function findDuplicateKey(b: Uint8Array, start: number, end: number): DuplicateKey | undefined {
  return scanValue(b, start, end).namesMayRepeat ? findDuplicateKeySlowly(b, start, end) : undefined;
}

/** A value's extent, and whether two names in one of its objects may be the same. */
export interface ScannedValue {
  /** The offset after the value. */
  end: number;
  /** False only when no object of the value holds a name twice. */
  namesMayRepeat: boolean;
}

/**
 * Skips the value at `i` as skipValue does, checking its objects' names on the way, so that a big
 * list's elements are split and checked in one pass.
 *
 * It runs on every kept object, so it must cost little next to JSON.parse: one pass over the
 * bytes that only compares a fingerprint of each name (its length and three of its bytes) with
 * those of the names before it in the same object, making no strings. When two fingerprints match
 * (or a name holds an escape, which may spell a name differently) the names may repeat, and
 * findDuplicateKeySlowly compares the decoded names.
 */
export function scanValue(b: Uint8Array, i: number, n: number): ScannedValue {
  const c0 = b[i];
  if (c0 !== LBRACE && c0 !== LBRACKET) return { end: skipValue(b, i, n), namesMayRepeat: false };
  const start = i;
  // Pretty-printed JSON is mostly indentation: runs of spaces are skipped four at a time.
  const words = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const lastWord = n - 4;
  let fps = fingerprints;
  let top = 0; // fingerprints in use
  let depth = 0; // open objects and arrays
  let expectKey = false; // after `{`, or after a comma in an object
  let mayRepeat = false;
  while (i < n) {
    const c = b[i++];
    if (c <= SP) {
      if (c === LF) while (i <= lastWord && words.getUint32(i) === FOUR_SPACES) i += 4;
      continue;
    }
    if (c === QUOTE) {
      if (!expectKey || mayRepeat) {
        for (;;) {
          if (i >= n) throw new JsonScanError(start, 'unexpected end of input');
          const d = b[i++];
          if (d === QUOTE) break;
          if (d === BACKSLASH) i++;
        }
        continue;
      }
      expectKey = false;
      const s = i;
      for (;;) {
        if (i >= n) throw new JsonScanError(start, 'unexpected end of input');
        const d = b[i++];
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          mayRepeat = true;
          i++;
        }
      }
      if (mayRepeat) continue;
      const len = i - 1 - s;
      const fp = len === 0 ? 0 : len | (b[s] << 8) | (b[s + (len >> 1)] << 16) | (b[i - 2] << 24) | 0;
      for (let k = containerBase[depth - 1]; k < top; k++) {
        if (fps[k] === fp) mayRepeat = true;
      }
      if (top === fps.length) fps = fingerprints = grow(fps, new Int32Array(fps.length * 2));
      fps[top++] = fp;
    } else if (c === COMMA) {
      expectKey = containerIsObject[depth - 1] === 1;
    } else if (c === LBRACE || c === LBRACKET) {
      if (depth === containerBase.length) {
        containerBase = grow(containerBase, new Int32Array(depth * 2));
        containerIsObject = grow(containerIsObject, new Uint8Array(depth * 2));
      }
      containerBase[depth] = top;
      containerIsObject[depth++] = c === LBRACE ? 1 : 0;
      expectKey = c === LBRACE;
    } else if (c === RBRACE || c === RBRACKET) {
      top = containerBase[--depth];
      if (depth === 0) return { end: i, namesMayRepeat: mayRepeat };
    }
  }
  throw new JsonScanError(start, 'unexpected end of input');
}

const FOUR_SPACES = 0x20202020;

function grow<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The exact check behind findDuplicateKey: decoded names, with the path to the duplicate. */
function findDuplicateKeySlowly(b: Uint8Array, start: number, end: number): DuplicateKey | undefined {
  // One frame per open object or array: the names seen (objects), the index (arrays).
  const frames: Array<{ names?: Set<string>; index: number; key?: string | number }> = [];
  const path = (last: string) => [...frames.slice(1).map((f) => f.key as string | number), last];
  let pendingKey: string | number | undefined;
  let i = start;
  while (i < end) {
    const c = b[i];
    if (c === QUOTE) {
      const e = skipString(b, i, end);
      const j = skipWhitespace(b, e, end);
      const frame = frames[frames.length - 1];
      if (b[j] === COLON && frame?.names) {
        const name = readKey(b, i, e);
        if (frame.names.has(name)) return { offset: i, path: path(name) };
        frame.names.add(name);
        pendingKey = name;
        i = j + 1;
        continue;
      }
      i = e;
      continue;
    }
    if (c === LBRACE || c === LBRACKET) {
      const parent = frames[frames.length - 1];
      const key = parent?.names ? pendingKey : parent?.index;
      frames.push({ names: c === LBRACE ? new Set() : undefined, index: 0, key });
    } else if (c === RBRACE || c === RBRACKET) {
      frames.pop();
    } else if (c === COMMA) {
      const frame = frames[frames.length - 1];
      if (frame && !frame.names) frame.index++;
    }
    i++;
  }
  return undefined;
}
