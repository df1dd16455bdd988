// The runtime's requests for one sync of the deployment controller are the decision's writes: in
// order, one each, the same kind on the same object, and a write the decision calls a conflict is
// the one the API server answers 409. Carried out on the embedded API server over real HTTPS with
// the real client (a recorder in front of KubeControllerAPI notes each call and passes it on).
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeControllerAPI } from '../../src/cluster/controller-api.js';
import { carryOutDeploymentWrites } from '../../src/controller/deployment-sync.js';
import { decideDeployment } from '../../src/core/deployment/controller.js';
import type { DeploymentWrite } from '../../src/core/deployment/types.js';
import type { Deployment, ReplicaSet } from '../../src/core/types.js';
import { podTemplateHash } from '../../src/core/deployment/hash.js';
import { behaviourFor, defaultBehaviour } from '../../src/core/versions.js';
import { ApiError, type DeploymentControllerAPI } from '../../src/runtime/api.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

const exec = promisify(execFile);
let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

/** A sandbox for one test: its directory, the controller API over it, and kubectl on its kubeconfig. */
async function sandbox(options: Parameters<typeof startSandbox>[0], prefix: string) {
  sb = await startSandbox(options);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  const kubectl = async (...args: string[]) => (await exec('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 })).stdout;
  return { dir, api: new KubeControllerAPI(kc), kubectl, sandbox: sb };
}

type Call = { kind: DeploymentWrite['kind']; name: string; code: number };

/** Each call of the deployment controller's API, by the write kind it carries out. */
function recording(api: KubeControllerAPI, calls: Call[]): DeploymentControllerAPI {
  const note = async <T>(kind: DeploymentWrite['kind'], name: string, p: Promise<T>): Promise<T> => {
    try {
      const out = await p;
      calls.push({ kind, name, code: 200 });
      return out;
    } catch (e) {
      calls.push({ kind, name, code: (e as { code?: number }).code ?? 0 });
      throw e;
    }
  };
  return {
    patchReplicaSet: (ns, name, patch) => {
      const release = JSON.stringify(patch).includes('"$patch":"delete"');
      return note(release ? 'releaseReplicaSet' : 'adoptReplicaSet', name, api.patchReplicaSet(ns, name, patch));
    },
    createReplicaSet: (ns, rs) => note('createReplicaSet', rs.metadata.name, api.createReplicaSet(ns, rs)),
    updateReplicaSet: (ns, rs) => note('updateReplicaSet', rs.metadata.name, api.updateReplicaSet(ns, rs)),
    deleteReplicaSet: (ns, name) => note('deleteReplicaSet', name, api.deleteReplicaSet(ns, name)),
    getReplicaSet: (ns, name) => api.getReplicaSet(ns, name),
    updateDeploymentStatus: (ns, d) => note('updateDeploymentStatus', d.metadata.name, api.updateDeploymentStatus(ns, d)),
    updateDeployment: (ns, d) => note('updateDeployment', d.metadata.name, api.updateDeployment(ns, d)),
    recordEvent: (d, type, reason, message) => api.recordEvent(d, type, reason, message), // not a write of the decision
  };
}

/** The Events recorded on Deployment `name`, oldest first, as `type reason: message`. */
async function eventsOf(kubectl: (...args: string[]) => Promise<string>, name: string): Promise<string[]> {
  const list = JSON.parse(await kubectl('get', 'events', '--field-selector', `involvedObject.kind=Deployment,involvedObject.name=${name}`, '-o', 'json'));
  return (list.items as { type: string; reason: string; message: string; metadata: { creationTimestamp: string } }[])
    .sort((x, y) => x.metadata.creationTimestamp.localeCompare(y.metadata.creationTimestamp))
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
}

const writeName = (w: DeploymentWrite, d: Deployment): string =>
  w.kind === 'createReplicaSet' || w.kind === 'updateReplicaSet'
    ? w.replicaSet.metadata.name
    : w.kind === 'updateDeploymentStatus' || w.kind === 'updateDeployment'
      ? d.metadata.name
      : w.name;

describe('the runtime carries out decision.writes, nothing else', () => {
  it('every sync of a rollout (create, set image, scale, an orphan adopted and released): the calls are the writes, in order', async () => {
    const { dir, api, kubectl } = await sandbox({ nodes: 2, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 } }, 'rs-dwrites-');
    const read = async () => {
      const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
      const rss = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[];
      return { d, rss };
    };
    /** One sync on a fresh read: the calls must be the writes (up to the first failed one). */
    const syncOnce = async () => {
      const { d, rss } = await read();
      const decision = decideDeployment({ deployment: d, replicaSets: rss, pods: null, nowMs: Date.now(), behaviour: defaultBehaviour() });
      const calls: Call[] = [];
      const result = await carryOutDeploymentWrites(recording(api, calls), d, rss, decision);
      const sent = decision.writes.slice(0, calls.length);
      expect(calls.map((c) => c.kind)).toEqual(sent.map((w) => w.kind));
      calls.forEach((c, i) => {
        const w = sent[i];
        if (w.kind !== 'createReplicaSet' && !writeName(w, d).endsWith('<pod-template-hash>')) expect(c.name).toBe(writeName(w, d));
        // only a write the decision calls a conflict meets a 409, and it ends the sync
        const conflict = (w.kind === 'updateReplicaSet' || w.kind === 'updateDeploymentStatus' || w.kind === 'updateDeployment') && w.conflict;
        expect(c.code === 409).toBe(conflict);
      });
      if (result.error === null) expect(calls).toHaveLength(decision.writes.length);
      else expect(calls.at(-1)!.code).not.toBe(200);
      return decision;
    };
    const syncUntilQuiet = async () => {
      for (let i = 0; i < 40; i++) {
        const decision = await syncOnce();
        if (decision.writes.length === 0) return;
      }
    };

    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2');
    const first = await syncOnce();
    // upstream's first sync: the new ReplicaSet, the status (revision, NewReplicaSetCreated), then
    // syncRolloutStatus's status write with the object held before, a 409
    expect(first.writes.map((w) => w.kind)).toEqual(['createReplicaSet', 'updateDeploymentStatus', 'updateDeploymentStatus']);
    expect(first.writes.map((w) => 'conflict' in w && w.conflict)).toEqual([false, false, true]);
    await syncUntilQuiet();
    await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
    await syncUntilQuiet();
    await kubectl('scale', 'deployment/web', '--replicas=4');
    await syncUntilQuiet();
    // the deprecated rollback annotation: the Deployment updated with the template of the revision
    // before the newest (nginx:1.27), the annotation cleared, DeploymentRollback recorded; the next
    // syncs make that ReplicaSet the new one again, at revision 3, and scale it up
    await kubectl('annotate', 'deployment/web', 'deprecated.deployment.rollback.to=0');
    expect((await syncOnce()).writes.map((w) => w.kind)).toEqual(['updateDeployment']);
    const rolledBack = (await read()).d;
    expect(rolledBack.spec.template?.spec?.containers?.[0]?.image).toBe('nginx:1.27');
    expect(rolledBack.metadata.annotations ?? {}).not.toHaveProperty('deprecated.deployment.rollback.to');
    await api.flush();
    expect(await eventsOf(kubectl, 'web')).toContain('Normal DeploymentRollback: Rolled back deployment "web" to revision 1');
    await syncUntilQuiet();
    const again = (await read()).rss.find((rs) => rs.spec.template?.spec?.containers?.[0]?.image === 'nginx:1.27');
    expect(again?.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(again?.spec.replicas).toBeGreaterThan(0);
    // an orphan the Deployment's selector matches is adopted (ControllerRefManager's patch) ...
    const orphan = join(dir, 'orphan.json');
    const labels = { app: 'web' };
    writeFileSync(
      orphan,
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web-orphan', labels },
        spec: { replicas: 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'old' }] } } },
      }),
    );
    await kubectl('create', '-f', orphan);
    expect((await syncOnce()).writes[0]).toEqual({ kind: 'adoptReplicaSet', name: 'web-orphan' });
    const uid = (await read()).d.metadata.uid;
    const adopted = JSON.parse(await kubectl('get', 'rs', 'web-orphan', '-o', 'json'));
    expect(adopted.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid, controller: true, blockOwnerDeletion: true },
    ]);
    await syncUntilQuiet();
    // ... and released once its labels no longer match (the owner reference of this uid deleted)
    await kubectl('label', 'rs', 'web-orphan', 'app=gone', '--overwrite');
    expect((await syncOnce()).writes[0]).toEqual({ kind: 'releaseReplicaSet', name: 'web-orphan' });
    expect(JSON.parse(await kubectl('get', 'rs', 'web-orphan', '-o', 'json')).metadata.ownerReferences ?? []).toEqual([]);
    const rss = (await read()).rss.filter((rs) => rs.metadata.name !== 'web-orphan');
    expect(rss.length).toBeGreaterThanOrEqual(2);
    expect(rss.every((rs) => rs.metadata.name.startsWith('web-') && !rs.metadata.name.includes('<'))).toBe(true);
  }, 180_000);

  it("a hash collision (the name taken by another's ReplicaSet): collisionCount is bumped, the sync errs, the next one creates under a new name", async () => {
    const { dir, api, kubectl } = await sandbox({ nodes: 1 }, 'rs-dcollide-');
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=1');
    const d0 = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    const taken = `web-${podTemplateHash(d0.spec.template, null)}`;
    // someone else's ReplicaSet under that name (labels the Deployment does not select)
    const other = { app: 'other' };
    const file = join(dir, 'other.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: taken, labels: other },
        spec: { replicas: 0, selector: { matchLabels: other }, template: { metadata: { labels: other }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
      }),
    );
    await kubectl('create', '-f', file);
    const sync = async () => {
      const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
      const rss = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[];
      const decision = decideDeployment({ deployment: d, replicaSets: rss, pods: null, nowMs: Date.now(), behaviour: defaultBehaviour() });
      return carryOutDeploymentWrites(api, d, rss, decision);
    };
    const first = await sync();
    expect(first.error?.message).toContain('hash collision');
    const d1 = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    expect(d1.status?.collisionCount).toBe(1);
    const second = await sync();
    const fresh = `web-${podTemplateHash(d0.spec.template, 1)}`;
    expect(second.outcomes[0]).toMatchObject({ write: { kind: 'createReplicaSet' }, target: fresh, ok: true });
    const names = (JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[]).map((r) => r.metadata.name).sort();
    expect(fresh).not.toBe(taken);
    expect(names).toEqual([taken, fresh].sort());
  }, 120_000);

  it("a failed scale-down of an old ReplicaSet is swallowed, as upstream's reconcileOldReplicaSets does: the sync goes on to the status", async () => {
    const { dir, api, kubectl } = await sandbox({ nodes: 1 }, 'rs-dswallow-');
    // an orphan ReplicaSet of another template: adopted, then scaled down from the cache's older copy (409)
    const labels = { app: 'web' };
    const old = { ...labels, 'pod-template-hash': 'old' };
    const file = join(dir, 'objects.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'web' },
            spec: {
              replicas: 2,
              selector: { matchLabels: labels },
              strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
              template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'new' }] } },
            },
          },
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            metadata: { name: 'web-old', labels: old, annotations: { 'deployment.kubernetes.io/revision': '1' } },
            spec: { replicas: 2, selector: { matchLabels: old }, template: { metadata: { labels: old }, spec: { containers: [{ name: 'c', image: 'old' }] } } },
          },
        ],
      }),
    );
    await kubectl('create', '-f', file);
    const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    const rss = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[];
    const decision = decideDeployment({ deployment: d, replicaSets: rss, pods: null, nowMs: Date.now(), behaviour: defaultBehaviour() });
    expect(decision.writes.map((w) => [w.kind, 'conflict' in w && w.conflict])).toEqual([
      ['adoptReplicaSet', false],
      ['createReplicaSet', false],
      ['updateDeploymentStatus', false],
      ['updateReplicaSet', true],
      ['updateDeploymentStatus', true],
    ]);
    const calls: Call[] = [];
    const result = await carryOutDeploymentWrites(recording(api, calls), d, rss, decision);
    // the scale-down's 409 does not end the sync: the status write after it is sent (and meets its own 409)
    expect(calls.map((c) => [c.kind, c.code])).toEqual([
      ['adoptReplicaSet', 200],
      ['createReplicaSet', 200],
      ['updateDeploymentStatus', 200],
      ['updateReplicaSet', 409],
      ['updateDeploymentStatus', 409],
    ]);
    expect(result.error?.message).toContain('deployments.apps "web"');
  }, 120_000);

  it('a create the API server refuses: Progressing False ReplicaSetCreateError in the status, the sync ends with the error', async () => {
    const { api, kubectl, sandbox: server } = await sandbox({ nodes: 1 }, 'rs-dfail-');
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=1');
    server.faults.set({ verb: 'create', resource: 'replicasets', errorRate: 1, code: 500, count: 1 });
    const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    const decision = decideDeployment({ deployment: d, replicaSets: [], pods: null, nowMs: Date.now(), behaviour: defaultBehaviour() });
    const result = await carryOutDeploymentWrites(api, d, [], decision);
    expect(result.error).not.toBeNull();
    expect(result.outcomes).toEqual([expect.objectContaining({ ok: false, code: 500, write: expect.objectContaining({ kind: 'createReplicaSet' }) })]);
    const after = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    const progressing = after.status?.conditions?.find((c) => c.type === 'Progressing');
    expect(progressing).toMatchObject({
      status: 'False',
      reason: 'ReplicaSetCreateError',
      message: expect.stringMatching(/^Failed to create new replica set "web-[bcdfghjklmnpqrstvwxz2456789]+": /),
    });
    // and the same words in a Warning Event on the Deployment
    await api.flush();
    expect(await eventsOf(kubectl, 'web')).toEqual([`Warning ReplicaSetCreateError: ${progressing?.message}`]);
  }, 120_000);
});

