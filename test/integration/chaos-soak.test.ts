// A bounded chaos soak: the foreground controller (`run`, in-process) against the sandbox while
// ~10% of requests fail (500, 429, 409), watches are dropped or answered 410 Expired, and a
// "user" scales ReplicaSets, deletes pods and creates orphans. Two ReplicaSets have overlapping
// selectors, and some matching pods are controlled by something else (a StatefulSet, a Job, a
// ReplicaSet in another namespace): upstream never touches those, and neither may we.
//
// Faults and the chaos schedule come from seeded generators. The seed is fixed so CI runs one
// known schedule; explore others with e.g. `CHAOS_SEED=7 npx vitest run test/integration/chaos-soak.test.ts`
// (request interleaving still varies from run to run, so a seed is a schedule, not a replay).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Pod, type V1ReplicaSet } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { runForeground } from '../../src/services/run-foreground.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { AuditEntry } from '../../src/sandbox/audit.js';
import { prng } from '../../src/sandbox/util.js';
import { foregroundOptions } from './env.js';

const SEED = Number(process.env.CHAOS_SEED ?? 20_261_125);
const NS = 'chaos';
const OTHER = 'other';
/** Chaos steps and the pause between them: ~7 s of chaos, typically. */
const STEPS = 28;
const STEP_MS = 250;
// Bounds of each phase, so that the whole test stays under 60 s even on a slow machine (it
// typically takes 10 to 15 s): start, chaos (waits for quiet included), convergence, settled.
const START_MS = 10_000;
const CHAOS_MS = 15_000;
const CONVERGE_MS = 25_000;
/** After convergence, nothing may move for this long. */
const SETTLED_MS = 2000;

const UID = {
  front: '0f0f0f0f-0000-4000-8000-000000000001',
  all: '0f0f0f0f-0000-4000-8000-000000000002',
  solo: '0f0f0f0f-0000-4000-8000-000000000003',
  otherSolo: '0f0f0f0f-0000-4000-8000-000000000004',
  statefulSet: '0f0f0f0f-0000-4000-8000-000000000005',
  job: '0f0f0f0f-0000-4000-8000-000000000006',
};

const image = 'registry.example/app:1';
function replicaSet(namespace: string, name: string, uid: string, replicas: number, selector: Record<string, string>, labels: Record<string, string>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, uid },
    spec: { replicas, selector: { matchLabels: selector }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image }] } } },
  };
}
function pod(namespace: string, name: string, labels: Record<string, string>, controller?: { apiVersion: string; kind: string; name: string; uid: string }) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels, ...(controller ? { ownerReferences: [{ ...controller, controller: true, blockOwnerDeletion: true }] } : {}) },
    spec: { containers: [{ name: 'app', image }] },
  };
}

const FRONT = { app: 'shop', tier: 'front' };
const SOLO = { app: 'solo' };
const REPLICA_SETS = [
  // `all` selects every app=shop pod, so front's pods match both selectors.
  replicaSet(NS, 'front', UID.front, 3, FRONT, FRONT),
  replicaSet(NS, 'all', UID.all, 2, { app: 'shop' }, { app: 'shop', tier: 'back' }),
  replicaSet(NS, 'solo', UID.solo, 2, SOLO, SOLO),
  replicaSet(OTHER, 'solo', UID.otherSolo, 1, SOLO, SOLO),
];
/** Pods that match a selector but whose controller is not one of ours: fixed from the start. */
const FOREIGN = [
  pod(NS, 'db-0', FRONT, { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: UID.statefulSet }),
  pod(NS, 'db-1', { app: 'shop' }, { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: UID.statefulSet }),
  pod(NS, 'migrate-x7k2p', SOLO, { apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', uid: UID.job }),
  // Same kind and name as chaos/solo, but the uid is other/solo's: not chaos/solo's pod.
  pod(NS, 'solo-elsewhere', SOLO, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'solo', uid: UID.otherSolo }),
  // Controlled by chaos/front, a ReplicaSet in another namespace: not other/solo's pod.
  pod(OTHER, 'front-elsewhere', SOLO, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'front', uid: UID.front }),
];
const foreignKeys = new Set(FOREIGN.map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
const ourUids = new Set(REPLICA_SETS.map((r) => r.metadata.uid));

let sb: Sandbox | null = null;
/** Stops the controller and the test's pod observer. */
let stop: AbortController | null = null;
let dir: string | null = null;
afterEach(async () => {
  stop?.abort();
  stop = null;
  await sb?.close();
  sb = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
/**
 * The controller authenticates as the kubeconfig's user, like the test's own client; its user agent
 * (src/cluster/http.ts, informer.ts) tells them apart. The sandbox's simulated kubelet and
 * scheduler are system users.
 */
const byController = (a: AuditEntry) => a.user === 'sandbox-admin' && a.userAgent?.startsWith('rs-reconcile/') === true;

/** The test's own calls meet the injected faults too: retry those (and only those). */
async function retried<T>(fn: () => Promise<T>, ok404 = false): Promise<T | undefined> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ApiException)) throw e;
      if (ok404 && e.code === 404) return undefined;
      if (![500, 429, 409].includes(e.code) || i > 200) throw e;
      await sleep(10);
    }
  }
}

