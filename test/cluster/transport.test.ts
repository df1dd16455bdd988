// What goes over the wire, against a scripted HTTPS server that records every request: the
// informer's lists and watches carry the Connection's credentials, impersonation and user agent;
// HTTP 410 on a watch, an expired continue token, ERROR events, clean ends of stream and a
// server that never answers a watch.
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/cluster/kubeconfig.js';
import { ClusterError } from '../../src/cluster/errors.js';
import { tlsFile } from './recorded-server.js';
import type { Pod } from '../../src/core/types.js';
import { connectionTo, removeTempDirs, runInformer, sleep, waitFor, type Running } from './informer-helpers.js';

interface Seen {
  path: string;
  query: Record<string, string>;
  rawHeaders: string[];
}

type Responder = (res: http.ServerResponse, req: http.IncomingMessage) => void;

interface Scripted {
  url: string;
  seen: Seen[];
  /** Requests whose connection the client closed. */
  closedByClient: number;
  close(): Promise<void>;
}

async function scriptedServer(script: Responder[]): Promise<Scripted> {
  const seen: Seen[] = [];
  const state = { closedByClient: 0 };
  // HTTPS: credentials are never sent over plain http (as kubectl)
  const server = https.createServer({ cert: fs.readFileSync(tlsFile('server.crt')), key: fs.readFileSync(tlsFile('server.key')) }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), rawHeaders: req.rawHeaders });
    req.on('close', () => {
      if (!res.writableEnded) state.closedByClient++;
    });
    const next = script.shift();
    if (!next) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(status(500, 'InternalError', 'script exhausted')));
      return;
    }
    next(res, req);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    seen,
    get closedByClient() {
      return state.closedByClient;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

const podJson = (name: string, rv: string, uid: string | null = `uid-${name}`) => ({
  metadata: { name, namespace: 'shop', ...(uid ? { uid } : {}), resourceVersion: rv, creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

const list =
  (rv: string, items: unknown[], cont?: string): Responder =>
  (res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) }, items }));
  };
const fail =
  (code: number, reason: string, message: string): Responder =>
  (res) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(status(code, reason, message)));
  };
/** A watch stream: the events, then the end of the stream (or, with hold, nothing more). */
const watch =
  (events: { type: string; object: unknown }[], hold = false): Responder =>
  (res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    for (const e of events) res.write(`${JSON.stringify(e)}\n`);
    if (!hold) setTimeout(() => res.end(), 20);
  };
const hang: Responder = () => {};

const servers: Scripted[] = [];
const running: Running<any>[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  removeTempDirs();
});

function envFor(server: Scripted, flags: { as?: string; asGroups?: string[] } = {}): { conn: Connection } {
  return { conn: connectionTo(server.url, flags, 'secret-token') };
}

function headers(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name.toLowerCase()) out.push(raw[i + 1]);
  return out;
}

