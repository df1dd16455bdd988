// CRUD, optimistic concurrency, subresources, errors and dry-run, through the real client-node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { failure, mergePatch, openWatch, podBody, raw, rcBody, rsBody, smp, startEnv, waitFor, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env.sb.close();
});

const rvNum = (o: { metadata?: { resourceVersion?: string } }) => Number(o.metadata?.resourceVersion);

describe('authentication and discovery', () => {
  it('answers 401 with an Unauthorized Status without or with a wrong token', async () => {
    for (const token of [null, 'wrong']) {
      const r = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods', { token });
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
    }
    const ok = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods');
    expect(ok.status).toBe(200);
    expect(ok.json.kind).toBe('PodList');
  });

  it('reports v1.32 and the served resources with their subresources', async () => {
    const v = await raw(env.sb, 'GET', '/version');
    expect(v.json).toMatchObject({ major: '1', minor: '32' });
    const apps = await raw(env.sb, 'GET', '/apis/apps/v1');
    const byName = Object.fromEntries(apps.json.resources.map((r: any) => [r.name, r]));
    expect(byName.replicasets).toMatchObject({ kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'] });
    expect(byName['replicasets/scale']).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    expect(byName['replicasets/status'].verbs).toEqual(['get', 'patch', 'update']);
    const groups = await raw(env.sb, 'GET', '/apis');
    expect(groups.json.groups.map((g: any) => g.name).sort()).toEqual(['apps', 'coordination.k8s.io']);
    const core = await raw(env.sb, 'GET', '/api/v1');
    expect(core.json.resources.map((r: any) => r.name)).toEqual(
      expect.arrayContaining(['namespaces', 'pods', 'pods/status', 'nodes', 'events', 'replicationcontrollers', 'replicationcontrollers/scale']),
    );
    const noCollectionDelete = await raw(env.sb, 'DELETE', '/api/v1/namespaces');
    expect(noCollectionDelete.status).toBe(405);
    expect(noCollectionDelete.json.reason).toBe('MethodNotAllowed');
    const noPostOnName = await raw(env.sb, 'POST', '/api/v1/namespaces/default/pods/x', { body: {} });
    expect(noPostOnName.status).toBe(405);
    const unknown = await raw(env.sb, 'GET', '/api/v1/namespaces/default/services');
    expect(unknown.status).toBe(404);
    expect(unknown.json.reason).toBe('NotFound');
  });
});

describe('create, read, update, delete on every resource', () => {
  it('namespaces', async () => {
    const ns = await env.core.createNamespace({ body: { metadata: { name: 'crud-ns' } } });
    expect(ns.status?.phase).toBe('Active');
    expect(ns.metadata?.labels?.['kubernetes.io/metadata.name']).toBe('crud-ns');
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    const list = await env.core.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['default', 'kube-system', 'crud-ns']));
    const patched = await env.core.patchNamespace({ name: 'crud-ns', body: { metadata: { labels: { team: 'a' } } } }, mergePatch());
    expect(patched.metadata?.labels?.team).toBe('a');
    const del = await env.core.deleteNamespace({ name: 'crud-ns' });
    expect((del as any).status?.phase).toBe('Terminating');
    await waitFor(async () => (await failure(env.core.readNamespace({ name: 'crud-ns' }))).code === 404, 'namespace removal');
  });

  it('pods: uid, creationTimestamp, generation 1, defaults, replace, delete', async () => {
    const created = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('crud-pod') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(created.metadata?.generation).toBe(1);
    expect(created.status?.phase).toBe('Pending');
    expect(created.spec?.restartPolicy).toBe('Always');
    const read = await env.core.readNamespacedPod({ name: 'crud-pod', namespace: 'default' });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
    read.metadata!.labels = { ...read.metadata!.labels, extra: 'yes' };
    const replaced = await env.core.replaceNamespacedPod({ name: 'crud-pod', namespace: 'default', body: read });
    expect(replaced.metadata?.labels?.extra).toBe('yes');
    expect(rvNum(replaced)).toBeGreaterThan(rvNum(read));
    expect(replaced.metadata?.generation).toBe(1);
    const deleted = await env.core.deleteNamespacedPod({ name: 'crud-pod', namespace: 'default' });
    expect(deleted.metadata?.name).toBe('crud-pod');
    const nf = await failure(env.core.readNamespacedPod({ name: 'crud-pod', namespace: 'default' }));
    expect(nf.code).toBe(404);
  });

  it('nodes', async () => {
    await env.core.createNode({ body: { metadata: { name: 'crud-node', labels: { zone: 'a' } } } });
    const list = await env.core.listNode({ labelSelector: 'zone=a' });
    expect(list.items.map((n) => n.metadata?.name)).toEqual(['crud-node']);
    const st = await env.core.deleteNode({ name: 'crud-node' });
    expect(st).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await failure(env.core.readNode({ name: 'crud-node' }))).code).toBe(404);
  });

  it('events, with field selectors on involvedObject', async () => {
    await env.core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'ev-crud.1' },
        involvedObject: { kind: 'ReplicaSet', name: 'rs-ev', namespace: 'default' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: rs-ev-x',
        type: 'Normal',
        source: { component: 'replicaset-controller' },
        count: 1,
      },
    });
    const got = await env.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=rs-ev,reason=SuccessfulCreate' });
    expect(got.items.map((e) => e.metadata?.name)).toEqual(['ev-crud.1']);
    const none = await env.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=other' });
    expect(none.items).toEqual([]);
  });

  it('events with eventTime need reportingController, reportingInstance and action', async () => {
    const f = await failure(
      env.core.createNamespacedEvent({
        namespace: 'default',
        body: {
          metadata: { name: 'ev-new.1' },
          involvedObject: { kind: 'Pod', name: 'x', namespace: 'default' },
          reason: 'R',
          eventTime: new Date() as any,
          reportingComponent: 'rs-reconcile',
        },
      }),
    );
    expect(f.code).toBe(422);
    expect(f.status.details?.causes?.map((c) => c.field).sort()).toEqual(['action', 'reportingInstance']);
  });

  it('replicationcontrollers: selector and labels defaulted from the template', async () => {
    const body = rcBody('crud-rc', 3);
    delete (body.spec as any).selector;
    const rc = await env.core.createNamespacedReplicationController({ namespace: 'default', body });
    expect(rc.spec?.selector).toEqual({ app: 'crud-rc' });
    expect(rc.metadata?.labels).toEqual({ app: 'crud-rc' });
    expect(rc.status?.replicas).toBe(0);
    expect(rc.metadata?.generation).toBe(1);
    const scale = await env.core.readNamespacedReplicationControllerScale({ name: 'crud-rc', namespace: 'default' });
    expect(scale.spec?.replicas).toBe(3);
    expect(scale.status?.selector).toBe('app=crud-rc');
    await env.core.deleteNamespacedReplicationController({ name: 'crud-rc', namespace: 'default', propagationPolicy: 'Background' });
    expect((await failure(env.core.readNamespacedReplicationController({ name: 'crud-rc', namespace: 'default' }))).code).toBe(404);
  });

  it('replicasets: validation of selector against template labels', async () => {
    const bad = rsBody('crud-bad');
    bad.spec.template.metadata.labels = { app: 'other' };
    const f = await failure(env.apps.createNamespacedReplicaSet({ namespace: 'default', body: bad }));
    expect(f.code).toBe(422);
    expect(f.status.reason).toBe('Invalid');
    expect(f.status.message).toBe(
      'ReplicaSet.apps "crud-bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    );
    expect(f.status.details).toMatchObject({ name: 'crud-bad', group: 'apps', kind: 'ReplicaSet' });
    expect(f.status.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        field: 'spec.template.metadata.labels',
      },
    ]);
  });

  it('leases: optimistic concurrency with resourceVersion', async () => {
    const lease = await env.coord.createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'crud-lease' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    const renewed = await env.coord.replaceNamespacedLease({
      name: 'crud-lease',
      namespace: 'default',
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } },
    });
    expect(renewed.spec?.holderIdentity).toBe('b');
    const stale = await failure(
      env.coord.replaceNamespacedLease({ name: 'crud-lease', namespace: 'default', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'c' } } }),
    );
    expect(stale.code).toBe(409);
    expect(stale.status.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "crud-lease": the object has been modified; please apply your changes to the latest version and try again',
    );
    const bad = await failure(
      env.coord.createNamespacedLease({ namespace: 'default', body: { metadata: { name: 'bad-lease' }, spec: { leaseDurationSeconds: 0 } } }),
    );
    expect(bad.code).toBe(422);
    expect(bad.status.details?.causes?.[0]).toMatchObject({ field: 'spec.leaseDurationSeconds', message: 'Invalid value: 0: must be greater than 0' });
  });
});

