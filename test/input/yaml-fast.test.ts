import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument, stringify, type ToStringOptions } from 'yaml';

import { BAIL, parseBlockYaml } from '../../src/input/yaml-fast.js';
import { splitYamlList } from '../../src/input/yaml-list.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/kubectl-get-rs-rc-pods.yaml', import.meta.url));

/** What `yaml` makes of `text`, or undefined if it reports an error. */
function reference(text: string): unknown {
  const doc = parseDocument(text);
  return doc.errors.length > 0 ? undefined : doc.toJS();
}

function expectSameAsYaml(text: string): unknown {
  const fast = parseBlockYaml(text);
  if (fast !== BAIL) expect(fast).toEqual(reference(text));
  return fast;
}

describe('kubectl-style YAML', () => {
  it('reads the kubectl fixture without falling back, as yaml does', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const fast = parseBlockYaml(text);
    expect(fast).not.toBe(BAIL);
    expect(fast).toEqual(parse(text));
  });

  it.each([
    [
      'scalars of every type',
      'a: 1\nb: -2\nc: 0x1F\nd: 0o17\ne: 1.5\nf: .5\ng: 1e3\nh: .inf\ni: -.Inf\nj: .nan\nk: true\nl: False\nm: null\nn: ~\no:\np: "007"\nq: 007\nr: +12\ns: 1_000\nt: 0b1\nu: yes\nv: 2025-01-01T00:00:00Z\n',
    ],
    [
      'quoted strings with escapes',
      'a: "tab\\there \\"q\\" \\\\ \\u00fc \\x41 \\U0001F680 \\/ \\N\\_\\L\\P \\0\\a\\b\\e\\f\\r\\v"\nb: \'it\'\'s\'\nc: ""\nd: \'\'\n',
    ],
    [
      'go-yaml folded plain scalar',
      'status:\n  message: 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n    available.\n'
        .replace('available: 3', 'available 3')
        .replace('preemption: 0', 'preemption 0'),
    ],
    [
      'go-yaml folded single-quoted scalar',
      "message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n  available: 3 No preemption victims found for incoming pod.'\n",
    ],
    [
      'double-quoted scalar folded over lines, with an empty line and escaped breaks',
      'a: "first line\n  second line\n\n  after a blank   \n  end\\\n  joined \\\n  kept"\n',
    ],
    ['literal blocks', 'a: |\n  line 1\n    indented\n\n  line 3\nb: |-\n  stripped\n\nc: |+\n  kept\n\n\nd: x\n'],
    ['literal block in a sequence and in a compact mapping', 'args:\n- |\n  #!/bin/sh\n  echo hi\n- name: x\n  script: |-\n    a: b\n    - c\n'],
    ['empty collections and nulls', 'a: {}\nb: []\nc: null\nd:\ne:\n  f: {}\n'],
    [
      'indentless and indented sequences',
      'a:\n- 1\n- x: 2\n  y: [ ]\n'.replace('[ ]', '[]') + 'b:\n  - 3\n  -   z: 4\n      w: 5\nc:\n-\n  nested: value\n- \n',
    ],
    ['keys that need quotes', '"a: b": 1\n\'#c\': 2\n"": 3\nd e: 4\n"null": 5\n'],
    ['CRLF line endings', 'a: 1\r\nb:\r\n- x\r\n- "y"\r\n'],
    ['plain scalars with inner punctuation', 'a: http://x/y?z=1#frag\nb: a:b\nc: -x\nd: x-\ne: "[]"\nf: a [b] {c}, d\ng: 50%\n'],
  ])('%s', (_label, text) => {
    expect(expectSameAsYaml(text)).not.toBe(BAIL);
  });

  it.each([
    ['comments', 'a: 1 # one\n'],
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['flow collections', 'a: [1, 2]\n'],
    ['folded blocks', 'a: >\n  x\n'],
    ['indentation indicators', 'a: |2\n   x\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['non-string keys', '1: a\n'],
    ['tabs in indentation', 'a:\n\tb: 1\n'],
    ['a document marker', '---\na: 1\n'],
    ['a scalar document', 'just text\n'],
    ['bad indentation', 'a:\n  b: 1\n c: 2\n'],
    ['a nested sequence on one line', '- - a\n'],
    ['a key with a tab after the colon', 'a:\tb\n'],
    ['a __proto__ key', '__proto__: 1\n'],
  ])('gives up on %s', (_label, text) => {
    expect(parseBlockYaml(text)).toBe(BAIL);
  });
});

