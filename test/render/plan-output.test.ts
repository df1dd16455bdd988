import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { PlanController } from '../../src/core/plan-types.js';
import { renderNames, renderPlanJson, renderPlanYaml } from '../../src/render/plan-output.js';
import { fullPlan, planOf, webRs } from './fixtures.js';

describe('renderPlanJson', () => {
  it('is the plan, two-space indented, with a final newline, and round-trips', () => {
    const out = renderPlanJson(fullPlan);
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.startsWith('{\n  "apiVersion": "rs-reconcile/v1alpha1",\n  "kind": "ReconcilePlan",')).toBe(true);
    expect(JSON.parse(out)).toEqual(fullPlan);
  });

  it('is fast on a plan with 150k pods', () => {
    const pods = Array.from({ length: 150_000 }, (_, i) => ({
      name: `web-${i}`,
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      decision: 'keep' as const,
      reason: 'OwnedMatching' as const,
      message: 'owned by this ReplicaSet and matches its selector',
    }));
    const big: PlanController = { ...webRs, pods, delete: [] };
    const plan = planOf([big]);
    const start = performance.now();
    const out = renderPlanJson(plan);
    const ms = performance.now() - start;
    expect(out.length).toBeGreaterThan(150_000 * 100);
    expect(ms).toBeLessThan(3000);
  });
});

describe('renderPlanYaml', () => {
  it('parses back to the same document', () => {
    expect(parseYaml(renderPlanYaml(fullPlan))).toEqual(fullPlan);
  });

  it('is fast on a plan with 150k pods (the yaml package needs over 10 s there)', () => {
    const pods = Array.from({ length: 150_000 }, (_, i) => ({
      name: `web-${i}`,
      uid: `${i}-uid`,
      decision: 'keep' as const,
      reason: 'OwnedMatching' as const,
      message: `web-${i} is owned by this ReplicaSet and matches its selector`,
    }));
    const plan = planOf([{ ...webRs, pods, delete: [] }]);
    const start = performance.now();
    const out = renderPlanYaml(plan);
    expect(performance.now() - start).toBeLessThan(8000);
    expect(out).toContain('\n      - name: web-149999\n        uid: "149999-uid"\n');
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
