// Decide once, for the deployment controller: for random Deployments with their ReplicaSets and
// pods, what the runtime's sync (DeploymentController.syncKey on caches listed from the embedded
// API server, writing through KubeControllerAPI over real HTTPS) sends to the API server is
// decideDeployment's writes, write for write: the same verb on the same object, in order, with the
// decision's body (sizes, annotations, the status); a write the decision calls a conflict, and
// only such a write, meets a 409 (the decision's writes end there unless upstream swallows it). The requests are read from the sandbox's audit log (its file
// logs each write's requestObject), not from anything the runtime reports about itself.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KubeControllerAPI } from '../../src/cluster/controller-api.js';
import { connect } from '../../src/cluster/kubeconfig.js';
import { ApiReader, POD_RESOURCE, type ApiResource } from '../../src/cluster/list.js';
import { DeploymentController } from '../../src/controller/deployment-controller.js';
import type { DeploymentDecision, DeploymentWrite } from '../../src/core/deployment/types.js';
import type { Deployment, IntOrString, Pod, ReplicaSet } from '../../src/core/types.js';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION } from '../../src/core/deployment/util.js';
import { formatTime } from '../../src/core/time.js';
import { behaviourFor, NEWEST_MINOR } from '../../src/core/versions.js';
import { FakeClock } from '../../src/runtime/clock.js';
import type { CoreEvent } from '../../src/runtime/event-correlator.js';
import { SEED_USER_AGENT, startSandbox } from '../../src/sandbox/index.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const ago = (ms: number) => formatTime(NOW - ms);
const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };
const IMAGES = ['nginx:1.25', 'nginx:1.26', 'nginx:1.27', 'nginx:1.28'];
const template = (image: string, hash?: string) => ({
  metadata: { labels: { app: 'web', ...(hash ? { [POD_TEMPLATE_HASH_LABEL]: hash } : {}) } },
  spec: { containers: [{ name: 'c', image }] },
});

const intOrPercent = (max: number): fc.Arbitrary<IntOrString> => fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom('0%', '25%', '50%', '100%'));
const isZero = (v: IntOrString) => v === 0 || v === '0%';

const deploymentArb = fc
  .record({
    replicas: fc.integer({ min: 0, max: 6 }),
    recreate: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    maxSurge: intOrPercent(3),
    maxUnavailable: intOrPercent(2),
    paused: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    revisionHistoryLimit: fc.constantFrom<number | undefined>(undefined, 0, 1, 3),
    minReadySeconds: fc.constantFrom(0, 0, 30),
    image: fc.integer({ min: 0, max: IMAGES.length - 1 }),
    generation: fc.integer({ min: 1, max: 3 }),
    observed: fc.boolean(),
    progressing: fc.constantFrom('none', 'NewReplicaSetAvailable', 'ReplicaSetUpdated'),
  })
  .filter((o) => o.recreate || !(isZero(o.maxSurge) && isZero(o.maxUnavailable)));

const replicaSetArb = fc.record({
  image: fc.integer({ min: 0, max: IMAGES.length - 1 }),
  // scaled down to nothing is common: old ReplicaSets of a finished rollout
  replicas: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 })),
  // status.replicas beside spec.replicas: behind, equal, or ahead of it
  lag: fc.constantFrom(0, 0, 0, -1, 1),
  notReady: fc.constantFrom(0, 0, 1, 2),
  // pods being deleted (status.terminatingReplicas, which the newer minors carry to the Deployment)
  terminating: fc.constantFrom(0, 0, 0, 1),
  // the size the Deployment had when this ReplicaSet was last resized (a resize since: a scaling event)
  desiredDelta: fc.constantFrom(0, 0, 0, 1, -1, 2),
  owner: fc.constantFrom('mine', 'mine', 'mine', 'mine', 'orphan', 'relabelled'),
});

const worldArb = fc.record({ d: deploymentArb, rss: fc.uniqueArray(replicaSetArb, { maxLength: 3, selector: (r) => r.image }) });

type Drawn = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;
interface World {
  d: Deployment;
  replicaSets: ReplicaSet[];
  pods: Pod[];
}

