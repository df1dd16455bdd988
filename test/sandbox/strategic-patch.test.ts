// Strategic merge patch against a table of cases written from reading apimachinery's
// strategicpatch tests (patch_test.go: the custom and raw two-way cases, whose patch applied to
// the original gives the modified document, or an error). The schema is that file's MergeItem:
// mergingList (merge, key name), mergingIntList (merge), nonMerging* (replaced), mergeItemPtr
// (merge, key name), replacingItem (strategy replace), retainKeysMergingList (merge, key name);
// nested items are MergeItems again, so a field's metadata depends on its name only.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/sandbox/errors.js';
import { applyStrategicMergePatch } from '../../src/sandbox/patch.js';
import { strategicMergePatch, type PatchMeta } from '../../src/sandbox/strategic-patch.js';

const FIELDS: Record<string, PatchMeta> = {
  mergingList: { strategy: 'merge', mergeKey: 'name' },
  mergingIntList: { strategy: 'merge' },
  mergeItemPtr: { strategy: 'merge', mergeKey: 'name' },
  replacingItem: { strategy: 'replace' },
  retainKeysMergingList: { strategy: 'merge', mergeKey: 'name' },
};
const schema = (path: readonly string[]) => FIELDS[path[path.length - 1]] ?? {};
const apply = (original: object, patch: object) => strategicMergePatch(structuredClone(original) as never, patch, schema);

interface Case {
  name: string;
  original: object;
  patch: object;
  result?: object;
  /** The status code and a part of the message of the error the server answers. */
  error?: [number, string];
}

