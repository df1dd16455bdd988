// Patches: upstream's adopt/release strategic merge patches, the uid precondition, owner
// reference validation, JSON patch and JSON merge patch; plus the patch engine on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../../src/sandbox/patch.js';
import { ApiError } from '../../src/sandbox/errors.js';
import { failure, mergePatch, podBody, rsBody, smp, startEnv, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  // Owner references here point at objects that do not exist: the garbage collector would
  // (rightly) delete those pods, so it is off for this file.
  env = await startEnv({ gc: false });
});
afterAll(async () => {
  await env.sb.close();
});

// The exact bodies of replicaset-controller.md §5 (field order as upstream marshals them).
const adoptBody = (rsName: string, rsUid: string, podUid: string) =>
  JSON.parse(
    `{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"${rsName}","uid":"${rsUid}","controller":true,"blockOwnerDeletion":true}],"uid":"${podUid}"}}`,
  );
const releaseBody = (rsUid: string, podUid: string) => JSON.parse(`{"metadata":{"uid":"${podUid}","ownerReferences":[{"$patch":"delete","uid":"${rsUid}"}]}}`);

describe('adopt and release as upstream sends them (strategic merge patch)', () => {
  it('adopts: the ownerReferences list gains the controller entry first, other owners are kept after it', async () => {
    const x = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('x', 0, { app: 'shop' }) });
    const pod = await env.core.createNamespacedPod({
      namespace: 'default',
      body: podBody('orphan-1', { app: 'shop' }, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'keeper', uid: 'other-owner-uid' }] }),
    });
    const adopted = await env.core.patchNamespacedPod(
      { name: 'orphan-1', namespace: 'default', body: adoptBody('x', x.metadata!.uid!, pod.metadata!.uid!) },
      smp(),
    );
    // strategicpatch puts an entry new to the server before the server-only ones
    expect(adopted.metadata?.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: x.metadata!.uid, controller: true, blockOwnerDeletion: true },
      { apiVersion: 'v1', kind: 'Node', name: 'keeper', uid: 'other-owner-uid' },
    ]);
  });

  it('rejects the adopt patch when metadata.uid differs: 422 Invalid, field is immutable (not 409)', async () => {
    const x = await env.apps.readNamespacedReplicaSet({ name: 'x', namespace: 'default' });
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('recreated', { app: 'shop' }) });
    const f = await failure(
      env.core.patchNamespacedPod({ name: 'recreated', namespace: 'default', body: adoptBody('x', x.metadata!.uid!, 'uid-of-the-old-pod') }, smp()),
    );
    expect(f.code).toBe(422);
    expect(f.status.reason).toBe('Invalid');
    expect(f.status.message).toBe('Pod "recreated" is invalid: metadata.uid: Invalid value: "uid-of-the-old-pod": field is immutable');
    expect(f.status.details).toEqual({
      name: 'recreated',
      kind: 'Pod',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "uid-of-the-old-pod": field is immutable', field: 'metadata.uid' }],
    });
    const unchanged = await env.core.readNamespacedPod({ name: 'recreated', namespace: 'default' });
    expect(unchanged.metadata?.ownerReferences).toBeUndefined();
  });

  it('rejects a second controller reference with the real message', async () => {
    const y = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('y', 0, { app: 'two' }) });
    const x2 = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('x2', 0, { app: 'two2' }) });
    const pod = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('contested', { app: 'two' }) });
    await env.core.patchNamespacedPod({ name: 'contested', namespace: 'default', body: adoptBody('y', y.metadata!.uid!, pod.metadata!.uid!) }, smp());
    const f = await failure(
      env.core.patchNamespacedPod({ name: 'contested', namespace: 'default', body: adoptBody('x2', x2.metadata!.uid!, pod.metadata!.uid!) }, smp()),
    );
    expect(f.code).toBe(422);
    expect(f.status.reason).toBe('Invalid');
    expect(f.status.message).toMatch(
      /^Pod "contested" is invalid: metadata\.ownerReferences: Invalid value: \[\]v1\.OwnerReference\{v1\.OwnerReference\{APIVersion:"apps\/v1", Kind:"ReplicaSet", Name:"x2", /,
    );
    // the new reference comes first in the merged list, so it is named first (facts page: "for ReplicaSet/y and ReplicaSet/x")
    expect(f.status.message).toMatch(/: Only one reference can have Controller set to true\. Found "true" in references for ReplicaSet\/x2 and ReplicaSet\/y$/);
    expect(f.status.details?.causes?.[0]?.field).toBe('metadata.ownerReferences');
  });

  it('releases: the entry is gone; sent again when nothing matches: 200 and no change', async () => {
    const x = await env.apps.readNamespacedReplicaSet({ name: 'x', namespace: 'default' });
    const pod = await env.core.readNamespacedPod({ name: 'orphan-1', namespace: 'default' });
    const released = await env.core.patchNamespacedPod(
      { name: 'orphan-1', namespace: 'default', body: releaseBody(x.metadata!.uid!, pod.metadata!.uid!) },
      smp(),
    );
    expect(released.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'keeper', uid: 'other-owner-uid' }]);
    const again = await env.core.patchNamespacedPod({ name: 'orphan-1', namespace: 'default', body: releaseBody(x.metadata!.uid!, pod.metadata!.uid!) }, smp());
    expect(again.metadata?.resourceVersion).toBe(released.metadata?.resourceVersion);
    expect(again.metadata?.ownerReferences).toEqual(released.metadata?.ownerReferences);
    const stale = await failure(
      env.core.patchNamespacedPod({ name: 'orphan-1', namespace: 'default', body: releaseBody(x.metadata!.uid!, 'some-other-uid') }, smp()),
    );
    expect(stale.code).toBe(422);
  });
});

