// explain deploy/NAME --image … -o html: a rollout foreseen (RolloutPrediction) turned into the
// timeline page's own data (src/render/history-html/prediction.ts), as history would show it: one
// event per controller write at its second after the change, the ranking reasons and messages as
// the prediction gives them, cause chains back to the change, and the kubelet the assumptions state.
import { describe, expect, it } from 'vitest';
import { predictRollout, rolloutPrediction, type RolloutAssumptions, type RolloutPrediction } from '../../src/core/deployment/rollout.js';
import type { Deployment, Pod } from '../../src/core/types.js';
import { historyHtmlChunks } from '../../src/render/history-html/document.js';
import { buildTimeline } from '../../src/render/history-html/layout.js';
import { deploymentsOf } from '../../src/render/history-html/model.js';
import { PREDICTED_KUBELET, predictedHistory, predictedPodNames } from '../../src/render/history-html/prediction.js';
import { bh, deploy, NOW, rs } from '../core/deployment/helpers.js';
import { pod } from '../core/rules/helpers.js';

const DC = 'system:serviceaccount:kube-system:deployment-controller';
const RSC = 'system:serviceaccount:kube-system:replicaset-controller';
const NEW = 'web-<pod-template-hash>';

/** A prediction as predictRollout's steps make it: 2 old pods, maxSurge 1, maxUnavailable 0. */
function handMade(assumptions: RolloutAssumptions): RolloutPrediction {
  return {
    apiVersion: 'rs-reconcile/v1alpha1',
    kind: 'RolloutPrediction',
    now: '2026-01-01T00:00:00Z',
    kubernetesVersion: '1.35',
    source: 'file',
    deployment: { namespace: 'shop', name: 'web' },
    change: { image: { app: 'nginx:1.27' } },
    assumptions,
    steps: [
      { at: 0, controller: 'deployment', replicaSet: NEW, verb: 'create', replicas: 1, message: 'maxSurge 1: the new ReplicaSet starts with 1' },
      { at: 0, controller: 'replicaset', replicaSet: NEW, verb: 'create', pods: 1 },
      { at: 5, controller: 'deployment', replicaSet: 'web-old', verb: 'scale', from: 2, to: 1, message: 'maxUnavailable 0: 3 available, 1 old may go' },
      { at: 5, controller: 'replicaset', replicaSet: 'web-old', verb: 'delete', pod: 'web-old-b', reason: 'Tie', message: 'web-old-b and web-old-a are equal' },
      { at: 5, controller: 'deployment', replicaSet: NEW, verb: 'scale', from: 1, to: 2, message: 'maxSurge 1: the new ReplicaSet may grow by 1' },
      { at: 5, controller: 'replicaset', replicaSet: NEW, verb: 'create', pods: 1 },
      { at: 10, controller: 'deployment', replicaSet: 'web-old', verb: 'scale', from: 1, to: 0, message: 'all new pods available' },
      { at: 10, controller: 'replicaset', replicaSet: 'web-old', verb: 'delete', pod: 'web-old-a', reason: 'ScaleToZero', message: 'scaling to 0' },
    ],
    sizes: [],
    complete: true,
    completeAfterSeconds: 10,
    newReplicaSet: NEW,
    end: { state: 'complete', at: 10 },
  };
}

const t = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString();

