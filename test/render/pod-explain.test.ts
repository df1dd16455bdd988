import { describe, expect, it } from 'vitest';
import type { DeletionCase, PodExplanation } from '../../src/core/pod-explain-types.js';
import { makeChalk } from '../../src/render/color.js';
import { ordinal, renderPodExplanation } from '../../src/render/pod-explain.js';
import { NOW } from './fixtures.js';

const plain = makeChalk(0);
const render = (e: PodExplanation, width = 100) => renderPodExplanation(e, { chalk: plain, width });
const flat = (s: string) => s.replace(/\s+/g, ' ');

function explanation(partial: Partial<PodExplanation> = {}): PodExplanation {
  return {
    apiVersion: 'rs-reconcile/v1alpha1',
    kind: 'PodExplanation',
    now: NOW,
    kubernetesVersion: '1.35',
    source: 'file',
    pod: { namespace: 'shop', name: 'web-7d4f8-b', uid: 'p-2', phase: 'Running', ready: true, node: 'node-2' },
    owner: { kind: 'ReplicaSet', name: 'web-7d4f8', uid: 'rs-1', found: true },
    controllers: [
      {
        kind: 'ReplicaSet',
        namespace: 'shop',
        name: 'web-7d4f8',
        uid: 'rs-1',
        decision: 'keep',
        reason: 'OwnedMatching',
        message: 'owned by this ReplicaSet and matches its selector',
        delete: null,
      },
    ],
    orphan: null,
    deletion: null,
    notes: [],
    ...partial,
  };
}

const notPicked: DeletionCase = {
  replicas: 3,
  pods: 3,
  deletes: 0,
  rank: 2,
  picked: false,
  pickedAtOrBelow: 1,
  keep: { current: 0, cost: null, blockedBy: 'NotPicked', message: 'it is not picked: this sync deletes no pod' },
};
const picked: DeletionCase = {
  replicas: 1,
  pods: 3,
  deletes: 2,
  rank: 2,
  picked: true,
  pickedAtOrBelow: 1,
  keep: { current: 0, cost: 6, blockedBy: null, message: 'a controller.kubernetes.io/pod-deletion-cost of 6 or more (now 0) keeps it' },
};

describe('renderPodExplanation', () => {
  it('heads with the pod, its state and its owner', () => {
    const out = render(explanation());
    expect(out.split('\n')[0]).toBe('Pod shop/web-7d4f8-b');
    expect(out).toMatch(/State:\s+Running, ready, on node-2/);
    expect(out).toMatch(/Owner:\s+ReplicaSet web-7d4f8 \(uid rs-1\): exists/);
    expect(out).toMatch(/Controllers \(1\)\n {2}ReplicaSet web-7d4f8: keep \(OwnedMatching\)\n {4}owned by this ReplicaSet/);
    expect(out).not.toMatch(/orphaned|Deletion order|Notes/);
  });

  it('an orphan: no owner, why, and the evidence marked circumstantial when it is', () => {
    const out = render(
      explanation({
        owner: null,
        controllers: [],
        orphan: {
          reason: 'OwnerDeletedOrphaned',
          likely: true,
          message: 'its owner was likely deleted with --cascade=orphan',
          evidence: ['no controller reference', 'no ReplicaSet named web-7d4f8'],
        },
      }),
    );
    expect(out).toMatch(/Owner:\s+none \(no controller reference\)/);
    expect(out).toContain('Why it is orphaned\n  Its owner was likely deleted with --cascade=orphan.');
    expect(out).toContain('Evidence (circumstantial):\n    - no controller reference\n    - no ReplicaSet named web-7d4f8');
    expect(flat(out)).toContain('No ReplicaSet or ReplicationController in its namespace selects or owns this pod');
  });

  it('an owner that is gone: where it is missing from, and plain evidence when it is a fact', () => {
    const out = render(
      explanation({
        source: 'cluster',
        owner: { kind: 'ReplicaSet', name: 'web-7d4f8', uid: 'old', found: false },
        orphan: { reason: 'OwnerRecreated', likely: false, message: 'its owner ReplicaSet web-7d4f8 was re-created under a new uid', evidence: ['a', 'b'] },
      }),
    );
    expect(out).toMatch(/Owner:\s+ReplicaSet web-7d4f8 \(uid old\): does not exist/);
    expect(out).toContain('Why its owner is gone');
    expect(out).toContain('  Evidence:\n');
    expect(render(explanation({ owner: { kind: 'StatefulSet', name: 'db', uid: 's', found: false } }))).toMatch(/StatefulSet db \(uid s\): not read here/);
  });

  it('the deletion order now and with --replicas, and the cost only where the pod is picked', () => {
    const out = render(
      explanation({
        controllers: [{ ...explanation().controllers[0], delete: { order: 2, reason: 'ReadyShorter', message: 'web-7d4f8-b has been ready for 47h' } }],
        deletion: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d4f8', now: notPicked, whatIf: picked },
      }),
    );
    expect(out).toContain('Controllers (1), as if ReplicaSet web-7d4f8 were scaled to 1');
    // deleted by this sync: it says "delete", not the "keep" of its claim
    expect(out).toMatch(/ReplicaSet web-7d4f8: delete \(OwnedMatching\)/);
    expect(render(explanation())).not.toContain(': delete (');
    expect(flat(out)).toContain('Deleted by this sync, 2nd in its order (ReadyShorter): web-7d4f8-b has been ready for 47h');
    const section = out.slice(out.indexOf('Deletion order in ReplicaSet web-7d4f8'));
    expect(flat(section)).toContain(
      'Now: 3 desired, 3 pods counted: it ranks 2nd of 3 to go (a scale to 1 or fewer picks it); this sync deletes no pod: it stays.',
    );
    expect(flat(section)).toContain(
      'With --replicas 1: 1 desired, 3 pods counted: it ranks 2nd of 3 to go (a scale to 1 or fewer picks it); this sync deletes 2 pods: it is picked.',
    );
    expect(section.match(/To keep it:/g)).toHaveLength(1);
    expect(flat(section)).toContain('To keep it: a controller.kubernetes.io/pod-deletion-cost of 6 or more (now 0) keeps it');
  });

  it('the last pod to go is picked only by a scale to 0', () => {
    const out = render(
      explanation({ deletion: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d4f8', now: { ...notPicked, rank: 3, pickedAtOrBelow: 0 }, whatIf: null } }),
    );
    expect(flat(out)).toContain('it ranks 3rd of 3 to go (only a scale to 0 picks it)');
  });

  it('notes, width and escapes', () => {
    const long = explanation({
      notes: ['--replicas 2 has nothing to scale: no controller counts this pod as its own'],
      pod: { ...explanation().pod, name: 'evil\x1b[31m-pod' },
    });
    const out = render(long, 80);
    expect(out).toContain('Notes\n  - --replicas 2 has nothing to scale');
    expect(out).not.toContain('\x1b');
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const colored = renderPodExplanation(long, { chalk: makeChalk(1), width: 80 });
    expect(colored.replace(/\x1b\[[0-9;]*m/g, '')).toBe(out);
  });

  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});