/** The controller's writes, even attempts, to pods controlled by something else. */
const foreignWrites = (audit: AuditEntry[]) =>
  audit.filter(
    (a) => byController(a) && a.resource === 'pods' && ['patch', 'update', 'delete'].includes(a.verb) && foreignKeys.has(`${a.namespace}/${a.name}`),
  );

const controllerRef = (p: V1Pod) => p.metadata!.ownerReferences?.filter((r) => r.controller) ?? [];
const isActive = (p: V1Pod) => !p.metadata!.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase ?? '');
const isReady = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
const rsKey = (r: V1ReplicaSet) => `${r.metadata!.namespace}/${r.metadata!.name}`;

interface World {
  rss: V1ReplicaSet[];
  pods: V1Pod[];
}

/** Why the world is not settled yet, or '' once every ReplicaSet has spec.replicas active pods and a status that says so. */
function unsettled({ rss, pods }: World): string {
  const why: string[] = [];
  for (const r of rss) {
    const owned = pods.filter((p) => p.metadata!.namespace === r.metadata!.namespace && controllerRef(p)[0]?.uid === r.metadata!.uid && isActive(p));
    const want = r.spec!.replicas ?? 1;
    const s = r.status ?? { replicas: 0 };
    const ready = owned.filter(isReady).length;
    // An adopted orphan may lack labels of the template (not those of the selector).
    const template = Object.entries(r.spec!.template!.metadata!.labels!);
    const fullyLabeled = owned.filter((p) => template.every(([k, v]) => p.metadata!.labels?.[k] === v)).length;
    const got = [owned.length, s.replicas, s.fullyLabeledReplicas ?? 0, ready, s.readyReplicas ?? 0, s.availableReplicas ?? 0, s.observedGeneration ?? 0];
    const expected = [want, want, fullyLabeled, want, want, want, r.metadata!.generation];
    if (got.join() !== expected.join())
      why.push(
        `${rsKey(r)}: [active, status.replicas, fullyLabeled, ready pods, readyReplicas, available, observedGeneration] ${got.join()} != ${expected.join()}`,
      );
  }
  return why.join('; ');
}

