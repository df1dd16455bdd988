// dryRun=All on every write path of the registry, as kubectl sends it: in the query for create,
// update and patch, in the DeleteOptions body for delete and deletecollection. The answer is what
// the write would give; storage is untouched: no resourceVersion bump, no watch event, and so no
// reaction of the garbage collector, the namespace controller or the kubelet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatch, podBody, raw, rsBody, startEnv, type Env } from './helpers.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env.sb.close();
});

const PODS = '/api/v1/namespaces/dry/pods';

async function state() {
  const pods = await raw(env.sb, 'GET', PODS);
  const rss = await raw(env.sb, 'GET', '/apis/apps/v1/namespaces/dry/replicasets');
  const ns = await raw(env.sb, 'GET', '/api/v1/namespaces/dry');
  return { rv: pods.json.metadata.resourceVersion, pods: pods.json.items, rss: rss.json.items, ns: ns.json };
}

describe('dryRun=All leaves storage untouched on every write verb', () => {
  it('answers each write as the server would and changes nothing', async () => {
    await raw(env.sb, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dry' } } });
    // no kubelet runs here: a pod bound to a node waits for it when deleted
    const onNode = { ...podBody('on-node'), spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await raw(env.sb, 'POST', PODS, { body: onNode })).status).toBe(201);
    expect((await raw(env.sb, 'POST', PODS, { body: podBody('held', { app: 'web' }, { finalizers: ['example.com/hold'] }) })).status).toBe(201);
    expect((await raw(env.sb, 'POST', PODS, { body: podBody('plain') })).status).toBe(201);
    expect((await raw(env.sb, 'POST', '/apis/apps/v1/namespaces/dry/replicasets', { body: rsBody('rs', 2) })).status).toBe(201);
    // a terminating pod held by its finalizer: removing the finalizer would delete it
    const held = await raw(env.sb, 'DELETE', `${PODS}/held`);
    expect(held.json.metadata.deletionTimestamp).toBeTruthy();
    const before = await state();
    const w = openWatch(env.sb, `${PODS}?watch=true&resourceVersion=${before.rv}`);
    const nsWatch = openWatch(env.sb, `/api/v1/namespaces?watch=true&resourceVersion=${before.rv}`);
    env.sb.clearAudit();

    // kubectl delete pod X --dry-run=server: DELETE with {"dryRun":["All"]} in the body
    const dryBody = { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] };
    const graceful = await raw(env.sb, 'DELETE', `${PODS}/on-node`, { body: { ...dryBody, propagationPolicy: 'Background' } });
    expect(graceful.status).toBe(200);
    expect(graceful.json.kind).toBe('Pod');
    expect(graceful.json.metadata.deletionTimestamp).toBeTruthy();
    expect(graceful.json.metadata.deletionGracePeriodSeconds).toBe(30);

    const immediate = await raw(env.sb, 'DELETE', `${PODS}/plain`, { body: dryBody });
    expect(immediate.status).toBe(200);
    expect(immediate.json.metadata.name).toBe('plain');
    const force = await raw(env.sb, 'DELETE', `${PODS}/on-node`, { body: { ...dryBody, gracePeriodSeconds: 0 } });
    expect(force.status).toBe(200);

    const rsDelete = await raw(env.sb, 'DELETE', '/apis/apps/v1/namespaces/dry/replicasets/rs', { body: { ...dryBody, propagationPolicy: 'Foreground' } });
    expect(rsDelete.status).toBe(200);
    expect(rsDelete.json.metadata.finalizers).toEqual(['foregroundDeletion']);

    const collection = await raw(env.sb, 'DELETE', PODS, { body: dryBody });
    expect(collection.status).toBe(200);
    expect(collection.json.items.map((p: any) => p.metadata.name).sort()).toEqual(['held', 'on-node', 'plain']);

    const nsDelete = await raw(env.sb, 'DELETE', '/api/v1/namespaces/dry', { body: dryBody });
    expect(nsDelete.status).toBe(200);
    expect(nsDelete.json.status.phase).toBe('Terminating');
    const finalize = await raw(env.sb, 'PUT', '/api/v1/namespaces/dry/finalize?dryRun=All', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dry' }, spec: { finalizers: [] } },
    });
    expect(finalize.status).toBe(200);

    // the query form too, on create, update, patch, status, scale and binding
    expect((await raw(env.sb, 'DELETE', `${PODS}/plain?dryRun=All`)).status).toBe(200);
    const created = await raw(env.sb, 'POST', `${PODS}?dryRun=All`, { body: { ...podBody(''), metadata: { generateName: 'gen-', labels: { app: 'web' } } } });
    expect(created.status).toBe(201);
    expect(created.json.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.json.metadata.resourceVersion).toBeUndefined();
    const current = before.pods.find((p: any) => p.metadata.name === 'plain');
    const put = await raw(env.sb, 'PUT', `${PODS}/plain?dryRun=All`, { body: { ...current, metadata: { ...current.metadata, labels: { put: 'yes' } } } });
    expect(put.json.metadata.labels).toEqual({ put: 'yes' });
    expect(put.json.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
    const unhold = await raw(env.sb, 'PATCH', `${PODS}/held?dryRun=All`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(unhold.status).toBe(200);
    const status = await raw(env.sb, 'PATCH', `${PODS}/plain/status?dryRun=All`, {
      body: { status: { phase: 'Running' } },
      contentType: 'application/merge-patch+json',
    });
    expect(status.json.status.phase).toBe('Running');
    const scale = await raw(env.sb, 'PATCH', '/apis/apps/v1/namespaces/dry/replicasets/rs/scale?dryRun=All', {
      body: { spec: { replicas: 7 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scale.json.spec.replicas).toBe(7);
    const scalePut = await raw(env.sb, 'PUT', '/apis/apps/v1/namespaces/dry/replicasets/rs/scale?dryRun=All', {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'rs', namespace: 'dry' }, spec: { replicas: 9 } },
    });
    expect(scalePut.json.spec.replicas).toBe(9);
    const bind = await raw(env.sb, 'POST', `${PODS}/plain/binding?dryRun=All`, {
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'plain' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-2' } },
    });
    expect(bind.status).toBe(201);

    const after = await state();
    expect(after).toEqual(before);
    await new Promise((r) => setTimeout(r, 100));
    expect(w.events).toEqual([]);
    expect(nsWatch.events).toEqual([]);
    w.close();
    nsWatch.close();
    const writes = env.sb.audit().filter((e) => !['get', 'list', 'watch'].includes(e.verb));
    expect(writes.length).toBe(15);
    expect(writes.every((e) => e.dryRun)).toBe(true);
  });

  it('refuses an unknown dryRun value in the DeleteOptions body as in the query: 422 on DeleteOptions', async () => {
    await raw(env.sb, 'POST', '/api/v1/namespaces/default/pods', { body: podBody('dry-bad') });
    const bad = await raw(env.sb, 'DELETE', '/api/v1/namespaces/default/pods/dry-bad', { body: { dryRun: ['Some'] } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All"');
    expect((await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods/dry-bad')).status).toBe(200);
  });
});
