// From flags to a plan: read the snapshot (files or the live cluster, read-only), choose the
// emulated upstream version, select controllers, and run the core planner.

import type { Connection } from '../cluster/kubeconfig.js';
import type { ConnectionFlags } from '../cluster/config-overrides.js';
import { CONTROLLER_KINDS, controllerObjectsOf, namespaceOf } from '../core/controller.js';
import { planDeployments } from '../core/deployment/plan.js';
import { buildDeploymentTrees, type DeploymentTree } from '../core/explain-deployment.js';
import { buildExplainModel } from '../core/explain.js';
import type { ExplainModel } from '../core/explain-types.js';
import { controllerRef } from '../core/pod.js';
import { firstNames } from '../core/messages.js';
import { ClusterPlanner } from '../core/plan.js';
import type { SyncDecision } from '../core/sync-decision.js';
import type { Plan, WhatIf } from '../core/plan-types.js';
import { entryKey } from '../core/plan-compare.js';
import { parseSelectorString } from '../core/selector.js';
import { formatTime, humanDuration, parseTime } from '../core/time.js';
import type { Controller, ControllerKind, Snapshot } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import { UserError } from '../errors.js';
import { parseByteQuantity } from '../input/read-input.js';
import { chooseBehaviour, type BehaviourOptions } from './behaviour.js';
import type { Progress } from './progress.js';
import { deploymentOwner, describeTarget, targetMatches, type Target } from './targets.js';

export interface SourceOptions {
  filename?: string[];
  namespace?: string;
  allNamespaces?: boolean;
  selector?: string;
  /** With filename: the most bytes read from one source, a quantity such as 512Mi. */
  maxInputSize?: string;
  /** Reading a cluster: also list deployments.apps, for the deployment controller's rules (diff, explain). */
  deployments?: boolean;
  connection: ConnectionFlags;
}

export interface ModelOptions extends BehaviourOptions {
  now?: string;
  replicas?: number;
  burstReplicas?: number;
  /** Keep the decisions behind the plan, for a sync that carries them out (reconcile) or a story that tells them (explain). */
  keepDecisions?: boolean;
}

export interface PlanContext {
  planner: ClusterPlanner;
  plan: Plan;
  /** The decisions the plan shows, one per planned controller (empty unless kept). */
  decisions: SyncDecision[];
  behaviour: Behaviour;
  nowMs: number;
  source: 'file' | 'cluster';
  selected: Controller[];
  notices: string[]; // warnings for stderr
  connection: Connection | null;
  snapshot: Snapshot;
  /** The namespace a live read was scoped to (null = all namespaces or files). */
  namespace: string | null;
}

export interface PlanIO {
  stdin?: NodeJS.ReadableStream;
  progress: Progress;
  env?: NodeJS.ProcessEnv;
  clock?: () => number;
}

export function parseNow(text: string | undefined, clock: () => number): number {
  if (text === undefined) return clock();
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UserError(`invalid --now ${JSON.stringify(text)}: expected an RFC 3339 time such as 2026-01-01T00:00:00Z`);
  return ms;
}

/** The snapshot: from files, or a paginated read of the live cluster. */
export async function readSnapshot(
  src: SourceOptions,
  io: PlanIO,
): Promise<{
  snapshot: Snapshot;
  source: 'file' | 'cluster';
  notices: string[];
  serverMinor: string | null;
  connection: Connection | null;
  namespace: string | null;
}> {
  const notices: string[] = [];
  const maxInputBytes = src.maxInputSize === undefined ? undefined : parseByteQuantity(src.maxInputSize);
  if (src.filename?.length) {
    const { loadSnapshotFiles } = await import('../input/snapshot-files.js');
    const loaded = await loadSnapshotFiles(src.filename, {
      stdin: io.stdin,
      maxInputBytes,
      onProgress: (done: number, total: number) => io.progress.update(`reading snapshot: ${Math.round((100 * done) / Math.max(total, 1))}%`),
    });
    io.progress.done();
    const skipped = Object.entries(loaded.skippedKinds);
    if (skipped.length) {
      const n = skipped.reduce((a, [, k]) => a + k, 0);
      notices.push(`skipped ${n} object${n === 1 ? '' : 's'} of other kinds (${skipped.map(([k, c]) => `${k}: ${c}`).join(', ')})`);
    }
    const noPods = podlessInput(loaded.snapshot);
    if (noPods) notices.push(noPods);
    return { snapshot: loaded.snapshot, source: 'file', notices, serverMinor: null, connection: null, namespace: null };
  }
  const { connect } = await import('../cluster/kubeconfig.js');
  const { readCluster } = await import('../cluster/read.js');
  const connection = connect({ ...src.connection, namespace: src.namespace }, io.env ?? process.env);
  const namespace = src.allNamespaces ? null : connection.namespace;
  const read = await readCluster(
    connection,
    { namespace, deployments: src.deployments === true },
    { onProgress: (p) => io.progress.update(`reading ${p.resource}: ${p.items.toLocaleString('en-US')} (page ${p.pages})`) },
  );
  io.progress.done();
  return { snapshot: read.snapshot, source: 'cluster', notices, serverMinor: read.serverVersion?.minor ?? null, connection, namespace };
}