describe('metadata semantics', () => {
  it('resourceVersion increases monotonically across resources and writes', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      seen.push(rvNum(await env.core.createNamespacedPod({ namespace: 'default', body: podBody(`rv-${i}`) })));
      seen.push(rvNum(await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody(`rv-rs-${i}`) })));
      seen.push(
        rvNum(await env.core.patchNamespacedPod({ name: `rv-${i}`, namespace: 'default', body: { metadata: { labels: { i: String(i) } } } }, mergePatch())),
      );
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    const list = await env.core.listNamespacedPod({ namespace: 'default' });
    expect(Number(list.metadata?.resourceVersion)).toBeGreaterThanOrEqual(seen[seen.length - 1]);
  });

  it('answers 409 Conflict with the real message on a stale PUT', async () => {
    const p = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('p1') });
    await env.core.patchNamespacedPod({ name: 'p1', namespace: 'default', body: { metadata: { labels: { bump: '1' } } } }, mergePatch());
    const f = await failure(env.core.replaceNamespacedPod({ name: 'p1', namespace: 'default', body: p }));
    expect(f.code).toBe(409);
    expect(f.status).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods "p1": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'p1', kind: 'pods' },
    });
  });

  it('NotFound, AlreadyExists and missing namespace answers carry the real reason and details', async () => {
    const nf = await failure(env.core.patchNamespacedPod({ name: 'nope', namespace: 'default', body: { metadata: { labels: { a: 'b' } } } }, mergePatch()));
    expect(nf.code).toBe(404);
    expect(nf.status).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found', details: { name: 'nope', kind: 'pods' } });
    const rsnf = await failure(env.apps.readNamespacedReplicaSet({ name: 'nope', namespace: 'default' }));
    expect(rsnf.status).toMatchObject({ message: 'replicasets.apps "nope" not found', details: { name: 'nope', group: 'apps', kind: 'replicasets' } });
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('dup') });
    const ae = await failure(env.core.createNamespacedPod({ namespace: 'default', body: podBody('dup') }));
    expect(ae.code).toBe(409);
    expect(ae.status).toMatchObject({ reason: 'AlreadyExists', message: 'pods "dup" already exists' });
    const ns = await failure(env.core.createNamespacedPod({ namespace: 'ghost', body: podBody('x') }));
    expect(ns.code).toBe(404);
    expect(ns.status).toMatchObject({ reason: 'NotFound', message: 'namespaces "ghost" not found', details: { name: 'ghost', kind: 'namespaces' } });
    const noname = await failure(env.core.createNamespacedPod({ namespace: 'default', body: { spec: { containers: [{ name: 'c', image: 'i' }] } } }));
    expect(noname.code).toBe(422);
    expect(noname.status.message).toBe('Pod "" is invalid: metadata.name: Required value: name or generateName is required');
    const withRV = await failure(
      env.core.createNamespacedPod({ namespace: 'default', body: { ...podBody('withrv'), metadata: { name: 'withrv', resourceVersion: '5' } } }),
    );
    expect(withRV.code).toBe(400);
    expect(withRV.status.message).toBe('resourceVersion should not be set on objects to be created');
  });

  it('generateName appends 5 characters of the upstream alphabet', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const p = await env.core.createNamespacedPod({
        namespace: 'default',
        body: { metadata: { generateName: 'web-abc-' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      });
      expect(p.metadata?.name).toMatch(/^web-abc-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      names.add(p.metadata!.name!);
    }
    expect(names.size).toBe(5);
  });
});

