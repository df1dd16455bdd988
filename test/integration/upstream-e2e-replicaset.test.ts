// The scenarios of upstream's e2e tests for ReplicaSets and ReplicationControllers
// (kubernetes/kubernetes, test/e2e/apps/replica_set.go and test/e2e/apps/rc.go), each run against
// `run` (the ReplicaSet and ReplicationController controllers in the foreground) on the embedded
// API server with its simulated scheduler and kubelet, as upstream's run on a cluster with
// kube-controller-manager and real nodes. Every `it` is named after upstream's SIGDescribe and
// ginkgo.It (or framework.ConformanceIt) description, so that it can be looked up there.
//
// As upstream's framework does, each test gets a namespace of its own (the serviceaccount
// controller's `default` awaited before the first pod) that is deleted after it; here each test
// also gets a `run` scoped to that namespace, stopped after the test, that must exit 0. One
// sandbox (3 nodes, the kubelet's default delays, the garbage collector on) serves the file.
//
// Left out, as they need a real container: dialing every pod through the API server's proxy (the
// "serve a basic image" tests check their pods created, running and ready, and the controller's
// status, but not the hostname each one answers). Images are kept as upstream names them; the
// simulated kubelet runs any. The private image tests run upstream on GCE only; here they are the
// public image tests with the private image's name.
// Not ported: "should surface a failure condition on a common issue like exceeded quota" (both
// kinds): it needs a ResourceQuota, which the sandbox does not serve (no quota admission refusing
// the pod past it with 403 Forbidden, no resource quota controller filling its status).
//
// Upstream waits for conditions (polls, watches) only; so do these (waitFor, watch feeds), and
// where upstream's condition alone could not fail when the controller did the wrong thing, the
// final state is checked too once the controller is known to be in sync (its status counts the
// change), never after a sleep.
import { randomUUID } from 'node:crypto';
import {
  ApiException,
  type AppsV1Api,
  type CoreV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1ObjectMeta,
  type V1OwnerReference,
  type V1Pod,
  type V1ReplicaSet,
  type V1ReplicationController,
  Watch,
} from '@kubernetes/client-node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipAllIf } from '../skips.js';
import { foregroundOptions, sandboxOnlyReason, sandboxTests, type StartedRun, untilRunning } from './env.js';

const t = sandboxTests('rs-upstream-e2e-', { per: 'suite' });

const WAIT_MS = 45_000;
const TEST_MS = 90_000;

// the images upstream names (test/utils/image): the simulated kubelet runs any
const AGNHOST_NAME = 'agnhost';
const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';
const AGNHOST_PRIVATE = 'gcr.io/k8s-authenticated-test/agnhost:2.6';
const PAUSE = 'registry.k8s.io/pause:3.10';
const NGINX = 'registry.k8s.io/e2e-test-images/nginx:1.14-4';

let kubeconfig: string;
let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;