describe('the Events of the deployment controller', () => {
  // sync.go's getNewReplicaSet and scaleReplicaSet as read at 1.24 (OpenShift 4.11's vendored
  // kubernetes), 1.25–1.31 and 1.32+ (docs/deployment-controller.md §12)
  const cases: [number, string, string, string][] = [
    [24, 'Scaled up replica set NEW to 2', 'Scaled up replica set NEW to 5', 'Scaled down replica set NEW to 1'],
    [30, 'Scaled up replica set NEW to 2', 'Scaled up replica set NEW to 5 from 2', 'Scaled down replica set NEW to 1 from 5'],
    [36, 'Scaled up replica set NEW from 0 to 2', 'Scaled up replica set NEW from 2 to 5', 'Scaled down replica set NEW from 5 to 1'],
  ];
  it.each(cases)(
    "1.%i: ScalingReplicaSet on the create and on each scale, in that minor's words",
    async (minor, create, up, down) => {
      const { api, kubectl } = await sandbox({ nodes: 1 }, 'rs-devents-');
      const behaviour = behaviourFor(minor).behaviour;
      const syncUntilQuiet = async () => {
        for (let i = 0; i < 20; i++) {
          const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
          const rss = JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[];
          const decision = decideDeployment({ deployment: d, replicaSets: rss, pods: null, nowMs: Date.now(), behaviour });
          if (decision.writes.length === 0) return;
          await carryOutDeploymentWrites(api, d, rss, decision);
        }
        throw new Error('the deployment controller did not settle in 20 syncs');
      };
      await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2');
      await syncUntilQuiet();
      await kubectl('scale', 'deployment/web', '--replicas=5');
      await syncUntilQuiet();
      await kubectl('scale', 'deployment/web', '--replicas=1');
      await syncUntilQuiet();
      await api.flush();
      const names = (JSON.parse(await kubectl('get', 'rs', '-o', 'json')).items as ReplicaSet[]).map((r) => r.metadata.name);
      expect(names).toHaveLength(1);
      expect(await eventsOf(kubectl, 'web')).toEqual([create, up, down].map((m) => `Normal ScalingReplicaSet: ${m.replace('NEW', names[0])}`));
    },
    120_000,
  );

  it('an empty selector: a Warning SelectingAll on every sync, folded into one Event by the correlator', async () => {
    const { api, kubectl } = await sandbox({ nodes: 1 }, 'rs-dselect-');
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=1');
    const d = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json')) as Deployment;
    const all: Deployment = { ...d, spec: { ...d.spec, selector: {} } }; // the API refuses to store one: a cache's copy
    for (let i = 0; i < 2; i++) {
      const decision = decideDeployment({ deployment: all, replicaSets: [], pods: null, nowMs: Date.now(), behaviour: defaultBehaviour() });
      expect(decision.skip?.reason).toBe('EmptySelector');
      await carryOutDeploymentWrites(api, all, [], decision);
      await api.flush();
    }
    expect(await eventsOf(kubectl, 'web')).toEqual(['Warning SelectingAll: This deployment is selecting all pods. A non-empty selector is required.']);
    const list = JSON.parse(await kubectl('get', 'events', '--field-selector', 'involvedObject.kind=Deployment', '-o', 'json'));
    expect(list.items[0].count).toBe(2);
  }, 120_000);
});

