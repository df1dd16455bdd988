// Reading YAML snapshots (`kubectl get … -o yaml`, or hand-written multi-document files).
//
// What kubectl prints (one `kind: List` document, block style) goes through the fast reader of
// yaml-fast.ts item by item; an item it does not take (flow style, as some tools print it) goes
// through js-yaml (yaml-js.ts), and other documents through js-yaml whole. What js-yaml refuses
// goes through `yaml`'s document API, whose node ranges name the line of a problem. Line numbers
// for a value read fast are found only when a problem is reported, by reading it again with
// `yaml`. `yaml` is loaded on first use, so JSON snapshots and kubectl's YAML never pay for it.
//
// A key given twice in one mapping is refused with its path (the API server's strict decoding):
// the fast readers refuse such text, and `yaml` is asked to keep every key so the check below can
// name the path and the line.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, YAMLError } from 'yaml';

import { fileParseError, yamlParseError, type UserError } from '../errors.js';
import { duplicateFieldError, ingestValue, itemsContext, type Origin, type Progress, type Sink, type Steps } from './ingest.js';
import { isMapping, type Path } from './objects.js';
import { BAIL, parseBlockYaml } from './yaml-fast.js';
import { splitYamlList, type YamlListSplit } from './yaml-list.js';
import { loadAllFast, loadFast } from './yaml-js.js';

type YamlDoc = Document.Parsed;

let yamlModule: typeof Yaml | undefined;

function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

/** The line of `rel` below `root`, counted from the start of the text `lines` counted. */
function lineOf(lines: LineCounter, root: unknown, rel: Path): number | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  let node: unknown = root;
  let offset = rangeStart(root);
  for (const seg of rel) {
    if (isMap(node)) {
      let hit: { key: unknown; value: unknown } | undefined;
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (String(key) === String(seg)) hit = pair; // the last one wins, as in toJS
      }
      if (!hit) break;
      offset = rangeStart(hit.key) ?? offset;
      node = hit.value;
    } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
      node = node.items[seg];
      offset = rangeStart(node) ?? offset;
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

function yamlOrigin(file: string, lines: LineCounter, root: unknown, base: Path): Origin {
  return { file, base, line: (rel) => lineOf(lines, root, rel) };
}

function yamlError(file: string, e: YAMLError, firstLine = 1): UserError {
  return yamlParseError(file, e, firstLine);
}

type ListItem = YamlListSplit['items'][number];

/** Keys are compared as the JavaScript object gets them (`1` and `"1"` are one key). */
function keyString(key: unknown): string | undefined {
  const { isScalar } = yaml();
  if (!isScalar(key)) return undefined; // a collection as a key: yaml names it, rarely seen
  const v = key.value;
  return v === null || v === undefined ? '' : String(v);
}

/** Refuses a key given twice in one mapping under `node`, naming its path from `base` and its line. */
function checkUniqueKeys(node: unknown, base: Path, file: string, lines: LineCounter, firstLine: number): void {
  const { isMap, isSeq } = yaml();
  // Iterative: a deeply nested document must not overflow the stack here.
  const stack: Array<{ node: unknown; path: Path }> = [{ node, path: base }];
  while (stack.length > 0) {
    const { node: n, path } = stack.pop()!;
    if (isMap(n)) {
      const seen = new Set<string>();
      for (const pair of n.items) {
        const key = keyString(pair.key);
        if (key === undefined) continue;
        if (seen.has(key)) {
          const offset = rangeStart(pair.key);
          throw duplicateFieldError(file, offset === undefined ? undefined : lines.linePos(offset).line + firstLine - 1, [...path, key]);
        }
        seen.add(key);
        stack.push({ node: pair.value, path: [...path, key] });
      }
    } else if (isSeq(n)) {
      n.items.forEach((item, k) => {
        stack.push({ node: item, path: [...path, k] });
      });
    }
  }
}

/** `yaml`'s options: every key kept (checkUniqueKeys names duplicates), lines counted. */
function parseOptions(lines: LineCounter) {
  return { lineCounter: lines, uniqueKeys: false } as const;
}

/** One item of a split list (`- …` lines) read with `yaml`: its value, and its node for lines. */
function readItemSlowly(text: string, item: ListItem, file: string, k: number): { value: unknown; lines: LineCounter; node: unknown } {
  const { LineCounter, parseDocument, isSeq } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text.slice(item.start, item.end), parseOptions(lines));
  if (doc.errors.length > 0) throw yamlError(file, doc.errors[0], item.line);
  const seq = doc.contents;
  const node = isSeq(seq) ? seq.items[0] : seq;
  checkUniqueKeys(node, ['items', k], file, lines, item.line);
  return { value: toJS(node, doc, file, lines, item.line), lines, node };
}

/** One item of a split list: the block reader, else js-yaml, else `yaml`. */
function readItem(text: string, item: ListItem, file: string, k: number): unknown {
  const fast = parseBlockYaml(text, item.start, item.end);
  if (fast !== BAIL && Array.isArray(fast) && fast.length === 1) return fast[0];
  const loaded = loadFast(text.slice(item.start, item.end));
  if (loaded !== BAIL && Array.isArray(loaded) && loaded.length === 1) return loaded[0];
  return readItemSlowly(text, item, file, k).value;
}