const CASES: Case[] = [
  // scalars
  { name: 'unique scalars when merging lists', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [2, 3] }, result: { mergingIntList: [1, 2, 3] } },
  {
    name: 'a list of scalars keeps the patch order for its items, the live order for the rest',
    original: { mergingIntList: [1, 2, 3] },
    patch: { mergingIntList: [3, 1] },
    result: { mergingIntList: [2, 3, 1] },
  },
  {
    name: 'a list of scalars without merge strategy is replaced',
    original: { nonMergingIntList: [1, 2] },
    patch: { nonMergingIntList: [3] },
    result: { nonMergingIntList: [3] },
  },
  // $patch on maps
  {
    name: '$patch: delete on a nested map leaves an empty map',
    original: { simpleMap: { key1: 1, key2: 1 } },
    patch: { simpleMap: { $patch: 'delete' } },
    result: { simpleMap: {} },
  },
  { name: '$patch: replace on the whole object deletes every key', original: { name: 1, value: 1 }, patch: { $patch: 'replace' }, result: {} },
  {
    name: '$patch: replace with a key keeps only the patch',
    original: { name: 1, value: 1 },
    patch: { other: 'a', $patch: 'replace' },
    result: { other: 'a' },
  },
  {
    name: 'an unknown $patch on a map is an error',
    original: { simpleMap: { a: 'b' } },
    patch: { simpleMap: { $patch: 'shred' } },
    error: [500, 'unknown patch type: shred in map: map[$patch:shred]'],
  },
  {
    name: 'a field with the replace strategy is replaced, not merged',
    original: { replacingItem: { a: 1, b: 2 } },
    patch: { replacingItem: { c: 3 } },
    result: { replacingItem: { c: 3 } },
  },
  {
    name: 'a null deletes the key; a null inside a new value is dropped',
    original: { name: 'a', value: 'b' },
    patch: { value: null, simpleMap: { x: '1', y: null } },
    result: { name: 'a', simpleMap: { x: '1' } },
  },
  // $patch in lists with a merge key
  {
    name: '$patch: replace as a list element empties the list',
    original: { mergingList: [{ name: 1 }, { name: 2 }] },
    patch: { mergingList: [{ $patch: 'replace' }] },
    result: { mergingList: [] },
  },
  {
    name: '$patch: replace takes the other elements of the patch, in their order',
    original: { mergingList: [{ name: 1, value: 'a' }, { name: 2 }] },
    patch: { mergingList: [{ name: 3 }, { $patch: 'replace' }, { name: 1 }] },
    result: { mergingList: [{ name: 3 }, { name: 1 }] },
  },
  {
    name: '$patch: delete deletes every element with that key, and touches no other',
    original: { mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }] },
    patch: {
      mergingList: [
        { name: 1, $patch: 'delete' },
        { name: 3, $patch: 'delete' },
      ],
    },
    result: { mergingList: [{ name: 2, value: 'a' }] },
  },
  {
    name: 'deleting an element the list lacks changes nothing',
    original: { mergingList: [{ name: 1 }, { name: 2 }] },
    patch: { mergingList: [{ name: 9, $patch: 'delete' }] },
    result: { mergingList: [{ name: 1 }, { name: 2 }] },
  },
  {
    name: '$patch: delete without the merge key is an error',
    original: { mergingList: [{ name: 1 }] },
    patch: { mergingList: [{ value: 1, $patch: 'delete' }] },
    error: [500, 'does not contain declared merge key: name'],
  },
  {
    name: '$patch: merge in a list is refused',
    original: { mergingList: [{ name: 1 }] },
    patch: { mergingList: [{ $patch: 'merge' }] },
    error: [500, 'merging lists cannot yet be specified in the patch'],
  },
  {
    name: 'an element without the merge key is an error',
    original: { mergingList: [{ name: 1, value: 'a' }] },
    patch: { mergingList: [{ value: 'b' }] },
    error: [500, 'does not contain declared merge key'],
  },
  // order of merged lists
  {
    name: 'the patch order wins for the elements it names',
    original: { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
    patch: {
      mergingList: [
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
        { name: 2, other: 'x' },
      ],
    },
    result: {
      mergingList: [
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
        { name: 2, value: 'b', other: 'x' },
      ],
    },
  },
  {
    name: 'server-only elements keep their place before the patched ones that follow them',
    original: { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
    patch: {
      mergingList: [
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
      ],
    },
    result: {
      mergingList: [
        { name: 2, value: 'b' },
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
      ],
    },
  },
  {
    name: 'a list without merge strategy is replaced whole',
    original: { nonMergingList: [{ name: 1 }, { name: 2 }] },
    patch: { nonMergingList: [{ name: 3 }] },
    result: { nonMergingList: [{ name: 3 }] },
  },
  // $setElementOrder
  {
    name: '$setElementOrder may name an element the list lacks',
    original: { mergingList: [{ name: 1 }, { name: 3 }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }],
      mergingList: [
        { name: 3, value: 3 },
        { name: 1, value: 1 },
      ],
    },
    result: {
      mergingList: [
        { name: 3, value: 3 },
        { name: 1, value: 1 },
      ],
    },
  },
  {
    name: '$setElementOrder alone reorders a list of scalars',
    original: { mergingIntList: [1, 3] },
    patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
    result: { mergingIntList: [3, 1] },
  },
  {
    name: '$setElementOrder with server-only elements',
    original: { mergingList: [{ name: 1 }, { name: 2, value: 2 }, { name: 3, value: 3 }, { name: 4, value: 4 }] },
    patch: { '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }, { name: 4 }, { name: 3 }] },
    result: { mergingList: [{ name: 2, value: 2 }, { name: 1 }, { name: 4, value: 4 }, { name: 3, value: 3 }] },
  },
  {
    name: 'add and delete in one patch, in the $setElementOrder order',
    original: { mergingList: [{ name: 1 }, { name: 3, value: 3 }, { name: 2, value: 2 }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 4 }, { name: 2 }, { name: 1 }],
      mergingList: [
        { name: 4, value: 4 },
        { name: 3, $patch: 'delete' },
      ],
    },
    result: { mergingList: [{ name: 4, value: 4 }, { name: 2, value: 2 }, { name: 1 }] },
  },
  {
    name: '$setElementOrder with duplicate keys in the live list',
    original: { mergingList: [{ name: 1 }, { name: 2, value: 'dup1' }, { name: 3 }, { name: 2, value: 'dup2' }, { name: 4 }] },
    patch: { '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }, { name: 4 }, { name: 3 }, { name: 2 }] },
    result: { mergingList: [{ name: 2, value: 'dup1' }, { name: 2, value: 'dup2' }, { name: 1 }, { name: 4 }, { name: 3 }] },
  },
  {
    name: '$setElementOrder whose order contradicts the patch list is an error',
    original: { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }],
      mergingList: [
        { name: 3, value: 3 },
        { name: 1, value: 1 },
      ],
    },
    error: [500, "doesn't match $setElementOrder list"],
  },
  {
    name: '$setElementOrder/ with no list name is a bad request',
    original: { mergingIntList: [1] },
    patch: { $setElementOrder: [1] },
    error: [400, 'invalid patch format of setElementOrder list'],
  },
  // $deleteFromPrimitiveList
  {
    name: '$deleteFromPrimitiveList removes from a merging list',
    original: { mergingIntList: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [2] },
    result: { mergingIntList: [1, 3] },
  },
  {
    name: '$deleteFromPrimitiveList removes from a list without merge strategy too',
    original: { nonMergingIntList: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
    result: { nonMergingIntList: [1, 3] },
  },
  {
    name: '$deleteFromPrimitiveList of a missing item adds nothing',
    original: { mergingIntList: [1, 2] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2] },
  },
  {
    name: '$deleteFromPrimitiveList of a missing list adds no list',
    original: { foo: ['bar'] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { foo: ['bar'] },
  },
  {
    name: '$deleteFromPrimitiveList with $setElementOrder removes every copy',
    original: { mergingIntList: [1, 2, 3, 3] },
    patch: { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2] },
  },
  // $retainKeys
  {
    name: '$retainKeys clears the keys it does not name',
    original: { retainKeysMap: { name: 'foo', value: 'bar' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: null } },
    result: { retainKeysMap: { name: 'foo' } },
  },
  {
    name: '$retainKeys with a new key',
    original: { retainKeysMap: { name: 'foo', other: 'x' } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar' } },
    result: { retainKeysMap: { name: 'foo', value: 'bar' } },
  },
  {
    name: '$retainKeys that leaves out a key the patch sets is a bad request',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'bar' } },
    error: [400, 'invalid patch format of retainKeys'],
  },
  {
    name: '$retainKeys must be a list',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: 'name' } },
    error: [400, 'invalid patch format of retainKeys'],
  },
  {
    name: '$retainKeys with a nested list of scalars: add, delete and order',
    original: { retainKeysMap: { name: 'foo', mergingIntList: [1, 2, 3] } },
    patch: {
      retainKeysMap: {
        $retainKeys: ['mergingIntList', 'name'],
        mergingIntList: [5],
        '$deleteFromPrimitiveList/mergingIntList': [2],
        '$setElementOrder/mergingIntList': [1, 3, 5],
      },
    },
    result: { retainKeysMap: { name: 'foo', mergingIntList: [1, 3, 5] } },
  },
  {
    name: '$retainKeys with a nested merging list: delete an element',
    original: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }] } },
    patch: {
      retainKeysMap: { $retainKeys: ['mergingList', 'name'], '$setElementOrder/mergingList': [{ name: 'a' }], mergingList: [{ name: 'b', $patch: 'delete' }] },
    },
    result: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }] } },
  },
  {
    name: '$retainKeys inside an element of a merging list',
    original: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    patch: {
      '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
      retainKeysMergingList: [{ $retainKeys: ['name'], name: 'foo', value: null }],
    },
    result: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
  },
  // shapes strategicpatch refuses
  {
    name: 'lists of lists are not supported',
    original: { mergingIntList: [[1]] },
    patch: { mergingIntList: [[2]] },
    error: [422, 'lists of lists are not supported'],
  },
  {
    name: 'elements of different types are refused',
    original: { mergingIntList: [1] },
    patch: { mergingIntList: ['a'] },
    error: [500, 'list element types are not identical'],
  },
  {
    name: 'a value of another type replaces the live one',
    original: { mergingList: [{ name: 1 }] },
    patch: { mergingList: 'x' },
    result: { mergingList: 'x' },
  },
];

