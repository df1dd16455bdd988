// The JSON reader (byte scanner, layout guesses, staged lists) against the obvious reader:
// JSON.parse of the whole text, then the projection.

import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import { findDuplicateKey } from '../../src/input/json-scan.js';
import { parseSnapshotText } from '../../src/input/snapshot-files.js';
import { expected, objectArb, podArb, prng, shuffleKeys } from './arbitraries.js';
import { serialize, whitespaceArb } from './helpers.js';

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
        const doc = shuffleKeys({ apiVersion: 'v1', kind: 'List', ...(withMeta ? { metadata: { resourceVersion: '' } } : {}), items: objects }, rand) as Record<
          string,
          unknown
        >;
        const text = render(doc, layout, ws);
        // The expectation comes from JSON.parse of what was written (the items as the text has them).
        const parsedItems =
          layout === 'ndjson' || layout === 'concatenated'
            ? objects.map((o) => JSON.parse(JSON.stringify(o)))
            : (JSON.parse(text) as { items: unknown[] }).items;
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
      fc.property(
        fc.array(podArb, { maxLength: 6 }),
        fc.constantFrom<Layout>('compact', 'indent2', 'random-whitespace', 'item-per-line'),
        whitespaceArb(),
        fc.integer(),
        (pods, layout, ws, seed) => {
          const bare = pods.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
          const doc = shuffleKeys({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items: bare }, prng(seed)) as Record<string, unknown>;
          const text =
            layout === 'item-per-line'
              ? `{"items":[\n${bare.map((p) => JSON.stringify(p)).join(',\n')}\n],"kind":"PodList","apiVersion":"v1"}`
              : render(doc, layout, ws);
          const got = parseSnapshotText(text, 'typed.json');
          expect(got.snapshot).toStrictEqual(expected(pods.map((p) => JSON.parse(JSON.stringify(p)))).snapshot);
        },
      ),
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
      expect(message).toMatch(/^error parsing d\.json: /);
      expect(message).not.toContain('\n');
      return message.replace(/^error parsing d\.json: /, '').replace(/ \(line \d+(, column \d+)?\)$/, '');
    }
  }

  it('is reported as one-line errors, and wherever JSON.parse accepts it, read as its canonical form is', () => {
    const damage = fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', 'null', '"kind"');
    fc.assert(
      fc.property(
        fc.array(objectArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<Layout>('compact', 'indent2', 'item-per-line', 'random-whitespace'),
        whitespaceArb(),
        fc.nat(),
        damage,
        fc.boolean(),
        (objects, layout, ws, at, insert, replace) => {
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
          // Damage can make two names of an object equal: JSON.parse keeps the last value, strict
          // decoding refuses the object (one the loader keeps).
          if (typeof result === 'string' && result.startsWith('strict decoding error: duplicate field "')) {
            const bytes = Buffer.from(damaged);
            expect(findDuplicateKey(bytes, 0, bytes.length)).toBeDefined();
            return;
          }
          // (Unless the canonical form says something else: 1e999 is Infinity, written as null.)
          if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed)), parsed)) return;
          expect(result).toEqual(outcome(JSON.stringify(parsed)));
          expect(result).toEqual(outcome(JSON.stringify(parsed, null, 2)));
        },
      ),
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
