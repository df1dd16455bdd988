// Conformance scenarios through the planner, with the semantics of ../../../shared/contract/check.mjs
// (which runs the CLI instead). Loads every case/*.yaml of this directory and of the shared
// contract (../shared/contract/cases when it exists, else its vendored copy in test/contract). Expectations in the cases come from the reference, not from this implementation.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../src/core/plan.js';
import type { Plan } from '../../src/core/plan-types.js';
import type { Pod, ReplicaSet, ReplicationController, Snapshot } from '../../src/core/types.js';
import { behaviourFor, defaultBehaviour } from '../../src/core/versions.js';
import { sharedOrVendored } from '../contract/shared.js';

interface Case {
  file: string;
  dir: string;
  name: string;
  source: string;
  description: string;
  now: string;
  snapshot: { kind: string; items: any[] };
  expect: { controllers: any[] };
}

const here = fileURLToPath(new URL('.', import.meta.url));
const dirs = [join(here, 'cases'), sharedOrVendored('contract/cases')];

function loadCases(dir: string): Case[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => ({ ...parse(readFileSync(join(dir, file), 'utf8')), file, dir }));
}

function toSnapshot(items: any[]): Snapshot {
  return {
    controllers: {
      ReplicaSet: items.filter((o) => o.kind === 'ReplicaSet') as ReplicaSet[],
      ReplicationController: items.filter((o) => o.kind === 'ReplicationController') as ReplicationController[],
    },
    pods: items.filter((o) => o.kind === 'Pod') as Pod[],
  };
}

// ---- check.mjs semantics, verbatim in behaviour -----------------------------------------------
const fmt = (v: unknown) => JSON.stringify(v);
const sorted = (a: string[]) => [...a].sort();
const sameSet = (a: string[], b: string[]) => fmt(sorted(a)) === fmt(sorted(b));

function compareController(exp: any, plan: Plan): string[] {
  const id = `${exp.kind} ${exp.namespace}/${exp.name}`;
  const errs: string[] = [];
  const c: any = plan.controllers.find((x) => x && x.kind === exp.kind && x.namespace === exp.namespace && x.name === exp.name);
  if (!c) return [`${id}: not in plan`];
  const pods: any[] = Array.isArray(c.pods) ? c.pods : [];
  const byDecision = (d: string) => pods.filter((p) => p && p.decision === d).map((p) => p.name);
  for (const d of ['adopt', 'release', 'keep']) {
    if (exp[d] === undefined) continue;
    const got = byDecision(d);
    if (!sameSet(exp[d], got)) errs.push(`${id}: ${d} want ${fmt(sorted(exp[d]))} got ${fmt(sorted(got))}`);
  }
  if (exp.ignore !== undefined) {
    const want = Object.keys(exp.ignore);
    const got = byDecision('ignore');
    if (!sameSet(want, got)) errs.push(`${id}: ignore want ${fmt(sorted(want))} got ${fmt(sorted(got))}`);
    for (const [name, reason] of Object.entries(exp.ignore)) {
      if (reason === null) continue;
      const p = pods.find((x) => x && x.name === name);
      if (p && p.decision === 'ignore' && p.reason !== reason) errs.push(`${id}: ignore ${name} reason want ${reason} got ${p.reason}`);
    }
  }
  for (const name of exp.absent ?? []) {
    if (pods.some((p) => p && p.name === name)) errs.push(`${id}: pod ${name} should not be listed`);
  }
  if ('skip' in exp) {
    const got = c.skip == null ? null : (c.skip.reason ?? c.skip);
    if ((exp.skip ?? null) !== (got ?? null)) errs.push(`${id}: skip want ${fmt(exp.skip)} got ${fmt(got)}`);
  }
  if (exp.create !== undefined) {
    const got = c.create?.count ?? 0;
    if (got !== exp.create) errs.push(`${id}: create want ${exp.create} got ${got}`);
  }
  if (exp.batches !== undefined) {
    const got = c.create?.batches ?? [];
    if (fmt(got) !== fmt(exp.batches)) errs.push(`${id}: batches want ${fmt(exp.batches)} got ${fmt(got)}`);
  }
  const dels: any[] = (Array.isArray(c.delete) ? c.delete : []).filter(Boolean);
  const delNames = dels.map((d) => d.name);
  if (exp.delete !== undefined && fmt(delNames) !== fmt(exp.delete)) errs.push(`${id}: delete want ${fmt(exp.delete)} got ${fmt(delNames)}`);
  if (exp.deleteAnyOf !== undefined) {
    const { count, from } = exp.deleteAnyOf;
    const outside = delNames.filter((n) => !from.includes(n));
    if (delNames.length !== count || new Set(delNames).size !== delNames.length || outside.length) {
      errs.push(`${id}: delete want ${count} of ${from.length} candidates got ${fmt(delNames)}`);
    }
  }
  for (const [name, reason] of Object.entries(exp.deleteReasons ?? {})) {
    const d = dels.find((x) => x.name === name);
    if (!d) errs.push(`${id}: ${name} not deleted (reason ${reason} expected)`);
    else if (d.reason !== reason) errs.push(`${id}: delete ${name} reason want ${reason} got ${d.reason}`);
  }
  for (const [field, want] of Object.entries<any>(exp.status ?? {})) {
    const st = c.status ?? {};
    if (field === 'conditions') {
      const got = Array.isArray(st.conditions) ? st.conditions : [];
      const ok = got.length === want.length && want.every((w: any, i: number) => Object.entries(w).every(([k, v]) => got[i]?.[k] === v));
      if (!ok) errs.push(`${id}: status.conditions want ${fmt(want)} got ${fmt(got.map((g: any) => ({ type: g.type, status: g.status, reason: g.reason })))}`);
    } else if (st[field] !== want) {
      errs.push(`${id}: status.${field} want ${fmt(want)} got ${fmt(st[field])}`);
    }
  }
  return errs;
}

