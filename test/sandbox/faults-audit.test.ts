// Fault injection (rates, codes, filters, counts, latency, determinism) and the audit log.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, mergePatch, podBody, raw, startEnv, type Env } from './helpers.js';

let env: Env;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbx-audit-'));
  env = await startEnv({ auditLog: join(dir, 'audit.jsonl') });
});
afterAll(async () => {
  await env.sb.close();
  await rm(dir, { recursive: true, force: true });
});

describe('fault injection', () => {
  it('rate 1.0 of 500: every matching call fails with InternalError until cleared', async () => {
    const id = env.sb.faults.set({ errorRate: 1, code: 500 });
    const calls = [
      env.core.listNamespacedPod({ namespace: 'default' }),
      env.core.createNamespacedPod({ namespace: 'default', body: podBody('f1') }),
      env.apps.listNamespacedReplicaSet({ namespace: 'default' }),
      env.core.readNamespace({ name: 'default' }),
    ];
    for (const c of calls) {
      const f = await failure(c);
      expect(f.code).toBe(500);
      expect(f.status).toMatchObject({ reason: 'InternalError', code: 500 });
      expect(f.status.message).toMatch(/^Internal error occurred: injected fault/);
    }
    const injected = env.sb.audit().filter((e) => e.fault === id);
    expect(injected.map((e) => [e.verb, e.resource, e.code])).toEqual([
      ['list', 'pods', 500],
      ['create', 'pods', 500],
      ['list', 'replicasets', 500],
      ['get', 'namespaces', 500],
    ]);
    env.sb.faults.clear(id);
    expect((await env.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });

  it('429 carries Retry-After and details.retryAfterSeconds', async () => {
    env.sb.faults.set({ errorRate: 1, code: 429, retryAfterSeconds: 7, verb: 'list', resource: 'pods' });
    const f = await failure(env.core.listNamespacedPod({ namespace: 'default' }));
    expect(f.code).toBe(429);
    expect(f.headers['retry-after']).toBe('7');
    expect(f.status).toMatchObject({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 7 } });
    // Only list pods is affected.
    expect((await env.apps.listNamespacedReplicaSet({ namespace: 'default' })).items).toEqual([]);
    env.sb.faults.clear();
  });

  it('409 on a verb and namespace; count limits how often a rule fires', async () => {
    await env.core.createNamespace({ body: { metadata: { name: 'faulty' } } });
    await env.core.createNamespacedPod({ namespace: 'faulty', body: podBody('c1') });
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('c1') });
    env.sb.faults.set({ errorRate: 1, code: 409, verb: 'patch', resource: 'pods', namespace: 'faulty', count: 2 });
    const patch = (ns: string) => env.core.patchNamespacedPod({ name: 'c1', namespace: ns, body: { metadata: { labels: { x: '1' } } } }, mergePatch());
    await patch('default');
    for (let i = 0; i < 2; i++) {
      const f = await failure(patch('faulty'));
      expect(f.code).toBe(409);
      expect(f.status.message).toBe('Operation cannot be fulfilled on pods "c1": the object has been modified; please apply your changes to the latest version and try again');
    }
    expect((await patch('faulty')).metadata?.labels?.x).toBe('1');
  });

  it('is deterministic for a seed and adds latency', async () => {
    const outcomes = async (seed: number) => {
      const e = await startEnv({ faultSeed: seed });
      try {
        e.sb.faults.set({ errorRate: 0.5, code: 500, verb: 'list' });
        const out: number[] = [];
        for (let i = 0; i < 12; i++) out.push(await e.core.listNamespacedPod({ namespace: 'default' }).then(() => 200, (err) => err.code));
        return out;
      } finally {
        await e.sb.close();
      }
    };
    const a = await outcomes(42);
    expect(await outcomes(42)).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
    const id = env.sb.faults.set({ errorRate: 0, code: 500, latencyMs: 150, verb: 'get', resource: 'namespaces' });
    const t0 = Date.now();
    await env.core.readNamespace({ name: 'default' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    env.sb.faults.clear(id);
  });

  it('faults on watch answer the watch request itself', async () => {
    env.sb.faults.set({ errorRate: 1, code: 500, verb: 'watch' });
    const r = await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods?watch=true');
    expect(r.status).toBe(500);
    env.sb.faults.clear();
  });

  it('is reachable over HTTP at /sandbox/faults (token required)', async () => {
    expect((await raw(env.sb, 'POST', '/sandbox/faults', { body: { errorRate: 1, code: 500 }, token: null })).status).toBe(401);
    const bad = await raw(env.sb, 'POST', '/sandbox/faults', { body: { errorRate: 2, code: 500 } });
    expect(bad.status).toBe(400);
    const add = await raw(env.sb, 'POST', '/sandbox/faults', { body: { errorRate: 1, code: 500, resource: 'replicasets' } });
    expect(add.status).toBe(201);
    const list = await raw(env.sb, 'GET', '/sandbox/faults');
    expect(list.json.rules).toEqual([expect.objectContaining({ id: add.json.id, resource: 'replicasets', code: 500 })]);
    expect((await failure(env.apps.listNamespacedReplicaSet({ namespace: 'default' }))).code).toBe(500);
    expect((await raw(env.sb, 'DELETE', `/sandbox/faults/${add.json.id}`)).status).toBe(200);
    expect((await env.apps.listNamespacedReplicaSet({ namespace: 'default' })).items).toEqual([]);
  });
});

describe('audit log', () => {
  it('records every request that reached a handler, with verb, resource, names, code, dryRun and user', async () => {
    env.sb.clearAudit();
    await env.core.createNamespacedPod({ namespace: 'default', body: podBody('au') });
    await env.core.readNamespacedPod({ name: 'au', namespace: 'default' });
    await env.core.listNamespacedPod({ namespace: 'default' });
    await env.core.patchNamespacedPod({ name: 'au', namespace: 'default', body: { metadata: { labels: { a: '1' } } } }, mergePatch());
    const p = await env.core.readNamespacedPod({ name: 'au', namespace: 'default' });
    await env.core.replaceNamespacedPodStatus({ name: 'au', namespace: 'default', body: { ...p, status: { phase: 'Running' } } });
    await env.core.deleteNamespacedPod({ name: 'au', namespace: 'default', dryRun: 'All' });
    await failure(env.core.readNamespacedPod({ name: 'nope', namespace: 'default' }));
    await env.core.deleteCollectionNamespacedPod({ namespace: 'default', labelSelector: 'a=1' });
    await raw(env.sb, 'GET', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1');
    await raw(env.sb, 'GET', '/api/v1/pods', { token: null });
    await raw(env.sb, 'GET', '/apis/apps/v1');
    const entries = env.sb.audit();
    expect(entries.map((e) => [e.verb, e.resource, e.subresource ?? '', e.namespace ?? '', e.name ?? '', e.code, e.dryRun])).toEqual([
      ['create', 'pods', '', 'default', '', 201, false],
      ['get', 'pods', '', 'default', 'au', 200, false],
      ['list', 'pods', '', 'default', '', 200, false],
      ['patch', 'pods', '', 'default', 'au', 200, false],
      ['get', 'pods', '', 'default', 'au', 200, false],
      ['update', 'pods', 'status', 'default', 'au', 200, false],
      ['delete', 'pods', '', 'default', 'au', 200, true],
      ['get', 'pods', '', 'default', 'nope', 404, false],
      ['deletecollection', 'pods', '', 'default', '', 200, false],
      ['watch', 'pods', '', 'default', '', 200, false],
    ]);
    for (const e of entries) {
      expect(e.user).toBe('sandbox-admin');
      expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    }
    expect(entries[0].userAgent).toBeTruthy();
    const lines = (await readFile(join(dir, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.slice(-entries.length)).toEqual(entries);
    const http = await raw(env.sb, 'GET', '/sandbox/audit');
    expect(http.json.entries.length).toBe(entries.length);
  });
});
