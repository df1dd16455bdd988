// §7 ActivePodsWithRanks.Less: every criterion in isolation, their precedence, the log buckets,
// the uid tie-break inside one bucket (pitfall 10), gates off, and order properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareForDeletion, deleteReasonOf, rankFacts, sortForDeletion, type RankFacts } from '../../../src/core/rank.js';
import { logBucket } from '../../../src/core/time.js';
import type { Pod } from '../../../src/core/types.js';
import type { Behaviour } from '../../../src/core/versions.js';
import { bh, DAY, HOUR, MINUTE, NOW, pod, SECOND, type PodOpts } from './helpers.js';

const B35 = bh(35);
const facts = (p: Pod, rank = 0, index = 0): RankFacts => rankFacts(p, index, rank, NOW);
/** Base: scheduled, Running, ready for 1 day, cost 0, 0 restarts, created 2 days ago. */
const base = (o: Partial<PodOpts> & { name: string }): Pod => pod({ ready: true, readyAgo: DAY, createdAgo: 2 * DAY, ...o });

function less(a: Pod, b: Pod, opts: { ra?: number; rb?: number; b?: Behaviour } = {}) {
  return compareForDeletion(facts(a, opts.ra ?? 0), facts(b, opts.rb ?? 0), opts.b ?? B35);
}
/** a goes strictly first, decided by `criterion`, and b is not less than a. */
function expectFirst(a: Pod, b: Pod, criterion: string, opts: { ra?: number; rb?: number; b?: Behaviour } = {}) {
  const ab = less(a, b, opts);
  const ba = compareForDeletion(facts(b, opts.rb ?? 0), facts(a, opts.ra ?? 0), opts.b ?? B35);
  expect(ab.less, `${a.metadata.name} < ${b.metadata.name}`).toBe(true);
  expect(ab.criterion).toBe(criterion);
  expect(ba.less, `${b.metadata.name} < ${a.metadata.name}`).toBe(false);
  expect(ba.criterion).toBe(criterion);
}

describe('§7 logarithmicRankDiff buckets (time.ts logBucket)', () => {
  it.each([
    [1 * HOUR, 41],
    [2 * HOUR, 42],
    [3 * HOUR, 43],
    [4 * HOUR, 43],
    [5 * HOUR, 44],
    [9 * HOUR, 44],
    [10 * HOUR, 45],
    [1 * DAY, 46],
    [30 * DAY, 51],
  ])('%d ms before now → bucket %d', (d, bucket) => {
    expect(logBucket(NOW - d, NOW)).toBe(bucket);
  });
  it('buckets are floor(log2(d in ns)): 1 ms = 1e6 ns → 19; 1 s = 1e9 ns → 29', () => {
    expect(logBucket(NOW - 1, NOW)).toBe(Math.floor(Math.log2(1e6)));
    expect(logBucket(NOW - SECOND, NOW)).toBe(Math.floor(Math.log2(1e9)));
  });
  it('≡ the bit length of the nanoseconds as a BigInt, on any difference and at every power of two', () => {
    const exact = (dMs: number) => {
      const ns = BigInt(Math.round(dMs * 1000)) * 1000n;
      return ns.toString(2).length - 1;
    };
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 2 ** 53 / 1000 - 1, noNaN: true }), (dMs) => logBucket(0, dMs) === exact(dMs)),
      { numRuns: 5000 },
    );
    // on each side of every power of two a µs count × 1000 can reach
    for (let k = 10; k < 63; k++) {
      const us = Math.floor(2 ** k / 1000);
      for (const u of [us - 1, us, us + 1]) if (u > 0) expect(logBucket(0, u / 1000), `${u} µs`).toBe(exact(u / 1000));
    }
    expect(logBucket(0, 1e-4)).toBe(0); // under half a µs: 0 ns
    // past 2^53 µs (285 years): 62 up to Go's longest Duration (2^63 − 1 ns, 292 years), its maximum's 63 beyond
    expect(logBucket(0, 2 ** 53 / 1000 + 1)).toBe(62);
    expect(logBucket(0, 2 ** 63 / 1e6 - 1e3)).toBe(62);
    expect(logBucket(0, 2 ** 63 / 1e6)).toBe(63);
    expect(logBucket(Date.parse('0000-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z'))).toBe(63);
  });
  it("no whole millisecond under 2^63 ns is within Log2's rounding (2.5e-15 of it) below a power of two", () => {
    for (let k = 20n; k < 63n; k++) {
      const p = 2n ** k;
      const below = p - (p % 1_000_000n === 0n ? 1_000_000n : p % 1_000_000n); // the last whole ms under 2^k
      expect(Number(p - below) / Number(p), `2^${k}`).toBeGreaterThan(2.5e-15);
    }
  });
  it('a time at or after now has bucket −1', () => {
    expect(logBucket(NOW, NOW)).toBe(-1);
    expect(logBucket(NOW + HOUR, NOW)).toBe(-1);
  });
  it('the bucket edge 2^44 ns ≈ 4.887 h: 4.8 h → 43, 4.9 h → 44; 2^45 ns ≈ 9.773 h: 9.7 h → 44, 9.8 h → 45', () => {
    expect(logBucket(NOW - 4.8 * HOUR, NOW)).toBe(43);
    expect(logBucket(NOW - 4.9 * HOUR, NOW)).toBe(44);
    expect(logBucket(NOW - 9.7 * HOUR, NOW)).toBe(44);
    expect(logBucket(NOW - 9.8 * HOUR, NOW)).toBe(45);
  });
});

