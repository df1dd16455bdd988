// A fast reader for the YAML that kubectl prints, with `yaml` as the authority.
//
// `yaml` (the library) reads about 2 MB a second: 15 seconds for `kubectl get pods -A -o yaml` of
// 10,000 pods. kubectl's YAML is a small part of the language: block mappings and sequences,
// plain, quoted and literal scalars, `{}` and `[]`, no comments, anchors, tags or flow
// collections. This reader handles exactly that part and gives up (returns BAIL) on anything
// else, so the caller can hand the text to `yaml`; what it accepts, it reads as `yaml` does with
// its default (YAML 1.2 core) schema. A property test holds it to that.
//
// A `kind: List` document is split into its items first (yaml-list.ts), so that each item is
// read (by either reader) and dropped on its own.

export const BAIL = Symbol('bail');

/** Thrown inside the reader to give up; never escapes it. */
class Bailed {}
const BAILED = new Bailed();

function bail(): never {
  throw BAILED;
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

/** The lines of [start, limit) of a text, one at a time. */
class Lines {
  /** Start of the current line. */
  start = 0;
  /** End of its content (before `\r\n` or `\n`). */
  end = 0;
  /** Start of the next line. */
  next = 0;
  /** Leading spaces (for the first line of a compact mapping in a sequence: its column). */
  indent = 0;
  /** Only blanks on the line. */
  blank = true;
  eof = false;

  constructor(
    readonly s: string,
    start: number,
    readonly limit: number,
  ) {
    this.load(start);
  }

  load(p: number): void {
    const { s, limit } = this;
    this.start = p;
    if (p >= limit) {
      this.end = this.next = limit;
      this.indent = 0;
      this.blank = true;
      this.eof = true;
      return;
    }
    let nl = s.indexOf('\n', p);
    if (nl < 0 || nl >= limit) nl = limit;
    let e = nl;
    if (e > p && s.charCodeAt(e - 1) === CR) e--;
    let i = p;
    while (i < e && s.charCodeAt(i) === SPACE) i++;
    let j = i;
    while (j < e && (s.charCodeAt(j) === SPACE || s.charCodeAt(j) === TAB)) j++;
    this.blank = j === e;
    // A blank line holding a tab: yaml reads it differently inside and outside of scalars, and
    // kubectl never prints one. Not ours.
    if (this.blank && j !== i) bail();
    // A tab in the indentation of a line with content is an error (or content of a block
    // scalar): either way, not ours.
    if (!this.blank && j !== i) bail();
    this.end = e;
    this.next = nl + 1;
    this.indent = i - p;
    this.eof = false;
  }

  advance(): void {
    this.load(this.next);
  }

  skipBlank(): void {
    while (!this.eof && this.blank) this.advance();
  }

  get content(): number {
    return this.start + this.indent;
  }
}

// ---------------------------------------------------------------------------------------------
// Scalars

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar, resolved by the YAML 1.2 core schema, in `yaml`'s order. */
export function resolvePlain(v: string): unknown {
  const c = v.charCodeAt(0);
  // Fast exit: most scalars are words that no tag can match.
  if (c >= 0x61 && c <= 0x7a && c !== 0x6e && c !== 0x74 && c !== 0x66) return v; // a-z but n, t, f
  if (NULL.test(v)) return null;
  if (BOOL.test(v)) return v[0] === 't' || v[0] === 'T';
  if (INT_OCT.test(v)) return parseInt(v.substring(2), 8);
  if (INT.test(v)) return parseInt(v, 10);
  if (INT_HEX.test(v)) return parseInt(v.substring(2), 16);
  if (FLOAT_NAN.test(v)) return v.slice(-3).toLowerCase() === 'nan' ? NaN : v[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(v) || FLOAT.test(v)) return parseFloat(v);
  return v;
}

function isBlankChar(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** End of `s[p, end)` without trailing blanks. */
function trimEnd(s: string, p: number, end: number): number {
  while (end > p && isBlankChar(s.charCodeAt(end - 1))) end--;
  return end;
}

/** Checks a plain scalar's line: nothing that would make it a key, a comment or an indicator. */
function checkPlainLine(text: string): void {
  if (text.includes(': ') || text.includes(':\t') || text.endsWith(':') || text.includes(' #') || text.includes('\t#')) bail();
}

const PLAIN_FIRST_FORBIDDEN = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));

