// Proportional scaling (sync.go scale) as properties: a Deployment resized mid-rollout, its
// ReplicaSets' sizes summing to the old replicas + maxSurge as upstream leaves them, gets sizes
// that sum to the new replicas + maxSurge, none negative, none above that bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxSurge, REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import type { ReplicaSet } from '../../../src/core/types.js';
import { decide, deploy, rs } from './helpers.js';

const state = fc
  .record({
    from: fc.integer({ min: 1, max: 60 }),
    to: fc.integer({ min: 0, max: 120 }),
    surge: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('10%', '25%', '50%')),
    // how the old total (from + surge) is split over 2 to 4 ReplicaSets, the last being the new one
    cuts: fc.array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 2, maxLength: 4 }),
  })
  .map(({ from, to, surge, cuts }) => {
    const before = deploy({ replicas: from, maxSurge: surge, maxUnavailable: 1 });
    const total = from + maxSurge(before);
    const weights = cuts.map((c) => c / cuts.reduce((a, b) => a + b, 0));
    const sizes = weights.map((w) => Math.max(1, Math.floor(w * total)));
    // the rest of the old total goes to the new ReplicaSet (the last)
    sizes[sizes.length - 1] += total - sizes.reduce((a, b) => a + b, 0);
    return { from, to, surge, total, sizes };
  })
  .filter(({ sizes }) => sizes.every((s) => s >= 1));

function run(from: number, to: number, surge: number | string, total: number, sizes: number[]) {
  const n = sizes.length;
  const rss: ReplicaSet[] = sizes.map((size, i) =>
    rs({
      name: i === n - 1 ? 'web-new' : `web-old${i}`,
      replicas: size,
      available: 0,
      image: i === n - 1 ? 'nginx:1.27' : `nginx:1.${i}`,
      revision: i + 1,
      desired: from,
      max: total,
      ageSeconds: 1000 - i * 10,
    }),
  );
  const d = deploy({ replicas: to, maxSurge: surge, maxUnavailable: 1, annotations: { [REVISION_ANNOTATION]: String(n) } });
  const r = decide(d, rss);
  const after = rss.map((x) => {
    const last = r.actions.filter((a) => a.verb === 'scale' && a.replicaSet === x.metadata.name).at(-1);
    return last && last.verb === 'scale' ? last.to : (x.spec.replicas ?? 0);
  });
  return { r, after, bound: to === 0 ? 0 : to + maxSurge(d) };
}

describe('proportional scaling (properties)', () => {
  it('a resize spreads exactly replicas + maxSurge over the ReplicaSets, never negative, never above the bound', () => {
    fc.assert(
      fc.property(state, ({ from, to, surge, total, sizes }) => {
        fc.pre(from !== to);
        const { r, after, bound } = run(from, to, surge, total, sizes);
        expect(r.path).toBe('scaling');
        expect(after.reduce((a, b) => a + b, 0)).toBe(bound);
        for (const s of after) {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(bound);
        }
      }),
      { numRuns: 400 },
    );
  });
  it('growing never shrinks a ReplicaSet, shrinking never grows one', () => {
    fc.assert(
      fc.property(state, ({ from, to, surge, total, sizes }) => {
        fc.pre(from !== to);
        const { after } = run(from, to, surge, total, sizes);
        for (const [i, s] of after.entries()) {
          if (to > from) expect(s).toBeGreaterThanOrEqual(sizes[i]);
          else expect(s).toBeLessThanOrEqual(sizes[i]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