describe('a rollout foreseen as the timeline page’s events', () => {
  it('one event per write, at its second after the change, by the controller that makes it, with the reasons and messages as foreseen', () => {
    const doc = predictedHistory(handMade({ podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 }));
    expect(doc).toMatchObject({ kind: 'PredictedHistory', source: 'prediction', kubernetesVersion: '1.35', from: t(0), to: t(10) });
    const rows = doc.events.map((e) => [e.time, e.actor.user, e.actor.controller, e.verb, e.controller?.name, e.pod, e.reason, e.predicted]);
    expect(rows).toEqual([
      [t(0), DC, false, 'create', NEW, null, null, null],
      [t(0), RSC, true, 'create', NEW, `${NEW}-new2`, 'TooFewReplicas', true],
      [t(5), DC, false, 'update', 'web-old', null, null, null],
      [t(5), RSC, true, 'delete', 'web-old', 'web-old-b', 'Tie', true],
      [t(5), DC, false, 'update', NEW, null, null, null],
      [t(5), RSC, true, 'create', NEW, `${NEW}-new4`, 'TooFewReplicas', true],
      [t(10), DC, false, 'update', 'web-old', null, null, null],
      [t(10), RSC, true, 'delete', 'web-old', 'web-old-a', 'ScaleToZero', true],
    ]);
    expect(doc.events[2].message).toBe('replicas 2 → 1: maxUnavailable 0: 3 available, 1 old may go');
    expect(doc.events[0].message).toBe(`created ReplicaSet ${NEW} with 1 replica: maxSurge 1: the new ReplicaSet starts with 1`);
    expect(doc.events[3].message).toBe('web-old-b and web-old-a are equal');
    expect(doc.events.every((e) => e.controller?.namespace === 'shop')).toBe(true);
  });

  it('each write’s cause goes back to the change, through the kubelet’s Ready changes that let the deployment controller act', () => {
    const doc = predictedHistory(handMade({ podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 }));
    const chain = (i: number) => doc.events[i].cause!.map((s) => `${s.time.slice(17, 19)} ${s.user} ${s.object.kind}/${s.object.name} ${s.field}: ${s.change}`);
    const change = '00 you Deployment/web spec.template: image app=nginx:1.27';
    expect(chain(0)).toEqual([change]);
    expect(chain(1)).toEqual([`00 ${DC} ReplicaSet/${NEW} the object: created with 1 replica`, change]);
    // at 5s: the first new pod turned ready (created at 0s, ready 5s later); both writes of that sync see it
    const ready = `05 ${PREDICTED_KUBELET} Pod/${NEW}-new2 a Ready condition: False → True`;
    expect(chain(2)).toEqual([ready, change]);
    expect(chain(3)).toEqual([`05 ${DC} ReplicaSet/web-old spec.replicas: 2 → 1`, ready, change]);
    expect(chain(4)).toEqual([ready, change]);
    expect(chain(6)).toEqual([`10 ${PREDICTED_KUBELET} Pod/${NEW}-new4 a Ready condition: False → True`, change]);
    // the page groups both ReplicaSets under the Deployment and draws every pod
    expect(deploymentsOf(doc.events)).toEqual(
      new Map([
        [`ReplicaSet/shop/${NEW}`, 'web'],
        ['ReplicaSet/shop/web-old', 'web'],
      ]),
    );
    const model = buildTimeline(doc);
    expect(model.rows.filter((r) => r.kind === 'deployment').map((r) => r.name)).toEqual(['web']);
    expect(model.bars.map((b) => b.name).sort()).toEqual([`${NEW}-new2`, `${NEW}-new4`, 'web-old-a', 'web-old-b']);
    const ready2 = model.bars.find((b) => b.name === `${NEW}-new2`)!.segments;
    expect(ready2.at(-1)).toMatchObject({ from: Date.parse(t(5)), state: 'ready' });
  });

  it('--pod-gone-after: a deleted pod goes when the kubelet deletes it, within the prediction; never ready: no Ready change', () => {
    const doc = predictedHistory(handMade({ podReadyAfterSeconds: null, podGoneAfterSeconds: 3 }));
    const kubelet = doc.events.filter((e) => e.actor.user === PREDICTED_KUBELET);
    // web-old-a is deleted at 10s, the end: its final delete at 13s is past what the prediction follows
    expect(kubelet.map((e) => [e.time, e.verb, e.pod, e.controller?.name])).toEqual([[t(8), 'delete', 'web-old-b', 'web-old']]);
    expect(kubelet[0].message).toBe('deleted pod web-old-b: gone 3s after its delete (--pod-gone-after)');
    // in time order, between the writes of 5s and of 10s
    expect(doc.events.map((e) => e.time)).toEqual([...doc.events.map((e) => e.time)].sort());
    expect(doc.events.flatMap((e) => e.cause ?? []).filter((s) => s.field === 'a Ready condition')).toEqual([]);
    expect(doc.events.find((e) => e.pod === 'web-old-a')!.cause!.map((s) => `${s.user} ${s.object.name} ${s.change}`)).toEqual([
      `${DC} web-old 1 → 0`,
      `${PREDICTED_KUBELET} web-old-b deleted`,
      'you web image app=nginx:1.27',
    ]);
    const bar = buildTimeline(doc).bars.find((b) => b.name === 'web-old-b')!;
    expect([bar.end, bar.deletedInLog, bar.segments.at(-1)!.state]).toEqual([Date.parse(t(8)), true, 'terminating']);
  });

  it('a scale alone is your scale of the Deployment; the page’s header says what it assumes and how it ends', () => {
    const p = { ...handMade({ podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 }), change: { replicas: 6 } };
    const doc = predictedHistory(p);
    expect(doc.events[0].cause).toEqual([
      { time: t(0), user: 'you', verb: 'scale', object: { kind: 'Deployment', namespace: 'shop', name: 'web' }, field: 'spec.replicas', change: '→ 6' },
    ]);
    expect(doc.prediction).toEqual({
      deployment: { namespace: 'shop', name: 'web' },
      change: 'scale --replicas 6',
      assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 },
      assumes:
        "new pods turn ready 5s after they are created; deleted pods are gone at once; the pods that exist keep their state; new pods are named NAME-newN in place of the server's random suffix",
      result: 'complete after 10s: 4 ReplicaSet writes, 2 pods created, 2 pods deleted',
      complete: true,
      evaluatedAt: '2026-01-01T00:00:00Z',
      snapshot: 'file',
    });
    const html = [...historyHtmlChunks(doc, { script: '/* page */' })].join('');
    expect(html).toContain('<title>predicted rollout of deploy/web -n shop after scale --replicas 6: a prediction, not a record (rs-reconcile)</title>');
    const embedded = /<script type="application\/json" id="history-document">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(embedded)).toEqual(doc);
  });
});

