// Events as kube-controller-manager's recorder sends them (client-go tools/record), over the real
// client-node and the sandbox: the requests a scale-up of 120 sends (the audit log), the PATCH that
// falls back to a POST on 404, what is retried and what is not, and that an event never queues
// ahead of a pod or status write behind the client-side rate limiter.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeControllerAPI, MAX_TRIES_PER_EVENT } from '../../src/cluster/controller-api.js';
import { LeaseFence } from '../../src/cluster/lease.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { TokenBucket } from '../../src/runtime/rate-limiter.js';
import type { Controller, ControllerObject } from '../../src/core/types.js';
import { AGGREGATE_MESSAGE_PREFIX } from '../../src/runtime/event-correlator.js';
import { WRITE_VERBS, type AuditEntry } from '../../src/sandbox/audit.js';
import { runForeground } from '../../src/services/run-foreground.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { foregroundOptions } from './env.js';

let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

const labels = { app: 'web' };
function rs(replicas: number): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1' }] } },
    },
  };
}

async function setup(seed: object[], opts: { nodes?: number } = {}) {
  sb = await startSandbox({ nodes: opts.nodes ?? 0, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 5 }, gc: false, seed });
  const dir = mkdtempSync(join(tmpdir(), 'rs-events-'));
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  return { kubeconfig, kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api) };
}

/** The controller's event requests (a create's name is in its body, not in the audit entry). */
const eventWrites = (entries: AuditEntry[]) => entries.filter((a) => a.resource === 'events' && (a.verb === 'create' || a.verb === 'patch'));
const writes = (entries: AuditEntry[]) => entries.filter((a) => WRITE_VERBS.has(a.verb) && a.resource !== 'leases');
const asController = (o: ControllerObject) => ({ ...o, kind: 'ReplicaSet' }) as Controller;