// ------------------------------------------------------------------------------------------------

const ours = loadCases(dirs[0]);
const shared = loadCases(dirs[1]);

describe('conformance case files', () => {
  it('at least 30 cases of our own, with unique names and files', () => {
    expect(ours.length).toBeGreaterThanOrEqual(30);
    expect(shared.length).toBeGreaterThan(0); // the shared cases, or their vendored copy, are there
    const all = [...ours, ...shared];
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
  });
  for (const c of [...ours, ...shared]) {
    it(`${c.file} is in the shared case format`, () => {
      expect(c.file).toMatch(/^\d{3}-[a-z0-9-]+\.yaml$/);
      expect(c.file).toBe(`${c.file.slice(0, 3)}-${c.name}.yaml`);
      for (const k of ['name', 'source', 'description', 'now']) expect(typeof (c as any)[k], k).toBe('string');
      expect(Number.isNaN(Date.parse(c.now))).toBe(false);
      expect(c.snapshot.kind).toBe('List');
      expect(Array.isArray(c.snapshot.items)).toBe(true);
      expect(c.expect.controllers.length).toBeGreaterThan(0);
      const known = new Set([
        'kind',
        'namespace',
        'name',
        'adopt',
        'release',
        'keep',
        'ignore',
        'absent',
        'skip',
        'create',
        'batches',
        'delete',
        'deleteAnyOf',
        'deleteReasons',
        'status',
      ]);
      for (const e of c.expect.controllers) for (const k of Object.keys(e)) expect(known.has(k), `unknown expect field ${k}`).toBe(true);
    });
  }
});

describe('cases.json bundle (build-bundle.mjs) is in sync with cases/*.yaml', () => {
  it('same cases, same content, same order (rebuild with node test/conformance/build-bundle.mjs)', () => {
    let bundled: any[];
    try {
      bundled = JSON.parse(readFileSync(join(here, 'cases.json'), 'utf8'));
    } catch {
      return; // no bundle written: nothing to keep in sync
    }
    const want = ours.map((c) => ({
      name: c.name,
      source: c.source,
      description: c.description,
      now: c.now,
      snapshot: c.snapshot,
      expect: c.expect,
      file: c.file,
    }));
    expect(bundled).toEqual(want);
  });
});

// The cases were written from the 1.36 rules; 1.37's are equal (docs/how-it-works.md, Versions),
// so each case holds at both, and at the newest (the default offline).
const CASE_MINORS = [36, 37];

describe('conformance cases through planSnapshot (check.mjs semantics)', () => {
  it('the newest minor is one the cases run at', () => {
    expect(CASE_MINORS).toContain(defaultBehaviour().minor);
  });
  for (const minor of CASE_MINORS) {
    const { behaviour } = behaviourFor(minor);
    for (const c of [...ours, ...shared]) {
      it(`1.${minor} ${c.file.replace(/\.yaml$/, '')}: ${c.description}`, () => {
        const plan = planSnapshot(toSnapshot(c.snapshot.items), { now: Date.parse(c.now), behaviour, source: 'file' });
        expect(plan.kubernetesVersion).toBe(`1.${minor}`);
        const errs = c.expect.controllers.flatMap((e) => compareController(e, plan));
        expect(errs).toEqual([]);
      });
    }
  }
});

describe('the comparison itself can fail (guards against a vacuous checker)', () => {
  const c = ours.find((x) => x.name === 'ranks-ready-same-bucket-uid-order') ?? ours[0];
  const plan = planSnapshot(toSnapshot(c.snapshot.items), { now: Date.parse(c.now), behaviour: defaultBehaviour(), source: 'file' });
  const e = c.expect.controllers[0];
  it.each([
    ['keep', { keep: ['nobody'] }],
    ['adopt', { adopt: ['nobody'] }],
    ['ignore', { ignore: { nobody: 'Inactive' } }],
    ['create', { create: 12345 }],
    ['batches', { batches: [7] }],
    ['delete', { delete: ['nobody'] }],
    ['deleteAnyOf', { deleteAnyOf: { count: 99, from: ['nobody'] } }],
    ['deleteReasons', { deleteReasons: { nobody: 'Tie' } }],
    ['status', { status: { replicas: -1 } }],
    ['conditions', { status: { conditions: [{ type: 'Nope' }] } }],
    ['skip', { skip: 'InvalidSelector' }],
    ['missing controller', { name: 'no-such-controller' }],
  ])('a wrong %s is reported', (_what, patch) => {
    expect(compareController({ kind: e.kind, namespace: e.namespace, name: e.name, ...patch }, plan).length).toBeGreaterThan(0);
  });
});
