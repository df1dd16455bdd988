// The deployment controller's writes in a replayed history: the Deployments of the log tracked as
// the ReplicaSets are, and each write of a ReplicaSet by the deployment controller judged against
// the one decision its rules (core/deployment's decideDeployment) take in that sync, planned on
// the state just before the sync's first write, or on a state of the moment before (its
// informers a little behind the log), as the ReplicaSet controller's syncs are.
//
// The events keep their verbs and `actor.controller` (false: the contract keeps it for the
// ReplicaSet and ReplicationController controllers); only `predicted`, `message` and `cause` gain
// what the rules say. Pure: the replay tells it each write and the state around it.

import { decideDeployment } from '../core/deployment/controller.js';
import type { DeploymentDecision } from '../core/deployment/types.js';
import type { Deployment, Pod, ReplicaSet } from '../core/types.js';
import { controllerRef } from '../core/pod.js';
import type { Behaviour } from '../core/versions.js';
import { slimController, slimDeployment, validateDeployment } from '../input/objects.js';
import { isDeploymentController } from './agents.js';
import type { CauseTracker } from './causes.js';
import { DeploymentsState, type DeploymentSync } from './deployment-state.js';
import { loggedWrite, matchWrite, type LoggedReplicaSetWrite, type WriteMatch } from './deployment-verdicts.js';
import { JOURNAL_MS, type NamespaceState } from './journal-state.js';
import type { SyncRules } from './sync-planning.js';
import type { ApiWrite, CauseStep, HistoryEvent } from './types.js';
import { gone } from './write-text.js';

/** The longest pause between two writes of one sync (kube-apiserver's 60 s request timeout). */
const SYNC_PAUSE_MS = 60_000;
/** How many earlier states a write the rules do not do on the latest one is planned on. */
const MAX_EARLIER_STATES = 16;

const isoMs = (ms: number): string => new Date(ms).toISOString();

function readyOf(p: { status?: { conditions?: unknown } | null } | undefined): string {
  const cs = Array.isArray(p?.status?.conditions) ? (p.status.conditions as { type?: string; status?: string }[]) : [];
  return cs.find((c) => c?.type === 'Ready')?.status ?? 'not set';
}

export class DeploymentJudge {
  private readonly namespaces = new Map<string, DeploymentsState>();

  constructor(
    private readonly opts: SyncRules,
    private readonly causes: CauseTracker,
    /** Whether the log has shown pods' phases so far (a pods/status write, none missing). */
    private readonly podStatusKnown: () => boolean,
  ) {}

  private state(namespace: string): DeploymentsState {
    let s = this.namespaces.get(namespace);
    if (!s) this.namespaces.set(namespace, (s = new DeploymentsState()));
    return s;
  }

  /** A write the server accepted, before the replay applies it: of a Deployment, or of a pod. */
  observe(ns: NamespaceState, w: ApiWrite): void {
    if (w.resource === 'deployments') this.deploymentWrite(ns, w);
    else if (w.resource === 'pods' && !isDeploymentController(w)) this.podWrite(ns, w);
  }

