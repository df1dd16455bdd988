// Flow-style YAML (`- {apiVersion: v1, kind: Pod, …}`, as some tools print it) reads to the same
// snapshot as kubectl's block YAML and as JSON; plain scalars resolve as `yaml` (YAML 1.2 core)
// reads them; errors still name the file and the line.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { UserError } from '../../src/errors.js';
import { parseSnapshotText } from '../../src/input/snapshot-files.js';
import { readYamlDocuments } from '../../src/input/yaml-read.js';
import { toYaml } from '../../src/render/yaml-emit.js';
import { objectArb } from './arbitraries.js';
import { flowYaml } from './helpers.js';

/** The outcome of reading `text`: the snapshot, or the error without its location. */
function outcome(text: string, file: string): unknown {
  try {
    const r = parseSnapshotText(text, file);
    return { snapshot: r.snapshot, skippedKinds: r.skippedKinds };
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    expect(message.startsWith(`${file}:`) || message.startsWith(`${file} `)).toBe(true);
    return message.slice(file.length).replace(/^(:\d+){0,2}: /, '');
  }
}

const header = 'apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ""}\nitems:\n';

describe('flow-style YAML', () => {
  it('reads to the same snapshot as block YAML and JSON, as a list, a flow document or documents', () => {
    fc.assert(
      fc.property(fc.array(objectArb, { maxLength: 6 }), (generated) => {
        const objects = JSON.parse(JSON.stringify(generated)) as unknown[];
        const list = { apiVersion: 'v1', kind: 'List', items: objects };
        const json = outcome(JSON.stringify(list, null, 2), 'snap.json');
        expect(outcome(toYaml(list), 'snap.yaml')).toEqual(json);
        expect(outcome(`${header}${objects.map((o) => `- ${flowYaml(o)}\n`).join('')}`, 'snap.yaml')).toEqual(json);
        // (A document opening with a brace is JSON to kubectl: a flow document follows a marker.)
        expect(outcome(`---\n${flowYaml(list)}\n`, 'snap.yaml')).toEqual(json);
        if (objects.length > 0) expect(outcome(objects.map((o) => `---\n${flowYaml(o)}\n`).join(''), 'snap.yaml')).toEqual(json);
      }),
      { numRuns: 200 },
    );
  });

  it("resolves plain scalars as yaml does (YAML 1.2 core schema), not as js-yaml's own schemas", () => {
    const plain = fc.oneof(
      fc.constantFrom(
        '1_000',
        '+.5',
        '.5',
        '-.5',
        '0o17',
        '017',
        '0x1F',
        '0b101',
        '1e3',
        '1E3',
        '1.',
        '+1',
        '-0',
        '.inf',
        '-.Inf',
        '.NaN',
        'true',
        'True',
        'TRUE',
        'tRue',
        'yes',
        'on',
        'null',
        'Null',
        '~',
        '2026-01-01',
        '2026-01-01T00:00:00Z',
        '12:30',
        '<<',
        '=',
        '0.1e1',
      ),
      fc.stringMatching(/^[-+.0-9eExob_a-f]{1,6}$/).filter((s) => !/^[-?:]/.test(s) || /^[-+.0-9]/.test(s.slice(1))),
    );
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        for (const text of [`- {k: ${a}, l: [${b}]}\n`, `- k: ${a}\n  l:\n  - ${b}\n`]) {
          let want: unknown;
          try {
            want = parseYaml(text);
          } catch {
            continue; // not YAML: read by yaml, which reports it
          }
          expect(readYamlDocuments(text, 'f.yaml')[0], text).toStrictEqual(want);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names the file and the line of a problem in a flow item, a flow document and a later document', () => {
    const bad = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop', uid: 'u' }, spec: { nodeName: ['a'] } };
    const good = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q', namespace: 'shop', uid: 'v' } };
    const message = 'Pod shop/p: spec.nodeName must be a string, got a list';
    expect(() => parseSnapshotText(`${header}- ${flowYaml(good)}\n- ${flowYaml(bad)}\n`, 'f.yaml')).toThrow(`error parsing f.yaml: ${message} (line 6)`);
    expect(() => parseSnapshotText(`---\n${flowYaml(good)}\n---\n# the bad one\n${flowYaml(bad)}\n`, 'f.yaml')).toThrow(
      `error parsing f.yaml: ${message} (line 5)`,
    );
    const multiLine = `--- {apiVersion: v1, kind: List,\n  items: [\n    ${flowYaml(good)},\n    ${flowYaml(bad).replace('spec:', '\n    spec:')}\n  ]}\n`;
    expect(() => parseSnapshotText(multiLine, 'f.yaml')).toThrow(`error parsing f.yaml: ${message} (line 5)`);
  });

  it('reports YAML errors in a flow item with the line', () => {
    expect(() => parseSnapshotText(`${header}- {apiVersion: v1, kind: Pod, metadata: {name: p, uid: u}}\n- {apiVersion: v1, kind: [Pod}\n`, 'e.yaml')).toThrow(
      /^error parsing e\.yaml: invalid YAML: .* \(line 6, column \d+\)$/,
    );
  });
});

describe('duplicate fields (strict decoding)', () => {
  const rs = (spec: string) =>
    `{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web", "namespace": "shop", "uid": "u1"}, "spec": {${spec}}}`;
  const twice = '"replicas": 1, "selector": {"matchLabels": {"app": "web"}}, "replicas": 100000';

  it.each([
    [
      'JSON, in a list (streamed item)',
      `{"apiVersion": "v1", "kind": "List", "items": [\n  ${rs('"replicas": 2')},\n  ${rs(twice)}\n]}`,
      'error parsing d.json: strict decoding error: duplicate field "items[1].spec.replicas" (line 3)',
    ],
    [
      'JSON, a list on one line',
      `{"apiVersion": "v1", "kind": "List", "items": [${rs('"replicas": 2')}, ${rs(twice)}]}`,
      'error parsing d.json: strict decoding error: duplicate field "items[1].spec.replicas" (line 1)',
    ],
    [
      "JSON, a list's own metadata",
      `{"apiVersion": "v1", "kind": "List", "items": [${rs('"replicas": 2')}],\n"metadata": {"resourceVersion": "", "resourceVersion": "7"}}`,
      'error parsing d.json: strict decoding error: duplicate field "metadata.resourceVersion" (line 2)',
    ],
    [
      'JSON, top level of a list document',
      '{"apiVersion": "v1", "kind": "List",\n"items": [],\n"items": []}',
      'error parsing d.json: strict decoding error: duplicate field "items" (line 3)',
    ],
    [
      'JSON, one object, nested deep',
      `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u",\n "labels": {"a": "1", "b": "2", "a": "3"}}}`,
      'error parsing d.json: strict decoding error: duplicate field "metadata.labels.a" (line 2)',
    ],
    [
      'JSON, one object, top level',
      '{"apiVersion": "v1", "kind": "Pod",\n"metadata": {"name": "p", "uid": "u"}, "kind": "Pod"}',
      'error parsing d.json: strict decoding error: duplicate field "kind" (line 2)',
    ],
    [
      'JSON, a name spelled with an escape',
      '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u", "na\\u006de": "q"}}',
      'error parsing d.json: strict decoding error: duplicate field "metadata.name" (line 1)',
    ],
    [
      'JSON, in a list element',
      `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u",\n"ownerReferences": [{"kind": "ReplicaSet", "name": "a", "uid": "x", "controller": true, "controller": false}]}}`,
      'error parsing d.json: strict decoding error: duplicate field "metadata.ownerReferences[0].controller" (line 2)',
    ],
    ['NDJSON', `${rs('"replicas": 2')}\n${rs(twice)}\n`, 'error parsing d.json: strict decoding error: duplicate field "spec.replicas" (line 2)'],
  ])('%s', (_label, text, message) => {
    expect(() => parseSnapshotText(text, 'd.json')).toThrow(message);
    expect(() => parseSnapshotText(text, 'd.json')).toThrow(UserError);
  });

  // A list of several MiB: each element is split off and checked by the same scan.
  const padded = (spec: string, i: number) =>
    `{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-${i}", "namespace": "shop", "uid": "u${i}",\n "annotations": {"pad": "${'x'.repeat(100_000)}"}}, "spec": {${spec}}}`;
  const bigList = (special: string) =>
    `{"apiVersion": "v1", "kind": "List", "items": [\n${Array.from({ length: 50 }, (_, i) => (i === 42 ? special : padded('"replicas": 2', i))).join(',\n')}\n]}`;

  it.each([
    ['a name twice', padded(twice, 42), 'error parsing d.json: strict decoding error: duplicate field "items[42].spec.replicas" (line 87)'],
    [
      'a name spelled with an escape',
      padded('"replicas": 2, "replica\\u0073": 3', 42),
      'error parsing d.json: strict decoding error: duplicate field "items[42].spec.replicas" (line 87)',
    ],
    [
      'a name twice, deep in a list',
      padded('"template": {"spec": {"containers": [{"name": "a", "image": "i", "name": "b"}]}}', 42),
      'error parsing d.json: strict decoding error: duplicate field "items[42].spec.template.spec.containers[0].name" (line 87)',
    ],
  ])('JSON, a list read element by element: %s', (_label, special, message) => {
    const text = bigList(special);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(() => parseSnapshotText(text, 'd.json')).toThrow(message);
  });

  it('JSON, a list read element by element: names that share a fingerprint are not a duplicate', () => {
    // "abcd" and "axcd": the same length, first, middle and last bytes
    const r = parseSnapshotText(bigList(padded('"replicas": 2, "selector": {"matchLabels": {"abcd": "1", "axcd": "2"}}', 42)), 'd.json');
    expect(r.snapshot.controllers.ReplicaSet).toHaveLength(50);
  });

  const blockItem = (replicas: string) =>
    `- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: web\n    namespace: shop\n    uid: u1\n  spec:\n${replicas}    selector:\n      matchLabels:\n        app: web\n`;
  it.each([
    [
      'block YAML, in a kubectl list',
      `apiVersion: v1\nkind: List\nitems:\n${blockItem('    replicas: 1\n')}${blockItem('    replicas: 1\n    replicas: 100000\n')}`,
      'error parsing d.yaml: strict decoding error: duplicate field "items[1].spec.replicas" (line 23)',
    ],
    [
      'block YAML, top level',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  uid: u\nkind: Pod\n',
      'error parsing d.yaml: strict decoding error: duplicate field "kind" (line 6)',
    ],
    [
      'block YAML, a later document, nested',
      'kind: Service\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  uid: u\n  labels:\n    a: "1"\n    a: "2"\n',
      'error parsing d.yaml: strict decoding error: duplicate field "metadata.labels.a" (line 10)',
    ],
    [
      'flow YAML, in a list',
      `${header}- {apiVersion: v1, kind: Pod, metadata: {name: p, uid: u}}\n- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web, uid: u1}, spec: {replicas: 1, replicas: 2}}\n`,
      'error parsing d.yaml: strict decoding error: duplicate field "items[1].spec.replicas" (line 6)',
    ],
    [
      'flow YAML, a flow document, top level',
      '--- {apiVersion: v1, kind: Pod, metadata: {name: p, uid: u}, apiVersion: v1}\n',
      'error parsing d.yaml: strict decoding error: duplicate field "apiVersion" (line 1)',
    ],
    [
      'flow YAML, keys that are one key to JSON',
      '---\n{apiVersion: v1, kind: Pod, metadata: {name: p, uid: u, labels: {1: a, "1": b}}}\n',
      'error parsing d.yaml: strict decoding error: duplicate field "metadata.labels[\\"1\\"]" (line 2)',
    ],
  ])('%s', (_label, text, message) => {
    expect(() => parseSnapshotText(text, 'd.yaml')).toThrow(message);
  });
});
