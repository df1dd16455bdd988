// The planner: upstream's syncReplicaSet run for every controller of a snapshot, without
// writing anything. It reads like the sync: selector, list, filter active, claim, manage
// replicas, calculate status, decide the status write and the requeue.

import { ClaimSentences, claimPod, type ClaimDecision } from './claim.js';
import {
  compareControllers,
  desiredReplicas,
  controllerKindInfo,
  controllersOf,
  type ControllerKindInfo,
  isBeingDeleted,
  namespaceOf,
  templateHasLabels,
} from './controller.js';
import { BURST_REPLICAS, choosePodsToDelete, podsPerNode, slowStartBatches, type DeletionChoice } from './manage.js';
import type { Colocation } from './messages.js';
import { PLAN_API_VERSION, type Plan, type PlanController, type PlanSummary, type PlanWarning, type WhatIf } from './plan-types.js';
import { Advisories, advisoriesOf, manageWarnings } from './plan-warnings.js';
import { controllerRef, isPodActive, isPodTerminating } from './pod.js';
import { candidatesOf, type CandidatePods } from './candidate-pods.js';
import { PodIndex } from './pod-index.js';
import { labelSelectorAsSelector, type Selector, type SelectorResult } from './selector.js';
import { availabilityRequeueSeconds, calculateStatus, currentStatus, statusNeedsWrite } from './status.js';
import { planControllerOf, type SyncDecision, type SyncSkip } from './sync-decision.js';
import { formatTime } from './time.js';
import type { Controller, Pod, Snapshot } from './types.js';
import type { Behaviour } from './versions.js';
import { metaNamespaceKey } from './object-key.js';

export interface PlanOptions {
  now: number; // evaluation time, epoch ms
  behaviour: Behaviour;
  source: 'file' | 'cluster';
  burstReplicas?: number;
  /** Which controllers the plan reports (all are still read for overlaps and siblings). */
  include?: (c: Controller) => boolean;
  /** What-if: plan as if this controller had been scaled to N (a scale bumps generation). */
  replicasOverride?: (c: Controller) => number | undefined;
  /** The what-ifs the plan is computed under, written into it (null: none). */
  whatIf?: WhatIf | null;
  /** Live only: whether the controller's expectations are satisfied (SatisfiedExpectations). Offline: always. */
  expectationsSatisfied?: (key: string) => boolean;
  /** True when the snapshot holds every controller of the namespaces it covers. */
  controllersComplete?: boolean;
  /** Compute the advisory warnings (overlaps, owners…); the foreground controller skips them. */
  warnings?: boolean;
  /** The controller kinds the snapshot is read for (default: CONTROLLER_KINDS). */
  registry?: readonly ControllerKindInfo[];
}

export class ClusterPlanner {
  readonly controllers: Controller[];
  /** The pods a sync may read: the snapshot's, or a live cache's when the caller passes one. */
  readonly index: CandidatePods;
  readonly burstReplicas: number;
  private readonly selectors = new Map<Controller, SelectorResult>();
  private readonly rsByOwnerUid = new Map<string, Controller[]>();
  private readonly advisories: Advisories;
  /** One copy of each claim sentence (a GiB of copies with 150k pods sharing owner uids). */
  private readonly sentences = new ClaimSentences();

  constructor(
    snapshot: Snapshot,
    private readonly opts: PlanOptions,
    pods?: CandidatePods,
  ) {
    this.burstReplicas = opts.burstReplicas ?? BURST_REPLICAS;
    this.controllers = controllersOf(snapshot, opts.registry).sort(compareControllers);
    this.index = pods ?? new PodIndex(snapshot.pods);
    for (const c of this.controllers) {
      if (!this.hasSiblings(c)) continue; // the owner index holds kinds with siblings only (RCs have no controller owner)
      const owner = controllerRef(c);
      if (owner) push(this.rsByOwnerUid, owner.uid, c);
    }
    this.advisories = new Advisories({
      controllers: this.controllers,
      selectorOf: (c) => this.selectorOf(c),
      pods: this.index,
      source: opts.source,
      controllersComplete: opts.controllersComplete,
    });
  }