/**
 * A snapshot with controllers that want pods but holds no pod at all was most likely saved with
 * `kubectl get rs` alone: planned as it is, every controller creates all its pods. A live read with
 * no pods is the cluster's truth, and a snapshot whose controllers all want 0 pods is fine.
 */
export function podlessInput(snapshot: Snapshot): string | null {
  if (snapshot.pods.length > 0) return null;
  const wanting = (o: { spec?: { replicas?: number | null } }) => (o.spec?.replicas ?? 1) > 0;
  if (!controllerObjectsOf(snapshot).some(wanting)) return null;
  const held = countKinds((kind) => snapshot.controllers[kind].length);
  return `the input holds ${held} but no pods: every controller is planned as if its pods were gone (did you mean "kubectl get rs,rc,pods -o yaml"?)`;
}

/** A snapshot is planned at the clock's time; one this much older than that gets a --now hint. */
export const STALE_SNAPSHOT_MS = 24 * 60 * 60 * 1000;

// the times an object of a snapshot carries: its own, its conditions', its containers' and its writers'
const TIME_KEYS = new Set([
  'creationTimestamp',
  'deletionTimestamp',
  'lastTransitionTime',
  'lastProbeTime',
  'lastUpdateTime',
  'startTime',
  'startedAt',
  'finishedAt',
  'time',
]);

/** The newest timestamp anywhere in the snapshot's objects (epoch ms), or null when none has one. */
export function newestTimestamp(snapshot: Snapshot): number | null {
  let newest = -Infinity;
  // for…in, not Object.entries: the walk visits every value of every object, and must not
  // allocate for each (a snapshot's JSON objects have no inherited enumerable names)
  const visit = (value: unknown, key: string | null): void => {
    if (typeof value === 'string') {
      if (key === null || !TIME_KEYS.has(key)) return;
      const ms = parseTime(value);
      if (ms !== null && ms > newest) newest = ms;
    } else if (typeof value !== 'object' || value === null) {
      return;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], key);
    } else if (value instanceof Date) {
      const ms = value.getTime();
      if (key !== null && TIME_KEYS.has(key) && ms > newest) newest = ms;
    } else {
      const o = value as Record<string, unknown>;
      for (const k in o) visit(o[k], k);
    }
  };
  for (const p of snapshot.pods) visit(p, null);
  for (const c of controllerObjectsOf(snapshot)) visit(c, null);
  return newest === -Infinity ? null : newest;
}

/**
 * A snapshot read without --now is planned as if it were taken now: ages, readiness and
 * minReadySeconds count to the clock. When its newest timestamp is more than a day older than
 * that, one line says so and gives the --now that plans it as of then. Null otherwise.
 */
export function staleSnapshotHint(snapshot: Snapshot, nowMs: number): string | null {
  const newest = newestTimestamp(snapshot);
  if (newest === null || nowMs - newest <= STALE_SNAPSHOT_MS) return null;
  const at = formatTime(Math.floor(newest / 1000) * 1000);
  return `the snapshot's newest timestamp is ${at}, ${humanDuration((nowMs - newest) / 1000)} before now: it is planned as of now; to plan it as of when it was taken, pass --now ${at}`;
}

/**
 * Controllers in scope: namespace, -l, and names (each name must exist). `notices` gets a warning
 * when -l leaves nothing of what the namespace holds, and when deploy/NAME spans re-created
 * Deployments.
 */
