// ServiceAccounts: served as core/v1 `serviceaccounts`, the serviceaccount controller's `default`
// in every namespace (after a delay, re-created when deleted, never in a terminating namespace),
// and the ServiceAccount admission plugin's 403 for a pod whose service account is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultServiceAccount } from '../integration/env.js';
import { failure, podBody, raw, startEnv, waitFor, type Env } from './helpers.js';
import { headerOf, kubectlFor, rowOf } from './kubectl-runner.js';

const CONTROLLER = 'system:serviceaccount:kube-system:service-account-controller';
const DELAY = 60_000;

const saNames = async (env: Env, namespace: string) => (await env.core.listNamespacedServiceAccount({ namespace })).items.map((s) => s.metadata?.name);

describe('the serviceaccount controller', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv({ serviceAccountDelayMs: DELAY });
  });
  afterAll(() => env.sb.close());

  it('the built-in namespaces have `default` from the start', async () => {
    const all = await env.core.listServiceAccountForAllNamespaces();
    expect(all.items.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`).sort()).toEqual([
      'default/default',
      'kube-node-lease/default',
      'kube-public/default',
      'kube-system/default',
    ]);
  });

  it('creates `default` in a new namespace once the delay has passed, as service-account-controller', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'fresh' } } });
    expect(await saNames(env, 'fresh')).toEqual([]);
    env.sb.serviceAccounts!.advance(DELAY - 100);
    expect(await saNames(env, 'fresh')).toEqual([]);
    env.sb.serviceAccounts!.advance(100);
    const sa = await env.core.readNamespacedServiceAccount({ name: 'default', namespace: 'fresh' });
    expect(Object.keys(sa.metadata!).sort()).toEqual(['creationTimestamp', 'name', 'namespace', 'resourceVersion', 'uid']);
    expect(sa.secrets).toBeUndefined();
    const creates = env.sb.audit().filter((e) => e.resource === 'serviceaccounts' && e.namespace === 'fresh' && e.verb === 'create');
    expect(creates.map((e) => [e.user, e.name, e.code])).toEqual([[CONTROLLER, 'default', 201]]);
  });

  it('re-creates `default` after it is deleted; leaves other ServiceAccounts alone', async () => {
    await env.core.createNamespacedServiceAccount({ namespace: 'fresh', body: { metadata: { name: 'robot' } } });
    await env.core.deleteNamespacedServiceAccount({ name: 'default', namespace: 'fresh' });
    await env.core.deleteNamespacedServiceAccount({ name: 'robot', namespace: 'fresh' });
    expect(await saNames(env, 'fresh')).toEqual([]);
    env.sb.serviceAccounts!.advance(DELAY);
    expect(await saNames(env, 'fresh')).toEqual(['default']);
  });

  it('does not create `default` in a namespace being deleted', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'leaving' } } });
    // A pod bound to a node keeps the namespace Terminating (no kubelet removes it).
    await env.core.createNamespacedServiceAccount({ namespace: 'leaving', body: { metadata: { name: 'default' } } });
    await env.core.createNamespacedPod({
      namespace: 'leaving',
      body: { ...podBody('stuck'), spec: { nodeName: 'node-x', containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    });
    await env.core.deleteNamespace({ name: 'leaving' });
    await waitFor(async () => (await saNames(env, 'leaving')).length === 0, 'the namespace controller deletes the ServiceAccount');
    env.sb.serviceAccounts!.advance(DELAY);
    expect(await saNames(env, 'leaving')).toEqual([]);
    expect(env.sb.audit().filter((e) => e.user === CONTROLLER && e.namespace === 'leaving')).toEqual([]);
  });

  it('with the default delay `default` appears on its own', async () => {
    const e = await startEnv();
    try {
      await e.core.createNamespace({ body: { metadata: { name: 'soon' } } });
      await waitFor(async () => (await saNames(e, 'soon')).includes('default'), 'default in soon');
    } finally {
      await e.sb.close();
    }
  });
});

describe('ServiceAccount admission', () => {
  let bare: Env;
  beforeAll(async () => {
    bare = await startEnv({ controllers: false });
  });
  afterAll(() => bare.sb.close());

  it('refuses a pod whose service account does not exist: 403 Forbidden, as kube-apiserver words it', async () => {
    const r = await raw(bare.sb, 'POST', '/api/v1/namespaces/default/pods', { body: podBody('x') });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
      reason: 'Forbidden',
      details: { name: 'x', kind: 'pods' },
      code: 403,
    });
    expect((await bare.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });

  it('names the generateName prefix (admission runs before the name is generated) and a named service account', async () => {
    const gen = await failure(bare.core.createNamespacedPod({ namespace: 'default', body: { ...podBody(''), metadata: { generateName: 'web-abc-' } } }));
    expect(gen.status.message).toBe('pods "web-abc-" is forbidden: error looking up service account default/default: serviceaccount "default" not found');
    expect(gen.status.details).toEqual({ name: 'web-abc-', kind: 'pods' });
    const named = await failure(
      bare.core.createNamespacedPod({
        namespace: 'default',
        body: { ...podBody('y'), spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      }),
    );
    expect(named.status.message).toBe('pods "y" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found');
  });

  it('a bare API server has no ServiceAccount anywhere, even after a namespace is created and time passes', async () => {
    expect(bare.sb.serviceAccounts).toBeUndefined();
    await bare.core.createNamespace({ body: { metadata: { name: 'plain' } } });
    await new Promise((r) => setTimeout(r, 50));
    expect((await bare.core.listServiceAccountForAllNamespaces()).items).toEqual([]);
  });

  it('admits the pod once the service account exists, and writes serviceAccount equal to serviceAccountName', async () => {
    await ensureDefaultServiceAccount(bare.core, 'plain', 0);
    await ensureDefaultServiceAccount(bare.core, 'plain', 0); // AlreadyExists is fine
    const p = await bare.core.createNamespacedPod({
      namespace: 'plain',
      body: { ...podBody('ok'), spec: { serviceAccount: 'default', containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    });
    expect([p.spec?.serviceAccountName, p.spec?.serviceAccount]).toEqual(['default', 'default']);
    await bare.core.createNamespacedServiceAccount({ namespace: 'plain', body: { metadata: { name: 'robot' } } });
    const q = await bare.core.createNamespacedPod({
      namespace: 'plain',
      body: { ...podBody('ok2'), spec: { serviceAccountName: 'robot', serviceAccount: 'other', containers: [{ name: 'c', image: 'nginx:1.27' }] } },
    });
    expect([q.spec?.serviceAccountName, q.spec?.serviceAccount]).toEqual(['robot', 'robot']);
  });

  it('dry-run creates are admitted the same way', async () => {
    const r = await raw(bare.sb, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', { body: podBody('dry') });
    expect(r.status).toBe(403);
  });

  it('waits for `default` as the plugin retries: a pod right after its namespace is admitted when the controller is about to create it', async () => {
    const e = await startEnv();
    try {
      await e.core.createNamespace({ body: { metadata: { name: 'quick' } } });
      const p = await e.core.createNamespacedPod({ namespace: 'quick', body: podBody('first') });
      expect(p.spec?.serviceAccountName).toBe('default');
      expect(await saNames(e, 'quick')).toEqual(['default']);
      const order = e.sb
        .audit()
        .filter((a) => a.namespace === 'quick' && a.verb === 'create')
        .map((a) => `${a.user === CONTROLLER ? 'controller' : 'client'} ${a.verb} ${a.resource} ${a.code}`);
      expect(order).toEqual(['controller create serviceaccounts 201', 'client create pods 201']);
    } finally {
      await e.sb.close();
    }
  });

  it('but not beyond the retries: with a controller much slower than that, the pod is refused', async () => {
    const e = await startEnv({ serviceAccountDelayMs: DELAY });
    try {
      await e.core.createNamespace({ body: { metadata: { name: 'slow' } } });
      const f = await failure(e.core.createNamespacedPod({ namespace: 'slow', body: podBody('early') }));
      expect([f.code, f.status.reason]).toEqual([403, 'Forbidden']);
      await ensureDefaultServiceAccount(e.core, 'slow', 0);
      await e.core.createNamespacedPod({ namespace: 'slow', body: podBody('later') });
    } finally {
      await e.sb.close();
    }
  });
});

describe('seeding', () => {
  const seed = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    {
      ...podBody('ghostly'),
      metadata: { name: 'ghostly', namespace: 'shop' },
      spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'nginx:1.27' }] },
    },
    { ...podBody('implied'), metadata: { name: 'implied', namespace: 'implied-ns' } },
  ];

  it('seeded namespaces (also those a seeded object implies) have `default`; a pod naming a missing one is loaded as stored state', async () => {
    const e = await startEnv({ seed, serviceAccountDelayMs: DELAY });
    try {
      expect(await saNames(e, 'shop')).toEqual(['default']);
      expect(await saNames(e, 'implied-ns')).toEqual(['default']);
      const p = await e.core.readNamespacedPod({ name: 'ghostly', namespace: 'shop' });
      expect(p.spec?.serviceAccountName).toBe('ghost');
      // Seeding is not a request: nothing in the audit log.
      expect(e.sb.audit().filter((a) => a.resource === 'serviceaccounts' && a.verb === 'create')).toEqual([]);
    } finally {
      await e.sb.close();
    }
  });

  it('with controllers: false, seeded namespaces have none', async () => {
    const e = await startEnv({ seed, controllers: false });
    try {
      expect((await e.core.listServiceAccountForAllNamespaces()).items).toEqual([]);
      expect((await e.core.readNamespacedPod({ name: 'implied', namespace: 'implied-ns' })).metadata?.name).toBe('implied');
    } finally {
      await e.sb.close();
    }
  });
});

describe('serving ServiceAccounts', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(() => env.sb.close());

  it('discovery: serviceaccounts in core/v1 with shortName sa', async () => {
    const r = await raw(env.sb, 'GET', '/api/v1');
    const sa = r.json.resources.find((x: { name: string }) => x.name === 'serviceaccounts');
    expect(sa).toEqual({
      name: 'serviceaccounts',
      singularName: 'serviceaccount',
      namespaced: true,
      kind: 'ServiceAccount',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['sa'],
      storageVersionHash: 'pbx9ZvyFpBE=',
    });
  });

  it('validation: a DNS subdomain name; unknown fields refused with fieldValidation=Strict', async () => {
    const bad = await raw(env.sb, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'Robot' } } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toMatch(/^ServiceAccount "Robot" is invalid: metadata.name: Invalid value: "Robot": a lowercase RFC 1123 subdomain/);
    const strict = await raw(env.sb, 'POST', '/api/v1/namespaces/default/serviceaccounts?fieldValidation=Strict', {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'r2' }, automountServiceAccountToken: false, spec: {} },
    });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toBe('ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: unknown field "spec"');
  });

  it('kubectl get sa prints NAME SECRETS AGE', async () => {
    await env.core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'robot' }, secrets: [{ name: 'robot-token' }] } });
    const k = await kubectlFor(env.sb);
    try {
      const r = await k.run('get', 'sa');
      expect(r.stderr).toBe('');
      expect(headerOf(r.stdout)).toEqual(['NAME', 'SECRETS', 'AGE']);
      expect(rowOf(r.stdout, 'default')?.slice(0, 2)).toEqual(['default', '0']);
      expect(rowOf(r.stdout, 'robot')?.slice(0, 2)).toEqual(['robot', '1']);
    } finally {
      await k.close();
    }
  });
});