describe('§7 criteria in isolation', () => {
  it('1. unscheduled (empty nodeName) first, even if better on every later criterion', () => {
    const u = base({ name: 'u', node: '', cost: '100', readyAgo: 30 * DAY, createdAgo: 60 * DAY });
    const s = base({ name: 's', phase: 'Pending', ready: false, cost: '-100', restarts: [10] });
    expectFirst(u, s, 'Unscheduled', { rb: 9 });
  });
  it('1. two unscheduled pods are not decided by criterion 1', () => {
    const a = base({ name: 'a', node: '', phase: 'Pending' });
    const b = base({ name: 'b', node: '' });
    expectFirst(a, b, 'Phase');
  });
  it('1. two pods on different nodes are not decided by criterion 1', () => {
    const a = base({ name: 'a', node: 'n1', phase: 'Pending' });
    const b = base({ name: 'b', node: 'n2' });
    expectFirst(a, b, 'Phase');
  });
  it('2. phase ordinals Pending(0) < Unknown(1) < Running(2)', () => {
    expectFirst(base({ name: 'p', phase: 'Pending' }), base({ name: 'u', phase: 'Unknown' }), 'Phase');
    expectFirst(base({ name: 'u', phase: 'Unknown' }), base({ name: 'r', phase: 'Running' }), 'Phase');
    expectFirst(base({ name: 'p', phase: 'Pending' }), base({ name: 'r', phase: 'Running' }), 'Phase');
  });
  it('2. an empty or unknown phase string counts as Pending (0)', () => {
    expectFirst(base({ name: 'e', phase: '' }), base({ name: 'u', phase: 'Unknown' }), 'Phase');
    expectFirst(base({ name: 'w', phase: 'Weird' }), base({ name: 'r', phase: 'Running' }), 'Phase');
    // same ordinal as Pending: not decided by phase
    expectFirst(base({ name: 'e', phase: '', ready: false }), base({ name: 'p', phase: 'Pending' }), 'NotReady');
    expectFirst(base({ name: 'w', phase: 'Weird', ready: false }), base({ name: 'p', phase: 'Pending' }), 'NotReady');
  });
  // "any other value (including empty) = 0": also strings that happen to be Object.prototype names.
  it('2. phase "constructor" counts as Pending (0) like any other unknown phase', () => {
    expectFirst(base({ name: 'w', phase: 'constructor', ready: false }), base({ name: 'p', phase: 'Pending' }), 'NotReady');
  });
  it('3. not ready first', () => {
    expectFirst(base({ name: 'n', ready: false, cost: '100' }), base({ name: 'r', cost: '-100' }), 'NotReady');
    // no Ready condition at all is not ready
    expectFirst(base({ name: 'n', ready: undefined }), base({ name: 'r' }), 'NotReady');
  });
  it('4. lower deletion cost first; invalid strings count 0, "-007" is −7', () => {
    expectFirst(base({ name: 'lo', cost: '-1' }), base({ name: 'hi' }), 'LowerDeletionCost');
    expectFirst(base({ name: 'lo', cost: '1' }), base({ name: 'hi', cost: '2' }), 'LowerDeletionCost');
    expectFirst(base({ name: 'lo', cost: '-007' }), base({ name: 'hi', cost: '-6' }), 'LowerDeletionCost');
    expectFirst(base({ name: 'lo', cost: '+5', readyAgo: 30 * DAY }), base({ name: 'hi', cost: '1', readyAgo: MINUTE }), 'LowerDeletionCost');
    // invalid = 0 = absent: not decided by cost
    expectFirst(base({ name: 'a', cost: '007', readyAgo: MINUTE }), base({ name: 'b', readyAgo: 30 * DAY }), 'ReadyShorter');
  });
  it('5. more colocated related pods first', () => {
    expectFirst(base({ name: 'crowded', readyAgo: 30 * DAY }), base({ name: 'alone', readyAgo: MINUTE }), 'MoreOnSameNode', { ra: 3, rb: 1 });
  });
  it('6. both ready: ready for a shorter time first (different buckets)', () => {
    expectFirst(
      base({ name: 'new', readyAgo: HOUR, restarts: [0], createdAgo: 60 * DAY }),
      base({ name: 'old', readyAgo: 30 * DAY, restarts: [9], createdAgo: MINUTE }),
      'ReadyShorter',
    );
  });
  it('6. a ready pod with no Ready transition time counts as the newest', () => {
    expectFirst(base({ name: 'zero', readyAgo: null }), base({ name: 'recent', readyAgo: SECOND }), 'ReadyShorter');
  });
  it('6. same bucket, different times: uid decides at once, ignoring restarts and creation (pitfall 10)', () => {
    // 5 h and 6 h are both bucket 44
    const small = base({ name: 'x', uid: 'aaaa', readyAgo: 6 * HOUR, restarts: [0], createdAgo: 60 * DAY });
    const big = base({ name: 'y', uid: 'bbbb', readyAgo: 5 * HOUR, restarts: [50], createdAgo: HOUR });
    expectFirst(small, big, 'ReadyUid');
    // swapping the times does not matter: still the uid
    const small2 = base({ name: 'x', uid: 'aaaa', readyAgo: 5 * HOUR, restarts: [0] });
    const big2 = base({ name: 'y', uid: 'bbbb', readyAgo: 6 * HOUR, restarts: [50] });
    expectFirst(small2, big2, 'ReadyUid');
  });
  it('6. exactly equal ready times skip to restarts', () => {
    expectFirst(
      base({ name: 'r', uid: 'zzzz', readyAgo: 5 * HOUR, restarts: [2] }),
      base({ name: 's', uid: 'aaaa', readyAgo: 5 * HOUR, restarts: [1] }),
      'MoreRestarts',
    );
  });
  it('6. not applied when both pods are not ready (their ready times are ignored)', () => {
    expectFirst(
      base({ name: 'r', ready: false, readyAgo: 30 * DAY, restarts: [1] }),
      base({ name: 's', ready: false, readyAgo: MINUTE, restarts: [0] }),
      'MoreRestarts',
    );
  });
  it('7. more restarts first (max over containers)', () => {
    expectFirst(
      base({ name: 'r', ready: false, restarts: [0, 4], createdAgo: 60 * DAY }),
      base({ name: 's', ready: false, restarts: [3, 3], createdAgo: MINUTE }),
      'MoreRestarts',
    );
  });
  it('7. equal regular restarts: sidecar restarts decide (1.32+); ordinary init containers ignored', () => {
    const side = base({ name: 'side', ready: false, restarts: [1], sidecarRestarts: [2], createdAgo: 60 * DAY });
    const init = base({ name: 'init', ready: false, restarts: [1], initRestarts: [9], createdAgo: MINUTE });
    expectFirst(side, init, 'MoreRestarts');
  });
  // ActivePodsWithRanks.Less in pkg/controller/controller_utils.go: release-1.32 compares the max
  // restarts of regular containers, then (compareMaxContainerRestarts) of restartable init
  // containers (PR #124952, "The Job controller now considers sidecar container restart counts
  // when removing pods" in the v1.32.0 changelog); release-1.31 only the regular ones.
  it('7. sidecar restarts decide from 1.32 (kube-controller-manager v1.32.13 deletes the pod with more)', () => {
    const side = base({ name: 'side', ready: false, restarts: [1], sidecarRestarts: [2], createdAgo: 60 * DAY });
    const plain = base({ name: 'plain', ready: false, restarts: [1], createdAgo: MINUTE });
    expectFirst(side, plain, 'MoreRestarts', { b: bh(32) });
    expectFirst(side, plain, 'MoreRestarts', { b: bh(33) });
  });
  it('7. sidecar restarts are ignored before 1.32 (go on to creation time)', () => {
    const side = base({ name: 'side', ready: false, restarts: [1], sidecarRestarts: [2], createdAgo: 60 * DAY });
    const plain = base({ name: 'plain', ready: false, restarts: [1], createdAgo: MINUTE });
    expectFirst(plain, side, 'Newer', { b: bh(31) });
    expectFirst(plain, side, 'Newer', { b: bh(24) });
  });
  it('8. newer first (different creation buckets)', () => {
    expectFirst(base({ name: 'young', ready: false, createdAgo: HOUR }), base({ name: 'old', ready: false, createdAgo: 30 * DAY }), 'Newer');
  });
  it('8. a zero creation time counts as the newest', () => {
    expectFirst(base({ name: 'zero', ready: false, createdAgo: null }), base({ name: 'recent', ready: false, createdAgo: SECOND }), 'Newer');
  });
  it('8. same creation bucket: smaller uid first', () => {
    expectFirst(
      base({ name: 'x', uid: 'aaaa', ready: false, createdAgo: 6 * HOUR }),
      base({ name: 'y', uid: 'bbbb', ready: false, createdAgo: 5 * HOUR }),
      'CreatedUid',
    );
  });
  it('9. all equal: neither is less (tie)', () => {
    const a = base({ name: 'a', uid: 'aaaa' });
    const b = base({ name: 'b', uid: 'bbbb' });
    expect(less(a, b)).toEqual({ less: false, criterion: null });
    expect(less(b, a)).toEqual({ less: false, criterion: null });
  });
});