  /** A write of a Deployment: the Deployment's state, and the end of the deployment controller's sync at its status write. */
  private deploymentWrite(ns: NamespaceState, w: ApiWrite): void {
    const st = this.state(w.namespace);
    const name = w.name ?? (w.response?.metadata?.name as string | undefined);
    const at = Date.parse(w.time);
    if (!name) {
      if (w.verb === 'deletecollection') st.unknown.set('*', `Deployments of namespace ${w.namespace} were deleted as a collection at ${w.time}`);
      return;
    }
    const open = st.syncs.get(name);
    // (its `last` stays the time of its last write of a ReplicaSet: a pod turning ready before
    // the status write and after that write is what the next sync acts on)
    if (open && isDeploymentController(w) && w.subresource === 'status') open.ended = true;
    if (!w.bodies) {
      st.unknown.set(name, `Deployment ${name} was written at ${w.time} without bodies in the log (${w.verb}${w.subresource ? ` ${w.subresource}` : ''})`);
      return;
    }
    const o = w.response;
    if (w.subresource === 'scale') {
      const d = st.deployments.get(name);
      const to = o?.spec?.replicas;
      if (!d || typeof to !== 'number') st.unknown.set(name, `Deployment ${name} was scaled at ${w.time} before the log showed it`);
      else if (d.spec.replicas !== to)
        st.set(name, { ...d, spec: { ...d.spec, replicas: to }, metadata: { ...d.metadata, generation: (d.metadata.generation ?? 0) + 1 } }, at);
      return;
    }
    if (w.subresource !== null && w.subresource !== 'status') return;
    if (w.verb === 'delete' && (o?.kind !== 'Deployment' || gone(o))) return st.remove(name, at);
    if (o?.kind !== 'Deployment') return;
    const first = !st.deployments.has(name) && !(w.verb === 'create' && w.subresource === null);
    try {
      validateDeployment(o);
      st.set(name, slimDeployment(o), at);
      st.unknown.delete(name);
    } catch (e) {
      st.unknown.set(name, `Deployment ${name} has a body the history cannot read: ${(e as Error).message}`);
      return;
    }
    if (first)
      st.unknown.set(`first:${name}`, `Deployment ${name} was created before the log starts (first seen at ${w.time}): its ReplicaSets may be missing`);
    // the deployment controller's count agrees with the ReplicaSets the log has shown: none is missing
    const d = st.deployments.get(name)!;
    const owned = [...ns.controllers.values()].filter((c) => c.kind === 'ReplicaSet' && controllerRef(c)?.uid === d.metadata.uid);
    if (isDeploymentController(w) && w.subresource === 'status' && owned.reduce((n, c) => n + (c.status?.replicas ?? 0), 0) === (d.status?.replicas ?? 0))
      st.unknown.delete(`first:${name}`);
  }

  /** A pod's write by someone other than the deployment controller: a readiness change lets the rollout of its Deployment go on. */
  private podWrite(ns: NamespaceState, w: ApiWrite): void {
    const name = w.name ?? (w.response?.metadata?.name as string | undefined);
    const before = name ? ns.pods.get(name) : undefined;
    const after = w.bodies && w.response?.kind === 'Pod' ? (w.response as Pod) : undefined;
    if (!name || !before || !after) return;
    const [r0, r1] = [readyOf(before), readyOf(after)];
    // what the rollout counts: a pod turning ready, or ready no more (not a first False)
    if (r0 === r1 || (r0 !== 'True' && r1 !== 'True')) return;
    const rs = controllerRef(before);
    const owner = rs?.kind === 'ReplicaSet' ? ns.controllers.get(`ReplicaSet/${rs.name}`) : undefined;
    const d = owner ? controllerRef(owner) : undefined;
    if (d?.kind !== 'Deployment') return;
    const verb = w.subresource === 'status' ? 'status' : w.verb === 'update' ? 'update' : 'patch';
    this.state(w.namespace).podSteps.set(d.name, {
      time: w.time,
      user: w.user,
      verb,
      object: { kind: 'Pod', namespace: w.namespace, name },
      field: 'a Ready condition',
      change: `${r0} → ${r1}`,
    });
  }

