// js-yaml as a fast reader for the YAML that yaml-fast.ts does not take (flow collections,
// `- {apiVersion: v1, kind: Pod, …}` as some tools print, anchors, comments…), with `yaml` still
// the authority for anything js-yaml refuses and for naming lines in messages.
//
// js-yaml reads flow-style snapshots about 15 times faster than `yaml` (bench/input.mjs). It is
// given a schema that resolves plain scalars exactly as yaml-fast.ts does, i.e. as `yaml` does
// with its YAML 1.2 core schema (js-yaml's own core schema differs: `1_000`, `+.5`…), and no
// explicit tags but `!!str`, `!!seq` and `!!map`, so anything else (`!!int "1"`, custom tags) is
// refused here and read by `yaml`. js-yaml refuses duplicate keys itself; `yaml` then names them.
// Text with aliases is left to `yaml`, which limits how far they expand.
//
// Loaded on first use, like `yaml`: JSON snapshots and kubectl's block YAML never pay for it.

import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';

import { BAIL, resolvePlain } from './yaml-fast.js';

let loaded: { jsyaml: typeof JsYaml; schema: JsYaml.Schema } | undefined;

function jsYaml(): { jsyaml: typeof JsYaml; schema: JsYaml.Schema } {
  if (loaded) return loaded;
  const jsyaml = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
  // One implicit type for every plain scalar that is not a string in the YAML 1.2 core schema
  // (null, booleans, integers, floats): its tag is never seen, only the value it makes.
  const core = new jsyaml.Type('tag:rs-reconcile,2026:core-plain', {
    kind: 'scalar',
    resolve: (s: string) => typeof s === 'string' && resolvePlain(s) !== s,
    construct: (s: string) => resolvePlain(s),
  });
  loaded = { jsyaml, schema: jsyaml.FAILSAFE_SCHEMA.extend({ implicit: [core] }) };
  return loaded;
}

/**
 * An alias (`*name`) where a node may start. Strings holding such text (`"a *b"`) match too: they
 * are then only read by `yaml`, which is slower, not wrong.
 */
const ALIAS = /(?:^|[\s[{,:?-])\*[^\s,[\]{}]/;

/** The documents of `text` (empty ones as null), or BAIL when js-yaml refuses it or it has aliases. */
export function loadAllFast(text: string): unknown[] | typeof BAIL {
  if (text.includes('*') && ALIAS.test(text)) return BAIL;
  const { jsyaml, schema } = jsYaml();
  try {
    return jsyaml.loadAll(text, null, { schema });
  } catch {
    return BAIL;
  }
}

/** The one document of `text`, or BAIL (see loadAllFast). */
export function loadFast(text: string): unknown {
  const docs = loadAllFast(text);
  return docs === BAIL || docs.length !== 1 ? BAIL : docs[0];
}
