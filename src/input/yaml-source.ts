// Reading YAML snapshots (`kubectl get … -o yaml`, or hand-written multi-document files).
//
// What kubectl prints (one `kind: List` document, block style) goes through the fast reader of
// yaml-fast.ts item by item; anything it does not take, and every other document, goes through
// `yaml`'s document API, whose node ranges name the line of a problem. Line numbers for a fast
// item are found only when a problem is reported, by reading that item again with `yaml`.
// `yaml` is loaded on first use, so JSON snapshots and kubectl's YAML never pay for it.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, YAMLError } from 'yaml';

import { UserError } from '../errors.js';
import { ingestValue, itemsContext, type Origin, type Progress, type Sink, type Steps } from './ingest.js';
import { isMapping, type Path } from './objects.js';
import { BAIL, parseBlockYaml, splitYamlList, type YamlListSplit } from './yaml-fast.js';

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
  const reason = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?\s*$/, '');
  const pos = e.linePos?.[0];
  return new UserError(`${file}${pos ? `:${pos.line + firstLine - 1}:${pos.col}` : ''}: invalid YAML: ${reason}`);
}

type ListItem = YamlListSplit['items'][number];

/** One item of a split list (`- …` lines) read with `yaml`: its value, and its node for lines. */
function readItemSlowly(text: string, item: ListItem, file: string): { value: unknown; lines: LineCounter; node: unknown } {
  const { LineCounter, parseDocument, isSeq } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text.slice(item.start, item.end), { lineCounter: lines });
  if (doc.errors.length > 0) throw yamlError(file, doc.errors[0], item.line);
  const seq = doc.contents;
  const node = isSeq(seq) ? seq.items[0] : seq;
  return { value: toJS(node, doc, file, lines, item.line), lines, node };
}

/** Names lines of a fast-read item by reading it again with `yaml`, only when asked. */
function itemOrigin(text: string, item: ListItem, file: string, k: number): Origin {
  return {
    file,
    base: ['items', k],
    line(rel) {
      const { lines, node } = readItemSlowly(text, item, file);
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
  const header = split.header.trim() === '' ? BAIL : parseBlockYaml(split.header);
  if (header === BAIL || !isMapping(header)) return false;
  const { kind, apiVersion } = header;
  if (typeof kind !== 'string' || !kind.endsWith('List') || !(apiVersion == null || typeof apiVersion === 'string')) return false;
  const context = itemsContext(kind, typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined);
  for (let k = 0; k < split.items.length; k++) {
    const item = split.items[k];
    const fast = parseBlockYaml(text, item.start, item.end);
    const value = fast !== BAIL && Array.isArray(fast) && fast.length === 1 ? fast[0] : readItemSlowly(text, item, file).value;
    ingestValue(sink, value, itemOrigin(text, item, file, k), [], context);
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
    const line = offset === undefined ? '' : `:${lines.linePos(offset).line + firstLine - 1}`;
    throw new UserError(`${file}${line}: invalid YAML: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }
}

/** Reads the YAML documents of `text` into `sink`; empty documents are ignored. */
export function* ingestYaml(text: string, file: string, sink: Sink, progress?: Progress): Steps {
  if (yield* ingestKubectlList(text, file, sink, progress)) return;
  const { isMap, isScalar, isSeq, LineCounter, parseAllDocuments } = yaml();
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines });
  if ('empty' in docs && docs.errors.length > 0) throw yamlError(file, docs.errors[0]);
  for (const doc of docs) if (doc.errors.length > 0) throw yamlError(file, doc.errors[0]);
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
