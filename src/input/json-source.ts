// Reading JSON snapshots without building the whole tree: a document is read member by member
// (json-scan.ts finds where each ends); the elements of a list's `items` are parsed one by one,
// each checked, slimmed and dropped before the next; any other object is one JSON.parse.
//
// A stream may hold several documents (NDJSON, or objects one after another, which kubectl's
// decoder accepts too). kubectl prints `kind: List` *after* `items` (its keys are sorted), so the
// items of a document are staged and only committed once the document is known to be a list;
// otherwise the document is read again as one object.
//
// JSON.parse keeps the last of two equal names silently; the API server's strict decoding refuses
// them, and so does the reader: each kept object (and each list) is checked, by a byte scan that
// costs a fraction of JSON.parse (scanValue, which also finds where a split element ends).

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
  JsonScanError,
  lineColumnAt,
  locateJsonPath,
  readKey,
  type ScannedValue,
  scanValue,
  skipString,
  skipValue,
  skipWhitespace,
} from './json-scan.js';
import { isMapping, type Path } from './objects.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** V8's JSON.parse message: the reason, and the position in the text parsed when it gives one. */
const V8_POSITION = / in JSON at position (\d+)(?: \(line \d+ column \d+\))?$/;
/** The excerpt V8 quotes after an unexpected token: `Unexpected token 'x', "…" is not valid JSON`. */
const V8_EXCERPT = /, .* is not valid JSON$/s;

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

  /** The value at [start, end); a syntax error names its line and column (V8's position, else the value's start). */
  parse(start: number, end: number): unknown {
    const text = this.text(start, end);
    try {
      return JSON.parse(text);
    } catch (e) {
      const problem = this.problem(text, start, e);
      throw this.syntaxError(problem.offset ?? start, problem.offset === undefined ? `${problem.reason} in the value that starts here` : problem.reason);
    }
  }

  /** JSON.parse's error on `text` (at `start`) as a reason, and the byte offset V8 named, if it named one. */
  problem(text: string, start: number, e: unknown): { reason: string; offset?: number } {
    const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    const position = V8_POSITION.exec(message);
    if (!position) return { reason: message.replace(V8_EXCERPT, '') };
    const chars = Number(position[1]);
    return { reason: message.slice(0, position.index), offset: start + (this.ascii ? chars : Buffer.byteLength(text.slice(0, chars))) };
  }

  /** The problem V8 finds in [start, end), when it names where (a scan's error is less precise). */
  positionedProblem(start: number, end: number): { reason: string; offset: number } | undefined {
    const text = this.text(start, end);
    try {
      JSON.parse(text);
    } catch (e) {
      const problem = this.problem(text, start, e);
      if (problem.offset !== undefined) return { reason: problem.reason, offset: problem.offset };
    }
    return undefined;
  }

  /** A syntax problem at byte `offset`, as one line with its line and column. */
  syntaxError(offset: number, reason: string): UserError {
    const { line, column } = lineColumnAt(this.b, offset);
    return fileParseError(this.file, `invalid JSON: ${reason}`, { line, column });
  }
}

/** The origin of the JSON value at [start, end); mutable, so one object serves a whole list. */
class JsonOrigin implements Origin {
  readonly file: string;
  /** Whether [start, end) was checked for duplicate names. */
  private checked = false;
  /** What the scan that found [start, end) saw of its names: false when none repeats in an object. */
  private namesMayRepeat = true;

  constructor(
    private readonly input: JsonInput,
    private _start: number,
    private _end: number,
    /** Index in the document's `items`, for an element. */
    public item?: number,
  ) {
    this.file = input.file;
  }

  /** Moves to another value (the next element of a list, or a whole object), as scanValue found it. */
  moveTo(start: number, value: ScannedValue, item: number | undefined): void {
    this._start = start;
    this._end = value.end;
    this.item = item;
    this.checked = false;
    this.namesMayRepeat = value.namesMayRepeat;
  }

  get base(): Path {
    return this.item === undefined ? [] : ['items', this.item];
  }

  line(rel: Path): number {
    return lineColumnAt(this.input.b, locateJsonPath(this.input.b, this._start, rel)).line;
  }

