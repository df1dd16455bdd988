// `-o yaml`: JSON documents (the plan) written in block style by js-yaml's dump, configured so
// the text reads back as the same value in YAML 1.2 (js-yaml, Go's sigs.k8s.io/yaml) and in
// YAML 1.1 readers (PyYAML): a string is written plain only when it is unambiguous (plainSafe);
// anything that could resolve to a number, a boolean, null or a timestamp, or that holds a
// character with a meaning in YAML, is double-quoted. Long strings are never folded, no anchors
// or aliases are written, and the value written is JSON's view of it (toJSON honoured, undefined
// members left out, undefined array items as null, non-finite numbers as null).

import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';

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

/** JSON's view of a value: `toJSON()` applied, as JSON.stringify does. */
function jsonView(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

let options: JsYaml.DumpOptions | undefined;
let dumpFn: typeof JsYaml.dump | undefined;

/**
 * js-yaml's dump with one implicit type standing for every scalar that is not a string (null,
 * booleans, numbers, written as JSON writes them) and "resolving" every string that is not
 * plainSafe: dump quotes a string whenever some implicit type could read it back as another
 * value, so exactly those are double-quoted. Loaded on first use.
 */
function dumper(): { dump: typeof JsYaml.dump; options: JsYaml.DumpOptions } {
  if (dumpFn && options) return { dump: dumpFn, options };
  const jsyaml = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
  const scalar = new jsyaml.Type('tag:yaml.org,2002:json-scalar', {
    kind: 'scalar',
    resolve: (s: string) => !plainSafe(s),
    predicate: (v: unknown) => v === null || typeof v === 'number' || typeof v === 'boolean',
    // typed `object` by @types/js-yaml; called with what `predicate` accepted
    represent: (v: unknown) => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'null') : String(v)), // as JSON.stringify
  });
  dumpFn = jsyaml.dump;
  options = {
    schema: jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [scalar] }),
    lineWidth: -1,
    noRefs: true,
    quotingType: '"',
    skipInvalid: true,
    replacer: jsonView,
  };
  return { dump: dumpFn, options };
}

/**
 * `value` as a YAML block document ending in a newline: the same value JSON.stringify writes.
 * Sequences under a key are indented by two.
 */
export function toYaml(value: unknown): string {
  const { dump, options } = dumper();
  return dump(value, options) || 'null\n';
}

/** The lines of `- item` under a key, as toYaml writes them inside a mapping (indented by two). */
function sequenceEntry(item: unknown): string {
  const text = toYaml({ k: [item] });
  return text.slice(text.indexOf('\n') + 1);
}

/**
 * toYaml in pieces: the top-level members one by one, and the items of a top-level list one by
 * one, so a document too large for one string can be written out. The pieces join to toYaml.
 */
export function* yamlChunks(value: unknown): Generator<string> {
  const v = jsonView('', value);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    yield toYaml(v);
    return;
  }
  let written = false;
  for (const key of Object.keys(v)) {
    const member = jsonView(key, (v as Record<string, unknown>)[key]);
    if ((isListStream(member) || Array.isArray(member)) && member.length > 0) {
      // the key's line, then its items one by one: never all in one string
      written = true;
      yield toYaml({ [key]: null }).slice(0, -' null\n'.length) + '\n';
      for (const item of member as Iterable<unknown>) yield sequenceEntry(item);
      continue;
    }
    const text = toYaml({ [key]: isListStream(member) ? [] : member });
    if (text === '{}\n') continue; // a member JSON leaves out
    written = true;
    yield text;
  }
  if (!written) yield '{}\n';
}
