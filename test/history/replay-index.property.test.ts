// The replay plans each sync on the pods its indexes say the controller may read (owned by it or
// its sibling ReplicaSets, or carrying the labels its selector requires). Property: on random logs,
// every event is what planning on the whole namespace gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { behaviourFor } from '../../src/core/versions.js';
import { HistoryReplay } from '../../src/history/replay.js';
import type { ApiWrite } from '../../src/history/types.js';

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const RC_USER = 'system:serviceaccount:kube-system:replication-controller';
const NS = 'p';
const LABELS: Record<string, string>[] = [{ app: 'a' }, { app: 'b' }, { app: 'a', tier: 'x' }, { tier: 'x' }];

interface Ctl {
  kind: 'ReplicaSet' | 'ReplicationController';
  name: string;
  uid: string;
  selector: Record<string, string>;
  replicas: number;
  deployment: string | null;
}

const ctlArb = (i: number) =>
  fc
    .record({
      kind: fc.constantFrom('ReplicaSet' as const, 'ReplicationController' as const),
      selector: fc.constantFrom(...LABELS),
      replicas: fc.nat(4),
      deployment: fc.constantFrom(null, 'd1', 'd2'),
    })
    .map((c): Ctl => ({ ...c, name: `c${i}`, uid: `uid-c${i}`, deployment: c.kind === 'ReplicaSet' ? c.deployment : null }));

const podArb = (i: number, ctls: number) =>
  fc
    .record({
      labels: fc.constantFrom(...LABELS),
      owner: fc.option(fc.nat(ctls - 1), { nil: null }),
      phase: fc.constantFrom('Pending', 'Running', 'Running'),
      ready: fc.boolean(),
      restarts: fc.nat(3),
      node: fc.constantFrom('n1', 'n2', null),
      created: fc.integer({ min: 0, max: 5 }),
    })
    .map((p) => ({ ...p, name: `p${i}` }));

function controllerObject(c: Ctl) {
  const meta = {
    name: c.name,
    namespace: NS,
    uid: c.uid,
    generation: 1,
    ...(c.deployment
      ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: c.deployment, uid: `uid-${c.deployment}`, controller: true }] }
      : {}),
  };
  const template = { metadata: { labels: c.selector }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  return c.kind === 'ReplicaSet'
    ? {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: meta,
        spec: { replicas: c.replicas, selector: { matchLabels: c.selector }, template },
        status: { replicas: 0 },
      }
    : {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: meta,
        spec: { replicas: c.replicas, selector: c.selector, template },
        status: { replicas: 0 },
      };
}

describe('planning on the indexed pods equals planning on the namespace', () => {
  it('gives the same events on random logs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) =>
          fc.tuple(
            fc.tuple(...Array.from({ length: n }, (_, i) => ctlArb(i))),
            fc.array(fc.nat(), { maxLength: 0 }).map(() => n),
          ),
        ),
        fc.array(fc.nat(1000), { minLength: 4, maxLength: 14 }),
        fc.array(fc.nat(1000), { minLength: 1, maxLength: 10 }),
        ([ctls, n], podSeeds, actions) => {
          const pods = podSeeds.map((seed, i) => fc.sample(podArb(i, n), { numRuns: 1, seed })[0]);
          const writes: ApiWrite[] = [];
          let t = Date.parse('2026-01-01T00:00:00Z');
          const w = (user: string, verb: ApiWrite['verb'], resource: ApiWrite['resource'], name: string | null, body: any, sub: string | null = null): void => {
            writes.push({
              time: new Date((t += 1000)).toISOString(),
              user,
              userAgent: '',
              verb,
              resource,
              subresource: sub,
              namespace: NS,
              name,
              code: 200,
              bodies: true,
              request: body,
              response: body,
            });
          };
          for (const c of ctls) w('admin', 'create', c.kind === 'ReplicaSet' ? 'replicasets' : 'replicationcontrollers', c.name, controllerObject(c));
          for (const p of pods) {
            const owner = p.owner === null ? null : ctls[p.owner];
            const body = {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: {
                name: p.name,
                namespace: NS,
                uid: `uid-${p.name}`,
                creationTimestamp: new Date(Date.parse('2025-12-31T00:00:00Z') + p.created * 60_000).toISOString().replace('.000', ''),
                labels: p.labels,
                ...(owner
                  ? {
                      ownerReferences: [
                        { apiVersion: owner.kind === 'ReplicaSet' ? 'apps/v1' : 'v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true },
                      ],
                    }
                  : {}),
              },
              spec: { ...(p.node ? { nodeName: p.node } : {}), containers: [{ name: 'c', image: 'i' }] },
              status: {
                phase: p.phase,
                conditions: [{ type: 'Ready', status: p.ready ? 'True' : 'False', lastTransitionTime: '2025-12-31T12:00:00Z' }],
                containerStatuses: [{ name: 'c', ready: p.ready, restartCount: p.restarts }],
              },
            };
            w('admin', 'create', 'pods', p.name, body);
          }
          // controller writes on random pods: deletes, adopts, status writes
          for (const a of actions) {
            const c = ctls[a % ctls.length];
            const user = c.kind === 'ReplicaSet' ? RS_USER : RC_USER;
            const p = pods[a % pods.length];
            if (a % 3 === 0)
              w(user, 'delete', 'pods', p.name, { kind: 'Pod', apiVersion: 'v1', metadata: { name: p.name, namespace: NS, uid: `uid-${p.name}` } });
            else if (a % 3 === 1)
              w(
                user,
                'update',
                c.kind === 'ReplicaSet' ? 'replicasets' : 'replicationcontrollers',
                c.name,
                { ...controllerObject(c), status: { replicas: a % 5, observedGeneration: 1 } },
                'status',
              );
            else
              w(user, 'create', 'pods', null, {
                ...writes.find((x) => x.name === p.name)!.response,
                metadata: {
                  ...writes.find((x) => x.name === p.name)!.response!.metadata,
                  name: `new-${a}`,
                  uid: `uid-new-${a}`,
                  ownerReferences: [{ apiVersion: 'apps/v1', kind: c.kind, name: c.name, uid: c.uid, controller: true }],
                },
              });
          }
          const behaviour = behaviourFor(32).behaviour;
          const indexed = new HistoryReplay({ behaviour });
          const whole = new HistoryReplay({ behaviour, wholeNamespace: true });
          const a = writes.flatMap((x) => indexed.push(x));
          const b = writes.flatMap((x) => whole.push(x));
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 300 },
    );
  });
});