describe('status and scale subresources', () => {
  it('status writes change only status; main writes ignore status; generation follows spec', async () => {
    const rs = await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('sub-rs', 2) });
    expect(rs.metadata?.generation).toBe(1);
    expect(rs.status).toEqual({ replicas: 0 });

    const st = await env.apps.replaceNamespacedReplicaSetStatus({
      name: 'sub-rs',
      namespace: 'default',
      body: {
        ...rs,
        spec: { ...rs.spec!, replicas: 9 },
        status: { replicas: 2, readyReplicas: 1, availableReplicas: 1, fullyLabeledReplicas: 2, observedGeneration: 1 },
      },
    });
    expect(st.status).toMatchObject({ replicas: 2, readyReplicas: 1, observedGeneration: 1 });
    expect(st.spec?.replicas).toBe(2);
    expect(st.metadata?.generation).toBe(1);

    const main = await env.apps.replaceNamespacedReplicaSet({
      name: 'sub-rs',
      namespace: 'default',
      body: { ...st, spec: { ...st.spec!, replicas: 4 }, status: { replicas: 0 } },
    });
    expect(main.spec?.replicas).toBe(4);
    expect(main.status?.replicas).toBe(2);
    expect(main.metadata?.generation).toBe(2);

    const labelOnly = await env.apps.patchNamespacedReplicaSet(
      { name: 'sub-rs', namespace: 'default', body: { metadata: { labels: { x: 'y' } } } },
      mergePatch(),
    );
    expect(labelOnly.metadata?.generation).toBe(2);

    const patchedStatus = await env.apps.patchNamespacedReplicaSetStatus(
      {
        name: 'sub-rs',
        namespace: 'default',
        body: { status: { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'boom' }] } },
      },
      mergePatch(),
    );
    expect(patchedStatus.status?.conditions?.[0]).toMatchObject({ type: 'ReplicaFailure', reason: 'FailedCreate' });
    expect(patchedStatus.metadata?.generation).toBe(2);

    const badStatus = await failure(
      env.apps.patchNamespacedReplicaSetStatus({ name: 'sub-rs', namespace: 'default', body: { status: { readyReplicas: 5 } } }, mergePatch()),
    );
    expect(badStatus.code).toBe(422);
    expect(badStatus.status.details?.causes?.[0]).toMatchObject({
      field: 'status.readyReplicas',
      message: 'Invalid value: 5: cannot be greater than status.replicas',
    });
  });

  it('pods/status: phase and conditions written apart from spec', async () => {
    const p = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('sub-pod') });
    const next: V1Pod = { ...p, spec: { ...p.spec!, nodeName: 'sneaky' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
    const st = await env.core.replaceNamespacedPodStatus({ name: 'sub-pod', namespace: 'default', body: next });
    expect(st.status?.phase).toBe('Running');
    expect(st.spec?.nodeName).toBeUndefined();
    expect(st.metadata?.generation).toBe(1);
    const forbidden = await failure(
      env.core.patchNamespacedPod({ name: 'sub-pod', namespace: 'default', body: { spec: { restartPolicy: 'Never' } } }, mergePatch()),
    );
    expect(forbidden.code).toBe(422);
    expect(forbidden.status.details?.causes?.[0]?.field).toBe('spec');
    const image = await env.core.patchNamespacedPod(
      { name: 'sub-pod', namespace: 'default', body: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } } },
      smp(),
    );
    expect(image.spec?.containers[0].image).toBe('nginx:1.28');
    expect(image.metadata?.generation).toBe(2);
    expect(image.status?.phase).toBe('Running');
  });

  it('replicasets/scale: GET, PUT, PATCH as autoscaling/v1 Scale', async () => {
    await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('scale-rs', 1) });
    const s = await env.apps.readNamespacedReplicaSetScale({ name: 'scale-rs', namespace: 'default' });
    expect(s).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=scale-rs' } });
    const put = await env.apps.replaceNamespacedReplicaSetScale({ name: 'scale-rs', namespace: 'default', body: { ...s, spec: { replicas: 3 } } });
    expect(put.spec?.replicas).toBe(3);
    const rs = await env.apps.readNamespacedReplicaSet({ name: 'scale-rs', namespace: 'default' });
    expect(rs.spec?.replicas).toBe(3);
    expect(rs.metadata?.generation).toBe(2);
    const stale = await failure(env.apps.replaceNamespacedReplicaSetScale({ name: 'scale-rs', namespace: 'default', body: { ...s, spec: { replicas: 4 } } }));
    expect(stale.code).toBe(409);
    expect(stale.status.message).toContain('Operation cannot be fulfilled on replicasets.apps "scale-rs"');
    const patched = await env.apps.patchNamespacedReplicaSetScale({ name: 'scale-rs', namespace: 'default', body: { spec: { replicas: 0 } } }, mergePatch());
    expect(patched.spec?.replicas).toBe(0);
    const neg = await failure(
      env.apps.patchNamespacedReplicaSetScale({ name: 'scale-rs', namespace: 'default', body: { spec: { replicas: -1 } } }, mergePatch()),
    );
    expect(neg.code).toBe(422);
    expect(neg.status.message).toBe('Scale.autoscaling "scale-rs" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });
});

