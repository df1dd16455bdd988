// Machine views of a plan (`-o json`, `-o yaml`, `-o name`): the document of
// ../shared/plan-format.md, printed as is.

import type { Plan } from '../core/plan-types.js';
import { resourceName } from './text.js';
import { toYaml } from './yaml-emit.js';

/** `-o json`: the plan document, two-space indented, with a final newline. */
export function renderPlanJson(plan: Plan): string {
  return JSON.stringify(plan, null, 2) + '\n';
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

/**
 * `-o name`: `replicaset.apps/web` / `replicationcontroller/db`, one line per controller that is
 * not in sync (the ones `reconcile` would act on), in plan order. Empty when all are in sync.
 */
export function renderNames(plan: Plan): string {
  let out = '';
  for (const c of plan.controllers) {
    if (!c.inSync) out += `${resourceName(c.kind)}/${c.name}\n`;
  }
  return out;
}