/** Names lines of a fast-read item by reading it again with `yaml`, only when asked. */
function itemOrigin(text: string, item: ListItem, file: string, k: number): Origin {
  return {
    file,
    base: ['items', k],
    line(rel) {
      const { lines, node } = readItemSlowly(text, item, file, k);
      const line = lineOf(lines, node, rel);
      return line === undefined ? undefined : line + item.line - 1;
    },
  };
}

/**
 * kubectl's list document through the fast reader, item by item; false (nothing ingested) when
 * the text is not such a list, so the caller reads it with `yaml` instead.
 */
function* ingestKubectlList(text: string, file: string, sink: Sink, progress?: Progress): Generator<void, boolean, void> {
  const split = splitYamlList(text);
  if (split === undefined) return false;
  if (split.header.trim() === '') return false;
  let header = parseBlockYaml(split.header);
  if (header === BAIL) header = loadFast(split.header); // e.g. `metadata: {resourceVersion: ""}`
  if (header === BAIL || !isMapping(header)) return false;
  const { kind, apiVersion } = header;
  if (typeof kind !== 'string' || !kind.endsWith('List') || !(apiVersion == null || typeof apiVersion === 'string')) return false;
  const context = itemsContext(kind, typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined);
  for (let k = 0; k < split.items.length; k++) {
    const item = split.items[k];
    ingestValue(sink, readItem(text, item, file, k), itemOrigin(text, item, file, k), [], context);
    if (progress?.due(item.start)) yield;
  }
  return true;
}

function toJS(node: unknown, doc: YamlDoc, file: string, lines: LineCounter, firstLine = 1): unknown {
  if (node === null || node === undefined) return null;
  try {
    return (node as { toJS(doc: YamlDoc): unknown }).toJS(doc);
  } catch (e) {
    // e.g. an alias to an anchor defined nowhere
    const offset = rangeStart(node);
    const line = offset === undefined ? undefined : lines.linePos(offset).line + firstLine - 1;
    throw fileParseError(file, `invalid YAML: ${e instanceof Error ? e.message : String(e)}`, { line });
  }
}

/** Every document of `text` read with `yaml` (once, when first asked), checked. */
function slowDocuments(text: string, file: string): { docs: YamlDoc[]; lines: LineCounter } {
  const { isScalar, LineCounter, parseAllDocuments } = yaml();
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, parseOptions(lines));
  if ('empty' in parsed && parsed.errors.length > 0) throw yamlError(file, parsed.errors[0]);
  const docs = parsed as YamlDoc[];
  for (const doc of docs) if (doc.errors.length > 0) throw yamlError(file, doc.errors[0]);
  for (const doc of docs) {
    const root = doc.contents;
    if (root !== null && !(isScalar(root) && root.value === null)) checkUniqueKeys(root, [], file, lines, 1);
  }
  return { docs, lines };
}

/**
 * The documents js-yaml read, ingested whole; a line is named by reading the text again with
 * `yaml` (only when a problem is reported).
 */
function* ingestFastDocuments(values: unknown[], text: string, file: string, sink: Sink): Steps {
  let slow: { docs: YamlDoc[]; lines: LineCounter } | undefined;
  let d = 0; // index among the non-empty documents, which `yaml` numbers the same way
  for (const value of values) {
    if (value === null || value === undefined) continue;
    const index = d++;
    const origin: Origin = {
      file,
      base: [],
      line(rel) {
        slow ??= slowDocuments(text, file);
        const { isScalar } = yaml();
        const nonEmpty = slow.docs.filter((doc) => doc.contents !== null && !(isScalar(doc.contents) && doc.contents.value === null));
        const doc = nonEmpty[index];
        return doc === undefined ? undefined : lineOf(slow.lines, doc.contents, rel);
      },
    };
    ingestValue(sink, value, origin, [], undefined);
  }
}

/** Reads the YAML documents of `text` into `sink`; empty documents are ignored. */
export function* ingestYaml(text: string, file: string, sink: Sink, progress?: Progress): Steps {
  if (yield* ingestKubectlList(text, file, sink, progress)) return;
  const fast = loadAllFast(text);
  if (fast !== BAIL) {
    yield* ingestFastDocuments(fast, text, file, sink);
    return;
  }
  const { isMap, isScalar, isSeq } = yaml();
  const { docs, lines } = slowDocuments(text, file);
  for (const doc of docs) {
    const root = doc.contents;
    if (root === null || (isScalar(root) && root.value === null)) continue;
    if (isMap(root)) {
      // A list: convert and check one item at a time, naming lines from the item's own node.
      const kind: unknown = root.get('kind');
      const apiVersion: unknown = root.get('apiVersion');
      const items = root.get('items', true);
      if (typeof kind === 'string' && kind.endsWith('List') && isSeq(items) && (apiVersion == null || typeof apiVersion === 'string')) {
        const context = itemsContext(kind, typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined);
        for (let k = 0; k < items.items.length; k++) {
          const node = items.items[k];
          ingestValue(sink, toJS(node, doc, file, lines), yamlOrigin(file, lines, node, ['items', k]), [], context);
          if (progress?.due(rangeStart(node) ?? 0)) yield;
        }
        continue;
      }
    }
    ingestValue(sink, toJS(root, doc, file, lines), yamlOrigin(file, lines, root, []), [], undefined);
  }
}
