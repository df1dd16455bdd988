import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { NoObjectsError, UserError } from '../../src/errors.js';
import { loadSnapshotFiles, parseSnapshotText, STDIN_LABEL, type LoadResult } from '../../src/input/snapshot-files.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-reconcile-input-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  return path;
}

function pod(name: string, extra: Record<string, unknown> = {}, ns = 'default') {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, uid: `uid-${ns}-${name}` }, ...extra };
}

function rs(name: string, replicas = 1, ns = 'default') {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: ns, uid: `uid-rs-${name}` },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } } } },
  };
}

function list(items: unknown[], kind = 'List') {
  return { apiVersion: 'v1', kind, metadata: { resourceVersion: '' }, items };
}

function names(r: LoadResult) {
  return {
    rs: r.snapshot.controllers.ReplicaSet.map((o) => `${o.metadata.namespace}/${o.metadata.name}`),
    rc: r.snapshot.controllers.ReplicationController.map((o) => `${o.metadata.namespace}/${o.metadata.name}`),
    pods: r.snapshot.pods.map((o) => `${o.metadata.namespace}/${o.metadata.name}`),
  };
}

async function loadError(paths: string[], opts?: Parameters<typeof loadSnapshotFiles>[1]): Promise<UserError> {
  try {
    await loadSnapshotFiles(paths, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected an error');
}

describe('a real kubectl get rs,rc,pods -A -o yaml', () => {
  it('keeps ReplicaSets, ReplicationControllers and Pods, slimmed, and counts the rest', async () => {
    const r = await loadSnapshotFiles([join(FIXTURES, 'kubectl-get-rs-rc-pods.yaml')]);
    expect(names(r)).toEqual({
      rs: ['shop/web-7d4b9c8f5'],
      rc: ['default/legacy'],
      pods: ['shop/web-7d4b9c8f5-x2x9q', 'shop/web-7d4b9c8f5-k8m2p', 'default/legacy-q7w4r'],
    });
    // a Deployment is read, for the deployment controller's rules; other kinds are counted
    expect(r.skippedKinds).toEqual({ Service: 1 });
    expect(r.snapshot.deployments?.map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toHaveLength(1);
    expect(r.files).toEqual([join(FIXTURES, 'kubectl-get-rs-rc-pods.yaml')]);

    expect(r.snapshot.pods[0]).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-7d4b9c8f5-x2x9q',
        generateName: 'web-7d4b9c8f5-',
        namespace: 'shop',
        uid: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
        resourceVersion: '48190',
        creationTimestamp: '2025-12-01T09:00:00Z',
        labels: { app: 'web', 'pod-template-hash': '7d4b9c8f5' },
        annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            blockOwnerDeletion: true,
            controller: true,
            kind: 'ReplicaSet',
            name: 'web-7d4b9c8f5',
            uid: '5d2f7c1a-3e4b-4c6d-8e9f-0a1b2c3d4e5f',
          },
        ],
      },
      spec: { nodeName: 'node-a', initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] },
      status: {
        phase: 'Running',
        conditions: [
          { lastProbeTime: null, lastTransitionTime: '2025-12-01T09:00:05Z', status: 'True', type: 'Initialized' },
          { lastProbeTime: null, lastTransitionTime: '2025-12-01T09:00:20Z', status: 'True', type: 'Ready' },
          { lastProbeTime: null, lastTransitionTime: '2025-12-01T09:00:20Z', status: 'True', type: 'ContainersReady' },
          { lastProbeTime: null, lastTransitionTime: '2025-12-01T09:00:00Z', status: 'True', type: 'PodScheduled' },
        ],
        containerStatuses: [{ name: 'web', restartCount: 0, ready: true }],
        initContainerStatuses: [{ name: 'proxy', restartCount: 2, ready: true }],
      },
    });
    expect(r.snapshot.pods[1].metadata).toMatchObject({
      deletionTimestamp: '2025-12-31T23:59:00Z',
      deletionGracePeriodSeconds: 30,
    });
    expect(r.snapshot.pods[2]).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'legacy-q7w4r',
        namespace: 'default',
        uid: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
        resourceVersion: '30120',
        creationTimestamp: '2025-12-02T00:00:00Z',
        labels: { app: 'legacy' },
      },
      spec: {},
      status: { phase: 'Pending' },
    });
  });

  it('keeps the whole spec of a ReplicaSet (its template makes the pods) and its status', async () => {
    const r = await loadSnapshotFiles([join(FIXTURES, 'kubectl-get-rs-rc-pods.yaml')]);
    const [set] = r.snapshot.controllers.ReplicaSet;
    expect(set.metadata.generation).toBe(1);
    expect(set.metadata.ownerReferences?.[0].kind).toBe('Deployment');
    expect(set.spec.replicas).toBe(2);
    expect(set.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': '7d4b9c8f5' } });
    expect(set.spec.template?.metadata).toEqual({
      creationTimestamp: null,
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f5' },
    });
    expect(set.spec.template?.spec?.containers?.[0]).toMatchObject({ name: 'web', image: 'registry.example/web:1.4.2' });
    expect(set.spec.template?.spec?.terminationGracePeriodSeconds).toBe(30);
    expect(set.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });

    const [rc] = r.snapshot.controllers.ReplicationController;
    expect(rc).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController', spec: { replicas: 1, selector: { app: 'legacy' } } });
    expect(rc.metadata.generation).toBe(2);
  });

  it('reads the same snapshot printed as JSON (-o json), as NDJSON and as a raw API PodList', async () => {
    const yaml = await loadSnapshotFiles([join(FIXTURES, 'kubectl-get-rs-rc-pods.yaml')]);
    const json = await loadSnapshotFiles([join(FIXTURES, 'kubectl-get-rs-rc-pods.json')]);
    const ndjson = await loadSnapshotFiles([join(FIXTURES, 'items.ndjson')]);
    expect(json.snapshot).toStrictEqual(yaml.snapshot);
    expect(json.skippedKinds).toEqual(yaml.skippedKinds);
    expect(ndjson.snapshot).toStrictEqual(yaml.snapshot);
    expect(ndjson.skippedKinds).toEqual(yaml.skippedKinds);

    // The API's own list: kind first, items without kind or apiVersion.
    const api = await loadSnapshotFiles([join(FIXTURES, 'api-podlist.json')]);
    expect(api.snapshot.pods).toStrictEqual(yaml.snapshot.pods);
    expect(api.skippedKinds).toEqual({});
  });
});