describe('the names of the pods a prediction creates', () => {
  it('are those predictRollout gives them (its stall message names the pods that never turn ready)', () => {
    const old = rs({ name: 'web-old', replicas: 3, revision: 1, desired: 3, image: 'nginx:1.26' });
    const pods: Pod[] = ['a', 'b', 'c'].map((x) => {
      const p = pod({ name: `web-old-${x}`, owner: 'uid-web-old', labels: { ...old.spec.template!.metadata!.labels! }, ready: true, node: 'node-1' });
      p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-old', uid: 'uid-web-old', controller: true }];
      return p;
    });
    const d: Deployment = deploy({
      replicas: 3,
      maxSurge: 2,
      maxUnavailable: 0,
      progressDeadlineSeconds: null,
      image: 'nginx:1.27',
      generation: 2,
      status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3 },
    });
    const assumptions = { podReadyAfterSeconds: null, podGoneAfterSeconds: 0 };
    const result = predictRollout({ deployment: d, replicaSets: [old], pods, nowMs: NOW, behaviour: bh(35), assumptions });
    expect(result.end).toMatchObject({ state: 'stalled', reason: 'PodsNeverReady' });
    const p = rolloutPrediction(
      { nowMs: NOW, behaviour: bh(35), source: 'file', deployment: d, change: { image: { app: 'nginx:1.27' } }, assumptions },
      result,
    );
    const named = [...predictedPodNames(p.steps).values()].flat();
    expect(named).toHaveLength(2);
    const message = (p.end as { message: string }).message;
    expect(message.startsWith(`${named.join(', ')} are not ready`)).toBe(true);
    expect(predictedHistory(p).events.flatMap((e) => (e.verb === 'create' && e.pod ? [e.pod] : []))).toEqual(named);
  });
});
