// Machine views of a plan (`-o json`, `-o yaml`, `-o name`): the document of
// ../shared/plan-format.md, printed as is.

import type { Plan } from '../core/plan-types.js';
import { isListStream } from './list-stream.js';
import { resourceName } from './text.js';
import { toYaml, yamlChunks } from './yaml-emit.js';

/** `-o json`: the plan document, two-space indented, with a final newline. */
export function renderPlanJson(plan: Plan): string {
  return JSON.stringify(plan, null, 2) + '\n';
}

/**
 * `-o json` in pieces, one per controller: exactly the text of renderPlanJson, for plans whose
 * text is beyond what one string may hold (V8 stops at 512 MiB; 150k pods can need more).
 */
export function* planJsonChunks(plan: object): Generator<string> {
  if (plan === null || typeof plan !== 'object' || Array.isArray(plan) || typeof (plan as { toJSON?: unknown }).toJSON === 'function') {
    yield JSON.stringify(plan, null, 2) + '\n';
    return;
  }
  let first = true;
  yield '{';
  for (const [key, value] of Object.entries(plan)) {
    const head = `${first ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if ((Array.isArray(value) || isListStream(value)) && value.length > 0) {
      first = false;
      yield head + '[';
      let i = 0;
      // a list kept as this view writes it is copied, not parsed and written again
      const texts = isListStream(value) ? value.jsonAtDepth2?.() : undefined;
      if (texts) for (const t of texts) yield `${i++ === 0 ? '' : ','}\n    ${t}`;
      else for (const item of value as Iterable<unknown>) yield `${i++ === 0 ? '' : ','}\n    ${nested(item, 2)}`;
      yield '\n  ]';
      continue;
    }
    if (isListStream(value)) {
      first = false;
      yield head + '[]';
      continue;
    }
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue; // left out, as JSON does
    first = false;
    yield head + nested(value, 1);
  }
  yield first ? '}\n' : '\n}\n';
}

/**
 * `value` as JSON.stringify(…, null, 2) writes it `depth` levels down: stringified inside as
 * many one-element arrays, which indents it (much faster than re-indenting the text), then cut
 * out of them.
 */
function nested(value: unknown, depth: 1 | 2): string {
  if (depth === 1) return JSON.stringify([value], null, 2).slice(4, -2);
  return JSON.stringify([[value]], null, 2).slice(10, -6);
}

/**
 * `-o yaml`: the same document as YAML, in block style. Long messages are never folded, no
 * anchors or aliases are written, and every string that a YAML 1.1 or 1.2 reader could take
 * for something else (versions like 1.35, timestamps, yes/no, uids starting with a digit) is
 * quoted, so any reader gets exactly the JSON document back. Written by `toYaml` rather than
 * the `yaml` package, which takes seconds on a plan of 150k pods.
 */
export function renderPlanYaml(plan: Plan): string {
  return toYaml(plan);
}

/** `-o yaml` in pieces, one per controller: exactly the text of renderPlanYaml. */
export function planYamlChunks(plan: object): Generator<string> {
  return yamlChunks(plan);
}

/**
 * `-o name`: `replicaset.apps/web` / `replicationcontroller/db`, one line per controller that is
 * not in sync (those `reconcile` would act on, and those skipped for an invalid selector, which
 * nothing acts on until it is fixed), in plan order. Empty when all are in sync.
 */
export function renderNames(plan: Plan): string {
  let out = '';
  for (const c of plan.controllers) {
    if (!c.inSync) out += `${resourceName(c.kind)}/${c.name}\n`;
  }
  // then the Deployments whose next sync writes something, as kubectl names them
  for (const d of plan.deployments ?? []) {
    if (!d.inSync) out += `deployment.apps/${d.name}\n`;
  }
  return out;
}
