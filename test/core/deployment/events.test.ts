// The Events the deployment controller's writes carry (recorded by the runtime once the write
// succeeded): getNewReplicaSet's "Scaled up" on a create with replicas, scaleReplicaSet's
// ScalingReplicaSet on every change of size (not on an annotations-only update), in the words of
// each minor's sync.go (1.24; 1.25–1.31; 1.32+).
import { describe, expect, it } from 'vitest';
import type { DeploymentDecision } from '../../../src/core/deployment/types.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { decide, deploy, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);

const events = (dec: DeploymentDecision) =>
  dec.writes.flatMap((w) =>
    w.kind === 'createReplicaSet' || w.kind === 'updateReplicaSet' ? [w.event && `${w.event.type} ${w.event.reason}: ${w.event.message}`] : [],
  );

describe('ScalingReplicaSet, minor by minor', () => {
  it('a create with replicas: "to N" before 1.32, "from 0 to N" from 1.32 (the placeholder name stands for the server name)', () => {
    for (const minor of MINORS) {
      const expected = minor >= 32 ? 'Scaled up replica set web-<pod-template-hash> from 0 to 3' : 'Scaled up replica set web-<pod-template-hash> to 3';
      expect(events(decide(deploy({ replicas: 3 }), [], { minor })), `1.${minor}`).toEqual([`Normal ScalingReplicaSet: ${expected}`]);
    }
  });

  it('a create of 0 replicas records nothing', () => {
    for (const minor of MINORS) expect(events(decide(deploy({ replicas: 0 }), [], { minor })), `1.${minor}`).toEqual([null]);
  });

  it('a scale: "to N" (1.24), "to N from M" (1.25–1.31), "from M to N" (1.32+), up and down', () => {
    for (const minor of MINORS) {
      const words = (op: string, from: number, to: number) =>
        minor >= 32
          ? `Scaled ${op} replica set web-a from ${from} to ${to}`
          : minor >= 25
            ? `Scaled ${op} replica set web-a to ${to} from ${from}`
            : `Scaled ${op} replica set web-a to ${to}`;
      for (const [from, to, op] of [
        [3, 5, 'up'],
        [5, 2, 'down'],
      ] as const) {
        const d = deploy({ replicas: to, annotations: { 'deployment.kubernetes.io/revision': '1' } });
        const current = rs({ name: 'web-a', replicas: from, revision: 1, desired: from, max: from + 1 });
        expect(events(decide(d, [current], { minor })), `1.${minor} ${from}→${to}`).toEqual([`Normal ScalingReplicaSet: ${words(op, from, to)}`]);
      }
    }
  });

  it('proportional scaling: the ReplicaSet whose size stays gets its annotations updated, with no Event', () => {
    const d = deploy({ replicas: 5, maxSurge: 0, maxUnavailable: 0, annotations: { 'deployment.kubernetes.io/revision': '2' }, status: { replicas: 4 } });
    const old = rs({ name: 'web-old', replicas: 2, image: 'nginx:1.20', revision: 1, desired: 4, max: 4, ageSeconds: 1000 });
    const current = rs({ name: 'web-new', replicas: 2, revision: 2, desired: 4, max: 4, ageSeconds: 10 });
    const dec = decide(d, [old, current], { minor: 36 });
    const updates = dec.writes.flatMap((w) => (w.kind === 'updateReplicaSet' ? [`${w.replicaSet.metadata.name} ${w.from}→${w.to}`] : []));
    expect(updates).toHaveLength(2);
    const grown = updates.find((u) => u.endsWith('2→3'));
    expect(grown).toBeDefined();
    const name = grown!.split(' ')[0];
    expect(events(dec).filter((e) => e !== null)).toEqual([`Normal ScalingReplicaSet: Scaled up replica set ${name} from 2 to 3`]);
    expect(events(dec)).toContain(null);
  });
});
