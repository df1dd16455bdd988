// Upstream's Deployment e2e tests (kubernetes/kubernetes test/e2e/apps/deployment.go, with the
// helpers of test/e2e/framework/deployment and test/utils/deployment.go), each run against `run`
// with its ReplicaSet and Deployment controllers on the sandbox: its simulated scheduler and kubelet
// (nodes > 0) run the pods and make them Ready as a cluster's would, its garbage collector removes
// what a deleted owner leaves. Each `it` is named after upstream's ginkgo.It / ConformanceIt. The
// scenarios are upstream's; the code is this project's.
//
// What cannot be the same here:
// - Images: the kubelet is simulated, every pod runs and turns Ready whatever its image. Where
//   upstream uses an image that never pulls to hold a rollout (rollover, proportional scaling),
//   the template also gets a node selector no node has: its pods stay Pending, never Ready, as
//   upstream's stay in ImagePullBackOff.
// - The pod-template-hash is rs-reconcile's own (docs/deployment-controller.md §0): only its
//   structure is checked, never its value.
// - Upstream polls every 2 s; here every 100 ms, with generous deadlines, on final states.
//
// Not ported: the two DeploymentPodReplacementPolicy tests (the gate, alpha and off by default, and
// spec.podReplacementPolicy are not emulated by run, docs/deployment-controller.md §0, nor served by
// the sandbox, and they need a real container's preStop sleep), and "should not disrupt a cloud
// load-balancer's connectivity during rollout" (a cloud load balancer, a Service's endpoints,
// required pod anti-affinity: none of them in the sandbox).
import {
  ApiException,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Deployment,
  type V1DeploymentStatus,
  type V1Pod,
  type V1PodTemplateSpec,
  type V1ReplicaSet,
  Watch,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { skipAllIf } from '../skips.js';
import { foregroundOptions, sandboxOnlyReason, sandboxTests, type SandboxEnv } from './env.js';
import {
  controllerOf,
  creation,
  deploymentComplete,
  DESIRED,
  equalIgnoreHash,
  eventually,
  fenceposts,
  HASH,
  MAX,
  REVISION,
  sizes,
  TIMEOUT_MS,
} from './upstream-deployment-util.js';

const t = sandboxTests('rs-e2e-deploy-');

const NS = 'default';
const TEST_MS = 120_000;

const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

// upstream's image names (imageutils), as strings: the kubelet runs any
const WEBSERVER = { name: 'httpd', image: 'registry.k8s.io/e2e-test-images/httpd:2.4.38-4' };
const AGNHOST = { name: 'agnhost', image: 'registry.k8s.io/e2e-test-images/agnhost:2.53' };
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
/** A node selector no node of the sandbox has: the pods of a template with it never run (upstream's image that never pulls). */
const NEVER_READY = { 'e2e.rs-reconcile.test/no-such-node': 'true' };

const smp = () => setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

interface Env extends SandboxEnv {
  /** upstream's deployment tests, on this sandbox */
  d: Tester;
}

/** A sandbox with nodes (the kubelet makes pods Ready a few ms after they are created) and `run` with both controllers. */
async function setup(): Promise<Env> {
  const e = await t.start({ nodes: 3, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 } });
  t.run(foregroundOptions(e.kubeconfig, { namespace: NS, kinds: ['ReplicaSet'], deployment: true, qps: 1000, burst: 1000 }));
  return { ...e, d: new Tester(e) };
}

const isCode = (e: unknown, code: number) => e instanceof ApiException && e.code === code;

/** An event of a watch. */
interface WatchEvent {
  type: string;
  object: any;
}

/**
 * watchtools.Until: a watch of `path` from `resourceVersion` (with `params`), until `done` says
 * an event is the one waited for (its object returned); `done` throwing fails the wait.
 */
async function watchUntil(kc: KubeConfig, path: string, params: Record<string, string>, done: (e: WatchEvent) => boolean, ms = TIMEOUT_MS): Promise<any> {
  let last = '';
  let ctrl: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<any>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out watching ${path}${last ? `; last event: ${last}` : ''}`)), ms);
      new Watch(kc)
        .watch(
          path,
          params,
          (type, object) => {
            last = `${type} ${JSON.stringify(brief(object?.status))}`;
            try {
              if (done({ type, object })) resolve(object);
            } catch (err) {
              reject(err);
            }
          },
          (err) => {
            if (err && (err as Error).name !== 'AbortError') reject(new Error(`watch of ${path} ended: ${String(err)}`));
          },
        )
        .then((c) => {
          ctrl = c;
        }, reject);
    });
  } finally {
    clearTimeout(timer);
    ctrl?.abort();
  }
}

/** A watch collecting every event of `path` from `resourceVersion`, until stopped (or the test ends). */
async function collect(kc: KubeConfig, path: string, params: Record<string, string>): Promise<{ events: WatchEvent[]; stop(): void }> {
  const events: WatchEvent[] = [];
  const ctrl = await new Watch(kc).watch(
    path,
    params,
    (type, object) => events.push({ type, object }),
    () => undefined,
  );
  // closed with the test's runs, should the test fail before it stops it
  t.stopper(async () => undefined).signal.addEventListener('abort', () => ctrl.abort());
  return { events, stop: () => ctrl.abort() };
}

// ---- upstream's fixtures ----

/** e2edeployment.NewDeployment: the pod labels on the Deployment, its selector and its template; no grace period. */
function newDeployment(
  name: string,
  replicas: number,
  podLabels: Record<string, string>,
  container: { name: string; image: string },
  strategy: 'RollingUpdate' | 'Recreate',
): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { ...podLabels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...podLabels } },
      strategy: { type: strategy },
      template: {
        metadata: { labels: { ...podLabels } },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: container.name, image: container.image, securityContext: {} }] },
      },
    },
  };
}

/** newRS (test/e2e/apps): a ReplicaSet of its own, to be adopted. */
function newRS(name: string, replicas: number, podLabels: Record<string, string>, container: { name: string; image: string }): V1ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, labels: { ...podLabels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...podLabels } },
      template: {
        metadata: { labels: { ...podLabels } },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: container.name, image: container.image, securityContext: {} }] },
      },
    },
  };
}

const labelSelector = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

function brief(s: V1DeploymentStatus | undefined): Record<string, unknown> {
  const { replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, observedGeneration } = s ?? {};
  const conditions = (s?.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason}`);
  return { replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, observedGeneration, conditions };
}

