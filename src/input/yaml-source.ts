// Reading YAML snapshots (`kubectl get … -o yaml`, or hand-written multi-document files) with
// `yaml`'s document API: list items are converted one at a time, and node ranges name the line
// of a problem. `yaml` is loaded on first use, so JSON snapshots (the big ones) never pay for it.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, YAMLError } from 'yaml';

import { UserError } from '../errors.js';
import { ingestValue, itemsContext, type Origin, type Progress, type Sink, type Steps } from './ingest.js';
import type { Path } from './objects.js';

type YamlDoc = Document.Parsed;

let yamlModule: typeof Yaml | undefined;

function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

function yamlOrigin(file: string, lines: LineCounter, root: unknown, base: Path): Origin {
  const { isMap, isScalar, isSeq } = yaml();
  return {
    file,
    base,
    line(rel) {
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
    },
  };
}

function yamlError(file: string, e: YAMLError): UserError {
  const reason = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?\s*$/, '');
  const pos = e.linePos?.[0];
  return new UserError(`${file}${pos ? `:${pos.line}:${pos.col}` : ''}: invalid YAML: ${reason}`);
}

function toJS(node: unknown, doc: YamlDoc, file: string, lines: LineCounter): unknown {
  if (node === null || node === undefined) return null;
  try {
    return (node as { toJS(doc: YamlDoc): unknown }).toJS(doc);
  } catch (e) {
    // e.g. an alias to an anchor defined nowhere
    const offset = rangeStart(node);
    const line = offset === undefined ? '' : `:${lines.linePos(offset).line}`;
    throw new UserError(`${file}${line}: invalid YAML: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }
}

/** Reads the YAML documents of `text` into `sink`; empty documents are ignored. */
export function* ingestYaml(text: string, file: string, sink: Sink, progress?: Progress): Steps {
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
