// Fault injection (rates, codes, filters, counts, latency, determinism) and the audit log.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditLog } from '../../src/sandbox/audit.js';
import { runSandboxCli } from '../../src/sandbox/cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { failure, mergePatch, podBody, raw, startEnv, waitFor, type Env } from './helpers.js';

// Captured before any test fakes timers.
const realSetTimeout = globalThis.setTimeout;
const realSleep = (ms: number) => new Promise<void>((r) => realSetTimeout(r, ms));

const jsonLines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

let env: Env;
let dir: string;
/** Sandboxes of single tests, closed at the end even when an assertion failed first (close is idempotent). */
const others: Env[] = [];
const ownEnv = async (o: Parameters<typeof startEnv>[0]) => {
  const e = await startEnv(o);
  others.push(e);
  return e;
};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbx-audit-'));
  env = await startEnv();
});
afterAll(async () => {
  await env.sb.close();
  for (const e of others) await e.sb.close();
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
      expect(f.status.message).toBe(
        'Operation cannot be fulfilled on pods "c1": the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    expect((await patch('faulty')).metadata?.labels?.x).toBe('1');
  });

  it('is deterministic for a seed', async () => {
    const outcomes = async (seed: number) => {
      const e = await startEnv({ faultSeed: seed });
      try {
        e.sb.faults.set({ errorRate: 0.5, code: 500, verb: 'list' });
        const out: number[] = [];
        for (let i = 0; i < 12; i++)
          out.push(
            await e.core.listNamespacedPod({ namespace: 'default' }).then(
              () => 200,
              (err) => err.code,
            ),
          );
        return out;
      } finally {
        await e.sb.close();
      }
    };
    const a = await outcomes(42);
    expect(await outcomes(42)).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
    expect(await outcomes(43)).not.toEqual(a);
  });

  it('latency holds a matching request until the clock has moved latencyMs; others are answered meanwhile', async () => {
    // The delay runs on setTimeout, faked here: the test moves the clock, it never measures it.
    const e = await startEnv({ gc: false });
    try {
      e.sb.faults.set({ errorRate: 0, code: 500, latencyMs: 150, verb: 'get', resource: 'namespaces' });
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      let answered = false;
      const delayed = raw(e.sb, 'GET', '/api/v1/namespaces/default').then((r) => ((answered = true), r));
      for (let i = 0; vi.getTimerCount() === 0; i++) {
        if (i > 500) throw new Error('the delayed request never reached the sandbox');
        await realSleep(10);
      }
      expect((await raw(e.sb, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
      vi.advanceTimersByTime(149);
      expect((await raw(e.sb, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
      expect(answered).toBe(false);
      // Audited when answered: only the two pod lists so far.
      expect(e.sb.audit().map((x) => `${x.verb} ${x.resource}`)).toEqual(['list pods', 'list pods']);
      vi.advanceTimersByTime(1);
      expect((await delayed).status).toBe(200);
      expect(e.sb.audit().map((x) => `${x.verb} ${x.resource}`)).toEqual(['list pods', 'list pods', 'get namespaces']);
    } finally {
      vi.useRealTimers();
      await e.sb.close();
    }
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
    const file = join(dir, 'audit.jsonl');
    const a = await ownEnv({ auditLog: file });
    await a.core.createNamespacedPod({ namespace: 'default', body: podBody('au') });
    await a.core.readNamespacedPod({ name: 'au', namespace: 'default' });
    await a.core.listNamespacedPod({ namespace: 'default' });
    await a.core.patchNamespacedPod({ name: 'au', namespace: 'default', body: { metadata: { labels: { a: '1' } } } }, mergePatch());
    const p = await a.core.readNamespacedPod({ name: 'au', namespace: 'default' });
    await a.core.replaceNamespacedPodStatus({ name: 'au', namespace: 'default', body: { ...p, status: { phase: 'Running' } } });
    await a.core.deleteNamespacedPod({ name: 'au', namespace: 'default', dryRun: 'All' });
    await failure(a.core.readNamespacedPod({ name: 'nope', namespace: 'default' }));
    await a.core.deleteCollectionNamespacedPod({ namespace: 'default', labelSelector: 'a=1' });
    await raw(a.sb, 'GET', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1');
    await raw(a.sb, 'GET', '/api/v1/pods', { token: null });
    await raw(a.sb, 'GET', '/apis/apps/v1');
    const entries = a.sb.audit();
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
    const http = await raw(a.sb, 'GET', '/sandbox/audit');
    expect(http.json).toEqual({ entries, dropped: 0 });
    await a.sb.close();
    // close() flushed the file: it holds the same requests, in order, as audit.k8s.io/v1 Events.
    const events = await jsonLines(file);
    expect(
      events.map((e) => [
        e.verb,
        e.objectRef.resource,
        e.objectRef.subresource ?? '',
        e.objectRef.namespace ?? '',
        e.responseStatus.code,
        e.stageTimestamp,
        e.user.username,
        e.userAgent,
      ]),
    ).toEqual(entries.map((e) => [e.verb, e.resource, e.subresource ?? '', e.namespace ?? '', e.code, e.time, e.user, e.userAgent]));
  });

  it("the file is kube-apiserver's audit.k8s.io/v1 format: levels, objectRef, bodies, refusals, dry runs, the simulated components' users", async () => {
    const file = join(dir, 'v1.jsonl');
    const a = await ownEnv({ auditLog: file, nodes: 1 });
    const labels = { app: 'v1' };
    const rs = await a.apps.createNamespacedReplicaSet({
      namespace: 'default',
      body: {
        metadata: { name: 'v1' },
        spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      },
    });
    const gen = await a.core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { generateName: 'v1-', labels }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    });
    await a.core.patchNamespacedPod({ name: gen.metadata!.name!, namespace: 'default', body: { metadata: { labels: { extra: 'y' } } } }, mergePatch());
    // a stale resourceVersion: refused with 409, the Status in responseStatus and responseObject
    await a.apps.replaceNamespacedReplicaSetStatus({ name: 'v1', namespace: 'default', body: { ...rs, status: { replicas: 0, observedGeneration: 1 } } });
    expect((await failure(a.apps.replaceNamespacedReplicaSetStatus({ name: 'v1', namespace: 'default', body: { ...rs, status: { replicas: 3 } } }))).code).toBe(
      409,
    );
    await a.core.createNamespacedPod({ namespace: 'default', body: podBody('dry'), dryRun: 'All' });
    await a.core.createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { name: 'ev1' }, involvedObject: { kind: 'Pod', name: 'x', namespace: 'default' }, reason: 'R', message: 'm' } as never,
    });
    await waitFor(() => a.sb.audit().some((e) => e.user === 'system:node:node-1' && e.subresource === 'status'), "the kubelet's status");
    await a.core.deleteNamespacedPod({ name: gen.metadata!.name!, namespace: 'default' });
    // the simulated scheduler binds the pod and its kubelet reports it; it deletes it after its grace period
    await waitFor(() => a.sb.audit().some((e) => e.user === 'system:node:node-1' && e.verb === 'delete'), "the kubelet's final delete");
    await a.sb.close();
    const events = await jsonLines(file);
    const micro = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
    for (const e of events) {
      expect(Object.keys(e).slice(0, 9)).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs']);
      expect([e.kind, e.apiVersion, e.stage]).toEqual(['Event', 'audit.k8s.io/v1', 'ResponseComplete']);
      expect(e.auditID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect([e.requestReceivedTimestamp, e.stageTimestamp]).toEqual([expect.stringMatching(micro), expect.stringMatching(micro)]);
      expect(e.requestReceivedTimestamp <= e.stageTimestamp).toBe(true);
      expect(e.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
      const bodies = ['pods', 'replicasets'].includes(e.objectRef.resource) && ['create', 'update', 'patch', 'delete'].includes(e.verb);
      expect(e.level).toBe(bodies ? 'RequestResponse' : 'Metadata');
      if (!bodies) expect([e.requestObject, e.responseObject]).toEqual([undefined, undefined]);
    }
    // file order is stage order
    expect(events.map((e) => e.stageTimestamp)).toEqual(events.map((e) => e.stageTimestamp).sort());
    const find = (pred: (e: any) => boolean) => {
      const found = events.filter(pred);
      expect(found).toHaveLength(1);
      return found[0];
    };
    const rsCreate = find((e) => e.verb === 'create' && e.objectRef.resource === 'replicasets');
    expect(rsCreate).toMatchObject({
      requestURI: '/apis/apps/v1/namespaces/default/replicasets',
      user: { username: 'sandbox-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      objectRef: { resource: 'replicasets', namespace: 'default', name: 'v1', apiGroup: 'apps', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: { metadata: { name: 'v1' }, spec: { replicas: 0 } },
      responseObject: { kind: 'ReplicaSet', apiVersion: 'apps/v1', metadata: { name: 'v1', uid: rs.metadata!.uid } },
    });
    // generateName: no name in objectRef (it is chosen after the request is read), the response has it
    const podCreate = find((e) => e.verb === 'create' && e.objectRef.resource === 'pods' && !e.objectRef.subresource && !e.requestURI.includes('dryRun'));
    expect(podCreate.objectRef).toEqual({ resource: 'pods', namespace: 'default', apiVersion: 'v1' });
    expect(podCreate.requestObject.metadata).toEqual({ generateName: 'v1-', labels });
    expect(podCreate.responseObject.metadata.name).toBe(gen.metadata!.name);
    // a patch's requestObject is the patch as sent
    const patch = find((e) => e.verb === 'patch' && e.objectRef.resource === 'pods' && !e.objectRef.subresource);
    expect([patch.requestURI, patch.objectRef.name, patch.requestObject, patch.responseObject.metadata.labels]).toEqual([
      `/api/v1/namespaces/default/pods/${gen.metadata!.name}`,
      gen.metadata!.name,
      { metadata: { labels: { extra: 'y' } } },
      { ...labels, extra: 'y' },
    ]);
    const refused = find((e) => e.verb === 'update' && e.objectRef.subresource === 'status' && e.responseStatus.code === 409);
    expect(refused.objectRef).toMatchObject({ name: 'v1', uid: rs.metadata!.uid, resourceVersion: rs.metadata!.resourceVersion, subresource: 'status' });
    expect(refused.responseStatus).toMatchObject({
      metadata: {},
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: expect.stringContaining('the object has been modified'),
    });
    expect(refused.responseObject).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409 });
    const dry = find((e) => e.requestURI.includes('dryRun=All'));
    expect([dry.verb, dry.objectRef.name, dry.responseStatus.code]).toEqual(['create', 'dry', 201]);
    const ev = find((e) => e.objectRef.resource === 'events');
    expect([ev.level, ev.objectRef.name, ev.requestObject]).toEqual(['Metadata', 'ev1', undefined]);
    // the user's delete: DeleteOptions as kube-apiserver logs them, the pod answered terminating
    const del = find((e) => e.verb === 'delete' && e.user.username === 'sandbox-admin');
    expect(del.requestObject).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal' });
    expect(del.responseObject.metadata.deletionTimestamp).toBeTruthy();
    // the simulated components, with their own users and what they sent
    const bind = find((e) => e.objectRef.subresource === 'binding');
    expect(bind).toMatchObject({
      user: { username: 'system:kube-scheduler', groups: ['system:authenticated'] },
      requestURI: `/api/v1/namespaces/default/pods/${gen.metadata!.name}/binding`,
      requestObject: { kind: 'Binding', target: { kind: 'Node', name: 'node-1' } },
      responseStatus: { metadata: {}, status: 'Success', code: 201 },
    });
    const kubelet = events.filter((e) => e.user.username === 'system:node:node-1' && e.objectRef.subresource === 'status');
    expect(kubelet.length).toBeGreaterThan(0);
    for (const k of kubelet) {
      expect(k.user.groups).toEqual(['system:nodes', 'system:authenticated']);
      expect(k.requestObject.metadata).toEqual({ uid: gen.metadata!.uid });
      const conds = (st: any) => (st.conditions ?? []).map((c: any) => `${c.type}=${c.status}`);
      expect([k.responseObject.status.phase, conds(k.responseObject.status)]).toEqual([k.requestObject.status.phase, conds(k.requestObject.status)]);
    }
    const last = find((e) => e.verb === 'delete' && e.user.username === 'system:node:node-1');
    expect(last.requestObject).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/__internal',
      gracePeriodSeconds: 0,
      preconditions: { uid: gen.metadata!.uid },
    });
    const sa = events.filter((e) => e.objectRef.resource === 'serviceaccounts' && e.verb === 'create');
    for (const e of sa) expect(e.user.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']);
  });
});

describe('audit log bound', () => {
  const entry = (i: number) => ({ verb: 'get' as const, resource: 'pods', namespace: 'default', name: `p-${i}`, code: 200, dryRun: false });

  it('memory keeps exactly the newest maxEntries, counts the dropped ones; the file gets every entry in order', async () => {
    const file = join(dir, 'ring.jsonl');
    const log = new AuditLog({ file, maxEntries: 5 });
    for (let i = 0; i < 12; i++) log.record(entry(i));
    expect(log.all().map((e) => e.name)).toEqual(['p-7', 'p-8', 'p-9', 'p-10', 'p-11']);
    expect(log.dropped()).toBe(7);
    log.record(entry(12));
    expect(log.all().map((e) => e.name)).toEqual(['p-8', 'p-9', 'p-10', 'p-11', 'p-12']);
    expect(log.dropped()).toBe(8);
    await log.close();
    expect((await jsonLines(file)).map((e) => e.objectRef.name)).toEqual(Array.from({ length: 13 }, (_, i) => `p-${i}`));
  });

  it('clear empties memory and the dropped count, not the file; 0 keeps nothing in memory', async () => {
    const file = join(dir, 'clear.jsonl');
    const log = new AuditLog({ file, maxEntries: 3 });
    for (let i = 0; i < 4; i++) log.record(entry(i));
    log.clear();
    expect([log.all(), log.dropped()]).toEqual([[], 0]);
    log.record(entry(4));
    expect(log.all().map((e) => e.name)).toEqual(['p-4']);
    await log.close();
    expect(await jsonLines(file)).toHaveLength(5);
    const none = new AuditLog({ maxEntries: 0 });
    none.record(entry(0));
    expect([none.all(), none.dropped()]).toEqual([[], 1]);
  });

  it('defaults to 100000 entries in memory', () => {
    const log = new AuditLog();
    for (let i = 0; i <= 100_000; i++) log.record(entry(i));
    const all = log.all();
    expect(all).toHaveLength(100_000);
    expect([all[0].name, all[99_999].name, log.dropped()]).toEqual(['p-1', 'p-100000', 1]);
  });

  it('startSandbox({ auditMaxEntries }): audit(), auditDropped() and GET /sandbox/audit show the newest; the file all', async () => {
    const file = join(dir, 'sandbox-ring.jsonl');
    const a = await ownEnv({ auditLog: file, auditMaxEntries: 3, gc: false });
    for (let i = 0; i < 5; i++) await a.core.createNamespacedPod({ namespace: 'default', body: podBody(`ring-${i}`) });
    await a.core.readNamespacedPod({ namespace: 'default', name: 'ring-0' });
    const entries = a.sb.audit();
    expect(entries.map((e) => `${e.verb} ${e.name ?? ''}`)).toEqual(['create ', 'create ', 'get ring-0']);
    expect(a.sb.auditDropped()).toBe(3);
    expect((await raw(a.sb, 'GET', '/sandbox/audit')).json).toEqual({ entries, dropped: 3 });
    expect((await raw(a.sb, 'DELETE', '/sandbox/audit')).status).toBe(200);
    expect((await raw(a.sb, 'GET', '/sandbox/audit')).json).toEqual({ entries: [], dropped: 0 });
    await a.sb.close();
    const lines = await jsonLines(file);
    expect(lines.map((e) => e.verb)).toEqual(['create', 'create', 'create', 'create', 'create', 'get']);
    expect(lines.slice(-3).map((e) => [e.verb, e.stageTimestamp])).toEqual(entries.map((e) => [e.verb, e.time]));
  });

  it('runSandboxCli (`sandbox --audit-max-entries`) passes the bound on; closing flushes the file', async () => {
    const file = join(dir, 'cli.jsonl');
    const kubeconfigPath = join(dir, 'cli.kubeconfig');
    const out = new PassThrough();
    let stdout = '';
    out.on('data', (c) => (stdout += c));
    const ac = new AbortController();
    const running = runSandboxCli({ kubeconfigPath, nodes: 0, auditLog: file, auditMaxEntries: 2, out, err: new PassThrough(), signal: ac.signal });
    await waitFor(() => stdout.includes('\n'), 'the export line');
    const kc = new KubeConfig();
    kc.loadFromString(await readFile(kubeconfigPath, 'utf8'));
    const core = kc.makeApiClient(CoreV1Api);
    for (const namespace of ['a', 'b', 'c']) await core.listNamespacedPod({ namespace });
    const cluster = kc.getCurrentCluster()!;
    const body = await new Promise<any>((resolve, reject) => {
      const req = httpsRequest(
        `${cluster.server}/sandbox/audit`,
        { headers: { Authorization: `Bearer ${kc.getCurrentUser()!.token}` }, ca: Buffer.from(cluster.caData!, 'base64') },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect([body.entries.map((e: { namespace: string }) => e.namespace), body.dropped]).toEqual([['b', 'c'], 1]);
    ac.abort();
    await running;
    expect((await jsonLines(file)).map((e) => e.objectRef.namespace)).toEqual(['a', 'b', 'c']);
  });

  it('rejects a bad auditMaxEntries', async () => {
    for (const n of [-1, 1.5, Number.NaN])
      await expect(startSandbox({ auditMaxEntries: n })).rejects.toThrow(/^auditMaxEntries must be a non-negative integer/);
  });
});
