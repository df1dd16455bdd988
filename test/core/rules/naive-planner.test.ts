// Shape check (not timing): the indexed planner must give the same answers as a naive,
// per-controller reading of the reference that scans every pod for every controller
// (O(pods × controllers) selector matches). Written from the reference alone (§2–§8, §13); it
// shares no code with src/core. Random snapshots are small; the bound itself is benchmarked
// elsewhere.
//
// To make deletion order well defined, pod times are drawn from values that fall in distinct
// logarithmic buckets (§7), so the comparator is a lexicographic order on a key and the only
// freedom left to an implementation is the order among exact ties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import type { PlanController } from '../../../src/core/plan-types.js';
import type { LabelSelector, Labels, OwnerReference, Pod, ReplicaSet, ReplicationController, Snapshot } from '../../../src/core/types.js';
import { ago, bh, DAY, HOUR, MINUTE, NOW, SECOND } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// The naive planner

type Match = (l: Labels | null | undefined) => boolean;
const has = (l: Labels | null | undefined, k: string) => !!l && Object.hasOwn(l, k);

/** §4, only as far as the generator goes: null → nothing; {} → everything; 4 operators. */
function naiveSelector(ls: LabelSelector | null | undefined): Match | 'invalid' {
  if (ls == null) return () => false;
  const reqs: Match[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push((l) => has(l, k) && l![k] === v);
  for (const e of ls.matchExpressions ?? []) {
    const vs = e.values ?? [];
    if (e.operator === 'In') {
      if (!vs.length) return 'invalid';
      reqs.push((l) => has(l, e.key) && vs.includes(l![e.key]));
    } else if (e.operator === 'NotIn') {
      if (!vs.length) return 'invalid';
      reqs.push((l) => !has(l, e.key) || !vs.includes(l![e.key]));
    } else if (e.operator === 'Exists') {
      if (vs.length) return 'invalid';
      reqs.push((l) => has(l, e.key));
    } else if (e.operator === 'DoesNotExist') {
      if (vs.length) return 'invalid';
      reqs.push((l) => !has(l, e.key));
    } else return 'invalid';
  }
  return (l) => reqs.every((r) => r(l));
}

interface Ctl {
  kind: 'ReplicaSet' | 'ReplicationController';
  ns: string;
  name: string;
  uid: string;
  owner: OwnerReference | undefined;
  replicas: number;
  minReady: number;
  selector: LabelSelector | null | undefined;
  template: Labels;
  deleting: boolean;
  generation: number;
  status: NonNullable<ReplicaSet['status']>;
}

const ctrlOf = (refs: OwnerReference[] | null | undefined) => (refs ?? []).find((r) => r.controller === true);
const terminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const active = (p: Pod) => !terminal(p) && !p.metadata.deletionTimestamp;
const readyCond = (p: Pod) => (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
const isReady = (p: Pod) => readyCond(p)?.status === 'True';
const time = (t: string | null | undefined) => (t ? Date.parse(t) : null);

interface Expected {
  skip: string | null;
  pods: Record<string, string>;
  create: number;
  deleteKeys: string[]; // keys of the victims, in deletion order
  deleteReasons: string[]; // in the same order
  deleteSet: string[] | null; // exact names when the choice is forced (scale to zero, or no ties)
  status: {
    replicas: number;
    fullyLabeledReplicas: number;
    readyReplicas: number;
    availableReplicas: number;
    terminatingReplicas?: number;
    observedGeneration: number;
  };
  statusChanged: boolean;
}

/**
 * `minor` 35: the default gates; 33: with DeploymentReplicaSetTerminatingReplicas forced on. What
 * differs between them: which pods a sync lists (from 1.34 an index on the controller reference's
 * namespace, kind, name and uid, PodControllerIndexKey / FilterPodsByOwner; up to 1.33 every pod of
 * the namespace, owned by uid), terminatingReplicas for ReplicationControllers (1.33 only:
 * EnableStatusTerminatingReplicas, PR #131822) and IsPodAvailable's `<=` (1.34+) against `<`.
 */
function naivePlan(s: Snapshot, now: number, burst = 500, minor: 33 | 35 = 35): Map<string, Expected> {
  const ctls: Ctl[] = [
    ...(s.controllers.ReplicaSet as ReplicaSet[]).map(
      (r): Ctl => ({
        kind: 'ReplicaSet',
        ns: r.metadata.namespace!,
        name: r.metadata.name,
        uid: r.metadata.uid,
        owner: ctrlOf(r.metadata.ownerReferences),
        replicas: r.spec.replicas ?? 1,
        minReady: r.spec.minReadySeconds ?? 0,
        selector: r.spec.selector,
        template: r.spec.template?.metadata?.labels ?? {},
        deleting: !!r.metadata.deletionTimestamp,
        generation: r.metadata.generation ?? 0,
        status: r.status ?? {},
      }),
    ),
    ...(s.controllers.ReplicationController as ReplicationController[]).map(
      (r): Ctl => ({
        kind: 'ReplicationController',
        ns: r.metadata.namespace!,
        name: r.metadata.name,
        uid: r.metadata.uid,
        owner: ctrlOf(r.metadata.ownerReferences),
        replicas: r.spec.replicas ?? 1,
        minReady: r.spec.minReadySeconds ?? 0,
        selector: r.spec.selector == null ? null : { matchLabels: r.spec.selector },
        template: r.spec.template?.metadata?.labels ?? {},
        deleting: !!r.metadata.deletionTimestamp,
        generation: r.metadata.generation ?? 0,
        status: r.status ?? {},
      }),
    ),
  ];
  const out = new Map<string, Expected>();
  for (const c of ctls) {
    const key = `${c.kind}/${c.ns}/${c.name}`;
    const sel = naiveSelector(c.selector);
    if (sel === 'invalid') {
      out.set(key, {
        skip: 'InvalidSelector',
        pods: {},
        create: 0,
        deleteKeys: [],
        deleteReasons: [],
        deleteSet: [],
        status: null as any,
        statusChanged: false,
      });
      continue;
    }
    const pods: Record<string, string> = {};
    const claimed: Pod[] = [];
    let terminating = 0;
    for (const p of s.pods) {
      if (p.metadata.namespace !== c.ns) continue;
      const m = sel(p.metadata.labels);
      const ref = ctrlOf(p.metadata.ownerReferences);
      const ours = ref?.uid === c.uid;
      if (ours && minor >= 34 && (ref!.kind !== c.kind || ref!.name !== c.name)) {
        count('unlisted:OtherKindOrName');
        continue; // indexed under another key: a sync never sees it
      }
      if (ours && m && p.metadata.deletionTimestamp && !terminal(p)) terminating++;
      if (!m && !ours) continue;
      if (terminal(p)) pods[p.metadata.name] = 'ignore/Inactive';
      else if (p.metadata.deletionTimestamp) pods[p.metadata.name] = 'ignore/Terminating';
      else if (ref && !ours) pods[p.metadata.name] = 'ignore/OwnedByOther';
      else if (ours && m) {
        pods[p.metadata.name] = 'keep/OwnedMatching';
        claimed.push(p);
      } else if (ours) pods[p.metadata.name] = c.deleting ? 'ignore/ControllerDeleting' : 'release/OwnedNotMatching';
      else if (c.deleting) pods[p.metadata.name] = 'ignore/ControllerDeleting';
      else {
        pods[p.metadata.name] = 'adopt/OrphanMatching';
        claimed.push(p);
      }
    }
    let create = 0;
    let deleteKeys: string[] = [];
    let deleteReasons: string[] = [];
    let deleteSet: string[] | null = [];
    if (!c.deleting) {
      const diff = claimed.length - c.replicas;
      if (diff < 0) create = Math.min(-diff, burst);
      if (diff > 0) {
        const n = Math.min(diff, burst);
        // related pods (§6.2 step 2)
        const perNode = new Map<string, number>();
        if (c.kind === 'ReplicaSet' && c.owner) {
          const seen = new Set<string>();
          for (const sib of ctls) {
            if (sib.kind !== 'ReplicaSet' || sib.owner?.uid !== c.owner.uid) continue;
            const ss = naiveSelector(sib.selector);
            if (ss === 'invalid') continue;
            for (const p of s.pods) {
              if (p.metadata.namespace !== sib.ns || !ss(p.metadata.labels) || seen.has(p.metadata.uid)) continue;
              seen.add(p.metadata.uid);
              if (active(p)) perNode.set(p.spec?.nodeName ?? '', (perNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
            }
          }
        }
        const keyed = claimed.map((p) => ({ p, key: rankKey(p, perNode.get(p.spec?.nodeName ?? '') ?? 0, now) }));
        if (n === claimed.length) {
          deleteSet = claimed.map((p) => p.metadata.name).sort();
          deleteKeys = [];
          deleteReasons = claimed.map(() => 'ScaleToZero');
        } else {
          keyed.sort((a, b) => cmpKey(a.key, b.key));
          const kept = keyed[n];
          const victims = keyed.slice(0, n);
          deleteKeys = victims.map((v) => JSON.stringify(v.key));
          deleteReasons = victims.map((v) => reasonOf(v.key, kept.key));
          // the victim set is forced when no victim ties with the first kept pod
          deleteSet = cmpKey(victims[n - 1].key, kept.key) === 0 ? null : victims.map((v) => v.p.metadata.name).sort();
        }
      }
    }
    let full = 0;
    let ready = 0;
    let available = 0;
    for (const p of claimed) {
      if (Object.entries(c.template).every(([k, v]) => has(p.metadata.labels, k) && p.metadata.labels![k] === v)) full++;
      if (isReady(p)) {
        ready++;
        const t = time(readyCond(p)?.lastTransitionTime);
        if (c.minReady === 0 || (t !== null && (minor >= 34 ? t + c.minReady * 1000 <= now : t + c.minReady * 1000 < now))) available++;
      }
    }
    const status: Expected['status'] = {
      replicas: claimed.length,
      fullyLabeledReplicas: full,
      readyReplicas: ready,
      availableReplicas: available,
      observedGeneration: c.status.observedGeneration ?? 0,
    };
    if (c.kind === 'ReplicaSet' || minor < 34) status.terminatingReplicas = terminating;
    const cur = c.status;
    const hadFailure = (cur.conditions ?? []).some((x) => x.type === 'ReplicaFailure');
    const same =
      (cur.replicas ?? 0) === status.replicas &&
      (cur.fullyLabeledReplicas ?? 0) === status.fullyLabeledReplicas &&
      (cur.readyReplicas ?? 0) === status.readyReplicas &&
      (cur.availableReplicas ?? 0) === status.availableReplicas &&
      (cur.terminatingReplicas ?? null) === (status.terminatingReplicas ?? null) &&
      c.generation === (cur.observedGeneration ?? 0) &&
      !hadFailure;
    if (!same) status.observedGeneration = c.generation;
    out.set(key, { skip: c.deleting ? 'ControllerDeleting' : null, pods, create, deleteKeys, deleteReasons, deleteSet, status, statusChanged: !same });
  }
  return out;
}

// §7 as a lexicographic key, valid on the generator's domain (distinct buckets ⇒ no uid step).
type Key = [number, number, number, number, number, number, number, number, number];
const PHASE: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
function rankKey(p: Pod, rank: number, now: number): Key {
  const r = isReady(p);
  const rt = r ? time((p.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime) : null;
  const ct = time(p.metadata.creationTimestamp);
  const restarts = Math.max(0, ...(p.status?.containerStatuses ?? []).map((x) => x.restartCount ?? 0));
  const sidecars = new Set((p.spec?.initContainers ?? []).filter((x) => x.restartPolicy === 'Always').map((x) => x.name));
  const side = Math.max(0, ...(p.status?.initContainerStatuses ?? []).filter((x) => sidecars.has(x.name)).map((x) => x.restartCount ?? 0));
  const raw = p.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'];
  const cost = raw !== undefined && /^(-[0-9]+|0|[1-9][0-9]*)$/.test(raw) && Number(raw) >= -(2 ** 31) && Number(raw) < 2 ** 31 ? Number(raw) : 0;
  return [
    p.spec?.nodeName ? 1 : 0,
    Object.hasOwn(PHASE, p.status?.phase ?? '') ? PHASE[p.status!.phase!] : 0,
    r ? 1 : 0,
    cost,
    -rank,
    r ? (rt === null ? -Infinity : now - rt) : 0, // ready for a shorter time first; zero = newest
    -restarts,
    -side,
    ct === null ? -Infinity : now - ct, // newer first; zero = newest
  ];
}
const REASONS = ['Unscheduled', 'Phase', 'NotReady', 'LowerDeletionCost', 'MoreOnSameNode', 'ReadyShorter', 'MoreRestarts', 'MoreRestarts', 'Newer'];
function cmpKey(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
function reasonOf(v: Key, kept: Key): string {
  for (let i = 0; i < v.length; i++) if (v[i] !== kept[i]) return v[i] < kept[i] ? REASONS[i] : 'Tie';
  return 'Tie';
}

// ---------------------------------------------------------------------------------------------
// Random snapshots

const TIMES = [null, 10 * SECOND, MINUTE, HOUR, DAY, 30 * DAY]; // distinct log buckets
const labelArb: fc.Arbitrary<Labels> = fc.record({ app: fc.constantFrom('x', 'y'), tier: fc.constantFrom('1', '2') }, { requiredKeys: [] });
const selectorArb: fc.Arbitrary<LabelSelector | null> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ matchLabels: labelArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      matchLabels: labelArb,
      matchExpressions: fc.array(
        fc.oneof(
          fc.record({
            key: fc.constantFrom('app', 'tier'),
            operator: fc.constantFrom('In', 'NotIn'),
            values: fc.uniqueArray(fc.constantFrom('x', 'y', '1', '2'), { minLength: 1, maxLength: 2 }),
          }),
          fc.record({ key: fc.constantFrom('app', 'tier'), operator: fc.constantFrom('Exists', 'DoesNotExist') }),
        ),
        { maxLength: 2 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant<LabelSelector>({ matchExpressions: [{ key: 'app', operator: 'Equals', values: ['x'] }] }) },
  { weight: 1, arbitrary: fc.constant<LabelSelector | null>(null) },
  { weight: 1, arbitrary: fc.constant<LabelSelector>({}) },
);

const worldArb = fc
  .record({
    rss: fc.array(
      fc.record({
        ns: fc.constantFrom('a', 'b'),
        owner: fc.constantFrom(undefined, 'd1', 'd2'),
        replicas: fc.integer({ min: 0, max: 4 }),
        selector: selectorArb,
        template: labelArb,
        deleting: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
        minReady: fc.constantFrom(0, 30),
        generation: fc.integer({ min: 1, max: 2 }),
        observed: fc.integer({ min: 0, max: 2 }),
        statusReplicas: fc.integer({ min: 0, max: 3 }),
        term: fc.constantFrom(undefined, 0, 1),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    rcs: fc.array(
      fc.record({ ns: fc.constantFrom('a', 'b'), replicas: fc.integer({ min: 0, max: 3 }), selector: fc.option(labelArb, { nil: null }), template: labelArb }),
      { maxLength: 2 },
    ),
    pods: fc.array(
      fc.record({
        ns: fc.constantFrom('a', 'b'),
        labels: labelArb,
        owner: fc.integer({ min: -4, max: 6 }), // <0: none / ghost / controller:false / first uid under another name; else an index into the controllers
        node: fc.constantFrom('', 'n1', 'n1', 'n2', 'n2', 'n3'),
        phase: fc.constantFrom('Running', 'Running', 'Running', 'Running', 'Running', 'Pending', 'Unknown', '', 'Succeeded', 'Failed'),
        deleting: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
        ready: fc.option(fc.boolean(), { nil: undefined }),
        readyIdx: fc.integer({ min: 0, max: TIMES.length - 1 }),
        createdIdx: fc.integer({ min: 0, max: TIMES.length - 1 }),
        cost: fc.constantFrom(undefined, undefined, undefined, undefined, '0', '1', '-1', '+5', '007'),
        restarts: fc.constantFrom(0, 0, 0, 1, 2),
        sidecar: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      }),
      { maxLength: 16 },
    ),
  })
  .map(({ rss, rcs, pods }): Snapshot => {
    const replicaSets: ReplicaSet[] = rss.map((r, i) => {
      const o: ReplicaSet = {
        metadata: { name: `rs${i}`, namespace: r.ns, uid: `rs-${i}`, generation: r.generation },
        spec: {
          replicas: r.replicas,
          minReadySeconds: r.minReady,
          selector: r.selector,
          template: { metadata: { labels: { ...r.template, app: r.template.app ?? 'x' } } },
        },
        status: {
          replicas: r.statusReplicas,
          fullyLabeledReplicas: 0,
          readyReplicas: 0,
          availableReplicas: 0,
          observedGeneration: r.observed,
          ...(r.term === undefined ? {} : { terminatingReplicas: r.term }),
        },
      };
      if (r.owner) o.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: r.owner, uid: r.owner, controller: true }];
      if (r.deleting) o.metadata.deletionTimestamp = ago(MINUTE);
      return o;
    });
    const replicationControllers: ReplicationController[] = rcs.map((r, i) => ({
      metadata: { name: `rc${i}`, namespace: r.ns, uid: `rc-${i}`, generation: 1 },
      spec: { replicas: r.replicas, selector: r.selector, template: { metadata: { labels: { ...r.template, app: r.template.app ?? 'x' } } } },
      status: { observedGeneration: 1 },
    }));
    const uids = [...replicaSets.map((r) => r.metadata.uid), ...replicationControllers.map((r) => r.metadata.uid)];
    const refs = [
      ...replicaSets.map((r) => ({ kind: 'ReplicaSet', name: r.metadata.name })),
      ...replicationControllers.map((r) => ({ kind: 'ReplicationController', name: r.metadata.name })),
    ];
    const ps: Pod[] = pods.map((p, i) => {
      const conditions: any[] = [];
      if (p.ready !== undefined)
        conditions.push({ type: 'Ready', status: p.ready ? 'True' : 'False', lastTransitionTime: TIMES[p.readyIdx] === null ? null : ago(TIMES[p.readyIdx]!) });
      const pod: Pod = {
        metadata: {
          name: `pod${i}`,
          namespace: p.ns,
          uid: `pod-${String(i).padStart(2, '0')}`,
          labels: p.labels,
          creationTimestamp: TIMES[p.createdIdx] === null ? null : ago(TIMES[p.createdIdx]!),
        },
        spec: { nodeName: p.node || undefined, containers: [{ name: 'c' }] },
        status: { phase: p.phase || undefined, conditions, containerStatuses: [{ name: 'c', restartCount: p.restarts }] },
      };
      if (p.sidecar !== undefined) {
        pod.spec!.initContainers = [{ name: 'side', restartPolicy: 'Always' }];
        pod.status!.initContainerStatuses = [{ name: 'side', restartCount: p.sidecar }];
      }
      if (p.owner === -1) pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'ghost', uid: 'ghost', controller: true }];
      if (p.owner === -2 && uids.length)
        pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: uids[0], controller: false }];
      if (p.owner === -4 && uids.length)
        pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: uids[0], controller: true }];
      if (p.owner >= 0 && p.owner < uids.length)
        pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', ...refs[p.owner], uid: uids[p.owner], controller: true }];
      if (p.deleting) pod.metadata.deletionTimestamp = ago(SECOND);
      if (p.cost !== undefined) pod.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': p.cost };
      return pod;
    });
    return { controllers: { ReplicaSet: replicaSets, ReplicationController: replicationControllers }, pods: ps };
  });

// ---------------------------------------------------------------------------------------------

const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

function check(s: Snapshot, burst?: number, minor: 33 | 35 = 35) {
  const behaviour = minor === 35 ? bh(35) : bh(33, { DeploymentReplicaSetTerminatingReplicas: true });
  const plan = planSnapshot(s, { now: NOW, behaviour, source: 'file', burstReplicas: burst });
  const want = naivePlan(s, NOW, burst, minor);
  for (const w of want.values()) {
    if (w.skip) count(w.skip);
    for (const d of Object.values(w.pods)) count(d);
    for (const r of w.deleteReasons) count(`delete:${r}`);
    if (w.create) count('create');
    if (w.deleteSet === null) count('delete:tied');
    if (w.status && w.status.availableReplicas < w.status.readyReplicas) count('notAvailable');
  }
  expect(plan.controllers.length).toBe(want.size);
  for (const c of plan.controllers) {
    const w = want.get(`${c.kind}/${c.namespace}/${c.name}`)!;
    const id = `${c.kind} ${c.namespace}/${c.name}`;
    expect(w, id).toBeDefined();
    expect(c.skip?.reason ?? null, id).toBe(w.skip);
    expect(Object.fromEntries(c.pods.map((p) => [p.name, `${p.decision}/${p.reason}`])), id).toEqual(w.pods);
    if (w.skip === 'InvalidSelector') {
      expect(c.statusChanged).toBe(false);
      continue;
    }
    expect(c.create.count, id).toBe(w.create);
    expect(
      c.delete.map((d) => d.reason),
      `${id} delete reasons`,
    ).toEqual(w.deleteReasons);
    if (w.deleteSet) expect(c.delete.map((d) => d.name).sort(), `${id} victims`).toEqual(w.deleteSet);
    if (w.deleteKeys.length) {
      const byName = new Map(s.pods.map((p) => [p.metadata.name, p]));
      const perNodeKeys = w.deleteKeys;
      // the victims' keys in plan order must be the naive sorted keys (same order, ties aside)
      const gotKeys = c.delete.map((d) => JSON.stringify(rankKeyForPlan(byName.get(d.name)!, s, c)));
      expect(gotKeys, `${id} victim keys`).toEqual(perNodeKeys);
    }
    const st: Record<string, unknown> = {
      replicas: c.status.replicas,
      fullyLabeledReplicas: c.status.fullyLabeledReplicas,
      readyReplicas: c.status.readyReplicas,
      availableReplicas: c.status.availableReplicas,
      observedGeneration: c.status.observedGeneration,
    };
    if (c.status.terminatingReplicas !== undefined) st.terminatingReplicas = c.status.terminatingReplicas;
    expect(st, `${id} status`).toEqual(w.status);
    expect(c.statusChanged, `${id} statusChanged`).toBe(w.statusChanged);
  }
}

/** The naive key of a pod as seen by controller c (recomputing its related pods per node). */
function rankKeyForPlan(p: Pod, s: Snapshot, c: PlanController): Key {
  const rsObj = (s.controllers.ReplicaSet as ReplicaSet[]).find(
    (r) => r.metadata.namespace === c.namespace && r.metadata.name === c.name && c.kind === 'ReplicaSet',
  );
  const owner = rsObj ? ctrlOf(rsObj.metadata.ownerReferences) : undefined;
  let rank = 0;
  if (owner) {
    const seen = new Set<string>();
    for (const sib of s.controllers.ReplicaSet as ReplicaSet[]) {
      if (ctrlOf(sib.metadata.ownerReferences)?.uid !== owner.uid) continue;
      const ss = naiveSelector(sib.spec.selector);
      if (ss === 'invalid') continue;
      for (const q of s.pods) {
        if (q.metadata.namespace !== sib.metadata.namespace || !ss(q.metadata.labels) || seen.has(q.metadata.uid)) continue;
        seen.add(q.metadata.uid);
        if (active(q) && (q.spec?.nodeName ?? '') === (p.spec?.nodeName ?? '')) rank++;
      }
    }
  }
  return rankKey(p, rank, NOW);
}

describe('indexed planner ≡ naive per-controller planner (random snapshots)', () => {
  it('same decisions, creates, victims (up to exact ties), reasons and status', () => {
    fc.assert(
      fc.property(worldArb, (s) => check(s)),
      { numRuns: 400, seed: 20260101 },
    );
    fc.assert(
      fc.property(worldArb, (s) => check(s)),
      { numRuns: 200, seed: 20260102 },
    );
  });
  it('same with a small burst cap', () => {
    fc.assert(
      fc.property(worldArb, (s) => check(s, 1)),
      { numRuns: 150, seed: 20260103 },
    );
  });
  it('same on 1.33 with DeploymentReplicaSetTerminatingReplicas forced on (pods owned by uid alone, RCs count terminating pods)', () => {
    fc.assert(
      fc.property(worldArb, (s) => check(s, undefined, 33)),
      { numRuns: 300, seed: 20260105 },
    );
  });
  it('a larger snapshot (many pods per namespace, so the label index is used)', () => {
    // Above the planner's scan threshold the label postings are used; the answers must not change.
    fc.assert(
      fc.property(fc.array(worldArb, { minLength: 20, maxLength: 20 }), (worlds) => {
        const merged: Snapshot = { controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] };
        worlds.forEach((w, i) => {
          const ren = <T extends { metadata: { name: string; uid: string; ownerReferences?: OwnerReference[] | null } }>(o: T): T => ({
            ...o,
            metadata: {
              ...o.metadata,
              name: `w${i}-${o.metadata.name}`,
              uid: `w${i}-${o.metadata.uid}`,
              ownerReferences: o.metadata.ownerReferences?.map((r) =>
                r.kind === 'Deployment'
                  ? { ...r, uid: `w${i}-${r.uid}` }
                  : r.uid === 'ghost'
                    ? r
                    : { ...r, name: r.name === 'x' ? 'x' : `w${i}-${r.name}`, uid: `w${i}-${r.uid}` },
              ),
            },
          });
          merged.controllers.ReplicaSet.push(...w.controllers.ReplicaSet.map(ren));
          merged.controllers.ReplicationController.push(...w.controllers.ReplicationController.map(ren));
          merged.pods.push(...w.pods.map(ren));
        });
        check(merged);
      }),
      { numRuns: 25, seed: 20260104 },
    );
  });
  it('the random snapshots exercised every rule compared above', () => {
    // guards against a vacuous property: each outcome must have occurred in the runs above
    for (const what of [
      'InvalidSelector',
      'ControllerDeleting',
      'keep/OwnedMatching',
      'adopt/OrphanMatching',
      'release/OwnedNotMatching',
      'ignore/OwnedByOther',
      'ignore/Inactive',
      'ignore/Terminating',
      'ignore/ControllerDeleting',
      'create',
      'delete:ScaleToZero',
      'delete:Unscheduled',
      'delete:Phase',
      'delete:NotReady',
      'delete:LowerDeletionCost',
      'delete:MoreOnSameNode',
      'delete:ReadyShorter',
      'delete:MoreRestarts',
      'delete:Newer',
      'delete:Tie',
      'delete:tied',
      'notAvailable',
      'unlisted:OtherKindOrName',
    ])
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
  });
});
