// The planner: upstream's syncReplicaSet run for every controller of a snapshot, without
// writing anything. It reads like the sync: selector, list, filter active, claim, manage
// replicas, calculate status, decide the status write and the requeue.

import { ClaimSentences, claimPod, type ClaimDecision } from './claim.js';
import {
  compareControllers,
  controllerKey,
  desiredReplicas,
  controllerKindInfo,
  controllersOf,
  isControllerKind,
  type ControllerKindInfo,
  isBeingDeleted,
  namespaceOf,
} from './controller.js';
import { BURST_REPLICAS, choosePodsToDelete, podsPerNode, slowStartBatches, type DeletionChoice } from './manage.js';
import { deleteMessage } from './messages.js';
import {
  PLAN_API_VERSION,
  type Plan,
  type PlanController,
  type PlanStatus,
  type PlanSummary,
  type PlanWarning,
  type SkipReason,
  type WhatIf,
} from './plan-types.js';
import { controllerRef, isPodActive, isPodTerminating } from './pod.js';
import { candidatesOf, type CandidatePods } from './candidate-pods.js';
import { PodIndex } from './pod-index.js';
import { labelSelectorAsSelector, type Selector, type SelectorResult } from './selector.js';
import { availabilityRequeueSeconds, calculateStatus, currentStatus, statusNeedsWrite, writtenStatus, type ComputedStatus } from './status.js';
import { formatTime } from './time.js';
import type { Controller, Pod, Snapshot } from './types.js';
import type { Behaviour } from './versions.js';

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

/**
 * The one decision of one sync (syncReplicaSet), computed once at one `now` on the state the sync sees.
 * `explain` and `diff` render it; the sync (src/controller/sync.ts) only carries it out: the
 * claims in order, then the creates or the ranked deletions, then the status write, then the
 * requeue. Nothing downstream ranks, counts or computes a status again.
 */
export interface SyncDecision {
  controller: Controller; // as planned (with a what-if scale applied)
  now: number; // the sync's one evaluation time, epoch ms
  selector: Selector | null;
  selectorError: string | null;
  claims: ClaimDecision[]; // in cache order
  claimed: Pod[]; // claimed pods in cache order, before creates/deletes
  /** Terminating pods counted into the status (null where the emulated version does not). */
  terminating: number | null;
  /** Whether the sync manages replicas: expectations satisfied and the controller not deleting. */
  manages: boolean;
  create: { count: number; batches: number[] };
  perNode: Map<string, number>; // colocation counts used by the ranking
  deletion: DeletionChoice | null; // victims in deletion order
  /** The status written when manageReplicas succeeds (observedGeneration set when written). */
  status: ComputedStatus;
  statusChanged: boolean;
  /** An error manageReplicas is known to meet before any request (a template without labels). */
  manageError: string | null;
  requeueAfterSeconds: number | null;
  entry: PlanController;
}

/** What the sync writes when manageReplicas failed with `message` (syncReplicaSet: calculateStatus gets the manage error, same `now`). */
export function statusAfterManageError(d: SyncDecision, message: string, bh: Behaviour): { status: ComputedStatus; write: boolean } {
  const c = d.controller;
  const status = calculateStatus(c, d.claimed, d.terminating, message, d.now, bh);
  const write = statusNeedsWrite(c, status);
  if (write) status.observedGeneration = c.metadata.generation ?? 0;
  return { status, write };
}

/** The pods of a decision the sync deletes, in order. */
export const victimsOf = (d: SyncDecision): Pod[] => (d.deletion?.victims ?? []).map((v) => v.facts.pod);

