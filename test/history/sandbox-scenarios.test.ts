// The history explains what `rs-reconcile run` did, end to end: the sandbox writes its audit log
// as kube-apiserver does (audit.k8s.io/v1), the real controller runs in-process against it, and
// scripted scenarios, each in a namespace of its own, are then read back with buildHistory:
// every write of the controller is predicted by the rules, deletes carry the criterion that
// decided them, and the users' (and the simulated kubelet's) writes are not the controller's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1OwnerReference, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runForeground } from '../../src/services/run-foreground.js';
import { buildHistory } from '../../src/services/history-service.js';
import type { HistoryEvent } from '../../src/history/types.js';
import { foregroundOptions } from '../integration/env.js';
import { raw, waitFor } from '../sandbox/helpers.js';

// Creation and Ready times are compared exactly (to the second) with LogarithmicScaleDown off,
// so seconds apart decide Newer and ReadyShorter; 1.30 still lets the gate be turned off.
const KUBE_VERSION = '1.30';
const FEATURE_GATES = 'LogarithmicScaleDown=false';

const CRITERIA = ['Unscheduled', 'Phase', 'NotReady', 'LowerDeletionCost', 'MoreOnSameNode', 'ReadyShorter', 'MoreRestarts', 'Newer'] as const;
const NAMESPACES = ['up', 'adopt', 'release', 'userdel', 'rc', ...CRITERIA.map((c) => c.toLowerCase())];

let sb: Sandbox;
let dir: string;
let auditFile: string;
let core: CoreV1Api;
let apps: AppsV1Api;
const stop = new AbortController();
let running: Promise<number>;

const smp = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const until = <T>(what: string, fn: () => Promise<T>, ms = 20_000) => waitFor(fn, what, ms);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const live = async (ns: string) =>
  (await core.listNamespacedPod({ namespace: ns })).items.filter(
    (p) => !p.metadata!.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''),
  );
const owned = (p: V1Pod, name: string) => p.metadata!.ownerReferences?.some((r) => r.controller && r.name === name) ?? false;
const container = [{ name: 'c', image: 'registry.example/app:1' }];

function rsBody(name: string, replicas: number, labels: Record<string, string>, extra: { ownerReferences?: V1OwnerReference[] } = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, labels, ...extra },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: container } } },
  };
}

/** A pod the user makes (an orphan the controller adopts), placed or held as the scenario needs. */
async function orphan(ns: string, name: string, labels: Record<string, string>, spec: Record<string, unknown> = {}, annotations?: Record<string, string>) {
  await core.createNamespacedPod({ namespace: ns, body: { metadata: { name, labels, annotations }, spec: { containers: container, ...spec } } });
}

/** Ready since `since`, through the status subresource (the kubelet's readiness is held back: readyDelayMs). */
async function makeReady(ns: string, name: string, since: string) {
  await until(`${ns}/${name} running`, async () => (await core.readNamespacedPod({ namespace: ns, name })).status?.phase === 'Running');
  await core.patchNamespacedPodStatus(
    { namespace: ns, name, body: { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: since }] } } },
    smp,
  );
}

async function scaleRs(ns: string, name: string, replicas: number) {
  await apps.patchNamespacedReplicaSetScale({ namespace: ns, name, body: { spec: { replicas } } }, merge);
}

/** The ReplicaSet owns exactly these pods, and its status says so. */
async function settled(ns: string, name: string, count: number) {
  await until(`${ns}/${name} at ${count} pods`, async () => {
    const rs = await apps.readNamespacedReplicaSet({ namespace: ns, name });
    const pods = (await live(ns)).filter((p) => owned(p, name));
    return pods.length === count && rs.status?.replicas === count && rs.status?.observedGeneration === rs.metadata!.generation;
  });
}

/** DELETE with `{"dryRun":["All"]}` in the body (kubectl delete --dry-run=server). */
const dryRunDelete = async (ns: string, name: string) =>
  (await raw(sb, 'DELETE', `/api/v1/namespaces/${ns}/pods/${name}`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] } })).status;

const ago = (s: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - s * 1000).toISOString().replace('.000Z', 'Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-history-scenarios-'));
  auditFile = join(dir, 'audit.jsonl');
  // Namespaces are seeded (with their default ServiceAccount): not requests, so not in the log.
  sb = await startSandbox({
    nodes: 2,
    auditLog: auditFile,
    // Pods run at once; Ready is the test's to give (with the Ready time it needs).
    kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 600_000, terminationGraceMs: 50 },
    seed: NAMESPACES.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  });
  const kubeconfig = join(dir, 'config');
  await sb.writeKubeconfig(kubeconfig);
  const kc = new KubeConfig();
  kc.loadFromString(sb.kubeconfig());
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  running = runForeground({
    ...foregroundOptions(kubeconfig, { allNamespaces: true, qps: 1000, burst: 1000, kubeVersion: KUBE_VERSION, featureGates: FEATURE_GATES }),
    signal: stop.signal,
    stream: sink,
  });
}, 30_000);

