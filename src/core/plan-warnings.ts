// The plan's advisory warnings: what a careful reader should know about a controller beside its
// sync's decision (plan-format.md `warnings`). None of them changes a decision: the planner
// computes them next to it, from the same snapshot, and the plan shows them.

import { desiredReplicas, isBeingDeleted, isControllerKind, namespaceOf, templateHasLabels } from './controller.js';
import type { CandidatePods } from './candidate-pods.js';
import type { ClaimDecision } from './claim.js';
import type { PlanWarning } from './plan-types.js';
import { controllerRef, isPodActive } from './pod.js';
import type { Selector, SelectorResult } from './selector.js';
import type { Controller, Pod } from './types.js';

/** What the advisories read beside the controller: every controller of the snapshot, its pods, where it came from. */
export interface AdvisoryInput {
  controllers: readonly Controller[];
  selectorOf: (c: Controller) => SelectorResult;
  pods: CandidatePods;
  source: 'file' | 'cluster';
  /** True when the snapshot holds every controller of the namespaces it covers. */
  controllersComplete?: boolean;
}

/** Per namespace: each controller's overlapping controllers with the pods they share, and each shared pod's controllers. */
interface Overlaps {
  byController: Map<Controller, Map<Controller, string[]>>;
  byPod: Map<Pod, Controller[]>;
}

/** The advisories of a snapshot's controllers: the overlap table is built once per namespace. */
export class Advisories {
  private readonly controllerUids = new Set<string>();
  private readonly controllersByNamespace = new Map<string, Controller[]>();
  private readonly overlapsByNamespace = new Map<string, Overlaps>();

  constructor(private readonly input: AdvisoryInput) {
    for (const c of input.controllers) {
      this.controllerUids.add(c.metadata.uid);
      push(this.controllersByNamespace, namespaceOf(c), c);
    }
  }

  /** TemplateLabelsDoNotMatchSelector, OverlappingSelectors, ContestedAdoption, OwnerNotFound: in that order. */
  of(c: Controller, selector: Selector, claims: readonly ClaimDecision[]): PlanWarning[] {
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
    const notFound = this.ownerNotFound(claims);
    if (notFound) out.push(notFound);
    return out;
  }

  /** The matching pods controlled by a controller of our kinds that is not there: nobody adopts them. */
  private ownerNotFound(claims: readonly ClaimDecision[]): PlanWarning | null {
    const orphaned: string[] = [];
    for (const d of claims) {
      if (d.reason !== 'OwnedByOther') continue;
      const ref = controllerRef(d.pod)!;
      if (isControllerKind(ref.kind) && !this.controllerUids.has(ref.uid)) orphaned.push(d.pod.metadata.name);
    }
    if (orphaned.length === 0 || this.input.controllersComplete === false) return null;
    const where = this.input.source === 'cluster' ? 'which does not exist' : 'which is not in the snapshot';
    return {
      code: 'OwnerNotFound',
      message: `${orphaned.length} matching pod${orphaned.length === 1 ? ' is' : 's are'} controlled by a controller ${where}: nobody adopts ${orphaned.length === 1 ? 'it' : 'them'}, and garbage collection deletes such pods once their owner is gone`,
      pods: orphaned.sort(),
    };
  }

  /**
   * Other controllers (RS or RC) of the namespace whose valid, non-empty selector also matches an
   * active, labelled pod this one matches (getPodReplicaSets' view: empty selectors match nothing).
   */
  private overlapsOf(c: Controller): { withOthers: Map<Controller, string[]>; byPod: Map<Pod, Controller[]> } {
    const ns = namespaceOf(c);
    let table = this.overlapsByNamespace.get(ns);
    if (!table) {
      table = this.overlapTable(ns);
      this.overlapsByNamespace.set(ns, table);
    }
    let found = table.byController.get(c);
    // A what-if copy of the controller: look it up by identity of the original.
    if (!found) for (const [k, v] of table.byController) if (k.metadata.uid === c.metadata.uid && k.kind === c.kind) found = v;
    return { withOthers: found ?? new Map(), byPod: table.byPod };
  }