function readPlain(l: Lines, p: number, parentIndent: number): unknown {
  const { s } = l;
  let value = s.slice(p, trimEnd(s, p, l.end));
  checkPlainLine(value);
  l.advance();
  // Continuation lines (more indented than the parent) fold into one value.
  let breaks = 0;
  while (!l.eof) {
    if (l.blank) {
      breaks++;
      l.advance();
      continue;
    }
    if (l.indent <= parentIndent) break;
    const q = l.content;
    const c = s.charCodeAt(q);
    if (c === 0x23 || c === 0x2d) bail(); // '#', '-'
    const line = s.slice(q, trimEnd(s, q, l.end));
    checkPlainLine(line);
    value += breaks === 0 ? ` ${line}` : '\n'.repeat(breaks) + line;
    breaks = 0;
    l.advance();
  }
  return resolvePlain(value);
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9a-fA-F]+$/;

/**
 * A double- or single-quoted scalar starting at `p` (the quote), possibly over several lines.
 * Leaves `l` on the line of the closing quote; returns the value and the offset after the quote.
 */
function readQuoted(l: Lines, p: number, parentIndent: number): { value: string; after: number } {
  const { s } = l;
  const double = s.charCodeAt(p) === 0x22;
  let out = '';
  let i = p + 1;
  /** Raw blanks at the end of `out`, dropped if a line break follows. */
  let rawBlanks = 0;
  for (;;) {
    if (i >= l.end) {
      // A line break inside the quotes folds: into a space, or the empty lines that follow.
      out = out.slice(0, out.length - rawBlanks);
      rawBlanks = 0;
      let breaks = 0;
      l.advance();
      while (!l.eof && l.blank) {
        breaks++;
        l.advance();
      }
      if (l.eof || l.indent <= parentIndent) bail();
      out += breaks === 0 ? ' ' : '\n'.repeat(breaks);
      i = l.content;
      continue;
    }
    const c = s.charCodeAt(i);
    if (double) {
      if (c === 0x22) return { value: out, after: i + 1 };
      if (c === 0x5c) {
        const e = s[i + 1];
        if (i + 1 >= l.end) {
          // An escaped line break: joins the lines, keeping what came before it.
          l.advance();
          if (l.eof || l.blank || l.indent <= parentIndent) bail();
          rawBlanks = 0;
          i = l.content;
          continue;
        }
        const hex = HEX_LENGTH[e];
        if (hex) {
          const digits = s.slice(i + 2, i + 2 + hex);
          if (digits.length !== hex || !HEX.test(digits)) bail();
          const code = parseInt(digits, 16);
          if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) bail();
          out += String.fromCodePoint(code);
          i += 2 + hex;
        } else {
          const r = ESCAPES[e];
          if (r === undefined) bail();
          out += r;
          i += 2;
        }
        rawBlanks = 0;
        continue;
      }
    } else if (c === 0x27) {
      if (s.charCodeAt(i + 1) === 0x27 && i + 1 < l.end) {
        out += "'";
        i += 2;
        rawBlanks = 0;
        continue;
      }
      return { value: out, after: i + 1 };
    }
    // A run of ordinary characters.
    let j = i + 1;
    while (j < l.end) {
      const d = s.charCodeAt(j);
      if (d === 0x22 || d === 0x27 || d === 0x5c || isBlankChar(d)) break;
      j++;
    }
    if (isBlankChar(c)) {
      out += s[i];
      rawBlanks++;
      i++;
    } else {
      out += s.slice(i, j);
      rawBlanks = 0;
      i = j;
    }
  }
}

/** Nothing but blanks may follow a value on its line. */
function expectLineEnd(l: Lines, p: number): void {
  const { s } = l;
  while (p < l.end) {
    if (!isBlankChar(s.charCodeAt(p))) bail();
    p++;
  }
}

