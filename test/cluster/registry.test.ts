// The seam for another controller kind: informers, the controller wiring (run-service's
// startControllers) and the dashboard's live source are built from the registry of controller
// kinds (CONTROLLER_KINDS), not from a closed ReplicaSet/ReplicationController list. A test-only
// kind, FooSet (example.com/v1alpha1 foosets), served by a small HTTPS server, is wired with no
// other change; the default registry wires ReplicaSets and ReplicationControllers.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/cluster/kubeconfig.js';
import { CONTROLLER_KINDS, fromReplicaSet, type ControllerKindInfo } from '../../src/core/controller.js';
import type { ControllerKind, ReplicaSet } from '../../src/core/types.js';
import { behaviourFor, NEWEST_MINOR } from '../../src/core/versions.js';
import { startControllers, type StartOptions } from '../../src/services/run-service.js';
import { informerSource } from '../../src/services/watch/sources.js';
import { queueInfo } from '../../src/services/watch/reconcile.js';
import { tlsFile } from './recorded-server.js';
import { connectionTo, removeTempDirs, waitFor } from './informer-helpers.js';

const FOO = 'FooSet' as ControllerKind;
const FOO_SET: ControllerKindInfo = {
  kind: FOO,
  group: 'example.com',
  version: 'v1alpha1',
  resource: 'foosets',
  shortName: 'foo',
  queueName: 'fooset',
  hasSiblings: true,
  toController: (obj) => ({ ...fromReplicaSet(obj as ReplicaSet), kind: FOO }),
};

interface Served {
  url: string;
  /** "list <path>" or "watch <path>", in order. */
  seen: string[];
  close(): Promise<void>;
}

/** Serves a list for each path given (watches are held open); anything else is 404. */
async function serveLists(lists: Record<string, { kind: string; items: object[] }>): Promise<Served> {
  const seen: string[] = [];
  const server = https.createServer({ cert: fs.readFileSync(tlsFile('server.crt')), key: fs.readFileSync(tlsFile('server.key')) }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    const watch = url.searchParams.get('watch') === 'true';
    seen.push(`${watch ? 'watch' : 'list'} ${url.pathname}`);
    const list = lists[url.pathname];
    if (!list) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'NotFound',
          code: 404,
          message: 'the server could not find the requested resource',
        }),
      );
      return;
    }
    if (watch) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: `${list.kind}List`, apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: list.items }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function connFor(server: Served): Connection {
  return connectionTo(server.url);
}

const labels = { app: 'web' };
const foo = {
  metadata: { name: 'foo', namespace: 'shop', uid: 'foo-uid', resourceVersion: '3', labels },
  spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels } } },
};
const orphan = {
  metadata: { name: 'web-1', namespace: 'shop', uid: 'pod-uid', resourceVersion: '4', labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

const silent = { info() {}, error() {}, v: () => ({ info() {} }) };
const servers: Served[] = [];
const stops: AbortController[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) s.abort();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeTempDirs();
});

async function start(lists: Parameters<typeof serveLists>[0], o: Partial<StartOptions>) {
  const server = await serveLists(lists);
  servers.push(server);
  const stop = new AbortController();
  stops.push(stop);
  const queues = new Set<string>();
  const h = startControllers(
    {
      conn: connFor(server),
      namespace: 'shop',
      kinds: [],
      workers: 0, // nothing is synced (no write to the server): the keys stay queued
      burstReplicas: 500,
      behaviour: behaviourFor(NEWEST_MINOR).behaviour,
      qps: 100,
      burst: 100,
      log: silent,
      metrics: { onQueueMetric: (q) => queues.add(q), onRequest() {}, onSync() {} },
      ...o,
    },
    stop.signal,
  );
  return { server, h, queues, stop };
}

