// The JSON reader (byte scanner, layout guesses, staged lists) against the obvious reader:
// JSON.parse of the whole text, then the projection.

import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Snapshot } from '../../src/core/types.js';
import { UserError } from '../../src/errors.js';
import { formatTime, slimController, slimPod } from '../../src/input/objects.js';
import { parseSnapshotText, type LoadResult } from '../../src/input/snapshot-files.js';
import { serialize, whitespaceArb } from './helpers.js';

// Strings full of what a scanner can trip on.
const nasty = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', '\n', '\t', '\r', '\u0000', '\u2028', 'ü', '日', '🚀', 'a', ' ', '/', 'u'), maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const time = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map(formatTime);
const labels = fc.dictionary(fc.oneof(name, nasty), nasty, { maxKeys: 3 });
const noise = fc.jsonValue({ maxDepth: 3 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops undefined members (as JSON.stringify does). */
function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const metadata = fc
  .record({
    name,
    namespace: optional(fc.constantFrom('default', 'shop', 'team-a')),
    uid: fc.uuid(),
    labels: optional(labels),
    annotations: optional(labels),
    creationTimestamp: optional(fc.option(time, { nil: null })),
    deletionTimestamp: optional(time),
    resourceVersion: optional(fc.nat().map(String)),
    ownerReferences: optional(fc.array(fc.record({ apiVersion: fc.constant('apps/v1'), kind: fc.constantFrom('ReplicaSet', 'Deployment'), name, uid: fc.uuid(), controller: fc.boolean() }), { maxLength: 2 })),
    managedFields: optional(fc.array(noise, { maxLength: 2 })),
  })
  .map(defined);

const podArb = fc
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
          conditions: optional(fc.array(fc.record({ type: fc.constantFrom('Ready', 'PodScheduled'), status: fc.constantFrom('True', 'False'), lastTransitionTime: optional(time), message: optional(nasty) }).map(defined), { maxLength: 3 })),
          containerStatuses: optional(fc.array(fc.record({ name, ready: fc.boolean(), restartCount: fc.nat(50), state: noise }), { maxLength: 2 })),
        })
        .map(defined),
    ),
  })
  .map(defined);

const replicaSetArb = fc
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

const replicationControllerArb = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('ReplicationController'),
  metadata,
  spec: fc.record({ replicas: fc.nat(5), selector: labels }),
});

const otherArb = fc.record({
  apiVersion: fc.constantFrom('v1', 'apps/v1'),
  kind: fc.constantFrom('Service', 'ConfigMap', 'Deployment'),
  metadata: fc.record({ name: nasty }),
  data: noise,
});

const objectArb = fc.oneof({ weight: 5, arbitrary: podArb }, { weight: 2, arbitrary: replicaSetArb }, { weight: 1, arbitrary: replicationControllerArb }, { weight: 1, arbitrary: otherArb });

/** Rebuilds every object of `v` with its keys in a random order. */
function shuffleKeys(v: unknown, rand: () => number): unknown {
  if (Array.isArray(v)) return v.map((e) => shuffleKeys(e, rand));
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v as Record<string, unknown>);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  return Object.fromEntries(entries.map(([k, x]) => [k, shuffleKeys(x, rand)]));
}

