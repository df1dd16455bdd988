import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from '../../src/render/yaml-emit.js';

const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v) ?? 'null');

function readsBack(value: unknown): void {
  const text = toYaml(value);
  expect(parse(text), text).toEqual(asJson(value));
  expect(parse(text, { version: '1.1' }), text).toEqual(asJson(value));
}

describe('toYaml', () => {
  it('writes block style like the yaml package', () => {
    expect(toYaml({ a: 1, b: [1, { c: 'x', d: [] }], e: {}, f: null, g: true })).toBe(
      ['a: 1', 'b:', '  - 1', '  - c: x', '    d: []', 'e: {}', 'f: null', 'g: true', ''].join('\n'),
    );
    expect(toYaml([[1, [2, 3]], 'x'])).toBe(['- - 1', '  - - 2', '    - 3', '- x', ''].join('\n'));
    expect(toYaml('x')).toBe('x\n');
  });

  it('drops undefined members and writes undefined items as null, like JSON', () => {
    expect(toYaml({ a: undefined, b: [undefined, 1], c: new Date(0) })).toBe(['b:', '  - null', '  - 1', 'c: "1970-01-01T00:00:00.000Z"', ''].join('\n'));
  });

  it('quotes every string a YAML 1.1 or 1.2 reader would take for something else', () => {
    const tricky = [
      '',
      ' ',
      'yes',
      'No',
      'ON',
      'off',
      'y',
      'N',
      'true',
      'False',
      'null',
      'NULL',
      '~',
      '=',
      '<<',
      '1.35',
      '0',
      '-1',
      '+1',
      '.5',
      '0x10',
      '0o17',
      '017',
      '1_000',
      '1e3',
      'e0',
      'E5',
      'e+1',
      '.inf',
      '-.Inf',
      '.nan',
      '12:30:00',
      '2026-01-01',
      '2026-01-01T00:00:00Z',
      'a: b',
      'a:',
      'a #b',
      '#c',
      '- x',
      '? x',
      ': x',
      '&a',
      '*a',
      '!tag',
      '%x',
      '@x',
      '`x',
      '|',
      '>',
      "'q'",
      '"q"',
      '[a]',
      '{a}',
      'a, b',
      ' lead',
      'trail ',
      'tab\there',
      'line\nbreak',
      'cr\rx',
      '\u0085',
      '\u2028',
      '\u2029',
      '\ufeffbom',
      'nul\u0000',
      'esc\x1b[31m',
      'emoji 😀',
      'é→…—',
      '\ud800',
      'owned by this ReplicaSet: released',
      'app=web,tier in (a,b)',
    ];
    for (const s of tricky) readsBack({ s });
    readsBack(tricky);
  });

  it('writes ordinary words and sentences plain', () => {
    for (const s of ['ReplicaSet', 'web-7d4f8-z', 'rs-reconcile/v1alpha1', 'it has no node, while web-a (the first pod that stays) runs on node-1', 'a→b']) {
      expect(toYaml({ s })).toBe(`s: ${s}\n`);
    }
  });

  it('writes a control character in YAML escapes and a line break in a literal block', () => {
    expect(toYaml({ s: 'esc\x1b[31m', t: 'a\u0005', u: 'nul\u0000' })).toBe('s: "esc\\e[31m"\nt: "a\\x05"\nu: "nul\\0"\n');
    expect(toYaml({ s: 'line\nbreak' })).toBe('s: |-\n  line\n  break\n');
  });

  it('reads back as the same value for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        readsBack(v);
      }),
      { numRuns: 300 },
    );
  });

  it('reads back any string, keys included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }), (a, b) => {
        readsBack({ [a]: [a, b], [b]: { x: b } });
      }),
      { numRuns: 500 },
    );
  });
});
