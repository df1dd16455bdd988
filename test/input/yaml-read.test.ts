import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify, type ToStringOptions } from 'yaml';

import { readYamlDocuments, YamlLineIndex } from '../../src/input/yaml-read.js';

// `yaml` (a dev dependency) is the independent YAML 1.2 core-schema reader these tests hold
// js-yaml, as configured in yaml-read.ts, to.

const FIXTURE = fileURLToPath(new URL('./fixtures/kubectl-get-rs-rc-pods.yaml', import.meta.url));

const read = (text: string): unknown => readYamlDocuments(text, 'f.yaml')[0];

/** What `yaml` makes of `text`, or undefined if it reports an error. */
function reference(text: string): unknown {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  return docs[0]?.toJS() ?? null;
}

describe('plain scalars and block styles as YAML 1.2 core reads them', () => {
  it('reads the kubectl fixture as yaml does', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    expect(read(text)).toEqual(parse(text));
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
    expect(read(text)).toEqual(reference(text));
  });

  it.each([
    ['comments', 'a: 1 # one\n'],
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['!!str', 'a: !!str 1\n'],
    ['flow collections', 'a: [1, 2, {b: c}]\n'],
    ['folded blocks', 'a: >\n  x\n  y\n'],
    ['indentation indicators', 'a: |2\n   x\n'],
    ['a document marker', '---\na: 1\n'],
  ])('%s', (_label, text) => {
    expect(read(text)).toEqual(reference(text));
  });
});

describe('problems', () => {
  it('refuses a key given twice, naming its path and line', () => {
    expect(() => readYamlDocuments('a: 1\nb:\n  - c: 1\n    d: 2\n    c: 3\n', 'f.yaml')).toThrow(
      'error parsing f.yaml: strict decoding error: duplicate field "b[0].c" (line 5)',
    );
    expect(() => readYamlDocuments('a: 1\n---\nx: {y: 1, y: 2}\n', 'f.yaml')).toThrow('duplicate field "x.y" (line 3)');
  });

  it('reports a syntax error on one line, with its line and column', () => {
    for (const text of ['a: [1\n', 'a:\n  b: 1\n c: 2\n', 'a: "x\n', 'a: *nowhere\n', 'a: !!int "1"\n', '\tb: 1\n']) {
      expect(() => readYamlDocuments(text, 'f.yaml'), text).toThrow(/^error parsing f\.yaml: invalid YAML: [^\n]+ \(line \d+, column \d+\)$/);
    }
  });

  it('refuses aliases that expand beyond the text (billion laughs), quickly', () => {
    const names = 'abcdefghij';
    let bomb = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n';
    for (let i = 1; i < names.length; i++)
      bomb += `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(', ')}]\n`;
    expect(() => readYamlDocuments(bomb, 'f.yaml')).toThrow('error parsing f.yaml: invalid YAML: aliases expand to more nodes than the text holds');
    // a few aliases, as a hand-written file has them, are read
    expect(readYamlDocuments('base: &b {app: web}\nx: *b\ny: *b\n', 'f.yaml')).toEqual([{ base: { app: 'web' }, x: { app: 'web' }, y: { app: 'web' } }]);
  });
});

describe('YamlLineIndex', () => {
  it('names the line of a path: the key of the deepest member that exists, in any document', () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata:\n    name: a\n    labels: {x: "1", y: 2}\n  spec:\n    containers:\n    - name: c\n      image: i\n---\n---\nfoo: 1\nfoo: 2\n';
    const lines = new YamlLineIndex(text);
    expect(lines.line(0, ['items', 0, 'spec', 'containers', 0, 'image'])).toBe(11);
    expect(lines.line(0, ['items', 0, 'metadata', 'labels', 'y'])).toBe(7);
    expect(lines.line(0, ['items', 0, 'metadata', 'nope'])).toBe(5);
    expect(lines.line(0, ['items', 0])).toBe(4);
    expect(lines.line(2, ['foo'])).toBe(15);
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
  it('reads what yaml.stringify writes exactly as yaml.parse does (property)', () => {
    fc.assert(
      fc.property(fc.oneof(valueArb.map, valueArb.seq), options, (value, opts) => {
        const text = stringify(value, opts as ToStringOptions);
        expect(read(text), text).toEqual(parse(text));
      }),
      { numRuns: 1500 },
    );
  });
});