describe('strategic merge patch, as strategicpatch applies it', () => {
  for (const c of CASES) {
    it(c.name, () => {
      if (c.error) {
        let err: unknown;
        try {
          apply(c.original, c.patch);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe(c.error[0]);
        expect((err as ApiError).message).toContain(c.error[1]);
      } else {
        expect(apply(c.original, c.patch)).toEqual(c.result);
      }
    });
  }

  it('leaves the original and the patch as they were', () => {
    const original = { mergingList: [{ name: 1, value: 'a' }] };
    const patch = { mergingList: [{ name: 1, value: 'b' }, { name: 2 }], $retainKeys: ['mergingList'] };
    const [o, p] = [structuredClone(original), structuredClone(patch)];
    applyStrategicMergePatch('Pod', original, patch);
    expect([original, patch]).toEqual([o, p]);
  });
});

describe("the controller's own patches on a pod (built-in list strategies)", () => {
  const refs = [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid' },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'web-uid', controller: true, blockOwnerDeletion: true },
    { apiVersion: 'v1', kind: 'Secret', name: 's', uid: 's-uid' },
  ];
  const pod = { kind: 'Pod', metadata: { name: 'p', uid: 'pod-uid', ownerReferences: refs, labels: { app: 'web' } } };

  it('release: `$patch: delete` of the controller reference by uid leaves the other references as they were', () => {
    const out = applyStrategicMergePatch('Pod', pod, { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'web-uid' }], uid: 'pod-uid' } });
    expect(out.metadata.ownerReferences).toEqual([refs[0], refs[2]]);
    expect(out.metadata.labels).toEqual({ app: 'web' });
  });

  it('adopt: the new controller reference goes before the server-only ones, which are kept whole', () => {
    const orphan = { ...pod, metadata: { ...pod.metadata, ownerReferences: [refs[0], refs[2]] } };
    const out = applyStrategicMergePatch('Pod', orphan, { metadata: { ownerReferences: [refs[1]], uid: 'pod-uid' } });
    expect(out.metadata.ownerReferences).toEqual([refs[1], refs[0], refs[2]]);
  });
});