describe('upstream test/e2e/apps (replica_set.go, rc.go) against run, with the simulated kubelet', () => {
  const why = sandboxOnlyReason('the simulated scheduler and kubelet');
  skipAllIf(why);

  beforeAll(async () => {
    if (why !== null) return;
    ({ kubeconfig, kc, core, apps } = await t.start({ nodes: 3, serviceAccountDelayMs: 0 }));
  });

  // -------------------------------------------------------------------------------------------
  // the namespace, the controller and the watches of each test

  let seq = 0;
  const namespaces: string[] = [];

  /** framework.NewDefaultFramework's namespace: `base-…`, used once its `default` ServiceAccount exists. */
  async function createNamespace(base: string): Promise<string> {
    const name = `${base}-${Date.now().toString(36)}-${seq++}`;
    await core.createNamespace({ body: { metadata: { name, labels: { 'rs-reconcile/test': 'true' } } } });
    namespaces.push(name);
    // the framework waits for the serviceaccount controller (WaitForDefaultServiceAccountInNamespace)
    await waitFor(`the default ServiceAccount of ${name}`, () =>
      core.readNamespacedServiceAccount({ namespace: name, name: 'default' }).then(
        () => true,
        (e: unknown) => {
          if (isCode(e, 404)) return false;
          throw e;
        },
      ),
    );
    return name;
  }

  const controllers: StartedRun[] = [];

  /** kube-controller-manager's ReplicaSet and ReplicationController controllers for `namespace`: `run`, fast client limits. */
  function startController(namespace: string): StartedRun {
    const r = t.run(foregroundOptions(kubeconfig, { namespace, qps: 1000, burst: 1000, verbosity: 2 }));
    controllers.push(r);
    return r;
  }

  const feeds: Feed<unknown>[] = [];

  // (every test has `run` create pods, so by its end `run` has started: a stop sent while `run` is
  // still starting is lost, and the wait below would not end)
  afterEach(async () => {
    for (const f of feeds.splice(0)) await f.close();
    const running = controllers.splice(0);
    for (const c of running) c.stop.abort();
    for (const c of running) expect(await c.done, c.logs.join('')).toBe(0);
    for (const name of namespaces.splice(0)) await core.deleteNamespace({ name }).catch(() => undefined);
  });

  /** Polls `fn` every 100 ms until it holds; fails at once if a controller of the test has ended. */
  function waitFor<T>(what: string, fn: () => Promise<T | false | undefined | null>, ms = WAIT_MS): Promise<T> {
    return untilRunning(controllers, what, fn, ms);
  }

  interface WatchEvent<T> {
    type: string;
    object: T;
  }

  /**
   * A watch from `resourceVersion`, reopened from the last event it saw when the server closes it
   * (client-go's RetryWatcher, which watchtools.Until and WatchEventSequenceVerifier use). Its
   * events are read in order: `next` waits for the first one after the last it returned that
   * holds (watchUntilWithoutRetry).
   */
  class Feed<T> {
    readonly events: WatchEvent<T>[] = [];
    private cursor = 0;
    private rv: string;
    private current: AbortController | undefined;
    private closed = false;
    private failure: unknown = null;
    private opening: Promise<void> = Promise.resolve();

    constructor(
      private readonly path: string,
      private readonly labelSelector: string,
      resourceVersion: string,
    ) {
      this.rv = resourceVersion;
      this.open();
    }

    private open(): void {
      if (this.closed) return;
      this.opening = new Watch(kc)
        .watch(
          this.path,
          { labelSelector: this.labelSelector, resourceVersion: this.rv },
          (type, object: any) => {
            // an ERROR event (410 Gone: the resourceVersion is too old) ends the watch for good
            if (type === 'ERROR') this.failure = new Error(`watch ${this.path}: ${JSON.stringify(object)}`);
            else {
              this.rv = object.metadata.resourceVersion;
              if (type !== 'BOOKMARK') this.events.push({ type, object });
            }
          },
          () => {
            if (!this.closed && this.failure === null) this.open();
          },
        )
        .then(
          (ctrl) => {
            this.current = ctrl;
            if (this.closed) ctrl.abort();
          },
          (e: unknown) => {
            this.failure = e;
          },
        );
    }

    /** The next event (from the one after the last returned) for which `holds` is true. */
    next(what: string, holds: (e: WatchEvent<T>) => boolean, ms = WAIT_MS): Promise<WatchEvent<T>> {
      return waitFor(
        `a watch event: ${what}`,
        async () => {
          if (this.failure !== null) throw this.failure;
          while (this.cursor < this.events.length) {
            const e = this.events[this.cursor++];
            if (holds(e)) return e;
          }
          return null;
        },
        ms,
      );
    }

    /** Any event so far, or the first to come, for which `holds` is true, whatever `next` has returned. */
    find(what: string, holds: (e: WatchEvent<T>) => boolean, ms = WAIT_MS): Promise<WatchEvent<T>> {
      return waitFor(
        `a watch event: ${what}`,
        async () => {
          if (this.failure !== null) throw this.failure;
          return this.events.find(holds);
        },
        ms,
      );
    }

    async close(): Promise<void> {
      this.closed = true;
      await this.opening;
      this.current?.abort();
    }
  }

  function watchFeed<T>(path: string, labelSelector: string, resourceVersion: string): Feed<T> {
    const f = new Feed<T>(path, labelSelector, resourceVersion);
    feeds.push(f);
    return f;
  }

  /** watchtools.Until: a watch from `resourceVersion` until one event holds; then closed. */
  async function watchUntil<T>(path: string, labelSelector: string, resourceVersion: string, what: string, holds: (o: T) => boolean): Promise<T> {
    const f = watchFeed<T>(path, labelSelector, resourceVersion);
    try {
      return (await f.next(what, (e) => holds(e.object))).object;
    } finally {
      await f.close();
    }
  }

  // -------------------------------------------------------------------------------------------
  // objects, as upstream's helpers make them

  /** Upstream's newRS: the labels on the ReplicaSet, its selector and its template; grace period 0. */
  function newRS(name: string, replicas: number, podLabels: Record<string, string>, imageName: string, image: string, args?: string[]): V1ReplicaSet {
    return {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, labels: podLabels },
      spec: {
        selector: { matchLabels: podLabels },
        replicas,
        template: {
          metadata: { labels: podLabels },
          spec: { terminationGracePeriodSeconds: 0, containers: [{ name: imageName, image, ...(args ? { args } : {}) }] },
        },
      },
    };
  }

  /** Upstream's newRC: no selector and no labels of its own (both defaulted from the template's). */
  function newRC(
    name: string,
    replicas: number,
    podLabels: Record<string, string>,
    imageName: string,
    image: string,
    args?: string[],
  ): V1ReplicationController {
    return {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name },
      spec: {
        replicas,
        template: {
          metadata: { labels: podLabels },
          spec: { terminationGracePeriodSeconds: 0, containers: [{ name: imageName, image, ...(args ? { args } : {}) }] },
        },
      },
    };
  }

  const selectorOf = (labels: Record<string, string>) =>
    Object.entries(labels)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');

  const isCode = (e: unknown, code: number) => e instanceof ApiException && e.code === code;

  /** Read, change, write; again on a conflict (retry.RetryOnConflict, UpdateReplicaSetWithRetries). */
  async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await fn();
      } catch (e) {
        if (!isCode(e, 409) || i >= 20) throw e;
      }
    }
  }

  const updateRS = (namespace: string, name: string, change: (rs: V1ReplicaSet) => void) =>
    retryOnConflict(async () => {
      const rs = await apps.readNamespacedReplicaSet({ namespace, name });
      change(rs);
      return apps.replaceNamespacedReplicaSet({ namespace, name, body: rs });
    });

  const strategic = () => setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
  const merge = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

  /** An autoscaling/v1 Scale of `replicas` as Go's encoding/json writes it (zero status and creationTimestamp included). */
  const scalePatch = (replicas: number) => ({ metadata: { creationTimestamp: null }, spec: { replicas }, status: { replicas: 0 } });

  const controllerOf = (o: { metadata?: V1ObjectMeta }): V1OwnerReference | undefined => o.metadata?.ownerReferences?.find((r) => r.controller === true);
  const controlledBy = (o: { metadata?: V1ObjectMeta }, uid: string) => controllerOf(o)?.uid === uid;

  /** A valid resourceVersion (HaveValidResourceVersion): an unsigned integer. */
  const validRV = (rv: string | undefined) => /^\d+$/.test(rv ?? '') && BigInt(rv!) > 0n;

  const isReady = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
  const terminal = (p: V1Pod) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';

  /** e2epod.PodsCreatedByLabel: exactly `replicas` pods with the labels that are not being deleted. */
  const podsCreatedByLabel = (namespace: string, selector: string, replicas: number) =>
    waitFor(`${replicas} pods ${selector}`, async () => {
      const created = (await core.listNamespacedPod({ namespace, labelSelector: selector })).items.filter((p) => !p.metadata!.deletionTimestamp);
      return created.length === replicas && created;
    });

  /** WaitForPodNameRunningInNamespace (`ready` false) or WaitTimeoutForPodReadyInNamespace (true); a terminal pod fails. */
  const waitPod = (namespace: string, name: string, ready: boolean) =>
    waitFor(`pod ${name} ${ready ? 'ready' : 'running'}`, async () => {
      const p = await core.readNamespacedPod({ namespace, name });
      if (terminal(p)) throw new Error(`pod ${name} ended ${p.status?.phase}: ${JSON.stringify(p.status)}`);
      return (ready ? isReady(p) : p.status?.phase === 'Running') && p;
    });

  /** e2epod.VerifyPodsRunning: the pods created, each running. */
  async function verifyPodsRunning(namespace: string, selector: string, replicas: number): Promise<V1Pod[]> {
    const pods = await podsCreatedByLabel(namespace, selector, replicas);
    for (const p of pods) await waitPod(namespace, p.metadata!.name!, false);
    return pods;
  }

  /** The pod, or null when it is gone. */
  const readPod = (namespace: string, name: string) =>
    core.readNamespacedPod({ namespace, name }).catch((e: unknown) => {
      if (isCode(e, 404)) return null;
      throw e;
    });

  /** A pod as PodClient.CreateSync makes it: created, then running and ready. */
  async function createPodSync(namespace: string, name: string, labels: Record<string, string>, image: string): Promise<V1Pod> {
    await core.createNamespacedPod({ namespace, body: { metadata: { name, labels }, spec: { containers: [{ name, image }] } } });
    return waitPod(namespace, name, true);
  }

  /** Relabels `name` (its labels replaced) with an update, again on a conflict. */
  const relabelPod = (namespace: string, name: string, labels: Record<string, string>) =>
    retryOnConflict(async () => {
      const pod = await core.readNamespacedPod({ namespace, name });
      pod.metadata!.labels = labels;
      return core.replaceNamespacedPod({ namespace, name, body: pod });
    });

  // -------------------------------------------------------------------------------------------
  // the scenarios both kinds share

  /** testReplicaSetServeImageOrFail and TestReplicationControllerServeImageOrFail, without the dialing. */
  async function serveImage(kind: 'ReplicaSet' | 'ReplicationController', test: string, image: string): Promise<void> {
    const ns = await createNamespace(kind === 'ReplicaSet' ? 'replicaset' : 'replication-controller');
    startController(ns);
    const name = `my-hostname-${test}-${randomUUID()}`;
    const labels = { name };
    const replicas = 1;
    let uid: string;
    if (kind === 'ReplicaSet') {
      const rs = newRS(name, replicas, labels, name, image, ['serve-hostname']);
      rs.spec!.template!.spec!.containers[0].ports = [{ containerPort: 9376 }];
      uid = (await apps.createNamespacedReplicaSet({ namespace: ns, body: rs })).metadata!.uid!;
    } else {
      const rc = newRC(name, replicas, labels, name, image, ['serve-hostname']);
      rc.spec!.template!.spec!.containers[0].ports = [{ containerPort: 9376 }];
      uid = (await core.createNamespacedReplicationController({ namespace: ns, body: rc })).metadata!.uid!;
    }
    const pods = await podsCreatedByLabel(ns, selectorOf(labels), replicas);
    // the ReplicaSet test waits for each pod running, the ReplicationController test for each ready
    let running = 0;
    for (const p of pods) {
      if (p.metadata!.deletionTimestamp) continue;
      await waitPod(ns, p.metadata!.name!, kind === 'ReplicationController');
      running++;
    }
    expect(running, 'unexpected number of running pods').toBe(replicas);
    // (upstream then dials each pod through the API server's proxy: no container serves here)
    // beyond upstream: the pods are the controller's, and its status counts them ready and available
    for (const p of pods) expect(controlledBy(p, uid), JSON.stringify(p.metadata!.ownerReferences)).toBe(true);
    const read = () =>
      kind === 'ReplicaSet' ? apps.readNamespacedReplicaSet({ namespace: ns, name }) : core.readNamespacedReplicationController({ namespace: ns, name });
    const status = await waitFor('the status: 1 replica, ready and available', async () => {
      const o = await read();
      const s = o.status;
      return s?.readyReplicas === replicas && s.availableReplicas === replicas && s;
    });
    expect(status).toMatchObject({ replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 });
  }

  // -------------------------------------------------------------------------------------------
  // test/e2e/apps/replica_set.go

  it(
    'ReplicaSet should serve a basic image on each replica with a public image',
    async () => {
      await serveImage('ReplicaSet', 'basic', AGNHOST);
    },
    TEST_MS,
  );

  it(
    'ReplicaSet should serve a basic image on each replica with a private image',
    async () => {
      await serveImage('ReplicaSet', 'private', AGNHOST_PRIVATE);
    },
    TEST_MS,
  );

  it(
    'ReplicaSet should adopt matching pods on creation and release no longer matching pods',
    async () => {
      const ns = await createNamespace('replicaset');
      startController(ns);
      const name = 'pod-adoption-release';
      const labels = { name };
      // a pod with the label, running and ready
      const p = await createPodSync(ns, name, labels, AGNHOST);
      // a ReplicaSet whose selector matches it
      const rs = await apps.createNamespacedReplicaSet({ namespace: ns, body: newRS(name, 1, labels, name, AGNHOST) });
      const uid = rs.metadata!.uid!;
      // the orphan is adopted (or deleted and replaced)
      await waitFor(`${name} adopted or deleted`, async () => {
        const got = await readPod(ns, p.metadata!.name!);
        return got === null || controlledBy(got, uid);
      });
      // the matched label of one of its pods changes
      const pods = await podsCreatedByLabel(ns, selectorOf(labels), 1);
      const podName = pods[0].metadata!.name!;
      await relabelPod(ns, podName, { name: 'not-matching-name' });
      // the pod is released
      await waitFor(`${podName} released`, async () => !controlledBy((await core.readNamespacedPod({ namespace: ns, name: podName }))!, uid));
      // beyond upstream: the orphan was adopted, not replaced (one pod wanted, one there), and the
      // released pod is replaced by one the ReplicaSet controls, ready
      expect(podName).toBe(name);
      const replacement = await waitFor('a replacement, ready', async () => {
        const s = (await apps.readNamespacedReplicaSet({ namespace: ns, name })).status;
        const live = await podsCreatedByLabel(ns, selectorOf(labels), 1);
        return s?.replicas === 1 && s.readyReplicas === 1 && live[0].metadata!.name !== podName && live[0];
      });
      expect(controlledBy(replacement, uid)).toBe(true);
      const released = (await core.readNamespacedPod({ namespace: ns, name: podName }))!;
      expect(released.metadata!.ownerReferences ?? []).toEqual([]);
      expect(released.metadata!.deletionTimestamp).toBeUndefined();
    },
    TEST_MS,
  );

  it(
    'ReplicaSet Replicaset should have a working scale subresource',
    async () => {
      const ns = await createNamespace('replicaset');
      startController(ns);
      const rsName = 'test-rs';
      const labels = { name: 'sample-pod', pod: AGNHOST_NAME };
      const created = await apps.createNamespacedReplicaSet({ namespace: ns, body: newRS(rsName, 1, labels, AGNHOST_NAME, AGNHOST) });
      // WaitForReplicaSetTargetAvailableReplicas
      await waitFor('1 available replica', async () => {
        const s = (await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName })).status;
        return (s?.observedGeneration ?? 0) >= created.metadata!.generation! && s?.availableReplicas === 1;
      });
      // getting the scale subresource
      const scale = await apps.readNamespacedReplicaSetScale({ namespace: ns, name: rsName });
      expect(scale.spec?.replicas).toBe(1);
      expect(scale.status?.replicas).toBe(1);
      // updating it, unconditionally (no resourceVersion)
      scale.metadata!.resourceVersion = '';
      scale.spec!.replicas = 2;
      const result = await apps.replaceNamespacedReplicaSetScale({ namespace: ns, name: rsName, body: scale });
      expect(result.spec?.replicas).toBe(2);
      expect((await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName })).spec!.replicas).toBe(2);
      // patching it (strategic merge) to 4
      const patchedScale = await apps.patchNamespacedReplicaSetScale({ namespace: ns, name: rsName, body: scalePatch(4) }, strategic());
      // beyond upstream: the payload's zero status is not the answer's (the ReplicaSet's status is)
      expect(patchedScale.spec?.replicas).toBe(4);
      expect(patchedScale.status?.replicas).toBeGreaterThanOrEqual(1);
      const rs = await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName });
      expect(rs.spec!.replicas, 'replicaset should have 4 replicas').toBe(4);
      // beyond upstream: the controller follows, 4 pods counted
      await waitFor('status.replicas 4', async () => {
        const s = (await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName })).status;
        return (s?.observedGeneration ?? 0) >= rs.metadata!.generation! && s?.replicas === 4;
      });
      expect(await podsCreatedByLabel(ns, selectorOf(labels), 4)).toHaveLength(4);
    },
    TEST_MS,
  );

  it(
    'ReplicaSet Replace and Patch tests',
    async () => {
      const ns = await createNamespace('replicaset');
      startController(ns);
      const podName = 'sample-pod';
      const labels = { name: podName, pod: AGNHOST_NAME };
      const rsName = 'test-rs';
      const label = 'test-rs=patched';
      const rsPatchReplicas = 3;
      const list = await apps.listReplicaSetForAllNamespaces({ labelSelector: label });
      const created = await apps.createNamespacedReplicaSet({ namespace: ns, body: newRS(rsName, 1, labels, AGNHOST_NAME, AGNHOST) });
      expect(validRV(created.metadata!.resourceVersion), created.metadata!.resourceVersion).toBe(true);
      await verifyPodsRunning(ns, `name=${podName}`, 1);
      // scaling up
      await updateRS(ns, rsName, (r) => {
        r.spec!.replicas = 2;
      });
      // patching: a label, 3 replicas, a grace period and a container of the same name as the ReplicaSet
      const patched = await apps.patchNamespacedReplicaSet(
        {
          namespace: ns,
          name: rsName,
          body: {
            metadata: { labels: { 'test-rs': 'patched' } },
            spec: {
              replicas: rsPatchReplicas,
              template: { spec: { terminationGracePeriodSeconds: 0, containers: [{ name: rsName, image: PAUSE }] } },
            },
          },
        },
        strategic(),
      );
      expect(
        BigInt(patched.metadata!.resourceVersion!) > BigInt(created.metadata!.resourceVersion!),
        'patched object should have a larger resource version',
      ).toBe(true);
      const found = await watchUntil<V1ReplicaSet>(
        `/apis/apps/v1/namespaces/${ns}/replicasets`,
        label,
        list.metadata!.resourceVersion!,
        `${rsName} patched with ${rsPatchReplicas} ready and available replicas`,
        (r) =>
          r.metadata?.name === rsName &&
          r.metadata.labels?.['test-rs'] === 'patched' &&
          r.status?.readyReplicas === rsPatchReplicas &&
          r.status?.availableReplicas === rsPatchReplicas &&
          r.spec?.template?.spec?.containers[0].image === PAUSE &&
          r.spec.template.spec.terminationGracePeriodSeconds === 0,
      );
      // beyond upstream: the strategic merge put the patch's container first (merged by name, the
      // server's own after it), and the controller's pods are the 3 it counts
      expect(found.spec!.template!.spec!.containers.map((c) => c.name)).toEqual([rsName, AGNHOST_NAME]);
      const pods = await podsCreatedByLabel(ns, selectorOf(labels), rsPatchReplicas);
      for (const p of pods) expect(controlledBy(p, created.metadata!.uid!)).toBe(true);
    },
    TEST_MS,
  );

  it(
    'ReplicaSet should list and delete a collection of ReplicaSets',
    async () => {
      const ns = await createNamespace('replicaset');
      startController(ns);
      const rsName = 'test-rs';
      const replicas = 3;
      const e2eValue = randomUUID().slice(0, 5);
      const podName = 'sample-pod';
      const labels = { name: podName, pod: AGNHOST_NAME, e2e: e2eValue };
      await apps.createNamespacedReplicaSet({ namespace: ns, body: newRS(rsName, replicas, labels, AGNHOST_NAME, AGNHOST) });
      await verifyPodsRunning(ns, `name=${podName}`, replicas);
      await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName });
      // listing every ReplicaSet with the label
      const listed = await apps.listReplicaSetForAllNamespaces({ labelSelector: `e2e=${e2eValue}` });
      expect(listed.items, "filtered list wasn't found").toHaveLength(1);
      // DeleteCollection of the ReplicaSets, grace period 1
      await apps.deleteCollectionNamespacedReplicaSet({ namespace: ns, gracePeriodSeconds: 1, labelSelector: `e2e=${e2eValue}` });
      const after = await apps.listReplicaSetForAllNamespaces({ labelSelector: `e2e=${e2eValue}` });
      expect(after.items, 'filtered list should have no replicas').toEqual([]);
      // beyond upstream: apps/v1 deletes in the background; the garbage collector takes the pods,
      // and no controller replaces them
      await waitFor('the pods collected', async () => (await core.listNamespacedPod({ namespace: ns, labelSelector: `e2e=${e2eValue}` })).items.length === 0);
    },
    TEST_MS,
  );

  it(
    'ReplicaSet should validate Replicaset Status endpoints',
    async () => {
      const ns = await createNamespace('replicaset');
      startController(ns);
      const podName = 'sample-pod';
      const labels = { name: podName, pod: AGNHOST_NAME };
      const labelSelector = selectorOf(labels);
      const rsName = 'test-rs';
      const path = `/apis/apps/v1/namespaces/${ns}/replicasets`;
      const list = await apps.listReplicaSetForAllNamespaces({ labelSelector });
      const rv = list.metadata!.resourceVersion!;
      const testReplicaSet = await apps.createNamespacedReplicaSet({ namespace: ns, body: newRS(rsName, 1, labels, AGNHOST_NAME, AGNHOST) });
      await verifyPodsRunning(ns, `name=${podName}`, 1);
      // getting /status: the whole ReplicaSet
      const rsStatus = await apps.readNamespacedReplicaSetStatus({ namespace: ns, name: rsName });
      expect(rsStatus).toMatchObject({ kind: 'ReplicaSet', apiVersion: 'apps/v1', metadata: { name: rsName, uid: testReplicaSet.metadata!.uid } });
      expect(rsStatus.spec?.replicas).toBe(1);
      // updating the status: a condition added
      const updated = await retryOnConflict(async () => {
        const toUpdate = await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName });
        toUpdate.status!.conditions = [
          ...(toUpdate.status!.conditions ?? []),
          { type: 'StatusUpdate', status: 'True', reason: 'E2E', message: 'Set from e2e test' },
        ];
        return apps.replaceNamespacedReplicaSetStatus({ namespace: ns, name: rsName, body: toUpdate });
      });
      expect(updated.status?.conditions?.map((c) => c.type)).toContain('StatusUpdate');
      const sameRS = (r: V1ReplicaSet) =>
        r.metadata?.name === rsName &&
        r.metadata.namespace === ns &&
        r.metadata.labels?.name === testReplicaSet.metadata!.labels!.name &&
        r.metadata.labels?.pod === testReplicaSet.metadata!.labels!.pod;
      // watching for it, from the list's resourceVersion
      await watchUntil<V1ReplicaSet>(path, labelSelector, rv, 'the StatusUpdate condition', (r) =>
        Boolean(sameRS(r) && r.status?.conditions?.some((c) => c.type === 'StatusUpdate' && c.reason === 'E2E' && c.message === 'Set from e2e test')),
      );
      // patching the status (merge patch): the conditions replaced
      const patched = await apps.patchNamespacedReplicaSetStatus(
        { namespace: ns, name: rsName, body: { status: { conditions: [{ type: 'StatusPatched', status: 'True' }] } } },
        merge(),
      );
      // beyond upstream: a merge patch replaces the list, and keeps the rest of the status
      expect(patched.status?.conditions).toEqual([{ type: 'StatusPatched', status: 'True' }]);
      expect(patched.status?.replicas).toBe(1);
      // watching for it, from the list's resourceVersion again
      await watchUntil<V1ReplicaSet>(path, labelSelector, rv, 'the StatusPatched condition', (r) =>
        Boolean(sameRS(r) && r.status?.conditions?.some((c) => c.type === 'StatusPatched')),
      );
      // beyond upstream: the controller keeps the conditions it does not own. A scale to 2 shows
      // when it has synced after the patch (the status observes the new generation)
      const scaled = await updateRS(ns, rsName, (r) => {
        r.spec!.replicas = 2;
      });
      const synced = await waitFor('the scale to 2 observed', async () => {
        const got = await apps.readNamespacedReplicaSet({ namespace: ns, name: rsName });
        return (got.status?.observedGeneration ?? 0) >= scaled.metadata!.generation! && got.status?.replicas === 2 && got;
      });
      expect(synced.status?.conditions?.map((c) => c.type)).toEqual(['StatusPatched']);
    },
    TEST_MS,
  );

  // -------------------------------------------------------------------------------------------
  // test/e2e/apps/rc.go

  it(
    'ReplicationController should serve a basic image on each replica with a public image',
    async () => {
      await serveImage('ReplicationController', 'basic', AGNHOST);
    },
    TEST_MS,
  );

  it(
    'ReplicationController should serve a basic image on each replica with a private image',
    async () => {
      await serveImage('ReplicationController', 'private', AGNHOST_PRIVATE);
    },
    TEST_MS,
  );

  it(
    'ReplicationController should adopt matching pods on creation',
    async () => {
      const ns = await createNamespace('replication-controller');
      startController(ns);
      const name = 'pod-adoption';
      const p = await createPodSync(ns, name, { name }, AGNHOST);
      const rcSt = newRC(name, 1, { name }, name, AGNHOST);
      rcSt.spec!.selector = { name };
      const rc = await core.createNamespacedReplicationController({ namespace: ns, body: rcSt });
      const uid = rc.metadata!.uid!;
      await waitFor(`${name} adopted or deleted`, async () => {
        const got = await readPod(ns, p.metadata!.name!);
        return got === null || controlledBy(got, uid);
      });
      // beyond upstream: adopted, not replaced; the status counts it
      await waitFor('status.replicas 1, ready', async () => {
        const s = (await core.readNamespacedReplicationController({ namespace: ns, name })).status;
        return s?.replicas === 1 && s.readyReplicas === 1;
      });
      const pods = await podsCreatedByLabel(ns, `name=${name}`, 1);
      expect(pods[0].metadata!.name).toBe(name);
      expect(controllerOf(pods[0])).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController', name, uid, controller: true, blockOwnerDeletion: true });
    },
    TEST_MS,
  );

  it(
    'ReplicationController should release no longer matching pods',
    async () => {
      const ns = await createNamespace('replication-controller');
      startController(ns);
      const name = 'pod-release';
      const labels = { name };
      const rcSt = newRC(name, 1, labels, name, AGNHOST);
      rcSt.spec!.selector = labels;
      const rc = await core.createNamespacedReplicationController({ namespace: ns, body: rcSt });
      const uid = rc.metadata!.uid!;
      const pods = await podsCreatedByLabel(ns, selectorOf(labels), 1);
      const podName = pods[0].metadata!.name!;
      expect(controlledBy(pods[0], uid)).toBe(true);
      await relabelPod(ns, podName, { name: 'not-matching-name' });
      await waitFor(`${podName} released`, async () => !controlledBy(await core.readNamespacedPod({ namespace: ns, name: podName }), uid));
      // beyond upstream: released (no owner reference left), kept, and replaced
      const replacement = await waitFor('a replacement, ready', async () => {
        const s = (await core.readNamespacedReplicationController({ namespace: ns, name })).status;
        const live = await podsCreatedByLabel(ns, selectorOf(labels), 1);
        return s?.replicas === 1 && s.readyReplicas === 1 && live[0].metadata!.name !== podName && live[0];
      });
      expect(controlledBy(replacement, uid)).toBe(true);
      const released = await core.readNamespacedPod({ namespace: ns, name: podName });
      expect(released.metadata!.ownerReferences ?? []).toEqual([]);
      expect(released.metadata!.deletionTimestamp).toBeUndefined();
    },
    TEST_MS,
  );

  it(
    'ReplicationController should test the lifecycle of a ReplicationController',
    async () => {
      const ns = await createNamespace('replication-controller');
      startController(ns);
      const name = 'rc-test';
      const initial = 1;
      const max = 2;
      const staticLabels = { 'test-rc-static': 'true' };
      const selector = 'test-rc-static=true';
      const rcTest: V1ReplicationController = {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name, labels: staticLabels },
        spec: {
          replicas: initial,
          selector: staticLabels,
          template: { metadata: { name, labels: staticLabels }, spec: { containers: [{ name, image: NGINX }] } },
        },
      };
      // WatchEventSequenceVerifier: a retrying watch from a list of what the selector matches
      const list = await core.listNamespacedReplicationController({ namespace: ns, labelSelector: selector });
      const w = watchFeed<V1ReplicationController>(`/api/v1/namespaces/${ns}/replicationcontrollers`, selector, list.metadata!.resourceVersion!);
      const actual: string[] = [];
      /** The next event of `type`, recorded. */
      const record = async (type: string) => actual.push((await w.next(type, (e) => e.type === type)).type);
      const status = (e: { object: V1ReplicationController }) => e.object.status;

      // creating it
      const created = await core.createNamespacedReplicationController({ namespace: ns, body: rcTest });
      expect(validRV(created.metadata!.resourceVersion), created.metadata!.resourceVersion).toBe(true);
      await record('ADDED');
      await w.next(`${initial} ready replica`, (e) => status(e)?.replicas === initial && status(e)?.readyReplicas === initial);

      // patching its labels (strategic merge; the payload is a whole ReplicationController as Go
      // writes it: zero spec and status too, which a patch of the main resource does not change)
      const patched = await core.patchNamespacedReplicationController(
        { namespace: ns, name, body: { metadata: { labels: { 'test-rc': 'patched' }, creationTimestamp: null }, spec: {}, status: { replicas: 0 } } },
        strategic(),
      );
      expect(patched.metadata!.labels).toMatchObject({ 'test-rc': 'patched' });
      // beyond upstream: the payload's zero status is not written through the main resource
      expect(patched.status?.replicas).toBe(initial);
      expect(
        BigInt(patched.metadata!.resourceVersion!) > BigInt(created.metadata!.resourceVersion!),
        'patched object should have a larger resource version',
      ).toBe(true);
      await record('MODIFIED');

      // patching its status
      const statusPatched = await core.patchNamespacedReplicationControllerStatus(
        { namespace: ns, name, body: { status: { readyReplicas: 0, availableReplicas: 0 } } },
        strategic(),
      );
      expect(statusPatched.status?.readyReplicas ?? 0, "ReplicationControllerStatus's readyReplicas does not equal 0").toBe(0);
      await record('MODIFIED');
      await w.next(`${initial} replica`, (e) => status(e)?.replicas === initial);
      // beyond upstream: the controller syncs on the status change and counts its ready pod again
      const after = (rv: string | undefined) => (e: { object: V1ReplicationController }) => BigInt(e.object.metadata!.resourceVersion!) > BigInt(rv!);
      await w.find(
        'readyReplicas 1 again, written by the controller',
        (e) => after(statusPatched.metadata!.resourceVersion)(e) && status(e)?.readyReplicas === initial,
      );
      const rcStatus = await core.readNamespacedReplicationControllerStatus({ namespace: ns, name });
      expect(rcStatus.status?.replicas).toBe(initial);

      // patching its scale (strategic merge)
      await core.patchNamespacedReplicationControllerScale({ namespace: ns, name, body: scalePatch(max) }, strategic());
      await record('MODIFIED');
      await w.next(
        `${max} ready replicas`,
        (e) => e.object.metadata?.name === name && e.object.metadata.namespace === ns && status(e)?.replicas === max && status(e)?.readyReplicas === max,
      );

      // the label patch kept
      const rc = await core.readNamespacedReplicationController({ namespace: ns, name });
      expect(rc.metadata!.labels, 'ReplicationController is missing a label from earlier patch').toMatchObject({ 'test-rc': 'patched' });

      // replacing its status (upstream sends the object it just read: no retry)
      rc.status!.availableReplicas = 1;
      rc.status!.readyReplicas = 1;
      const replaced = await core.replaceNamespacedReplicationControllerStatus({ namespace: ns, name, body: rc });
      await record('MODIFIED');
      // beyond upstream: the controller puts its counts back
      await w.find(
        `${max} ready and available again, written by the controller`,
        (e) => after(replaced.metadata!.resourceVersion)(e) && status(e)?.readyReplicas === max && status(e)?.availableReplicas === max,
      );

      // listing every ReplicationController with the label
      const rcs = await core.listReplicationControllerForAllNamespaces({ labelSelector: selector });
      expect(rcs.items.length, 'Expected to find a ReplicationController but none was found').toBeGreaterThan(0);
      const foundRc = rcs.items.some(
        (r) =>
          r.metadata!.name === name &&
          r.metadata!.namespace === ns &&
          r.metadata!.labels?.['test-rc-static'] === 'true' &&
          r.metadata!.labels?.['test-rc'] === 'patched',
      );
      expect(foundRc, JSON.stringify(rcs.items.map((r) => r.metadata))).toBe(true);

      // deleting by collection (core/v1's default propagation: orphan), until the DELETED event
      await core.deleteCollectionNamespacedReplicationController({ namespace: ns, labelSelector: selector });
      await record('DELETED');
      expect(actual).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED']);

      // beyond upstream: orphaned, the two pods stay, without an owner
      const pods = await podsCreatedByLabel(ns, selector, max);
      for (const p of pods) expect(p.metadata!.ownerReferences ?? [], p.metadata!.name).toEqual([]);
      // upstream's cleanup
      await core.deleteCollectionNamespacedReplicationController({ namespace: ns, labelSelector: selector });
    },
    TEST_MS,
  );

  it(
    'ReplicationController should get and update a ReplicationController scale',
    async () => {
      const ns = await createNamespace('replication-controller');
      startController(ns);
      const rcName = `e2e-rc-${randomUUID().slice(0, 5)}`;
      const initial = 1;
      const expected = 2;
      const created = await core.createNamespacedReplicationController({
        namespace: ns,
        body: newRC(rcName, initial, { name: rcName }, AGNHOST_NAME, AGNHOST),
      });
      // beyond upstream: newRC sets neither selector nor labels; both are defaulted from the template's
      expect(created.spec?.selector).toEqual({ name: rcName });
      expect(created.metadata?.labels).toEqual({ name: rcName });
      const replicasAre = (n: number) => async () => (await core.readNamespacedReplicationController({ namespace: ns, name: rcName })).status?.replicas === n;
      await waitFor(`${initial} replica`, replicasAre(initial));
      // getting the scale subresource
      const scale = await core.readNamespacedReplicationControllerScale({ namespace: ns, name: rcName });
      expect(scale.status?.replicas, 'Failed to get the current replica count').toBe(initial);
      // updating it, unconditionally
      scale.metadata!.resourceVersion = '';
      scale.spec!.replicas = expected;
      await core.replaceNamespacedReplicationControllerScale({ namespace: ns, name: rcName, body: scale });
      await waitFor(`${expected} replicas`, replicasAre(expected));
      // beyond upstream: the scale's selector is the defaulted one, and the controller made the pods
      expect(scale.status?.selector).toBe(`name=${rcName}`);
      expect(await podsCreatedByLabel(ns, `name=${rcName}`, expected)).toHaveLength(expected);
    },
    TEST_MS,
  );
});
