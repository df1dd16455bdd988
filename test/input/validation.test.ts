import { describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import { parseSnapshotText } from '../../src/input/snapshot-files.js';

function errorOf(text: string, file = 'snap.yaml'): string {
  try {
    parseSnapshotText(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    const message = (e as UserError).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected an error');
}

/** A ReplicaSet; `spec` lines start at line 8, `extra` lines (top level) follow them. */
function rsDoc(spec: string[] = ['replicas: 1'], extra: string[] = [], meta: string[] = []): string {
  return [
    'apiVersion: apps/v1', // 1
    'kind: ReplicaSet', // 2
    'metadata:', // 3
    '  name: web', // 4
    '  namespace: shop', // 5
    '  uid: u-1', // 6
    ...meta.map((l) => `  ${l}`),
    'spec:', // 7 (+ meta lines)
    ...spec.map((l) => `  ${l}`),
    ...extra,
    '',
  ].join('\n');
}

/** A Pod; `meta` lines start at line 7, then spec and status. */
function podDoc(meta: string[] = [], spec: string[] = [], status: string[] = []): string {
  return [
    'apiVersion: v1', // 1
    'kind: Pod', // 2
    'metadata:', // 3
    '  name: p', // 4
    '  namespace: shop', // 5
    '  uid: u-2', // 6
    ...meta.map((l) => `  ${l}`),
    ...(spec.length ? ['spec:', ...spec.map((l) => `  ${l}`)] : []),
    ...(status.length ? ['status:', ...status.map((l) => `  ${l}`)] : []),
    '',
  ].join('\n');
}

describe('field errors: one line, with file, line, object and path', () => {
  it('matches the documented example', () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: apps/v1',
      '  kind: ReplicaSet',
      '  metadata:',
      '    name: web',
      '    namespace: default',
      '    uid: 1b7e6b3c-0000-4000-8000-000000000001',
      '    labels:',
      '      app: web',
      '    creationTimestamp: "2025-01-01T00:00:00Z"',
      '  spec:',
      '    replicas: three',
      '',
    ].join('\n');
    expect(errorOf(text)).toBe('error parsing snap.yaml: ReplicaSet default/web: spec.replicas must be an integer, got string "three" (line 14)');
  });

  it.each([
    ['negative replicas', ['replicas: -1'], 'error parsing snap.yaml: ReplicaSet shop/web: spec.replicas must not be negative, got -1 (line 8)'],
    ['fractional replicas', ['replicas: 1.5'], 'error parsing snap.yaml: ReplicaSet shop/web: spec.replicas must be an integer, got number 1.5 (line 8)'],
    [
      'replicas beyond int32',
      ['replicas: 3000000000'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.replicas must be at most 2147483647, got 3000000000 (line 8)',
    ],
    [
      'minReadySeconds as a string',
      ['replicas: 1', 'minReadySeconds: "10"'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.minReadySeconds must be an integer, got string "10" (line 9)',
    ],
    ['selector not a mapping', ['selector: [app]'], 'error parsing snap.yaml: ReplicaSet shop/web: spec.selector must be a mapping, got a list (line 8)'],
    [
      'matchLabels value not a string',
      ['selector:', '  matchLabels:', '    tier: web', '    app: 1'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.selector.matchLabels.app must be a string, got number 1 (line 11)',
    ],
    [
      'matchLabels key with a dot',
      ['selector:', '  matchLabels:', '    app.kubernetes.io/name: true'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.selector.matchLabels["app.kubernetes.io/name"] must be a string, got boolean true (line 10)',
    ],
    [
      'typo in the selector',
      ['selector:', '  matchLabel:', '    app: web'],
      'error parsing snap.yaml: ReplicaSet shop/web: unknown field "spec.selector.matchLabel" (line 9)',
    ],
    [
      'a requirement that is not a mapping',
      ['selector:', '  matchExpressions:', '  - app'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.selector.matchExpressions[0] must be a mapping, got string "app" (line 10)',
    ],
    [
      'values not strings',
      ['selector:', '  matchExpressions:', '  - {key: a, operator: In, values: [x, 2]}'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.selector.matchExpressions[0].values[1] must be a string, got number 2 (line 10)',
    ],
    ['typo in the spec', ['replcas: 3'], 'error parsing snap.yaml: ReplicaSet shop/web: unknown field "spec.replcas" (line 8)'],
    [
      'template label not a string',
      ['template:', '  metadata:', '    labels:', '      app: true'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.template.metadata.labels.app must be a string, got boolean true (line 11)',
    ],
    ['typo in the template', ['template:', '  metdata: {}'], 'error parsing snap.yaml: ReplicaSet shop/web: unknown field "spec.template.metdata" (line 9)'],
    [
      'template spec not a mapping',
      ['template:', '  spec: []'],
      'error parsing snap.yaml: ReplicaSet shop/web: spec.template.spec must be a mapping, got a list (line 9)',
    ],
  ])('ReplicaSet: %s', (_label, spec, message) => {
    expect(errorOf(rsDoc(spec))).toBe(message);
  });

  it('does not judge label-selector semantics (the planner skips such a controller, like upstream)', () => {
    const r = parseSnapshotText(
      rsDoc(['selector:', '  matchExpressions:', '  - {key: "bad key!", operator: Equals, values: []}', '  - {key: a, operator: ""}']),
      's.yaml',
    );
    expect(r.snapshot.controllers.ReplicaSet[0].spec.selector?.matchExpressions).toHaveLength(2);
  });

  it.each([
    ['unknown top-level field', rsDoc(['replicas: 1'], ['spce: {}']), 'error parsing snap.yaml: ReplicaSet shop/web: unknown field "spce" (line 9)'],
    [
      'status count not an integer',
      rsDoc(['replicas: 1'], ['status:', '  replicas: "2"']),
      'error parsing snap.yaml: ReplicaSet shop/web: status.replicas must be an integer, got string "2" (line 10)',
    ],
    [
      'status conditions not a list',
      rsDoc(['replicas: 1'], ['status:', '  conditions: {}']),
      'error parsing snap.yaml: ReplicaSet shop/web: status.conditions must be a list, got a mapping (line 10)',
    ],
    [
      'condition time not RFC3339',
      rsDoc(['replicas: 1'], ['status:', '  conditions:', '  - type: ReplicaFailure', '    status: "True"', '    lastTransitionTime: soon']),
      'error parsing snap.yaml: ReplicaSet shop/web: status.conditions[0].lastTransitionTime must be an RFC3339 timestamp like "2006-01-02T15:04:05Z", got string "soon" (line 13)',
    ],
    [
      'condition without a type',
      rsDoc(['replicas: 1'], ['status:', '  conditions:', '  - status: "True"']),
      'error parsing snap.yaml: ReplicaSet shop/web: status.conditions[0].type is missing (line 11)',
    ],
  ])('ReplicaSet: %s', (_label, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it('ReplicationController: the selector is a string map', () => {
    const text = [
      'apiVersion: v1',
      'kind: ReplicationController',
      'metadata: {name: rc, uid: u}',
      'spec:',
      '  selector:',
      '    matchLabels: {app: x}',
      '',
    ].join('\n');
    expect(errorOf(text)).toBe('error parsing snap.yaml: ReplicationController default/rc: spec.selector.matchLabels must be a string, got a mapping (line 6)');
    const ok = parseSnapshotText(text.replace('    matchLabels: {app: x}', '    app: x'), 'rc.yaml');
    expect(ok.snapshot.controllers.ReplicationController[0].spec.selector).toEqual({ app: 'x' });
  });

  it.each([
    ['labels not a mapping', ['labels: [a]'], 'error parsing snap.yaml: Pod shop/p: metadata.labels must be a mapping, got a list (line 7)'],
    ['label value not a string', ['labels:', '  app: 1'], 'error parsing snap.yaml: Pod shop/p: metadata.labels.app must be a string, got number 1 (line 8)'],
    [
      'annotation value not a string',
      ['annotations:', '  controller.kubernetes.io/pod-deletion-cost: 5'],
      'error parsing snap.yaml: Pod shop/p: metadata.annotations["controller.kubernetes.io/pod-deletion-cost"] must be a string, got number 5 (line 8)',
    ],
    [
      'ownerReferences not a list',
      ['ownerReferences: {}'],
      'error parsing snap.yaml: Pod shop/p: metadata.ownerReferences must be a list, got a mapping (line 7)',
    ],
    [
      'ownerReference not a mapping',
      ['ownerReferences:', '- {uid: a, kind: ReplicaSet, name: r}', '- x'],
      'error parsing snap.yaml: Pod shop/p: metadata.ownerReferences[1] must be a mapping, got string "x" (line 9)',
    ],
    [
      'ownerReference without uid',
      ['ownerReferences:', '- kind: ReplicaSet', '  name: r'],
      'error parsing snap.yaml: Pod shop/p: metadata.ownerReferences[0].uid is missing (line 8)',
    ],
    [
      'ownerReference kind not a string',
      ['ownerReferences:', '- uid: a', '  kind: 5', '  name: r'],
      'error parsing snap.yaml: Pod shop/p: metadata.ownerReferences[0].kind must be a string, got number 5 (line 9)',
    ],
    [
      'ownerReference controller not a boolean',
      ['ownerReferences:', '- {uid: a, kind: ReplicaSet, name: r, controller: "yes"}'],
      'error parsing snap.yaml: Pod shop/p: metadata.ownerReferences[0].controller must be a boolean, got string "yes" (line 8)',
    ],
    [
      'impossible date',
      ['creationTimestamp: "2025-02-30T00:00:00Z"'],
      'error parsing snap.yaml: Pod shop/p: metadata.creationTimestamp must be an RFC3339 timestamp like "2006-01-02T15:04:05Z", got string "2025-02-30T00:00:00Z" (line 7)',
    ],
    [
      'date without a zone',
      ['deletionTimestamp: "2025-01-01 00:00:00"'],
      'error parsing snap.yaml: Pod shop/p: metadata.deletionTimestamp must be an RFC3339 timestamp like "2006-01-02T15:04:05Z", got string "2025-01-01 00:00:00" (line 7)',
    ],
    [
      'timestamp as a number',
      ['creationTimestamp: 1700000000'],
      'error parsing snap.yaml: Pod shop/p: metadata.creationTimestamp must be an RFC3339 timestamp string, got number 1700000000 (line 7)',
    ],
    ['typo in metadata', ['lables: {app: x}'], 'error parsing snap.yaml: Pod shop/p: unknown field "metadata.lables" (line 7)'],
    ['generation negative', ['generation: -2'], 'error parsing snap.yaml: Pod shop/p: metadata.generation must not be negative, got -2 (line 7)'],
    ['finalizers not strings', ['finalizers: [a, 1]'], 'error parsing snap.yaml: Pod shop/p: metadata.finalizers[1] must be a string, got number 1 (line 7)'],
  ])('metadata: %s', (_label, meta, message) => {
    expect(errorOf(podDoc(meta))).toBe(message);
  });

  it('accepts null where the API allows it', () => {
    const r = parseSnapshotText(
      podDoc(
        ['creationTimestamp: null', 'deletionTimestamp: null', 'labels: null', 'ownerReferences: null'],
        ['nodeName: null'],
        ['conditions:', '- type: Ready', '  status: "True"', '  lastProbeTime: null', '  lastTransitionTime: null'],
      ),
      'n.yaml',
    );
    expect(r.snapshot.pods[0].metadata).toMatchObject({ creationTimestamp: null, deletionTimestamp: null, labels: null, ownerReferences: null });
    expect(r.snapshot.pods[0].spec).toEqual({});
  });

  it('accepts RFC3339 variants Go accepts: fractions and numeric zones', () => {
    const r = parseSnapshotText(podDoc(['creationTimestamp: "2025-06-01T12:00:00.123456+02:00"', 'deletionTimestamp: "2024-02-29T23:59:59-07:30"']), 't.yaml');
    expect(r.snapshot.pods[0].metadata.creationTimestamp).toBe('2025-06-01T12:00:00.123456+02:00');
  });

  it.each([
    ['nodeName not a string', [], ['nodeName: 5'], 'error parsing snap.yaml: Pod shop/p: spec.nodeName must be a string, got number 5 (line 8)'],
    [
      'init container without a name',
      [],
      ['initContainers:', '- image: x'],
      'error parsing snap.yaml: Pod shop/p: spec.initContainers[0].name is missing (line 9)',
    ],
    [
      'init container restartPolicy not a string',
      [],
      ['initContainers:', '- name: a', '  restartPolicy: 1'],
      'error parsing snap.yaml: Pod shop/p: spec.initContainers[0].restartPolicy must be a string, got number 1 (line 10)',
    ],
    ['phase not a string', ['phase: 1'], [], 'error parsing snap.yaml: Pod shop/p: status.phase must be a string, got number 1 (line 8)'],
    [
      'unquoted True in a condition (YAML makes it a boolean)',
      ['conditions:', '- type: Ready', '  status: True'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.conditions[0].status must be a string, got boolean true (line 10)',
    ],
    [
      'condition without a type',
      ['conditions:', '- {type: Ready, status: "True"}', '- {status: "True"}'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.conditions[1].type is missing (line 10)',
    ],
    [
      'condition not a mapping',
      ['conditions: [Ready]'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.conditions[0] must be a mapping, got string "Ready" (line 8)',
    ],
    [
      'restartCount as a string',
      ['containerStatuses:', '- name: c', '  restartCount: "1"'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.containerStatuses[0].restartCount must be an integer, got string "1" (line 10)',
    ],
    [
      'ready as a string',
      ['containerStatuses:', '- {name: c, ready: "true"}'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.containerStatuses[0].ready must be a boolean, got string "true" (line 9)',
    ],
    [
      'negative restartCount of an init container',
      ['initContainerStatuses:', '- {name: c, restartCount: -1}'],
      [],
      'error parsing snap.yaml: Pod shop/p: status.initContainerStatuses[0].restartCount must not be negative, got -1 (line 9)',
    ],
  ])('Pod: %s', (_label, status, spec, message) => {
    expect(errorOf(podDoc([], spec, status))).toBe(message);
  });

  it('ignores unknown fields inside a pod spec or status (only the top level is strict)', () => {
    const r = parseSnapshotText(podDoc([], ['containers: [{name: c}]', 'someNewField: 1'], ['newStatusField: x']), 'p.yaml');
    expect(r.snapshot.pods[0].spec).toEqual({});
  });

  it('reports an unknown top-level field of a Pod', () => {
    expect(errorOf(`${podDoc()}stauts: {}\n`)).toBe('error parsing snap.yaml: Pod shop/p: unknown field "stauts" (line 7)');
  });
});

describe('object errors', () => {
  it.each([
    [
      'metadata.name missing (single object)',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  uid: u\n',
      'error parsing snap.yaml: Pod: metadata.name is missing (line 3)',
    ],
    [
      'metadata.name missing (in a list)',
      'kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    uid: u\n',
      'error parsing snap.yaml: Pod at items[0]: metadata.name is missing (line 5)',
    ],
    [
      'metadata missing',
      'kind: List\nitems:\n- {kind: Pod}\n- apiVersion: v1\n  kind: ReplicaSet\n',
      'error parsing snap.yaml: Pod at items[0]: metadata.name is missing (line 3)',
    ],
    ['metadata not a mapping', 'apiVersion: v1\nkind: Pod\nmetadata: p\n', 'error parsing snap.yaml: Pod: metadata must be a mapping, got string "p" (line 3)'],
    [
      'name not a string',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: 5\n  uid: u\n',
      'error parsing snap.yaml: Pod: metadata.name must be a string, got number 5 (line 4)',
    ],
    [
      'uid missing',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n',
      'error parsing snap.yaml: Pod ns/p: metadata.uid is missing: a snapshot must come from the API server (e.g. kubectl get rs,rc,pods -A -o yaml) (line 3)',
    ],
    ['kind missing', 'apiVersion: v1\nmetadata: {name: x}\n', 'error parsing snap.yaml: kind is missing (every object needs apiVersion and kind) (line 1)'],
    [
      'kind missing in a list',
      'apiVersion: v1\nkind: List\nitems:\n- metadata: {name: x}\n',
      'error parsing snap.yaml: items[0]: kind is missing (every object needs apiVersion and kind) (line 4)',
    ],
    ['kind not a string', 'apiVersion: v1\nkind: 5\n', 'error parsing snap.yaml: kind must be a string, got number 5 (line 2)'],
    ['apiVersion not a string', 'apiVersion: 1\nkind: Pod\n', 'error parsing snap.yaml: apiVersion must be a string, got number 1 (line 1)'],
    ['items not a list', 'apiVersion: v1\nkind: List\nitems: {a: 1}\n', 'error parsing snap.yaml: List: items must be a list, got a mapping (line 3)'],
    [
      'an item that is not a mapping',
      'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n- oops\n',
      'error parsing snap.yaml: items[1]: expected a mapping (an object), got string "oops" (line 7)',
    ],
    [
      'a nested item that is not a mapping',
      'kind: List\nitems:\n- kind: List\n  items:\n  - 42\n',
      'error parsing snap.yaml: items[0].items[0]: expected a mapping (an object), got number 42 (line 5)',
    ],
    ['a document that is a scalar', 'hello\n', 'error parsing snap.yaml: expected a mapping (an object), got string "hello" (line 1)'],
    ['a document that is a list', '---\n- a\n- b\n', 'error parsing snap.yaml: expected a mapping (an object), got a list (line 2)'],
    [
      'the second document',
      'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n',
      'error parsing snap.yaml: Pod default/p: metadata.uid is missing: a snapshot must come from the API server (e.g. kubectl get rs,rc,pods -A -o yaml) (line 7)',
    ],
  ])('%s', (_label, text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it('shortens long values in messages', () => {
    const long = 'x'.repeat(100);
    expect(errorOf(podDoc([], [`nodeName: [${long}]`]))).toBe('error parsing snap.yaml: Pod shop/p: spec.nodeName must be a string, got a list (line 8)');
    expect(errorOf(rsDoc([`replicas: "${long}"`]))).toBe(
      `error parsing snap.yaml: ReplicaSet shop/web: spec.replicas must be an integer, got string "${'x'.repeat(57)}..." (line 8)`,
    );
  });
});

describe('YAML syntax errors', () => {
  it.each([
    ['bad indentation', 'a:\n  b: 1\n c: 2\n', 'error parsing snap.yaml: invalid YAML: bad indentation of a mapping entry (line 3, column 2)'],
    [
      'unterminated quote',
      'kind: "Pod\n',
      'error parsing snap.yaml: invalid YAML: unexpected end of the stream within a double quoted scalar (line 2, column 1)',
    ],
    ['nested mapping on one line', 'kind: a: b\n', 'error parsing snap.yaml: invalid YAML: bad indentation of a mapping entry (line 1, column 8)'],
    [
      'tab indentation',
      'kind: Pod\nmetadata:\n\tname: x\n',
      'error parsing snap.yaml: invalid YAML: tab characters must not be used in indentation (line 3, column 1)',
    ],
    ['alias to nothing', 'kind: *nope\n', 'error parsing snap.yaml: invalid YAML: unidentified alias "nope" (line 1, column 12)'],
    [
      'error in a later document',
      'kind: Service\nmetadata: {name: s}\n---\nkind: [\n',
      'error parsing snap.yaml: invalid YAML: unexpected end of the stream within a flow collection (line 5, column 1)',
    ],
  ])('%s', (_label, text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});

describe('JSON errors', () => {
  it('names the line of the field in pretty-printed JSON, and line 1 in compact JSON', () => {
    const doc = {
      apiVersion: 'v1',
      items: [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ok', namespace: 'ns', uid: '1' } },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'ns', uid: '2' }, spec: { replicas: 'three' } },
      ],
      kind: 'List',
    };
    const pretty = JSON.stringify(doc, null, 4);
    const line = pretty.split('\n').findIndex((l) => l.includes('"replicas"')) + 1;
    expect(errorOf(pretty, 'snap.json')).toBe(
      `error parsing snap.json: ReplicaSet ns/web: spec.replicas must be an integer, got string "three" (line ${line})`,
    );
    expect(errorOf(JSON.stringify(doc), 'snap.json')).toBe(
      'error parsing snap.json: ReplicaSet ns/web: spec.replicas must be an integer, got string "three" (line 1)',
    );
  });

  it('names the line of the object for a missing field, and the NDJSON line', () => {
    const lines = [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', uid: '1' } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' } },
    ].map((o) => JSON.stringify(o));
    expect(errorOf(lines.join('\n'), 'snap.ndjson')).toBe(
      'error parsing snap.ndjson: Pod default/b: metadata.uid is missing: a snapshot must come from the API server (e.g. kubectl get rs,rc,pods -A -o yaml) (line 3)',
    );
  });

  it('reports item errors when the list kind comes after the items, in document order', () => {
    const text = JSON.stringify(
      {
        items: [
          { metadata: { name: 'a', uid: '1' }, spec: { nodeName: 1 } },
          { kind: 'Pod', metadata: { name: 'b' } },
        ],
        kind: 'PodList',
        apiVersion: 'v1',
      },
      null,
      2,
    );
    expect(errorOf(text, 'snap.json')).toBe('error parsing snap.json: Pod default/a: spec.nodeName must be a string, got number 1 (line 9)');
    const second = JSON.stringify({ items: [{ metadata: { name: 'a', uid: '1' } }, { kind: 'Pod', metadata: { name: 'b' } }], kind: 'PodList' }, null, 2);
    expect(errorOf(second, 'snap.json')).toMatch(/^error parsing snap\.json: Pod default\/b: metadata\.uid is missing.* \(line 11\)$/);
  });

  it('does not report item errors of an object that turns out not to be a list', () => {
    const text = JSON.stringify({ items: [{ kind: 'Pod', metadata: { name: 'no-uid' } }], kind: 'Basket', apiVersion: 'example.com/v1' }, null, 2);
    expect(parseSnapshotText(text, 'b.json').skippedKinds).toEqual({ Basket: 1 });
  });

  it.each([
    [
      'a trailing comma in an object',
      '{"kind":"List","items":[{"a":1,}]}',
      'error parsing snap.json: invalid JSON: Expected double-quoted property name (line 1, column 32)',
    ],
    ['a trailing comma in the items', '{"kind":"List","items":[{"a":1},]}', "error parsing snap.json: invalid JSON: unexpected ']' (line 1, column 33)"],
    [
      'a bad literal',
      '{"kind":"List","items":[{"a":tru}]}',
      "error parsing snap.json: invalid JSON: Unexpected token '}' in the value that starts here (line 1, column 25)",
    ],
    ['a leading zero', '{"kind":"List","items":[{"a":01}]}', 'error parsing snap.json: invalid JSON: Unexpected number (line 1, column 31)'],
    ['a bad escape', '{"kind":"List","items":[{"a":"x\\qy"}]}', 'error parsing snap.json: invalid JSON: Bad escaped character (line 1, column 33)'],
    [
      'a raw tab in a string',
      '{"kind":"List","items":[{"a":"x\ty"}]}',
      'error parsing snap.json: invalid JSON: Bad control character in string literal (line 1, column 32)',
    ],
    [
      'a missing comma at the top',
      '{"kind":"List" "items":[]}',
      "error parsing snap.json: invalid JSON: Expected ',' or '}' after property value (line 1, column 16)",
    ],
    ['a missing colon', '{"kind" "List"}', "error parsing snap.json: invalid JSON: Expected ':' after property name (line 1, column 9)"],
    [
      'a truncated file',
      '{"kind":"List","items":[{"a":"b"}]',
      "error parsing snap.json: invalid JSON: Expected ',' or '}' after property value (line 1, column 35)",
    ],
    ['a truncated string', '{"kind":"List","items":[{"a":"b', 'error parsing snap.json: invalid JSON: Unterminated string (line 1, column 32)'],
    [
      'garbage after the document',
      '{"kind":"List","items":[]}\nx',
      "error parsing snap.json: invalid JSON: Unexpected token 'x' in the value that starts here (line 2, column 1)",
    ],
    ['a single quote', "{'kind': 'Pod'}", "error parsing snap.json: invalid JSON: Expected property name or '}' (line 1, column 2)"],
    [
      'non-ASCII garbage, columns in characters',
      '{"kind":"Pod","ü":"ü" é}',
      "error parsing snap.json: invalid JSON: Expected ',' or '}' after property value (line 1, column 23)",
    ],
  ])('%s', (_label, text, message) => {
    expect(errorOf(text, 'snap.json')).toBe(message);
  });

  it('finds the error line in a big pretty-printed list', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, uid: `${i}` } }));
    const lines = JSON.stringify({ apiVersion: 'v1', items, kind: 'List' }, null, 2).split('\n');
    const at = lines.findIndex((l) => l.includes('"p37"'));
    lines[at] = lines[at].replace('"p37",', '"p37" oops,');
    expect(errorOf(lines.join('\n'), 'snap.json')).toBe(
      `error parsing snap.json: invalid JSON: Expected ',' or '}' after property value (line ${at + 1}, column 23)`,
    );
  });

  it('reads a list document the same whether it is parsed whole (one line) or streamed (pretty)', () => {
    const docs = [
      { kind: 'List', apiVersion: 1, items: [] },
      { apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'a', uid: '1' } }], metadata: {} },
      { items: [{ metadata: { name: 'a', uid: '1' } }], apiVersion: 'v1', kind: 'PodList' },
      { items: [{ kind: 'Pod', metadata: { name: 'a' } }], kind: 'List' },
    ];
    for (const doc of docs) {
      const outcome = (text: string) => {
        try {
          return parseSnapshotText(text, 'snap.json');
        } catch (e) {
          return (e as Error).message.replace(/ \(line \d+\)$/, '');
        }
      };
      expect(outcome(JSON.stringify(doc, null, 2))).toEqual(outcome(JSON.stringify(doc)));
    }
    // A kind repeated after the items, contradicting the first: refused (strict decoding), read whole or streamed.
    const repeated = '{"apiVersion": "v1", "kind": "PodList", "items": [\n  {"metadata": {"name": "a", "uid": "1"}}\n], "kind": "List"}';
    expect(errorOf(repeated, 'snap.json')).toBe('error parsing snap.json: strict decoding error: duplicate field "kind" (line 3)');
    expect(errorOf(repeated.replace(/\n/g, ''), 'snap.json')).toBe('error parsing snap.json: strict decoding error: duplicate field "kind" (line 1)');
  });

  it.each([
    ['a top-level list', '[{"kind":"Pod"}]', 'error parsing snap.json: expected a mapping (an object), got a list (line 1)'],
    ['a top-level number', '42', 'error parsing snap.json: expected a mapping (an object), got number 42 (line 1)'],
    [
      'an apiVersion that is not a string',
      '{"kind":"List","apiVersion":1,"items":[]}',
      'error parsing snap.json: apiVersion must be a string, got number 1 (line 1)',
    ],
    ['an empty object', '{}', 'error parsing snap.json: kind is missing (every object needs apiVersion and kind) (line 1)'],
  ])('%s', (_label, text, message) => {
    expect(errorOf(text, 'snap.json')).toBe(message);
  });
});
