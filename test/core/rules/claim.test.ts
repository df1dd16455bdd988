// §5 the claim decision table (rows 1–9) after §3's active filter (§2 step 6).
import { describe, expect, it } from 'vitest';
import { claimPod } from '../../../src/core/claim.js';
import { labelSelectorAsSelector, type Selector } from '../../../src/core/selector.js';
import type { Controller, Pod } from '../../../src/core/types.js';
import { controllerRefTo, ctl, ctlRC, pod, rc, rs } from './helpers.js';

const RS_UID = 'rs-uid-web';
const OTHER = 'rs-uid-other';

function selectorOf(c: Controller): Selector {
  const r = labelSelectorAsSelector(c.spec.selector);
  if (!r.ok) throw new Error(r.error);
  return r.selector;
}
function decide(c: Controller, p: Pod) {
  const d = claimPod(c, selectorOf(c), p);
  return d === null ? null : { decision: d.decision, reason: d.reason, claimed: d.claimed };
}

const live = ctl(rs({ uid: RS_UID }));
const deleting = ctl(rs({ uid: RS_UID, deleting: true }));
const match = { app: 'web' };
const noMatch = { app: 'other' };

describe('§5 decision table, RS not being deleted', () => {
  it('row 1: controlled by another UID → ignore OwnedByOther (listed when it matches)', () => {
    expect(decide(live, pod({ name: 'p', labels: match, owner: OTHER }))).toEqual({ decision: 'ignore', reason: 'OwnedByOther', claimed: false });
  });
  it('row 1: controlled by another UID and not matching → not part of the plan', () => {
    expect(decide(live, pod({ name: 'p', labels: noMatch, owner: OTHER }))).toBeNull();
  });
  it('row 1: a ref with the RS name and kind but a stale UID is someone else’s (pitfall 3)', () => {
    const p = pod({ name: 'p', labels: match, owner: [controllerRefTo('old-uid', 'web', 'ReplicaSet')] });
    expect(decide(live, p)).toEqual({ decision: 'ignore', reason: 'OwnedByOther', claimed: false });
  });
  it('ownership is by UID only: a ref with our UID but another name/kind is ours', () => {
    const p = pod({ name: 'p', labels: match, owner: [controllerRefTo(RS_UID, 'renamed', 'SomethingElse', 'v9')] });
    expect(decide(live, p)).toEqual({ decision: 'keep', reason: 'OwnedMatching', claimed: true });
  });
  it('row 2: ours and matching → keep OwnedMatching, claimed', () => {
    expect(decide(live, pod({ name: 'p', labels: match, owner: RS_UID }))).toEqual({ decision: 'keep', reason: 'OwnedMatching', claimed: true });
  });
  it('row 4: ours and not matching → release OwnedNotMatching, not claimed', () => {
    expect(decide(live, pod({ name: 'p', labels: noMatch, owner: RS_UID }))).toEqual({ decision: 'release', reason: 'OwnedNotMatching', claimed: false });
    expect(decide(live, pod({ name: 'p', labels: {}, owner: RS_UID }))).toEqual({ decision: 'release', reason: 'OwnedNotMatching', claimed: false });
    expect(decide(live, pod({ name: 'p', labels: null, owner: RS_UID }))).toEqual({ decision: 'release', reason: 'OwnedNotMatching', claimed: false });
  });
  it('row 6: orphan not matching → not part of the plan', () => {
    expect(decide(live, pod({ name: 'p', labels: noMatch }))).toBeNull();
  });
  it('row 9: orphan matching → adopt OrphanMatching, claimed', () => {
    expect(decide(live, pod({ name: 'p', labels: match }))).toEqual({ decision: 'adopt', reason: 'OrphanMatching', claimed: true });
  });
  it('only controller:true refs make a pod owned: controller:false refs leave it an orphan (adoptable)', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: OTHER, controller: false },
      { apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'node-uid' },
    ];
    expect(decide(live, pod({ name: 'p', labels: match, owner: refs }))).toEqual({ decision: 'adopt', reason: 'OrphanMatching', claimed: true });
    // ... and a controller:false ref to *this* RS does not make it ours either (not listed when not matching)
    expect(decide(live, pod({ name: 'q', labels: noMatch, owner: [{ ...controllerRefTo(RS_UID), controller: false }] }))).toBeNull();
  });
  it('the FIRST controller:true ref decides ownership', () => {
    const p = pod({ name: 'p', labels: match, owner: [controllerRefTo(OTHER), controllerRefTo(RS_UID)] });
    expect(decide(live, p)).toEqual({ decision: 'ignore', reason: 'OwnedByOther', claimed: false });
    const q = pod({ name: 'q', labels: match, owner: [controllerRefTo(RS_UID), controllerRefTo(OTHER)] });
    expect(decide(live, q)).toEqual({ decision: 'keep', reason: 'OwnedMatching', claimed: true });
  });
});