afterAll(async () => {
  stop.abort();
  await running?.catch(() => undefined);
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('history of the sandbox audit log of `run`', () => {
  let events: HistoryEvent[] = [];
  let lines: any[] = [];
  const victims: Record<string, string> = {}; // criterion -> the pod that must go

  it('runs the scenarios', async () => {
    // scale up from 0
    const upLabels = { app: 'up' };
    await apps.createNamespacedReplicaSet({ namespace: 'up', body: rsBody('up', 0, upLabels) });
    await settled('up', 'up', 0);
    await scaleRs('up', 'up', 3);
    await settled('up', 'up', 3);

    // adoption of an orphan by a running ReplicaSet (one pod too many then: one is deleted)
    const adLabels = { app: 'adopt' };
    await apps.createNamespacedReplicaSet({ namespace: 'adopt', body: rsBody('adopt', 2, adLabels) });
    await settled('adopt', 'adopt', 2);
    await orphan('adopt', 'stray', adLabels);
    await until('the orphan adopted, back to 2', async () => {
      const pods = await live('adopt');
      return pods.length === 2 && pods.every((p) => owned(p, 'adopt'));
    });

    // release of a pod whose labels change (and its replacement)
    const relLabels = { app: 'release' };
    await apps.createNamespacedReplicaSet({ namespace: 'release', body: rsBody('release', 2, relLabels) });
    await settled('release', 'release', 2);
    const relabelled = (await live('release'))[0].metadata!.name!;
    await core.patchNamespacedPod({ namespace: 'release', name: relabelled, body: { metadata: { labels: { app: 'debug' } } } }, merge);
    await until('released and replaced', async () => {
      const pods = await live('release');
      const p = pods.find((x) => x.metadata!.name === relabelled);
      return p && (p.metadata!.ownerReferences ?? []).length === 0 && pods.filter((x) => owned(x, 'release')).length === 2;
    });

    // a user's delete: the controller replaces the pod
    const udLabels = { app: 'userdel' };
    await apps.createNamespacedReplicaSet({ namespace: 'userdel', body: rsBody('userdel', 2, udLabels) });
    await settled('userdel', 'userdel', 2);
    const [deleted, kept] = (await live('userdel')).map((p) => p.metadata!.name!);
    // a server-side dry run first, as kubectl sends it (dryRun in the DeleteOptions body): the pod stays
    expect(await dryRunDelete('userdel', kept)).toBe(200);
    await core.deleteNamespacedPod({ namespace: 'userdel', name: deleted });
    await until('replaced', async () => (await live('userdel')).filter((p) => owned(p, 'userdel') && p.metadata!.name !== deleted).length === 2);

    // a ReplicationController: up to 3, down to 1
    await core.createNamespacedReplicationController({
      namespace: 'rc',
      body: {
        metadata: { name: 'rc' },
        spec: { replicas: 3, selector: { app: 'rc' }, template: { metadata: { labels: { app: 'rc' } }, spec: { containers: container } } },
      },
    });
    const rcPods = async (n: number) =>
      until(
        `rc at ${n}`,
        async () => (await live('rc')).length === n && (await core.readNamespacedReplicationController({ namespace: 'rc', name: 'rc' })).status?.replicas === n,
      );
    await rcPods(3);
    await core.patchNamespacedReplicationControllerScale({ namespace: 'rc', name: 'rc', body: { spec: { replicas: 1 } } }, merge);
    await rcPods(1);

    // A ranked scale-down per criterion: two pods, adopted, that tie on every criterion before
    // it; scaled 2 → 1, the controller deletes the one that loses on it.
    const t0 = ago(120);
    const pair = async (
      ns: string,
      victim: { spec?: Record<string, unknown>; annotations?: Record<string, string> },
      kept: { spec?: Record<string, unknown>; annotations?: Record<string, string> },
      ready: { victim?: string | null; kept?: string | null } = {},
    ) => {
      const labels = { app: ns };
      await orphan(ns, `${ns}-kept`, labels, kept.spec, kept.annotations);
      if (ns === 'newer') await sleep(1100); // a later creationTimestamp (seconds)
      await orphan(ns, `${ns}-victim`, labels, victim.spec, victim.annotations);
      if (ready.kept !== null) await makeReady(ns, `${ns}-kept`, ready.kept ?? t0);
      if (ready.victim !== null) await makeReady(ns, `${ns}-victim`, ready.victim ?? t0);
      return labels;
    };
    const onNode1 = { spec: { nodeName: 'node-1' } };
    const specs: Record<(typeof CRITERIA)[number], () => Promise<Record<string, string>>> = {
      // never scheduled (no such scheduler) vs running
      Unscheduled: () => pair('unscheduled', { spec: { schedulerName: 'none' } }, onNode1, { victim: null }),
      // assigned to a node no kubelet runs (Pending) vs running
      Phase: () => pair('phase', { spec: { nodeName: 'node-9' } }, onNode1, { victim: null }),
      NotReady: () => pair('notready', onNode1, onNode1, { victim: null }),
      LowerDeletionCost: () => pair('lowerdeletioncost', { ...onNode1, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5' } }, onNode1),
      MoreOnSameNode: async () => null as never, // below: needs a Deployment's two ReplicaSets
      ReadyShorter: () => pair('readyshorter', onNode1, onNode1, { victim: ago(30) }),
      MoreRestarts: async () => {
        const labels = await pair('morerestarts', onNode1, onNode1);
        // the kubelet restarts a container (restartCount 1, not ready), then it is ready again since t0
        sb.kubelet!.restartContainer('morerestarts', 'morerestarts-victim');
        await core.patchNamespacedPodStatus(
          {
            namespace: 'morerestarts',
            name: 'morerestarts-victim',
            body: { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t0 }] } },
          },
          smp,
        );
        return labels;
      },
      Newer: () => pair('newer', onNode1, onNode1),
    };
    for (const c of CRITERIA) {
      if (c === 'MoreOnSameNode') continue;
      const ns = c.toLowerCase();
      const labels = await specs[c]();
      await apps.createNamespacedReplicaSet({ namespace: ns, body: rsBody(ns, 2, labels) });
      await settled(ns, ns, 2);
      await scaleRs(ns, ns, 1);
      await settled(ns, ns, 1);
      victims[c] = `${ns}-victim`;
      expect((await live(ns)).map((p) => p.metadata!.name)).toEqual([`${ns}-kept`]);
    }

    // MoreOnSameNode: a Deployment's old and new ReplicaSets; the new one's pod that shares
    // node-1 with the old one's pod goes first.
    const ns = 'moreonsamenode';
    const dep = await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'd' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'd' } },
          template: { metadata: { labels: { app: 'd' } }, spec: { containers: container } },
          paused: true,
        },
      },
    });
    const ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: dep.metadata!.uid!, controller: true, blockOwnerDeletion: true }];
    const oldLabels = { app: 'd', 'pod-template-hash': 'old' };
    const newLabels = { app: 'd', 'pod-template-hash': 'new' };
    await orphan(ns, 'd-old-1', oldLabels, onNode1.spec);
    await orphan(ns, 'd-new-victim', newLabels, onNode1.spec);
    await orphan(ns, 'd-new-kept', newLabels, { nodeName: 'node-2' });
    for (const p of ['d-old-1', 'd-new-victim', 'd-new-kept']) await makeReady(ns, p, t0);
    await apps.createNamespacedReplicaSet({ namespace: ns, body: rsBody('d-old', 1, oldLabels, { ownerReferences }) });
    await apps.createNamespacedReplicaSet({ namespace: ns, body: rsBody('d-new', 2, newLabels, { ownerReferences }) });
    await settled(ns, 'd-old', 1);
    await settled(ns, 'd-new', 2);
    await scaleRs(ns, 'd-new', 1);
    await settled(ns, 'd-new', 1);
    victims.MoreOnSameNode = 'd-new-victim';
    expect((await live(ns)).map((p) => p.metadata!.name).sort()).toEqual(['d-new-kept', 'd-old-1']);

    // let the last status writes and the kubelet's final deletes land, then stop the controller
    await sleep(500);
    stop.abort();
    expect(await running).toBe(0);
    await sb.close();
    if (process.env.KEEP_AUDIT) writeFileSync(process.env.KEEP_AUDIT, readFileSync(auditFile));
    lines = readFileSync(auditFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const h = await buildHistory({ auditLogs: [auditFile], kubeVersion: KUBE_VERSION, featureGates: FEATURE_GATES });
    events = [...h.history.events];
    h.close();
  }, 120_000);

  const mine = () => events.filter((e) => e.actor.controller);
  const inNs = (ns: string) => events.filter((e) => e.controller?.namespace === ns);

  it('every write of the controller is predicted', () => {
    expect(mine().length).toBeGreaterThan(40);
    const unexplained = mine().filter((e) => e.predicted !== true);
    expect(unexplained.map((e) => `${e.time} ${e.controller?.namespace}/${e.controller?.name} ${e.verb} ${e.pod ?? ''}: ${e.message}`)).toEqual([]);
  });

  it("writes are the controller's exactly when `run` sent them (its User-Agent; the test's client is the same user)", () => {
    // run's pod creates and deletes in the file, told by its User-Agent
    const runAgent = /^rs-reconcile\/v\S+ \(.*\) kubernetes\/\S+ replicaset-controller\//;
    const sent = lines.filter(
      (e) =>
        runAgent.test(e.userAgent ?? '') &&
        e.objectRef.resource === 'pods' &&
        !e.objectRef.subresource &&
        ['create', 'delete'].includes(e.verb) &&
        e.responseStatus.code < 300,
    );
    expect(mine().filter((e) => e.verb === 'create' || e.verb === 'delete')).toHaveLength(sent.length);
    for (const e of mine()) expect(e.actor.user).toBe('sandbox-admin');
    // the users' (and the simulated kubelet's) writes are users'
    const users = events.filter((e) => !e.actor.controller);
    expect(users.every((e) => e.predicted === null && e.reason === null)).toBe(true);
    expect(new Set(users.map((e) => e.actor.user))).toEqual(new Set(['sandbox-admin', 'system:node:node-1', 'system:node:node-2']));
    expect(
      users
        .filter((e) => e.actor.user === 'sandbox-admin')
        .map((e) => e.verb)
        .sort(),
    ).toEqual(expect.arrayContaining(['create', 'delete', 'patch', 'scale']));
  });

  it('scale up from 0: three creates for TooFewReplicas, and status writes', () => {
    const up = inNs('up').filter((e) => e.actor.controller);
    expect(up.filter((e) => e.verb === 'create').map((e) => e.reason)).toEqual(['TooFewReplicas', 'TooFewReplicas', 'TooFewReplicas']);
    expect(up.some((e) => e.verb === 'status')).toBe(true);
    expect(up.filter((e) => e.verb === 'delete')).toEqual([]);
  });

  it('each ranked scale-down deletes the pod that loses on its criterion, for that reason', () => {
    for (const c of CRITERIA) {
      const deletes = mine().filter((e) => e.verb === 'delete' && e.controller?.namespace === c.toLowerCase());
      expect(
        deletes.map((e) => [e.pod, e.reason]),
        c,
      ).toEqual([[victims[c], c]]);
    }
  });

  it('adoption, release, a user delete and a ReplicationController are explained', () => {
    const adopt = inNs('adopt');
    expect(adopt.filter((e) => e.verb === 'adopt').map((e) => [e.pod, e.reason, e.actor.controller])).toEqual([['stray', 'OrphanMatching', true]]);
    expect(adopt.filter((e) => e.verb === 'delete' && e.actor.controller)).toHaveLength(1);
    const release = inNs('release');
    expect(release.filter((e) => e.verb === 'release').map((e) => [e.reason, e.actor.controller])).toEqual([['OwnedNotMatching', true]]);
    expect(release.filter((e) => e.verb === 'patch').map((e) => e.actor)).toEqual([{ user: 'sandbox-admin', controller: false }]);
    expect(release.filter((e) => e.verb === 'create' && e.actor.controller)).toHaveLength(3);
    const userdel = inNs('userdel');
    const userDelete = userdel.filter((e) => e.verb === 'delete' && e.actor.user === 'sandbox-admin' && !e.actor.controller);
    // one: the dry run before it is in the log (its URI has no dryRun, its DeleteOptions do) but changed nothing
    expect(userDelete).toHaveLength(1);
    expect(lines.filter((e) => e.verb === 'delete' && e.objectRef.namespace === 'userdel' && e.requestObject?.dryRun)).toHaveLength(1);
    // the replacement comes after the user's delete, from the controller
    const after = userdel.filter((e) => e.time > userDelete[0].time && e.verb === 'create');
    expect(after.map((e) => [e.actor.controller, e.reason])).toEqual([[true, 'TooFewReplicas']]);
    const rc = inNs('rc').filter((e) => e.actor.controller);
    expect(rc.every((e) => e.controller?.kind === 'ReplicationController')).toBe(true);
    expect(rc.filter((e) => e.verb === 'create')).toHaveLength(3);
    expect(rc.filter((e) => e.verb === 'delete')).toHaveLength(2);
  });

  // every adopted pair: both pods adopted, predicted
  it('the scenario pods were adopted as orphans', () => {
    const adopted = mine().filter((e) => e.verb === 'adopt' && e.controller?.namespace !== 'adopt');
    expect(adopted.map((e) => e.reason)).toEqual(adopted.map(() => 'OrphanMatching'));
    expect(adopted).toHaveLength(CRITERIA.length * 2 + 1);
  });
});
