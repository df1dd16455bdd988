// A saved plan computed under a what-if is refused as a what-if, before anything compares it with
// fresh state (where it would only look "stale").
import { describe, expect, it } from 'vitest';
import { parseSavedPlan } from '../../src/input/plan-file.js';
import { whatIfOf } from '../../src/services/plan-service.js';

const plan = (extra: object) =>
  JSON.stringify({
    apiVersion: 'rs-reconcile/v1alpha1',
    kind: 'ReconcilePlan',
    now: '2026-01-01T00:00:00Z',
    kubernetesVersion: '1.35',
    source: 'cluster',
    ...extra,
    controllers: [],
  });

describe('parseSavedPlan and what-ifs', () => {
  it('refuses a plan with a whatIf, naming its flags', () => {
    expect(() => parseSavedPlan(plan({ whatIf: { replicas: 1 } }), 'p.json')).toThrow('p.json: this plan is a what-if (--replicas 1): it cannot be applied');
    expect(() => parseSavedPlan(plan({ whatIf: { replicas: 0, now: '2026-02-01T00:00:00Z' } }), 'p.json')).toThrow(
      'what-if (--replicas 0, --now 2026-02-01T00:00:00Z)',
    );
    expect(() => parseSavedPlan('whatIf:\n  replicas: 3\n' + 'apiVersion: rs-reconcile/v1alpha1\nkind: ReconcilePlan\n', 'p.yaml')).toThrow(
      'what-if (--replicas 3)',
    );
  });

  it('takes a plan whose whatIf is null or absent (plans written before the field)', () => {
    expect(parseSavedPlan(plan({ whatIf: null }), 'p.json').controllers).toEqual([]);
    expect(parseSavedPlan(plan({}), 'p.json').controllers).toEqual([]);
  });
});

describe('whatIfOf', () => {
  const ms = Date.parse('2026-01-01T00:00:00Z');
  it('--replicas always; --now only on a live cluster (a snapshot is evaluated at its time)', () => {
    expect(whatIfOf({ replicas: 2 }, 'file', ms)).toEqual({ replicas: 2 });
    expect(whatIfOf({ now: '2026-01-01T00:00:00Z' }, 'file', ms)).toBeNull();
    expect(whatIfOf({ now: '2026-01-01T00:00:00Z' }, 'cluster', ms)).toEqual({ now: '2026-01-01T00:00:00Z' });
    expect(whatIfOf({}, 'cluster', ms)).toBeNull();
  });
});