/** A literal block scalar (`|`, `|-`, `|+`) whose header is at `p`. */
function readLiteral(l: Lines, p: number, parentIndent: number): string {
  const { s } = l;
  let chomp = 'clip';
  let i = p + 1;
  const h = s[i];
  if (h === '-' || h === '+') {
    chomp = h === '-' ? 'strip' : 'keep';
    i++;
  }
  expectLineEnd(l, i); // no indentation indicator, no comment
  l.advance();
  const lines: string[] = [];
  let indent = -1;
  let widestLeadingBlank = 0;
  while (!l.eof) {
    if (l.blank) {
      const width = l.end - l.start;
      if (indent < 0) widestLeadingBlank = Math.max(widestLeadingBlank, width);
      else if (width > indent) bail(); // blanks beyond the indentation: content or not, leave it to yaml
      lines.push('');
      l.advance();
      continue;
    }
    if (indent < 0) {
      if (l.indent <= parentIndent) break;
      indent = l.indent;
      if (widestLeadingBlank > indent) bail();
    }
    if (l.indent < indent) break;
    lines.push(s.slice(l.start + indent, l.end));
    l.advance();
  }
  // A block that runs to the end of the text without a final line break: leave it to yaml.
  if (l.eof && lines.length > 0 && s.charCodeAt(l.limit - 1) !== LF) bail();
  let last = lines.length;
  while (last > 0 && lines[last - 1] === '') last--;
  if (last === 0) {
    if (chomp === 'keep' && lines.length > 0) bail();
    return '';
  }
  const body = lines.slice(0, last).join('\n');
  if (chomp === 'strip') return body;
  if (chomp === 'clip') return `${body}\n`;
  return `${body}\n${'\n'.repeat(lines.length - last)}`;
}

/**
 * A value starting at `p` on the current line (after `key: ` or `- `), as a scalar or an empty
 * collection; continuation lines must be more indented than `parentIndent`. Leaves `l` on the
 * line after the value.
 */
function readValue(l: Lines, p: number, parentIndent: number): unknown {
  const { s } = l;
  const c = s.charCodeAt(p);
  if (c === 0x22 || c === 0x27) {
    const { value, after } = readQuoted(l, p, parentIndent);
    expectLineEnd(l, after);
    l.advance();
    return value;
  }
  if (c === 0x7c) return readLiteral(l, p, parentIndent); // |
  if (c === 0x7b || c === 0x5b) {
    // Only the empty flow collections kubectl prints.
    if (s.charCodeAt(p + 1) !== (c === 0x7b ? 0x7d : 0x5d)) bail();
    expectLineEnd(l, p + 2);
    l.advance();
    return c === 0x7b ? {} : [];
  }
  if (PLAIN_FIRST_FORBIDDEN.has(c)) {
    // `-1` and `-x` are plain scalars; `- ` would be a sequence, not allowed here.
    if (c !== 0x2d || p + 1 >= l.end || isBlankChar(s.charCodeAt(p + 1))) bail();
  }
  return readPlain(l, p, parentIndent);
}

// ---------------------------------------------------------------------------------------------
// Collections

function isSequenceEntry(l: Lines, p: number): boolean {
  return l.s.charCodeAt(p) === 0x2d && (p + 1 === l.end || isBlankChar(l.s.charCodeAt(p + 1)));
}

/** The offset after the closing quote of the quoted scalar at `p`, if it ends on this line. */
function quotedEndOnLine(l: Lines, p: number): number {
  const { s } = l;
  const quote = s.charCodeAt(p);
  for (let i = p + 1; i < l.end; i++) {
    const c = s.charCodeAt(i);
    if (quote === 0x22 && c === 0x5c) i++;
    else if (c === quote) {
      if (quote === 0x27 && s.charCodeAt(i + 1) === 0x27 && i + 1 < l.end) i++;
      else return i + 1;
    }
  }
  return -1;
}

/**
 * If a mapping entry starts at `p`, its key and the offset after its colon; else undefined.
 * Keys are plain words or quoted strings on one line; anything fancier is not ours.
 */