describe('§7 precedence', () => {
  it('unscheduled > phase > readiness > cost > colocation > ready time > restarts > creation', () => {
    // each pair: the first pod loses on the earlier criterion but wins every later one
    expectFirst(base({ name: 'a', node: '', phase: 'Running' }), base({ name: 'b', phase: 'Pending', ready: false }), 'Unscheduled');
    expectFirst(base({ name: 'a', phase: 'Pending', ready: true }), base({ name: 'b', phase: 'Running', ready: false }), 'Phase');
    expectFirst(base({ name: 'a', ready: false, cost: '10' }), base({ name: 'b', ready: true, cost: '-10' }), 'NotReady');
  });
  it('cost before colocation before ready time', () => {
    // lower cost wins although it is less crowded and ready longer
    expectFirst(base({ name: 'cheap', cost: '0', readyAgo: 30 * DAY }), base({ name: 'dear', cost: '1', readyAgo: MINUTE }), 'LowerDeletionCost', {
      ra: 1,
      rb: 5,
    });
    // equal cost: more colocated wins although ready longer
    expectFirst(base({ name: 'crowded', readyAgo: 30 * DAY }), base({ name: 'alone', readyAgo: MINUTE }), 'MoreOnSameNode', { ra: 5, rb: 1 });
  });
  it('ready time before restarts before creation', () => {
    expectFirst(
      base({ name: 'a', readyAgo: MINUTE, restarts: [0], createdAgo: 60 * DAY }),
      base({ name: 'b', readyAgo: 30 * DAY, restarts: [9], createdAgo: MINUTE }),
      'ReadyShorter',
    );
    expectFirst(
      base({ name: 'a', ready: false, restarts: [1], createdAgo: 60 * DAY }),
      base({ name: 'b', ready: false, restarts: [0], createdAgo: MINUTE }),
      'MoreRestarts',
    );
  });
});

