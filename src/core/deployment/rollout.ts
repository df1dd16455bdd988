// A rollout foreseen: the deployment controller and the ReplicaSet controller taking turns on an
// in-memory cluster, with a kubelet that follows stated assumptions, until the Deployment is
// complete or nothing more can happen. Each turn is the one decision of each controller
// (decideDeployment, ClusterPlanner.planController) carried out as the runtime would carry it out.
// What must stay true: the prediction never decides anything itself; it only applies the two
// controllers' decisions and advances the clock to the next thing the kubelet or a requeue does.

import { ClusterPlanner } from '../plan.js';
import { PLAN_API_VERSION } from '../plan-types.js';
import { availableAtMs, controllerRef, isPodReady } from '../pod.js';
import { writtenStatus } from '../status.js';
import { deletesOf } from '../sync-decision.js';
import { formatTime } from '../time.js';
import type { Pod, ReplicaSet, Deployment } from '../types.js';
import type { Behaviour } from '../versions.js';
import { decideDeployment } from './controller.js';
import { clone } from './sync-run.js';
import type { RolloutChange } from './rollout-change.js';
import type { DeploymentWrite } from './types.js';
import { deploymentComplete, findNewReplicaSet, getCondition, POD_TEMPLATE_HASH_LABEL, REASON, rsReplicas, semanticEqual } from './util.js';

/** What the prediction assumes of the kubelet (and of nothing else). */
export interface RolloutAssumptions {
  /** Seconds from a pod's creation to its Ready condition; null: new pods never turn ready. */
  podReadyAfterSeconds: number | null;
  /** Seconds from a pod's deletion to its removal (its termination grace); 0: gone at once. */
  podGoneAfterSeconds: number;
}

export interface RolloutInput {
  /** The Deployment as the change leaves it (new template or replicas, generation bumped). */
  deployment: Deployment;
  /** The namespace's ReplicaSets and pods as they are when the change is made. */
  replicaSets: ReplicaSet[];
  pods: Pod[];
  nowMs: number;
  behaviour: Behaviour;
  assumptions: RolloutAssumptions;
  burstReplicas?: number;
  /** Bounds of the prediction: simulated seconds and controller writes. */
  limits?: { seconds: number; steps: number };
}

export type RolloutStep =
  | { at: number; controller: 'deployment'; replicaSet: string; verb: 'create'; replicas: number; message: string }
  | { at: number; controller: 'deployment'; replicaSet: string; verb: 'scale'; from: number; to: number; message: string }
  | { at: number; controller: 'deployment'; replicaSet: string; verb: 'delete'; message: string }
  | { at: number; controller: 'replicaset'; replicaSet: string; verb: 'create'; pods: number }
  | { at: number; controller: 'replicaset'; replicaSet: string; verb: 'delete'; pod: string; reason: string; message: string };

/** ReplicaSet spec.replicas after one deployment-controller write, by name. */
type RolloutSizes = { at: number } & Record<string, number>;

type RolloutEnd =
  | { state: 'complete'; at: number }
  | { state: 'stalled'; at: number; reason: 'PodsNeverReady' | 'ProgressDeadlineExceeded' | 'Paused' | 'NothingToDo' | 'SyncError'; message: string }
  | { state: 'limit'; at: number; message: string };

export interface RolloutResult {
  steps: RolloutStep[];
  sizes: RolloutSizes[];
  /** The name the new ReplicaSet has in this prediction (a stand-in where its hash is not computed). */
  newReplicaSet: string | null;
  end: RolloutEnd;
}

const DEFAULT_LIMITS = { seconds: 7 * 24 * 3600, steps: 200_000 };
/** Turns of both controllers at one instant before the clock must move (each turn writes). */
const MAX_TURNS_PER_INSTANT = 1000;
/** The pod-template-hash label value of a ReplicaSet created in the prediction (no hash computed). */
const PREDICTED_HASH = 'predicted';