  selectorOf(c: Controller): SelectorResult {
    let s = this.selectors.get(c);
    if (!s) {
      s = labelSelectorAsSelector(c.spec.selector);
      this.selectors.set(c, s);
    }
    return s;
  }

  find(kind: Controller['kind'] | null, namespace: string, name: string): Controller[] {
    return this.controllers.filter((c) => c.metadata.name === name && namespaceOf(c) === namespace && (kind === null || c.kind === kind));
  }

  plan(): Plan {
    return this.decideAll(false).plan;
  }

  /**
   * The plan and, with `keep`, the decisions it shows (for a sync that carries them out, an
   * explain that tells them): `decisions[i]` is the decision of `plan.controllers[i]`. The plan's
   * entries are the decisions' projections (planControllerOf), made here and nowhere else.
   */
  decideAll(keep: boolean): { plan: Plan; decisions: SyncDecision[] } {
    const include = this.opts.include ?? (() => true);
    const decisions: SyncDecision[] = [];
    const entries: PlanController[] = [];
    for (const c of this.controllers) {
      if (!include(c)) continue;
      const d = this.planController(c);
      entries.push(planControllerOf(d));
      if (keep) decisions.push(d);
    }
    const plan: Plan = {
      apiVersion: PLAN_API_VERSION,
      kind: 'ReconcilePlan',
      now: formatTime(this.opts.now),
      kubernetesVersion: this.opts.behaviour.version,
      source: this.opts.source,
      whatIf: this.opts.whatIf ?? null,
      summary: summarize(entries),
      controllers: entries,
    };
    return { plan, decisions };
  }

  /** One sync of one controller, as upstream's syncReplicaSet, without side effects. */
  planController(original: Controller): SyncDecision {
    const c = this.withWhatIf(original);
    const bh = this.opts.behaviour;
    const sel = this.selectorOf(original);
    if (!sel.ok) return this.invalidSelector(c, sel.error);
    const selector = sel.selector;

    // Read expectations before listing pods (syncReplicaSet reads SatisfiedExpectations first).
    const needsSync = this.opts.expectationsSatisfied?.(metaNamespaceKey(namespaceOf(c), c.metadata.name)) ?? true;

    const candidates = this.candidates(c, selector);
    const claims: ClaimDecision[] = [];
    const claimed: Pod[] = [];
    for (const p of candidates) {
      const d = claimPod(c, selector, p, this.sentences);
      if (!d) continue;
      claims.push(d);
      if (d.claimed) claimed.push(p);
    }
    const terminating =
      bh.gates.DeploymentReplicaSetTerminatingReplicas && bh.statusTerminatingReplicas[c.kind] ? this.countTerminating(c, selector, candidates) : null;

    let skip: SyncSkip | null = null;
    if (isBeingDeleted(c)) {
      skip = {
        reason: 'ControllerDeleting',
        message: `the ${c.kind} is being deleted (deletionTimestamp ${c.metadata.deletionTimestamp}): upstream adopts, releases, creates and deletes nothing, but still writes the status`,
      };
    } else if (!needsSync) {
      skip = {
        reason: 'ExpectationsPending',
        message: `earlier creates or deletes of this ${c.kind} have not been observed yet: upstream waits for them (or 5 minutes) before managing replicas again`,
      };
    }
    const advisories: PlanWarning[] = this.opts.warnings === false ? [] : this.advisories.of(c, selector, claims);
    return this.decide(c, selector, claims, claimed, terminating, skip, advisories);
  }

  /**
   * The same decision after the claims went otherwise than planned (an adopted pod was already
   * gone, so upstream does not count it): manageReplicas and the status again, at the same `now`.
   */
  afterClaims(d: SyncDecision, claimed: Pod[]): SyncDecision {
    if (claimed.length === d.claimed.length && claimed.every((p, i) => p === d.claimed[i])) return d;
    return this.decide(d.controller, d.selector!, d.claims, claimed, d.terminating, d.skip, advisoriesOf(d.warnings));
  }