describe('strategic merge patch on lists and maps', () => {
  it('labels and annotations merge, null deletes; finalizers merge as a set; $deleteFromPrimitiveList removes', async () => {
    await env.core.createNamespacedPod({
      namespace: 'default',
      body: podBody('smp-meta', { a: '1', b: '2' }, { annotations: { k: 'v' }, finalizers: ['example.com/one'] }),
    });
    const p = await env.core.patchNamespacedPod(
      { name: 'smp-meta', namespace: 'default', body: { metadata: { labels: { b: null, c: '3' }, annotations: { n: 'm' }, finalizers: ['example.com/two'] } } },
      smp(),
    );
    expect(p.metadata?.labels).toEqual({ a: '1', c: '3' });
    expect(p.metadata?.annotations).toEqual({ k: 'v', n: 'm' });
    expect(p.metadata?.finalizers).toEqual(['example.com/two', 'example.com/one']);
    const q = await env.core.patchNamespacedPod(
      { name: 'smp-meta', namespace: 'default', body: { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/one', 'example.com/two'] } } },
      smp(),
    );
    expect(q.metadata?.finalizers).toBeUndefined();
  });

  it('lists with a merge key merge by it; lists without one are replaced', async () => {
    const rs = rsBody('smp-rs', 0, { app: 'smp-rs' }) as any;
    rs.spec.template.spec.containers = [
      { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] },
      { name: 'b', image: 'b:1' },
    ];
    rs.spec.template.spec.tolerations = [
      { key: 'k1', operator: 'Exists' },
      { key: 'k2', operator: 'Exists' },
    ];
    await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rs });
    const out = await env.apps.patchNamespacedReplicaSet(
      {
        name: 'smp-rs',
        namespace: 'default',
        body: {
          spec: {
            template: {
              spec: {
                containers: [
                  { name: 'a', env: [{ name: 'Y', value: '2' }] },
                  { name: 'b', $patch: 'delete' },
                ],
                tolerations: [{ key: 'k3', operator: 'Exists' }],
              },
            },
          },
        },
      },
      smp(),
    );
    const spec = out.spec!.template!.spec!;
    expect(spec.containers.map((c) => c.name)).toEqual(['a']);
    expect(spec.containers[0].image).toBe('a:1');
    expect(spec.containers[0].env).toEqual([
      { name: 'Y', value: '2' },
      { name: 'X', value: '1' },
    ]);
    expect(spec.tolerations).toEqual([{ key: 'k3', operator: 'Exists' }]);
    expect(out.metadata?.generation).toBe(2);
  });

  it('JSON merge patch replaces the whole ownerReferences array', async () => {
    await env.core.createNamespacedPod({
      namespace: 'default',
      body: podBody(
        'mp',
        { app: 'mp' },
        {
          ownerReferences: [
            { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u1' },
            { apiVersion: 'v1', kind: 'Node', name: 'n2', uid: 'u2' },
          ],
        },
      ),
    });
    const p = await env.core.patchNamespacedPod(
      { name: 'mp', namespace: 'default', body: { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n3', uid: 'u3' }] } } },
      mergePatch(),
    );
    expect(p.metadata?.ownerReferences?.map((r) => r.uid)).toEqual(['u3']);
  });

  it('JSON patch: add, replace, remove, test; a failing test answers 422', async () => {
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('jp', { app: 'jp' }) });
    const p = await env.core.patchNamespacedPod({
      name: 'jp',
      namespace: 'default',
      body: [
        { op: 'test', path: '/metadata/labels/app', value: 'jp' },
        { op: 'add', path: '/metadata/labels/tier', value: 'fe' },
        { op: 'replace', path: '/metadata/labels/app', value: 'jp2' },
        { op: 'add', path: '/metadata/annotations', value: { 'a/b': 'c' } },
      ],
    });
    expect(p.metadata?.labels).toEqual({ app: 'jp2', tier: 'fe' });
    expect(p.metadata?.annotations).toEqual({ 'a/b': 'c' });
    const q = await env.core.patchNamespacedPod({ name: 'jp', namespace: 'default', body: [{ op: 'remove', path: '/metadata/annotations/a~1b' }] });
    expect(q.metadata?.annotations).toBeUndefined();
    const f = await failure(
      env.core.patchNamespacedPod({ name: 'jp', namespace: 'default', body: [{ op: 'test', path: '/metadata/labels/app', value: 'nope' }] }),
    );
    // the apiserver answers errors.NewGenericServerResponse(422, …, isUnexpectedResponse=false):
    // the generic text, empty details, the json-patch error itself is not sent
    const generic422 = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      details: {},
      message: 'the server rejected our request due to an error in our request',
    };
    expect(f.code).toBe(422);
    expect(f.status).toEqual(generic422);
    const r = await failure(env.core.patchNamespacedPod({ name: 'jp', namespace: 'default', body: [{ op: 'remove', path: '/metadata/labels/missing' }] }));
    expect(r.status).toEqual(generic422);
    const u = await failure(env.core.patchNamespacedPod({ name: 'jp', namespace: 'default', body: [{ op: 'replace', path: '/spec/nope/x', value: 1 }] }));
    expect(u.status).toEqual(generic422);
  });

  it('a stale metadata.resourceVersion in a patch is a 409 precondition', async () => {
    const p = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('rvp', { app: 'rvp' }) });
    await env.core.patchNamespacedPod({ name: 'rvp', namespace: 'default', body: { metadata: { labels: { x: '1' } } } }, mergePatch());
    const f = await failure(
      env.core.patchNamespacedPod(
        { name: 'rvp', namespace: 'default', body: { metadata: { resourceVersion: p.metadata!.resourceVersion, labels: { y: '1' } } } },
        mergePatch(),
      ),
    );
    expect(f.code).toBe(409);
    expect(f.status.reason).toBe('Conflict');
  });

  it('server-side apply is not served: 415', async () => {
    const r = await failure(
      env.core.patchNamespacedPod(
        { name: 'rvp', namespace: 'default', body: {} },
        (await import('@kubernetes/client-node')).setHeaderOptions('Content-Type', 'application/apply-patch+yaml'),
      ),
    );
    expect(r.code).toBe(415);
  });
});

