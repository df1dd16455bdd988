// The one list layer under readCluster and the informers (src/cluster/list.ts): client-go's
// ListPager over the recorded API server.
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/cluster/kubeconfig.js';
import { ClusterError } from '../../src/cluster/errors.js';
import { ApiReader, POD_RESOURCE, collectionPath, type ApiResource } from '../../src/cluster/list.js';
import { kubeconfigFileFor, recordedServers } from './helpers.js';
import { fixture, type RecordedRequest } from './recorded-server.js';

const serve = recordedServers();

const REPLICA_SETS: ApiResource = { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' };
const shopPods = fixture('pods.json').items.filter((p: any) => p.metadata.namespace === 'shop');
const names = (items: any[]) => items.map((i) => i.metadata.name);
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
const queryKeys = (reqs: RecordedRequest[]) => reqs.map((r) => Object.keys(r.query).sort().join(','));

async function setup(opts: Parameters<typeof serve>[0] = {}) {
  const server = await serve(opts);
  const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
  return { server, conn };
}

describe('collectionPath', () => {
  it('core and named groups, one namespace or all', () => {
    expect(collectionPath(POD_RESOURCE, 'shop')).toBe('/api/v1/namespaces/shop/pods');
    expect(collectionPath(REPLICA_SETS, null)).toBe('/apis/apps/v1/replicasets');
    expect(collectionPath({ group: 'example.com', version: 'v1alpha1', resource: 'foosets', kind: 'FooSet' }, 'a b')).toBe(
      '/apis/example.com/v1alpha1/namespaces/a%20b/foosets',
    );
  });
});

describe("ApiReader.list: client-go's pager", () => {
  it('pages with limit and continue; keeps what accept returns; counts pages and requests', async () => {
    const { server, conn } = await setup();
    const reader = new ApiReader(conn);
    const seen: unknown[] = [];
    const progress: { items: number; pages: number }[] = [];
    const out = await reader.list({
      resource: POD_RESOURCE,
      namespace: 'shop',
      pageSize: 5,
      accept: (item: any) => {
        seen.push(item);
        return item.metadata.name.endsWith('0') ? null : item.metadata.name;
      },
      onPage: (p) => progress.push(p),
    });
    expect(seen).toHaveLength(13);
    expect(out.items).toEqual(names(shopPods).filter((n: string) => !n.endsWith('0')));
    expect(out.pages).toBe(3);
    expect(out.resourceVersion).toBe(fixture('pods.json').metadata.resourceVersion);
    expect(progress.map((p) => p.pages)).toEqual([1, 2, 3]);
    expect(queryKeys(server.requests)).toEqual(['limit', 'continue,limit', 'continue,limit']);
    expect(reader.requests).toBe(3);
  });

  it("a 410 Expired on a continue token: one list without pages, the earlier pages' items let go", async () => {
    const { server, conn } = await setup({ expireContinue: true });
    const accepted: string[] = [];
    const out = await new ApiReader(conn).list({
      resource: POD_RESOURCE,
      namespace: 'shop',
      pageSize: 5,
      accept: (item: any) => (accepted.push(item.metadata.name), item.metadata.name),
    });
    expect(queryKeys(server.requests)).toEqual(['limit', 'continue,limit', '']);
    expect(accepted).toHaveLength(5 + 13);
    expect(out.items).toEqual(names(shopPods)); // each once
    expect(out.pages).toBe(1);
  });

  it('a 410 that is not "Expired" is an error, not a fallback (client-go\'s IsResourceExpired)', async () => {
    const { server, conn } = await setup({
      failures: [{ match: (r) => r.query.continue !== undefined, status: 410, body: status(410, 'Gone', 'the resource is gone') }],
    });
    const err = await new ApiReader(conn).list({ resource: POD_RESOURCE, namespace: 'shop', pageSize: 5, accept: (i) => i }).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterError);
    expect(err.status).toBe(410);
    expect(queryKeys(server.requests)).toEqual(['limit', 'continue,limit']);
  });

  it('a 410 Expired on the first page is an error: there is no earlier page to fall back from', async () => {
    const { server, conn } = await setup({ failures: [{ match: () => true, status: 410, fixture: 'status-410-expired.json', times: 1 }] });
    const err = await new ApiReader(conn).list({ resource: POD_RESOURCE, namespace: 'shop', pageSize: 5, accept: (i) => i }).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterError);
    expect(err.status).toBe(410);
    expect(server.requests).toHaveLength(1);
  });

  it('the full list after an expired token is final: its own 410 is the answer, not another fallback', async () => {
    const { server, conn } = await setup({
      expireContinue: true,
      failures: [{ match: (r) => Object.keys(r.query).length === 0, status: 410, fixture: 'status-410-expired.json' }],
    });
    const err = await new ApiReader(conn).list({ resource: POD_RESOURCE, namespace: 'shop', pageSize: 5, accept: (i) => i }).catch((e) => e);
    expect(err).toBeInstanceOf(ClusterError);
    expect(queryKeys(server.requests)).toEqual(['limit', 'continue,limit', '']);
  });

  it("stops between pages when the signal aborts, with the signal's reason and no further request", async () => {
    const { server, conn } = await setup();
    const ac = new AbortController();
    const pending = new ApiReader(conn, { signal: ac.signal }).list({
      resource: POD_RESOURCE,
      namespace: 'shop',
      pageSize: 5,
      accept: (i) => i,
      onPage: () => ac.abort(),
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('maxPages: the first pages only (shell completion)', async () => {
    const { server, conn } = await setup();
    const out = await new ApiReader(conn).list({ resource: POD_RESOURCE, namespace: 'shop', pageSize: 5, maxPages: 1, accept: (i: any) => i.metadata.name });
    expect(out.items).toEqual(names(shopPods).slice(0, 5));
    expect(server.requests).toHaveLength(1);
  });

  it('a server repeating a continue token is an error, not an endless loop', async () => {
    const page = JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'same' }, items: [] });
    const { server, conn } = await setup({ failures: [{ match: () => true, status: 200, body: page }] });
    await expect(new ApiReader(conn).list({ resource: POD_RESOURCE, namespace: 'shop', pageSize: 5, accept: (i) => i })).rejects.toThrow(
      /repeated a continue token while listing pods/,
    );
    expect(server.requests).toHaveLength(2);
  });
});