describe('dryRun=All', () => {
  it('validates and answers every write, stores nothing, bumps nothing, emits no event, audits dryRun', async () => {
    const base = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('dry-base') });
    const list0 = await env.core.listNamespacedPod({ namespace: 'default' });
    const w = openWatch(env.sb, `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${list0.metadata?.resourceVersion}`);
    env.sb.clearAudit();

    const created = await env.core.createNamespacedPod({ namespace: 'default', body: podBody('dry-new'), dryRun: 'All' });
    expect(created.metadata?.name).toBe('dry-new');
    expect(created.metadata?.uid).toBeTruthy();
    const invalidDry = await failure(
      env.core.createNamespacedPod({
        namespace: 'default',
        body: { metadata: { name: 'Bad_Name' }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        dryRun: 'All',
      }),
    );
    expect(invalidDry.code).toBe(422);
    const patched = await env.core.patchNamespacedPod(
      { name: 'dry-base', namespace: 'default', body: { metadata: { labels: { dry: 'yes' } } }, dryRun: 'All' },
      mergePatch(),
    );
    expect(patched.metadata?.labels?.dry).toBe('yes');
    expect(patched.metadata?.resourceVersion).toBe(base.metadata?.resourceVersion);
    const replaced = await env.core.replaceNamespacedPod({
      name: 'dry-base',
      namespace: 'default',
      body: { ...base, metadata: { ...base.metadata, labels: { r: '1' } } },
      dryRun: 'All',
    });
    expect(replaced.metadata?.labels).toEqual({ r: '1' });
    await env.core.deleteNamespacedPod({ name: 'dry-base', namespace: 'default', dryRun: 'All' });
    await env.apps.createNamespacedReplicaSet({ namespace: 'default', body: rsBody('dry-rs'), dryRun: 'All' });

    const list1 = await env.core.listNamespacedPod({ namespace: 'default' });
    expect(list1.metadata?.resourceVersion).toBe(list0.metadata?.resourceVersion);
    const still = await env.core.readNamespacedPod({ name: 'dry-base', namespace: 'default' });
    expect(still.metadata?.labels).toEqual({ app: 'web' });
    expect(still.metadata?.resourceVersion).toBe(base.metadata?.resourceVersion);
    expect((await failure(env.core.readNamespacedPod({ name: 'dry-new', namespace: 'default' }))).code).toBe(404);
    expect((await failure(env.apps.readNamespacedReplicaSet({ name: 'dry-rs', namespace: 'default' }))).code).toBe(404);

    const writes = env.sb.audit().filter((e) => ['create', 'update', 'patch', 'delete'].includes(e.verb));
    expect(writes.map((e) => [e.verb, e.resource, e.dryRun])).toEqual([
      ['create', 'pods', true],
      ['create', 'pods', true],
      ['patch', 'pods', true],
      ['update', 'pods', true],
      ['delete', 'pods', true],
      ['create', 'replicasets', true],
    ]);
    await new Promise((r) => setTimeout(r, 100));
    expect(w.events).toEqual([]);
    w.close();

    const badValue = await raw(env.sb, 'POST', '/api/v1/namespaces/default/pods?dryRun=Some', { body: podBody('dry-x') });
    expect(badValue.status).toBe(422);
    expect(badValue.json.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All"');
  });
});