describe('§7 gates off', () => {
  it('PodDeletionCost=false skips criterion 4', () => {
    const off = bh(35, { PodDeletionCost: false });
    const cheapOld = base({ name: 'cheap', cost: '-100', readyAgo: 30 * DAY });
    const dearNew = base({ name: 'dear', cost: '100', readyAgo: MINUTE });
    expectFirst(cheapOld, dearNew, 'LowerDeletionCost');
    expectFirst(dearNew, cheapOld, 'ReadyShorter', { b: off });
  });
  it('LogarithmicScaleDown=false: exact ready times (later first), never uids', () => {
    const off = bh(35, { LogarithmicScaleDown: false });
    const later = base({ name: 'later', uid: 'bbbb', readyAgo: 5 * HOUR });
    const earlier = base({ name: 'earlier', uid: 'aaaa', readyAgo: 6 * HOUR });
    expectFirst(earlier, later, 'ReadyUid'); // on: same bucket → uid
    expectFirst(later, earlier, 'ReadyShorter', { b: off });
    // one second apart in the same bucket still compares exactly
    const l2 = base({ name: 'l2', uid: 'zzzz', readyAgo: 5 * HOUR });
    const e2 = base({ name: 'e2', uid: 'aaaa', readyAgo: 5 * HOUR + SECOND });
    expectFirst(l2, e2, 'ReadyShorter', { b: off });
    // zero counts as the latest
    expectFirst(base({ name: 'z', readyAgo: null }), base({ name: 'r', readyAgo: SECOND }), 'ReadyShorter', { b: off });
  });
  it('LogarithmicScaleDown=false: exact creation times (newer first), never uids', () => {
    const off = bh(35, { LogarithmicScaleDown: false });
    const newer = base({ name: 'newer', uid: 'zzzz', ready: false, createdAgo: 5 * HOUR });
    const older = base({ name: 'older', uid: 'aaaa', ready: false, createdAgo: 6 * HOUR });
    expectFirst(older, newer, 'CreatedUid');
    expectFirst(newer, older, 'Newer', { b: off });
    expectFirst(base({ name: 'z', ready: false, createdAgo: null }), base({ name: 'r', ready: false, createdAgo: SECOND }), 'Newer', { b: off });
  });
});

