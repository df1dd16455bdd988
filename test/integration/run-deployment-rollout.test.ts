// A whole rollout: `run --controllers replicaset,deployment` on the sandbox rolls a Deployment to a
// new image (random sizes and strategies), and the ReplicaSet sizes the deployment controller
// wrote (its creates and updates of ReplicaSets, read from the audit file) are held against
// predictRollout's, predicted from the settled state before the change under the sandbox's
// kubelet (pods ready a moment after they are created, gone a moment after they are deleted).
// What must hold (docs/deployment-controller.md §11):
// - Recreate: the sizes equal the prediction's, step for step (no step depends on how readiness
//   is observed: old to 0, then the new one at full size once the old pods are gone);
// - RollingUpdate: the first sync's writes equal the prediction's first turn (it starts from the
//   settled state), every size written keeps the sum within replicas + maxSurge, the new
//   ReplicaSet only grows and the old one only shrinks, and the end equals the prediction's end.
//   The steps in between may differ: a sync sees the readiness the informer has delivered, one
//   pod or several at a time, where the prediction sees every pod of a batch turn ready together.
// Every wait polls a condition with a generous deadline, never a fixed sleep.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/cluster/kubeconfig.js';
import { ApiReader, POD_RESOURCE, type ApiResource } from '../../src/cluster/list.js';
import { predictRollout, type RolloutResult } from '../../src/core/deployment/rollout.js';
import type { Deployment, IntOrString, Pod, ReplicaSet } from '../../src/core/types.js';
import { maxSurge } from '../../src/core/deployment/util.js';
import { behaviourFor } from '../../src/core/versions.js';
import { foregroundOptions, sandboxTests, until } from './env.js';

const KUBELET = { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10, terminationGraceMs: 200 };
const DEPLOYMENTS: ApiResource = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' };
const REPLICASETS: ApiResource = { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' };

const t = sandboxTests('rs-run-rollout-');
const UNTIL_MS = 90_000;

type Sizes = Record<string, number>;

/** The sizes after each write of the deployment controller that changed one, after the change (kubectl's patch of the Deployment). */
function writtenSizes(auditFile: string, from: Sizes): Sizes[] {
  const events = readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const change = events.findIndex((e) => e.verb === 'patch' && e.objectRef.resource === 'deployments' && String(e.userAgent).startsWith('kubectl'));
  expect(change).toBeGreaterThanOrEqual(0);
  const out: Sizes[] = [];
  let cur = { ...from };
  for (const e of events.slice(change + 1)) {
    // spec writes of ReplicaSets are the deployment controller's (the ReplicaSet controller writes /status)
    if (e.objectRef.resource !== 'replicasets' || e.objectRef.subresource || !['create', 'update'].includes(e.verb) || e.responseStatus.code >= 300) continue;
    const next = { ...cur, [e.objectRef.name]: e.requestObject.spec.replicas };
    if (JSON.stringify(next) !== JSON.stringify(cur)) out.push(next);
    cur = next;
  }
  return out;
}

/** The prediction's sizes after each write, the stand-in name of the new ReplicaSet replaced by the real one. */
function predictedSizes(result: RolloutResult, newName: string): Sizes[] {
  return result.sizes.map(({ at: _at, ...sizes }) =>
    Object.fromEntries(Object.entries(sizes).map(([name, n]) => [name === result.newReplicaSet ? newName : name, n])),
  );
}

const rollingArb = fc
  .record({
    maxSurge: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom<IntOrString>('25%', '50%')),
    maxUnavailable: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom<IntOrString>('0%', '25%')),
  })
  .filter((r) => !((r.maxSurge === 0 || r.maxSurge === '0%') && (r.maxUnavailable === 0 || r.maxUnavailable === '0%')))
  .map((rollingUpdate) => ({ type: 'RollingUpdate' as const, rollingUpdate }));

