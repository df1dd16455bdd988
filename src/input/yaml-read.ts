// The one YAML reader: js-yaml, for snapshots, plans, Events, kubeconfigs and seeds.
//
// What must stay true of every text it reads:
// - Plain scalars resolve by the YAML 1.2 core schema (`1.35` a number, `yes` a string, `0o17`
//   octal, `017` decimal), through one implicit type: js-yaml's own core schema is wider
//   (`1_000`, `0b1`, `+.5`). No explicit tag but `!!str`, `!!seq` and `!!map` is taken.
// - A key given twice in one mapping is refused, naming its path and line (the API server's
//   strict decoding).
// - Aliases are bounded: js-yaml shares an anchored value instead of copying it, and the value
//   is refused when walking it would visit more nodes than the text has characters (an alias-free
//   text never does), so "billion laughs" fails fast.
// - A syntax error is one line naming the problem, its line and column. Lines of a value read
//   here are found only when a problem is to be reported, by reading the text again with a
//   listener that records where each node opens (yamlLineIndex).
//
// Loaded on first use (createRequire), so that JSON input never pays for it.

import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';

import { fileParseError, yamlParseError, type YamlSyntaxError } from '../errors.js';
import { duplicateFieldError } from './ingest.js';
import type { Path } from './objects.js';

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar, resolved by the YAML 1.2 core schema. */
function resolvePlain(v: string): unknown {
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

let loaded: { jsyaml: typeof JsYaml; schema: JsYaml.Schema } | undefined;

function jsYaml(): { jsyaml: typeof JsYaml; schema: JsYaml.Schema } {
  if (loaded) return loaded;
  const jsyaml = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
  // One implicit type for every plain scalar that is not a string in the core schema (null,
  // booleans, integers, floats): its tag is never seen, only the value it makes.
  const core = new jsyaml.Type('tag:yaml.org,2002:core-plain', {
    kind: 'scalar',
    resolve: (s: string) => typeof s === 'string' && resolvePlain(s) !== s,
    construct: (s: string) => resolvePlain(s),
  });
  loaded = { jsyaml, schema: jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [core] }) };
  return loaded;
}

/**
 * Where a node opens (1-based line), what it made, and its children in order (a mapping: key,
 * value, key, value…). js-yaml also opens a node where a collection might go on and does not
 * (at its end): such a last child is past the collection's entries, and never looked at.
 */
interface LineNode {
  line: number;
  result?: unknown;
  children: LineNode[];
}

/** One tree of LineNodes per document of `text` (duplicate keys kept, the last one wins). */
function lineTrees(text: string): LineNode[] {
  const { jsyaml, schema } = jsYaml();
  const roots: LineNode[] = [];
  const stack: LineNode[] = [];
  const listener = (event: 'open' | 'close', state: { line: number; result: unknown }) => {
    if (event === 'open') {
      stack.push({ line: state.line + 1, children: [] });
      return;
    }
    let node = stack.pop();
    if (!node) return;
    node.result = state.result;
    // a sequence's entry opens once for the entry and once for its content: one node of the two
    if (node.children.length === 1 && node.children[0].result === node.result) node = node.children[0];
    (stack.length > 0 ? stack[stack.length - 1].children : roots).push(node);
  };
  try {
    jsyaml.loadAll(text, undefined, { schema, json: true, listener } as JsYaml.LoadOptions);
  } catch {
    // the lines of what was read before the problem are still known
  }
  return roots;
}

function isMappingNode(node: LineNode): boolean {
  return node.result !== null && typeof node.result === 'object' && !Array.isArray(node.result);
}

/** The number of whole key/value pairs among a mapping node's children. */
function pairs(node: LineNode): number {
  return Math.floor(node.children.length / 2);
}

/** The line of `rel` below `root`: the key of the deepest member that exists. */
function lineBelow(root: LineNode, rel: Path): number {
  let node = root;
  let line = root.line;
  for (const seg of rel) {
    if (Array.isArray(node.result) && typeof seg === 'number' && seg < node.result.length && seg < node.children.length) {
      node = node.children[seg];
      line = node.line;
    } else if (isMappingNode(node)) {
      let hit: number | undefined;
      for (let i = 0; i < 2 * pairs(node); i += 2) {
        if (String(node.children[i].result) === String(seg)) hit = i; // the last one wins
      }
      if (hit === undefined) break;
      line = node.children[hit].line;
      node = node.children[hit + 1];
    } else {
      break;
    }
  }
  return line;
}

/** The first key given twice in one mapping below `root`: its path and line. */
function duplicateKey(root: LineNode): { path: Path; line: number } | undefined {
  // Iterative: a deeply nested document must not overflow the stack here.
  const stack: Array<{ node: LineNode; path: Path }> = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (Array.isArray(node.result)) {
      const length = Math.min(node.result.length, node.children.length);
      for (let k = 0; k < length; k++) stack.push({ node: node.children[k], path: [...path, k] });
    } else if (isMappingNode(node)) {
      const seen = new Set<string>();
      for (let i = 0; i < 2 * pairs(node); i += 2) {
        const key = String(node.children[i].result ?? '');
        if (seen.has(key)) return { path: [...path, key], line: node.children[i].line };
        seen.add(key);
        stack.push({ node: node.children[i + 1], path: [...path, key] });
      }
    }
  }
  return undefined;
}

/** The lines of the documents of one text, read again only when first asked. */
export class YamlLineIndex {
  private trees: LineNode[] | undefined;

  constructor(private readonly text: string) {}

  /** 1-based line of `rel` below document `doc` (counted from 0 among all documents, empty ones too). */
  line(doc: number, rel: Path): number | undefined {
    this.trees ??= lineTrees(this.text);
    const root = this.trees[doc];
    return root === undefined ? undefined : lineBelow(root, rel);
  }
}

/** True when walking `value` visits more than `limit` nodes (each shared value once per reference). */
function expandsBeyond(value: unknown, limit: number): boolean {
  let visits = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++visits > limit) return true;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (v !== null && typeof v === 'object') for (const key in v) stack.push((v as Record<string, unknown>)[key]);
  }
  return false;
}

/** An alias (`*name`) where a node may start; strings holding such text (`"a *b"`) only cost a walk. */
const ALIAS = /(?:^|[\s[{,:?-])\*[^\s,[\]{}]/;

/**
 * Every document of `text` (an empty one as null or undefined), by the rules above; `file` names
 * the text in messages. Problems are one-line UserErrors.
 */
export function readYamlDocuments(text: string, file: string): unknown[] {
  const { jsyaml, schema } = jsYaml();
  let docs: unknown[];
  try {
    docs = jsyaml.loadAll(text, undefined, { schema });
  } catch (e) {
    if ((e as YamlSyntaxError).reason?.startsWith('duplicated mapping key')) {
      for (const tree of lineTrees(text)) {
        const dup = duplicateKey(tree);
        if (dup) throw duplicateFieldError(file, dup.line, dup.path);
      }
    }
    throw yamlParseError(file, e as YamlSyntaxError);
  }
  if (text.includes('*') && ALIAS.test(text) && expandsBeyond(docs, text.length + 1)) {
    throw fileParseError(file, 'invalid YAML: aliases expand to more nodes than the text holds (an alias bomb?)');
  }
  return docs;
}