export function selectControllers(
  planner: Pick<ClusterPlanner, 'controllers'>,
  src: SourceOptions,
  targets: Target[],
  liveNamespace: string | null,
  source: 'file' | 'cluster',
  notices: string[] = [],
): Controller[] {
  const nsFilter = source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : liveNamespace;
  const where = nsFilter === null ? (source === 'file' ? ' in the snapshot' : '') : ` in ${nsFilter} namespace`;
  const inNamespace = planner.controllers.filter((c) => nsFilter === null || namespaceOf(c) === nsFilter);
  let pool = inNamespace;
  if (src.selector !== undefined) {
    const sel = parseSelectorString(src.selector);
    if (!sel.ok) throw new UserError(sel.error);
    pool = pool.filter((c) => sel.selector.matches(c.metadata.labels));
    // kubectl says only "No resources found"; here a plan with nothing in it is easily mistaken
    // for "all in sync", so say which selector left nothing (with names, the error below says it).
    if (pool.length === 0 && inNamespace.length > 0 && targets.length === 0)
      notices.push(`no ReplicaSet or ReplicationController matches the selector ${src.selector}${where} (${countControllers(inNamespace)} there)`);
  }
  if (targets.length === 0) return pool;
  const chosen = new Set<Controller>();
  for (const t of targets) {
    const found = pool.filter((c) => targetMatches(t, c));
    if (found.length === 0) {
      if (src.selector !== undefined && inNamespace.some((c) => targetMatches(t, c)))
        throw new UserError(`${describeTarget(t)}${where} does not match the selector ${src.selector}`);
      if (t.kind === 'Deployment') throw new UserError(deploymentNotFound(t, inNamespace, where));
      throw new UserError(`${describeTarget(t)} not found${where}`);
    }
    const kinds = new Set(found.map((c) => c.kind));
    if (t.kind === null && kinds.size > 1)
      throw new UserError(`"${t.name}" names both a ReplicaSet and a ReplicationController: say rs/${t.name} or rc/${t.name}`);
    if (t.kind === 'Deployment') noteRecreatedDeployments(t, found, notices);
    for (const c of found) chosen.add(c);
  }
  return [...chosen];
}

function countControllers(cs: Controller[]): string {
  return countKinds((kind) => cs.filter((c) => c.kind === kind).length);
}

