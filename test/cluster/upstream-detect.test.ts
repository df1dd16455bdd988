// Detection of the upstream ReplicaSet controller from its Events, against the sandbox (and, for
// answers the sandbox never gives — 403, field selectors refused — a minimal plain-HTTP server).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/cluster/kubeconfig.js';
import { detectUpstreamController } from '../../src/cluster/upstream-detect.js';
import { ApiError } from '../../src/runtime/api.js';
import { startRunEnv, type RunEnv } from './run-env.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString().replace('.000Z', 'Z');
const MIN = 60_000;

let env: RunEnv | null = null;
let fake: http.Server | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await env?.close();
  env = null;
  if (fake) {
    fake.closeAllConnections();
    await new Promise((r) => fake!.close(r));
  }
  fake = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

function event(
  name: string,
  o: { ns?: string; reason?: string; source?: string; reporting?: string; at: string; kind?: string; obj?: string; eventTime?: boolean },
) {
  const namespace = o.ns ?? 'shop';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { apiVersion: o.kind === 'ReplicationController' ? 'v1' : 'apps/v1', kind: o.kind ?? 'ReplicaSet', namespace, name: o.obj ?? 'web' },
    reason: o.reason ?? 'SuccessfulCreate',
    message: 'Created pod: web-abcde',
    type: 'Normal',
    count: 1,
    ...(o.eventTime
      ? { eventTime: o.at.replace('Z', '.000000Z'), action: 'Create', reportingInstance: 'kcm-1' }
      : { firstTimestamp: o.at, lastTimestamp: o.at }),
    ...(o.source ? { source: { component: o.source } } : {}),
    ...(o.reporting ? { reportingComponent: o.reporting } : {}),
  };
}