describe('a create refused in a terminating namespace', () => {
  it('says nothing: no Progressing condition written, no Event, the sync ends with the error (getNewReplicaSet)', async () => {
    const d: Deployment = {
      metadata: { name: 'web', namespace: 'gone', uid: 'u1', generation: 1 },
      spec: {
        replicas: 1,
        progressDeadlineSeconds: 600, // so a refused create would be said in the Progressing condition
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
      status: {},
    } as Deployment;
    const sent: string[] = [];
    const refuse = () =>
      Promise.reject(
        new ApiError('replicasets "web-x" is forbidden: unable to create new content in namespace gone because it is being terminated', 403, 'Forbidden', [
          { reason: 'NamespaceTerminating' },
        ]),
      );
    const api: DeploymentControllerAPI = {
      patchReplicaSet: () => Promise.reject(new Error('not expected')),
      createReplicaSet: () => (sent.push('create'), refuse()),
      updateReplicaSet: () => Promise.reject(new Error('not expected')),
      deleteReplicaSet: () => Promise.reject(new Error('not expected')),
      getReplicaSet: () => Promise.reject(new Error('not expected')),
      updateDeploymentStatus: (_ns, obj) => (sent.push('status'), Promise.resolve(obj)),
      updateDeployment: () => Promise.reject(new Error('not expected')),
      recordEvent: (_d, type, reason) => (sent.push(`event ${type} ${reason}`), Promise.resolve()),
    };
    const decision = decideDeployment({ deployment: d, replicaSets: [], pods: null, nowMs: 0, behaviour: defaultBehaviour() });
    expect(decision.writes[0]?.kind).toBe('createReplicaSet');
    const result = await carryOutDeploymentWrites(api, d, [], decision, undefined, 0);
    expect(result.error?.message).toMatch(/being terminated/);
    expect(sent).toEqual(['create']);
  });
});