function prng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** The obvious reader, for a list of objects of known kinds (later duplicates replace earlier ones). */
function expected(items: unknown[]): Pick<LoadResult, 'snapshot' | 'skippedKinds'> {
  const snapshot: Snapshot = { replicaSets: [], replicationControllers: [], pods: [] };
  const skippedKinds: Record<string, number> = {};
  const seen = new Map<string, number>();
  for (const item of items as Array<Record<string, unknown>>) {
    const kind = item.kind as string;
    const list = kind === 'Pod' ? snapshot.pods : kind === 'ReplicaSet' ? snapshot.replicaSets : kind === 'ReplicationController' ? snapshot.replicationControllers : undefined;
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

type Layout = 'compact' | 'indent2' | 'indent4' | 'tabs-crlf' | 'item-per-line' | 'random-whitespace' | 'ndjson' | 'concatenated';

function render(doc: Record<string, unknown>, layout: Layout, ws: () => string): string {
  const items = doc.items as unknown[];
  switch (layout) {
    case 'compact':
      return JSON.stringify(doc);
    case 'indent2':
      return JSON.stringify(doc, null, 2);
    case 'indent4':
      return `${JSON.stringify(doc, null, 4)}\n`;
    case 'tabs-crlf':
      return JSON.stringify(doc, null, '\t').replace(/\n/g, '\r\n');
    case 'item-per-line':
      return `{"apiVersion":"v1","kind":"List","items":[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]}\n`;
    case 'random-whitespace':
      return `${ws()}${serialize(doc, ws)}${ws()}`;
    case 'ndjson':
      return items.map((i) => JSON.stringify(i)).join('\n');
    case 'concatenated':
      return items.map((i) => serialize(i, ws)).join(ws());
  }
}

const layoutArb = fc.constantFrom<Layout>('compact', 'indent2', 'indent4', 'tabs-crlf', 'item-per-line', 'random-whitespace', 'ndjson', 'concatenated');

describe('the JSON reader equals JSON.parse + projection', () => {
  it('for random snapshots in random layouts and key orders', () => {
    fc.assert(
      fc.property(fc.array(objectArb, { maxLength: 8 }), layoutArb, whitespaceArb(), fc.integer(), fc.boolean(), (objects, layout, ws, seed, withMeta) => {
        const rand = prng(seed);
        const doc = shuffleKeys({ apiVersion: 'v1', kind: 'List', ...(withMeta ? { metadata: { resourceVersion: '' } } : {}), items: objects }, rand) as Record<string, unknown>;
        const text = render(doc, layout, ws);
        // The expectation comes from JSON.parse of what was written (the items as the text has them).
        const parsedItems = layout === 'ndjson' || layout === 'concatenated' ? objects.map((o) => JSON.parse(JSON.stringify(o))) : (JSON.parse(text) as { items: unknown[] }).items;
        const got = parseSnapshotText(text, 'prop.json');
        const want = expected(parsedItems);
        expect(got.snapshot).toStrictEqual(want.snapshot);
        expect(got.skippedKinds).toEqual(want.skippedKinds);
      }),
      { numRuns: 300 },
    );
  });

  it('for typed lists whose items carry no kind, the kind coming before or after the items', () => {
    fc.assert(
      fc.property(fc.array(podArb, { maxLength: 6 }), fc.constantFrom<Layout>('compact', 'indent2', 'random-whitespace', 'item-per-line'), whitespaceArb(), fc.integer(), (pods, layout, ws, seed) => {
        const bare = pods.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
        const doc = shuffleKeys({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items: bare }, prng(seed)) as Record<string, unknown>;
        const text = layout === 'item-per-line' ? `{"items":[\n${bare.map((p) => JSON.stringify(p)).join(',\n')}\n],"kind":"PodList","apiVersion":"v1"}` : render(doc, layout, ws);
        const got = parseSnapshotText(text, 'typed.json');
        expect(got.snapshot).toStrictEqual(expected(pods.map((p) => JSON.parse(JSON.stringify(p)))).snapshot);
      }),
      { numRuns: 200 },
    );
  });

  it('reads YAML as the yaml library does, item by item', async () => {
    const { parse, stringify } = await import('yaml');
    fc.assert(
      fc.property(fc.array(objectArb, { maxLength: 5 }), (objects) => {
        const text = stringify({ apiVersion: 'v1', items: JSON.parse(JSON.stringify(objects)) as unknown[], kind: 'List' });
        const got = parseSnapshotText(text, 'prop.yaml');
        // (Compared with yaml's own reading: its stringify does not round-trip every string.)
        const want = expected((parse(text) as { items: unknown[] }).items);
        expect(got.snapshot).toStrictEqual(want.snapshot);
        expect(got.skippedKinds).toEqual(want.skippedKinds);
      }),
      { numRuns: 100 },
    );
  });
});

describe('damaged JSON', () => {
  /** The outcome of reading `text`, with locations stripped from errors. */
  function outcome(text: string): unknown {
    try {
      const r = parseSnapshotText(text, 'd.json');
      return { snapshot: r.snapshot, skippedKinds: r.skippedKinds };
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      const message = (e as Error).message;
      expect(message).toMatch(/^d\.json(:\d+){0,2}: /);
      expect(message).not.toContain('\n');
      return message.replace(/^d\.json(:\d+){0,2}: /, '');
    }
  }

  it('is reported as one-line errors, and wherever JSON.parse accepts it, read as its canonical form is', () => {
    const damage = fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', 'null', '"kind"');
    fc.assert(
      fc.property(fc.array(objectArb, { minLength: 1, maxLength: 4 }), fc.constantFrom<Layout>('compact', 'indent2', 'item-per-line', 'random-whitespace'), whitespaceArb(), fc.nat(), damage, fc.boolean(), (objects, layout, ws, at, insert, replace) => {
        // Damage whole characters: a file cannot hold half a surrogate pair.
        const chars = Array.from(render({ apiVersion: 'v1', items: objects, kind: 'List' }, layout, ws));
        const k = at % (chars.length + 1);
        const damaged = chars.slice(0, k).join('') + insert + chars.slice(replace ? k + 1 : k).join('');
        const result = outcome(damaged);
        let parsed: unknown;
        try {
          parsed = JSON.parse(damaged);
        } catch {
          return; // not JSON: an error was reported (or, for a stream of documents, read as such)
        }
        // (Unless the canonical form says something else: 1e999 is Infinity, written as null.)
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed)), parsed)) return;
        expect(result).toEqual(outcome(JSON.stringify(parsed)));
        expect(result).toEqual(outcome(JSON.stringify(parsed, null, 2)));
      }),
      { numRuns: 500 },
    );
  });

  it('reports truncated files with the position of the end', () => {
    fc.assert(
      fc.property(fc.array(objectArb, { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 2), fc.nat(), (objects, indent, at) => {
        const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, indent);
        const cut = 1 + (at % (text.length - 1));
        const truncated = text.slice(0, cut);
        const message = outcome(truncated);
        expect(typeof message).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});