export class ClusterPlanner {
  readonly controllers: Controller[];
  /** The pods a sync may read: the snapshot's, or a live cache's when the caller passes one. */
  readonly index: CandidatePods;
  readonly burstReplicas: number;
  private readonly selectors = new Map<Controller, SelectorResult>();
  private readonly rsByOwnerUid = new Map<string, Controller[]>();
  private readonly controllerUids = new Set<string>();
  private readonly overlapsByNamespace = new Map<string, Overlaps>();
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
      this.controllerUids.add(c.metadata.uid);
      if (!this.hasSiblings(c)) continue; // the owner index holds kinds with siblings only (RCs have no controller owner)
      const owner = controllerRef(c);
      if (owner) push(this.rsByOwnerUid, owner.uid, c);
    }
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

  /** The plan and, with `keep`, the decisions it shows (for a sync that carries them out). */
  decideAll(keep: boolean): { plan: Plan; decisions: SyncDecision[] } {
    const include = this.opts.include ?? (() => true);
    const decisions: SyncDecision[] = [];
    const entries: PlanController[] = [];
    for (const c of this.controllers) {
      if (!include(c)) continue;
      const d = this.planController(c);
      entries.push(d.entry);
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
    const needsSync = this.opts.expectationsSatisfied?.(controllerKey(c)) ?? true;

    const candidates = this.candidates(c, selector);
    const claims: ClaimDecision[] = [];
    for (const p of candidates) {
      const d = claimPod(c, selector, p, this.sentences);
      if (d) claims.push(d);
    }
    const claimed = claims.filter((d) => d.claimed).map((d) => d.pod);
    const terminating =
      bh.gates.DeploymentReplicaSetTerminatingReplicas && bh.statusTerminatingReplicas[c.kind] ? this.countTerminating(c, selector, candidates) : null;

    let skip: PlanController['skip'] = null;
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
    const warnings: PlanWarning[] = this.opts.warnings === false ? [] : this.staticWarnings(c, selector, claims);
    return this.decide(c, selector, claims, claimed, terminating, skip, warnings);
  }

  /**
   * The same decision after the claims went otherwise than planned (an adopted pod was already
   * gone, so upstream does not count it): manageReplicas and the status again, at the same `now`.
   */
  afterClaims(d: SyncDecision, claimed: Pod[]): SyncDecision {
    if (claimed.length === d.claimed.length && claimed.every((p, i) => p === d.claimed[i])) return d;
    return this.decide(
      d.controller,
      d.selector!,
      d.claims,
      claimed,
      d.terminating,
      d.entry.skip,
      d.entry.warnings.filter((w) => w.code !== 'BurstCapped' && w.code !== 'NoTemplateLabels'),
    );
  }

  /** manageReplicas, calculateStatus and the skip rule of updateReplicaSetStatus, the requeue: one `now`. */
  private decide(
    c: Controller,
    selector: Selector,
    claims: ClaimDecision[],
    claimed: Pod[],
    terminating: number | null,
    skip: PlanController['skip'],
    warnings: PlanWarning[],
  ): SyncDecision {
    const bh = this.opts.behaviour;
    const now = this.opts.now;
    const { create, deletion, perNode, manageError } = skip === null ? this.manageReplicas(c, claimed, warnings) : NOT_MANAGED();

    const status = calculateStatus(c, claimed, terminating, manageError, now, bh);
    const statusChanged = statusNeedsWrite(c, status);
    if (statusChanged) status.observedGeneration = c.metadata.generation ?? 0;
    const requeue = manageError === null ? availabilityRequeueSeconds(c, status, claimed, now, bh) : null;

    const entry: PlanController = {
      kind: c.kind,
      namespace: namespaceOf(c),
      name: c.metadata.name,
      uid: c.metadata.uid,
      inSync: false,
      skip,
      replicas: { desired: desiredReplicas(c), current: claimed.length },
      pods: sortedByName(
        claims.map((d) => ({ name: d.pod.metadata.name, uid: d.pod.metadata.uid, decision: d.decision, reason: d.reason, message: d.message })),
      ),
      create,
      delete: this.plannedDeletes(c, deletion),
      status: toPlanStatus(status),
      statusChanged,
      requeueAfterSeconds: requeue,
      warnings,
    };
    entry.inSync =
      !statusChanged && create.count === 0 && entry.delete.length === 0 && !entry.pods.some((p) => p.decision === 'adopt' || p.decision === 'release');
    return {
      controller: c,
      now,
      selector,
      selectorError: null,
      claims,
      claimed,
      terminating,
      manages: skip === null,
      create: entry.create,
      perNode,
      deletion,
      status,
      statusChanged,
      manageError,
      requeueAfterSeconds: requeue,
      entry,
    };
  }

  /** manageReplicas: too few pods, create them in slow-start batches; too many, delete the ranked surplus; burstReplicas at most. */
  private manageReplicas(c: Controller, claimed: Pod[], warnings: PlanWarning[]): ManageReplicas {
    const managed = NOT_MANAGED();
    const diff = claimed.length - desiredReplicas(c);
    if (diff < 0) {
      const count = Math.min(-diff, this.burstReplicas);
      managed.create = { count, batches: slowStartBatches(count) };
      if (count < -diff)
        warnings.push({
          code: 'BurstCapped',
          message: `${-diff} pods are missing but one sync creates at most ${this.burstReplicas} (burst replicas); the rest follow in later syncs`,
        });
      const labels = c.spec.template?.metadata?.labels;
      if (!labels || Object.keys(labels).length === 0) {
        // RealPodControl refuses locally: the first create fails and slow start stops (slowStartBatch).
        managed.manageError = 'unable to create pods, no labels';
        warnings.push({
          code: 'NoTemplateLabels',
          message: `the pod template has no labels: upstream refuses to create pods ("unable to create pods, no labels") and records FailedCreate`,
        });
      }
    } else if (diff > 0) {
      const n = Math.min(diff, this.burstReplicas);
      if (n < diff)
        warnings.push({
          code: 'BurstCapped',
          message: `${diff} pods are surplus but one sync deletes at most ${this.burstReplicas} (burst replicas); the rest follow in later syncs`,
        });
      managed.perNode = this.relatedPodsPerNode(c);
      managed.deletion = choosePodsToDelete(claimed, n, managed.perNode, this.opts.now, this.opts.behaviour);
    }
    return managed;
  }

  /** The plan's `delete` list: the victims in deletion order, each with the sentence of its reason. */
  private plannedDeletes(c: Controller, deletion: DeletionChoice | null): PlanController['delete'] {
    return (deletion?.victims ?? []).map((v) => ({
      name: v.facts.pod.metadata.name,
      uid: v.facts.uid,
      reason: v.reason,
      message: deleteMessage(
        v.facts,
        v.reason,
        deletion!.firstKept,
        this.opts.now,
        v.comparison?.criterion === 'ReadyUid',
        !this.hasSiblings(c) ? 'rc' : controllerRef(c) ? 'owner' : 'standalone',
      ),
    }));
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

  private invalidSelector(c: Controller, error: string): SyncDecision {
    const status = currentStatus(c);
    const owned = this.index.controlledBy(namespaceOf(c), c.metadata.uid, this.ownerKey(c)).filter(isPodActive).length;
    const message = `invalid selector: ${error}; upstream skips this ${c.kind} entirely (no claim, no create or delete, no status write) until its selector is fixed`;
    const entry: PlanController = {
      kind: c.kind,
      namespace: namespaceOf(c),
      name: c.metadata.name,
      uid: c.metadata.uid,
      // Upstream never syncs it: what it should do is not done, and nothing will do it until the
      // selector is fixed. That is not "in sync" (diff exits 1 for it).
      inSync: false,
      skip: { reason: 'InvalidSelector' satisfies SkipReason, message },
      replicas: { desired: desiredReplicas(c), current: owned },
      pods: [],
      create: { count: 0, batches: [] },
      delete: [],
      status: toPlanStatus(status),
      statusChanged: false,
      requeueAfterSeconds: null,
      warnings: [{ code: 'InvalidSelector', message }],
    };
    return {
      controller: c,
      now: this.opts.now,
      selector: null,
      selectorError: error,
      claims: [],
      claimed: [],
      terminating: status.terminatingReplicas,
      manages: false,
      create: entry.create,
      perNode: new Map(),
      deletion: null,
      status,
      statusChanged: false,
      manageError: null,
      requeueAfterSeconds: null,
      entry,
    };
  }

  private staticWarnings(c: Controller, selector: Selector, claims: ClaimDecision[]): PlanWarning[] {
    const out: PlanWarning[] = [];
    const templateLabels = c.spec.template?.metadata?.labels ?? {};
    if (!selector.nothing && !selector.matches(templateLabels)) {
      out.push({
        code: 'TemplateLabelsDoNotMatchSelector',
        message: `the pod template's labels do not match the selector (${selector.explainMismatch(templateLabels)}): every pod it creates would be left unclaimed and replaced again; the API server normally rejects such a ${c.kind}`,
      });
    }
    const overlaps = this.overlapsOf(c);
    for (const [other, pods] of overlaps.withOthers) {
      out.push({
        code: 'OverlappingSelectors',
        message: `${pods.length} pod${pods.length === 1 ? ' is' : 's are'} also selected by ${other.kind} ${other.metadata.name}: overlapping selectors are a user error upstream, and the controllers may fight over ${pods.length === 1 ? 'it' : 'them'}`,
        pods: pods.sort(),
        controller: { kind: other.kind, name: other.metadata.name },
      });
    }
    out.push(...contestedAdoptions(c, claims, overlaps.byPod));
    const orphaned: string[] = [];
    for (const d of claims) {
      if (d.reason !== 'OwnedByOther') continue;
      const ref = controllerRef(d.pod)!;
      if (isControllerKind(ref.kind) && !this.controllerUids.has(ref.uid)) orphaned.push(d.pod.metadata.name);
    }
    if (orphaned.length && this.opts.controllersComplete !== false) {
      const where = this.opts.source === 'cluster' ? 'which does not exist' : 'which is not in the snapshot';
      out.push({
        code: 'OwnerNotFound',
        message: `${orphaned.length} matching pod${orphaned.length === 1 ? ' is' : 's are'} controlled by a controller ${where}: nobody adopts ${orphaned.length === 1 ? 'it' : 'them'}, and garbage collection deletes such pods once their owner is gone`,
        pods: orphaned.sort(),
      });
    }
    return out;
  }

  /**
   * Other controllers (RS or RC) of the namespace whose valid, non-empty selector also matches an
   * active, labelled pod this one matches (getPodReplicaSets' view: empty selectors match nothing).
   */
  private overlapsOf(c: Controller): { withOthers: Map<Controller, string[]>; byPod: Map<Pod, Controller[]> } {
    const ns = namespaceOf(c);
    let table = this.overlapsByNamespace.get(ns);
    if (!table) {
      table = { byController: new Map(), byPod: new Map() };
      const byPod = new Map<Pod, Controller[]>();
      for (const other of this.controllers) {
        if (namespaceOf(other) !== ns) continue;
        const s = this.selectorOf(other);
        if (!s.ok || s.selector.nothing || s.selector.everything) continue;
        for (const p of this.index.matching(ns, s.selector)) {
          if (!isPodActive(p) || !p.metadata.labels || Object.keys(p.metadata.labels).length === 0) continue;
          push(byPod, p, other);
        }
      }
      for (const [pod, ctrls] of byPod) {
        if (ctrls.length < 2) continue;
        table.byPod.set(pod, ctrls);
        for (const a of ctrls) {
          let m = table.byController.get(a);
          if (!m) table.byController.set(a, (m = new Map()));
          for (const b of ctrls) if (b !== a) push(m, b, pod.metadata.name);
        }
      }
      this.overlapsByNamespace.set(ns, table);
    }
    let found = table.byController.get(c);
    // A what-if copy of the controller: look it up by identity of the original.
    if (!found) for (const [k, v] of table.byController) if (k.metadata.uid === c.metadata.uid && k.kind === c.kind) found = v;
    return { withOthers: found ?? new Map(), byPod: table.byPod };
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

/** Per namespace: each controller's overlapping controllers with the pods they share, and each shared pod's controllers. */
interface Overlaps {
  byController: Map<Controller, Map<Controller, string[]>>;
  byPod: Map<Pod, Controller[]>;
}

/**
 * The orphans this controller adopts that another controller would adopt too (its selector
 * matches them and it is not being deleted). Only one adoption can succeed: the first sync to
 * patch the pod. The API server refuses a second controller reference (422), so the other's
 * ClaimPods collects the error, its sync stops after the claims (no creates, deletes or status
 * write: syncReplicaSet returns on a claim error) and is retried, and then finds the pod owned by the winner. Which sync runs first is up to the workqueue, so
 * each plan shows the adoption it would attempt, and the summary counts the pod once.
 */
function contestedAdoptions(c: Controller, claims: ClaimDecision[], byPod: Map<Pod, Controller[]>): PlanWarning[] {
  const byRival = new Map<Controller, string[]>();
  for (const d of claims) {
    if (d.decision !== 'adopt') continue;
    for (const other of byPod.get(d.pod) ?? []) {
      if (other.metadata.uid === c.metadata.uid || isBeingDeleted(other)) continue;
      push(byRival, other, d.pod.metadata.name);
    }
  }
  return [...byRival].map(([other, pods]) => ({
    code: 'ContestedAdoption' as const,
    message:
      `${pods.length === 1 ? `the orphan ${pods[0]} is` : `${pods.length} orphans are`} also wanted by ${other.kind} ${other.metadata.name}: only the first sync to patch ${pods.length === 1 ? 'it' : 'one'} adopts it ` +
      `(the API server refuses a second controller reference); the other sync's claim fails, so it stops before creating, deleting or writing its status, is retried, ` +
      `and then leaves the pod to its owner. The plan's summary counts each pod once`,
    pods: pods.sort(),
    controller: { kind: other.kind, name: other.metadata.name },
  }));
}

function toPlanStatus(s: ComputedStatus): PlanStatus {
  return writtenStatus(s);
}

/**
 * The plan's counts. adopt and release count pods, not decisions: an orphan two controllers
 * would adopt is one pod, and only one of them can adopt it (see contestedAdoptions).
 */
export function summarize(entries: PlanController[]): PlanSummary {
  const s: PlanSummary = { controllers: entries.length, inSync: 0, adopt: 0, release: 0, create: 0, delete: 0, statusUpdates: 0 };
  const adopted = new Set<string>();
  const released = new Set<string>();
  for (const e of entries) {
    if (e.inSync) s.inSync++;
    for (const p of e.pods) {
      if (p.decision === 'adopt') adopted.add(`${e.namespace}/${p.name}`);
      else if (p.decision === 'release') released.add(`${e.namespace}/${p.name}`);
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

/** Sorted by name; a list already in order (the usual case: pods listed by name) is kept as is. */
function sortedByName<T extends { name: string }>(xs: T[]): T[] {
  for (let i = 1; i < xs.length; i++) {
    if (xs[i - 1].name > xs[i].name) return xs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return xs;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
