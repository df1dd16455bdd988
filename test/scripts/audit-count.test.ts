// bench/audit-count.mjs: the bench's `scale` row counts `run`'s writes in the sandbox's audit log
// by the CLI's User-Agent. Checked here on a real sandbox's audit log, with the User-Agents the
// CLI really sends next to the simulated kubelet's writes and a bench client's.
import { request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script of the bench, without types
import { countWrites, parseAuditLines, writeKind } from '../../bench/audit-count.mjs';
import { KubeControllerAPI, userAgentFor } from '../../src/cluster/controller-api.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One request with the given User-Agent; resolves with the status code. */
function send(sb: Sandbox, method: string, path: string, userAgent: string, body?: unknown, contentType = 'application/json'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${sb.url}${path}`,
      { method, ca: sb.ca, headers: { Authorization: `Bearer ${sb.token}`, 'User-Agent': userAgent, 'Content-Type': contentType } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const labels = { app: 'web' };
const podBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels },
  spec: { containers: [{ name: 'c', image: 'x' }] },
});

describe('countWrites on a sandbox audit log', () => {
  it("counts the CLI's writes by kind, and none of the kubelet's, the bench's or another client's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-audit-count-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const auditFile = join(dir, 'audit.jsonl');
    const sb = await startSandbox({ nodes: 1, auditLog: auditFile });
    cleanups.push(() => sb.close());
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const controllerUA = userAgentFor('replicaset-controller', 'host_42');
    const api = new KubeControllerAPI(kc, { userAgent: controllerUA });

    // the bench's own writes: a ReplicaSet, a pod, a scale (not the CLI's User-Agent)
    expect(
      await send(sb, 'POST', '/apis/apps/v1/namespaces/default/replicasets', 'rs-reconcile-bench', {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web' },
        spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      }),
    ).toBe(201);
    expect(await send(sb, 'POST', '/api/v1/namespaces/default/pods', 'rs-reconcile-bench', podBody('bench-pod'))).toBe(201);
    expect(
      await send(
        sb,
        'PATCH',
        '/apis/apps/v1/namespaces/default/replicasets/web/scale',
        'rs-reconcile-bench',
        { spec: { replicas: 2 } },
        'application/merge-patch+json',
      ),
    ).toBe(200);

    // the controller's, through the same client `run` uses
    await api.createPod('default', podBody('web-a') as never);
    await api.createPod('default', podBody('web-b') as never);
    await api.patchPod('default', 'web-b', { metadata: { labels: { extra: 'x' } } });
    await api.deletePod('default', 'web-a');
    const rs = await api.getController('ReplicaSet', 'default', 'web');
    await api.updateControllerStatus('ReplicaSet', { ...rs, status: { ...rs.status, replicas: 1, observedGeneration: 2 } } as never);
    // a stale resourceVersion: the server answers 409, and the attempt is still a write sent
    await expect(api.updateControllerStatus('ReplicaSet', { ...rs, status: { ...rs.status, replicas: 2 } } as never)).rejects.toMatchObject({ code: 409 });
    await api.recordEvent(rs as never, 'Normal', 'SuccessfulCreate', 'Created pod: web-b');
    await api.flush();
    const events = await new Promise<string>((resolve, reject) => {
      const req = request(`${sb.url}/api/v1/namespaces/default/events`, { ca: sb.ca, headers: { Authorization: `Bearer ${sb.token}` } }, (res) => {
        let t = '';
        res.on('data', (d) => (t += d));
        res.on('end', () => resolve(JSON.parse(t).items[0].metadata.name));
      });
      req.on('error', reject);
      req.end();
    });
    // an event correlator's patch, and a lease write of the same instance's leader election
    expect(await send(sb, 'PATCH', `/api/v1/namespaces/default/events/${events}`, controllerUA, { count: 2 }, 'application/strategic-merge-patch+json')).toBe(
      200,
    );
    expect(
      await send(sb, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', userAgentFor('leader-election', 'host_42'), {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'rs-reconcile' },
        spec: { holderIdentity: 'host_42' },
      }),
    ).toBe(201);
    // a dry-run write is sent, and counted as such
    await new KubeControllerAPI(kc, { userAgent: controllerUA, dryRun: true }).createPod('default', podBody('web-c') as never);

    // the simulated scheduler and kubelet bind the pods and report them running
    sb.kubelet!.advance(5000);
    const all = sb.audit();
    expect(all.some((e) => e.userAgent === 'rs-reconcile-sandbox' && e.verb === 'create' && e.subresource === 'binding')).toBe(true);
    expect(all.some((e) => e.userAgent === 'rs-reconcile-sandbox' && e.verb === 'patch' && e.subresource === 'status')).toBe(true);

    const counts = countWrites(all);
    expect(counts).toEqual({
      podCreates: 3,
      podDeletes: 1,
      podPatches: 1,
      statusUpdates: 2,
      eventCreates: 1,
      eventPatches: 1,
      leaseWrites: 1,
      other: 0,
      total: 10,
      failed: 1,
      failures: { 'update replicasets/status 409': 1 },
      dryRun: 1,
    });

    // the audit file holds the same entries (the bench counts from it: nothing is dropped there)
    await sb.close();
    expect(countWrites(parseAuditLines(readFileSync(auditFile, 'utf8')))).toEqual(counts);
  });
});

describe('writeKind and parseAuditLines', () => {
  const e = (verb: string, resource: string, subresource?: string) => ({
    verb,
    resource,
    subresource,
    code: 200,
    dryRun: false,
    userAgent: 'rs-reconcile/v0.1.0 (linux/amd64) kubernetes/$Format',
  });

  it('leaves reads out and puts writes a controller does not make under other', () => {
    expect(['get', 'list', 'watch'].map((v) => writeKind(e(v, 'pods')))).toEqual([undefined, undefined, undefined]);
    expect(writeKind(e('update', 'pods'))).toBe('other');
    expect(writeKind(e('create', 'pods', 'binding'))).toBe('other');
    expect(writeKind(e('patch', 'replicasets'))).toBe('other');
    expect(writeKind(e('patch', 'replicationcontrollers', 'status'))).toBe('statusUpdates');
    expect(writeKind(e('update', 'leases'))).toBe('leaseWrites');
    expect(countWrites([e('update', 'pods'), e('list', 'pods')])).toMatchObject({ other: 1, total: 1 });
  });

  it('names the line of an audit file that is not JSON', () => {
    expect(() => parseAuditLines('{"verb":"get"}\n\n{"verb":\n')).toThrow(/line 3 is not JSON/);
    expect(parseAuditLines('{"verb":"get"}\n\n{"verb":"list"}\n')).toEqual([{ verb: 'get' }, { verb: 'list' }]);
  });
});