  /**
   * Each controller's selector is looked up once in the namespace's label index; a pod is shared
   * when a second controller's lookup finds it again and it is active and labelled. The table
   * lists controllers and their shared pods in the order the lookups first met each pod.
   */
  private overlapTable(ns: string): Overlaps {
    const table: Overlaps = { byController: new Map(), byPod: new Map() };
    const firstMatch = new Map<Pod, Controller>();
    for (const other of this.controllersByNamespace.get(ns) ?? []) {
      const s = this.input.selectorOf(other);
      if (!s.ok || s.selector.nothing || s.selector.everything) continue;
      for (const p of this.input.pods.matching(ns, s.selector)) {
        const first = firstMatch.get(p);
        if (first === undefined) firstMatch.set(p, other);
        else if (isPodActive(p) && hasLabels(p)) {
          const shared = table.byPod.get(p);
          if (shared) shared.push(other);
          else table.byPod.set(p, [first, other]);
        }
      }
    }
    for (const pod of firstMatch.keys()) {
      const ctrls = table.byPod.get(pod);
      if (!ctrls) continue;
      for (const a of ctrls) {
        let m = table.byController.get(a);
        if (!m) table.byController.set(a, (m = new Map()));
        for (const b of ctrls) if (b !== a) push(m, b, pod.metadata.name);
      }
    }
    return table;
  }
}

/**
 * The orphans this controller adopts that another controller would adopt too (its selector
 * matches them and it is not being deleted). Only one adoption can succeed: the first sync to
 * patch the pod. The API server refuses a second controller reference (422), so the other's
 * ClaimPods collects the error, its sync stops after the claims (no creates, deletes or status
 * write: syncReplicaSet returns on a claim error) and is retried, and then finds the pod owned by the winner. Which sync runs first is up to the workqueue, so
 * each plan shows the adoption it would attempt, and the summary counts the pod once.
 */
function contestedAdoptions(c: Controller, claims: readonly ClaimDecision[], byPod: Map<Pod, Controller[]>): PlanWarning[] {
  if (byPod.size === 0) return []; // no pod of the namespace is shared
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

/** The warnings of a manageReplicas that counted `claimed` pods: they depend on the claims, not on the snapshot alone. */
const MANAGE_WARNINGS: ReadonlySet<PlanWarning['code']> = new Set(['BurstCapped', 'NoTemplateLabels']);

/**
 * What one manageReplicas leaves to later syncs or cannot do, once it counted `claimed` pods:
 * BurstCapped (more to create or delete than burstReplicas), NoTemplateLabels (RealPodControl
 * refuses to create pods from a template without labels).
 */
export function manageWarnings(c: Controller, claimed: number, burstReplicas: number): PlanWarning[] {
  const out: PlanWarning[] = [];
  const diff = claimed - desiredReplicas(c);
  if (diff < 0) {
    if (-diff > burstReplicas)
      out.push({
        code: 'BurstCapped',
        message: `${-diff} pods are missing but one sync creates at most ${burstReplicas} (burst replicas); the rest follow in later syncs`,
      });
    if (!templateHasLabels(c))
      out.push({
        code: 'NoTemplateLabels',
        message: `the pod template has no labels: upstream refuses to create pods ("unable to create pods, no labels") and records FailedCreate`,
      });
  } else if (diff > burstReplicas) {
    out.push({
      code: 'BurstCapped',
      message: `${diff} pods are surplus but one sync deletes at most ${burstReplicas} (burst replicas); the rest follow in later syncs`,
    });
  }
  return out;
}

/** The warnings that hold whatever the claims came to: all but manageReplicas' own. */
export function advisoriesOf(warnings: readonly PlanWarning[]): PlanWarning[] {
  return warnings.filter((w) => !MANAGE_WARNINGS.has(w.code));
}

function hasLabels(p: Pod): boolean {
  for (const _ in p.metadata.labels) return true;
  return false;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