describe('detectUpstreamController', () => {
  it('reports a recent event of the upstream ReplicaSet controller', async () => {
    env = await startRunEnv({
      seed: [
        ns('shop'),
        event('web.1', { source: 'replicaset-controller', reporting: 'replicaset-controller', at: ago(3 * MIN) }),
        event('web.2', { source: 'replicaset-controller', reason: 'SuccessfulDelete', at: ago(20 * MIN) }),
        event('pod.1', { source: 'kubelet', reason: 'Pulled', at: ago(1 * MIN), kind: 'Pod', obj: 'web-abcde' }),
      ],
    });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW })).toEqual({
      found: true,
      evidence: 'Event SuccessfulCreate on ReplicaSet shop/web 3m ago by replicaset-controller',
    });
  });

  it("reports the upstream deployment controller's ScalingReplicaSet event (run is that controller too)", async () => {
    env = await startRunEnv({
      seed: [ns('shop'), event('web.3', { source: 'deployment-controller', reason: 'ScalingReplicaSet', at: ago(2 * MIN), kind: 'Deployment', obj: 'web' })],
    });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW })).toEqual({
      found: true,
      evidence: 'Event ScalingReplicaSet on Deployment shop/web 2m ago by deployment-controller',
    });
  });

  it('ignores events older than the window, and honours withinMs', async () => {
    env = await startRunEnv({ seed: [ns('shop'), event('web.1', { source: 'replicaset-controller', at: ago(2 * 60 * MIN) })] });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW })).toEqual({ found: false, evidence: null });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW, withinMs: 3 * 60 * MIN })).toEqual({
      found: true,
      evidence: 'Event SuccessfulCreate on ReplicaSet shop/web 120m ago by replicaset-controller',
    });
  });

  it("does not take rs-reconcile's own events as evidence", async () => {
    env = await startRunEnv({
      seed: [
        ns('shop'),
        event('own.1', { source: 'rs-reconcile', reporting: 'rs-reconcile', at: ago(1 * MIN) }),
        // even when it claims the upstream source, our reportingComponent disqualifies it
        event('own.2', { source: 'replicaset-controller', reporting: 'rs-reconcile', at: ago(1 * MIN) }),
      ],
    });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW })).toEqual({ found: false, evidence: null });
  });

  it('finds replication-controller events by reportingComponent, and only in the namespace asked', async () => {
    env = await startRunEnv({
      seed: [
        ns('shop'),
        ns('legacy'),
        event('rc.1', {
          ns: 'legacy',
          reporting: 'replication-controller',
          eventTime: true,
          at: ago(45_000),
          kind: 'ReplicationController',
          obj: 'old',
          reason: 'FailedCreate',
        }),
      ],
    });
    expect(await detectUpstreamController(env.conn, 'shop', { now: NOW })).toEqual({ found: false, evidence: null });
    expect(await detectUpstreamController(env.conn, null, { now: NOW })).toEqual({
      found: true,
      evidence: 'Event FailedCreate on ReplicationController legacy/old 45s ago by replication-controller',
    });
  });

  it('pages through many events and reports the most recent', async () => {
    const old = Array.from({ length: 1100 }, (_, i) => event(`old.${i}`, { source: 'replicaset-controller', at: ago(90 * MIN) }));
    env = await startRunEnv({
      seed: [
        ns('shop'),
        ...old,
        event('new.1', { source: 'replicaset-controller', at: ago(10 * MIN), obj: 'api' }),
        event('new.2', { source: 'replicaset-controller', at: ago(30 * MIN) }),
      ],
    });
    expect(await detectUpstreamController(env.conn, null, { now: NOW })).toEqual({
      found: true,
      evidence: 'Event SuccessfulCreate on ReplicaSet shop/api 10m ago by replicaset-controller',
    });
    const lists = env.sb.audit().filter((a) => a.resource === 'events' && a.verb === 'list');
    expect(lists.length).toBeGreaterThan(4); // one per selector, and more pages for source=replicaset-controller
  });

  it('throws other failures as ApiError', async () => {
    env = await startRunEnv({ seed: [ns('shop')] });
    env.sb.faults.set({ verb: 'list', resource: 'events', errorRate: 1, code: 500 });
    const err = await detectUpstreamController(env.conn, 'shop', { now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(500);
  });

  it('a 403 on events gives found: false with a warning', async () => {
    const conn = await fakeServer((_url, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Forbidden',
          code: 403,
          message: `events is forbidden: User "dev" cannot list resource "events" in API group "" in the namespace "shop"`,
        }),
      );
    });
    expect(await detectUpstreamController(conn, 'shop', { now: NOW })).toEqual({
      found: false,
      evidence: null,
      warning:
        'cannot tell whether kube-controller-manager runs the ReplicaSet controller: listing events in namespace "shop" is forbidden (events is forbidden: User "dev" cannot list resource "events" in API group "" in the namespace "shop")',
    });
  });

  it('falls back to an unfiltered listing when field selectors are refused', async () => {
    const seen: string[] = [];
    const conn = await fakeServer((url, res) => {
      seen.push(url.search);
      if (url.searchParams.has('fieldSelector')) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason: 'BadRequest',
            code: 400,
            message: 'field label not supported: source',
          }),
        );
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'EventList',
          apiVersion: 'v1',
          metadata: { resourceVersion: '1' },
          items: [
            event('a', { source: 'kubelet', at: ago(MIN) }),
            event('b', { source: 'replicaset-controller', at: ago(5 * MIN), reason: 'SuccessfulDelete' }),
          ],
        }),
      );
    });
    expect(await detectUpstreamController(conn, null, { now: NOW })).toEqual({
      found: true,
      evidence: 'Event SuccessfulDelete on ReplicaSet shop/web 5m ago by replicaset-controller',
    });
    expect(seen.filter((s) => !s.includes('fieldSelector'))).toHaveLength(1);
  });
});

/** A plain-HTTP "API server" answering every request with `handle`; returns a Connection to it. */
async function fakeServer(handle: (url: URL, res: http.ServerResponse) => void) {
  fake = http.createServer((req, res) => handle(new URL(req.url ?? '/', 'http://x'), res));
  await new Promise<void>((r) => fake!.listen(0, '127.0.0.1', r));
  const port = (fake.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'rs-run-parts-'));
  dirs.push(dir);
  const file = join(dir, 'config');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'dev', user: {} }],
      contexts: [{ name: 'dev', context: { cluster: 'c', user: 'dev', namespace: 'shop' } }],
      'current-context': 'dev',
    }),
  );
  return connect({ kubeconfig: file }, {});
}
