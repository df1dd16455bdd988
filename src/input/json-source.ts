// Reading JSON snapshots without building the whole tree: one JSON.parse per element of each
// document's `items`, each element checked, slimmed and dropped before the next.
//
// A stream may hold several documents (NDJSON, or objects one after another, which kubectl's
// decoder accepts too). kubectl prints `kind: List` *after* `items` (its keys are sorted), so the
// items of a document are staged and only committed once the document is known to be a list;
// otherwise the document is read again as one object.
//
// JSON.parse keeps the last of two equal names silently; the API server's strict decoding refuses
// them, and so does the reader: each kept object (and each list) is checked, by a byte scan that
// costs a fraction of JSON.parse (findDuplicateKey).

import { isAscii } from 'node:buffer';

import { fileParseError, UserError } from '../errors.js';
import {
  duplicateFieldError,
  fail,
  ingestValue,
  itemsContext,
  StagedSink,
  type ListContext,
  type Origin,
  type Progress,
  type Sink,
  type Steps,
} from './ingest.js';
import {
  findDuplicateKey,
  guessValueEnd,
  JsonScanError,
  lineColumnAt,
  locateJsonPath,
  readKey,
  skipString,
  skipValue,
  skipWhitespace,
  validateJsonValue,
  type JsonSyntaxProblem,
} from './json-scan.js';
import { isMapping, type Path } from './objects.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** One-line documents up to this size (NDJSON lines) are parsed whole. */
const WHOLE_LINE_MAX_BYTES = 4 * 1024 * 1024;

const FAILED = Symbol('unparsed');

/** The bytes of one file, and how to turn parts of them into values or errors. */
class JsonInput {
  /** Pure-ASCII content (most snapshots) is decoded as latin1: the same text, decoded faster. */
  private readonly ascii: boolean;

  constructor(
    readonly b: Buffer,
    readonly file: string,
  ) {
    this.ascii = isAscii(b);
  }

  text(start: number, end: number): string {
    return this.b.toString(this.ascii ? 'latin1' : 'utf8', start, end);
  }

  /** The value at [start, end), or FAILED. */
  tryParse(start: number, end: number): unknown {
    try {
      return JSON.parse(this.text(start, end));
    } catch {
      return FAILED;
    }
  }

  /** The value at [start, end); a syntax error names its line and column. */
  parse(start: number, end: number, stream: boolean): unknown {
    try {
      return JSON.parse(this.text(start, end));
    } catch (e) {
      const reason = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      throw this.syntaxError(start, stream, { offset: start, reason });
    }
  }

  /** The first syntax problem at or after `from` (through the following documents if `stream`). */
  syntaxError(from: number, stream: boolean, fallback: JsonSyntaxProblem): UserError {
    const b = this.b;
    let problem = fallback;
    let i = from;
    for (;;) {
      const r = validateJsonValue(b, i);
      if ('reason' in r) {
        problem = r;
        break;
      }
      i = skipWhitespace(b, r.end, b.length);
      if (!stream || i >= b.length) break;
    }
    const { line, column } = lineColumnAt(b, problem.offset);
    return fileParseError(this.file, `invalid JSON: ${problem.reason}`, { line, column });
  }
}

/** The origin of the JSON value at [start, end); mutable, so one object serves a whole list. */
class JsonOrigin implements Origin {
  readonly file: string;
  /** Whether [start, end) was checked for duplicate names. */
  private checked = false;

  constructor(
    private readonly input: JsonInput,
    private _start: number,
    private _end: number,
    /** Index in the document's `items`, for an element. */
    public item?: number,
  ) {
    this.file = input.file;
  }

  /** Moves to another value (the next element of a list). */
  moveTo(start: number, end: number, item: number): void {
    this._start = start;
    this._end = end;
    this.item = item;
    this.checked = false;
  }

  get base(): Path {
    return this.item === undefined ? [] : ['items', this.item];
  }

  line(rel: Path): number {
    return lineColumnAt(this.input.b, locateJsonPath(this.input.b, this._start, rel)).line;
  }

