// A saved plan (`diff -o json|yaml > plan.json`, then `reconcile --plan plan.json`): read within
// the input limit, parsed as JSON or YAML, and checked against the ReconcilePlan contract
// (../shared/plan-format.md) before anything is compared or written. Only the fields a saved plan
// is applied by are checked strictly; additions (warnings, messages) are carried along.

import { controllerKindsText, isControllerKind } from '../core/controller.js';
import { isObj } from '../core/guards.js';
import { stat } from 'node:fs/promises';
import { whatIfFlags } from '../core/plan.js';
import { PLAN_API_VERSION, type Plan, type WhatIf } from '../core/plan-types.js';
import { fileParseError, fileReadError, UserError } from '../errors.js';
import { DEFAULT_MAX_INPUT_BYTES, readFileLimited, readStreamLimited } from './read-input.js';
import { readYamlDocuments } from './yaml-read.js';

export interface PlanFileOptions {
  stdin?: NodeJS.ReadableStream;
  maxInputBytes?: number;
}

/** Reads and checks a saved ReconcilePlan from a file, or stdin for "-". */
export async function readSavedPlan(path: string, opts: PlanFileOptions = {}): Promise<Plan> {
  const limit = opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const label = path === '-' ? '<stdin>' : path;
  let bytes: Buffer;
  try {
    if (path === '-') {
      if (!opts.stdin) throw new UserError('--plan -: no standard input to read the plan from');
      bytes = await readStreamLimited(opts.stdin, label, limit);
    } else {
      const st = await stat(path);
      if (st.isDirectory()) throw fileReadError(path, 'is a directory, expected a plan written by "diff -o json" or "diff -o yaml"');
      bytes = await readFileLimited(path, label, st.isFile() ? st.size : 0, limit);
    }
  } catch (e) {
    throw fileReadError(label, e);
  }
  return parseSavedPlan(bytes.toString('utf8'), label);
}

/** Parses and checks the text of a saved plan. */
export function parseSavedPlan(text: string, label: string): Plan {
  const trimmed = text.trimStart();
  if (trimmed === '') throw fileParseError(label, 'empty, expected a plan written by "diff -o json" or "diff -o yaml"');
  let doc: unknown;
  if (trimmed.startsWith('{')) {
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw fileParseError(label, `invalid JSON: ${(e as Error).message}`);
    }
  } else {
    const values = readYamlDocuments(text, label).filter((v) => v !== null && v !== undefined);
    if (values.length !== 1) throw fileParseError(label, `expected one ReconcilePlan document, found ${values.length}`);
    doc = values[0];
  }
  checkPlan(doc, label);
  return doc;
}

type Json = Record<string, unknown>;

/** Throws a one-line UserError naming the first field that breaks the contract. */
function checkPlan(doc: unknown, label: string): asserts doc is Plan {
  const fail = (path: string, want: string): never => {
    throw fileParseError(label, `not a saved ReconcilePlan: ${path} must be ${want}`);
  };
  if (!isObj(doc)) fail('the document', 'an object (write one with "diff -o json")');
  const d = doc as Json;
  if (d.kind !== 'ReconcilePlan') fail('kind', '"ReconcilePlan"');
  if (d.apiVersion !== PLAN_API_VERSION) fail('apiVersion', JSON.stringify(PLAN_API_VERSION));
  if (d.whatIf !== null && d.whatIf !== undefined) refuseWhatIf(d.whatIf, label);
  if (typeof d.kubernetesVersion !== 'string') fail('kubernetesVersion', 'a string');
  if (typeof d.now !== 'string') fail('now', 'a string');
  if (!Array.isArray(d.controllers)) fail('controllers', 'a list');
  (d.controllers as unknown[]).forEach((c, i) => {
    const at = `controllers[${i}]`;
    if (!isObj(c)) fail(at, 'an object');
    const e = c as Json;
    if (!isControllerKind(e.kind)) fail(`${at}.kind`, controllerKindsText('or'));
    for (const f of ['namespace', 'name', 'uid']) if (typeof e[f] !== 'string' || e[f] === '') fail(`${at}.${f}`, 'a non-empty string');
    if (typeof e.inSync !== 'boolean') fail(`${at}.inSync`, 'true or false');
    if (typeof e.statusChanged !== 'boolean') fail(`${at}.statusChanged`, 'true or false');
    if (!Array.isArray(e.pods)) fail(`${at}.pods`, 'a list');
    (e.pods as unknown[]).forEach((p, j) => {
      if (!isObj(p) || typeof p.name !== 'string' || typeof p.uid !== 'string') fail(`${at}.pods[${j}]`, 'an object with name and uid');
      const decision = (p as Json).decision;
      if (decision !== 'keep' && decision !== 'adopt' && decision !== 'release' && decision !== 'ignore')
        fail(`${at}.pods[${j}].decision`, 'keep, adopt, release or ignore');
    });
    if (!isObj(e.create) || !Number.isInteger(e.create.count) || (e.create.count as number) < 0) fail(`${at}.create.count`, 'a whole number ≥ 0');
    if (!Array.isArray(e.delete)) fail(`${at}.delete`, 'a list');
    (e.delete as unknown[]).forEach((p, j) => {
      if (!isObj(p) || typeof p.name !== 'string' || typeof p.uid !== 'string') fail(`${at}.delete[${j}]`, 'an object with name and uid');
    });
    if (!isObj(e.status)) fail(`${at}.status`, 'an object');
    for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
      if (!Number.isInteger((e.status as Json)[f])) fail(`${at}.status.${f}`, 'a whole number');
    }
    if (e.skip !== null && e.skip !== undefined && !isObj(e.skip)) fail(`${at}.skip`, 'null or an object');
  });
}

/**
 * A plan computed "as if" (--replicas, --now on a cluster) describes a state nobody asked the
 * cluster for: applying it would scale or act behind the objects' back. It is refused as what it
 * is, before any comparison with fresh state could call it merely stale.
 */
function refuseWhatIf(whatIf: unknown, label: string): never {
  const flags = isObj(whatIf) ? whatIfFlags(whatIf as WhatIf) : '';
  throw new UserError(
    `${label}: this plan is a what-if${flags ? ` (${flags})` : ''}: it cannot be applied; plan again without ${flags ? 'those flags' : 'what-if flags'} ("diff -o json") to get a plan to apply`,
  );
}