describe('controller kinds come from a registry', () => {
  it('a registry of one test-only kind: its informer and controller only, at its group/version/plural', async () => {
    const { server, h, queues, stop } = await start(
      {
        '/api/v1/namespaces/shop/pods': { kind: 'Pod', items: [orphan] },
        '/apis/example.com/v1alpha1/namespaces/shop/foosets': { kind: 'FooSet', items: [foo] },
      },
      { kinds: [FOO], registry: [FOO_SET] },
    );
    await h.synced;
    await waitFor(() => server.seen.filter((s) => s.startsWith('watch')).length === 2, 'both watches');

    expect(Object.keys(h.informers).sort()).toEqual(['foosets', 'pods']);
    expect([...new Set(server.seen)].sort()).toEqual([
      'list /api/v1/namespaces/shop/pods',
      'list /apis/example.com/v1alpha1/namespaces/shop/foosets',
      'watch /api/v1/namespaces/shop/pods',
      'watch /apis/example.com/v1alpha1/namespaces/shop/foosets',
    ]);
    // objects carry the kind and apiVersion of the entry
    expect(h.informers.foosets.cache.list()).toEqual([expect.objectContaining({ kind: 'FooSet', apiVersion: 'example.com/v1alpha1' })]);

    // one controller, named and queued as the entry says; the FooSet and the orphan it selects
    // (read through the entry's toController) are queued under its key
    expect(h.controllers.map((c) => [c.kind, c.queue.name])).toEqual([[FOO, 'fooset']]);
    expect(h.controllers[0].queue.len()).toBe(1);
    expect(await h.controllers[0].queue.get()).toEqual({ item: 'shop/foo', shutdown: false });
    expect([...queues]).toEqual(['fooset']);
    expect(queueInfo(h.controllers).queues.map((q) => q.name)).toEqual(['fooset']);

    // the dashboard's source over those informers reads the same registry
    const logs: string[] = [];
    const source = informerSource(h.informers, { run: false, registry: [FOO_SET] });
    await source.start({ changed() {}, log: (_l, t) => logs.push(t), news() {} }, stop.signal);
    expect(logs).toEqual(['synced: 1 pods, 1 foosets']);
    expect(source.snapshot().controllers[FOO].map((r) => r.metadata.name)).toEqual(['foo']);

    stop.abort();
    await h.done;
  });

  it('the default registry: ReplicaSets and ReplicationControllers, as CONTROLLER_KINDS lists them', async () => {
    expect(CONTROLLER_KINDS.map((k) => [k.kind, k.group, k.version, k.resource, k.queueName])).toEqual([
      ['ReplicaSet', 'apps', 'v1', 'replicasets', 'replicaset'],
      ['ReplicationController', '', 'v1', 'replicationcontrollers', 'replicationmanager'],
    ]);
    const { server, h } = await start(
      {
        '/api/v1/namespaces/shop/pods': { kind: 'Pod', items: [] },
        '/apis/apps/v1/namespaces/shop/replicasets': { kind: 'ReplicaSet', items: [] },
        '/api/v1/namespaces/shop/replicationcontrollers': { kind: 'ReplicationController', items: [] },
      },
      { kinds: ['ReplicationController'] },
    );
    await h.synced;
    expect(Object.keys(h.informers).sort()).toEqual(['pods', 'replicationcontrollers']);
    expect(server.seen.filter((s) => s.startsWith('list'))).toEqual([
      'list /api/v1/namespaces/shop/pods',
      'list /api/v1/namespaces/shop/replicationcontrollers',
    ]);
    expect(h.controllers.map((c) => [c.kind, c.queue.name])).toEqual([['ReplicationController', 'replicationmanager']]);
  });

  it('a kind that is not registered is refused before anything starts', async () => {
    await expect(start({}, { kinds: ['ReplicaSet'], registry: [FOO_SET] })).rejects.toThrow(/no controller kind "ReplicaSet" is registered \(FooSet\)/);
    expect(servers[0].seen).toEqual([]);
  });
});
