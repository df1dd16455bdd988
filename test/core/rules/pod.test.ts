// §3 active / terminating / ready / available, §7 deletion cost parsing and restart counts,
// §5 controller ref. Expectations from the reference.
import { describe, expect, it } from 'vitest';
import {
  controllerRef,
  deletionCost,
  isPodActive,
  isPodAvailable,
  isPodReady,
  isPodTerminating,
  maxContainerRestarts,
  parseDeletionCost,
  podReadyTime,
} from '../../../src/core/pod.js';
import { calculateStatus } from '../../../src/core/status.js';
import { ago, bh, ctl, NOW, pod, rs, SECOND } from './helpers.js';

describe('§3 IsPodActive / IsPodTerminating', () => {
  it.each([
    ['Pending', false, true, false],
    ['Running', false, true, false],
    ['Unknown', false, true, false],
    ['', false, true, false], // empty phase
    ['Succeeded', false, false, false],
    ['Failed', false, false, false],
    ['Running', true, false, true],
    ['Pending', true, false, true],
    ['', true, false, true],
    ['Succeeded', true, false, false],
    ['Failed', true, false, false],
  ])('phase %j deleting=%s → active %s, terminating %s', (phase, deleting, active, terminating) => {
    const p = pod({ name: 'p', phase, deleting });
    expect(isPodActive(p)).toBe(active);
    expect(isPodTerminating(p)).toBe(terminating);
  });
  it('a pod with no status at all is active', () => {
    const p = pod({ name: 'p' });
    delete p.status;
    expect(isPodActive(p)).toBe(true);
    expect(isPodTerminating(p)).toBe(false);
  });
});

describe('§3 readiness: the FIRST Ready condition decides; phase not consulted', () => {
  const withConds = (conds: any[], phase = 'Running') => {
    const p = pod({ name: 'p', phase });
    p.status!.conditions = conds;
    return p;
  };
  it('first Ready True → ready, even if a later Ready is False', () => {
    expect(
      isPodReady(
        withConds([
          { type: 'Ready', status: 'True' },
          { type: 'Ready', status: 'False' },
        ]),
      ),
    ).toBe(true);
  });
  it('first Ready False → not ready, even if a later Ready is True', () => {
    expect(
      isPodReady(
        withConds([
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'False' },
          { type: 'Ready', status: 'True' },
        ]),
      ),
    ).toBe(false);
  });
  it('no Ready condition, Unknown status, lower-case "true" → not ready', () => {
    expect(isPodReady(withConds([]))).toBe(false);
    expect(isPodReady(withConds([{ type: 'ContainersReady', status: 'True' }]))).toBe(false);
    expect(isPodReady(withConds([{ type: 'Ready', status: 'Unknown' }]))).toBe(false);
    expect(isPodReady(withConds([{ type: 'Ready', status: 'true' }]))).toBe(false);
  });
  it('phase is ignored: a Pending or Succeeded pod with Ready True is ready', () => {
    expect(isPodReady(withConds([{ type: 'Ready', status: 'True' }], 'Pending'))).toBe(true);
    expect(isPodReady(withConds([{ type: 'Ready', status: 'True' }], 'Succeeded'))).toBe(true);
  });
  it('podReadyTime (§7 criterion 6): Ready transition time of a ready pod; zero when missing or not ready', () => {
    expect(podReadyTime(pod({ name: 'p', ready: true, readyAgo: 5 * SECOND }))).toBe(NOW - 5 * SECOND);
    expect(podReadyTime(pod({ name: 'p', ready: true, readyAgo: null }))).toBeNull();
    expect(podReadyTime(pod({ name: 'p', ready: false, readyAgo: 5 * SECOND }))).toBeNull();
  });
});