/** The seed of one world: the Deployment, its ReplicaSets (by revision, oldest first) and their pods. */
function build({ d: o, rss }: Drawn): World {
  const uid = 'deploy-uid';
  const replicaSets: ReplicaSet[] = rss.map((r, i) => {
    const hash = `h${r.image}`;
    const name = `web-${hash}`;
    const actual = Math.max(0, r.replicas + r.lag);
    const ready = Math.max(0, actual - r.notReady);
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: 'default',
        uid: `uid-${name}`,
        generation: 1,
        labels: r.owner === 'relabelled' ? { app: 'other', [POD_TEMPLATE_HASH_LABEL]: hash } : { app: 'web', [POD_TEMPLATE_HASH_LABEL]: hash },
        annotations: {
          [REVISION_ANNOTATION]: String(i + 1),
          [DESIRED_REPLICAS_ANNOTATION]: String(Math.max(0, o.replicas + r.desiredDelta)),
          [MAX_REPLICAS_ANNOTATION]: String(Math.max(0, o.replicas + r.desiredDelta) + 1),
        },
        creationTimestamp: ago((10 - i) * 3_600_000),
        ...(r.owner === 'orphan'
          ? {}
          : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid, controller: true, blockOwnerDeletion: true }] }),
      },
      spec: {
        replicas: r.replicas,
        minReadySeconds: o.minReadySeconds,
        selector: { matchLabels: { app: r.owner === 'relabelled' ? 'other' : 'web', [POD_TEMPLATE_HASH_LABEL]: hash } },
        template:
          r.owner === 'relabelled'
            ? { ...template(IMAGES[r.image], hash), metadata: { labels: { app: 'other', [POD_TEMPLATE_HASH_LABEL]: hash } } }
            : template(IMAGES[r.image], hash),
      },
      status: {
        replicas: actual,
        fullyLabeledReplicas: actual,
        readyReplicas: ready,
        availableReplicas: ready,
        observedGeneration: 1,
        ...(r.terminating ? { terminatingReplicas: r.terminating } : {}),
      },
    };
    return rs;
  });
  const pods: Pod[] = replicaSets.flatMap((rs) =>
    Array.from({ length: (rs.status?.replicas ?? 0) + (rs.status?.terminatingReplicas ?? 0) }, (_, j): Pod => {
      const ready = j < (rs.status?.readyReplicas ?? 0);
      const deleting = j >= (rs.status?.replicas ?? 0);
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${rs.metadata.name}-p${j}`,
          namespace: 'default',
          uid: `uid-${rs.metadata.name}-p${j}`,
          labels: { ...(rs.spec.template?.metadata?.labels ?? {}) },
          creationTimestamp: ago(3_600_000),
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
          ],
          ...(deleting ? { deletionTimestamp: ago(-30_000), deletionGracePeriodSeconds: 30 } : {}),
        },
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: rs.spec.template?.spec?.containers?.[0]?.image ?? 'x' }] },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: ago(ready ? 3_000_000 : 1000) }],
          containerStatuses: [{ name: 'c', ready, restartCount: 0 }],
        },
      };
    }),
  );
  const revision = replicaSets.length;
  const strategy = o.recreate ? { type: 'Recreate' } : { type: 'RollingUpdate', rollingUpdate: { maxSurge: o.maxSurge, maxUnavailable: o.maxUnavailable } };
  const total = replicaSets.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
  const available = replicaSets.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  // what the last sync wrote: the pods of the ReplicaSet with the Deployment's template are updated
  const current = replicaSets.find((rs) => rs.spec.template?.spec?.containers?.[0]?.image === IMAGES[o.image] && rs.metadata.labels?.app === 'web');
  const d: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid,
      generation: o.generation,
      creationTimestamp: ago(86_400_000),
      ...(revision > 0 ? { annotations: { [REVISION_ANNOTATION]: String(revision) } } : {}),
    },
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: { app: 'web' } },
      template: template(IMAGES[o.image]),
      strategy,
      minReadySeconds: o.minReadySeconds,
      ...(o.revisionHistoryLimit === undefined ? {} : { revisionHistoryLimit: o.revisionHistoryLimit }),
      paused: o.paused,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: o.observed ? o.generation : o.generation - 1,
      replicas: total,
      updatedReplicas: current?.status?.replicas ?? 0,
      readyReplicas: available,
      availableReplicas: available,
      unavailableReplicas: Math.max(0, o.replicas - available),
      ...(o.progressing === 'none'
        ? {}
        : {
            conditions: [
              {
                type: 'Progressing',
                status: 'True',
                reason: o.progressing,
                message: 'ReplicaSet progressing',
                lastUpdateTime: ago(60_000),
                lastTransitionTime: ago(600_000),
              },
            ],
          }),
    },
  };
  return { d, replicaSets, pods };
}

/** Timestamps as instants (the client sends them with milliseconds), nulls and absent fields alike. */
function canon(v: unknown): unknown {
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v)) return formatTime(Date.parse(v));
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = canon(x);
    return out;
  }
  return v;
}

/** A template (or a selector's labels) without the pod-template-hash the runtime adds to a create. */
function withoutHash<T>(o: T): T {
  const c = structuredClone(o) as any;
  if (c?.metadata?.labels) delete c.metadata.labels[POD_TEMPLATE_HASH_LABEL];
  return c;
}

interface Sent {
  verb: string;
  resource: string;
  name: string;
  code: number;
  body: any;
}

/** The writes the runtime's client sent, from the audit file (the seed's creates are logged there too). */
function sentWrites(file: string): Sent[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.user.username === 'sandbox-admin' && e.userAgent !== SEED_USER_AGENT && ['create', 'update', 'patch', 'delete'].includes(e.verb))
    .filter((e) => e.objectRef.resource !== 'events') // the Events the writes carry: eventsSent
    .map((e) => ({
      verb: e.verb,
      resource: e.objectRef.subresource ? `${e.objectRef.resource}/${e.objectRef.subresource}` : e.objectRef.resource,
      name: e.objectRef.name,
      code: e.responseStatus.code,
      body: e.requestObject,
    }));
}

/** That one request carries out one write of the decision. */
function expectCarriesOut(s: Sent, w: DeploymentWrite, created: string | null): void {
  const placeholder = 'web-<pod-template-hash>';
  const real = (name: string) => (name === placeholder && created ? created : name);
  switch (w.kind) {
    case 'adoptReplicaSet':
    case 'releaseReplicaSet': {
      expect({ verb: s.verb, resource: s.resource, name: s.name }).toEqual({ verb: 'patch', resource: 'replicasets', name: w.name });
      const ref = s.body.metadata.ownerReferences[0];
      if (w.kind === 'adoptReplicaSet') expect(ref).toMatchObject({ kind: 'Deployment', name: 'web', uid: 'deploy-uid', controller: true });
      else expect(ref).toEqual({ $patch: 'delete', uid: 'deploy-uid' });
      return;
    }
    case 'createReplicaSet': {
      expect({ verb: s.verb, resource: s.resource }).toEqual({ verb: 'create', resource: 'replicasets' });
      const hash = s.body.metadata.labels[POD_TEMPLATE_HASH_LABEL];
      expect(s.name).toBe(`web-${hash}`);
      expect(s.body.spec.replicas).toBe(w.replicaSet.spec.replicas);
      expect(canon(withoutHash(s.body.spec.template))).toEqual(canon(withoutHash(w.replicaSet.spec.template)));
      expect(canon(s.body.metadata.annotations ?? {})).toEqual(canon(w.replicaSet.metadata.annotations ?? {}));
      expect(canon(s.body.metadata.ownerReferences)).toEqual(canon(w.replicaSet.metadata.ownerReferences));
      return;
    }
    case 'updateReplicaSet': {
      expect({ verb: s.verb, resource: s.resource, name: s.name }).toEqual({ verb: 'update', resource: 'replicasets', name: real(w.replicaSet.metadata.name) });
      expect(s.body.spec.replicas).toBe(w.to);
      expect(canon(s.body.metadata.annotations ?? {})).toEqual(canon(w.replicaSet.metadata.annotations ?? {}));
      if (w.replicaSet.metadata.name !== placeholder) expect(canon(s.body.spec.template)).toEqual(canon(w.replicaSet.spec.template));
      expect(s.code === 409).toBe(w.conflict);
      return;
    }
    case 'deleteReplicaSet':
      expect({ verb: s.verb, resource: s.resource, name: s.name }).toEqual({ verb: 'delete', resource: 'replicasets', name: w.name });
      return;
    case 'updateDeploymentStatus': {
      expect({ verb: s.verb, resource: s.resource, name: s.name }).toEqual({ verb: 'update', resource: 'deployments/status', name: 'web' });
      const status = structuredClone(w.status);
      for (const c of status.conditions ?? []) if (c.message && created) c.message = c.message.split(placeholder).join(created);
      expect(canon(s.body.status)).toEqual(canon(status));
      expect(canon(s.body.metadata.annotations ?? {})).toEqual(canon(w.annotations));
      expect(s.code === 409).toBe(w.conflict);
      return;
    }
  }
}

const DEPLOYMENTS: ApiResource = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' };
const REPLICASETS: ApiResource = { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' };
const EVENTS: ApiResource = { group: '', version: 'v1', resource: 'events', kind: 'Event' };

/** One sync of the runtime on a sandbox seeded with the world; its decision and what it sent. */
async function syncOnce(world: World, minor: number): Promise<{ decision: DeploymentDecision; sent: Sent[]; events: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'rs-dsync-prop-'));
  const auditLog = join(dir, 'audit.jsonl');
  const sb = await startSandbox({
    gc: false,
    auditLog,
    seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }, world.d, ...world.replicaSets, ...world.pods],
  });
  let decision: DeploymentDecision | null = null;
  let events: string[] = [];
  try {
    expect(sb.seed.skipped).toEqual([]);
    await sb.writeKubeconfig(join(dir, 'config'));
    const conn = connect({ kubeconfig: join(dir, 'config') });
    // the caches as the informers' first list fills them
    const reader = new ApiReader(conn);
    const list = async <T>(r: ApiResource) => (await reader.list<T>({ resource: r, namespace: 'default', pageSize: 0, accept: (x) => x as T })).items;
    const [ds, rss, pods] = [await list<Deployment>(DEPLOYMENTS), await list<ReplicaSet>(REPLICASETS), await list<Pod>(POD_RESOURCE)];
    const api = new KubeControllerAPI(conn.kc);
    const controller = new DeploymentController({
      listers: {
        deployments: { get: (_ns, name) => ds.find((d) => d.metadata.name === name), inNamespace: () => ds, all: () => ds },
        replicaSets: { get: (_ns, name) => rss.find((r) => r.metadata.name === name), inNamespace: () => rss },
        pods: { inNamespace: () => pods },
      },
      api,
      behaviour: behaviourFor(minor).behaviour,
      clock: new FakeClock(NOW),
      log: quiet,
      onSync: (_key, dec) => {
        decision = dec;
      },
    });
    await controller.syncKey('default/web');
    await api.flush();
    events = (await list<CoreEvent>(EVENTS)).map((e) => `${e.reason}: ${e.message}`);
  } finally {
    await sb.close();
  }
  expect(decision).not.toBeNull();
  return { decision: decision!, sent: sentWrites(auditLog), events };
}

describe('decide once: the deployment controller sync sends exactly the decision', () => {
  // 1.32: the sandbox's own version; the newest: the rules `run --kube-version` may be told to follow
  for (const minor of [32, NEWEST_MINOR])
    it(`on random Deployments, ReplicaSets and pods (1.${minor}), the requests on the API server are decideDeployment’s writes, write for write`, async () => {
      const kinds = new Set<string>();
      const paths = new Set<string>();
      const seen = { conflicts: 0, rollbacks: 0, terminating: 0, events: 0 };
      await fc.assert(
        fc.asyncProperty(worldArb, async (w) => {
          const world = build(w);
          const { decision, sent, events } = await syncOnce(world, minor);
          paths.add(decision.path);
          // every write is sent: a conflict ends the decision's writes unless upstream swallows it
          const expected = decision.writes;
          const conflicts = expected.flatMap((x, i) => ('conflict' in x && x.conflict ? [i] : []));
          expect(sent.map((s) => `${s.verb} ${s.resource}`)).toHaveLength(expected.length);
          const created = sent.find((s) => s.verb === 'create')?.name ?? null;
          expected.forEach((x, i) => {
            kinds.add(x.kind);
            expectCarriesOut(sent[i], x, created);
            // an old ReplicaSet's template again: it becomes the new one under the next revision
            const before = world.replicaSets.find((rs) => x.kind === 'updateReplicaSet' && rs.metadata.name === x.replicaSet.metadata.name);
            if (
              x.kind === 'updateReplicaSet' &&
              before &&
              x.replicaSet.metadata.annotations?.[REVISION_ANNOTATION] !== before.metadata.annotations?.[REVISION_ANNOTATION]
            )
              seen.rollbacks++;
            if (x.kind === 'updateDeploymentStatus' && (x.status.terminatingReplicas ?? 0) > 0) seen.terminating++;
          });
          for (const [i, s] of sent.entries()) if (!conflicts.includes(i)) expect(s.code, `${s.verb} ${s.resource} ${s.name}`).toBeLessThan(300);
          // the Events are those the decision's writes carry, of the writes that succeeded
          const carried = expected.flatMap((x, i) =>
            (x.kind === 'createReplicaSet' || x.kind === 'updateReplicaSet') && x.event && sent[i].code < 300
              ? [`${x.event.reason}: ${x.event.message.replace('web-<pod-template-hash>', created ?? '')}`]
              : [],
          );
          expect([...events].sort()).toEqual([...carried].sort());
          if (carried.length > 0) seen.events++;
          if (conflicts.length > 0) seen.conflicts++;
        }),
        { numRuns: 80, seed: 20261202 + minor },
      );
      // the worlds make every kind of write and take every path, not only sit in sync
      expect([...kinds].sort()).toEqual(
        ['adoptReplicaSet', 'createReplicaSet', 'deleteReplicaSet', 'releaseReplicaSet', 'updateDeploymentStatus', 'updateReplicaSet'].sort(),
      );
      for (const p of ['rolling', 'recreate', 'paused', 'scaling']) expect(paths).toContain(p);
      expect(seen.conflicts).toBeGreaterThan(0);
      expect(seen.events).toBeGreaterThan(0);
      expect(seen.rollbacks).toBeGreaterThan(0);
      if (behaviourFor(minor).behaviour.gates.DeploymentReplicaSetTerminatingReplicas) expect(seen.terminating).toBeGreaterThan(0);
    }, 240_000);
});