function entryAt(l: Lines, p: number): { key: string; after: number } | undefined {
  const { s } = l;
  const c = s.charCodeAt(p);
  if (c === 0x22 || c === 0x27) {
    const end = quotedEndOnLine(l, p);
    if (end < 0) return undefined; // a quoted value over several lines, not a key
    let q = end;
    while (q < l.end && s.charCodeAt(q) === SPACE) q++;
    if (s.charCodeAt(q) !== 0x3a || q >= l.end) return undefined; // a quoted scalar, not a key
    if (q + 1 < l.end && s.charCodeAt(q + 1) !== SPACE) bail();
    const key = readQuoted(l, p, Infinity).value;
    if (key === '__proto__') bail();
    return { key, after: q + 1 };
  }
  let colon = p;
  for (;;) {
    colon = s.indexOf(':', colon);
    if (colon < 0 || colon >= l.end) return undefined;
    const next = s.charCodeAt(colon + 1);
    if (colon + 1 === l.end || next === SPACE) break;
    if (next === TAB) bail();
    colon++;
  }
  if (PLAIN_FIRST_FORBIDDEN.has(c)) bail();
  const key = s.slice(p, trimEnd(s, p, colon));
  if (key.includes(' #') || key.includes('\t#') || key === '__proto__') bail();
  // Keys that are not strings (null, true, 1.5) become other keys in yaml's hands.
  if (resolvePlain(key) !== key) bail();
  return { key, after: colon + 1 };
}

/** The value of a key or sequence entry that starts on the next lines. */
function readNestedValue(l: Lines, parentIndent: number, allowIndentlessSequence: boolean): unknown {
  l.advance();
  l.skipBlank();
  if (l.eof) return null;
  if (l.indent > parentIndent) return readNode(l, parentIndent);
  if (allowIndentlessSequence && l.indent === parentIndent && isSequenceEntry(l, l.content)) {
    return readSequence(l, parentIndent);
  }
  return null;
}

function readMapping(l: Lines, indent: number): Record<string, unknown> {
  const { s } = l;
  const out: Record<string, unknown> = {};
  for (;;) {
    l.skipBlank();
    if (l.eof || l.indent !== indent) break;
    const entry = entryAt(l, l.content);
    if (!entry) bail();
    if (Object.hasOwn(out, entry.key)) bail(); // yaml reports duplicate keys
    let q = entry.after;
    while (q < l.end && s.charCodeAt(q) === SPACE) q++;
    if (s.charCodeAt(q) === TAB) bail(); // tabs as separation: kubectl never prints them
    out[entry.key] = q >= l.end ? readNestedValue(l, indent, true) : readValue(l, q, indent);
  }
  if (!l.eof && l.indent > indent) bail();
  return out;
}

function readSequence(l: Lines, indent: number): unknown[] {
  const { s } = l;
  const out: unknown[] = [];
  for (;;) {
    l.skipBlank();
    if (l.eof || l.indent !== indent || !isSequenceEntry(l, l.content)) break;
    let p = l.content + 1;
    while (p < l.end && s.charCodeAt(p) === SPACE) p++;
    if (s.charCodeAt(p) === TAB) bail();
    if (p >= l.end) {
      out.push(readNestedValue(l, indent, false));
    } else if (isSequenceEntry(l, p)) {
      bail(); // - - nested sequences
    } else if (entryAt(l, p)) {
      // A compact mapping: its first key is on this line, the others at the same column.
      l.indent = p - l.start;
      out.push(readMapping(l, l.indent));
    } else {
      out.push(readValue(l, p, indent));
    }
  }
  if (!l.eof && l.indent > indent) bail();
  return out;
}

function readNode(l: Lines, parentIndent: number): unknown {
  const p = l.content;
  if (isSequenceEntry(l, p)) return readSequence(l, l.indent);
  if (entryAt(l, p)) return readMapping(l, l.indent);
  return readValue(l, p, parentIndent);
}

const UNSUPPORTED_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029\ufeff]|\r(?!\n)/;

/**
 * The value of the YAML block (a mapping or a sequence) in `text[start, end)`, as `yaml` would
 * read it, or BAIL when the text uses anything beyond kubectl's YAML (or is not valid YAML).
 */
export function parseBlockYaml(text: string, start = 0, end = text.length): unknown {
  if (UNSUPPORTED_CHARACTERS.test(start === 0 && end === text.length ? text : text.slice(start, end))) return BAIL;
  try {
    const l = new Lines(text, start, end);
    l.skipBlank();
    if (l.eof) return BAIL;
    const p = l.content;
    let value: unknown;
    if (isSequenceEntry(l, p)) value = readSequence(l, l.indent);
    else if (entryAt(l, p)) value = readMapping(l, l.indent);
    else return BAIL;
    l.skipBlank();
    return l.eof ? value : BAIL;
  } catch (e) {
    if (e === BAILED) return BAIL;
    throw e;
  }
}