/** The two controllers and the kubelet on one in-memory namespace. */
class World {
  d: Deployment;
  readonly rss = new Map<string, ReplicaSet>();
  readonly pods = new Map<string, Pod>();
  /** When a pod created in the prediction turns ready, and when a deleted pod is gone (epoch ms). */
  readonly readyAt = new Map<string, number>();
  readonly goneAt = new Map<string, number>();
  readonly steps: RolloutStep[] = [];
  readonly sizes: RolloutSizes[] = [];
  private seq = 0;
  /** Requeues the controllers asked for, epoch ms. */
  readonly requeues = new Set<number>();
  lastError: string | null = null;

  constructor(
    private readonly input: RolloutInput,
    readonly startMs: number,
  ) {
    this.d = clone(input.deployment);
    for (const rs of input.replicaSets) this.rss.set(rs.metadata.name, clone(rs));
    for (const p of input.pods) this.pods.set(p.metadata.name, clone(p));
  }

  at(nowMs: number): number {
    return (nowMs - this.startMs) / 1000;
  }

  private nextUid(): string {
    this.seq += 1;
    return `predicted-${String(this.seq).padStart(6, '0')}`;
  }

  /** The ReplicaSets the Deployment owns (controller reference to its uid). */
  owned(): ReplicaSet[] {
    return [...this.rss.values()].filter((rs) => controllerRef(rs)?.uid === this.d.metadata.uid);
  }

  /** One syncDeployment, its writes applied up to the first one the server refuses. */
  deploymentTurn(nowMs: number): boolean {
    const decision = decideDeployment({
      deployment: this.d,
      replicaSets: [...this.rss.values()],
      pods: [...this.pods.values()],
      nowMs,
      behaviour: this.input.behaviour,
    });
    this.lastError = decision.error;
    if (decision.requeueAfterSeconds !== null) this.requeues.add(nowMs + decision.requeueAfterSeconds * 1000);
    const actions = [...decision.actions];
    let wrote = false;
    for (const w of decision.writes) {
      if (('conflict' in w && w.conflict) || !this.apply(w, nowMs, actions)) break;
      wrote = true;
    }
    return wrote;
  }

  /** One write of the deployment controller; the action message in order of the decision's actions. */
  private apply(w: DeploymentWrite, nowMs: number, actions: { message: string; verb: string }[]): boolean {
    const at = this.at(nowMs);
    const take = (verb: string) => {
      const i = actions.findIndex((a) => a.verb === verb);
      return i < 0 ? '' : actions.splice(i, 1)[0].message;
    };
    switch (w.kind) {
      case 'adoptReplicaSet':
      case 'releaseReplicaSet': {
        const rs = this.rss.get(w.name);
        if (!rs) return false;
        const refs = (rs.metadata.ownerReferences ?? []).filter((r) => r.uid !== this.d.metadata.uid);
        if (w.kind === 'adoptReplicaSet')
          refs.push({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: this.d.metadata.name,
            uid: this.d.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          });
        rs.metadata.ownerReferences = refs;
        return true;
      }
      case 'createReplicaSet': {
        const rs = clone(w.replicaSet);
        if (!w.hashKnown) {
          // the server's name is <deployment>-<hash>; the stand-in keeps the label and selector shape
          rs.metadata.labels = { ...(rs.metadata.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: PREDICTED_HASH };
          rs.spec.selector = {
            ...(rs.spec.selector ?? {}),
            matchLabels: { ...(rs.spec.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: PREDICTED_HASH },
          };
          const template = (rs.spec.template ??= {});
          template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: PREDICTED_HASH } };
        }
        rs.metadata.uid = this.nextUid();
        rs.metadata.creationTimestamp = formatTime(nowMs);
        rs.metadata.generation = 1;
        rs.status = { replicas: 0, observedGeneration: 0 };
        this.rss.set(rs.metadata.name, rs);
        this.steps.push({ at, controller: 'deployment', replicaSet: rs.metadata.name, verb: 'create', replicas: rsReplicas(rs), message: take('create') });
        this.recordSizes(at);
        return true;
      }
      case 'updateReplicaSet': {
        const old = this.rss.get(w.replicaSet.metadata.name);
        if (!old) return false;
        const next = clone(w.replicaSet);
        next.status = old.status;
        next.metadata.generation = (old.metadata.generation ?? 1) + (rsReplicas(old) !== rsReplicas(next) ? 1 : 0);
        this.rss.set(next.metadata.name, next);
        if (w.from !== w.to) {
          this.steps.push({ at, controller: 'deployment', replicaSet: next.metadata.name, verb: 'scale', from: w.from, to: w.to, message: take('scale') });
          this.recordSizes(at);
        }
        return true;
      }
      case 'deleteReplicaSet': {
        if (!this.rss.delete(w.name)) return false;
        this.steps.push({ at, controller: 'deployment', replicaSet: w.name, verb: 'delete', message: take('delete') });
        this.recordSizes(at);
        return true;
      }
      case 'updateDeploymentStatus':
        this.d.status = clone(w.status);
        this.d.metadata.annotations = { ...w.annotations };
        return true;
      case 'updateDeployment': {
        // the rollback's template and annotations: a new generation (spec or annotations changed)
        const changed =
          !semanticEqual(w.deployment.spec, this.d.spec) || !semanticEqual(w.deployment.metadata.annotations ?? {}, this.d.metadata.annotations ?? {});
        const generation = (this.d.metadata.generation ?? 1) + (changed ? 1 : 0);
        this.d = { ...clone(w.deployment), status: this.d.status, metadata: { ...clone(w.deployment.metadata), generation } };
        return true;
      }
    }
  }