async function waitFor<T>(what: string, fn: () => T | false | undefined | null | Promise<T | false | undefined | null>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('events of a scale-up, as upstream sends them', () => {
  it('120 pod creates on one ReplicaSet send 25 event requests: 10 POSTs (the 10th combined), 15 PATCHes of its count', async () => {
    const { kubeconfig, core, apps } = await setup([rs(120)], { nodes: 3 });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const code = await runForeground(
      foregroundOptions(kubeconfig, {
        namespace: 'default',
        kinds: ['ReplicaSet'],
        identity: 'events-test',
        force: true,
        untilSynced: true,
        timeoutMs: 25_000,
        stream: sink,
      }),
    );
    expect(code).toBe(0);
    const audit = sb!.audit();
    expect(audit.filter((a) => a.verb === 'create' && a.resource === 'pods' && !a.subresource)).toHaveLength(120);
    const ev = eventWrites(audit);
    expect(ev.map((a) => `${a.verb} ${a.code}`)).toEqual([...Array(10).fill('create 201'), ...Array(15).fill('patch 200')]);
    const events = (await core.listNamespacedEvent({ namespace: 'default' })).items;
    expect(events).toHaveLength(10);
    const combined = events.find((e) => e.message!.startsWith(AGGREGATE_MESSAGE_PREFIX))!;
    // every PATCH is of the combined event
    expect(new Set(ev.slice(10).map((a) => a.name))).toEqual(new Set([combined.metadata!.name]));
    expect(combined.message!.slice(AGGREGATE_MESSAGE_PREFIX.length)).toMatch(/^Created pod: web-/);
    expect(combined.count).toBe(16);
    expect(combined.reason).toBe('SuccessfulCreate');
    const single = events.filter((e) => e !== combined);
    expect(single.map((e) => e.count)).toEqual(Array(9).fill(1));
    expect(single.every((e) => /^Created pod: web-/.test(e.message!) && e.reportingComponent === 'rs-reconcile')).toBe(true);

    // the status writes were sent: the ReplicaSet's status says 120
    expect(audit.some((a) => a.resource === 'replicasets' && a.subresource === 'status' && a.verb === 'update' && a.code === 200)).toBe(true);
    expect((await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status).toMatchObject({ replicas: 120, readyReplicas: 120 });
  });
});

describe('KubeControllerAPI: event requests', () => {
  it('an identical event PATCHes count and lastTimestamp; a PATCH answered 404 POSTs the event anew under its name', async () => {
    const { kc, core } = await setup([rs(1)]);
    const api = new KubeControllerAPI(kc);
    const c = asController(await api.getController('ReplicaSet', 'default', 'web'));
    await api.recordEvent(c, 'Warning', 'FailedCreate', 'Error creating: quota exceeded');
    await api.recordEvent(c, 'Warning', 'FailedCreate', 'Error creating: quota exceeded');
    let [e] = (await core.listNamespacedEvent({ namespace: 'default' })).items;
    expect(e.count).toBe(2);
    const name = e.metadata!.name!;
    expect(name).toMatch(/^web\.[0-9a-f]+$/);

    await core.deleteNamespacedEvent({ namespace: 'default', name });
    await api.recordEvent(c, 'Warning', 'FailedCreate', 'Error creating: quota exceeded');
    [e] = (await core.listNamespacedEvent({ namespace: 'default' })).items;
    expect(e).toMatchObject({ metadata: { name }, count: 3, message: 'Error creating: quota exceeded' });
    expect(eventWrites(sb!.audit()).map((a) => `${a.verb} ${a.name ?? ''} ${a.code}`)).toEqual([
      'create  201',
      `patch ${name} 200`,
      `patch ${name} 404`,
      'create  201',
    ]);
  });

  it('an event the server refuses is not tried again; the next one is sent', async () => {
    const { kc } = await setup([rs(1)]);
    const api = new KubeControllerAPI(kc);
    const c = asController(await api.getController('ReplicaSet', 'default', 'web'));
    sb!.faults.set({ verb: 'create', resource: 'events', errorRate: 1, code: 500, count: 1 });
    await api.recordEvent(c, 'Normal', 'SuccessfulCreate', 'Created pod: web-a');
    await api.recordEvent(c, 'Normal', 'SuccessfulCreate', 'Created pod: web-b');
    await api.flush();
    expect(eventWrites(sb!.audit()).map((a) => a.code)).toEqual([500, 201]);
  });

  it(`an event with no answer is tried ${MAX_TRIES_PER_EVENT} times, 10 s apart (the first wait randomized); flush ends the waiting`, async () => {
    const { kc } = await setup([rs(1)]);
    const c = asController(await new KubeControllerAPI(kc).getController('ReplicaSet', 'default', 'web'));
    await sb!.close(); // nobody answers any more
    sb = null;
    const clock = new FakeClock(0);
    const tries: number[] = [];
    const api = new KubeControllerAPI(kc, { clock, random: () => 0.25, onRequest: (_verb, resource, code) => resource === 'events' && tries.push(code) });
    const sent = api.recordEvent(c, 'Normal', 'SuccessfulCreate', 'Created pod: web-a');
    await waitFor('the first try', () => tries.length === 1);
    clock.advance(2499);
    await new Promise((r) => setTimeout(r, 20));
    expect(tries).toHaveLength(1);
    clock.advance(1); // 10 s × 0.25
    await waitFor('the second try', () => tries.length === 2);
    for (let n = 3; n <= MAX_TRIES_PER_EVENT; n++) {
      clock.advance(10_000);
      await waitFor(`try ${n}`, () => tries.length === n);
    }
    await sent; // given up
    expect(tries).toEqual(Array(MAX_TRIES_PER_EVENT).fill(0));

    const again = api.recordEvent(c, 'Normal', 'SuccessfulCreate', 'Created pod: web-b');
    await waitFor('its first try', () => tries.length === MAX_TRIES_PER_EVENT + 1);
    await api.flush(); // no clock moves: flush itself ends the wait, with no more tries
    await again;
    expect(tries).toHaveLength(MAX_TRIES_PER_EVENT + 1);
  });

  it('events take limiter tokens only when free: a status write is not held behind them', async () => {
    const { kc } = await setup([rs(1)]);
    const clock = new FakeClock(0);
    const api = new KubeControllerAPI(kc, { clock, limiter: new TokenBucket(clock, 1, 2) });
    const obj = await api.getController('ReplicaSet', 'default', 'web'); // takes one of the 2 tokens
    const c = asController(obj);
    const recorded = ['a', 'b', 'c'].map((x) => api.recordEvent(c, 'Normal', 'SuccessfulCreate', `Created pod: web-${x}`));
    await recorded[0]; // the last free token; the next event now waits for one
    const mark = () => writes(sb!.audit()).map((a) => (a.resource === 'events' ? `event ${a.verb}` : `${a.resource}/${a.subresource} ${a.verb}`));
    expect(mark()).toEqual(['event create']);
    // a write that comes later still goes first: it reserves the next token, the event waits for a free one
    const status = api.updateControllerStatus('ReplicaSet', { ...obj, status: { replicas: 1, observedGeneration: 1 } } as ControllerObject);
    clock.advance(1000);
    await waitFor('a second write', () => mark().length === 2);
    expect(mark()).toEqual(['event create', 'replicasets/status update']);
    await status;
    clock.advance(1000);
    await recorded[1];
    clock.advance(1000);
    await recorded[2];
    expect(mark()).toEqual(['event create', 'replicasets/status update', 'event create', 'event create']);
    await api.flush();
  });

  it('the write fence covers events: those waiting for a token when leading stops are never sent, and flush returns', async () => {
    const { kc } = await setup([rs(1)]);
    const clock = new FakeClock(0);
    const fence = new LeaseFence(clock, 10_000, 0);
    const api = new KubeControllerAPI(kc, { clock, fence, limiter: new TokenBucket(clock, 1, 1) });
    const c = asController(await api.getController('ReplicaSet', 'default', 'web')); // the only token
    const recorded = ['a', 'b'].map((x) => api.recordEvent(c, 'Normal', 'SuccessfulCreate', `Created pod: web-${x}`));
    fence.end(new Error('lost the lease'));
    clock.advance(5000);
    await Promise.all(recorded); // resolved, not rejected
    await api.flush();
    expect(eventWrites(sb!.audit())).toEqual([]);
  });
});
