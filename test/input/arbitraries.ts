// Generators of snapshot objects for the input tests, and the obvious reader to compare with.

import fc from 'fast-check';

import type { Snapshot } from '../../src/core/types.js';
import { slimController, slimPod } from '../../src/input/objects.js';
import { formatTime } from '../../src/input/timestamps.js';
import type { LoadResult } from '../../src/input/snapshot-files.js';

// Strings full of what a scanner can trip on.
export const nasty = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', '\n', '\t', '\r', '\u0000', '\u2028', 'ü', '日', '🚀', 'a', ' ', '/', 'u'),
    maxLength: 12,
  }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
export const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
export const time = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map(formatTime);
export const labels = fc.dictionary(fc.oneof(name, nasty), nasty, { maxKeys: 3 });
export const noise = fc.jsonValue({ maxDepth: 3 });
export const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops undefined members (as JSON.stringify does). */
export function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const metadata = fc
  .record({
    name,
    namespace: optional(fc.constantFrom('default', 'shop', 'team-a')),
    uid: fc.uuid(),
    labels: optional(labels),
    annotations: optional(labels),
    creationTimestamp: optional(fc.option(time, { nil: null })),
    deletionTimestamp: optional(time),
    resourceVersion: optional(fc.nat().map(String)),
    ownerReferences: optional(
      fc.array(
        fc.record({ apiVersion: fc.constant('apps/v1'), kind: fc.constantFrom('ReplicaSet', 'Deployment'), name, uid: fc.uuid(), controller: fc.boolean() }),
        { maxLength: 2 },
      ),
    ),
    managedFields: optional(fc.array(noise, { maxLength: 2 })),
  })
  .map(defined);

export const podArb = fc
  .record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Pod'),
    metadata,
    spec: optional(
      fc
        .record({
          nodeName: optional(name),
          containers: fc.array(fc.record({ name, image: nasty, env: noise }), { maxLength: 2 }),
          initContainers: optional(fc.array(fc.record({ name, restartPolicy: optional(fc.constant('Always')), args: noise }).map(defined), { maxLength: 2 })),
          volumes: noise,
        })
        .map(defined),
    ),
    status: optional(
      fc
        .record({
          phase: optional(fc.constantFrom('Pending', 'Running', 'Succeeded')),
          message: optional(nasty),
          conditions: optional(
            fc.array(
              fc
                .record({
                  type: fc.constantFrom('Ready', 'PodScheduled'),
                  status: fc.constantFrom('True', 'False'),
                  lastTransitionTime: optional(time),
                  message: optional(nasty),
                })
                .map(defined),
              { maxLength: 3 },
            ),
          ),
          containerStatuses: optional(fc.array(fc.record({ name, ready: fc.boolean(), restartCount: fc.nat(50), state: noise }), { maxLength: 2 })),
        })
        .map(defined),
    ),
  })
  .map(defined);

export const replicaSetArb = fc
  .record({
    apiVersion: fc.constant('apps/v1'),
    kind: fc.constant('ReplicaSet'),
    metadata: fc.tuple(metadata, optional(fc.nat(9))).map(([m, generation]) => defined({ ...m, generation })),
    spec: fc
      .record({
        replicas: optional(fc.nat(20)),
        minReadySeconds: optional(fc.nat(60)),
        selector: optional(fc.record({ matchLabels: labels })),
        template: optional(fc.record({ metadata: fc.record({ labels }), spec: fc.dictionary(nasty, noise, { maxKeys: 4 }) })),
      })
      .map(defined),
    status: optional(fc.record({ replicas: fc.nat(20), readyReplicas: fc.nat(20), observedGeneration: fc.nat(9) })),
  })
  .map(defined);

export const replicationControllerArb = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('ReplicationController'),
  metadata,
  spec: fc.record({ replicas: fc.nat(5), selector: labels }),
});

export const otherArb = fc.record({
  apiVersion: fc.constantFrom('v1', 'apps/v1'),
  kind: fc.constantFrom('Service', 'ConfigMap', 'StatefulSet'),
  metadata: fc.record({ name: nasty }),
  data: noise,
});

export const objectArb = fc.oneof(
  { weight: 5, arbitrary: podArb },
  { weight: 2, arbitrary: replicaSetArb },
  { weight: 1, arbitrary: replicationControllerArb },
  { weight: 1, arbitrary: otherArb },
);

/** Rebuilds every object of `v` with its keys in a random order. */
export function shuffleKeys(v: unknown, rand: () => number): unknown {
  if (Array.isArray(v)) return v.map((e) => shuffleKeys(e, rand));
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v as Record<string, unknown>);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  return Object.fromEntries(entries.map(([k, x]) => [k, shuffleKeys(x, rand)]));
}

export function prng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** The obvious reader, for a list of objects of known kinds (later duplicates replace earlier ones). */
export function expected(items: unknown[]): Pick<LoadResult, 'snapshot' | 'skippedKinds'> {
  const snapshot: Snapshot = { controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] };
  const skippedKinds: Record<string, number> = {};
  const seen = new Map<string, number>();
  for (const item of items as Array<Record<string, unknown>>) {
    const kind = item.kind as string;
    const list =
      kind === 'Pod'
        ? snapshot.pods
        : kind === 'ReplicaSet'
          ? snapshot.controllers.ReplicaSet
          : kind === 'ReplicationController'
            ? snapshot.controllers.ReplicationController
            : undefined;
    if (!list) {
      skippedKinds[kind] = (skippedKinds[kind] ?? 0) + 1;
      continue;
    }
    const slim = kind === 'Pod' ? slimPod(item) : slimController(item);
    const key = `${kind}/${slim.metadata.namespace}/${slim.metadata.name}`;
    const at = seen.get(key);
    if (at === undefined) {
      seen.set(key, list.length);
      (list as unknown[]).push(slim);
    } else {
      (list as unknown[])[at] = slim;
    }
  }
  return { snapshot, skippedKinds };
}