  /** Once per value (a list nested in a list holds several kept objects): no name twice in an object. */
  strict(): void {
    if (this.checked) return;
    this.checked = true;
    if (!this.namesMayRepeat) return;
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
  let j = skipWhitespace(b, i + 1, n);
  if (b[j] === RBRACKET) return { end: j + 1, known, stage, late };
  for (let k = 0; ; k++) {
    const s = j;
    let e = -1;
    if (error === undefined) {
      // one pass finds the element's end and checks its names
      const scanned = scanValue(b, s, n);
      e = scanned.end;
      const value = input.parse(s, e);
      if (known !== null || !isMapping(value) || (value.kind !== undefined && value.kind !== null)) {
        origin.moveTo(s, scanned, k);
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
          const again = input.parse(start, end);
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

/**
 * A document that is an object, read member by member: a list whose items are read one by one,
 * or a single object, parsed whole once its end is found. Each member is found by scanValue, so
 * the names of a single object are checked by the same pass.
 */
function* readObjectDocument(input: JsonInput, start: number, sink: Sink, progress: Progress | undefined): Generator<void, number, void> {
  const { b } = input;
  const n = b.length;
  const members: Member[] = [];
  const names = new Set<string>();
  let items: ItemsRead | undefined;
  let namesMayRepeat = false;
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
        const known = kind ? contextOf(input.parse(kind.start, kind.end), apiVersion && input.parse(apiVersion.start, apiVersion.end)) : null;
        items = yield* readItems(input, i, known, progress);
        i = items.end;
      } else {
        const value = scanValue(b, i, n);
        if (value.namesMayRepeat) namesMayRepeat = true;
        members.push({ key, start: i, end: value.end });
        i = value.end;
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

  if (items) {
    const header: Record<string, unknown> = {};
    for (const m of members) header[m.key] = input.parse(m.start, m.end); // names are unique (checked above)
    const kind = header.kind;
    const apiVersion = header.apiVersion;
    if (typeof kind === 'string' && kind.endsWith('List') && (apiVersion == null || typeof apiVersion === 'string')) {
      const context = contextOf(kind, apiVersion);
      // (A `kind` repeated after `items` could contradict the one the items were read with.)
      if (items.known === null || sameContext(items.known, context)) {
        if (namesMayRepeat) checkMembers(input, members);
        items.late.context = context ?? undefined;
        items.stage.commit(sink);
        if (items.error !== undefined) throw items.error;
        return end;
      }
    }
    // Not a list after all: one object, read whole (an error is coming, or `items` is its own field).
    items.stage.clear();
    namesMayRepeat = true; // its items were checked one by one, not as part of it
  }
  const origin = new JsonOrigin(input, start, end);
  origin.moveTo(start, { end, namesMayRepeat }, undefined);
  ingestValue(sink, input.parse(start, end), origin, [], undefined);
  return end;
}

/** A list's other members (its metadata), held to strict decoding as its items are. */
function checkMembers(input: JsonInput, members: readonly Member[]): void {
  for (const m of members) {
    const dup = findDuplicateKey(input.b, m.start, m.end);
    if (dup !== undefined) throw duplicateFieldError(input.file, lineColumnAt(input.b, dup.offset).line, [m.key, ...dup.path]);
  }
}

function sameContext(a: ListContext | undefined | null, b: ListContext | undefined | null): boolean {
  return a === b || (!!a && !!b && a.kind === b.kind && a.apiVersion === b.apiVersion);
}

function* readDocument(input: JsonInput, start: number, sink: Sink, progress: Progress | undefined): Generator<void, number, void> {
  const { b } = input;
  const n = b.length;
  const c = b[start];
  if (c === LBRACE) return yield* readObjectDocument(input, start, sink, progress);
  const end = skipValue(b, start, n);
  const origin = new JsonOrigin(input, start, end);
  if (c === LBRACKET) fail(origin, [], '', 'expected a mapping (an object), got a list');
  ingestValue(sink, input.parse(start, end), origin, [], undefined);
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
      if (e instanceof JsonScanError) {
        const v8 = input.positionedProblem(i, n);
        throw v8 ? input.syntaxError(v8.offset, v8.reason) : input.syntaxError(e.offset, e.message);
      }
      throw e;
    }
    if (progress?.due(end)) yield;
    i = skipWhitespace(b, end, n);
  }
}