describe('the patch engine', () => {
  it('strategic merge: $patch replace on a map, $retainKeys, $setElementOrder', () => {
    const target = {
      kind: 'Pod',
      spec: {
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '2' },
        ],
        nodeSelector: { x: '1', y: '2' },
      },
    };
    expect(applyStrategicMergePatch('Pod', target, { spec: { nodeSelector: { $patch: 'replace', z: '3' } } }).spec.nodeSelector).toEqual({ z: '3' });
    expect(applyStrategicMergePatch('Pod', target, { spec: { nodeSelector: { $retainKeys: ['y'], y: '9' } } }).spec.nodeSelector).toEqual({ y: '9' });
    const ordered = applyStrategicMergePatch('Pod', target, {
      spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }, { name: 'a' }], containers: [{ name: 'c', image: '3' }] },
    });
    expect(ordered.spec.containers.map((c: any) => c.name)).toEqual(['b', 'c', 'a']);
    expect(() => applyStrategicMergePatch('Pod', { metadata: { ownerReferences: [] } }, { metadata: { ownerReferences: [{ name: 'no-uid' }] } })).toThrow(
      ApiError,
    );
  });

  it('strategic merge orders a merged list as strategicpatch does: patch items in patch order, new ones ahead of the server-only items', () => {
    const names = (l: any[]) => l.map((c: any) => c.name);
    const pod = (...cs: string[]) => ({ kind: 'Pod', spec: { containers: cs.map((name) => ({ name, image: name })) } });
    const smpOf = (target: any, containers: any[]) => applyStrategicMergePatch('Pod', target, { spec: { containers } }).spec.containers;
    const refs = applyStrategicMergePatch(
      'Pod',
      { metadata: { ownerReferences: [{ uid: 'web', name: 'web', controller: true }] } },
      { metadata: { ownerReferences: [{ uid: 'cm', name: 'cm' }] } },
    );
    expect(refs.metadata.ownerReferences.map((r: any) => r.uid)).toEqual(['cm', 'web']);
    expect(names(smpOf(pod('a', 'b', 'c'), [{ name: 'b', image: 'x' }]))).toEqual(['a', 'b', 'c']);
    expect(names(smpOf(pod('a', 'b', 'c'), [{ name: 'c' }, { name: 'new' }]))).toEqual(['a', 'b', 'c', 'new']);
    expect(names(smpOf(pod('a', 'b'), [{ name: 'new' }, { name: 'a' }]))).toEqual(['new', 'a', 'b']);
    expect(names(smpOf(pod('a', 'b'), [{ name: 'b' }, { name: 'a' }]))).toEqual(['b', 'a']);
    expect(names(smpOf(pod('a', 'b', 'c'), [{ name: 'b', $patch: 'delete' }, { name: 'd' }]))).toEqual(['d', 'a', 'c']);
    const fins = applyStrategicMergePatch('Pod', { metadata: { finalizers: ['one', 'two'] } }, { metadata: { finalizers: ['three', 'two'] } });
    expect(fins.metadata.finalizers).toEqual(['three', 'one', 'two']);
  });

  it('merge patch and JSON patch follow RFC 7386 and RFC 6902', () => {
    expect(applyMergePatch({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: null, e: 3 }, d: [2] })).toEqual({ a: { c: 2, e: 3 }, d: [2] });
    expect(
      applyJsonPatch({ a: [1, 2], b: { c: 1 } }, [
        { op: 'add', path: '/a/1', value: 9 },
        { op: 'add', path: '/a/-', value: 3 },
        { op: 'move', from: '/b/c', path: '/d' },
        { op: 'copy', from: '/d', path: '/e' },
      ]),
    ).toEqual({ a: [1, 9, 2, 3], b: {}, d: 1, e: 1 });
  });
});
