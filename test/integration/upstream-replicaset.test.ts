// The scenarios of upstream's ReplicaSet integration tests (kubernetes/kubernetes,
// test/integration/replicaset/replicaset_test.go), each run against `run` (the ReplicaSet
// controller in the foreground) instead of upstream's in-process controller. Every `it` is named
// after upstream's test function (and case) so that it can be looked up there.
//
// As upstream's, these tests have no kubelet and no scheduler: pods stay Pending and unscheduled
// (so a delete removes them at once) unless the test writes their status itself (Running, Ready,
// Failed, restart counts) through the status subresource. No garbage collector runs either. On the
// embedded API server (default) one sandbox, started without nodes or a garbage collector, serves
// the whole file; with TEST_KUBECONFIG the tests run on that (bare) kube-apiserver. In both, each
// test gets a namespace of its own, as upstream's framework.CreateNamespaceOrDie gives it, and a
// `run` scoped to it that is stopped (and must exit 0) after the test.
//
// Upstream waits for conditions only; so do these (until, polling), and where upstream's condition
// alone could not fail when the controller did the wrong thing, the final state is checked too
// once the controller is known to be in sync (its status observed the change), never after a sleep.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { V1OwnerReference, V1Pod, V1PodCondition, V1ReplicaSet } from '@kubernetes/client-node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NEWEST_VERSION } from '../../src/core/versions.js';
import type { ForegroundOptions } from '../../src/services/run-foreground.js';
import { ensureDefaultServiceAccount, foregroundOptions, REAL, sandboxTests, type StartedRun, untilRunning } from './env.js';

const t = sandboxTests('rs-upstream-', { per: 'suite' });

const labelMap = () => ({ foo: 'bar' });
const SELECTOR = 'foo=bar';
const WAIT_MS = 45_000;
const TEST_MS = 90_000;

let kubeconfig: string;
let core: CoreV1Api;
let apps: AppsV1Api;

beforeAll(async () => {
  if (REAL) {
    kubeconfig = REAL;
    const kc = new KubeConfig();
    kc.loadFromFile(REAL);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    return;
  }
  // a bare control plane as upstream's test server: no kubelet, no garbage collector; its
  // serviceaccount controller makes each namespace's `default` at once (upstream disables the
  // ServiceAccount admission plugin instead)
  ({ kubeconfig, core, apps } = await t.start({ nodes: 0, gc: false, serviceAccountDelayMs: 0 }));
});

// ---------------------------------------------------------------------------------------------
// the namespace and the controller of each test

let seq = 0;
const namespaces: string[] = [];