  private recordSizes(at: number): void {
    const sizes: RolloutSizes = { at } as RolloutSizes;
    for (const rs of this.owned().sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) sizes[rs.metadata.name] = rsReplicas(rs);
    this.sizes.push(sizes);
  }

  /** One syncReplicaSet of each ReplicaSet the Deployment owns, carried out. */
  replicaSetTurn(nowMs: number): boolean {
    const rsList = [...this.rss.values()];
    const planner = new ClusterPlanner(
      { controllers: { ReplicaSet: rsList, ReplicationController: [] }, pods: [...this.pods.values()] },
      { now: nowMs, behaviour: this.input.behaviour, source: 'file', warnings: false, burstReplicas: this.input.burstReplicas },
    );
    const mine = new Set(this.owned().map((rs) => rs.metadata.uid));
    let wrote = false;
    const at = this.at(nowMs);
    for (const c of planner.controllers) {
      if (!mine.has(c.metadata.uid)) continue;
      const decision = planner.planController(c);
      const rs = this.rss.get(c.metadata.name)!;
      for (const claim of decision.claims) {
        if (claim.decision !== 'adopt' && claim.decision !== 'release') continue;
        const pod = this.pods.get(claim.pod.metadata.name);
        if (!pod) continue;
        const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
        if (claim.decision === 'adopt')
          refs.push({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true });
        pod.metadata.ownerReferences = refs;
        wrote = true;
      }
      if (decision.create.count > 0) {
        for (let i = 0; i < decision.create.count; i++) this.createPod(rs, nowMs);
        this.steps.push({ at, controller: 'replicaset', replicaSet: rs.metadata.name, verb: 'create', pods: decision.create.count });
        wrote = true;
      }
      for (const victim of deletesOf(decision)) {
        const pod = this.pods.get(victim.name);
        if (!pod) continue;
        this.deletePod(pod, nowMs);
        this.steps.push({
          at,
          controller: 'replicaset',
          replicaSet: rs.metadata.name,
          verb: 'delete',
          pod: victim.name,
          reason: victim.reason,
          message: victim.message,
        });
        wrote = true;
      }
      if (decision.statusChanged) {
        rs.status = writtenStatus(decision.status);
        wrote = true;
      }
      if (decision.requeueAfterSeconds !== null) this.requeues.add(nowMs + decision.requeueAfterSeconds * 1000);
    }
    return wrote;
  }