describe('formats, detected by content', () => {
  const objects = [rs('web', 2), pod('web-1'), pod('web-2'), { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', uid: 'x' } }];

  it.each([
    ['compact JSON', JSON.stringify(list(objects))],
    ['pretty JSON, 2 spaces', JSON.stringify(list(objects), null, 2)],
    ['pretty JSON, tabs, CRLF', JSON.stringify(list(objects), null, '\t').replace(/\n/g, '\r\n')],
    ['one item per line', `{"kind":"List","apiVersion":"v1","items":[\n${objects.map((o) => JSON.stringify(o)).join(',\n')}\n]}\n`],
    ['NDJSON', `${objects.map((o) => JSON.stringify(o)).join('\n')}\n`],
    ['NDJSON with CRLF and blank lines', `\r\n${objects.map((o) => JSON.stringify(o)).join('\r\n\r\n')}`],
    ['concatenated pretty JSON documents', objects.map((o) => JSON.stringify(o, null, 4)).join('\n')],
    ['YAML documents', objects.map((o) => JSON.stringify(o)).join('\n---\n')],
    ['YAML list', `apiVersion: v1\nkind: List\nitems:\n${objects.map((o) => `- ${JSON.stringify(o)}`).join('\n')}\n`],
    ['JSON with a UTF-8 byte-order mark', `\uFEFF${JSON.stringify(list(objects), null, 1)}`],
  ])('%s', async (_label, text) => {
    const file = await write(`formats/${_label.replace(/\W+/g, '-')}.txt`, text);
    const r = await loadSnapshotFiles([file]);
    expect(names(r)).toEqual({ rs: ['default/web'], rc: [], pods: ['default/web-1', 'default/web-2'] });
    expect(r.skippedKinds).toEqual({ Service: 1 });
    expect(r.snapshot.controllers.ReplicaSet[0].spec.replicas).toBe(2);
  });

  it('reads UTF-16 files (PowerShell redirections) with a byte-order mark', async () => {
    const text = JSON.stringify(list([pod('héllo-ünïcode')]));
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const [name, content] of [
      ['le.json', le],
      ['be.json', be],
    ] as const) {
      const r = await loadSnapshotFiles([await write(`utf16/${name}`, content)]);
      expect(names(r).pods).toEqual(['default/héllo-ünïcode']);
    }
  });

  it('keeps non-ASCII text intact in JSON', async () => {
    const text = JSON.stringify(list([pod('p', { metadata: { name: 'p', uid: 'u', annotations: { note: 'naïve 日本 🚀 "q" \\ [ ] { }' } } })]), null, 2);
    const r = parseSnapshotText(text, 'u.json');
    expect(r.snapshot.pods[0].metadata.annotations).toEqual({ note: 'naïve 日本 🚀 "q" \\ [ ] { }' });
  });

  it('treats empty files, blank files, comment-only YAML and empty lists as empty snapshots', async () => {
    const empty = { controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] };
    for (const text of [
      '',
      '  \n\t\n',
      '# nothing here\n',
      '---\n---\n',
      '~\n',
      JSON.stringify(list([])),
      'kind: List\napiVersion: v1\nitems: []\n',
      '{"kind":"List","items":null}',
      'kind: PodList\nitems:\n',
    ]) {
      const r = parseSnapshotText(text, 'e');
      expect(r.snapshot).toEqual(empty);
      expect(r.skippedKinds).toEqual({});
    }
  });

  it('reads multi-document YAML with typed lists, empty documents and comments', () => {
    const text = [
      '# a hand-made snapshot',
      '---',
      'apiVersion: v1',
      'kind: PodList',
      'items:',
      '- metadata: {name: a, namespace: ns, uid: "1"}',
      '- metadata: {name: b, namespace: ns, uid: "2"}',
      '---',
      '---',
      'apiVersion: apps/v1',
      'kind: ReplicaSetList',
      'items:',
      '- metadata: {name: r, namespace: ns, uid: "3"}',
      '  spec: {replicas: 0}',
      '---',
      'apiVersion: v1',
      'kind: ReplicationControllerList',
      'items:',
      '- metadata: {name: c, uid: "4"}',
      '---',
      'apiVersion: apps/v1',
      'kind: DeploymentList',
      'items:',
      '- metadata: {name: d, uid: "5"}',
      '- metadata: {name: e, uid: "6"}',
      '',
    ].join('\n');
    const r = parseSnapshotText(text, 'multi.yaml');
    expect(names(r)).toEqual({ rs: ['ns/r'], rc: ['default/c'], pods: ['ns/a', 'ns/b'] });
    expect(r.snapshot.pods[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    expect(r.snapshot.controllers.ReplicaSet[0]).toMatchObject({ apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: { replicas: 0 } });
    expect(r.snapshot.controllers.ReplicationController[0]).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController' });
    expect(r.skippedKinds).toEqual({});
    expect(r.snapshot.deployments?.map((d) => [d.kind, d.metadata.name])).toEqual([
      ['Deployment', 'd'],
      ['Deployment', 'e'],
    ]);
  });
});

describe('containers', () => {
  it('flattens nested lists, typed or not', () => {
    const nested = list([
      pod('a'),
      list([pod('b'), list([pod('c')])]),
      { apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'd', uid: 'd' } }] },
      { apiVersion: 'apps/v1', kind: 'ReplicaSetList', items: [{ metadata: { name: 'r', uid: 'r' } }] },
    ]);
    for (const text of [JSON.stringify(nested), JSON.stringify(nested, null, 2)]) {
      const r = parseSnapshotText(text, 'n.json');
      expect(names(r)).toEqual({ rs: ['default/r'], rc: [], pods: ['default/a', 'default/b', 'default/c', 'default/d'] });
    }
  });

  it('reads a list whatever the order of its keys (kubectl prints kind after items)', () => {
    const items = [pod('a'), rs('r')];
    for (const doc of [
      { items, kind: 'List', apiVersion: 'v1' },
      { apiVersion: 'v1', items, metadata: { resourceVersion: '' }, kind: 'List' },
      { metadata: {}, kind: 'List', items, apiVersion: 'v1' },
    ]) {
      for (const indent of [0, 2, 4]) {
        const r = parseSnapshotText(JSON.stringify(doc, null, indent), 'k.json');
        expect(names(r)).toEqual({ rs: ['default/r'], rc: [], pods: ['default/a'] });
      }
    }
  });

  it('infers the kind of typed-list items even when the list kind comes last', () => {
    const items = [{ metadata: { name: 'a', uid: '1' } }, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', uid: '2' } }];
    for (const doc of [
      { items, kind: 'PodList', apiVersion: 'v1' },
      { apiVersion: 'v1', kind: 'PodList', items },
    ]) {
      for (const indent of [0, 2]) {
        const r = parseSnapshotText(JSON.stringify(doc, null, indent), 't.json');
        expect(names(r).pods).toEqual(['default/a', 'default/b']);
        expect(r.snapshot.pods[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
      }
    }
    const rsList = { items: [{ metadata: { name: 'r', uid: '1' }, spec: { replicas: 3 } }], kind: 'ReplicaSetList', apiVersion: 'apps/v1' };
    expect(parseSnapshotText(JSON.stringify(rsList), 'r.json').snapshot.controllers.ReplicaSet[0].spec.replicas).toBe(3);
  });

  it('reads a single object, in YAML and JSON', () => {
    expect(names(parseSnapshotText(JSON.stringify(pod('solo'), null, 2), 's.json')).pods).toEqual(['default/solo']);
    expect(names(parseSnapshotText('apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\n  uid: u\n', 's.yaml')).pods).toEqual(['default/solo']);
  });

  it('reads an object that has an items field but is not a list as one object', () => {
    const odd = { apiVersion: 'example.com/v1', kind: 'Basket', metadata: { name: 'b' }, items: [{ kind: 'Pod' }] };
    for (const text of [JSON.stringify(odd), JSON.stringify(odd, null, 2)]) {
      expect(parseSnapshotText(text, 'b.json').skippedKinds).toEqual({ Basket: 1 });
    }
  });
});

describe('kinds and versions', () => {
  it('accepts ReplicaSets of the old API groups as apps/v1, and skips same-named kinds of other groups', () => {
    const objects = [
      { ...rs('a'), apiVersion: 'extensions/v1beta1' },
      { ...rs('b'), apiVersion: 'apps/v1beta2' },
      { ...rs('c'), apiVersion: 'example.com/v1' },
      { ...pod('p'), apiVersion: 'metrics.example/v1' },
      { ...pod('q'), apiVersion: undefined },
    ];
    const r = parseSnapshotText(JSON.stringify(list(objects)), 'v.json');
    expect(names(r)).toEqual({ rs: ['default/a', 'default/b'], rc: [], pods: ['default/q'] });
    expect(r.snapshot.controllers.ReplicaSet.map((o) => o.apiVersion)).toEqual(['apps/v1', 'apps/v1']);
    expect(r.snapshot.pods[0].apiVersion).toBe('v1');
    expect(r.skippedKinds).toEqual({ 'ReplicaSet (example.com/v1)': 1, 'Pod (metrics.example/v1)': 1 });
  });

  it('defaults a missing or empty namespace to "default"', () => {
    const r = parseSnapshotText('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ""\n  uid: u\n', 'n.yaml');
    expect(r.snapshot.pods[0].metadata.namespace).toBe('default');
  });

  it('counts a kind named like an Object.prototype member as just a kind', () => {
    const r = parseSnapshotText('{"apiVersion":"v1","kind":"__proto__","metadata":{"name":"x"}}', 'p.json');
    expect(Object.keys(r.skippedKinds)).toEqual(['__proto__']);
    expect(Object.entries(r.skippedKinds)).toEqual([['__proto__', 1]]);
  });
});

describe('files, directories and stdin', () => {
  it('reads a directory like kubectl -f DIR: .json/.yaml/.yml files sorted by name, not recursive', async () => {
    const d = join(dir, 'snapdir');
    await write('snapdir/b.yaml', JSON.stringify(pod('from-b')));
    await write('snapdir/a.json', JSON.stringify(pod('from-a')));
    await write('snapdir/c.yml', JSON.stringify(pod('from-c')));
    await write('snapdir/Z.JSON', JSON.stringify(pod('upper-case-extension')));
    await write('snapdir/notes.txt', 'not a snapshot');
    await write('snapdir/sub/d.yaml', JSON.stringify(pod('from-subdirectory')));
    await mkdir(join(d, 'dir.yaml'));
    await symlink(join(d, 'nowhere.yaml'), join(d, 'dangling.yaml'));
    await symlink(join(d, 'a.json'), join(d, 'link.json'));
    const r = await loadSnapshotFiles([d]);
    expect(r.files).toEqual(['a.json', 'b.yaml', 'c.yml', 'link.json'].map((n) => join(d, n)));
    expect(names(r).pods).toEqual(['default/from-a', 'default/from-b', 'default/from-c']);
  });

  it('resolves relative paths against cwd and names them as given', async () => {
    await write('rel/snap.yaml', JSON.stringify(pod('rel')));
    const r = await loadSnapshotFiles(['rel/snap.yaml', 'rel'], { cwd: dir });
    expect(r.files).toEqual(['rel/snap.yaml', join('rel', 'snap.yaml')]);
    expect(names(r).pods).toEqual(['default/rel']);
  });

  it('reads stdin for "-", in order with the files', async () => {
    const f = await write('before-stdin.json', JSON.stringify(pod('file')));
    const text = JSON.stringify(list([pod('piped-1'), pod('piped-2')]), null, 2);
    const stdin = Readable.from([Buffer.from(text.slice(0, 10)), Buffer.from(text.slice(10))]);
    const r = await loadSnapshotFiles([f, '-'], { stdin });
    expect(r.files).toEqual([f, STDIN_LABEL]);
    expect(names(r).pods).toEqual(['default/file', 'default/piped-1', 'default/piped-2']);
  });

  it('reads string chunks from stdin too', async () => {
    const r = await loadSnapshotFiles(['-'], { stdin: Readable.from(['apiVersion: v1\nkind: Pod\n', 'metadata: {name: s, uid: u}\n']) });
    expect(names(r).pods).toEqual(['default/s']);
  });

  it('refuses a second "-"', async () => {
    const e = await loadError(['-', '-'], { stdin: Readable.from([]) });
    expect(e.message).toBe('"-" (stdin) can be given only once');
  });

  it('reports a missing path in kubectl words', async () => {
    const e = await loadError(['nope.yaml'], { cwd: dir });
    expect(e.message).toBe('the path "nope.yaml" does not exist');
    expect(e.exitCode).toBe(2);
    const e2 = await loadError([join(dir, 'rel/snap.yaml/inside')]);
    expect(e2.message).toBe(`the path "${join(dir, 'rel/snap.yaml/inside')}" does not exist`);
  });

  it('names stdin and the file in errors', async () => {
    const e = await loadError(['-'], { stdin: Readable.from(['{"kind": "List", "items": [}']) });
    expect(e.message).toBe("error parsing <stdin>: invalid JSON: unexpected '}' (line 1, column 28)");
  });

  it('refuses input with no object (no paths, an empty file, an empty directory, empty stdin, an empty List), unless allowed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-empty-'));
    writeFileSync(join(dir, 'empty.yaml'), '');
    writeFileSync(join(dir, 'comments.yaml'), '# nothing here\n---\n');
    writeFileSync(join(dir, 'list.yaml'), 'apiVersion: v1\nkind: List\nitems: []\n');
    mkdirSync(join(dir, 'emptydir'));
    for (const [paths, stdin] of [
      [[]],
      [[join(dir, 'empty.yaml')]],
      [[join(dir, 'comments.yaml')]],
      [[join(dir, 'list.yaml')]],
      [[join(dir, 'emptydir')]],
      [['-'], ''],
    ] as const) {
      const e = await loadSnapshotFiles([...paths], { stdin: Readable.from(stdin === undefined ? [] : [stdin]) }).catch((x: unknown) => x);
      expect(e, String(paths)).toBeInstanceOf(NoObjectsError);
      expect((e as NoObjectsError).forCommand('diff')).toBe('no objects passed to diff');
    }
    const r = await loadSnapshotFiles([], { allowEmpty: true });
    expect(r).toEqual({ snapshot: { controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] }, skippedKinds: {}, files: [] });
    // objects of other kinds are objects: the input is not empty (diff says no controller was found)
    writeFileSync(join(dir, 'svc.yaml'), 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\n');
    expect((await loadSnapshotFiles([join(dir, 'svc.yaml')])).skippedKinds).toEqual({ Service: 1 });
    // a Deployment alone is input too
    writeFileSync(join(dir, 'deploy.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, uid: u}\n');
    expect((await loadSnapshotFiles([join(dir, 'deploy.yaml')])).snapshot.deployments).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('duplicates', () => {
  it('keeps the later object (like applying twice), in the place of the first', async () => {
    const first = await write('dup/1.json', JSON.stringify(list([pod('a'), rs('r', 1), pod('b')])));
    const second = await write('dup/2.yaml', JSON.stringify(list([rs('r', 5), pod('a', { spec: { nodeName: 'n2' } }), pod('a', {}, 'other')])));
    const r = await loadSnapshotFiles([first, second]);
    expect(names(r)).toEqual({ rs: ['default/r'], rc: [], pods: ['default/a', 'default/b', 'other/a'] });
    expect(r.snapshot.controllers.ReplicaSet[0].spec.replicas).toBe(5);
    expect(r.snapshot.pods[0].spec?.nodeName).toBe('n2');
  });

  it('keeps objects of different kinds with the same name', () => {
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r', uid: 'c' }, spec: {} };
    const r = parseSnapshotText(JSON.stringify(list([rs('r'), rc, pod('r')])), 'k.json');
    expect(names(r)).toEqual({ rs: ['default/r'], rc: ['default/r'], pods: ['default/r'] });
  });

  it('replaces within one file too, and a defaulted namespace counts as "default"', () => {
    const r = parseSnapshotText(JSON.stringify(list([pod('a'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', uid: 'second' } }])), 'd.json');
    expect(r.snapshot.pods).toHaveLength(1);
    expect(r.snapshot.pods[0].metadata.uid).toBe('second');
  });
});

describe('progress', () => {
  it('reports bytes read at most ~10 times a second, ending with the total', async () => {
    const items = Array.from({ length: 6000 }, (_, i) =>
      pod(`p-${i}`, { spec: { nodeName: `node-${i % 7}`, containers: [{ name: 'c', image: 'x'.repeat(200) }] } }),
    );
    const big = await write('progress/big.json', JSON.stringify(list(items), null, 2));
    const small = await write('progress/small.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: s, uid: u}\n');
    const calls: Array<[number, number]> = [];
    const started = performance.now();
    const r = await loadSnapshotFiles([big, small], { onProgress: (done, total) => calls.push([done, total]) });
    const elapsed = performance.now() - started;
    expect(r.snapshot.pods).toHaveLength(6001);
    const total = calls[calls.length - 1][1];
    expect(calls[calls.length - 1]).toEqual([total, total]);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
    for (let i = 1; i < calls.length; i++) expect(calls[i][0]).toBeGreaterThanOrEqual(calls[i - 1][0]);
    for (const [done, t] of calls) expect(done).toBeLessThanOrEqual(t);
  });

  it('lets the event loop run while reading when reporting progress', async () => {
    // Every clock reading is 150 ms after the previous one, so a report is due at every step.
    // (The reader's clock is process.hrtime: performance.now() loads node:perf_hooks on Node 20.)
    let clock = 0;
    const now = vi.spyOn(process, 'hrtime').mockImplementation(() => {
      clock += 150;
      return [Math.floor(clock / 1000), (clock % 1000) * 1e6];
    });
    try {
      // 5 MB read item by item, the clock read at every item (each is over 64 KiB)
      const items = Array.from({ length: 50 }, (_, i) =>
        pod(`p-${i}`, { metadata: { name: `p-${i}`, namespace: 'default', uid: `uid-${i}`, annotations: { padding: 'x'.repeat(100_000) } } }),
      );
      const file = await write('progress/steps.json', JSON.stringify(list(items), null, 2));
      let turns = 0;
      let running = true;
      const spin = () => {
        turns++;
        if (running) setImmediate(spin);
      };
      setImmediate(spin);
      const calls: number[] = [];
      const r = await loadSnapshotFiles([file], { onProgress: (done) => calls.push(done) });
      running = false;
      expect(r.snapshot.pods).toHaveLength(50);
      expect(calls.length).toBeGreaterThanOrEqual(50);
      expect(turns).toBeGreaterThanOrEqual(50);
    } finally {
      now.mockRestore();
    }
  });

  it('counts stdin in the total once it is read', async () => {
    const calls: Array<[number, number]> = [];
    const text = JSON.stringify(pod('x'));
    await loadSnapshotFiles(['-'], { stdin: Readable.from([text]), onProgress: (d, t) => calls.push([d, t]) });
    expect(calls[calls.length - 1]).toEqual([text.length, text.length]);
  });
});

describe('parseSnapshotText', () => {
  it('parses in memory, naming the label in results and errors', () => {
    const r = parseSnapshotText('apiVersion: v1\nkind: Pod\nmetadata: {name: a, uid: b}\n', 'cluster');
    expect(r.files).toEqual(['cluster']);
    expect(names(r).pods).toEqual(['default/a']);
    expect(() => parseSnapshotText('apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n', 'cluster')).toThrow(
      /^error parsing cluster: Pod default\/a: metadata\.uid is missing.* \(line 3\)$/,
    );
  });
});

describe("kubectl's YAML", () => {
  it('gives the same snapshot with a document marker or leading comments, and as the JSON of the same objects', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(join(FIXTURES, 'kubectl-get-rs-rc-pods.yaml'), 'utf8');
    const fast = parseSnapshotText(text, 'snap.yaml');
    const slow = parseSnapshotText(`---\n${text}`, 'snap.yaml');
    // leading comment lines (a hand-saved snapshot's notes)
    expect(parseSnapshotText(`# saved by hand\n\n${text}`, 'snap.yaml')).toEqual(fast);
    expect(fast.snapshot.pods.length).toBeGreaterThan(0);
    expect(fast).toEqual(slow);
    const json = parseSnapshotText(readFileSync(join(FIXTURES, 'kubectl-get-rs-rc-pods.json'), 'utf8'), 'snap.yaml');
    expect(fast.snapshot).toEqual(json.snapshot);
  });

  it('names the line of a problem in an item, after leading comments, and of a syntax error', () => {
    const items = [
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata: {name: a, uid: u1}',
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata:',
      '    name: b',
      '    uid: u2',
      '  spec:',
      '    nodeName: 7',
    ];
    const text = ['apiVersion: v1', 'items:', ...items, 'kind: List', 'metadata:', '  resourceVersion: ""', ''].join('\n');
    expect(() => parseSnapshotText(text, 'snap.yaml')).toThrow(
      'error parsing snap.yaml: Pod default/b: spec.nodeName must be a string, got number 7 (line 12)',
    );
    expect(() => parseSnapshotText(`# notes\n  # more\n${text}`, 'snap.yaml')).toThrow(
      'error parsing snap.yaml: Pod default/b: spec.nodeName must be a string, got number 7 (line 14)',
    );
    // a tab after a colon
    expect(() => parseSnapshotText(text.replace('name: b', 'name:\tb'), 'snap.yaml')).toThrow(
      'error parsing snap.yaml: Pod default/b: spec.nodeName must be a string, got number 7 (line 12)',
    );
    expect(() => parseSnapshotText(text.replace('    uid: u2', '    uid: [u2'), 'snap.yaml')).toThrow(
      'error parsing snap.yaml: invalid YAML: missed comma between flow collection entries (line 11, column 3)',
    );
  });
});