describe('§7 plan reasons (deleteReasonOf)', () => {
  it('maps the deciding criterion; both uid steps become UidOrder; equality is Tie', () => {
    const r = (a: Pod, b: Pod, ra = 0, rb = 0) => deleteReasonOf(facts(a, ra), facts(b, rb), B35).reason;
    expect(r(base({ name: 'a', node: '' }), base({ name: 'b' }))).toBe('Unscheduled');
    expect(r(base({ name: 'a', phase: 'Pending' }), base({ name: 'b' }))).toBe('Phase');
    expect(r(base({ name: 'a', ready: false }), base({ name: 'b' }))).toBe('NotReady');
    expect(r(base({ name: 'a', cost: '-1' }), base({ name: 'b' }))).toBe('LowerDeletionCost');
    expect(r(base({ name: 'a' }), base({ name: 'b' }), 2, 1)).toBe('MoreOnSameNode');
    expect(r(base({ name: 'a', readyAgo: HOUR }), base({ name: 'b', readyAgo: DAY }))).toBe('ReadyShorter');
    expect(r(base({ name: 'a', uid: 'a', readyAgo: 5 * HOUR }), base({ name: 'b', uid: 'b', readyAgo: 6 * HOUR }))).toBe('UidOrder');
    expect(r(base({ name: 'a', restarts: [1] }), base({ name: 'b' }))).toBe('MoreRestarts');
    expect(r(base({ name: 'a', createdAgo: HOUR }), base({ name: 'b', createdAgo: DAY }))).toBe('Newer');
    expect(r(base({ name: 'a', uid: 'a', createdAgo: 5 * HOUR }), base({ name: 'b', uid: 'b', createdAgo: 6 * HOUR }))).toBe('UidOrder');
    expect(r(base({ name: 'a', uid: 'a' }), base({ name: 'b', uid: 'b' }))).toBe('Tie');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const podArb = fc
  .record({
    uid: fc.string({ minLength: 1, maxLength: 4 }),
    node: fc.constantFrom('', 'n1', 'n2'),
    phase: fc.constantFrom('Pending', 'Running', 'Unknown', '', 'Weird'),
    ready: fc.option(fc.boolean(), { nil: undefined }),
    readyAgo: fc.option(fc.integer({ min: -HOUR, max: 40 * DAY }), { nil: null }),
    createdAgo: fc.option(fc.integer({ min: -HOUR, max: 40 * DAY }), { nil: null }),
    cost: fc.option(fc.constantFrom('0', '1', '-1', '+5', '007', '100'), { nil: undefined }),
    restarts: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
    sidecarRestarts: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 1 }),
    rank: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ rank, ...o }) => ({ p: pod({ name: `p-${o.uid}`, ...o }), rank }));
const behaviourArb = fc.constantFrom(bh(35), bh(32), bh(35, { PodDeletionCost: false }), bh(35, { LogarithmicScaleDown: false }));

describe('§7 order properties', () => {
  it('irreflexive: no pod is less than itself', () => {
    fc.assert(
      fc.property(podArb, behaviourArb, ({ p, rank }, b) => {
        expect(compareForDeletion(facts(p, rank), facts(p, rank), b).less).toBe(false);
      }),
    );
  });
  it('antisymmetric: never both less(a, b) and less(b, a)', () => {
    fc.assert(
      fc.property(podArb, podArb, behaviourArb, (x, y, b) => {
        const fx = facts(x.p, x.rank);
        const fy = facts(y.p, y.rank);
        expect(compareForDeletion(fx, fy, b).less && compareForDeletion(fy, fx, b).less).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
  it('sorting puts every unscheduled pod before every scheduled one', () => {
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 12 }), behaviourArb, (pods, b) => {
        const sorted = sortForDeletion(
          pods.map(({ p, rank }, i) => rankFacts(p, i, rank, NOW)),
          b,
        );
        const firstScheduled = sorted.findIndex((f) => f.node !== '');
        if (firstScheduled >= 0) expect(sorted.slice(firstScheduled).every((f) => f.node !== '')).toBe(true);
      }),
    );
  });
  it('pods differing only in deletion cost are ordered by cost, ascending', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2147483648, max: 2147483647 }), { minLength: 1, maxLength: 10 }), (costs) => {
        const fs = costs.map((c, i) => rankFacts(base({ name: `p${i}`, uid: `u${i}`, readyAgo: DAY, createdAgo: 2 * DAY, cost: String(c) }), i, 0, NOW));
        const sorted = sortForDeletion(fs, B35).map((f) => f.cost);
        expect(sorted).toEqual([...costs].sort((a, b) => a - b));
      }),
    );
  });
  it('a sorted list never has a later pod strictly less than an earlier one on a transitive domain', () => {
    // distinct buckets for all times (so no uid step and no exact-equality mix): the order is a
    // lexicographic key order and the sort must respect it pairwise.
    const times = [null, MINUTE, HOUR, DAY, 30 * DAY];
    const arb = fc.record({
      node: fc.constantFrom('', 'n1'),
      phase: fc.constantFrom('Pending', 'Running'),
      ready: fc.boolean(),
      readyIdx: fc.integer({ min: 0, max: 4 }),
      createdIdx: fc.integer({ min: 0, max: 4 }),
      cost: fc.constantFrom('0', '1'),
      restarts: fc.integer({ min: 0, max: 2 }),
      rank: fc.integer({ min: 0, max: 2 }),
    });
    fc.assert(
      fc.property(fc.array(arb, { minLength: 2, maxLength: 10 }), (rows) => {
        const fs = rows.map((r, i) =>
          rankFacts(
            pod({
              name: `p${i}`,
              uid: `u${i}`,
              node: r.node,
              phase: r.phase,
              ready: r.ready,
              readyAgo: times[r.readyIdx],
              createdAgo: times[r.createdIdx],
              cost: r.cost,
              restarts: [r.restarts],
            }),
            i,
            r.rank,
            NOW,
          ),
        );
        const sorted = sortForDeletion(fs, B35);
        for (let i = 0; i < sorted.length; i++)
          for (let j = i + 1; j < sorted.length; j++) expect(compareForDeletion(sorted[j], sorted[i], B35).less).toBe(false);
      }),
    );
  });
  it('compareForDeletion ≡ an independent reading of §7, pairwise, on arbitrary times and uids', () => {
    // Independent comparator: Less(i, j) and the deciding step, straight from §7 (no shared code).
    const bucket = (t: number, now: number) => (now - t <= 0 ? -1 : (BigInt(now - t) * 1_000_000n).toString(2).length - 1);
    const phaseOrd = (p: string) => (p === 'Unknown' ? 1 : p === 'Running' ? 2 : 0);
    type F = {
      uid: string;
      node: string;
      phase: string;
      ready: boolean;
      rt: number | null;
      ct: number | null;
      cost: number;
      rank: number;
      rs: number;
      side: number;
    };
    function naiveLess(a: F, b: F, log: boolean, costOn: boolean, sidecars: boolean): [boolean, string | null] {
      if ((a.node === '') !== (b.node === '')) return [a.node === '', 'Unscheduled'];
      if (phaseOrd(a.phase) !== phaseOrd(b.phase)) return [phaseOrd(a.phase) < phaseOrd(b.phase), 'Phase'];
      if (a.ready !== b.ready) return [!a.ready, 'NotReady'];
      if (costOn && a.cost !== b.cost) return [a.cost < b.cost, 'LowerDeletionCost'];
      if (a.rank !== b.rank) return [a.rank > b.rank, 'MoreOnSameNode'];
      if (a.ready && b.ready && a.rt !== b.rt) {
        if (!log || a.rt === null || b.rt === null) return [a.rt === null || (b.rt !== null && a.rt > b.rt), 'ReadyShorter'];
        const d = bucket(a.rt, NOW) - bucket(b.rt, NOW);
        return d === 0 ? [a.uid < b.uid, 'ReadyUid'] : [d < 0, 'ReadyShorter'];
      }
      if (a.rs !== b.rs) return [a.rs > b.rs, 'MoreRestarts'];
      if (sidecars && a.side !== b.side) return [a.side > b.side, 'MoreRestarts'];
      if (a.ct !== b.ct) {
        if (!log || a.ct === null || b.ct === null) return [a.ct === null || (b.ct !== null && a.ct > b.ct), 'Newer'];
        const d = bucket(a.ct, NOW) - bucket(b.ct, NOW);
        return d === 0 ? [a.uid < b.uid, 'CreatedUid'] : [d < 0, 'Newer'];
      }
      return [false, null];
    }
    const time = fc.option(
      fc.integer({ min: -2 * HOUR, max: 40 * DAY }).map((d) => Math.round(d / SECOND) * SECOND),
      { nil: null, freq: 6 },
    );
    const fArb = fc.record({
      uid: fc.constantFrom('a', 'b', 'c', 'aa'),
      node: fc.constantFrom('', 'n1'),
      phase: fc.constantFrom('Pending', 'Running', 'Unknown', '', 'Succeeded'),
      ready: fc.boolean(),
      rt: time,
      ct: time,
      cost: fc.constantFrom(0, 1, -1),
      rank: fc.integer({ min: 0, max: 2 }),
      rs: fc.integer({ min: 0, max: 2 }),
      side: fc.integer({ min: 0, max: 2 }),
    });
    const toPod = (f: F) =>
      pod({
        name: f.uid,
        uid: f.uid,
        node: f.node,
        phase: f.phase,
        ready: f.ready,
        readyAgo: f.rt,
        createdAgo: f.ct,
        cost: String(f.cost),
        restarts: [f.rs],
        sidecarRestarts: [f.side],
      });
    fc.assert(
      fc.property(fArb, fArb, fc.constantFrom(35, 32, 31), fc.boolean(), fc.boolean(), (a, b, minor, log, costOn) => {
        const behaviour = bh(minor, { LogarithmicScaleDown: log, PodDeletionCost: costOn });
        // the Fs hold "ago" values; convert to absolute instants for the naive comparator
        const abs = (f: F): F => ({ ...f, rt: f.rt === null ? null : NOW - f.rt, ct: f.ct === null ? null : NOW - f.ct });
        const [want, step] = naiveLess(abs(a), abs(b), log, costOn, minor >= 32);
        const got = compareForDeletion(rankFacts(toPod(a), 0, a.rank, NOW), rankFacts(toPod(b), 1, b.rank, NOW), behaviour);
        expect(got.less).toBe(want);
        expect(got.criterion).toBe(step);
      }),
      { numRuns: 3000 },
    );
  });
});