  private createPod(rs: ReplicaSet, nowMs: number): void {
    const template = rs.spec.template ?? {};
    this.seq += 1;
    // a stand-in for the server's generateName suffix: names of pods that do not exist yet are made up
    const name = `${rs.metadata.name}-new${this.seq}`;
    const pod: Pod = {
      metadata: {
        name,
        namespace: rs.metadata.namespace,
        uid: this.nextUid(),
        creationTimestamp: formatTime(nowMs),
        labels: { ...(template.metadata?.labels ?? {}) },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
        ],
      },
      spec: { ...clone(template.spec ?? {}), nodeName: 'predicted-node' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: formatTime(nowMs) }] },
    };
    this.pods.set(name, pod);
    const after = this.input.assumptions.podReadyAfterSeconds;
    if (after !== null) this.readyAt.set(name, nowMs + after * 1000);
  }

  private deletePod(pod: Pod, nowMs: number): void {
    const grace = this.input.assumptions.podGoneAfterSeconds;
    this.readyAt.delete(pod.metadata.name);
    if (grace <= 0) {
      this.pods.delete(pod.metadata.name);
      return;
    }
    pod.metadata.deletionTimestamp = formatTime(nowMs + grace * 1000);
    pod.metadata.deletionGracePeriodSeconds = grace;
    this.goneAt.set(pod.metadata.name, nowMs + grace * 1000);
  }

  /** The kubelet at `nowMs`: pods due turn ready, deleted pods due are removed. */
  kubelet(nowMs: number): void {
    for (const [name, t] of this.readyAt) {
      if (t > nowMs) continue;
      const pod = this.pods.get(name);
      this.readyAt.delete(name);
      if (!pod?.status) continue;
      pod.status.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(t) }];
    }
    for (const [name, t] of this.goneAt) {
      if (t > nowMs) continue;
      this.pods.delete(name);
      this.goneAt.delete(name);
    }
  }

  /** The next instant after `nowMs` at which anything changes: a pod ready, available, gone, a requeue. */
  nextEvent(nowMs: number): number | null {
    let next: number | null = null;
    const consider = (t: number | null) => {
      if (t !== null && t > nowMs && (next === null || t < next)) next = t;
    };
    for (const t of this.readyAt.values()) consider(t);
    for (const t of this.goneAt.values()) consider(t);
    for (const t of this.requeues) consider(t);
    for (const rs of this.owned()) {
      const minReady = rs.spec.minReadySeconds ?? 0;
      if (minReady <= 0) continue;
      for (const p of this.pods.values()) {
        if (controllerRef(p)?.uid !== rs.metadata.uid || !isPodReady(p)) continue;
        consider(availableAtMs(p, minReady));
      }
    }
    return next;
  }

  /** The rollout is done: DeploymentComplete as upstream judges it, and no old ReplicaSet has pods. */
  complete(): boolean {
    const status = this.d.status ?? {};
    if (!deploymentComplete(this.d, status)) return false;
    if ((status.observedGeneration ?? 0) < (this.d.metadata.generation ?? 0)) return false;
    const newRS = findNewReplicaSet(this.d, this.owned());
    return this.owned().every((rs) => rs === newRS || ((rs.status?.replicas ?? 0) === 0 && rsReplicas(rs) === 0));
  }
}

