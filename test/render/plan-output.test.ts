import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { PlanController } from '../../src/core/plan-types.js';
import fc from 'fast-check';
import { planJsonChunks, planYamlChunks, renderNames, renderPlanJson, renderPlanYaml } from '../../src/render/plan-output.js';
import { toYaml } from '../../src/render/yaml-emit.js';
import { fullPlan, planOf, webRs } from './fixtures.js';

describe('renderPlanJson', () => {
  it('is the plan, two-space indented, with a final newline, and round-trips', () => {
    const out = renderPlanJson(fullPlan);
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.startsWith('{\n  "apiVersion": "rs-reconcile/v1alpha1",\n  "kind": "ReconcilePlan",')).toBe(true);
    expect(JSON.parse(out)).toEqual(fullPlan);
  });

  it('in pieces (one per controller) is exactly the same text, for any JSON document', () => {
    expect([...planJsonChunks(fullPlan)].join('')).toBe(renderPlanJson(fullPlan));
    expect([...planJsonChunks(fullPlan)].length).toBeGreaterThan(fullPlan.controllers.length);
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue()), fc.constant(undefined)))), (doc) => {
        expect([...planJsonChunks(doc as object)].join('')).toBe(JSON.stringify(doc, null, 2) + '\n');
      }),
      { numRuns: 500 },
    );
  });
});

describe('renderPlanYaml', () => {
  it('parses back to the same document', () => {
    expect(parseYaml(renderPlanYaml(fullPlan))).toEqual(fullPlan);
  });

  it('in pieces (one per controller) is exactly the same text, for any JSON document', () => {
    const pods = Array.from({ length: 1000 }, (_, i) => ({
      name: `web-${i}`,
      uid: `${i}-uid`,
      decision: 'keep' as const,
      reason: 'OwnedMatching' as const,
      message: `web-${i} is owned by this ReplicaSet and matches its selector`,
    }));
    const plan = planOf([{ ...webRs, pods, delete: [] }, webRs]);
    expect([...planYamlChunks(plan)].join('')).toBe(renderPlanYaml(plan));
    expect(renderPlanYaml(plan)).toContain('\n      - name: web-999\n        uid: "999-uid"\n');
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue()), fc.constant(undefined)))), (doc) => {
        expect([...planYamlChunks(doc as object)].join('')).toBe(toYaml(doc));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps long messages on one line, quotes versions and writes no aliases', () => {
    const shared = { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'x '.repeat(120).trim() };
    const a: PlanController = { ...webRs, name: 'a', status: { ...webRs.status, conditions: [shared] } };
    const b: PlanController = { ...webRs, name: 'b', status: { ...webRs.status, conditions: [shared] } };
    const plan = planOf([a, b]);
    const out = renderPlanYaml(plan);
    expect(out).toContain(`message: ${shared.message}\n`);
    expect(out).toContain('kubernetesVersion: "1.35"');
    expect(out).not.toMatch(/[&*]a\d/);
    expect(parseYaml(out)).toEqual(JSON.parse(renderPlanJson(plan)));
  });
});

describe('renderNames', () => {
  it('lists the controllers that are not in sync, kubectl style', () => {
    expect(renderNames(fullPlan)).toBe(
      [
        'replicaset.apps/leaving',
        'replicaset.apps/worker',
        'replicationcontroller/db',
        'replicaset.apps/api',
        'replicaset.apps/broken', // skipped for its invalid selector: not in sync
        'replicaset.apps/web-7d4f8',
        '',
      ].join('\n'),
    );
  });

  it('is empty when everything is in sync', () => {
    expect(renderNames(planOf([]))).toBe('');
    expect(renderNames(planOf([{ ...webRs, inSync: true }]))).toBe('');
  });
});
