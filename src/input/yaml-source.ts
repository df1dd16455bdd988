// Reading YAML snapshots (`kubectl get … -o yaml`, or hand-written multi-document files): every
// document read by yaml-read.ts, then each object (each item of a `kind: List`) ingested on its
// own. Lines are named only when a problem is reported (YamlLineIndex reads the text again).

import { ingestValue, itemsContext, type Origin, type Progress, type Sink, type Steps } from './ingest.js';
import { isMapping, type Path } from './objects.js';
import { readYamlDocuments, YamlLineIndex } from './yaml-read.js';

function origin(file: string, lines: YamlLineIndex, doc: number, base: Path): Origin {
  return { file, base, line: (rel) => lines.line(doc, [...base, ...rel]) };
}

/** Reads the YAML documents of `text` into `sink`; empty documents are ignored. */
export function* ingestYaml(text: string, file: string, sink: Sink, progress?: Progress): Steps {
  const docs = readYamlDocuments(text, file);
  const lines = new YamlLineIndex(text);
  for (let d = 0; d < docs.length; d++) {
    const root = docs[d];
    if (root === null || root === undefined) continue;
    if (isMapping(root)) {
      const { kind, apiVersion, items } = root;
      if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(items) && (apiVersion == null || typeof apiVersion === 'string')) {
        // A list: one item at a time, each named `items[k]` in messages.
        const context = itemsContext(kind, typeof apiVersion === 'string' && apiVersion !== '' ? apiVersion : undefined);
        for (let k = 0; k < items.length; k++) {
          ingestValue(sink, items[k], origin(file, lines, d, ['items', k]), [], context);
          // the text is read; progress goes through its items (an estimate of the offset)
          if (progress?.due(Math.floor((text.length * (k + 1)) / items.length))) yield;
        }
        continue;
      }
    }
    ingestValue(sink, root, origin(file, lines, d, []), [], undefined);
  }
}
