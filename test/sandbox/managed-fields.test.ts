// metadata.managedFields as kube-apiserver v1.32 writes them, through the installed kubectl and
// plain HTTPS: the manager (?fieldManager= or the User-Agent's first segment), the fields a write
// set, owners losing what another write changed, the scale and status subresources' entries, and
// the Warning a Deployment create gets where no Deployment controller runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startEnv, type Env } from './helpers.js';
import { kubectlFor, type Kubectl } from './kubectl-runner.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const RS_YAML = `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]
`;

/** The pod template fields kubectl's requests leave to defaulting, owned by the creator all the same. */
const TEMPLATE_SPEC = {
  'f:dnsPolicy': {},
  'f:enableServiceLinks': {},
  'f:restartPolicy': {},
  'f:schedulerName': {},
  'f:securityContext': {},
  'f:terminationGracePeriodSeconds': {},
};
const DEFAULTED_CONTAINER = { 'f:imagePullPolicy': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {} };

let env: Env;
let kubectl: Kubectl;
beforeAll(async () => {
  env = await startEnv();
  kubectl = await kubectlFor(env.sb);
});
afterAll(async () => {
  await kubectl?.close();
  await env?.sb.close();
});

const managedFieldsOf = async (...what: string[]) => {
  const r = await kubectl.run('get', ...what, '-o', 'json', '--show-managed-fields');
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).metadata.managedFields;
};

describe('kubectl create deployment', () => {
  it('is warned that no Deployment controller runs here, and says what to do instead', async () => {
    const r = await kubectl.run('create', 'deployment', 'web', '--image=x');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('deployment.apps/web created\n');
    expect(r.stderr).toBe(
      'Warning: no Deployment controller runs in this sandbox: Deployment web gets no ReplicaSet and no pods. ' +
        'Create its ReplicaSet yourself (kubectl create -f rs.yaml) and run kubectl rs-reconcile run, which manages ReplicaSets, ' +
        'or try it on a cluster with kube-controller-manager\n',
    );
    // a ReplicaSet create is rs-reconcile's to act on: no warning
    const rs = await kubectl.run('create', '-f', await kubectl.file('quiet.yaml', RS_YAML.replace('name: web', 'name: quiet')));
    expect(rs.stderr).toBe('');
  });

  it('records kubectl-create as the owner of every field it set, defaults included, as kube-apiserver does', async () => {
    const [entry, ...more] = await managedFieldsOf('deployment', 'web');
    expect(more).toEqual([]);
    expect(entry.time).toMatch(TIME);
    expect(entry).toEqual({
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: entry.time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:progressDeadlineSeconds': {},
          'f:replicas': {},
          'f:revisionHistoryLimit': {},
          'f:selector': {},
          'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
          'f:template': {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
            'f:spec': {
              'f:containers': { 'k:{"name":"x"}': { '.': {}, 'f:image': {}, ...DEFAULTED_CONTAINER, 'f:name': {}, 'f:resources': {} } },
              ...TEMPLATE_SPEC,
            },
          },
        },
      },
    });
  });

  it('kubectl get -o yaml hides them, --show-managed-fields shows them (the server sends them either way)', async () => {
    expect((await kubectl.run('get', 'deployment', 'web', '-o', 'yaml')).stdout).not.toContain('managedFields');
    expect((await kubectl.run('get', 'deployment', 'web', '-o', 'yaml', '--show-managed-fields')).stdout).toContain('manager: kubectl-create');
  });
});

describe('a ReplicaSet created, scaled and labeled with kubectl', () => {
  beforeAll(async () => {
    expect((await kubectl.run('create', '-f', await kubectl.file('rs.yaml', RS_YAML))).code).toBe(0);
  });

  it('kubectl scale takes spec.replicas from kubectl-create: an entry of the scale subresource, without a time', async () => {
    const before = await managedFieldsOf('rs', 'web');
    expect(before.map((e: { manager: string }) => e.manager)).toEqual(['kubectl-create']);
    expect(before[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect((await kubectl.run('scale', 'rs', 'web', '--replicas', '3')).code).toBe(0);
    const after = await managedFieldsOf('rs', 'web');
    // sortEncodedManagedFields: no time sorts first; ScaleHandler.ToParent leaves scale entries without one
    expect(after[0]).toEqual({
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    expect(after[1]).toMatchObject({ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: before[0].time });
    expect(after[1].fieldsV1['f:spec']).toEqual({
      'f:selector': {},
      'f:template': {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:containers': {
            'k:{"name":"c"}': {
              '.': {},
              'f:image': {},
              ...DEFAULTED_CONTAINER,
              'f:name': {},
              'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
              'f:resources': {},
            },
          },
          ...TEMPLATE_SPEC,
        },
      },
    });
    expect(after).toHaveLength(2);
  });

  it('kubectl label adds a kubectl-label entry with the label alone; the others keep theirs', async () => {
    const before = await managedFieldsOf('rs', 'web');
    expect((await kubectl.run('label', 'rs', 'web', 'tier=front')).code).toBe(0);
    const after = await managedFieldsOf('rs', 'web');
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]).toEqual({
      manager: 'kubectl-label',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: after[2].time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } },
    });
    // removing the label removes it from its owner, whose entry, now empty, goes
    expect((await kubectl.run('label', 'rs', 'web', 'tier-')).code).toBe(0);
    expect(await managedFieldsOf('rs', 'web')).toEqual(before);
  });
});

describe('over HTTP', () => {
  const RS = (name: string) => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    },
  });
  const path = '/apis/apps/v1/namespaces/default/replicasets';

  it('without ?fieldManager= the manager is the User-Agent up to its first "/"; a status write is its own entry', async () => {
    const created = await raw(env.sb, 'POST', path, { body: RS('by-agent'), userAgent: 'my-tool/1.2 (linux/amd64) build/abc' });
    expect(created.status).toBe(201);
    expect(created.json.metadata.managedFields.map((e: Record<string, unknown>) => [e.manager, e.subresource])).toEqual([['my-tool', undefined]]);
    const status = { ...created.json, status: { replicas: 0, observedGeneration: 1 } };
    const written = await raw(env.sb, 'PUT', `${path}/by-agent/status`, { body: status, userAgent: 'my-tool/1.2' });
    expect(written.status).toBe(200);
    const entries = written.json.metadata.managedFields;
    expect(entries[1]).toEqual({
      manager: 'my-tool',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: entries[1].time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:observedGeneration': {} } },
      subresource: 'status',
    });
    expect(entries[0].fieldsV1['f:status']).toBeUndefined(); // status is not the main resource's
  });

  it('an update that changes nothing is no write: same resourceVersion, same entries', async () => {
    const created = await raw(env.sb, 'POST', `${path}?fieldManager=first`, { body: RS('same') });
    const again = await raw(env.sb, 'PUT', `${path}/same?fieldManager=second`, { body: created.json });
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(created.json.metadata.managedFields);
  });

  it('managedFields: [] in a write forgets every owner: only the writer of the change is left', async () => {
    const created = await raw(env.sb, 'POST', `${path}?fieldManager=first`, { body: RS('reset') });
    const next = { ...created.json, metadata: { ...created.json.metadata, labels: { app: 'reset', x: 'y' }, managedFields: [] } };
    const r = await raw(env.sb, 'PUT', `${path}/reset?fieldManager=second`, { body: next });
    expect(r.json.metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => [e.manager, e.fieldsV1])).toEqual([
      ['second', { 'f:metadata': { 'f:labels': { 'f:x': {} } } }],
    ]);
  });

  it('past 10 Update owners the oldest are merged into ancient-changes; no owned field is lost', async () => {
    const created = await raw(env.sb, 'POST', `${path}?fieldManager=first`, { body: RS('many') });
    expect(created.status).toBe(201);
    for (let i = 1; i <= 11; i++) {
      const r = await raw(env.sb, 'PATCH', `${path}/many?fieldManager=m${i}`, {
        body: { metadata: { labels: { [`l${i}`]: 'x' } } },
        contentType: 'application/merge-patch+json',
      });
      expect(r.status).toBe(200);
    }
    const entries: { manager: string; fieldsV1: any }[] = (await raw(env.sb, 'GET', `${path}/many`)).json.metadata.managedFields;
    expect(entries).toHaveLength(10);
    expect(entries.filter((e) => e.manager === 'ancient-changes')).toHaveLength(1);
    const labels = entries.flatMap((e) => Object.keys(e.fieldsV1['f:metadata']?.['f:labels'] ?? {})).filter((k) => k !== '.');
    expect(labels.sort()).toEqual(['f:app', ...Array.from({ length: 11 }, (_, i) => `f:l${i + 1}`)].sort());
  });

  it('adopting and releasing a pod: an ownerReference is one atomic item (k:{uid}), finalizers a set (v:"…")', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'adoptee', labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    expect((await raw(env.sb, 'POST', `${pods}?fieldManager=maker`, { body: pod })).status).toBe(201);
    const owner = (await raw(env.sb, 'POST', `${path}?fieldManager=maker`, { body: RS('owner') })).json;
    const uid: string = owner.metadata.uid; // a real owner: the garbage collector leaves the pod alone
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'owner', uid, controller: true, blockOwnerDeletion: true };
    const smp = 'application/strategic-merge-patch+json';
    const adopted = await raw(env.sb, 'PATCH', `${pods}/adoptee?fieldManager=adopter`, {
      body: { metadata: { ownerReferences: [ref], finalizers: ['example.com/keep'] } },
      contentType: smp,
    });
    expect(adopted.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'adopter')).toMatchObject({
      fieldsV1: { 'f:metadata': { 'f:finalizers': { '.': {}, 'v:"example.com/keep"': {} }, 'f:ownerReferences': { '.': {}, [`k:{"uid":"${uid}"}`]: {} } } },
    });
    const released = await raw(env.sb, 'PATCH', `${pods}/adoptee?fieldManager=releaser`, {
      body: {
        metadata: { ownerReferences: [{ $patch: 'delete', uid }], '$deleteFromPrimitiveList/finalizers': ['example.com/keep'], uid: adopted.json.metadata.uid },
      },
      contentType: smp,
    });
    expect(released.status).toBe(200);
    // what the adopter owned is gone, so is its entry; the releaser set nothing, so it has none
    expect(released.json.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['maker']);
  });

  it('a ?fieldManager= longer than 128 bytes is refused with 422, as ValidateFieldManager does', async () => {
    const r = await raw(env.sb, 'POST', `${path}?fieldManager=${'m'.repeat(129)}`, { body: RS('long') });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' }]);
  });
});

describe('the simulated kubelet', () => {
  it('writes pod status as the kubelet, through the status subresource', async () => {
    const e = await startEnv({ nodes: 1 });
    try {
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } };
      expect((await raw(e.sb, 'POST', '/api/v1/namespaces/default/pods?fieldManager=kubectl-run', { body: pod })).status).toBe(201);
      e.sb.kubelet!.advance(60_000);
      const got = await raw(e.sb, 'GET', '/api/v1/namespaces/default/pods/p');
      const entries = got.json.metadata.managedFields.map((x: Record<string, unknown>) => [x.manager, x.subresource]);
      expect(entries).toEqual([
        ['kubectl-run', undefined],
        ['kubelet', 'status'],
      ]);
      // what admission added (the service account, priority, tolerations) is nobody's
      const spec = got.json.metadata.managedFields[0].fieldsV1['f:spec'];
      expect(Object.keys(spec).sort()).toEqual(['f:containers', ...Object.keys(TEMPLATE_SPEC)].sort());
    } finally {
      await e.sb.close();
    }
  });
});

describe('atomic lists', () => {
  it('a container resizePolicy (+listType=atomic) is one field, not keyed by resourceName', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'resize' },
      spec: { containers: [{ name: 'c', image: 'x', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }] },
    };
    const r = await raw(env.sb, 'POST', '/api/v1/namespaces/default/pods?fieldManager=test', { body: pod });
    expect(r.status).toBe(201);
    const container = r.json.metadata.managedFields[0].fieldsV1['f:spec']['f:containers']['k:{"name":"c"}'];
    expect(container['f:resizePolicy']).toEqual({});
  });
});