/** "3 ReplicaSets", "1 ReplicationController", "3 ReplicaSets and 1 ReplicationController". */
/** "3 ReplicaSets", "1 ReplicaSet and 2 ReplicationControllers": the kinds held, in registry order. */
function countKinds(count: (kind: ControllerKind) => number): string {
  const parts = CONTROLLER_KINDS.map((k) => [count(k.kind), k.kind] as const)
    .filter(([n]) => n > 0)
    .map(([n, kind]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '0 ReplicaSets');
}

/** deploy/NAME found no ReplicaSet: say so, and name the Deployments that do own some there. */
function deploymentNotFound(t: Target, inNamespace: Controller[], where: string): string {
  const owners = [...new Set(inNamespace.map((c) => deploymentOwner(c)?.name).filter((n): n is string => n !== undefined))].sort();
  const listed = firstNames(owners, 5);
  const exists = owners.length
    ? `ReplicaSets here are controlled by deployment${owners.length === 1 ? '' : 's'} ${listed}`
    : 'no ReplicaSet here is controlled by a Deployment';
  return `${describeTarget(t)} not found: no ReplicaSet${where} is controlled by a Deployment named ${t.name} (${exists})`;
}

/**
 * deploy/NAME covers the ReplicaSets of every Deployment of that name in a namespace, not only the
 * newest: without the Deployment object (snapshots seldom hold it) "newest" could only be guessed
 * from the ReplicaSets, and those still owned by a deleted Deployment's uid are the ones the garbage
 * collector is about to remove, which the user asking about NAME wants to see. Colocation still
 * counts per owner uid, as upstream's does, so a warning says that they rank apart.
 */
function noteRecreatedDeployments(t: Target, found: Controller[], notices: string[]): void {
  const byNamespace = new Map<string, Set<string>>();
  for (const c of found) {
    const ns = namespaceOf(c);
    if (!byNamespace.has(ns)) byNamespace.set(ns, new Set());
    byNamespace.get(ns)!.add(deploymentOwner(c)!.uid);
  }
  for (const [ns, uids] of byNamespace) {
    if (uids.size < 2) continue;
    notices.push(
      `deployment ${ns}/${t.name}: its ReplicaSets are controlled by ${uids.size} Deployments of that name (uids ${[...uids].sort().join(', ')}; re-created): all are shown, and colocation ranks only among the ReplicaSets of one uid, as upstream`,
    );
  }
}

/**
 * deploy/NAME found no ReplicaSet on a live cluster: when the Deployment itself exists, the error
 * says so (and why that can be) instead of "not found". Null when it does not exist, or cannot be
 * read (the "not found" error then stands, naming what the ReplicaSets say).
 */
async function existingDeployment(
  planner: ClusterPlanner,
  targets: Target[],
  read: { source: 'file' | 'cluster'; connection: Connection | null; namespace: string | null },
): Promise<UserError | null> {
  if (read.source !== 'cluster' || !read.connection || read.namespace === null) return null;
  const ns = read.namespace;
  for (const t of targets) {
    if (t.kind !== 'Deployment' || planner.controllers.some((c) => namespaceOf(c) === ns && deploymentOwner(c)?.name === t.name)) continue;
    const { readDeploymentUid } = await import('../cluster/read.js');
    const uid = await readDeploymentUid(read.connection, ns, t.name).catch(() => null);
    if (uid === null) continue;
    return new UserError(
      `deployment ${ns}/${t.name} exists${uid ? ` (uid ${uid})` : ''} but controls no ReplicaSet yet, so the ReplicaSet controller has nothing to do for it: ` +
        "a Deployment's ReplicaSets are created by the Deployment controller of kube-controller-manager (none runs in rs-reconcile's sandbox)",
    );
  }
  return null;
}

/**
 * The what-ifs of a plan: --replicas always; --now only on a live cluster, where it moves the
 * clock (a snapshot's --now is the time it was taken: the plan of that input as it is). Null when
 * the plan is of the input as it is.
 */
export function whatIfOf(model: Pick<ModelOptions, 'replicas' | 'now'>, source: 'file' | 'cluster', nowMs: number): WhatIf | null {
  const w: WhatIf = {};
  if (model.replicas !== undefined) w.replicas = model.replicas;
  if (model.now !== undefined && source === 'cluster') w.now = formatTime(nowMs);
  return Object.keys(w).length ? w : null;
}

/**
 * The plan's `deployments`: the Deployments of the scope (namespace, -l on their labels, and
 * deploy/NAME targets; none when only ReplicaSets are named), decided by the deployment
 * controller's rules. Absent when the input holds no Deployment; when they could not be read,
 * absent too, with a notice that they are unknown.
 */
function attachDeployments(
  plan: Plan,
  snapshot: PlanContext['snapshot'],
  src: SourceOptions,
  targets: Target[],
  liveNamespace: string | null,
  source: 'file' | 'cluster',
  nowMs: number,
  behaviour: PlanContext['behaviour'],
  notices: string[],
): void {
  if (snapshot.deployments === null) {
    notices.push(
      "deployments: unknown (listing deployments.apps is forbidden): the plan says nothing of the deployment controller's next sync; the ReplicaSets are planned as usual",
    );
    return;
  }
  if (!snapshot.deployments?.length) return;
  const nsFilter = source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : liveNamespace;
  const sel = src.selector === undefined ? null : parseSelectorString(src.selector);
  const named = targets.filter((t) => t.kind === 'Deployment').map((t) => t.name);
  if (targets.length > 0 && named.length === 0) return;
  const list = planDeployments(snapshot, {
    nowMs,
    behaviour,
    include: (d) =>
      (nsFilter === null || (d.metadata.namespace ?? 'default') === nsFilter) &&
      (sel === null || !sel.ok || sel.selector.matches(d.metadata.labels)) &&
      (named.length === 0 || named.includes(d.metadata.name)),
  });
  if (list) plan.deployments = list;
}

/**
 * When every target is deploy/NAME of a Deployment the input holds (in scope): the ReplicaSets
 * they control (maybe none). Else null.
 */
function heldDeployments(snapshot: Snapshot, targets: Target[], nsFilter: string | null): ((cs: Controller[]) => Controller[]) | null {
  const ds = snapshot.deployments ?? [];
  const inScope = (ns: string | undefined) => nsFilter === null || (ns ?? 'default') === nsFilter;
  const all =
    targets.length > 0 && targets.every((t) => t.kind === 'Deployment' && ds.some((d) => d.metadata.name === t.name && inScope(d.metadata.namespace)));
  if (!all) return null;
  return (cs) => cs.filter((c) => inScope(c.metadata.namespace) && targets.some((t) => targetMatches(t, c)));
}

/**
 * `diff`'s exit status 0: every controller and every Deployment of the plan in sync. (The
 * converging commands wait for planInSync: they run no deployment controller.)
 */
export function diffInSync(plan: Pick<Plan, 'controllers' | 'deployments'>): boolean {
  return planInSync(plan) && (plan.deployments ?? []).every((d) => d.inSync);
}

/**
 * Whether a plan is in sync: `diff`'s exit status 0. The one definition: `diff`, and the converging
 * `reconcile` and `run --until-synced`, which end only when `diff` on their scope would exit 0.
 */
export function planInSync(plan: Pick<Plan, 'controllers'>): boolean {
  return plan.controllers.every((c) => c.inSync);
}

/**
 * Reads, chooses the behaviour, selects and plans. `restrict`, when given, narrows the selected
 * controllers further (a follow-up read of the controllers a sync wrote to, a saved plan's).
 */
export async function preparePlan(
  src: SourceOptions,
  model: ModelOptions,
  targets: Target[],
  io: PlanIO,
  restrict?: (c: Controller) => boolean,
): Promise<PlanContext> {
  const deployment = targets.find((t) => t.kind === 'Deployment');
  if (model.replicas !== undefined && deployment)
    throw new UserError(
      `--replicas cannot be used with deploy/${deployment.name}: the Deployment controller decides how replicas are split between its ReplicaSets (scale one of them with rs/NAME --replicas N)`,
    );
  const nowMs = parseNow(model.now, io.clock ?? Date.now);
  const read = await readSnapshot(src, io);
  const notices = [...read.notices];
  if (read.source === 'file' && model.now === undefined) {
    const hint = staleSnapshotHint(read.snapshot, nowMs);
    if (hint !== null) notices.push(hint);
  }
  const behaviour = chooseBehaviour(model, read.serverMinor, notices);
  // The planner reports only the selected controllers (what-if applied to them), but reads all.
  const chosen = new Set<string>();
  const isChosen = (c: Controller) => chosen.has(c.metadata.uid + '/' + c.kind);
  const planner = new ClusterPlanner(read.snapshot, {
    now: nowMs,
    behaviour,
    source: read.source,
    burstReplicas: model.burstReplicas,
    include: isChosen,
    whatIf: whatIfOf(model, read.source, nowMs),
    replicasOverride: model.replicas === undefined ? undefined : (c) => (isChosen(c) ? model.replicas : undefined),
  });
  let selected: Controller[];
  try {
    selected = selectControllers(planner, src, targets, read.namespace, read.source, notices).filter((c) => !restrict || restrict(c));
  } catch (err) {
    // deploy/NAME whose Deployment the input holds (it may control no ReplicaSet yet): planned
    const held = heldDeployments(read.snapshot, targets, read.source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : read.namespace);
    if (!held) throw (await existingDeployment(planner, targets, read)) ?? err;
    selected = held(planner.controllers).filter((c) => !restrict || restrict(c));
  }
  for (const c of selected) chosen.add(c.metadata.uid + '/' + c.kind);
  const { plan, decisions } = planner.decideAll(model.keepDecisions === true);
  for (const c of plan.controllers) {
    if (c.skip?.reason === 'InvalidSelector') notices.push(`${c.kind} ${c.namespace}/${c.name}: ${c.skip.message}`);
  }
  attachDeployments(plan, read.snapshot, src, targets, read.source === 'file' ? null : read.namespace, read.source, nowMs, behaviour, notices);
  return {
    planner,
    plan,
    decisions,
    behaviour,
    nowMs,
    source: read.source,
    selected,
    notices,
    connection: read.connection,
    snapshot: read.snapshot,
    namespace: read.namespace,
  };
}

/**
 * What `explain` tells of the selected controllers: their stories, and for deploy/NAME the
 * Deployment's tree (one per Deployment uid) with the stories in the tree's order, new first.
 */
export function explainModels(ctx: PlanContext, target: Target): { models: ExplainModel[]; trees: DeploymentTree[] } {
  const models = ctx.selected.map((c) => explainModelOf(ctx, c));
  if (target.kind !== 'Deployment') return { models, trees: [] };
  const trees = buildDeploymentTrees(
    target.name,
    models.map((model, i) => ({ model, annotations: ctx.selected[i].metadata.annotations, ownerUid: controllerRef(ctx.selected[i])!.uid })),
  );
  const byName = new Map(models.map((m) => [m.name, m]));
  return { models: trees.flatMap((t) => t.replicaSets.map((r) => byName.get(r.name)!)), trees };
}

/** The story of one planned controller: its kept decision (keepDecisions) and its entry of the plan. */
export function explainModelOf(ctx: PlanContext, c: Controller): ExplainModel {
  const key = entryKey({ kind: c.kind, namespace: namespaceOf(c), name: c.metadata.name });
  const i = ctx.plan.controllers.findIndex((e) => entryKey(e) === key);
  const decision = ctx.decisions[i];
  if (i < 0 || !decision) throw new Error(`internal error: the plan of ${key} was prepared without its decision (keepDecisions)`);
  return buildExplainModel(ctx.planner, c, decision, ctx.plan.controllers[i], ctx.behaviour.version, ctx.plan.whatIf ?? null);
}
