// recreate_test.go's facts: old ReplicaSets to 0 first, the new one only once no old pod runs
// (oldPodsRunning: status.replicas of old ReplicaSets, or their pods not Failed/Succeeded).
import { describe, expect, it } from 'vitest';
import { oldPodsRunning } from '../../../src/core/deployment/recreate.js';
import { REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import type { Pod, ReplicaSet } from '../../../src/core/types.js';
import { acts, cond, decide, deploy, rs } from './helpers.js';

function podOf(owner: ReplicaSet, name: string, phase: string): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { ...(owner.spec.template?.metadata?.labels ?? {}) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.metadata.name, uid: owner.metadata.uid, controller: true }],
    },
    status: { phase },
  };
}

describe('oldPodsRunning', () => {
  const old = () => rs({ name: 'web-old', replicas: 0, actual: 0, image: 'nginx:1.26', revision: 1 });
  const neu = () => rs({ name: 'web-new', replicas: 0, actual: 0, revision: 2 });
  const map = (o: ReplicaSet, phases: string[]) => new Map([[o.metadata.uid, phases.map((p, i) => podOf(o, `p${i}`, p))]]);
  it('no old ReplicaSets → false', () => expect(oldPodsRunning(neu(), [], new Map())).toBeNull());
  it('an old ReplicaSet with status.replicas > 0 → true', () => {
    expect(oldPodsRunning(neu(), [rs({ name: 'web-old', replicas: 0, actual: 1, image: 'nginx:1.26' })], new Map())).toContain('status.replicas');
  });
  it('no pods and no status.replicas → false', () => expect(oldPodsRunning(neu(), [old()], map(old(), []))).toBeNull());
  it('only terminal pods (Failed, Succeeded) → false', () => expect(oldPodsRunning(neu(), [old()], map(old(), ['Failed', 'Succeeded']))).toBeNull());
  it('an Unknown, Pending or Running pod → true', () => {
    for (const phase of ['Unknown', 'Pending', 'Running']) expect(oldPodsRunning(neu(), [old()], map(old(), [phase]))).toContain(phase);
  });
  it('terminal and pending → true', () => expect(oldPodsRunning(neu(), [old()], map(old(), ['Failed', 'Pending']))).not.toBeNull());
  it("the new ReplicaSet's pods do not count", () => {
    const n = neu();
    expect(oldPodsRunning(n, [old()], map(n, ['Running']))).toBeNull();
  });
});

describe('rolloutRecreate', () => {
  const d = () =>
    deploy({
      strategy: 'Recreate',
      replicas: 2,
      image: 'nginx:1.27',
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 60000)] },
    });
  it('old pods first: old 2 → 0, no new ReplicaSet yet', () => {
    const old = rs({ name: 'web-old', replicas: 2, image: 'nginx:1.26', revision: 1, desired: 2, max: 2 });
    expect(acts(decide(d(), [old]))).toEqual(['scale web-old 2→0']);
  });
  it('old scaled to 0 but a pod still running: wait', () => {
    const old = rs({ name: 'web-old', replicas: 0, actual: 0, image: 'nginx:1.26', revision: 1, desired: 2, max: 2 });
    const r = decide(d(), [old], { pods: [podOf(old, 'web-old-x', 'Running')] });
    expect(r.actions).toEqual([]);
    expect(r.notes.join(' ')).toContain('Recreate waits: old pod web-old-x is Running');
  });
  it('no old pod left: the new ReplicaSet is created with all the replicas', () => {
    const old = rs({ name: 'web-old', replicas: 0, actual: 0, image: 'nginx:1.26', revision: 1, desired: 2, max: 2 });
    const r = decide(d(), [old], { pods: [podOf(old, 'web-old-x', 'Succeeded')] });
    expect(acts(r)).toEqual(['create ?=2']);
  });
  it('an existing new ReplicaSet below spec.replicas is scaled up to it', () => {
    const old = rs({ name: 'web-old', replicas: 0, actual: 0, image: 'nginx:1.26', revision: 1, desired: 2, max: 2, ageSeconds: 900 });
    const neu = rs({ name: 'web-new', replicas: 1, revision: 2, desired: 2, max: 2, ageSeconds: 60 });
    const dd = d();
    dd.metadata.annotations = { [REVISION_ANNOTATION]: '2' };
    expect(acts(decide(dd, [old, neu], { pods: [] }))).toEqual(['scale web-new 1→2']);
  });
});
