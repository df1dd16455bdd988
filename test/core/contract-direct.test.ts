// The shared contract cases run straight through the planner (the CLI path is covered by
// ../shared/contract/check.mjs in `npm test` when ../shared exists): a fast, precise signal while
// working on core. Read from ../shared when it is there, else from the vendored copy.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../src/core/plan.js';
import { defaultBehaviour } from '../../src/core/versions.js';
import type { Snapshot } from '../../src/core/types.js';
import { sharedOrVendored } from '../contract/shared.js';

interface Case {
  name: string;
  now: string;
  snapshot: { items: any[] };
  expect: { controllers: any[] };
}
const cases: Case[] = JSON.parse(readFileSync(sharedOrVendored('contract/cases.json'), 'utf8'));

function toSnapshot(items: any[]): Snapshot {
  return {
    controllers: {
      ReplicaSet: items.filter((o) => o.kind === 'ReplicaSet'),
      ReplicationController: items.filter((o) => o.kind === 'ReplicationController'),
    },
    pods: items.filter((o) => o.kind === 'Pod'),
  };
}

describe('contract cases through the planner', () => {
  it('there are cases to run', () => expect(cases.length).toBeGreaterThan(0));
  for (const c of cases) {
    it(c.name, () => {
      const plan = planSnapshot(toSnapshot(c.snapshot.items), { now: Date.parse(c.now), behaviour: defaultBehaviour(), source: 'file' });
      for (const exp of c.expect.controllers) {
        const got = plan.controllers.find((x) => x.kind === exp.kind && x.namespace === exp.namespace && x.name === exp.name)!;
        expect(got, `${exp.name} in plan`).toBeDefined();
        const names = (d: string) =>
          got.pods
            .filter((p) => p.decision === d)
            .map((p) => p.name)
            .sort();
        for (const d of ['adopt', 'release', 'keep']) if (exp[d]) expect(names(d)).toEqual([...exp[d]].sort());
        if (exp.ignore) expect(names('ignore')).toEqual(Object.keys(exp.ignore).sort());
        if ('skip' in exp) expect(got.skip?.reason ?? null).toBe(exp.skip ?? null);
        if (exp.create !== undefined) expect(got.create.count).toBe(exp.create);
        if (exp.batches) expect(got.create.batches).toEqual(exp.batches);
        if (exp.delete) expect(got.delete.map((d) => d.name)).toEqual(exp.delete);
        if (exp.deleteAnyOf) {
          expect(got.delete.length).toBe(exp.deleteAnyOf.count);
          for (const d of got.delete) expect(exp.deleteAnyOf.from).toContain(d.name);
        }
        for (const [n, r] of Object.entries(exp.deleteReasons ?? {})) expect(got.delete.find((d) => d.name === n)?.reason).toBe(r);
        for (const [f, v] of Object.entries(exp.status ?? {})) {
          if (f === 'conditions')
            expect(got.status.conditions.map((x: any) => ({ type: x.type, status: x.status, reason: x.reason }))).toMatchObject(v as any[]);
          else expect((got.status as any)[f], `status.${f}`).toBe(v);
        }
      }
    });
  }
});