async function rollout(replicas: number, strategy: Deployment['spec']['strategy']): Promise<void> {
  const { dir, kubeconfig, kubectl } = await t.start((d) => ({ nodes: 3, kubelet: KUBELET, auditLog: join(d, 'audit.jsonl') }));
  const auditLog = join(dir, 'audit.jsonl');
  const reader = new ApiReader(connect({ kubeconfig }));
  const list = async <T>(r: ApiResource) => (await reader.list<T>({ resource: r, namespace: 'default', pageSize: 0, accept: (x) => x as T })).items;
  /** Complete and quiet: the Deployment's status says so for the generation, and no ReplicaSet but the new one has pods. */
  const settled = async (image: string) => {
    const [d] = await list<Deployment>(DEPLOYMENTS);
    const rss = await list<ReplicaSet>(REPLICASETS);
    const s = d?.status ?? {};
    const progressing = s.conditions?.find((c) => c.type === 'Progressing');
    if (s.observedGeneration !== d?.metadata.generation || progressing?.reason !== 'NewReplicaSetAvailable') return null;
    if (s.replicas !== replicas || s.updatedReplicas !== replicas || s.availableReplicas !== replicas || s.readyReplicas !== replicas) return null;
    const current = rss.find((rs) => rs.spec.template?.spec?.containers?.[0]?.image === image);
    const quiet = rss.every(
      (rs) =>
        rs.status?.observedGeneration === rs.metadata.generation &&
        (rs === current ? rs.status?.availableReplicas === replicas : (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0),
    );
    return quiet && current ? { d, rss, current } : null;
  };

  const { stop, done } = t.run(foregroundOptions(kubeconfig, { namespace: 'default', kinds: ['ReplicaSet'], qps: 1000, burst: 1000, deployment: true }));
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      strategy,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  const file = join(dir, 'web.json');
  writeFileSync(file, JSON.stringify(manifest));
  await kubectl('create', '-f', file);
  const before = await until('the first rollout settled', () => settled('nginx:1.27'), UNTIL_MS, 50);

  await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
  const [changed] = await list<Deployment>(DEPLOYMENTS);
  expect(changed.spec.template?.spec?.containers?.[0]?.image).toBe('nginx:1.28');
  const pods = (await list<Pod>(POD_RESOURCE)).filter((p) => !p.metadata.deletionTimestamp);
  const prediction = predictRollout({
    deployment: changed,
    replicaSets: before.rss,
    pods,
    nowMs: Date.now(),
    behaviour: behaviourFor(32).behaviour,
    assumptions: {
      podReadyAfterSeconds: (KUBELET.scheduleDelayMs + KUBELET.runDelayMs + KUBELET.readyDelayMs) / 1000,
      podGoneAfterSeconds: KUBELET.terminationGraceMs / 1000,
    },
  });
  expect(prediction.end.state).toBe('complete');
  const after = await until('the rollout to nginx:1.28 settled', () => settled('nginx:1.28'), UNTIL_MS, 50);
  stop.abort();
  expect(await done).toBe(0);
  await t.close();

  const oldName = before.current.metadata.name;
  const newName = after.current.metadata.name;
  expect(newName).not.toBe(oldName);
  const got = writtenSizes(auditLog, { [oldName]: replicas });
  const want = predictedSizes(prediction, newName);
  const label = `${replicas} replicas, ${JSON.stringify(strategy)}: written ${JSON.stringify(got)}, predicted ${JSON.stringify(want)}`;
  if (strategy?.type === 'Recreate') {
    expect(got, label).toEqual(want);
    return;
  }
  // the first sync's writes: the prediction's first turn of the deployment controller (its steps
  // before the ReplicaSet controller's first, which creates or deletes pods after any first sync)
  const firstTurn = prediction.steps.findIndex((s) => s.controller !== 'deployment');
  const first = want.slice(0, firstTurn < 0 ? want.length : firstTurn);
  expect(got.slice(0, first.length), label).toEqual(first);
  const bound = replicas + maxSurge(changed);
  for (const [i, sizes] of got.entries()) {
    expect(sizes[oldName] + (sizes[newName] ?? 0), label).toBeLessThanOrEqual(bound);
    if (i === 0) continue;
    expect(sizes[newName], label).toBeGreaterThanOrEqual(got[i - 1][newName] ?? 0);
    expect(sizes[oldName], label).toBeLessThanOrEqual(got[i - 1][oldName]);
  }
  expect(got.at(-1), label).toEqual(want.at(-1));
  expect(got.at(-1), label).toEqual({ [oldName]: 0, [newName]: replicas });
}

describe('run --controllers replicaset,deployment: a whole rollout against predictRollout', () => {
  it('Recreate (random sizes): the sizes written are the prediction’s, step for step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), async (replicas) => {
        await rollout(replicas, { type: 'Recreate' });
      }),
      { numRuns: 2, seed: 20261202, endOnFailure: true },
    );
  }, 300_000);

  it('RollingUpdate (random sizes, maxSurge and maxUnavailable): the first sync, the surge bound, the direction and the end are the prediction’s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), rollingArb, async (replicas, strategy) => {
        await rollout(replicas, strategy);
      }),
      { numRuns: 6, seed: 20261203, endOnFailure: true },
    );
  }, 600_000);
});