const hasImage = (x: V1PodTemplateSpec | undefined, image: string) => (x?.spec?.containers ?? []).some((c) => c.image === image);

/** The calls of upstream's helpers, on one sandbox's namespace. */
class Tester {
  constructor(readonly e: SandboxEnv) {}

  create(d: V1Deployment): Promise<V1Deployment> {
    return this.e.apps.createNamespacedDeployment({ namespace: NS, body: d });
  }

  read(name: string): Promise<V1Deployment> {
    return this.e.apps.readNamespacedDeployment({ namespace: NS, name });
  }

  readRS(name: string): Promise<V1ReplicaSet> {
    return this.e.apps.readNamespacedReplicaSet({ namespace: NS, name });
  }

  /** deploymentutil.ListReplicaSets: the ReplicaSets its selector matches that it controls, oldest first. */
  async replicaSets(d: V1Deployment): Promise<V1ReplicaSet[]> {
    const items = (await this.e.apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: labelSelector(d.spec!.selector.matchLabels!) })).items;
    return items
      .filter((rs) => controllerOf(rs)?.uid === d.metadata?.uid)
      .sort((a, b) => creation(a) - creation(b) || a.metadata!.name!.localeCompare(b.metadata!.name!));
  }

  /** GetAllReplicaSets: the old ones with replicas, all old ones, the new one (or null). */
  async allReplicaSets(d: V1Deployment): Promise<{ old: V1ReplicaSet[]; allOld: V1ReplicaSet[]; neu: V1ReplicaSet | null }> {
    const rss = await this.replicaSets(d);
    const neu = rss.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template)) ?? null;
    const allOld = rss.filter((rs) => rs !== neu);
    return { old: allOld.filter((rs) => (rs.spec?.replicas ?? 1) !== 0), allOld, neu };
  }

  /** testutil.GetNewReplicaSet. */
  async newReplicaSet(d: V1Deployment): Promise<V1ReplicaSet | null> {
    return (await this.allReplicaSets(d)).neu;
  }

  /** UpdateDeploymentWithRetries. */
  updateWithRetries(name: string, change: (d: V1Deployment) => void): Promise<V1Deployment> {
    return eventually(`update of deployment ${name}`, async (seen) => {
      const d = await this.read(name);
      change(d);
      try {
        return await this.e.apps.replaceNamespacedDeployment({ namespace: NS, name, body: d });
      } catch (err) {
        if (isCode(err, 409)) {
          seen('409 Conflict');
          return null;
        }
        throw err;
      }
    });
  }

  /** checkRevisionAndImage: null when the Deployment and its new ReplicaSet (the hash in its selector) are at `revision` with `image`, else why not. */
  private async revisionAndImage(name: string, revision: string, image: string): Promise<string | null> {
    const d = await this.read(name);
    const rs = await this.newReplicaSet(d);
    if (!rs) return `new replicaset for deployment ${name} is yet to be created`;
    if (!rs.spec?.selector?.matchLabels?.[HASH]) return `new replica set ${rs.metadata?.name} doesn't have the ${HASH} label selector`;
    if (d.metadata?.annotations?.[REVISION] !== revision) return `deployment ${name} at revision ${d.metadata?.annotations?.[REVISION]}, not ${revision}`;
    if (rs.metadata?.annotations?.[REVISION] !== revision)
      return `new replicaset ${rs.metadata?.name} at revision ${rs.metadata?.annotations?.[REVISION]}, not ${revision}`;
    if (!hasImage(d.spec?.template, image)) return `deployment ${name} doesn't have image ${image}`;
    if (!hasImage(rs.spec?.template, image)) return `new replica set ${rs.metadata?.name} doesn't have image ${image}`;
    return null;
  }

  /** WaitForDeploymentRevisionAndImage. */
  async waitForRevisionAndImage(name: string, revision: string, image: string): Promise<void> {
    await eventually(`deployment ${name} and its new replicaset at revision ${revision} with image ${image}`, async (seen) => {
      const why = await this.revisionAndImage(name, revision, image);
      if (why) seen(why);
      return why === null;
    });
  }

  /** CheckDeploymentRevisionAndImage: as it is now. */
  async checkRevisionAndImage(name: string, revision: string, image: string): Promise<void> {
    expect(await this.revisionAndImage(name, revision, image)).toBeNull();
  }

  /** checkRollingUpdateStatus: the pods created at most replicas + maxSurge, the available ones at least replicas − maxUnavailable. */
  private async checkRolling(d: V1Deployment): Promise<void> {
    const { old, allOld, neu } = await this.allReplicaSets(d);
    if (!neu) return;
    const all = [...old, neu];
    if (!all.every((rs) => rs.spec?.selector?.matchLabels?.[HASH])) return;
    const created = all.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
    const { surge, unavailable } = fenceposts(d);
    const replicas = d.spec?.replicas ?? 1;
    expect(created, `total pods created more than the max allowed (${sizes([...allOld, neu])})`).toBeLessThanOrEqual(replicas + surge);
    expect(d.status?.availableReplicas ?? 0, `total pods available less than the min required (${JSON.stringify(brief(d.status))})`).toBeGreaterThanOrEqual(
      replicas - unavailable,
    );
  }

  /** WaitForDeploymentComplete, and with `rolling` WaitForDeploymentCompleteAndCheckRolling: complete for what `want` says. */
  waitForComplete(want: V1Deployment, opts: { rolling?: boolean } = {}): Promise<V1Deployment> {
    return eventually(`deployment ${want.metadata?.name} complete`, async (seen) => {
      const d = await this.read(want.metadata!.name!);
      seen(JSON.stringify(brief(d.status)));
      if (opts.rolling) await this.checkRolling(d);
      return deploymentComplete(want, d.status) ? d : null;
    });
  }

  /** WaitForObservedDeployment. */
  waitForObserved(name: string, generation: number): Promise<V1Deployment> {
    return eventually(`deployment ${name} observed at generation ${generation}`, async (seen) => {
      const d = await this.read(name);
      seen(JSON.stringify(brief(d.status)));
      return (d.status?.observedGeneration ?? 0) >= generation ? d : null;
    });
  }

  /** WaitForDeploymentUpdatedReplicasGTE. */
  waitForUpdatedReplicasGTE(name: string, n: number, generation: number): Promise<V1Deployment> {
    return eventually(`deployment ${name} with at least ${n} updated replicas`, async (seen) => {
      const d = await this.read(name);
      seen(JSON.stringify(brief(d.status)));
      return (d.status?.observedGeneration ?? 0) >= generation && (d.status?.updatedReplicas ?? 0) >= n ? d : null;
    });
  }

  /** WaitForDeploymentWithCondition. */
  waitForCondition(name: string, reason: string, type: 'Progressing' | 'Available'): Promise<V1Deployment> {
    return eventually(`deployment ${name} with condition ${type} reason ${reason}`, async (seen) => {
      const d = await this.read(name);
      seen(JSON.stringify(brief(d.status)));
      return d.status?.conditions?.find((c) => c.type === type)?.reason === reason ? d : null;
    });
  }

  /** waitForDeploymentOldRSsNum. */
  waitForOldReplicaSets(name: string, n: number): Promise<boolean> {
    return eventually(`deployment ${name} with ${n} old replica sets`, async (seen) => {
      const d = await this.read(name);
      const { allOld } = await this.allReplicaSets(d);
      seen(sizes(allOld));
      return allOld.length === n;
    });
  }

  /** waitForReplicaSetTargetSpecReplicas: spec.replicas at `n`, the status observed from `rs`'s generation on. */
  waitForRSSpecReplicas(rs: V1ReplicaSet, n: number): Promise<V1ReplicaSet> {
    return eventually(`replicaset ${rs.metadata?.name} with spec.replicas ${n}`, async (seen) => {
      const cur = await this.readRS(rs.metadata!.name!);
      seen(`spec ${cur.spec?.replicas}, observed ${cur.status?.observedGeneration} of ${cur.metadata?.generation}`);
      return (cur.status?.observedGeneration ?? 0) >= (rs.metadata?.generation ?? 0) && cur.spec?.replicas === n ? cur : null;
    });
  }

  /** WaitForReplicaSetTargetAvailableReplicas. */
  waitForRSAvailableReplicas(rs: V1ReplicaSet, n: number): Promise<V1ReplicaSet> {
    return eventually(`replicaset ${rs.metadata?.name} with ${n} available replicas`, async (seen) => {
      const cur = await this.readRS(rs.metadata!.name!);
      seen(`available ${cur.status?.availableReplicas}, observed ${cur.status?.observedGeneration} of ${cur.metadata?.generation}`);
      return (cur.status?.observedGeneration ?? 0) >= (rs.metadata?.generation ?? 0) && (cur.status?.availableReplicas ?? 0) === n ? cur : null;
    });
  }

  /** waitForReplicaSetDesiredReplicas: status.replicas at spec.replicas (both `rs`'s and the current one's). */
  waitForRSDesiredReplicas(rs: V1ReplicaSet): Promise<V1ReplicaSet> {
    return eventually(`replicaset ${rs.metadata?.name} with its desired replicas`, async (seen) => {
      const cur = await this.readRS(rs.metadata!.name!);
      seen(`${cur.spec?.replicas}/${cur.status?.replicas}`);
      return (cur.status?.observedGeneration ?? 0) >= (rs.metadata?.generation ?? 0) &&
        cur.status?.replicas === rs.spec?.replicas &&
        cur.status?.replicas === cur.spec?.replicas
        ? cur
        : null;
    });
  }

  /** e2ereplicaset.WaitForReadyReplicaSet. */
  waitForReadyRS(name: string): Promise<V1ReplicaSet> {
    return eventually(`replicaset ${name} ready`, async () => {
      const rs = await this.readRS(name);
      return (rs.status?.readyReplicas ?? 0) === rs.spec?.replicas ? rs : null;
    });
  }

  /** e2epod.VerifyPodsRunning(…, name, false, n): n pods labelled name=`label`, not being deleted, all Running. */
  verifyPodsRunning(label: string, n: number): Promise<V1Pod[]> {
    return eventually(`${n} pods name=${label} running`, async (seen) => {
      const pods = (await this.e.core.listNamespacedPod({ namespace: NS, labelSelector: `name=${label}` })).items.filter((p) => !p.metadata?.deletionTimestamp);
      seen(pods.map((p) => `${p.metadata?.name}:${p.status?.phase}`).join(' '));
      return pods.length === n && pods.every((p) => p.status?.phase === 'Running') ? pods : null;
    });
  }

  /** The pods of the namespace `labels` match. */
  async pods(labels: Record<string, string>): Promise<V1Pod[]> {
    return (await this.e.core.listNamespacedPod({ namespace: NS, labelSelector: labelSelector(labels) })).items;
  }
}