  /**
   * The event of a write of a ReplicaSet by the deployment controller, with the verdict of its rules.
   */
  judge(ns: NamespaceState, w: ApiWrite, event: HistoryEvent): HistoryEvent {
    const podStatusKnown = this.podStatusKnown();
    const name = event.controller?.name ?? null;
    const before = name ? (ns.controllers.get(`ReplicaSet/${name}`) as ReplicaSet | undefined) : undefined;
    const body = w.verb === 'create' ? (w.response ?? w.request) : w.response;
    const after = w.bodies && body?.kind === 'ReplicaSet' ? slimController(body, 'ReplicaSet') : undefined;
    const ref = (after ?? before) ? controllerRef((after ?? before)!) : undefined;
    const owner = ref?.kind === 'Deployment' ? ref.name : null;
    if (!w.bodies || owner === null) return event;
    const l = loggedWrite(w.verb, w.subresource, name, before, after, w.response?.spec?.replicas ?? w.request?.spec?.replicas);
    const st = this.state(w.namespace);
    if (!l) {
      // a write of a ReplicaSet whose state the log never showed (a status write is no write of the rules)
      if (before || (w.subresource !== null && w.subresource !== 'scale')) return event;
      const cause = this.causeOf(st, w.namespace, owner, st.syncs.get(owner));
      return { ...event, message: `${event.message}; unknown: ReplicaSet ${name} was not in the log before this write`, cause };
    }
    const at = Date.parse(w.time);
    const open = st.syncs.get(owner);
    if (open?.decision && !open.ended && open.unknown === null && at - open.last <= SYNC_PAUSE_MS) {
      const m = matchWrite(open.decision, open.done, l, event.message);
      if (m.verdict.ok && this.sameOnEveryRules(open, l, event.message, m)) {
        open.done.add(m.index!);
        open.last = at;
        return { ...event, predicted: true, message: m.verdict.message, cause: open.cause };
      }
    }
    const cause = this.causeOf(st, w.namespace, owner, open);
    const plan = (asOf?: number) => this.plan(ns, st, owner, w, cause, podStatusKnown, asOf);
    let sync = plan();
    st.syncs.set(owner, sync);
    if (sync.unknown !== null || !sync.decision) return { ...event, message: `${event.message}; unknown: ${sync.unknown}`, cause };
    let m = matchWrite(sync.decision, sync.done, l, event.message);
    if (!m.verdict.ok) {
      const found = this.plannedEarlier(ns, st, l, event.message, at, open?.last, cause, plan);
      if (found) [sync, m] = found;
      st.syncs.set(owner, sync);
    }
    sync.last = at;
    if (!this.sameOnEveryRules(sync, l, event.message, m))
      return {
        ...event,
        message: `${event.message}; unknown: the input does not name the Kubernetes version of the deployment controller that wrote it, and the rules of the minors it may have run differ on this write (--kube-version chooses)`,
        cause,
      };
    if (m.index !== null) sync.done.add(m.index);
    return { ...event, predicted: m.verdict.ok, message: m.verdict.message, cause };
  }

  /** The states of the moment before the write (after the previous sync and the cause), the latest first, until one whose plan does the write. */
  private plannedEarlier(
    ns: NamespaceState,
    st: DeploymentsState,
    l: LoggedReplicaSetWrite,
    what: string,
    at: number,
    previous: number | undefined,
    cause: CauseStep[] | null,
    plan: (asOf: number) => DeploymentSync,
  ): [DeploymentSync, WriteMatch] | null {
    const since = Math.max(at - JOURNAL_MS, previous ?? -Infinity, cause ? Date.parse(cause[0].time) - 1 : -Infinity);
    const times = [...new Set([...ns.changeTimes(since), ...st.changeTimes(since)])].sort((a, b) => b - a);
    for (const t of times.slice(0, MAX_EARLIER_STATES)) {
      const earlier = plan(t);
      if (earlier.unknown !== null || !earlier.decision) continue;
      const m = matchWrite(earlier.decision, earlier.done, l, what);
      if (!m.verdict.ok) continue;
      const message = `${m.verdict.message} (planned on the state before ${isoMs(t)}: the controller's view ${((at - t) / 1000).toFixed(3)} s before this write)`;
      return [earlier, { ...m, verdict: { ...m.verdict, message } }];
    }
    return null;
  }

  /** Where the writer's minor is not named: whether the rules of every candidate minor answer this write as `m` does. */
  private sameOnEveryRules(sync: DeploymentSync, l: LoggedReplicaSetWrite, what: string, m: WriteMatch): boolean {
    return sync.alternatives.every((a) => matchWrite(a.decision, sync.done, l, what).verdict.ok === m.verdict.ok);
  }

