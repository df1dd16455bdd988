import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { findDuplicateKey, JsonScanError, lineColumnAt, locateJsonPath, readKey, scanValue, skipValue } from '../../src/input/json-scan.js';

const buf = (s: string) => Buffer.from(s, 'utf8');

describe('skipValue', () => {
  it.each([
    ['{"a": "}", "b": "\\"}"}', '  tail'],
    ['["[", "]", "\\\\", {"x": [1, {"y": "\\\\\\""}]}]', ' tail'],
    ['"a \\" b"', ' tail'],
    ['123.5e-3', ', 4'],
    ['true', ']'],
    ['{"ü": "日本 🚀"}', ' tail'],
    ['{}', 'x'],
    ['[]', 'x'],
  ])('finds the end of %j', (value, tail) => {
    expect(JSON.parse(value)).toBeDefined();
    const b = buf(value + tail);
    expect(skipValue(b, 0, b.length)).toBe(Buffer.byteLength(value));
  });

  it.each(['{"a": "x', '{"a": [1, 2}', '[[[', '"abc'])('gives up on unterminated %j', (text) => {
    const b = buf(text);
    expect(() => skipValue(b, 0, b.length)).toThrow(JsonScanError);
  });

  it('matches JSON.stringify for any value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const b = buf(`${text} ,`);
        expect(skipValue(b, 0, b.length)).toBe(Buffer.byteLength(text));
      }),
    );
  });
});

describe('readKey', () => {
  it('decodes plain and escaped property names', () => {
    const b = buf('"plain" "esc\\"aped\\u00fc" "ü"');
    expect(readKey(b, 0, 7)).toBe('plain');
    expect(readKey(b, 8, 25)).toBe('esc"apedü');
    expect(readKey(b, 26, b.length)).toBe('ü');
  });
});

describe('locations', () => {
  it('gives lines and columns in characters', () => {
    const b = buf('{\n  "ü": "日本",\n  "x": 1\n}');
    expect(lineColumnAt(b, 0)).toEqual({ line: 1, column: 1 });
    const x = b.indexOf('"x"');
    expect(lineColumnAt(b, x)).toEqual({ line: 3, column: 3 });
    const after = b.indexOf(',');
    expect(lineColumnAt(b, after)).toEqual({ line: 2, column: 12 });
  });

  it('locates the deepest existing part of a path', () => {
    const text = JSON.stringify({ a: { b: [10, { c: 'x' }] }, a2: 1 }, null, 2);
    const b = buf(text);
    const line = (path: Array<string | number>) => lineColumnAt(b, locateJsonPath(b, 0, path)).line;
    const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    expect(line([])).toBe(1);
    expect(line(['a'])).toBe(lineOf('"a"'));
    expect(line(['a', 'b', 1, 'c'])).toBe(lineOf('"c"'));
    expect(line(['a', 'b', 0])).toBe(lineOf('10'));
    expect(line(['a', 'b', 7, 'c'])).toBe(lineOf('"b"'));
    expect(line(['a', 'missing'])).toBe(lineOf('"a"'));
    expect(line(['a2'])).toBe(lineOf('"a2"'));
  });

  it('follows JSON.parse for duplicate keys (the last one)', () => {
    const b = buf('{"k": 1,\n"k": 2}');
    expect(lineColumnAt(b, locateJsonPath(b, 0, ['k'])).line).toBe(2);
  });
});