/** checkRSHashLabels: the hash on the ReplicaSet's labels, selector and template, ending its name. */
function expectHashStructure(rs: V1ReplicaSet, deployment: string): void {
  const hash = rs.metadata?.labels?.[HASH];
  expect(hash, `replicaset ${rs.metadata?.name} ${HASH} label`).toBeTruthy();
  expect(rs.spec?.selector?.matchLabels?.[HASH]).toBe(hash);
  expect(rs.spec?.template?.metadata?.labels?.[HASH]).toBe(hash);
  expect(rs.metadata?.name).toBe(`${deployment}-${hash}`);
}

/** A small seeded generator (mulberry32): upstream's math/rand, reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * testRollingUpdateDeployment: a ReplicaSet of its own at revision `adopted`, adopted by a new
 * Deployment whose template differs: its new ReplicaSet at the next revision, `next`, the adopted
 * one its only old one.
 */
async function rollingUpdateDeployment(adopted: string, next: string): Promise<void> {
  const { d: x } = await setup();
  const rsLabels = { name: 'sample-pod', pod: WEBSERVER.name };
  const rs = newRS('test-rolling-update-controller', 1, rsLabels, WEBSERVER);
  rs.metadata!.annotations = { [REVISION]: adopted };
  await x.e.apps.createNamespacedReplicaSet({ namespace: NS, body: rs });
  await x.verifyPodsRunning('sample-pod', 1);

  const d = newDeployment('test-rolling-update-deployment', 1, { name: 'sample-pod' }, AGNHOST, 'RollingUpdate');
  const created = await x.create(d);
  await x.waitForRevisionAndImage('test-rolling-update-deployment', next, AGNHOST.image);
  await x.waitForComplete(created);
  // one old ReplicaSet: the adopted one, scaled down
  const deployment = await x.read('test-rolling-update-deployment');
  const { allOld, neu } = await x.allReplicaSets(deployment);
  expect(allOld.map((r) => r.metadata?.name)).toEqual(['test-rolling-update-controller']);
  expect(controllerOf(allOld[0])?.uid).toBe(deployment.metadata?.uid);
  expect(allOld[0].spec?.replicas).toBe(0);
  expectHashStructure(neu!, 'test-rolling-update-deployment');
}