describe('on the wire', () => {
  it('sends credentials and impersonation on lists and watches; handles 410s, ERROR events and clean ends', async () => {
    const server = await scriptedServer([
      list('10', [podJson('a', '5')], 'tok1'), // page 1
      fail(410, 'Expired', 'The provided continue parameter is too old'), // page 2: token expired
      list('10', [podJson('a', '5'), podJson('nameless', '6', null)]), // one list without pages
      fail(410, 'Gone', 'too old resource version: 10 (12)'), // the watch: HTTP 410
      list('20', [podJson('a', '5')], 'tok2'), // relist
      list('20', [podJson('b', '15')]),
      watch([
        { type: 'ADDED', object: { kind: 'Pod', apiVersion: 'v1', ...podJson('c', '21') } },
        {
          type: 'MODIFIED',
          object: { kind: 'Pod', apiVersion: 'v1', ...podJson('a', '22'), metadata: { ...podJson('a', '22').metadata, labels: { app: 'web', v: '2' } } },
        },
      ]), // then a clean end: watch again from 22
      watch([{ type: 'ERROR', object: status(500, 'InternalError', 'etcd is sulking') }]),
      watch([{ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '30' } } }], true),
    ]);
    servers.push(server);
    const r = runInformer<Pod>(envFor(server, { as: 'jane', asGroups: ['dev', 'ops'] }), {
      resource: 'pods',
      namespace: 'shop',
      pageSize: 1,
      labelSelector: 'app=web',
    });
    running.push(r);
    await waitFor(() => server.seen.length === 9 && r.informer.lastResourceVersion() === '30', 'the whole script');

    const P = '/api/v1/namespaces/shop/pods';
    const q = server.seen.map((s) => s.query);
    expect(server.seen.map((s) => s.path)).toEqual(Array(9).fill(P));
    expect(q[0]).toEqual({ limit: '1', labelSelector: 'app=web' });
    expect(q[1]).toEqual({ limit: '1', labelSelector: 'app=web', continue: 'tok1' });
    expect(q[2]).toEqual({ labelSelector: 'app=web' }); // client-go's pager: a full list after an expired token
    const watches = [3, 6, 7, 8].map((i) => q[i]);
    expect(watches.map((w) => w.resourceVersion)).toEqual(['10', '20', '22', '22']);
    for (const w of watches) {
      expect(w).toMatchObject({ watch: 'true', allowWatchBookmarks: 'true', labelSelector: 'app=web' });
      expect(Number(w.timeoutSeconds)).toBeGreaterThanOrEqual(300);
      expect(Number(w.timeoutSeconds)).toBeLessThan(600);
    }
    expect(q[4]).toEqual({ limit: '1', labelSelector: 'app=web' });
    expect(q[5]).toEqual({ limit: '1', labelSelector: 'app=web', continue: 'tok2' });

    for (const s of server.seen) {
      expect(headers(s.rawHeaders, 'Authorization')).toEqual(['Bearer secret-token']);
      expect(headers(s.rawHeaders, 'Impersonate-User')).toEqual(['jane']);
      expect(headers(s.rawHeaders, 'Impersonate-Group')).toEqual(['dev', 'ops']); // one line per group
      expect(headers(s.rawHeaders, 'User-Agent')[0]).toMatch(/^rs-reconcile\/v\d+\.\d+\.\d+ \(\w+\/\w+\) kubernetes\/\S+$/);
    }

    // what the handlers saw
    const ev = r.rec.events.map((e) => `${e.type}:${'tombstone' in e.obj ? `tombstone(${e.obj.key})` : e.obj.metadata.name}`);
    expect(ev).toEqual(['add:a', 'add:b', 'update:a', 'add:c', 'update:a']);
    const last = r.rec.events[4];
    if (last.type !== 'update') throw new Error('not an update');
    expect(last.old.metadata.resourceVersion).toBe('5');
    expect(last.obj.metadata.labels).toEqual({ app: 'web', v: '2' });
    expect(r.informer.cache.keys().sort()).toEqual(['shop/a', 'shop/b', 'shop/c']);
    expect(r.informer.cache.get('shop/b')).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });

    // errors: the nameless item, the ERROR event; not the 410s, not the clean end
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/a Pod without a name or uid; ignored/),
      expect.stringMatching(/server error \(500 InternalError\).*etcd is sulking/),
    ]);
    expect(r.errors[1]).toBeInstanceOf(ClusterError);
    expect(r.metrics.filter((m) => m.event === 'relist')).toHaveLength(1);
    expect(r.metrics.filter((m) => m.event === 'bookmark')).toEqual([{ event: 'bookmark', detail: 'resourceVersion=30' }]);
  });

  it('backs off instead of looping when watches expire or end at once, and re-watches at once after a healthy one', async () => {
    const gone = { type: 'ERROR', object: status(410, 'Expired', 'too old resource version: 1 (2)') };
    const server = await scriptedServer([
      list('1', [podJson('a', '1')]),
      watch([gone]), // the list's resourceVersion is already gone
      list('2', [podJson('a', '1')]),
      watch([gone]),
      list('3', [podJson('a', '1')]),
      watch([]), // ends at once, nothing delivered
      watch([{ type: 'MODIFIED', object: podJson('a', '4') }]), // healthy, then a clean end
      watch([], true),
    ]);
    servers.push(server);
    const r = runInformer<Pod>(envFor(server), { resource: 'pods', namespace: 'shop', backoff: { initialMs: 30, maxMs: 1000 } });
    running.push(r);
    await waitFor(() => server.seen.length === 8, 'the whole script');
    await sleep(50);
    const kinds = r.metrics.map((m) => m.event).filter((e) => e !== 'error');
    expect(kinds).toEqual(['list', 'watch', 'relist', 'reconnect', 'list', 'watch', 'relist', 'reconnect', 'list', 'watch', 'reconnect', 'watch', 'watch']);
    const delays = r.metrics.filter((m) => m.event === 'reconnect').map((m) => Number(/in (\d+)ms/.exec(m.detail!)![1]));
    // each successful list resets the backoff: every wait here is a first one (30 ms + jitter)
    expect(delays).toHaveLength(3);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(30);
      expect(d).toBeLessThanOrEqual(45);
    }
    expect(server.seen.map((s) => s.query.resourceVersion ?? '-')).toEqual(['-', '1', '-', '2', '-', '3', '3', '4']);
    expect(r.errors).toEqual([]);
  });

  it('abort ends a watch whose answer never comes, and closes its connection', async () => {
    const server = await scriptedServer([list('7', [podJson('a', '7')]), hang]);
    servers.push(server);
    const r = runInformer<Pod>(envFor(server), { resource: 'pods', namespace: 'shop' });
    await r.informer.waitForSync();
    await waitFor(() => server.seen.length === 2, 'the watch request');
    await sleep(50);
    await r.stop(); // the answer never comes: a stop() that waited for it would never end
    await waitFor(() => server.closedByClient === 1, 'the client closing the connection', 2000);
    expect(server.seen[1].query.watch).toBe('true');
  });

  it('keeps retrying a watch the server refuses (403), with backoff, without relisting', async () => {
    const server = await scriptedServer([
      list('7', [podJson('a', '7')]),
      fail(403, 'Forbidden', 'pods is forbidden: User "jane" cannot watch resource "pods"'),
      fail(403, 'Forbidden', 'pods is forbidden: User "jane" cannot watch resource "pods"'),
      fail(403, 'Forbidden', 'pods is forbidden: User "jane" cannot watch resource "pods"'),
      watch([], true),
    ]);
    servers.push(server);
    const r = runInformer<Pod>(envFor(server), { resource: 'pods', namespace: 'shop' });
    await waitFor(() => server.seen.length === 5, 'the watch that works');
    expect(server.seen.slice(1).map((s) => s.query.resourceVersion)).toEqual(['7', '7', '7', '7']);
    expect(r.errors).toHaveLength(3);
    expect(r.errors.every((e) => e instanceof ClusterError && e.reason === 'forbidden')).toBe(true);
    const delays = r.metrics.filter((m) => m.event === 'reconnect').map((m) => Number(/in (\d+)ms/.exec(m.detail!)![1]));
    expect(delays).toHaveLength(3);
    expect(delays[1]).toBeGreaterThanOrEqual(40);
    expect(delays[2]).toBeGreaterThanOrEqual(80);
    await r.stop();
  });
});