  /** manageReplicas, calculateStatus and the skip rule of updateReplicaSetStatus, the requeue: one `now`. */
  private decide(
    c: Controller,
    selector: Selector,
    claims: ClaimDecision[],
    claimed: Pod[],
    terminating: number | null,
    skip: SyncSkip | null,
    advisories: PlanWarning[],
  ): SyncDecision {
    const bh = this.opts.behaviour;
    const now = this.opts.now;
    const { create, deletion, perNode, manageError } = skip === null ? this.manageReplicas(c, claimed) : NOT_MANAGED();

    const status = calculateStatus(c, claimed, terminating, manageError, now, bh);
    const statusChanged = statusNeedsWrite(c, status);
    if (statusChanged) status.observedGeneration = c.metadata.generation ?? 0;
    const requeue = manageError === null ? availabilityRequeueSeconds(c, status, claimed, now, bh) : null;
    const warnings = skip === null ? [...advisories, ...manageWarnings(c, claimed.length, this.burstReplicas)] : advisories;
    return {
      controller: c,
      now,
      selector,
      selectorError: null,
      skip,
      claims,
      claimed,
      currentReplicas: claimed.length,
      terminating,
      create,
      perNode,
      colocation: this.colocation(c),
      deletion,
      status,
      statusChanged,
      manageError,
      requeueAfterSeconds: requeue,
      warnings,
    };
  }

  /** manageReplicas: too few pods, create them in slow-start batches; too many, delete the ranked surplus; burstReplicas at most. */
  private manageReplicas(c: Controller, claimed: Pod[]): ManageReplicas {
    const managed = NOT_MANAGED();
    const diff = claimed.length - desiredReplicas(c);
    if (diff < 0) {
      const count = Math.min(-diff, this.burstReplicas);
      managed.create = { count, batches: slowStartBatches(count) };
      // RealPodControl refuses locally: the first create fails and slow start stops (slowStartBatch).
      if (!templateHasLabels(c)) managed.manageError = 'unable to create pods, no labels';
    } else if (diff > 0) {
      const n = Math.min(diff, this.burstReplicas);
      managed.perNode = this.relatedPodsPerNode(c);
      managed.deletion = choosePodsToDelete(claimed, n, managed.perNode, this.opts.now, this.opts.behaviour);
    }
    return managed;
  }

  /** Whose pods the ranking counts on a node: an RC's own, a ReplicaSet's and its owner's others, or a standalone one's own. */
  private colocation(c: Controller): Colocation {
    return !this.hasSiblings(c) ? 'rc' : controllerRef(c) ? 'owner' : 'standalone';
  }

  /** Related pods (getPodsRankedByRelatedPodsOnSameNode) counted per node: pods matching any sibling's selector. */
  relatedPodsPerNode(c: Controller): Map<string, number> {
    if (!this.hasSiblings(c)) return new Map();
    const owner = controllerRef(c);
    if (!owner) return new Map(); // a standalone ReplicaSet has no related pods at all
    const seen = new Map<string, Pod>();
    for (const sibling of this.rsByOwnerUid.get(owner.uid) ?? []) {
      const s = this.selectorOf(sibling);
      if (!s.ok) continue;
      for (const p of this.index.matching(namespaceOf(sibling), s.selector)) if (!seen.has(p.metadata.uid)) seen.set(p.metadata.uid, p);
    }
    return podsPerNode(seen.values());
  }

  siblings(c: Controller): Controller[] {
    const owner = this.hasSiblings(c) ? controllerRef(c) : undefined;
    return owner ? (this.rsByOwnerUid.get(owner.uid) ?? []).filter((s) => s !== c && s.metadata.uid !== c.metadata.uid) : [];
  }

  /** Whether the kind's controllers rank by pods of their owner's other controllers (ReplicaSets of a Deployment). */
  private hasSiblings(c: Controller): boolean {
    return controllerKindInfo(c.kind, this.opts.registry).hasSiblings;
  }

  private withWhatIf(c: Controller): Controller {
    const n = this.opts.replicasOverride?.(c);
    if (n === undefined || n === desiredReplicas(c)) return c;
    // A scale writes spec.replicas, which bumps metadata.generation.
    return { ...c, spec: { ...c.spec, replicas: n }, metadata: { ...c.metadata, generation: (c.metadata.generation ?? 0) + 1 } };
  }