describe('chaos soak', () => {
  it(`run converges under ~10% faults, watch drops and 410s, never overshoots once settled, and writes no pod it may not own (seed ${SEED})`, async () => {
    sb = await startSandbox({
      nodes: 3,
      kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10, terminationGraceMs: 50 },
      // No garbage collector: it would delete the pods whose owners do not exist here, and they are the bait.
      gc: false,
      faultSeed: SEED,
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: OTHER } },
        ...REPLICA_SETS,
        ...FOREIGN,
      ],
    });
    const s = sb;
    dir = mkdtempSync(join(tmpdir(), 'rs-chaos-'));
    const kubeconfig = join(dir, 'config');
    await s.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(s.kubeconfig());
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const world = async (): Promise<World> => ({
      rss: (await retried(() => apps.listReplicaSetForAllNamespaces()))!.items,
      pods: (await retried(() => core.listPodForAllNamespaces()))!.items,
    });

    // Every controller uid each pod has been seen with (by polling: a flip persists, so it is seen).
    const seenControllers = new Map<string, Set<string>>();
    /** Where the audit log stood when the test first saw each pod: the pod was created before that. */
    const firstSeen = new Map<string, number>();
    const auditPosition = () => s.auditDropped() + s.audit().length;
    const observe = (pods: V1Pod[]) => {
      const position = auditPosition();
      for (const p of pods) {
        const key = `${p.metadata!.namespace}/${p.metadata!.name}/${p.metadata!.uid}`;
        let seen = seenControllers.get(key);
        if (!seen) seenControllers.set(key, (seen = new Set()));
        if (!firstSeen.has(key)) firstSeen.set(key, position);
        const refs = controllerRef(p);
        if (refs.length > 1) seen.add(`several controllers: ${refs.map((r) => r.uid).join(',')}`);
        if (refs[0]) seen.add(refs[0].uid!);
      }
    };
    let observing = true;
    const halt = new AbortController();
    stop = halt;
    const observer = (async () => {
      while (observing && !halt.signal.aborted) {
        const list = await core.listPodForAllNamespaces().catch(() => undefined); // a fault: next round
        if (list) observe(list.items);
        await sleep(50);
      }
    })();

    const logs: string[] = [];
    const done = runForeground({
      ...foregroundOptions(kubeconfig, { allNamespaces: true, qps: 1000, burst: 1000, identity: 'chaos', verbosity: 2 }),
      signal: halt.signal,
      stream: new Writable({
        write(chunk, _enc, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    });

    // The controller stops, and says so, if it exits early (e.g. it could not start).
    let exited: string | null = null;
    void done.then(
      (code) => (exited = `run exited with ${code}`),
      (e: Error) => (exited = `run failed: ${e.message}`),
    );
    // Chaos starts once the controller runs: its start (version, upstream check) is not under test here.
    for (let deadline = Date.now() + START_MS; !logs.join('').includes('Caches are synced'); await sleep(20)) {
      if (exited || Date.now() > deadline)
        throw new Error(`the controller did not start: ${exited ?? `no "Caches are synced" in ${START_MS} ms`}\n${logs.join('')}`);
    }

    // ~10% of requests fail: 500 (4%) and 429 (3%) on anything, 409 (3%) on writes.
    const faultIds = [
      s.faults.set({ errorRate: 0.04, code: 500 }),
      s.faults.set({ errorRate: 0.03, code: 429, retryAfterSeconds: 0 }),
      ...['update', 'patch', 'delete'].map((verb) => s.faults.set({ errorRate: 0.03, code: 409, verb })),
    ];

    const random = prng(SEED);
    const maxReplicas: Record<string, number> = { [`${NS}/front`]: 10, [`${NS}/all`]: 8, [`${NS}/solo`]: 6, [`${OTHER}/solo`]: 4 };
    let orphans = 0;
    const actions: string[] = [];
    type Kind = 'scale' | 'delete' | 'orphan' | 'drop' | 'gone';
    // A few steps are fixed, so that every seed scales up and down, leaves an orphan to the
    // overlapping selectors, drops watches abruptly and forces a relist of pods.
    const fixed: Record<number, [Kind, number, number]> = {
      2: ['scale', 0, 1], // chaos/front to 10
      5: ['orphan', 0, 0],
      7: ['drop', 0, 0], // abrupt
      9: ['gone', 0, 0], // 410 on pods
      16: ['scale', 0, 1 / 6], // chaos/front to 1
      21: ['scale', 3 / 4, 0], // other/solo to 0
    };
    const pick = <T>(xs: T[], u: number): T => xs[Math.min(xs.length - 1, Math.floor(u * xs.length))];
    const chaosEnd = Date.now() + CHAOS_MS;
    /**
     * Waits until the controller has nothing left to do: every ReplicaSet settled, no orphan to
     * adopt, no pod terminating. A relist loses the states a pod went through between the last
     * event delivered and the list; when a pod was adopted and deleted in that gap, the tombstone
     * has no controller, its deletion expectation is never observed, and upstream (like us)
     * waits 5 minutes (ExpectationsTimeout). Forcing 410s on pods only when quiet keeps them.
     */
    const quiet = async (withinMs: number): Promise<boolean> => {
      for (const end = Math.min(Date.now() + withinMs, chaosEnd); Date.now() < end; await sleep(50)) {
        const w = await world();
        const orphan = (p: V1Pod) =>
          controllerRef(p).length === 0 &&
          w.rss.some(
            (r) =>
              r.metadata!.namespace === p.metadata!.namespace && Object.entries(r.spec!.selector.matchLabels!).every(([k, v]) => p.metadata!.labels?.[k] === v),
          );
        if (unsettled(w) === '' && !w.pods.some((p) => p.metadata!.deletionTimestamp || (isActive(p) && orphan(p)))) return true;
      }
      return false;
    };
    let fixedStep = false;
    const perform = async (kind: Kind, x: number, y: number) => {
      switch (kind) {
        case 'scale': {
          const r = pick(REPLICA_SETS, x);
          const key = `${r.metadata.namespace}/${r.metadata.name}`;
          const replicas = Math.min(maxReplicas[key], Math.floor(y * (maxReplicas[key] + 1)));
          actions.push(`scale ${key} ${replicas}`);
          await retried(() =>
            apps.patchNamespacedReplicaSetScale({ namespace: r.metadata.namespace, name: r.metadata.name, body: { spec: { replicas } } }, mergePatch),
          );
          return;
        }
        case 'delete': {
          // Only a pod the controller has certainly seen: one that existed at its last successful
          // pods list. A pod created and deleted while its informer relists is never observed, and
          // its create expectation then holds the ReplicaSet for 5 minutes (ExpectationsTimeout),
          // upstream as here: longer than this soak may take.
          const audit = s.audit();
          let lastList = -1;
          for (let i = audit.length - 1; i >= 0 && lastList < 0; i--) {
            const a = audit[i];
            if (byController(a) && a.verb === 'list' && a.resource === 'pods' && a.code === 200) lastList = s.auditDropped() + i;
          }
          const { pods } = await world();
          const owned = pods.filter(
            (p) =>
              isActive(p) &&
              ourUids.has(controllerRef(p)[0]?.uid ?? '') &&
              !foreignKeys.has(`${p.metadata!.namespace}/${p.metadata!.name}`) &&
              (firstSeen.get(`${p.metadata!.namespace}/${p.metadata!.name}/${p.metadata!.uid}`) ?? Infinity) < lastList,
          );
          if (owned.length === 0) return;
          const victim = pick(owned, x);
          actions.push(`delete ${victim.metadata!.namespace}/${victim.metadata!.name}`);
          await retried(() => core.deleteNamespacedPod({ namespace: victim.metadata!.namespace!, name: victim.metadata!.name! }), true);
          return;
        }
        case 'orphan': {
          // An orphan both `front` and `all` select: whichever adopts it first keeps it.
          const name = `orphan-${orphans++}`;
          actions.push(`create ${NS}/${name}`);
          await retried(() => core.createNamespacedPod({ namespace: NS, body: pod(NS, name, FRONT) }));
          return;
        }
        case 'drop': {
          const abrupt = x < 0.5;
          actions.push(`drop watches${abrupt ? ' (abrupt)' : ''}`);
          s.faults.dropWatches({ abrupt });
          return;
        }
        case 'gone': {
          // The next watch on the resource is answered 410 Expired: the informer must relist.
          const resource = pick(['pods', 'pods', 'replicasets'], x);
          if (resource === 'pods' && !(await quiet(fixedStep ? 10_000 : 1500))) {
            actions.push('410 on pods skipped (never quiet)');
            return;
          }
          actions.push(`410 on ${resource}`);
          s.faults.forceGone(resource);
          s.faults.dropWatches();
          return;
        }
      }
    };
    for (let step = 0; step < STEPS && Date.now() < chaosEnd; step++) {
      // Three draws per step whatever happens, so the schedule depends on the seed only.
      const [roll, x, y] = [random(), random(), random()];
      const kind: Kind = roll < 0.35 ? 'scale' : roll < 0.55 ? 'delete' : roll < 0.65 ? 'orphan' : roll < 0.8 ? 'drop' : 'gone';
      fixedStep = step in fixed;
      await perform(...(fixed[step] ?? [kind, x, y]));
      await sleep(STEP_MS);
    }
    for (const id of faultIds) s.faults.clear(id);

    // Convergence, polling within a bound.
    let last: World = await world();
    for (let deadline = Date.now() + CONVERGE_MS; unsettled(last) !== ''; last = await world()) {
      if (exited) throw new Error(`${exited} during the soak (seed ${SEED})\n${logs.join('').slice(-2000)}`);
      if (Date.now() > deadline) {
        if (process.env.CHAOS_DEBUG) {
          const { writeFileSync } = await import('node:fs');
          writeFileSync(join(tmpdir(), `chaos-${SEED}.log`), logs.join(''));
          writeFileSync(join(tmpdir(), `chaos-${SEED}.audit.json`), JSON.stringify(s.audit()));
        }
        const foreign = foreignWrites(s.audit()).map((a) => `${a.verb} ${a.namespace}/${a.name} ${a.code}`);
        const shown = foreign.length ? `; ${foreign.length} writes to foreign pods: ${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}` : '';
        throw new Error(`not converged (seed ${SEED}, chaos: ${actions.join(', ')}): ${unsettled(last)}${shown}`);
      }
      await sleep(100);
    }
    observe(last.pods);

    // Settled: for a while, no ReplicaSet has more active pods than it wants, and the controller neither creates nor deletes.
    const mark = s.audit().length + s.auditDropped();
    for (const end = Date.now() + SETTLED_MS; Date.now() < end; ) {
      const w = await world();
      observe(w.pods);
      for (const r of w.rss) {
        const active = w.pods.filter(
          (p) => p.metadata!.namespace === r.metadata!.namespace && controllerRef(p)[0]?.uid === r.metadata!.uid && isActive(p),
        ).length;
        expect(active, `${rsKey(r)} overshoots after settling`).toBeLessThanOrEqual(r.spec!.replicas!);
      }
      expect(unsettled(w)).toBe('');
      await sleep(100);
    }
    observing = false;
    await observer;
    expect(s.auditDropped()).toBe(0); // the checks below read the whole log
    const audit = s.audit();
    const podWritesInWindow = audit
      .slice(mark - s.auditDropped())
      .filter((a) => byController(a) && a.resource === 'pods' && !a.subresource && (a.verb === 'create' || a.verb === 'delete'));
    expect(podWritesInWindow).toEqual([]);

    // The controller really worked, and the chaos really reached it.
    const ours = audit.filter(byController);
    if (process.env.CHAOS_DEBUG) {
      // What the controller did, by verb, resource and answer; and the chaos schedule.
      const counts = new Map<string, number>();
      for (const a of ours) {
        const k = `${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.code}${a.fault ? ' (injected)' : ''}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      console.log(
        [...counts]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join('\n'),
        `\nchaos: ${actions.join(', ')}`,
      );
    }
    expect(ours.filter((a) => a.resource === 'pods' && a.verb === 'create' && a.code === 201).length).toBeGreaterThan(5);
    expect(ours.filter((a) => a.resource === 'pods' && a.verb === 'patch' && a.code === 200).length).toBeGreaterThan(0); // adoptions
    expect(ours.filter((a) => a.fault).length).toBeGreaterThan(5);
    // Only the controller watches pods, so the forced 410s on pods were its own: it relisted
    // (at least once: 410s forced before it watched again count once).
    expect(actions).toContain('410 on pods');
    expect(ours.filter((a) => a.verb === 'list' && a.resource === 'pods' && a.code === 200).length).toBeGreaterThan(1);

    // Zero writes, not even attempts, to pods controlled by something else.
    expect(foreignWrites(audit)).toEqual([]);
    const final = await world();
    for (const f of FOREIGN) {
      const p = final.pods.find((x) => x.metadata!.namespace === f.metadata.namespace && x.metadata!.name === f.metadata.name);
      expect(p && controllerRef(p).map((r) => r.uid), `${f.metadata.namespace}/${f.metadata.name}`).toEqual([f.metadata.ownerReferences![0].uid]);
    }
    // No pod ever changed controller (a pod of `front` is never adopted by `all`, nor the reverse).
    const flipped = [...seenControllers].filter(([, uids]) => uids.size > 1).map(([k, uids]) => `${k}: ${[...uids].join(' → ')}`);
    expect(flipped).toEqual([]);
    expect(orphans).toBeGreaterThan(0);

    halt.abort();
    expect(await done).toBe(0);
    expect(logs.join('')).not.toMatch(/controller failed/);
  }, 60_000);
});