  /** Once per value (a list read whole holds several kept objects): no name twice in an object. */
  strict(): void {
    if (this.checked) return;
    this.checked = true;
    const dup = findDuplicateKey(this.input.b, this._start, this._end);
    if (dup === undefined) return;
    const { line } = lineColumnAt(this.input.b, dup.offset);
    throw duplicateFieldError(this.file, line, [...this.base, ...dup.path]);
  }
}

interface Member {
  key: string;
  start: number;
  end: number;
}

interface ItemsRead {
  end: number;
  /** The context the elements were read with (null: not known while reading). */
  known: ListContext | undefined | null;
  stage: StagedSink;
  /** The first problem with an element: thrown only if the document turns out to be a list. */
  error?: unknown;
  /** Filled in at commit: the list's context, for elements read before it was known. */
  late: { context?: ListContext };
}

/**
 * Reads the `items` array at `b[i] === '['`, staging its elements. `known` is the context from
 * `kind`/`apiVersion` members seen before `items` (null if none): elements lacking a kind are
 * decoded again at commit time when it is not known yet.
 */
function* readItems(input: JsonInput, i: number, known: ListContext | undefined | null, progress: Progress | undefined): Generator<void, ItemsRead, void> {
  const { b } = input;
  const n = b.length;
  const stage = new StagedSink();
  const late: ItemsRead['late'] = {};
  const origin = new JsonOrigin(input, i, i, 0);
  let error: unknown;
  let guessing = true;
  let j = skipWhitespace(b, i + 1, n);
  if (b[j] === RBRACKET) return { end: j + 1, known, stage, late };
  for (let k = 0; ; k++) {
    const s = j;
    let e = -1;
    if (error === undefined) {
      let value: unknown = FAILED;
      if (guessing) {
        e = guessValueEnd(b, s, n);
        if (e > 0) value = input.tryParse(s, e);
        // A layout that misled once is not trusted again: scan from now on.
        if (value === FAILED) guessing = false;
      }
      if (value === FAILED) {
        e = skipValue(b, s, n);
        value = input.parse(s, e, false);
      }
      if (known !== null || !isMapping(value) || (value.kind !== undefined && value.kind !== null)) {
        origin.moveTo(s, e, k);
        try {
          ingestValue(stage, value, origin, [], known ?? undefined);
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          error = err;
        }
      } else {
        // A typed list's item without a kind, before the list's kind is known: decode it again later.
        const [start, end, item] = [s, e, k];
        stage.later((sink) => {
          const again = input.parse(start, end, false);
          ingestValue(sink, again, new JsonOrigin(input, start, end, item), [], late.context);
        });
      }
    } else {
      e = skipValue(b, s, n); // after a problem, only the end of the list matters
    }
    if (progress?.due(e)) yield;
    j = skipWhitespace(b, e, n);
    if (b[j] === COMMA) {
      j = skipWhitespace(b, j + 1, n);
    } else if (b[j] === RBRACKET) {
      return { end: j + 1, known, stage, error, late };
    } else {
      throw new JsonScanError(j, "expected ',' or ']' after an array element");
    }
  }
}

/** The context a list document gives its items; null when `kind` does not name a list. */
function contextOf(kind: unknown, apiVersion: unknown): ListContext | undefined | null {
  if (typeof kind !== 'string' || !kind.endsWith('List')) return null;
  return itemsContext(kind, typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined);
}