describe('findDuplicateKey', () => {
  /** JSON text built from entry lists (names may repeat), with the first duplicate's path, if any. */
  type Node = { kind: 'obj'; entries: Array<[string, Node]> } | { kind: 'arr'; items: Node[] } | { kind: 'leaf'; value: unknown };
  // Names that share length and first, middle and last bytes (the fingerprint), or escapes.
  const nameArb = fc.constantFrom('a', 'b', 'ab', 'ba', 'abcd', 'axcd', 'name', 'nxme', 'a\\', '\\a', 'é', 'ü', '', 'x:y', '"q"');
  const nodeArb: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ kind: fc.constant('leaf' as const), value: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.constant('a":1,"a')) }),
      fc.record({ kind: fc.constant('obj' as const), entries: fc.array(fc.tuple(nameArb, tie('node')), { maxLength: 4 }) }),
      fc.record({ kind: fc.constant('arr' as const), items: fc.array(tie('node'), { maxLength: 3 }) }),
    ),
  })).node;
  /** Name as written: plain, or with its first character as a \u escape. */
  const write = (name: string, escaped: boolean) =>
    escaped && name !== '' ? `"\\u${name.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(name.slice(1)).slice(1)}` : JSON.stringify(name);
  function text(n: Node, escapes: () => boolean, indent: string): string {
    if (n.kind === 'leaf') return JSON.stringify(n.value);
    if (n.kind === 'arr') return `[${n.items.map((x) => text(x, escapes, indent)).join(', ')}]`;
    return `{${n.entries.map(([k, v]) => `${write(k, escapes())}: ${text(v, escapes, `${indent}  `)}`).join(`,\n${indent}`)}}`;
  }
  /** The path of the first duplicate in document order (where the scan meets it). */
  function firstDuplicate(n: Node, path: Array<string | number>): Array<string | number> | undefined {
    if (n.kind === 'arr') {
      for (let i = 0; i < n.items.length; i++) {
        const d = firstDuplicate(n.items[i], [...path, i]);
        if (d) return d;
      }
    } else if (n.kind === 'obj') {
      const seen = new Set<string>();
      for (const [k, v] of n.entries) {
        if (seen.has(k)) return [...path, k];
        seen.add(k);
        const d = firstDuplicate(v, [...path, k]);
        if (d) return d;
      }
    }
    return undefined;
  }

  it('finds the first name given twice in one object, with its path, however the names are spelled', () => {
    fc.assert(
      fc.property(nodeArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.nat(9), (node, flags, indent) => {
        let k = 0;
        const src = text(node, () => flags[k++ % flags.length], ' '.repeat(indent));
        const b = buf(`  ${src}  `);
        const found = findDuplicateKey(b, 2, b.length - 2);
        expect(found?.path).toEqual(firstDuplicate(node, []));
        if (found) expect(b[found.offset]).toBe(0x22);
      }),
      { numRuns: 2000 },
    );
  });

  it('scanValue ends where skipValue does, and says names may repeat whenever one does', () => {
    fc.assert(
      fc.property(nodeArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.nat(9), (node, flags, indent) => {
        let k = 0;
        const src = text(node, () => flags[k++ % flags.length], ' '.repeat(indent));
        const b = buf(`${src} , "tail"`);
        const scanned = scanValue(b, 0, b.length);
        expect(scanned.end).toBe(skipValue(b, 0, b.length));
        if (firstDuplicate(node, []) !== undefined) expect(scanned.namesMayRepeat).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('scanValue sees no repeat in distinct names, and gives up on unterminated input', () => {
    const b = buf('[{"abcd": 1, "b": {"abcd": [1, {"abcd": "}"}]}}, {"abcd": 2}] tail');
    expect(scanValue(b, 0, b.length)).toEqual({ end: b.indexOf(' tail'), namesMayRepeat: false });
    expect(scanValue(buf('{"a": 1, "a": 2}'), 0, 16).namesMayRepeat).toBe(true);
    for (const t of ['{"a": "x', '{"a": [1, 2}', '[[[', '{"a\\']) expect(() => scanValue(buf(t), 0, t.length)).toThrow(JsonScanError);
  });

  it('tells names apart that share a fingerprint', () => {
    expect(findDuplicateKey(buf('{"abcd": 1, "axcd": 2, "abc2": {"name": 1, "nxme": 2}}'), 0, 54)).toBeUndefined();
    const b = buf('{"abc": 1, "axc": {"n": [{"q": 1, "q": 2}]}}');
    expect(findDuplicateKey(b, 0, b.length)).toEqual({ offset: b.indexOf('"q": 2'), path: ['axc', 'n', 0, 'q'] });
  });
});
