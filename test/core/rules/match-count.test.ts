// Performance shape, not timing: planning 20k pods in 2k ReplicaSets across 20 namespaces must
// call selector matching O(pods) times, not O(pods × controllers per namespace). Counted by
// spying on the selector implementation's `matches` (shared by every converted selector).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import { labelSelectorAsSelector } from '../../../src/core/selector.js';
import type { Pod, ReplicaSet, Snapshot } from '../../../src/core/types.js';
import { ago, bh, DAY, NOW } from './helpers.js';

function world(nRS: number, podsPerRS: number, nNS: number, withDeployments: boolean, style: 'matchLabels' | 'expressions' = 'matchLabels'): Snapshot {
  const replicaSets: ReplicaSet[] = [];
  const pods: Pod[] = [];
  for (let r = 0; r < nRS; r++) {
    const ns = `team-${r % nNS}`;
    const labels = { app: `app-${r}`, 'pod-template-hash': `h${r}` };
    const uid = `rs-${r}`;
    // a quarter of them drift: one pod too many, so the deletion ranking (and related pods) runs
    const drift = r % 4 === 0;
    replicaSets.push({
      metadata: {
        name: `app-${r}-h${r}`,
        namespace: ns,
        uid,
        generation: 1,
        ...(withDeployments
          ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: `app-${r}`, uid: `dep-${r >> 1}`, controller: true }] }
          : {}),
      },
      spec: {
        replicas: drift ? podsPerRS - 1 : podsPerRS,
        selector:
          style === 'matchLabels'
            ? { matchLabels: labels }
            : {
                matchExpressions: [
                  { key: 'app', operator: 'In', values: [`app-${r}`, `app-${r}-canary`] },
                  { key: 'pod-template-hash', operator: 'Exists' },
                ],
              },
        template: { metadata: { labels } },
      },
      status: { replicas: podsPerRS, fullyLabeledReplicas: podsPerRS, readyReplicas: podsPerRS, availableReplicas: podsPerRS, observedGeneration: 1 },
    });
    for (let i = 0; i < podsPerRS; i++) {
      pods.push({
        metadata: {
          name: `app-${r}-h${r}-${i}`,
          namespace: ns,
          uid: `pod-${r}-${i}`,
          labels,
          creationTimestamp: ago(DAY + i * 1000),
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${r}-h${r}`, uid, controller: true }],
        },
        spec: { nodeName: `node-${(r + i) % 50}` },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(DAY) }] },
      });
    }
  }
  return { controllers: { ReplicaSet: replicaSets, ReplicationController: [] }, pods };
}

const proto = Object.getPrototypeOf((labelSelectorAsSelector({ matchLabels: { a: 'b' } }) as { ok: true; selector: object }).selector);

describe('selector matching is O(pods)', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const [withDeployments, style] of [
    [false, 'matchLabels'],
    [true, 'matchLabels'],
    [true, 'expressions'],
  ] as const) {
    it(`20k pods, 2k ReplicaSets, 20 namespaces${withDeployments ? ', Deployment siblings' : ''}, ${style} selectors: at most a few matches per pod`, () => {
      const s = world(2000, 10, 20, withDeployments, style);
      const spy = vi.spyOn(proto, 'matches');
      const plan = planSnapshot(s, { now: NOW, behaviour: bh(35), source: 'file' });
      expect(plan.controllers).toHaveLength(2000);
      expect(plan.summary.delete).toBe(500);
      const calls = spy.mock.calls.length;
      // a per-controller namespace scan would be 2k × 1k = 2 000 000 calls
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThanOrEqual(10 * s.pods.length);
    });
  }
});