// Every list of the built-in kinds the sandbox serves, with the strategy its Go struct tag declares
// (core/v1 and apps/v1 types.go: `patchStrategy:"merge" patchMergeKey:"…"`, or none: replaced).
describe('built-in lists: the patchStrategy and patchMergeKey of their struct tags', () => {
  const c = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: `${name}:1`, ...extra });
  const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', uid: 'pod-uid', ...metadata },
    spec,
  });

  it('ownerReferences merge by uid: a release sent again when nothing matches changes nothing', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'A', controller: true },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'B' },
    ];
    const live = pod({ containers: [c('x')] }, { ownerReferences: refs });
    const release = { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'A' }], uid: 'pod-uid' } };
    const once = applyStrategicMergePatch('Pod', live, release);
    expect(once.metadata.ownerReferences).toEqual([refs[1]]);
    expect(applyStrategicMergePatch('Pod', once, release)).toEqual(once);
    // a reference with the same uid merges into the entry (merge key), whatever its name says
    const merged = applyStrategicMergePatch('Pod', live, { metadata: { ownerReferences: [{ uid: 'B', blockOwnerDeletion: true }] } });
    expect(merged.metadata.ownerReferences).toEqual([refs[0], { ...refs[1], blockOwnerDeletion: true }]);
  });

  it('containers merge by name: the other containers are kept, in their order; a new one goes first (mergeSortedSlice puts what the server lacks before it)', () => {
    const live = pod({ containers: [c('a'), c('b')] });
    expect(applyStrategicMergePatch('Pod', live, { spec: { containers: [{ name: 'b', image: 'b:2' }] } }).spec.containers).toEqual([
      c('a'),
      c('b', { image: 'b:2' }),
    ]);
    expect(applyStrategicMergePatch('Pod', live, { spec: { containers: [c('z')] } }).spec.containers).toEqual([c('z'), c('a'), c('b')]);
    expect(applyStrategicMergePatch('Pod', live, { spec: { containers: [{ name: 'a', $patch: 'delete' }] } }).spec.containers).toEqual([c('b')]);
    expect(applyStrategicMergePatch('Pod', live, { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } }).spec.containers).toEqual([
      c('b'),
      c('a'),
    ]);
  });

  it('env merges by name, ports by containerPort, volumeMounts by mountPath (inside the container of that name)', () => {
    const live = pod({
      containers: [
        c('a', {
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          volumeMounts: [{ name: 'v', mountPath: '/v' }],
        }),
      ],
    });
    const out = applyStrategicMergePatch('Pod', live, {
      spec: {
        containers: [
          {
            name: 'a',
            env: [
              { name: 'B', value: '3' },
              { name: 'C', value: '4' },
              { name: 'A', $patch: 'delete' },
            ],
            ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }],
            volumeMounts: [{ mountPath: '/v', readOnly: true }],
          },
        ],
      },
    });
    expect(out.spec.containers[0].env).toEqual([
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ]);
    expect(out.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }]);
    expect(out.spec.containers[0].volumeMounts).toEqual([{ name: 'v', mountPath: '/v', readOnly: true }]);
  });

  it('volumes and imagePullSecrets merge by name; `$patch: replace` in the list replaces it', () => {
    const live = pod({ containers: [c('a')], volumes: [{ name: 'v1', emptyDir: {} }], imagePullSecrets: [{ name: 's1' }] });
    const out = applyStrategicMergePatch('Pod', live, { spec: { volumes: [{ name: 'v2', emptyDir: {} }], imagePullSecrets: [{ name: 's2' }] } });
    expect(out.spec.volumes).toEqual([
      { name: 'v2', emptyDir: {} },
      { name: 'v1', emptyDir: {} },
    ]);
    expect(out.spec.imagePullSecrets).toEqual([{ name: 's2' }, { name: 's1' }]);
    const replaced = applyStrategicMergePatch('Pod', live, { spec: { volumes: [{ name: 'v3', emptyDir: {} }, { $patch: 'replace' }] } });
    expect(replaced.spec.volumes).toEqual([{ name: 'v3', emptyDir: {} }]);
  });

  it('tolerations, readinessGates, envFrom, args and resizePolicy have no patch strategy: the patch list replaces them', () => {
    const live = pod({
      containers: [c('a', { args: ['x'], envFrom: [{ configMapRef: { name: 'm' } }], resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] })],
      tolerations: [{ key: 'k1', operator: 'Exists' }],
      readinessGates: [{ conditionType: 'g1' }],
    });
    const out = applyStrategicMergePatch('Pod', live, {
      spec: {
        tolerations: [{ key: 'k2', operator: 'Exists' }],
        readinessGates: [{ conditionType: 'g2' }],
        containers: [
          { name: 'a', args: ['y'], envFrom: [{ secretRef: { name: 's' } }], resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
        ],
      },
    });
    expect(out.spec.tolerations).toEqual([{ key: 'k2', operator: 'Exists' }]);
    expect(out.spec.readinessGates).toEqual([{ conditionType: 'g2' }]);
    expect(out.spec.containers[0].args).toEqual(['y']);
    expect(out.spec.containers[0].envFrom).toEqual([{ secretRef: { name: 's' } }]);
    expect(out.spec.containers[0].resizePolicy).toEqual([{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
  });

  it('finalizers are a merging list of strings: added once, removed with $deleteFromPrimitiveList', () => {
    const live = pod({ containers: [c('a')] }, { finalizers: ['a', 'b'] });
    expect(applyStrategicMergePatch('Pod', live, { metadata: { finalizers: ['b', 'c'] } }).metadata.finalizers).toEqual(['a', 'b', 'c']);
    expect(applyStrategicMergePatch('Pod', live, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }).metadata.finalizers).toEqual(['b']);
  });

  it('status lists: conditions by type, podIPs by ip', () => {
    const live = {
      ...pod({ containers: [c('a')] }),
      status: {
        conditions: [
          { type: 'Ready', status: 'False' },
          { type: 'PodScheduled', status: 'True' },
        ],
        podIPs: [{ ip: '10.0.0.1' }],
      },
    };
    const out = applyStrategicMergePatch('Pod', live, { status: { conditions: [{ type: 'Ready', status: 'True' }], podIPs: [{ ip: 'fd00::1' }] } });
    expect(out.status.conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);
    expect(out.status.podIPs).toEqual([{ ip: 'fd00::1' }, { ip: '10.0.0.1' }]);
  });

  it("a ReplicaSet's template lists as a pod's; a Node's podCIDRs merge as a set, its taints are replaced; a ServiceAccount's secrets merge by name", () => {
    const rs = { kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { template: { spec: { containers: [c('a'), c('b')] } } } };
    expect(
      applyStrategicMergePatch('ReplicaSet', rs, { spec: { template: { spec: { containers: [{ name: 'a', image: 'a:2' }] } } } }).spec.template.spec.containers,
    ).toEqual([c('a', { image: 'a:2' }), c('b')]);
    const node = { kind: 'Node', metadata: { name: 'n' }, spec: { podCIDRs: ['10.0.0.0/24'], taints: [{ key: 'a', effect: 'NoSchedule' }] } };
    const patched = applyStrategicMergePatch('Node', node, { spec: { podCIDRs: ['fd00::/64'], taints: [{ key: 'b', effect: 'NoSchedule' }] } });
    expect(patched.spec.podCIDRs).toEqual(['fd00::/64', '10.0.0.0/24']);
    expect(patched.spec.taints).toEqual([{ key: 'b', effect: 'NoSchedule' }]);
    const sa = { kind: 'ServiceAccount', metadata: { name: 'default' }, secrets: [{ name: 's1' }], imagePullSecrets: [{ name: 'p1' }] };
    const sa2 = applyStrategicMergePatch('ServiceAccount', sa, { secrets: [{ name: 's2' }], imagePullSecrets: [{ name: 'p2' }] });
    expect(sa2.secrets).toEqual([{ name: 's2' }, { name: 's1' }]);
    expect(sa2.imagePullSecrets).toEqual([{ name: 'p2' }]);
  });
});