/** A document that is an object: a list whose items are read one by one, or a single object. */
function* readObjectDocument(input: JsonInput, start: number, sink: Sink, progress: Progress | undefined): Generator<void, number, void> {
  const { b } = input;
  const n = b.length;
  const members: Member[] = [];
  const names = new Set<string>();
  let items: ItemsRead | undefined;
  let end: number;
  let i = skipWhitespace(b, start + 1, n);
  if (b[i] === RBRACE) {
    end = i + 1;
  } else {
    for (;;) {
      if (b[i] !== QUOTE) throw new JsonScanError(i, 'expected a property name');
      const keyStart = i;
      const keyEnd = skipString(b, i, n);
      const key = readKey(b, keyStart, keyEnd);
      if (names.has(key)) throw duplicateFieldError(input.file, lineColumnAt(b, keyStart).line, [key]);
      names.add(key);
      i = skipWhitespace(b, keyEnd, n);
      if (b[i] !== COLON) throw new JsonScanError(i, "expected ':' after a property name");
      i = skipWhitespace(b, i + 1, n);
      if (i >= n) throw new JsonScanError(i, 'unexpected end of input');
      if (key === 'items' && b[i] === LBRACKET) {
        const kind = members.findLast((m) => m.key === 'kind');
        const apiVersion = members.findLast((m) => m.key === 'apiVersion');
        const known = kind ? contextOf(input.parse(kind.start, kind.end, false), apiVersion && input.parse(apiVersion.start, apiVersion.end, false)) : null;
        items = yield* readItems(input, i, known, progress);
        i = items.end;
      } else {
        const valueEnd = skipValue(b, i, n);
        members.push({ key, start: i, end: valueEnd });
        i = valueEnd;
      }
      i = skipWhitespace(b, i, n);
      if (b[i] === COMMA) {
        i = skipWhitespace(b, i + 1, n);
      } else if (b[i] === RBRACE) {
        end = i + 1;
        break;
      } else {
        throw new JsonScanError(i, "expected ',' or '}' after a property value");
      }
    }
  }

  const origin = new JsonOrigin(input, start, end);
  const header: Record<string, unknown> = {};
  for (const m of members) header[m.key] = input.parse(m.start, m.end, false); // names are unique (checked above)
  const kind = header.kind;
  const apiVersion = header.apiVersion;
  if (items && typeof kind === 'string' && kind.endsWith('List') && (apiVersion == null || typeof apiVersion === 'string')) {
    const context = contextOf(kind, apiVersion);
    // (A `kind` repeated after `items` could contradict the one the items were read with.)
    if (items.known === null || sameContext(items.known, context)) {
      items.late.context = context ?? undefined;
      items.stage.commit(sink);
      if (items.error !== undefined) throw items.error;
      return end;
    }
  }
  // Not a list after all: one object, read whole (it is small, or an error is coming).
  items?.stage.clear();
  ingestValue(sink, input.parse(start, end, true), origin, [], undefined);
  return end;
}

function sameContext(a: ListContext | undefined | null, b: ListContext | undefined | null): boolean {
  return a === b || (!!a && !!b && a.kind === b.kind && a.apiVersion === b.apiVersion);
}

function* readDocument(input: JsonInput, start: number, sink: Sink, progress: Progress | undefined): Generator<void, number, void> {
  const { b } = input;
  const n = b.length;
  const c = b[start];
  if (c === LBRACE) {
    // A document on one line (NDJSON): parse it whole, no scanning.
    const e = guessValueEnd(b, start, n, true, WHOLE_LINE_MAX_BYTES);
    if (e > 0) {
      const value = input.tryParse(start, e);
      if (value !== FAILED) {
        ingestValue(sink, value, new JsonOrigin(input, start, e), [], undefined);
        return e;
      }
    }
    return yield* readObjectDocument(input, start, sink, progress);
  }
  const end = skipValue(b, start, n);
  const origin = new JsonOrigin(input, start, end);
  if (c === LBRACKET) fail(origin, [], '', 'expected a mapping (an object), got a list');
  ingestValue(sink, input.parse(start, end, true), origin, [], undefined);
  return end;
}

/** Reads the JSON documents of `b` from `start` (the first non-blank byte) into `sink`. */
export function* ingestJson(b: Buffer, start: number, file: string, sink: Sink, progress?: Progress): Steps {
  const input = new JsonInput(b, file);
  const n = b.length;
  let i = skipWhitespace(b, start, n);
  while (i < n) {
    let end: number;
    try {
      end = yield* readDocument(input, i, sink, progress);
    } catch (e) {
      if (e instanceof JsonScanError) throw input.syntaxError(i, true, { offset: e.offset, reason: e.message });
      throw e;
    }
    if (progress?.due(end)) yield;
    i = skipWhitespace(b, end, n);
  }
}