describe('§3 availability with minReadySeconds', () => {
  const at = (readyAgo: number | null, min: number, minor: number, ready = true) =>
    isPodAvailable(pod({ name: 'p', ready, readyAgo }), min, NOW, bh(minor).availabilityInclusive);

  it('minReadySeconds 0: every ready pod is available (also without transition time)', () => {
    expect(at(0, 0, 35)).toBe(true);
    expect(at(null, 0, 35)).toBe(true);
    expect(at(-60 * SECOND, 0, 35)).toBe(true);
  });
  it('not ready is never available', () => {
    expect(at(100 * SECOND, 0, 35, false)).toBe(false);
    expect(at(100 * SECOND, 10, 35, false)).toBe(false);
  });
  it('boundary transition + minReadySeconds == now: available on 1.34+ (<=), not on 1.33 (<)', () => {
    expect(at(10 * SECOND, 10, 34)).toBe(true);
    expect(at(10 * SECOND, 10, 35)).toBe(true);
    expect(at(10 * SECOND, 10, 33)).toBe(false);
    expect(at(10 * SECOND, 10, 24)).toBe(false);
  });
  it('one second either side of the boundary does not depend on the version', () => {
    for (const minor of [33, 34, 35]) {
      expect(at(11 * SECOND, 10, minor)).toBe(true);
      expect(at(9 * SECOND, 10, minor)).toBe(false);
    }
  });
  it('a null / missing Ready transition time is never available when minReadySeconds > 0', () => {
    expect(at(null, 1, 35)).toBe(false);
    const p = pod({ name: 'p', ready: true });
    delete p.status!.conditions![1].lastTransitionTime;
    expect(isPodAvailable(p, 1, NOW, true)).toBe(false);
    const zero = pod({ name: 'p', ready: true });
    zero.status!.conditions![1].lastTransitionTime = '0001-01-01T00:00:00Z';
    expect(isPodAvailable(zero, 1, NOW, true)).toBe(false);
  });
  it('availability uses the FIRST Ready condition', () => {
    const p = pod({ name: 'p', ready: true, readyAgo: 100 * SECOND });
    p.status!.conditions!.push({ type: 'Ready', status: 'True', lastTransitionTime: ago(1 * SECOND) });
    expect(isPodAvailable(p, 50, NOW, true)).toBe(true);
  });
  it('calculateStatus counts availability with the version of the behaviour (boundary pod)', () => {
    const c = ctl(rs({ minReadySeconds: 10, replicas: 1 }));
    const p = pod({ name: 'p', owner: c.metadata.uid, ready: true, readyAgo: 10 * SECOND });
    expect(calculateStatus(c, [p], null, null, NOW, bh(35)).availableReplicas).toBe(1);
    expect(calculateStatus(c, [p], null, null, NOW, bh(33)).availableReplicas).toBe(0);
  });
});

describe('§7 criterion 4: deletion cost parsing', () => {
  it.each([
    ['+5', 0, false],
    ['007', 0, false],
    [' 5', 0, false],
    ['5 ', 0, false],
    ['1.5', 0, false],
    ['1e3', 0, false],
    ['0x10', 0, false],
    ['', 0, false],
    ['-', 0, false],
    ['2147483648', 0, false],
    ['-2147483649', 0, false],
    ['abc', 0, false],
    ['00', 0, false],
    ['1_000', 0, false],
    ['-007', -7, true],
    ['-2147483648', -2147483648, true],
    ['2147483647', 2147483647, true],
    ['0', 0, true],
    ['5', 5, true],
    ['-5', -5, true],
    ['100', 100, true],
  ])('%j → cost %d (valid %s)', (raw, cost, valid) => {
    const r = parseDeletionCost(raw);
    expect(r.cost).toBe(cost);
    expect(r.valid).toBe(valid);
    expect(deletionCost(pod({ name: 'p', cost: raw }))).toBe(cost);
  });
  it('absent annotation → 0', () => {
    expect(deletionCost(pod({ name: 'p' }))).toBe(0);
  });
});

describe('§7 criterion 7: restart counts', () => {
  it('max over regular containers', () => {
    expect(maxContainerRestarts(pod({ name: 'p', restarts: [1, 7, 3] })).regular).toBe(7);
    expect(maxContainerRestarts(pod({ name: 'p', restarts: [] })).regular).toBe(0);
  });
  it('sidecars: max over init containers with restartPolicy Always only; ordinary init containers ignored', () => {
    const p = pod({ name: 'p', restarts: [2], sidecarRestarts: [4, 1], initRestarts: [9] });
    expect(maxContainerRestarts(p)).toEqual({ regular: 2, sidecar: 4 });
    const q = pod({ name: 'q', restarts: [2], initRestarts: [9] });
    expect(maxContainerRestarts(q)).toEqual({ regular: 2, sidecar: 0 });
  });
  it('an init container status whose name is not a declared sidecar does not count', () => {
    const p = pod({ name: 'p', sidecarRestarts: [1] });
    p.status!.initContainerStatuses!.push({ name: 'unknown', restartCount: 50 });
    expect(maxContainerRestarts(p).sidecar).toBe(1);
  });
  it('init containers are not regular containers', () => {
    const p = pod({ name: 'p', restarts: [0], sidecarRestarts: [6] });
    expect(maxContainerRestarts(p).regular).toBe(0);
  });
});

describe('§5 controller ref: first ownerReference with controller: true', () => {
  it('controller: false / absent do not count; the first controller: true wins', () => {
    const p = pod({
      name: 'p',
      owner: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'u-a', controller: false },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: 'u-b' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'c', uid: 'u-c', controller: true },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'd', uid: 'u-d', controller: true },
      ],
    });
    expect(controllerRef(p)?.uid).toBe('u-c');
    expect(controllerRef(pod({ name: 'q' }))).toBeUndefined();
    expect(controllerRef(pod({ name: 'r', owner: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'x', controller: false }] }))).toBeUndefined();
  });
});