const nasty = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom(
      ' ',
      ':',
      '#',
      '-',
      '"',
      "'",
      '\\',
      '\n',
      '\t',
      '|',
      '>',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      '?',
      'a',
      'b',
      '1',
      '.',
      'e',
      'ü',
      '🚀',
      '~',
    ),
    maxLength: 20,
  }),
  fc.constantFrom('true', 'False', 'null', '~', '', '0x1f', '0o17', '1e3', '.inf', '-.5', '007', '+1', 'yes', '2025-01-01', '1:2', 'a: b', '- x', '#x', 'x #y'),
);
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { weight: 4, arbitrary: nasty },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)) },
    { weight: 2, arbitrary: tie('map') },
    { weight: 1, arbitrary: tie('seq') },
  ),
  map: fc.dictionary(
    nasty.filter((k) => k !== '__proto__'),
    tie('value'),
    { maxKeys: 4 },
  ),
  seq: fc.array(tie('value'), { maxLength: 4 }),
}));

const options = fc.record({
  indentSeq: fc.boolean(),
  lineWidth: fc.constantFrom(0, 20, 80),
  minContentWidth: fc.constantFrom(0, 20),
  blockQuote: fc.constantFrom<ToStringOptions['blockQuote']>(true, false, 'literal', 'folded'),
  defaultStringType: fc.constantFrom<ToStringOptions['defaultStringType']>('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  defaultKeyType: fc.constantFrom<ToStringOptions['defaultKeyType']>(null, 'PLAIN', 'QUOTE_DOUBLE'),
  doubleQuotedAsJSON: fc.boolean(),
  indent: fc.constantFrom(2, 4),
});

describe('against yaml itself', () => {
  it('reads what yaml.stringify writes exactly as yaml.parse does, whenever it does not give up', () => {
    fc.assert(
      fc.property(fc.oneof(valueArb.map, valueArb.seq), options, (value, opts) => {
        const text = stringify(value, opts as ToStringOptions);
        expectSameAsYaml(text);
      }),
      { numRuns: 1500 },
    );
  });

  it('never accepts what yaml rejects, nor reads damaged text differently', () => {
    const damage = fc.constantFrom('', ' ', '  ', '\n', ':', '-', '- ', '"', "'", '\\', '#', '|', '{}', 'x: ', '\t');
    fc.assert(
      fc.property(valueArb.map, options, fc.nat(), damage, fc.boolean(), (value, opts, at, insert, replace) => {
        const text = stringify(value, opts as ToStringOptions);
        const k = at % (text.length + 1);
        const damaged = text.slice(0, k) + insert + text.slice(replace ? k + 1 : k);
        const fast = parseBlockYaml(damaged);
        if (fast === BAIL) return;
        const ref = reference(damaged);
        expect(ref).not.toBeUndefined();
        expect(fast).toEqual(ref);
      }),
      { numRuns: 3000 },
    );
  });

  it('falls back rarely on kubectl-like output', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const split = splitYamlList(text);
    expect(split?.items).toHaveLength(7);
    for (const { start, end } of split!.items) expect(parseBlockYaml(text, start, end)).not.toBe(BAIL);
  });
});

describe('splitYamlList', () => {
  it('splits kubectl output into items with their first lines, and keeps the rest as the header', () => {
    const text = 'apiVersion: v1\nitems:\n- a: 1\n  b:\n  - x\n\n- c: |\n    text\nkind: List\nmetadata:\n  resourceVersion: ""\n';
    const split = splitYamlList(text)!;
    expect(split.header).toBe('apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: ""\n');
    expect(split.items.map(({ start, end, line }) => [text.slice(start, end), line])).toEqual([
      ['- a: 1\n  b:\n  - x\n\n', 3],
      ['- c: |\n    text\n', 7],
    ]);
  });

  it('handles indented sequences and an empty list', () => {
    const split = splitYamlList('kind: List\nitems:\n  - a: 1\n  - b: 2\n')!;
    expect(split.items).toHaveLength(2);
    expect(splitYamlList('kind: List\nitems: []\n')).toBeUndefined();
    expect(splitYamlList('kind: List\nitems:\nmetadata: {}\n')?.items).toEqual([]);
  });

  it.each([
    ['several documents', 'items:\n- a: 1\n---\nitems:\n- b: 1\n'],
    ['a column-0 comment', 'items:\n- a: 1\n# note\n- b: 2\n'],
    ['two items keys', 'items:\n- a\nitems:\n- b\n'],
    ['no items', 'kind: Pod\n'],
    ['a sequence at the top', '- a\n'],
    ['badly indented items', 'items:\n  - a: 1\n - b: 2\n'],
  ])('declines %s', (_label, text) => {
    expect(splitYamlList(text)).toBeUndefined();
  });
});

describe('splitYamlList and leading comments', () => {
  it('skips comment lines before the content, and only those', () => {
    const text = '# notes\n\n  # indented note\napiVersion: v1\nitems:\n- a: 1\nkind: List\n';
    const split = splitYamlList(text)!;
    expect(split.items).toEqual([{ start: text.indexOf('- a'), end: text.indexOf('kind'), line: 6 }]);
    expect(parse(split.header)).toEqual({ apiVersion: 'v1', kind: 'List' });
    expect(splitYamlList('apiVersion: v1\nitems:\n- a: 1\n# later comment\nkind: List\n')).toBeUndefined();
  });
});