/** The whole rollout, both controllers in turn, under `input.assumptions`. */
export function predictRollout(input: RolloutInput): RolloutResult {
  const limits = input.limits ?? DEFAULT_LIMITS;
  const world = new World(input, input.nowMs);
  let now = input.nowMs;
  const end = (e: RolloutEnd): RolloutResult => ({
    steps: world.steps,
    sizes: world.sizes,
    newReplicaSet: findNewReplicaSet(world.d, world.owned())?.metadata.name ?? null,
    end: e,
  });
  for (;;) {
    world.kubelet(now);
    // both controllers in turn until neither writes at this instant
    for (let turn = 0; ; turn++) {
      if (turn >= MAX_TURNS_PER_INSTANT)
        return end({ state: 'limit', at: world.at(now), message: `the controllers kept writing at one instant for ${MAX_TURNS_PER_INSTANT} turns` });
      const wroteDeployment = world.deploymentTurn(now);
      const wroteReplicaSets = world.replicaSetTurn(now);
      if (!wroteDeployment && !wroteReplicaSets) break;
      if (world.steps.length > limits.steps) return end({ state: 'limit', at: world.at(now), message: `more than ${limits.steps} controller writes` });
    }
    if (world.complete()) return end({ state: 'complete', at: world.at(now) });
    if (world.lastError !== null) return end({ state: 'stalled', at: world.at(now), reason: 'SyncError', message: world.lastError });
    const next = world.nextEvent(now);
    if (next === null) return end(stall(world, world.at(now)));
    if ((next - input.nowMs) / 1000 > limits.seconds) return end({ state: 'limit', at: world.at(now), message: `not complete within ${limits.seconds} s` });
    now = next;
  }
}

/** Why nothing more happens although the rollout is not complete. */
function stall(world: World, at: number): RolloutEnd {
  const progressing = getCondition(world.d.status ?? {}, 'Progressing');
  if (world.d.spec.paused)
    return { state: 'stalled', at, reason: 'Paused', message: 'the Deployment is paused: the deployment controller scales but does not roll out' };
  if (progressing?.reason === REASON.TimedOut)
    return { state: 'stalled', at, reason: 'ProgressDeadlineExceeded', message: progressing.message ?? 'the Deployment has exceeded its progress deadline' };
  const notReady = [...world.pods.values()].filter((p) => !p.metadata.deletionTimestamp && !isPodReady(p)).map((p) => p.metadata.name);
  if (notReady.length > 0) {
    const shown = notReady.length > 3 ? `${notReady.slice(0, 3).join(', ')} and ${notReady.length - 3} more` : notReady.join(', ');
    return {
      state: 'stalled',
      at,
      reason: 'PodsNeverReady',
      message: `${shown} ${notReady.length === 1 ? 'is' : 'are'} not ready and, under the assumptions, never will be (new pods: --pod-ready-after; pods that exist keep their state): the Deployment waits for an availability that does not come`,
    };
  }
  return { state: 'stalled', at, reason: 'NothingToDo', message: 'neither controller has anything more to do, yet the Deployment is not complete' };
}

/** `explain deploy/NAME --image …  -o json`: the contract's RolloutPrediction. */
export interface RolloutPrediction {
  apiVersion: typeof PLAN_API_VERSION;
  kind: 'RolloutPrediction';
  now: string;
  kubernetesVersion: string;
  source: 'file' | 'cluster';
  deployment: { namespace: string; name: string };
  change: RolloutChange;
  assumptions: RolloutAssumptions;
  steps: RolloutStep[];
  sizes: RolloutSizes[];
  complete: boolean;
  completeAfterSeconds: number | null;
  /** addition: the new ReplicaSet's name in this prediction (a stand-in when created in it). */
  newReplicaSet: string | null;
  /** addition: how the prediction ends, and why when not complete. */
  end: RolloutEnd;
}

/** The document of one prediction. */
export function rolloutPrediction(
  meta: { nowMs: number; behaviour: Behaviour; source: 'file' | 'cluster'; deployment: Deployment; change: RolloutChange; assumptions: RolloutAssumptions },
  result: RolloutResult,
): RolloutPrediction {
  return {
    apiVersion: PLAN_API_VERSION,
    kind: 'RolloutPrediction',
    now: formatTime(meta.nowMs),
    kubernetesVersion: meta.behaviour.version,
    source: meta.source,
    deployment: { namespace: meta.deployment.metadata.namespace ?? 'default', name: meta.deployment.metadata.name },
    change: meta.change,
    assumptions: meta.assumptions,
    steps: result.steps,
    sizes: result.sizes,
    complete: result.end.state === 'complete',
    completeAfterSeconds: result.end.state === 'complete' ? result.end.at : null,
    newReplicaSet: result.newReplicaSet,
    end: result.end,
  };
}