describe('§5 decision table, RS being deleted (rows 2, 3, 5)', () => {
  it('row 2: owned matching is still kept and claimed', () => {
    expect(decide(deleting, pod({ name: 'p', labels: match, owner: RS_UID }))).toEqual({ decision: 'keep', reason: 'OwnedMatching', claimed: true });
  });
  it('row 3: owned not matching → ignore ControllerDeleting (not released)', () => {
    expect(decide(deleting, pod({ name: 'p', labels: noMatch, owner: RS_UID }))).toEqual({ decision: 'ignore', reason: 'ControllerDeleting', claimed: false });
  });
  it('row 5: matching orphan → ignore ControllerDeleting (not adopted)', () => {
    expect(decide(deleting, pod({ name: 'p', labels: match }))).toEqual({ decision: 'ignore', reason: 'ControllerDeleting', claimed: false });
  });
  it('row 5: non-matching orphan is not listed', () => {
    expect(decide(deleting, pod({ name: 'p', labels: noMatch }))).toBeNull();
  });
  it('row 1 is unchanged while deleting', () => {
    expect(decide(deleting, pod({ name: 'p', labels: match, owner: OTHER }))).toEqual({ decision: 'ignore', reason: 'OwnedByOther', claimed: false });
  });
});

describe('§2 step 6 / §3: the active filter comes first', () => {
  for (const [label, c] of [
    ['live', live],
    ['deleting', deleting],
  ] as const) {
    it(`${label}: terminal pods → ignore Inactive whatever their ownership (never adopted, released or claimed)`, () => {
      for (const phase of ['Succeeded', 'Failed']) {
        expect(decide(c, pod({ name: 'p', phase, labels: match }))).toEqual({ decision: 'ignore', reason: 'Inactive', claimed: false });
        expect(decide(c, pod({ name: 'p', phase, labels: match, owner: RS_UID }))).toEqual({ decision: 'ignore', reason: 'Inactive', claimed: false });
        expect(decide(c, pod({ name: 'p', phase, labels: noMatch, owner: RS_UID }))).toEqual({ decision: 'ignore', reason: 'Inactive', claimed: false });
        expect(decide(c, pod({ name: 'p', phase, labels: match, owner: OTHER }))).toEqual({ decision: 'ignore', reason: 'Inactive', claimed: false });
      }
    });
    it(`${label}: pods with a deletionTimestamp → ignore Terminating (never adopted, released or claimed)`, () => {
      expect(decide(c, pod({ name: 'p', deleting: true, labels: match }))).toEqual({ decision: 'ignore', reason: 'Terminating', claimed: false });
      expect(decide(c, pod({ name: 'p', deleting: true, labels: match, owner: RS_UID }))).toEqual({
        decision: 'ignore',
        reason: 'Terminating',
        claimed: false,
      });
      expect(decide(c, pod({ name: 'p', deleting: true, labels: noMatch, owner: RS_UID }))).toEqual({
        decision: 'ignore',
        reason: 'Terminating',
        claimed: false,
      });
    });
  }
  it('inactive pods that neither match nor are ours are not listed', () => {
    expect(decide(live, pod({ name: 'p', phase: 'Failed', labels: noMatch }))).toBeNull();
    expect(decide(live, pod({ name: 'p', deleting: true, labels: noMatch, owner: OTHER }))).toBeNull();
  });
});

describe('§5 with special selectors', () => {
  it('empty selector {}: every active orphan is adopted, also one without labels', () => {
    const c = ctl(rs({ uid: RS_UID, selector: {} }));
    expect(decide(c, pod({ name: 'p', labels: null }))?.decision).toBe('adopt');
    expect(decide(c, pod({ name: 'p', labels: { x: 'y' } }))?.decision).toBe('adopt');
  });
  it('nil selector: owned pods are released (nothing matches), orphans not listed', () => {
    const c = ctl(rs({ uid: RS_UID, selector: null }));
    expect(decide(c, pod({ name: 'p', labels: match, owner: RS_UID }))).toEqual({ decision: 'release', reason: 'OwnedNotMatching', claimed: false });
    expect(decide(c, pod({ name: 'p', labels: match }))).toBeNull();
  });
  it('§13 ReplicationController: same table; an RS-owned pod is someone else’s', () => {
    const c = ctlRC(rc({ uid: 'rc-uid' }));
    expect(decide(c, pod({ name: 'p', labels: match }))).toEqual({ decision: 'adopt', reason: 'OrphanMatching', claimed: true });
    expect(decide(c, pod({ name: 'p', labels: match, owner: RS_UID }))).toEqual({ decision: 'ignore', reason: 'OwnedByOther', claimed: false });
    expect(decide(c, pod({ name: 'p', labels: match, owner: [controllerRefTo('rc-uid', 'web-rc', 'ReplicationController', 'v1')] }))?.decision).toBe('keep');
  });
});