/** A fresh namespace named after upstream's, unique across runs (a bare kube-apiserver never finishes deleting one). */
async function createNamespace(base: string): Promise<string> {
  const name = `${base.slice(0, 40)}-${Date.now().toString(36)}-${seq++}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'rs-reconcile/test': 'true' } } } });
  namespaces.push(name);
  // a bare kube-apiserver has no serviceaccount controller: no wait for one (the sandbox's is immediate)
  await ensureDefaultServiceAccount(core, name, REAL ? 0 : undefined);
  return name;
}

const controllers: StartedRun[] = [];

/** `run` for the ReplicaSets of `namespace`: upstream's 5 workers and burst of 500, fast client limits. */
function runController(namespace: string, extra: Partial<ForegroundOptions> = {}): StartedRun {
  const r = t.run(foregroundOptions(kubeconfig, { namespace, kinds: ['ReplicaSet'], qps: 1000, burst: 1000, verbosity: 2, ...extra }));
  controllers.push(r);
  return r;
}

afterEach(async () => {
  const running = controllers.splice(0);
  for (const c of running) c.stop.abort();
  for (const c of running) expect(await c.done, c.logs.join('')).toBe(0);
  for (const name of namespaces.splice(0)) await core.deleteNamespace({ name }).catch(() => undefined);
});

/** Polls `fn` (every 100 ms, as upstream's interval) until it holds; fails at once if a controller of the test has ended. */
function waitFor<T>(what: string, fn: () => Promise<T | false | undefined | null>): Promise<T> {
  return untilRunning(controllers, what, fn, WAIT_MS);
}

// ---------------------------------------------------------------------------------------------
// objects and updates, as upstream's helpers make them

function newRS(name: string, namespace: string, replicas: number): V1ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { namespace, name },
    spec: {
      selector: { matchLabels: labelMap() },
      replicas,
      template: { metadata: { labels: labelMap() }, spec: { containers: [{ name: 'fake-name', image: 'fakeimage' }] } },
    },
  };
}

function newMatchingPod(name: string, namespace: string): V1Pod {
  // upstream gives it status.phase Running too: a create drops the status (it starts Pending)
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: labelMap() },
    spec: { containers: [{ name: 'fake-name', image: 'fakeimage' }] },
  };
}

const createRS = (rs: V1ReplicaSet) => apps.createNamespacedReplicaSet({ namespace: rs.metadata!.namespace!, body: rs });

/** Every pod of the namespace with the labels (terminating and failed ones too), by name: upstream's getPods. */
const getPods = async (namespace: string, selector = SELECTOR) => (await core.listNamespacedPod({ namespace, labelSelector: selector })).items;

const readRS = (namespace: string, name: string) => apps.readNamespacedReplicaSet({ namespace, name });

const controllerOf = (o: { metadata?: { ownerReferences?: V1OwnerReference[] } }) => o.metadata?.ownerReferences?.find((r) => r.controller === true);

/** As the JSON says it: no fields the client's model left undefined (reflect.DeepEqual's view, key order aside). */
const plain = <T>(o: T): T => JSON.parse(JSON.stringify(o));

const isConflict = (e: unknown) => e instanceof ApiException && e.code === 409;

/** Read, change, write; again on a conflict (upstream's retry.RetryOnConflict). */
async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (!isConflict(e) || i >= 20) throw e;
    }
  }
}

const updatePod = (namespace: string, name: string, change: (p: V1Pod) => void) =>
  retryOnConflict(async () => {
    const pod = await core.readNamespacedPod({ namespace, name });
    change(pod);
    return core.replaceNamespacedPod({ namespace, name, body: pod });
  });

const updatePodStatus = (namespace: string, name: string, change: (p: V1Pod) => void) =>
  retryOnConflict(async () => {
    const pod = await core.readNamespacedPod({ namespace, name });
    change(pod);
    return core.replaceNamespacedPodStatus({ namespace, name, body: pod });
  });

const updateRS = (namespace: string, name: string, change: (rs: V1ReplicaSet) => void) =>
  retryOnConflict(async () => {
    const rs = await readRS(namespace, name);
    change(rs);
    return apps.replaceNamespacedReplicaSet({ namespace, name, body: rs });
  });

/**
 * Upstream's waitRSStable (test/utils WaitRSStable): the status has observed `rs`'s generation and
 * counts its spec.replicas pods. Returns the ReplicaSet read.
 */
const waitRSStable = (rs: V1ReplicaSet) =>
  waitFor(`ReplicaSet ${rs.metadata!.name} stable at ${rs.spec!.replicas} replicas (generation ${rs.metadata!.generation})`, async () => {
    const got = await readRS(rs.metadata!.namespace!, rs.metadata!.name!);
    return (got.status?.observedGeneration ?? 0) >= rs.metadata!.generation! && got.status?.replicas === rs.spec!.replicas && got;
  });

/** Upstream's scaleRS: spec.replicas updated, then waitRSStable on the updated object. */
async function scaleRS(rs: V1ReplicaSet, replicas: number): Promise<V1ReplicaSet> {
  const updated = await updateRS(rs.metadata!.namespace!, rs.metadata!.name!, (r) => {
    r.spec!.replicas = replicas;
  });
  return waitRSStable(updated);
}

/** Upstream's setPodsReadyCondition: Running, with a Ready condition of `status` since `since`. */
async function setPodsReadyCondition(pods: V1Pod[], status: 'True' | 'False', since: Date): Promise<void> {
  for (const p of pods) {
    await updatePodStatus(p.metadata!.namespace!, p.metadata!.name!, (pod) => {
      pod.status = pod.status ?? {};
      pod.status.phase = 'Running';
      const conditions: V1PodCondition[] = (pod.status.conditions = pod.status.conditions ?? []);
      const ready = conditions.find((c) => c.type === 'Ready');
      if (ready) Object.assign(ready, { status, lastTransitionTime: since });
      else conditions.push({ type: 'Ready', status, lastTransitionTime: since });
    });
  }
}

/** The pods the ReplicaSet `uid` controls, of those given. */
const controlledBy = (pods: V1Pod[], uid: string) => pods.filter((p) => controllerOf(p)?.uid === uid);

// ---------------------------------------------------------------------------------------------

describe('upstream test/integration/replicaset: the API server alone', () => {
  it(
    'TestRSSelectorImmutability: the apps/v1 selector cannot be changed (the API server refuses, no controller)',
    async () => {
      const ns = await createNamespace('rs-selector-immutability');
      await createRS(newRS('rs', ns, 0));
      const rsV1 = await readRS(ns, 'rs');
      const newSelectorLabels = { changed_name_apps_v1: 'changed_test_apps_v1' };
      rsV1.spec!.selector.matchLabels = newSelectorLabels;
      rsV1.spec!.template!.metadata!.labels = newSelectorLabels;
      const err = await apps.replaceNamespacedReplicaSet({ namespace: ns, name: 'rs', body: rsV1 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiException);
      const e = err as ApiException<unknown>;
      expect(e.code).toBe(422);
      const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
      expect(body.message).toContain('Invalid value');
      expect(body.message).toContain('field is immutable');
    },
    TEST_MS,
  );
});

// `run` emulates the server's version by default (the sandbox's is 1.32); upstream's tests are
// those of its newest controller, which --kube-version picks
const RULES: [string, string | undefined][] = [
  ["the server's version", undefined],
  [NEWEST_VERSION, NEWEST_VERSION],
];

describe.each(RULES)('upstream test/integration/replicaset against run, with the rules of %s', (_rules, kubeVersion) => {
  const startController = (namespace: string, extra: Partial<ForegroundOptions> = {}) => runController(namespace, { kubeVersion, ...extra });
  const rsRef = (rs: V1ReplicaSet, extra: Partial<V1OwnerReference> = {}): V1OwnerReference => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: rs.metadata!.name!,
    uid: rs.metadata!.uid!,
    ...extra,
  });
  const anotherRS: V1OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'anotherRS', uid: '1', controller: true };

  // TestAdoption: a matching pod with these owner references exists before the controller starts;
  // its owner references end as expected. `owns`: whether the ReplicaSet ends controlling it (and
  // so creates no pod of its own).
  const adoption: { name: string; existing: (rs: V1ReplicaSet) => V1OwnerReference[]; expected: (rs: V1ReplicaSet) => V1OwnerReference[]; owns: boolean }[] = [
    {
      name: 'pod refers rs as an owner, not a controller',
      existing: (rs) => [rsRef(rs)],
      expected: (rs) => [rsRef(rs, { controller: true, blockOwnerDeletion: true })],
      owns: true,
    },
    {
      name: "pod doesn't have owner references",
      existing: () => [],
      expected: (rs) => [rsRef(rs, { controller: true, blockOwnerDeletion: true })],
      owns: true,
    },
    {
      name: 'pod refers rs as a controller',
      existing: (rs) => [rsRef(rs, { controller: true })],
      expected: (rs) => [rsRef(rs, { controller: true })],
      owns: true,
    },
    {
      name: 'pod refers other rs as the controller, refers the rs as an owner',
      existing: (rs) => [anotherRS, rsRef(rs)],
      expected: (rs) => [anotherRS, rsRef(rs)],
      owns: false,
    },
  ];
  for (const [i, tc] of adoption.entries()) {
    it(
      `TestAdoption: ${tc.name}`,
      async () => {
        const ns = await createNamespace(`rs-adoption-${i}`);
        const rs = await createRS(newRS('rs', ns, 1));
        const podName = `pod${i}`;
        const pod = newMatchingPod(podName, ns);
        pod.metadata!.ownerReferences = tc.existing(rs);
        await core.createNamespacedPod({ namespace: ns, body: pod });
        // upstream starts its controller once its informer holds the pod; `run` lists it first
        startController(ns);
        const expected = tc.expected(rs);
        await waitFor(`the owner references of ${podName} to be ${JSON.stringify(expected)}`, async () => {
          const p = await core.readNamespacedPod({ namespace: ns, name: podName });
          return isDeepStrictEqual(plain(p.metadata!.ownerReferences ?? []), expected);
        });
        // in sync: the status counts one pod the ReplicaSet controls; then the pods are final
        await waitRSStable(rs);
        const pods = await getPods(ns);
        expect(plain(pods.find((p) => p.metadata!.name === podName)!.metadata!.ownerReferences)).toStrictEqual(expected);
        const controlled = controlledBy(pods, rs.metadata!.uid!).map((p) => p.metadata!.name);
        if (tc.owns) expect(controlled).toEqual([podName]);
        else expect(controlled).toEqual([expect.not.stringMatching(`^${podName}$`)]);
        expect(pods).toHaveLength(tc.owns ? 1 : 2);
      },
      TEST_MS,
    );
  }

  it(
    'TestSpecReplicasChange: status.replicas follows spec.replicas 2→3→0→2; a template change alone is observed (observedGeneration)',
    async () => {
      const ns = await createNamespace('test-spec-replicas-change');
      startController(ns);
      let rs = await createRS(newRS('rs', ns, 2));
      rs = await waitRSStable(rs);
      for (const n of [3, 0, 2]) {
        rs = await scaleRS(rs, n);
        expect(await getPods(ns)).toHaveLength(n);
      }
      // a template annotation: the generation moves, the status observes it with no change of replicas
      let oldGeneration = 0;
      const updated = await updateRS(ns, 'rs', (r) => {
        oldGeneration = r.metadata!.generation!;
        r.spec!.template!.metadata!.annotations = { test: 'annotation' };
      });
      const savedGeneration = updated.metadata!.generation!;
      expect(savedGeneration).not.toBe(oldGeneration);
      const observed = await waitFor('status.observedGeneration ≥ the new generation', async () => {
        const got = await readRS(ns, 'rs');
        return (got.status?.observedGeneration ?? 0) >= savedGeneration && got;
      });
      expect(observed.status?.replicas).toBe(2);
      expect(await getPods(ns)).toHaveLength(2);
    },
    TEST_MS,
  );

  it(
    'TestDeletingAndFailedPods: a deleting pod and a Failed pod are replaced, and both are kept',
    async () => {
      const ns = await createNamespace('test-deleting-and-failed-pods');
      startController(ns);
      const rs = await waitRSStable(await createRS(newRS('rs', ns, 2)));
      const pods = await getPods(ns);
      expect(pods).toHaveLength(2);
      // the first: held in its deletion by a finalizer
      const deletingPod = pods[0];
      await updatePod(ns, deletingPod.metadata!.name!, (p) => {
        p.metadata!.finalizers = ['fake.example.com/blockDeletion'];
      });
      await core.deleteNamespacedPod({ namespace: ns, name: deletingPod.metadata!.name! });
      // the second: Failed
      const failedPod = pods[1];
      await updatePodStatus(ns, failedPod.metadata!.name!, (p) => {
        p.status!.phase = 'Failed';
      });
      const four = await waitFor('2 new pods beside the deleting and the failed one', async () => {
        const all = await getPods(ns);
        return all.length === 4 && all;
      });
      const uids = four.map((p) => p.metadata!.uid);
      expect(uids).toContain(deletingPod.metadata!.uid);
      expect(uids).toContain(failedPod.metadata!.uid);
      // in sync: the two new pods counted; neither old pod was deleted (or replaced twice)
      await waitFor('status.replicas 2 with the new pods', async () => {
        const got = await readRS(ns, 'rs');
        return got.status?.replicas === 2 && (got.status.observedGeneration ?? 0) >= rs.metadata!.generation!;
      });
      const final = await getPods(ns);
      expect(final).toHaveLength(4);
      expect(final.find((p) => p.metadata!.uid === deletingPod.metadata!.uid)?.metadata?.deletionTimestamp).toBeDefined();
      expect(final.find((p) => p.metadata!.uid === failedPod.metadata!.uid)?.status?.phase).toBe('Failed');
      // let the namespace go
      await updatePod(ns, deletingPod.metadata!.name!, (p) => {
        p.metadata!.finalizers = [];
      });
    },
    TEST_MS,
  );

  // TestPodDeletionCost: two pods, restart counts 5 and 0 (in list order), deletion costs as
  // given; scaled to 1, the pod at remainingPodIndex is the one left.
  const costs: { name: string; costs?: [string, string]; restarts: [number, number]; enabled: boolean; remainingPodIndex: number }[] = [
    { name: 'enabled-with-different-costs', costs: ['1000', '100'], restarts: [5, 0], enabled: true, remainingPodIndex: 0 },
    { name: 'enabled-with-same-costs', costs: ['100', '100'], restarts: [5, 0], enabled: true, remainingPodIndex: 1 },
    { name: 'enabled-with-no-costs', restarts: [5, 0], enabled: true, remainingPodIndex: 1 },
    { name: 'disabled-with-different-costs', costs: ['1000', '100'], restarts: [5, 0], enabled: false, remainingPodIndex: 1 },
  ];
  for (const tc of costs) {
    it(
      `TestPodDeletionCost: ${tc.name}`,
      async () => {
        const ns = await createNamespace(tc.name);
        // upstream flips the gate in its controller's process; `run` takes kube-controller-manager's flag
        startController(ns, tc.enabled ? {} : { featureGates: 'PodDeletionCost=false' });
        await waitRSStable(await createRS(newRS('rs', ns, 2)));
        const pods = await waitFor('2 pods', async () => {
          const all = await getPods(ns);
          return all.length === 2 && all;
        });
        const remainingPodUID = pods[tc.remainingPodIndex].metadata!.uid;
        for (const [i, p] of pods.entries()) {
          const name = p.metadata!.name!;
          if (tc.costs) {
            const cost = tc.costs[i];
            await updatePod(ns, name, (pod) => {
              pod.metadata!.annotations = { 'controller.kubernetes.io/pod-deletion-cost': cost };
            });
          }
          await updatePodStatus(ns, name, (pod) => {
            // as upstream: a container status with its restart count only
            pod.status!.containerStatuses = [{ restartCount: tc.restarts[i] } as never];
          });
        }
        // the pods' updates reach the controller on its pod watch before the scale-down on its
        // ReplicaSet watch: each was answered before the next write was sent (upstream's order too)
        await updateRS(ns, 'rs', (r) => {
          r.spec!.replicas = 1;
        });
        const left = await waitFor('the ReplicaSet scaled down to 1 pod', async () => {
          const all = await getPods(ns);
          return all.length === 1 && all;
        });
        expect(left[0].metadata!.uid, `left: ${JSON.stringify(left[0].status?.containerStatuses)}`).toBe(remainingPodUID);
        // in sync at 1: no other pod deleted, none created
        await waitFor('status.replicas 1', async () => (await readRS(ns, 'rs')).status?.replicas === 1);
        expect((await getPods(ns)).map((p) => p.metadata!.uid)).toEqual([remainingPodUID]);
      },
      TEST_MS,
    );
  }

  it(
    'TestOverlappingRSs: two ReplicaSets with the same selector make 1 and 2 pods, each counting its own',
    async () => {
      const ns = await createNamespace('test-overlapping-rss');
      startController(ns);
      const rss: V1ReplicaSet[] = [];
      for (let i = 0; i < 2; i++) rss.push(await waitRSStable(await createRS(newRS(`rs-${i + 1}`, ns, i + 1))));
      const pods = await getPods(ns);
      expect(pods).toHaveLength(3);
      for (const [i, rs] of rss.entries()) {
        const got = await readRS(ns, rs.metadata!.name!);
        expect(got.status?.replicas).toBe(got.spec!.replicas);
        // each pod has one controller: rs-1 owns 1, rs-2 owns 2
        expect(controlledBy(pods, rs.metadata!.uid!)).toHaveLength(i + 1);
      }
    },
    TEST_MS,
  );

  it(
    'TestPodOrphaningAndAdoptionWhenLabelsChange: a relabelled pod is released, and adopted again when its labels match',
    async () => {
      const ns = await createNamespace('test-pod-orphaning-and-adoption-when-labels-change');
      startController(ns);
      const rs = await waitRSStable(await createRS(newRS('rs', ns, 1)));
      const pods = await getPods(ns);
      expect(pods).toHaveLength(1);
      const name = pods[0].metadata!.name!;
      expect(controllerOf(pods[0])).toBeDefined();
      // orphaning: labels that do not match
      await updatePod(ns, name, (p) => {
        p.metadata!.labels = { 'new-foo': 'new-bar' };
      });
      await waitFor(`${name} released`, async () => !controllerOf(await core.readNamespacedPod({ namespace: ns, name })));
      // adoption: labels that match again; adopted, or (one pod too many) picked for deletion
      await updatePod(ns, name, (p) => {
        p.metadata!.labels = labelMap();
      });
      const pod = await waitFor(`${name} adopted (or deleted as the extra pod)`, async () => {
        try {
          const p = await core.readNamespacedPod({ namespace: ns, name });
          return controllerOf(p) && p;
        } catch (e) {
          if (!(e instanceof ApiException && e.code === 404)) throw e;
          const left = await getPods(ns);
          if (left.length !== 1) throw new Error(`expected 1 pod in the namespace, got ${left.length}`);
          return left[0];
        }
      });
      expect(controllerOf(pod)!.uid).toBe(rs.metadata!.uid);
      // in sync: one pod, the ReplicaSet's
      const left = await waitFor('one pod left', async () => {
        const all = await getPods(ns);
        return all.length === 1 && (await readRS(ns, 'rs')).status?.replicas === 1 && all;
      });
      expect(controllerOf(left[0])!.uid).toBe(rs.metadata!.uid);
    },
    TEST_MS,
  );

  it(
    'TestGeneralPodAdoption: a pod owned by another kind, or by the rs without controller: true, gets the ReplicaSet as its controller',
    async () => {
      const ns = await createNamespace('test-general-pod-adoption');
      startController(ns);
      const rs = await waitRSStable(await createRS(newRS('rs', ns, 1)));
      const pods = await getPods(ns);
      expect(pods).toHaveLength(1);
      const name = pods[0].metadata!.name!;
      /** Upstream's testPodControllerRefPatch. */
      const controllerRefPatch = async (ownerReference: V1OwnerReference, expectedOwnerReferenceNum: number) => {
        await updatePod(ns, name, (p) => {
          p.metadata!.ownerReferences = [ownerReference];
        });
        const p = await waitFor(`a controller reference on ${name}`, async () => {
          const got = await core.readNamespacedPod({ namespace: ns, name });
          return controllerOf(got) && got;
        });
        expect(controllerOf(p)!.uid).toBe(rs.metadata!.uid);
        expect(p.metadata!.ownerReferences).toHaveLength(expectedOwnerReferenceNum);
      };
      // the only owner a StatefulSet, controller: false: the ReplicaSet adds itself as the controller
      await controllerRefPatch({ uid: randomUUID(), apiVersion: 'apps/v1', kind: 'StatefulSet', name: rs.metadata!.name!, controller: false }, 2);
      // the only owner the ReplicaSet, controller: false: it becomes controller: true
      await controllerRefPatch(rsRef(rs, { controller: false }), 1);
      // the pod was adopted, never replaced
      await waitRSStable(rs);
      expect((await getPods(ns)).map((p) => p.metadata!.name)).toEqual([name]);
    },
    TEST_MS,
  );

  it(
    'TestReadyAndAvailableReplicas: with minReadySeconds 3600, of 3 pods 2 are ready and 1 available',
    async () => {
      const ns = await createNamespace('test-ready-and-available-replicas');
      startController(ns);
      const created = newRS('rs', ns, 3);
      created.spec!.minReadySeconds = 3600;
      const rs = await waitRSStable(await createRS(created));
      expect(rs.status?.availableReplicas ?? 0).toBe(0);
      const pods = await getPods(ns);
      expect(pods).toHaveLength(3);
      // Running, not Ready; Ready since now (not available); Ready for 2 hours (available)
      await setPodsReadyCondition(pods.slice(0, 1), 'False', new Date());
      await setPodsReadyCondition(pods.slice(1, 2), 'True', new Date());
      await setPodsReadyCondition(pods.slice(2), 'True', new Date(Date.now() - 120 * 60_000));
      const got = await waitFor('replicas 3, ready 2, available 1', async () => {
        const s = (await readRS(ns, 'rs')).status;
        return s?.replicas === 3 && s.readyReplicas === 2 && s.availableReplicas === 1 && s;
      });
      expect(got).toMatchObject({ replicas: 3, readyReplicas: 2, availableReplicas: 1 });
    },
    TEST_MS,
  );

  it(
    'TestRSScaleSubresource: the scale subresource reads and sets spec.replicas (3, then 0), and the controller follows',
    async () => {
      const ns = await createNamespace('test-rs-scale-subresource');
      startController(ns);
      await waitRSStable(await createRS(newRS('rs', ns, 1)));
      /** Upstream's testScalingUsingScaleSubresource, then (beyond upstream) the controller's answer. */
      const scaleTo = async (replicas: number) => {
        const before = await readRS(ns, 'rs');
        const scale = await apps.readNamespacedReplicaSetScale({ namespace: ns, name: 'rs' });
        expect(scale.spec?.replicas).toBe(before.spec!.replicas);
        await retryOnConflict(async () => {
          const s = await apps.readNamespacedReplicaSetScale({ namespace: ns, name: 'rs' });
          s.spec = { ...s.spec, replicas };
          return apps.replaceNamespacedReplicaSetScale({ namespace: ns, name: 'rs', body: s });
        });
        const after = await readRS(ns, 'rs');
        expect(after.spec!.replicas).toBe(replicas);
        await waitRSStable(after);
        expect(await getPods(ns)).toHaveLength(replicas);
      };
      await scaleTo(3);
      await scaleTo(0);
    },
    TEST_MS,
  );

  it(
    'TestExtraPodsAdoptionAndDeletion: of 3 matching orphans, the ReplicaSet of 2 keeps 2 and deletes the extra one',
    async () => {
      const ns = await createNamespace('test-extra-pods-adoption-and-deletion');
      const rs = await createRS(newRS('rs', ns, 2));
      for (let i = 0; i < 3; i++) await core.createNamespacedPod({ namespace: ns, body: newMatchingPod(`pod-${i + 1}`, ns) });
      startController(ns);
      await waitRSStable(rs);
      const pods = await waitFor('as many pods as spec.replicas', async () => {
        const all = await getPods(ns);
        return all.length === 2 && all;
      });
      // the two left are the orphans adopted: none created
      expect(pods.map((p) => p.metadata!.name).every((n) => /^pod-[123]$/.test(n!))).toBe(true);
      expect(controlledBy(pods, rs.metadata!.uid!)).toHaveLength(2);
    },
    TEST_MS,
  );

  it(
    'TestFullyLabeledReplicas: with extra template labels, only the pod that has them too is fully labeled',
    async () => {
      const ns = await createNamespace('test-fully-labeled-replicas');
      startController(ns);
      const extraLabelMap = { foo: 'bar', extraKey: 'extraValue' };
      await waitRSStable(await createRS(newRS('rs', ns, 2)));
      await updateRS(ns, 'rs', (r) => {
        r.spec!.template!.metadata!.labels = extraLabelMap;
      });
      const pods = await getPods(ns);
      expect(pods).toHaveLength(2);
      await updatePod(ns, pods[0].metadata!.name!, (p) => {
        p.metadata!.labels = extraLabelMap;
      });
      const got = await waitFor('replicas 2, fullyLabeledReplicas 1', async () => {
        const s = (await readRS(ns, 'rs')).status;
        return s?.replicas === 2 && s.fullyLabeledReplicas === 1 && s;
      });
      expect(got).toMatchObject({ replicas: 2, fullyLabeledReplicas: 1 });
    },
    TEST_MS,
  );

  it(
    'TestReplicaSetsAppsV1DefaultGCPolicy: deleting the rs adds no finalizer; while it is being deleted its controller creates, adopts and deletes nothing',
    async () => {
      const ns = await createNamespace('test-default-gc-v1');
      startController(ns);
      const fakeFinalizer = 'kube.io/dummy-finalizer';
      const created = newRS('rs', ns, 2);
      created.metadata!.finalizers = [fakeFinalizer];
      const rs = await waitRSStable(await createRS(created));
      const pods = await getPods(ns);
      expect(pods).toHaveLength(2);
      await apps.deleteNamespacedReplicaSet({ namespace: ns, name: 'rs' });
      // the API server's part: apps/v1's default propagation (background) adds no finalizer
      const deleting = await waitFor('the deletionTimestamp', async () => {
        const got = await readRS(ns, 'rs');
        if (!got.metadata!.deletionTimestamp) return false;
        expect(got.metadata!.finalizers).toEqual([fakeFinalizer]);
        return got;
      });
      // the controller's part (beyond upstream): the deletion bumped the generation; once the
      // status observes it, the controller's cache has the deletionTimestamp
      expect(deleting.metadata!.generation).toBeGreaterThan(rs.metadata!.generation!);
      await waitFor('the deletion observed', async () => (await readRS(ns, 'rs')).status?.observedGeneration === deleting.metadata!.generation);
      // an orphan that matches, then one owned pod gone: the sync after both adopts nothing and
      // replaces nothing, and writes the status that counts one pod
      await core.createNamespacedPod({ namespace: ns, body: newMatchingPod('orphan', ns) });
      await core.deleteNamespacedPod({ namespace: ns, name: pods[0].metadata!.name! });
      await waitFor('status.replicas 1', async () => (await readRS(ns, 'rs')).status?.replicas === 1);
      const left = await getPods(ns);
      expect(left.map((p) => p.metadata!.name).sort()).toEqual(['orphan', pods[1].metadata!.name].sort());
      expect(left.find((p) => p.metadata!.name === 'orphan')!.metadata!.ownerReferences ?? []).toEqual([]);
      // the finalizer removed: the ReplicaSet goes (its pods are the garbage collector's, which is not here)
      await updateRS(ns, 'rs', (r) => {
        r.metadata!.finalizers = (r.metadata!.finalizers ?? []).filter((f) => f !== fakeFinalizer);
      });
      await waitFor('the ReplicaSet gone', async () =>
        readRS(ns, 'rs').then(
          () => false,
          (e: unknown) => {
            if (e instanceof ApiException && e.code === 404) return true;
            throw e;
          },
        ),
      );
    },
    TEST_MS,
  );
});