/**
 * The lifecycle of a Deployment (upstream's "should run the lifecycle of a Deployment"): created,
 * patched, listed, updated, its status read and patched, deleted by collection, each step seen
 * on a watch from before the create; the labels of a /status patch are not written
 * (deploymentStatusStrategy).
 */
async function lifecycle(): Promise<void> {
  const { d: x, apps, kc } = await setup();
  const name = 'test-deployment';
  const staticLabel = 'test-deployment-static=true';
  const list = await apps.listDeploymentForAllNamespaces({ labelSelector: staticLabel });
  const rv = list.metadata!.resourceVersion!;
  const watch = (done: (e: WatchEvent) => boolean) =>
    watchUntil(kc, `/apis/apps/v1/namespaces/${NS}/deployments`, { labelSelector: staticLabel, resourceVersion: rv }, done);
  const ours = (o: any) => o?.metadata?.name === name && o?.metadata?.labels?.['test-deployment-static'] === 'true';

  // creating a Deployment (its own labels a copy of its pods')
  const testDeployment = newDeployment(name, 2, { 'test-deployment-static': 'true' }, { name, image: AGNHOST.image }, 'RollingUpdate');
  testDeployment.spec!.template.spec!.terminationGracePeriodSeconds = 1;
  await x.create(testDeployment);
  await watch((e) => e.type === 'ADDED' && ours(e.object));
  await watch((e) => ours(e.object) && e.object.status?.readyReplicas === 2);

  // patching it: labels, replicas, grace period and image (containers merged by name)
  await apps.patchNamespacedDeployment(
    {
      namespace: NS,
      name,
      body: {
        metadata: { labels: { 'test-deployment': 'patched' } },
        spec: { replicas: 1, template: { spec: { terminationGracePeriodSeconds: 2, containers: [{ name, image: PAUSE_IMAGE }] } } },
      },
    },
    smp(),
  );
  await watch((e) => e.type === 'MODIFIED' && ours(e.object));
  await watch((e) => {
    const o = e.object;
    const s = o.status ?? {};
    return (
      ours(o) &&
      s.readyReplicas === 1 &&
      s.updatedReplicas === 1 &&
      (s.unavailableReplicas ?? 0) === 0 &&
      o.spec.template.spec.containers[0].image === PAUSE_IMAGE &&
      o.spec.template.spec.terminationGracePeriodSeconds === 2
    );
  });
  const patched = await x.read(name);
  expect(patched.metadata?.labels).toEqual({ 'test-deployment-static': 'true', 'test-deployment': 'patched' });
  expect(patched.spec?.template.spec?.containers.map((c) => [c.name, c.image])).toEqual([[name, PAUSE_IMAGE]]);

  // listing Deployments in all namespaces
  const listed = await apps.listDeploymentForAllNamespaces({ labelSelector: staticLabel });
  expect(listed.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([`${NS}/${name}`]);

  // updating it: the object as first written (no resourceVersion, no apiVersion or kind: as the
  // dynamic client sends an unstructured copy), with other labels, image and replicas
  const update: any = structuredClone(testDeployment);
  delete update.apiVersion;
  delete update.kind;
  update.metadata.labels['test-deployment'] = 'updated';
  update.spec.template.spec.containers[0].image = WEBSERVER.image;
  update.spec.replicas = 2;
  update.status = {};
  await apps.replaceNamespacedDeployment({ namespace: NS, name, body: update });
  await watch((e) => e.type === 'MODIFIED' && ours(e.object));

  // fetching the DeploymentStatus (the status subresource's GET is the whole object)
  const fetched = await apps.readNamespacedDeploymentStatus({ namespace: NS, name });
  expect(fetched.spec?.template.spec?.containers[0].image, 'failed to update image').toBe(WEBSERVER.image);
  expect(fetched.metadata?.labels?.['test-deployment'], 'failed to update labels').toBe('updated');
  await watch((e) => {
    const s = e.object.status ?? {};
    return ours(e.object) && s.readyReplicas === 2 && s.updatedReplicas === 2 && (s.unavailableReplicas ?? 0) === 0;
  });

  // patching the DeploymentStatus: the status written, the labels of the patch ignored (a /status write keeps metadata.labels)
  await apps.patchNamespacedDeploymentStatus(
    {
      namespace: NS,
      name,
      body: { metadata: { labels: { 'test-deployment': 'patched-status' } }, status: { readyReplicas: 0, availableReplicas: 0 } },
    },
    smp(),
  );
  await watch((e) => e.type === 'MODIFIED' && ours(e.object));
  const afterStatusPatch = await apps.readNamespacedDeploymentStatus({ namespace: NS, name });
  expect(afterStatusPatch.spec?.template.spec?.containers[0].image, 'failed to update image').toBe(WEBSERVER.image);
  expect(afterStatusPatch.metadata?.labels?.['test-deployment'], 'failed to update labels').toBe('updated');
  await watch((e) => {
    const o = e.object;
    const s = o.status ?? {};
    return (
      ours(o) &&
      s.readyReplicas === 2 &&
      s.updatedReplicas === 2 &&
      (s.unavailableReplicas ?? 0) === 0 &&
      o.spec.template.spec.containers[0].image === WEBSERVER.image
    );
  });
  // beyond upstream: the controller writes the true counts back over the patched ones
  await eventually('the status counts restored by the controller', async (seen) => {
    const s = (await x.read(name)).status;
    seen(JSON.stringify(brief(s)));
    return s?.readyReplicas === 2 && s.availableReplicas === 2;
  });

  // deleting the Deployment by collection
  await apps.deleteCollectionNamespacedDeployment({ namespace: NS, labelSelector: staticLabel, gracePeriodSeconds: 1 });
  await watch((e) => e.type === 'DELETED' && ours(e.object));
}

describe('upstream test/e2e/apps/deployment.go against run (ReplicaSet and Deployment controllers, simulated kubelet)', () => {
  skipAllIf(sandboxOnlyReason('the simulated scheduler and kubelet and the garbage collector'));

  it(
    'deployment reaping should cascade to its replica sets and pods',
    async () => {
      const { d: x } = await setup();
      const labels = { name: WEBSERVER.name };
      const d = newDeployment('test-new-deployment', 1, labels, WEBSERVER, 'RollingUpdate');
      d.metadata!.annotations = { test: 'should-copy-to-replica-set', [LAST_APPLIED]: 'should-not-copy-to-replica-set' };
      const created = await x.create(d);
      await x.waitForRevisionAndImage(d.metadata!.name!, '1', WEBSERVER.image);
      await x.waitForComplete(created);
      const deployment = await x.read('test-new-deployment');
      const rs = await x.newReplicaSet(deployment);
      expect(rs).not.toBeNull();
      expectHashStructure(rs!, 'test-new-deployment');
      expect((await x.pods(labels)).length).toBe(1);

      // stopDeployment: deleted (background propagation), its ReplicaSets and pods collected
      await x.e.apps.deleteNamespacedDeployment({ namespace: NS, name: 'test-new-deployment', propagationPolicy: 'Background' });
      await eventually('the deployment gone', async () => {
        try {
          await x.read('test-new-deployment');
          return false;
        } catch (err) {
          if (isCode(err, 404)) return true;
          throw err;
        }
      });
      // DeleteResourceAndWaitForGC: the pods the deployment's selector matched are gone
      await eventually('the pods collected', async (seen) => {
        const pods = await x.pods(labels);
        seen(pods.map((p) => p.metadata?.name).join(' '));
        return pods.length === 0;
      });
      const rss = (await x.e.apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: labelSelector(labels) })).items;
      expect(rss.map((r) => r.metadata?.name)).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'RollingUpdateDeployment should delete old pods and create new ones',
    // an adopted ReplicaSet at a revision above 2^53: the next is its int64 successor
    () => rollingUpdateDeployment('3546343826724305832', '3546343826724305833'),
    TEST_MS,
  );

  it(
    'RecreateDeployment should delete old pods and create new ones',
    async () => {
      const { d: x, kc } = await setup();
      const name = 'test-recreate-deployment';
      const d = newDeployment(name, 1, { name: 'sample-pod-3' }, AGNHOST, 'Recreate');
      const created = await x.create(d);
      await x.waitForRevisionAndImage(name, '1', AGNHOST.image);
      await x.waitForComplete(created);
      // beyond upstream: the pods' own events, from before the new rollout
      const before = await x.e.core.listNamespacedPod({ namespace: NS, labelSelector: 'name=sample-pod-3' });
      const oldPods = new Set(before.items.map((p) => p.metadata!.name!));
      expect(oldPods.size).toBe(1);
      const podEvents = await collect(kc, `/api/v1/namespaces/${NS}/pods`, { resourceVersion: before.metadata!.resourceVersion! });

      const updated = await x.updateWithRetries(name, (u) => {
        u.spec!.template.spec!.containers[0].name = WEBSERVER.name;
        u.spec!.template.spec!.containers[0].image = WEBSERVER.image;
      });
      // watchRecreateDeployment: from the update on, never new pods beside old ones, until complete
      const done = await watchUntil(
        kc,
        `/apis/apps/v1/namespaces/${NS}/deployments`,
        { fieldSelector: `metadata.name=${name}`, resourceVersion: updated.metadata!.resourceVersion! },
        ({ object: o }) => {
          const s: V1DeploymentStatus = o.status ?? {};
          if ((s.updatedReplicas ?? 0) > 0 && (s.replicas ?? 0) !== s.updatedReplicas) {
            throw new Error(`deployment ${name} is running new pods alongside old pods: ${JSON.stringify(brief(s))}`);
          }
          return o.spec.replicas === (s.replicas ?? 0) && o.spec.replicas === (s.updatedReplicas ?? 0) && o.metadata.generation <= (s.observedGeneration ?? 0);
        },
      );
      expect(done.status.updatedReplicas).toBe(1);
      const neu = await x.newReplicaSet(await x.read(name));
      expect(neu?.spec?.template?.spec?.containers[0].image).toBe(WEBSERVER.image);
      expect(neu?.metadata?.annotations?.[REVISION]).toBe('2');
      // the new pod created only once the old one was gone (deleted, not just terminating)
      const events = await eventually('the new pod on the pod watch', async () => {
        const evs = podEvents.events;
        return evs.some((e) => e.type === 'ADDED' && !oldPods.has(e.object.metadata.name)) ? evs : null;
      });
      podEvents.stop();
      const oldGone = events.findIndex((e) => e.type === 'DELETED' && oldPods.has(e.object.metadata.name));
      const firstNew = events.findIndex((e) => e.type === 'ADDED' && !oldPods.has(e.object.metadata.name));
      const seen = events.map((e) => `${e.type} ${e.object.metadata.name}`).join(', ');
      expect(oldGone, `the old pod deleted (${seen})`).toBeGreaterThanOrEqual(0);
      expect(firstNew, `a new pod created after the old one was deleted (${seen})`).toBeGreaterThan(oldGone);
      expect(events[firstNew].object.spec.containers[0].name).toBe(WEBSERVER.name);
    },
    TEST_MS,
  );

  it(
    'deployment should delete old replica sets',
    async () => {
      const { d: x, kc } = await setup();
      const rsLabels = { name: 'cleanup-pod', pod: WEBSERVER.name };
      await x.e.apps.createNamespacedReplicaSet({ namespace: NS, body: newRS('test-cleanup-controller', 1, rsLabels, WEBSERVER) });
      await x.verifyPodsRunning('cleanup-pod', 1);

      // every pod created from now on: only one, the new ReplicaSet's (the adopted one makes none)
      const pods = await x.e.core.listNamespacedPod({ namespace: NS });
      const w = await collect(kc, `/api/v1/namespaces/${NS}/pods`, { resourceVersion: pods.metadata!.resourceVersion! });
      try {
        const d = newDeployment('test-cleanup-deployment', 1, { name: 'cleanup-pod' }, AGNHOST, 'RollingUpdate');
        d.spec!.revisionHistoryLimit = 0;
        await x.create(d);
        await x.waitForOldReplicaSets('test-cleanup-deployment', 0);
        const added = () => w.events.filter((e) => e.type === 'ADDED');
        await eventually('the new pod seen by the watch', async () => added().length >= 1);
        expect(added().map((e) => e.object.spec.containers[0].name)).toEqual([AGNHOST.name]);
        await expect(x.readRS('test-cleanup-controller')).rejects.toSatisfy((err) => isCode(err, 404));
      } finally {
        w.stop();
      }
    },
    TEST_MS,
  );

  it(
    'deployment should support rollover',
    async () => {
      const { d: x } = await setup();
      const podName = 'rollover-pod';
      const rsName = 'test-rollover-controller';
      await x.e.apps.createNamespacedReplicaSet({ namespace: NS, body: newRS(rsName, 1, { name: podName, pod: WEBSERVER.name }, WEBSERVER) });
      await x.verifyPodsRunning(podName, 1);
      await x.waitForReadyRS(rsName);

      // an image that never pulls (here: pods that are never scheduled), so that the rollout cannot finish
      const name = 'test-rollover-deployment';
      const stuck = { name: 'redis-slave', image: 'gcr.io/google_samples/gb-redisslave:nonexistent' };
      const d = newDeployment(name, 1, { name: podName }, stuck, 'RollingUpdate');
      d.spec!.strategy!.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
      d.spec!.minReadySeconds = 10;
      d.spec!.template.spec!.nodeSelector = NEVER_READY;
      const created = await x.create(d);
      await x.waitForUpdatedReplicasGTE(name, 1, created.metadata!.generation!);
      await x.checkRevisionAndImage(name, '1', stuck.image);

      // both ReplicaSets with 1 replica created: the adopted one kept (maxUnavailable 0), the new one surged
      const ensureReplicas = (rs: V1ReplicaSet, n: number) => {
        expect(rs.spec?.replicas, `spec.replicas of ${rs.metadata?.name}`).toBe(n);
        expect(rs.status?.replicas ?? 0, `status.replicas of ${rs.metadata?.name}`).toBe(n);
      };
      ensureReplicas(await x.readRS(rsName), 1);
      const firstNew = (await x.newReplicaSet(await x.read(name)))!;
      ensureReplicas(firstNew, 1);

      // rolled over, mid-rollout, to a template whose pods run
      const updated = await x.updateWithRetries(name, (u) => {
        u.spec!.template.spec!.containers[0].name = AGNHOST.name;
        u.spec!.template.spec!.containers[0].image = AGNHOST.image;
        delete u.spec!.template.spec!.nodeSelector;
      });
      await x.waitForObserved(name, updated.metadata!.generation!);
      await x.waitForRevisionAndImage(name, '2', AGNHOST.image);
      await x.waitForComplete(updated, { rolling: true });
      ensureReplicas(await x.readRS(rsName), 0);
      ensureReplicas(await x.readRS(firstNew.metadata!.name!), 0);
    },
    TEST_MS,
  );

  it(
    'iterative rollouts should eventually progress',
    async () => {
      const { d: x } = await setup();
      // the decisions drawn from one generator, the pods to delete from another: the sequence of
      // steps is the same on every run, whatever the timing
      const random = seeded(20_240_611);
      const pickPods = seeded(7);
      const labels = { name: WEBSERVER.name };
      const name = 'webserver';
      const d = newDeployment(name, 6, labels, WEBSERVER, 'RollingUpdate');
      d.spec!.progressDeadlineSeconds = 300;
      d.spec!.revisionHistoryLimit = 2;
      let deployment = await x.create(d);

      /** randomScale: one up (30 %), one down when above 1 (30 %), else as it is; drawn now, applied in the update. */
      const randomScale = () => {
        const r = random();
        return (u: V1Deployment) => {
          const n = u.spec!.replicas ?? 1;
          if (r < 0.3) u.spec!.replicas = n + 1;
          else if (r < 0.6 && n > 1) u.spec!.replicas = n - 1;
        };
      };
      const steps: string[] = [];
      for (let i = 0; i < 20; i++) {
        // upstream waits i·r seconds, here i·r × 50 ms: the controllers mid-work when the next change comes
        const r = random();
        if (r < 0.6) await sleep(i * r * 50);
        const n = random();
        if (n < 0.2) {
          steps.push('rollout');
          const scale = randomScale();
          deployment = await x.updateWithRetries(name, (u) => {
            const c = u.spec!.template.spec!.containers[0];
            c.env = [...(c.env ?? []), { name: `A${i}`, value: `${i}` }];
            scale(u);
          });
        } else if (n < 0.4) {
          // rollback to the previous version, as upstream asks for it: the deprecated annotation
          steps.push('rollback');
          deployment = await x.updateWithRetries(name, (u) => {
            u.metadata!.annotations = { ...(u.metadata!.annotations ?? {}), [ROLLBACK_TO]: '0' };
          });
        } else if (n < 0.6) {
          steps.push('scale');
          deployment = await x.updateWithRetries(name, randomScale());
        } else if (n < 0.8) {
          const pause = !deployment.spec?.paused;
          steps.push(pause ? 'pause' : 'resume');
          const scale = randomScale();
          deployment = await x.updateWithRetries(name, (u) => {
            u.spec!.paused = pause;
            scale(u);
          });
        } else {
          steps.push('delete pods');
          for (const p of await x.pods(labels)) {
            if (pickPods() < 0.5) continue;
            try {
              await x.e.core.deleteNamespacedPod({ namespace: NS, name: p.metadata!.name! });
            } catch (err) {
              if (!isCode(err, 404)) throw err;
            }
          }
        }
      }
      // the seed takes every kind of step
      for (const step of ['rollout', 'rollback', 'scale', 'pause', 'delete pods']) expect(steps, steps.join(', ')).toContain(step);

      deployment = await x.read(name);
      if (deployment.spec?.paused) {
        deployment = await x.updateWithRetries(name, (u) => {
          u.spec!.paused = false;
        });
      }
      await x.waitForObserved(name, deployment.metadata!.generation!);
      await x.waitForComplete(deployment);
      await x.waitForCondition(name, 'NewReplicaSetAvailable', 'Progressing');
      // beyond upstream: every rollback asked for was done (its annotation cleared), the history kept
      // within revisionHistoryLimit, the pods those of the new ReplicaSet
      const final = await x.read(name);
      expect(final.metadata?.annotations ?? {}).not.toHaveProperty(ROLLBACK_TO);
      const neu = await eventually('the old replicasets cleaned up to revisionHistoryLimit', async (seen) => {
        const all = await x.allReplicaSets(final);
        seen(sizes(all.allOld));
        return all.allOld.length <= 2 ? all.neu : null;
      });
      expect(neu.spec?.replicas).toBe(final.spec?.replicas);
      const pods = await eventually('only the new replicaset pods left', async (seen) => {
        const ps = (await x.pods(labels)).filter((p) => !p.metadata?.deletionTimestamp);
        seen(ps.map((p) => p.metadata?.name).join(' '));
        return ps.length === final.spec?.replicas && ps.every((p) => controllerOf(p)?.uid === neu.metadata?.uid) ? ps : null;
      });
      expect(pods.every((p) => p.metadata?.labels?.[HASH] === neu.metadata?.labels?.[HASH])).toBe(true);
    },
    TEST_MS,
  );

  it(
    'test Deployment ReplicaSet orphaning and adoption regarding controllerRef',
    async () => {
      const { d: x } = await setup();
      const labels = { name: WEBSERVER.name };
      const listRSs = async () => {
        const items = (await x.e.apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: labelSelector(labels) })).items;
        expect(items.length, 'replicasets of the deployment').toBeGreaterThan(0);
        return items;
      };
      const expectControlledBy = async (uid: string) => {
        for (const rs of await listRSs()) expect(controllerOf(rs)?.uid, `controller of ${rs.metadata?.name}`).toBe(uid);
      };

      const orphaning = await x.create(newDeployment('test-orphan-deployment', 1, labels, WEBSERVER, 'RollingUpdate'));
      await x.waitForComplete(orphaning);
      const before = await listRSs();
      expect(before).toHaveLength(1);
      const orphanedUID = before[0].metadata!.uid!;
      await expectControlledBy(orphaning.metadata!.uid!);

      // deleted, its ReplicaSet orphaned (orphanDependents, on the Deployment's uid)
      await x.e.apps.deleteNamespacedDeployment({
        namespace: NS,
        name: 'test-orphan-deployment',
        body: { orphanDependents: true, preconditions: { uid: orphaning.metadata!.uid } },
      });
      await eventually('the replicaset orphaned', async () => (await listRSs()).every((rs) => controllerOf(rs) === null));

      const adopting = await x.create(newDeployment('test-adopt-deployment', 1, labels, WEBSERVER, 'RollingUpdate'));
      await x.waitForComplete(adopting);
      await eventually('the replicaset adopted', async () => (await listRSs()).every((rs) => controllerOf(rs)?.uid === adopting.metadata!.uid));
      await expectControlledBy(adopting.metadata!.uid!);
      const after = await listRSs();
      expect(after.map((rs) => rs.metadata?.uid)).toEqual([orphanedUID]);
    },
    TEST_MS,
  );

  it(
    'Deployment should have a working scale subresource',
    async () => {
      const { d: x, apps } = await setup();
      const name = 'test-new-deployment';
      const created = await x.create(newDeployment(name, 1, { name: WEBSERVER.name }, WEBSERVER, 'RollingUpdate'));
      await x.waitForRevisionAndImage(name, '1', WEBSERVER.image);
      await x.waitForComplete(created);

      const scale = await apps.readNamespacedDeploymentScale({ namespace: NS, name });
      expect(scale.spec?.replicas).toBe(1);
      expect(scale.status?.replicas).toBe(1);

      // an unconditional update (no resourceVersion)
      scale.metadata!.resourceVersion = '';
      scale.spec = { replicas: 2 };
      const result = await apps.replaceNamespacedDeploymentScale({ namespace: NS, name, body: scale });
      expect(result.spec?.replicas).toBe(2);
      expect((await x.read(name)).spec?.replicas).toBe(2);

      // a strategic merge patch of the scale subresource: autoscaling/v1 Scale as Go marshals it
      await apps.patchNamespacedDeploymentScale(
        { namespace: NS, name, body: { metadata: { creationTimestamp: null }, spec: { replicas: 4 }, status: { replicas: 0 } } },
        smp(),
      );
      const d = await x.read(name);
      expect(d.spec?.replicas, 'deployment should have 4 replicas').toBe(4);
      // beyond upstream: the controllers follow
      await x.waitForComplete(d);
      expect((await x.newReplicaSet(d))?.spec?.replicas).toBe(4);
    },
    TEST_MS,
  );

  it(
    'deployment should support proportional scaling',
    async () => {
      const { d: x } = await setup();
      const labels = { name: WEBSERVER.name };
      const name = 'webserver-deployment';
      const replicas = 10;
      const d = newDeployment(name, replicas, labels, WEBSERVER, 'RollingUpdate');
      d.spec!.strategy!.rollingUpdate = { maxSurge: 3, maxUnavailable: 2 };
      const created = await x.create(d);
      await x.waitForObserved(name, created.metadata!.generation!);
      await x.verifyPodsRunning(WEBSERVER.name, replicas);
      await x.waitForComplete(created);
      const firstRS = (await x.newReplicaSet(await x.read(name)))!;
      expect(firstRS).not.toBeNull();

      // a partial rollout: the new ReplicaSet's pods never turn ready
      const updated = await x.updateWithRetries(name, (u) => {
        u.spec!.template.spec!.containers[0].image = 'webserver:404';
        u.spec!.template.spec!.nodeSelector = NEVER_READY;
      });
      await x.waitForObserved(name, updated.metadata!.generation!);

      // the first ReplicaSet at replicas − maxUnavailable = 8, available
      const minAvailable = replicas - 2;
      await x.waitForRSAvailableReplicas(firstRS, minAvailable);
      await x.waitForRSSpecReplicas(firstRS, minAvailable);
      await x.waitForRSDesiredReplicas(await x.readRS(firstRS.metadata!.name!));

      // the second at replicas + maxSurge − 8 = 5, none available
      const secondRS = (await x.newReplicaSet(await x.read(name)))!;
      expect(secondRS, 'the second rollout replicaset').not.toBeNull();
      expect(secondRS.status?.availableReplicas ?? 0).toBe(0);
      await x.waitForRSSpecReplicas(secondRS, replicas + 3 - minAvailable);
      await x.waitForRSDesiredReplicas(await x.readRS(secondRS.metadata!.name!));
      const mid = await x.read(name);
      expect(mid.status?.availableReplicas ?? 0, 'available replicas at least the min required').toBeGreaterThanOrEqual(minAvailable);

      // scaled to 30 mid-rollout: 20 more spread as 8 and 5 of 13 (12 and 8 once rounded)
      const first = await x.readRS(firstRS.metadata!.name!);
      const second = await x.readRS(secondRS.metadata!.name!);
      await x.updateWithRetries(name, (u) => {
        u.spec!.replicas = 30;
      });
      const firstAfter = await x.waitForRSSpecReplicas(first, 20);
      const secondAfter = await x.waitForRSSpecReplicas(second, 13);
      // beyond upstream (its terminating-pods variant checks them): both annotated for 30 and 30 + maxSurge
      expect(firstAfter.metadata?.annotations).toMatchObject({ [REVISION]: '1', [DESIRED]: '30', [MAX]: '33' });
      expect(secondAfter.metadata?.annotations).toMatchObject({ [REVISION]: '2', [DESIRED]: '30', [MAX]: '33' });
    },
    TEST_MS,
  );

  it('should run the lifecycle of a Deployment', () => lifecycle(), TEST_MS);

  it(
    'should validate Deployment Status endpoints',
    async () => {
      const { d: x, apps, kc } = await setup();
      const name = `test-deployment-${Math.random().toString(36).slice(2, 7)}`;
      const selector = 'e2e=testing';
      const list = await apps.listDeploymentForAllNamespaces({ labelSelector: selector });
      const watch = (done: (e: WatchEvent) => boolean) =>
        watchUntil(kc, `/apis/apps/v1/namespaces/${NS}/deployments`, { labelSelector: selector, resourceVersion: list.metadata!.resourceVersion! }, done);

      const created = await x.create(newDeployment(name, 1, { name: WEBSERVER.name, e2e: 'testing' }, WEBSERVER, 'RollingUpdate'));
      await x.waitForRevisionAndImage(name, '1', WEBSERVER.image);
      await x.waitForComplete(created);

      // getting /status
      const status = await apps.readNamespacedDeploymentStatus({ namespace: NS, name });
      expect(status.metadata?.name).toBe(name);
      expect(status.status?.conditions?.map((c) => c.type).sort()).toEqual(['Available', 'Progressing']);

      // updating it (retried on a conflict: the controller writes it too)
      await eventually('the status update', async () => {
        const cur = await x.read(name);
        cur.status!.conditions = [...(cur.status?.conditions ?? []), { type: 'StatusUpdate', status: 'True', reason: 'E2E', message: 'Set from e2e test' }];
        try {
          return await apps.replaceNamespacedDeploymentStatus({ namespace: NS, name, body: cur });
        } catch (err) {
          if (isCode(err, 409)) return null;
          throw err;
        }
      });
      await watch((e) =>
        (e.object.status?.conditions ?? []).some((c: any) => c.type === 'StatusUpdate' && c.reason === 'E2E' && c.message === 'Set from e2e test'),
      );

      // patching it (a merge patch: the conditions replaced)
      const patched = await apps.patchNamespacedDeploymentStatus(
        { namespace: NS, name, body: { status: { conditions: [{ type: 'StatusPatched', status: 'True' }] } } },
        mergePatch(),
      );
      expect(patched.status?.conditions?.map((c) => c.type)).toContain('StatusPatched');
      await watch((e) => (e.object.status?.conditions ?? []).some((c: any) => c.type === 'StatusPatched'));
    },
    TEST_MS,
  );
});