  /** Pods of the namespace that match the selector or name this controller, in cache order. */
  private candidates(c: Controller, selector: Selector): Pod[] {
    // From 1.34 a pod whose reference carries this uid under another kind or name is not listed.
    return candidatesOf(this.index, namespaceOf(c), c.metadata.uid, selector, this.ownerKey(c));
  }

  /** The owner to match beyond the uid: kind and name under the 1.34+ pod index, none before. */
  private ownerKey(c: Controller): { kind: string; name: string; uid: string } | undefined {
    if (this.opts.behaviour.controllerRefIndex === 'uid') return undefined;
    return { kind: c.kind, name: c.metadata.name, uid: c.metadata.uid };
  }

  /** Terminating pods controlled by this controller that match its selector (syncReplicaSet, for status.terminatingReplicas). */
  private countTerminating(c: Controller, selector: Selector, candidates: Pod[]): number {
    let n = 0;
    for (const p of candidates) {
      if (isPodTerminating(p) && controllerRef(p)?.uid === c.metadata.uid && selector.matches(p.metadata.labels)) n++;
    }
    return n;
  }

  /** Upstream skips the controller entirely (no claim, no create or delete, no status write) until its selector is fixed. */
  private invalidSelector(c: Controller, error: string): SyncDecision {
    const status = currentStatus(c);
    const owned = this.index.controlledBy(namespaceOf(c), c.metadata.uid, this.ownerKey(c)).filter(isPodActive).length;
    const message = `invalid selector: ${error}; upstream skips this ${c.kind} entirely (no claim, no create or delete, no status write) until its selector is fixed`;
    return {
      controller: c,
      now: this.opts.now,
      selector: null,
      selectorError: error,
      skip: { reason: 'InvalidSelector', message },
      claims: [],
      claimed: [],
      currentReplicas: owned,
      terminating: status.terminatingReplicas,
      create: { count: 0, batches: [] },
      perNode: new Map(),
      colocation: this.colocation(c),
      deletion: null,
      status,
      statusChanged: false,
      manageError: null,
      requeueAfterSeconds: null,
      warnings: [{ code: 'InvalidSelector', message }],
    };
  }
}

/** What manageReplicas does in one sync; nothing when the sync does not manage replicas (see `skip`). */
interface ManageReplicas {
  create: { count: number; batches: number[] };
  deletion: DeletionChoice | null; // victims in deletion order
  perNode: Map<string, number>; // colocation counts used by the ranking
  manageError: string | null;
}

const NOT_MANAGED = (): ManageReplicas => ({ create: { count: 0, batches: [] }, deletion: null, perNode: new Map(), manageError: null });

/**
 * The plan's counts. adopt and release count pods, not decisions: an orphan two controllers
 * would adopt is one pod, and only one of them can adopt it (see plan-warnings.ts, ContestedAdoption).
 */
export function summarize(entries: PlanController[]): PlanSummary {
  const s: PlanSummary = { controllers: entries.length, inSync: 0, adopt: 0, release: 0, create: 0, delete: 0, statusUpdates: 0 };
  const adopted = new Set<string>();
  const released = new Set<string>();
  for (const e of entries) {
    if (e.inSync) s.inSync++;
    for (const p of e.pods) {
      if (p.decision === 'adopt') adopted.add(metaNamespaceKey(e.namespace, p.name));
      else if (p.decision === 'release') released.add(metaNamespaceKey(e.namespace, p.name));
    }
    s.create += e.create.count;
    s.delete += e.delete.length;
    if (e.statusChanged) s.statusUpdates++;
  }
  s.adopt = adopted.size;
  s.release = released.size;
  return s;
}

/** "--replicas 1, --now 2026-01-01T00:00:00Z": the flags behind a what-if. */
export function whatIfFlags(w: WhatIf): string {
  const parts: string[] = [];
  if (w.replicas !== undefined) parts.push(`--replicas ${w.replicas}`);
  if (w.now !== undefined) parts.push(`--now ${w.now}`);
  return parts.join(', ');
}

/** Plans every controller of a snapshot. */
export function planSnapshot(snapshot: Snapshot, opts: PlanOptions): Plan {
  return new ClusterPlanner(snapshot, opts).plan();
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
