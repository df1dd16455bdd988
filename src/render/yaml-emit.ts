// A block-style YAML writer for JSON documents (the plan). The `yaml` package needs about 12 s
// to stringify a plan of 150k pods (its generic node tree and toString are the cost); this
// writer does it in a fraction of a second. It only has to handle what JSON.stringify handles,
// and it quotes conservatively, so the text reads back as the same value in YAML 1.2 (the
// `yaml` package, Go's sigs.k8s.io/yaml) and in YAML 1.1 readers (PyYAML): anything that could
// resolve to a number, a boolean, null or a timestamp, or that holds a character with a
// meaning in YAML, is written as a double-quoted JSON string (a valid YAML double-quoted
// scalar). Long strings are never folded.

import { isListStream } from './list-stream.js';

/** Characters that may appear in a plain (unquoted) scalar here: a conservative set. */
const PLAIN_BODY = /^[A-Za-z0-9_ .,/=()+;'@\-\u00A1-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD:]*$/;
/** The first character of a plain scalar: no indicator, no digit or sign (numbers), no space. */
const PLAIN_FIRST = /^[A-Za-z_/(\u00A1-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]/;
/** Words YAML 1.1 or 1.2 resolve to null or a boolean. */
const RESERVED = /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;

/** Exponent-only floats (`e0`, `E5`): some YAML 1.1 readers take them for numbers. */
const LOOSE_FLOAT = /^[eE][-+]?[0-9]+$/;

function plainSafe(s: string): boolean {
  return (
    s !== '' &&
    PLAIN_FIRST.test(s) &&
    PLAIN_BODY.test(s) &&
    !s.endsWith(' ') &&
    !s.endsWith(':') &&
    !s.includes(': ') &&
    !RESERVED.test(s) &&
    !LOOSE_FLOAT.test(s)
  );
}

/** A string as a YAML scalar: plain when unambiguous, else a JSON (= YAML double-quoted) string. */
export function yamlString(s: string): string {
  if (plainSafe(s)) return s;
  // JSON escapes are YAML escapes; U+2028/U+2029 are line breaks to YAML 1.1, so escape them too.
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return yamlString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'; // as JSON.stringify
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return undefined; // object, array, or something JSON leaves out
  }
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** JSON's view of a value: `toJSON()` applied, as JSON.stringify does. */
function jsonView(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

function entries(value: object): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const key of Object.keys(value)) {
    const v = jsonView((value as Record<string, unknown>)[key]);
    if (!isOmitted(v)) out.push([key, v]);
  }
  return out;
}

/** True when `v` is an object with at least one member JSON would write. */
function hasMembers(v: object): boolean {
  for (const key of Object.keys(v)) {
    if (!isOmitted(jsonView((v as Record<string, unknown>)[key]))) return true;
  }
  return false;
}

/** A scalar or an empty collection on one line; undefined for a non-empty collection. */
function inline(v: unknown): string | undefined {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
  if (v !== null && typeof v === 'object') return hasMembers(v) ? undefined : '{}';
  return 'null';
}

/**
 * A non-empty array or object as block lines, each ending in a newline and starting with
 * `indent`, except the first, which starts with `firstPrefix` when given (the "- " of the
 * sequence item it is in: the compact form `- key: value`, `- - item`).
 */
function block(v: unknown, indent: string, firstPrefix: string | null): string {
  let out = '';
  let prefix = firstPrefix ?? indent;
  if (Array.isArray(v)) {
    for (const raw of v) {
      out += sequenceEntry(raw, indent, prefix);
      prefix = indent;
    }
    return out;
  }
  for (const [key, member] of entries(v as object)) {
    const one = inline(member);
    out += one !== undefined ? `${prefix}${yamlString(key)}: ${one}\n` : `${prefix}${yamlString(key)}:\n${block(member, indent + '  ', null)}`;
    prefix = indent;
  }
  return out;
}

/** One item of a block sequence at `indent`, its first line starting with `prefix` + "- ". */
function sequenceEntry(raw: unknown, indent: string, prefix: string): string {
  const view = jsonView(raw);
  const item = isOmitted(view) ? null : view; // as JSON writes an undefined array item
  const one = inline(item);
  return one !== undefined ? `${prefix}- ${one}\n` : block(item, indent + '  ', `${prefix}- `);
}

/**
 * `value` as a YAML block document ending in a newline: the same value JSON.stringify writes
 * (undefined members left out, undefined array items as null, toJSON honoured). Sequences
 * under a key are indented by two, like the `yaml` package writes them.
 */
export function toYaml(value: unknown): string {
  const v = jsonView(value);
  const one = inline(v);
  if (one !== undefined) return one + '\n';
  return block(v, '', null);
}

/**
 * toYaml in pieces: the top-level members one by one, and the items of a top-level list one by
 * one, so a document too large for one string can be written out. The pieces join to toYaml.
 */
export function* yamlChunks(value: unknown): Generator<string> {
  const v = jsonView(value);
  const one = inline(v);
  if (one !== undefined) {
    yield one + '\n';
    return;
  }
  if (Array.isArray(v)) {
    yield block(v, '', null);
    return;
  }
  for (const [key, member] of entries(v as object)) {
    if (isListStream(member)) {
      // written item by item: never all in memory
      if (member.length === 0) yield `${yamlString(key)}: []\n`;
      else {
        yield `${yamlString(key)}:\n`;
        for (const raw of member) yield sequenceEntry(raw, '  ', '  ');
      }
      continue;
    }
    const single = inline(member);
    if (single !== undefined || !Array.isArray(member)) {
      yield block({ [key]: member }, '', null);
      continue;
    }
    yield `${yamlString(key)}:\n`;
    for (const raw of member) yield sequenceEntry(raw, '  ', '  ');
  }
}