  /**
   * Why the deployment controller's sync acted: the person's change of the Deployment or the
   * readiness change of one of its pods since its previous sync, the newer; when neither, the
   * cause of that sync (the rollout goes on).
   */
  private causeOf(st: DeploymentsState, namespace: string, name: string, previous: DeploymentSync | undefined): CauseStep[] | null {
    const person = this.causes.deploymentCauseOf(namespace, name);
    const pod = st.podSteps.get(name);
    const since = previous?.last ?? -Infinity;
    const fresh = [person, pod ? [pod] : null].filter((c): c is CauseStep[] => c !== null && Date.parse(c[0].time) > since);
    fresh.sort((a, b) => Date.parse(b[0].time) - Date.parse(a[0].time));
    return fresh[0] ?? previous?.cause ?? person;
  }

  /** One sync of Deployment `name` planned on the state just before `w`, or with `asOf` on the state before the changes made at that time (ms). */
  private plan(
    ns: NamespaceState,
    st: DeploymentsState,
    name: string,
    w: ApiWrite,
    cause: CauseStep[] | null,
    podStatusKnown: boolean,
    asOf?: number,
  ): DeploymentSync {
    const behaviour = this.opts.rulesFor?.(w) ?? this.opts.behaviour;
    const at = Date.parse(w.time);
    const sync: DeploymentSync = {
      deployment: name,
      decision: null,
      unknown: null,
      done: new Set(),
      last: at,
      ended: false,
      behaviour,
      cause,
      alternatives: [],
    };
    const d = (asOf === undefined ? st.deployments : st.stateAt(asOf)).get(name);
    const past = asOf === undefined ? null : ns.stateAt(asOf);
    const controllers = past?.controllers ?? ns.controllers;
    sync.unknown = st.unknown.get(name) ?? st.unknown.get(`first:${name}`) ?? st.unknown.get('*') ?? null;
    if (sync.unknown === null && !d) sync.unknown = `Deployment ${name} was not in the log before this write`;
    for (const [key, why] of ns.unknown) if (sync.unknown === null && (key.startsWith('ReplicaSet/') || key === '*replicasets')) sync.unknown = why;
    if (sync.unknown !== null || !d) return sync;
    const replicaSets = [...controllers.values()].filter((c): c is ReplicaSet => c.kind === 'ReplicaSet');
    for (const rs of replicaSets) {
      const why = ns.statusUnknown.get(`ReplicaSet/${rs.metadata.name}`);
      if (why && controllerRef(rs)?.uid === d.metadata.uid) {
        sync.unknown = `${why}: the rules read its available replicas`;
        return sync;
      }
    }
    const pods = [...(past?.pods ?? ns.pods).values()];
    const decide = (b: Behaviour): DeploymentDecision => decideDeployment({ deployment: d as Deployment, replicaSets, pods, nowMs: at, behaviour: b });
    sync.decision = decide(behaviour);
    // only Recreate reads pods (oldPodsRunning): the pods the log lost, or their phases, leave it unknown
    const podGap = [...ns.unknown.values()][0];
    if (sync.decision.path === 'recreate' && (podGap !== undefined || (!podStatusKnown && pods.length > 0))) {
      sync.unknown =
        podGap !== undefined
          ? `${podGap}, and Recreate waits for the old ReplicaSets' pods to stop running`
          : "pods' phases are unknown (the log has no pods/status write for them), and Recreate waits for the old ReplicaSets' pods to stop running";
      return sync;
    }
    const rulesOf = (b: Behaviour) => JSON.stringify({ ...b, version: undefined, minor: undefined });
    for (const alt of this.opts.candidateRules?.(w) ?? [])
      if (rulesOf(alt.behaviour) !== rulesOf(behaviour)) sync.alternatives.push({ versions: alt.versions, decision: decide(alt.behaviour) });
    return sync;
  }
}
