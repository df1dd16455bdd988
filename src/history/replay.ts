// The history: the writes of an audit log (or a recording) replayed in order, the state of pods,
// ReplicaSets and ReplicationControllers rebuilt from their bodies, and every write that changed
// a controller or a pod explained. A controller's writes are checked against the one decision
// the planner (the same one `diff` uses) takes on the state just before that sync's first write.
//
// Pure: no I/O and no clock; the writes come in, the events go out. Memory holds the objects
// that exist (and a bounded note per gap), never the log.

import { isControllerKind, kindOfResource } from '../core/controller.js';
import { controllerRef, isPodActive } from '../core/pod.js';
import type { ControllerKind, Pod } from '../core/types.js';
import { slimController, slimPod, validateController, validatePod } from '../input/objects.js';
import { CONTROLLER_USERS, isDeploymentController } from './agents.js';
import { isRsReconcileController } from '../core/user-agent.js';
import { CauseTracker } from './causes.js';
import { DeploymentJudge } from './deployment-replay.js';
import { UNKNOWN_OUTCOME } from './audit-event.js';
import { NamespaceState, type Controllerish, type Sync } from './journal-state.js';
import { controllerChanges, describeWrite, desiredOf, gone, ownerOf, podChanges, selectorText } from './write-text.js';
import {
  HISTORY_API_VERSION,
  type ApiWrite,
  type HistoryControllerRef,
  type HistoryCoverage,
  type HistoryEvent,
  type HistoryVerb,
  type ReconcileHistory,
  type RefusedWrite,
} from './types.js';
import {
  plannedOnEarlierStates,
  planSync,
  statusOnEarlierPods,
  rankedInWindow,
  type ReplayOptions,
  type VerdictOf,
  type WindowAnswer,
} from './sync-planning.js';
import { claimVerdict, createVerdict, deleteVerdict, statusVerdict, type Verdict } from './verdicts.js';
import { kindKey, metaNamespaceKey } from '../core/object-key.js';

/** What a write logged without its bodies leaves unknown, in words (a message's tail). */
function lost(w: ApiWrite, what: string): string {
  if (!w.truncated) return `; logged without bodies: the state of ${what} is unknown from here`;
  const outcome = w.code === UNKNOWN_OUTCOME ? ' and whether the server accepted it' : '';
  return `; its log entry was cut (truncated): its bodies${outcome} are not in the log, and the state of ${what} is unknown from here`;
}

function readyStatus(p: { status?: { conditions?: unknown } | null }): string {
  const c = Array.isArray(p.status?.conditions) ? (p.status!.conditions as { type?: string; status?: string }[]).find((x) => x?.type === 'Ready') : undefined;
  return c?.status ?? 'unknown';
}

function statusText(code: number): string {
  const names: Record<number, string> = {
    400: 'Bad Request',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    410: 'Gone',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return `refused with ${code}${names[code] ? ` ${names[code]}` : ''}`;
}

/** The longest pause between two writes of one sync: each is a request, answered within kube-apiserver's 60 s timeout. */
const SYNC_PAUSE_MS = 60_000;

export class HistoryReplay {
  private readonly namespaces = new Map<string, NamespaceState>();
  private readonly controllerUsers: Map<string, ControllerKind | null>;
  private readonly deploymentReplicaSets = new Map<string, Set<string>>();
  /** Set when the write being read is one of a controller's sync (controllerWrite). */
  private syncWrite = false;
  private readonly causes = new CauseTracker();
  private readonly deployments: DeploymentJudge; // the log's Deployments, and the verdicts on the deployment controller's writes
  /** Verdicts that rest on pods' phase and readiness (see dependsOnPodStatus). */
  private readonly statusDependent = new WeakSet<HistoryEvent>();
  /** The controller write the server refused, of the last push (refusedWrite). */
  private refused: RefusedWrite | null = null;
  /** Pods/status writes seen: a log without any cannot tell phase or readiness. */
  podStatusWrites = 0;
  /** The first sign that the log lacks pods/status writes (a pod's status changed with none logged), or null. */
  podStatusEvidence: string | null = null;

  constructor(private readonly opts: ReplayOptions) {
    this.deployments = new DeploymentJudge(opts, this.causes, () => this.podStatusWrites > 0 && this.podStatusEvidence === null);
    this.controllerUsers = new Map<string, ControllerKind | null>(Object.entries(CONTROLLER_USERS));
    for (const u of opts.controllerUsers ?? []) if (!this.controllerUsers.has(u)) this.controllerUsers.set(u, null);
  }

  /** Takes the next write, in the order the server applied them; returns the events it makes. */
  push(w: ApiWrite): HistoryEvent[] {
    this.refused = null;
    // A write the API server refused changed nothing and is not an event (the contract). A cut
    // entry that lost its answer may have changed anything: read as a write without bodies.
    if (w.code !== UNKNOWN_OUTCOME && (w.code < 200 || w.code >= 300)) {
      // Upstream's updateReplicaSetStatus answers a refused status write with a GET and the same
      // status again, whether or not the object has it by then: note it for that retry.
      const kind = kindOfResource(w.resource);
      if (w.code === 409 && kind && w.subresource === 'status' && w.name && this.isController(w)) this.ns(w.namespace).conflicted.add(kindKey(kind, w.name));
      if (w.resource === 'pods' && this.isController(w)) this.refused = this.refusal(w);
      return [];
    }
    this.deployments.observe(this.ns(w.namespace), w);
    if (w.resource === 'deployments') {
      // not an event, and no write of the controllers: what a rollout carries out (cause chains)
      const name = w.name ?? (w.response?.metadata?.name as string | undefined);
      if (name) this.causes.deploymentChanged(w, name, w.bodies ? (w.response ?? undefined) : undefined);
      return [];
    }
    const ns = this.ns(w.namespace);
    ns.advance(Date.parse(w.time), this.opts.observedTimes === true);
    const out: HistoryEvent[] = [];
    const actor = { user: w.user, controller: this.isController(w) };
    this.syncWrite = false;
    let event = w.resource === 'pods' ? this.podEvent(ns, w, actor) : this.controllerEvent(ns, w, actor);
    if (event && w.resource === 'replicasets' && isDeploymentController(w)) event = this.deployments.judge(ns, w, event);
    if (event) out.push(event);
    if (!this.syncWrite) this.noteCause(ns, w);
    if (w.resource === 'pods' && w.subresource === 'status') this.podStatusWrites++;
    this.apply(ns, w);
    return out;
  }

  /** The controller's write of a pod that the last push brought and the server refused, if it was one. */
  refusedWrite(): RefusedWrite | null {
    return this.refused;
  }

  /**
   * Whether the verdict of `e` rests on pods' phase and readiness: the status a controller writes,
   * the ranking of a delete past its first criterion, a write the rules did not predict. A log
   * without pods/status writes (GKE with Data Access logs off) cannot tell them.
   */
  dependsOnPodStatus(e: HistoryEvent): boolean {
    return this.statusDependent.has(e);
  }

  /** The document around `events` (kept by the caller: the replay holds state, not the log). */
  history(source: ReconcileHistory['source'], events: HistoryEvent[], coverage: HistoryCoverage): ReconcileHistory {
    return {
      apiVersion: HISTORY_API_VERSION,
      kind: 'ReconcileHistory',
      source,
      kubernetesVersion: this.opts.behaviour.version,
      from: events[0]?.time ?? null,
      to: events.at(-1)?.time ?? null,
      events,
      coverage,
    };
  }

  /** The ReplicaSets the log has shown owned by the Deployment `name` of `namespace`, at any time. */
  replicaSetsOfDeployment(namespace: string, name: string): Set<string> {
    return this.deploymentReplicaSets.get(metaNamespaceKey(namespace, name)) ?? new Set();
  }

  private ns(name: string): NamespaceState {
    let s = this.namespaces.get(name);
    if (!s) this.namespaces.set(name, (s = new NamespaceState()));
    return s;
  }

  private isController(w: ApiWrite): boolean {
    return this.controllerUsers.has(w.user) || isRsReconcileController(w.userAgent);
  }

  // ------------------------------------------------------------------------------------------
  // Events

  private podEvent(ns: NamespaceState, w: ApiWrite, actor: HistoryEvent['actor']): HistoryEvent | null {
    const sub = w.subresource;
    if (sub === 'status' || sub === 'binding') return null; // the kubelet's and scheduler's: state only
    if (sub !== null && sub !== 'eviction') return null;
    const before = w.name !== null ? ns.pods.get(w.name) : undefined;
    const after = w.response?.kind === 'Pod' ? (w.response as Pod) : undefined;
    const name = w.name ?? after?.metadata?.name ?? null;
    const base = (verb: HistoryVerb, controller: HistoryControllerRef | null, message: string): HistoryEvent => ({
      time: w.time,
      actor,
      verb,
      controller,
      pod: name,
      reason: null,
      message,
      predicted: null,
      cause: null,
    });
    const noBodies = !w.bodies ? lost(w, name ? `pod ${name}` : `the pods of namespace ${w.namespace}`) : '';
    const who = w.user;

    if (w.verb === 'create' && sub === null) {
      const owner = ownerOf(after ?? (w.request as Pod | null), w.namespace);
      if (actor.controller && owner) return this.controllerWrite(ns, w, 'create', owner, name, (d, s) => createVerdict(s, d, name));
      return base('create', owner, `${who} created pod ${name ?? '(name not logged)'}${owner ? ` (owned by ${owner.kind} ${owner.name})` : ''}${noBodies}`);
    }
    if (w.verb === 'delete' || sub === 'eviction') {
      const owner = ownerOf(before ?? after, w.namespace);
      if (actor.controller && owner && sub === null) return this.controllerWrite(ns, w, 'delete', owner, name, (d, s) => deleteVerdict(d, name!, s.behaviour));
      const how = sub === 'eviction' ? 'evicted' : 'deleted';
      return base('delete', owner, `${who} ${how} pod ${name}${owner ? ` (owned by ${owner.kind} ${owner.name})` : ''}${noBodies}`);
    }
    if (w.verb === 'deletecollection') {
      return base('delete', null, `${who} deleted a collection of pods in namespace ${w.namespace}; the state of its pods is unknown from here`);
    }
    // update / patch
    const verb = w.verb === 'update' ? 'update' : 'patch';
    const was = before ? controllerRef(before) : undefined;
    const now = after ? controllerRef(after) : undefined;
    if (actor.controller && w.bodies && before && after) {
      if (!was && now && isControllerKind(now.kind)) {
        const owner = { kind: now.kind as ControllerKind, namespace: w.namespace, name: now.name };
        return this.controllerWrite(ns, w, 'adopt', owner, name, (d) => claimVerdict(d, name!, 'adopt'));
      }
      if (was && (!now || now.uid !== was.uid) && isControllerKind(was.kind)) {
        const owner = { kind: was.kind as ControllerKind, namespace: w.namespace, name: was.name };
        return this.controllerWrite(ns, w, 'release', owner, name, (d) => claimVerdict(d, name!, 'release'));
      }
    }
    const owner = ownerOf(after ?? before, w.namespace);
    const changes = before && after ? podChanges(before, after) : '';
    return base(verb, owner, `${who} ${verb === 'update' ? 'updated' : 'patched'} pod ${name}${changes ? `: ${changes}` : ''}${noBodies}`);
  }

  private controllerEvent(ns: NamespaceState, w: ApiWrite, actor: HistoryEvent['actor']): HistoryEvent | null {
    const kind = kindOfResource(w.resource)!; // called for controller resources only
    const name = w.name ?? (w.response?.metadata?.name as string | undefined) ?? null;
    const ref = name ? { kind, namespace: w.namespace, name } : null;
    const before = name ? ns.controllers.get(kindKey(kind, name)) : undefined;
    const who = w.user;
    // a status write cannot change what the controller plans on: only the status is lost
    const noBodies = !w.bodies ? lost(w, w.subresource === 'status' ? `the status of ${kind} ${name ?? '?'} (not its spec)` : `${kind} ${name ?? '?'}`) : '';
    const base = (verb: HistoryVerb, message: string): HistoryEvent => ({
      time: w.time,
      actor,
      verb,
      controller: ref,
      pod: null,
      reason: null,
      message: message + noBodies,
      predicted: null,
      cause: null,
    });
    if (w.subresource === 'status') {
      if (actor.controller && ref && w.bodies) {
        const retry = ns.conflicted.delete(kindKey(kind, ref.name));
        const lostStatus = ns.statusUnknown.get(kindKey(kind, ref.name)) ?? null;
        return this.controllerWrite(ns, w, 'status', ref, null, (d) => statusVerdict(d, w.request?.status, retry), lostStatus);
      }
      // a status write ends the controller's sync, whether or not the log kept its bodies
      const open = actor.controller && ref ? ns.syncs.get(kindKey(kind, ref.name)) : undefined;
      if (open) open.done = true;
      return base('status', `${who} wrote the status of ${kind} ${name}`);
    }
    if (w.subresource === 'scale') {
      const to = w.response?.spec?.replicas ?? w.request?.spec?.replicas;
      const from = before ? desiredOf(before) : undefined;
      return base('scale', `${who} scaled ${kind} ${name}${from !== undefined ? ` from ${from}` : ''}${typeof to === 'number' ? ` to ${to}` : ''}`);
    }
    if (w.subresource !== null) return null;
    if (w.verb === 'create') {
      const o = w.response ?? w.request;
      const replicas = o?.spec?.replicas ?? 1;
      return base('create', `${who} created ${kind} ${name} (replicas ${replicas}${o?.spec?.selector ? `, selector ${selectorText(o.spec.selector)}` : ''})`);
    }
    if (w.verb === 'delete') return base('delete', `${who} deleted ${kind} ${name}`);
    if (w.verb === 'deletecollection')
      return { ...base('delete', `${who} deleted a collection of ${w.resource} in namespace ${w.namespace}`), controller: null };
    const verb = w.verb === 'update' ? 'update' : 'patch';
    const after = w.response as Controllerish | null;
    const changes = before && after ? controllerChanges(before, after) : '';
    return base(verb, `${who} ${verb === 'update' ? 'updated' : 'patched'} ${kind} ${name}${changes ? `: ${changes}` : ''}`);
  }

  /** A write of the controller itself: part of the current sync, or the first of a new one. */
  private controllerWrite(
    ns: NamespaceState,
    w: ApiWrite,
    verb: HistoryVerb,
    controller: HistoryControllerRef,
    pod: string | null,
    verdict: VerdictOf,
    /** Why this write's verdict rests on state the log lost, though the sync's decision is known (a status cut from the log). */
    lostHere: string | null = null,
  ): HistoryEvent {
    this.syncWrite = true;
    const key = kindKey(controller.kind, controller.name);
    const at = Date.parse(w.time);
    const gap = pod !== null && verb !== 'create' && !ns.seenPods.has(pod) ? `pod ${pod} was not in the log before this write` : null;
    /** Every sync this write was planned on, for the rules of other candidate versions (rulesDiffer). */
    const tried: Sync[] = [];
    const open = ns.syncs.get(key);
    let { sync, v, first } = this.syncOf(ns, w, verb, controller, gap, verdict, tried);
    sync.last = at;
    const cause = sync.cause;
    const event = (x: Verdict, predicted: boolean | null): HistoryEvent => ({
      time: w.time,
      actor: { user: w.user, controller: true },
      verb,
      controller,
      pod,
      reason: x.reason,
      message: x.message,
      predicted,
      cause,
    });
    const unknown = gap ?? sync.unknown ?? lostHere;
    if (unknown !== null || !sync.decision) {
      if (verb === 'status') sync.done = true;
      return event({ ok: false, reason: null, message: `${describeWrite(verb, controller, pod)}; state unknown from here: ${unknown ?? 'no decision'}` }, null);
    }
    v ??= verdict(sync.decision, sync);
    let untried: string | null = null;
    if (!v.ok) {
      const found = this.inWindow(ns, w, verb, sync, open?.last, verdict, tried);
      if (found.found) {
        found.found.sync.last = at;
        ns.syncs.set(key, (sync = found.found.sync));
        v = found.found.verdict;
      } else untried = found.untried;
    }
    if (!v.ok && first) v = first;
    // not what the rules do on any state or time planned on, but some of the window were not tried
    if (!v.ok && untried !== null) return event({ ok: false, reason: null, message: `${v.message}; unknown: ${untried}` }, null);
    const differ = this.rulesDiffer(v.ok ? [sync] : tried, v, verdict);
    if (v.ok) {
      if (verb === 'create') sync.creates++;
      if (verb === 'status') sync.done = true;
    }
    if (differ) return event({ ok: false, reason: null, message: `${describeWrite(verb, controller, pod)}; unknown: ${differ}` }, null);
    const e = event(v, v.ok);
    if (verb === 'status' && v.ok && w.request?.status) ns.statusWritten.set(key, { at, status: w.request.status as Record<string, unknown> });
    // what a verdict rests on when the log may lack pods' phase and readiness: the status written,
    // a delete decided past the first criterion (assigned to a node or not), anything not predicted
    if (verb === 'status' || !v.ok || (verb === 'delete' && v.reason !== 'Unscheduled' && v.reason !== 'ScaleToZero')) this.statusDependent.add(e);
    return e;
  }

  /**
   * The sync this write is in: the controller's open sync goes on while its decision explains its
   * writes, until its status write ends it; otherwise this write starts a new sync, planned on the
   * state just before it (several syncs can follow one another: a status write once the creates
   * are seen). `first` is the open sync's answer, which the message gives when no plan does this write.
   */
  private syncOf(
    ns: NamespaceState,
    w: ApiWrite,
    verb: HistoryVerb,
    controller: HistoryControllerRef,
    gap: string | null,
    verdict: VerdictOf,
    tried: Sync[],
  ): { sync: Sync; v: Verdict | undefined; first: Verdict | undefined } {
    const key = kindKey(controller.kind, controller.name);
    const at = Date.parse(w.time);
    const open = ns.syncs.get(key);
    const usable = open && !open.done && at - open.last <= SYNC_PAUSE_MS && open.decision && open.unknown === null ? open : undefined;
    let first: Verdict | undefined;
    if (usable && gap === null) {
      first = verdict(usable.decision!, usable);
      tried.push(usable);
      if (first.ok) return { sync: usable, v: first, first };
    }
    const sync = planSync(this.opts, ns, controller, w, this.causes.causeOf(w.namespace, key, verb));
    ns.syncs.set(key, sync);
    tried.push(sync);
    return { sync, v: undefined, first };
  }

  /** A sync of the window before the write on which the rules do it: ranked at an earlier time (a delete), or planned on an earlier state. */
  private inWindow(
    ns: NamespaceState,
    w: ApiWrite,
    verb: HistoryVerb,
    sync: Sync,
    previous: number | undefined,
    verdict: VerdictOf,
    tried: Sync[],
  ): WindowAnswer {
    const ranked = verb === 'delete' ? rankedInWindow(this.opts, ns, sync, w, verdict, tried) : { found: null, untried: null };
    if (ranked.found) return ranked;
    const earlier =
      verb === 'status'
        ? statusOnEarlierPods(this.opts, ns, sync, w, ns.statusWritten.get(kindKey(sync.controller.kind, sync.controller.name)), verdict, tried)
        : plannedOnEarlierStates(this.opts, ns, sync, w, previous, verdict, tried);
    return earlier.found ? earlier : { found: null, untried: ranked.untried ?? earlier.untried };
  }

  /**
   * Where the input does not name the version that wrote the sync: why the verdict is unknown
   * when the rules of another candidate minor answer otherwise on the same state, else null.
   */
  private rulesDiffer(syncs: readonly Sync[], v: Verdict, verdict: VerdictOf): string | null {
    // predicted: every candidate must do it the same way in that sync; not predicted: none may do
    // it in any sync this write was planned on
    const answers = new Map<string, Verdict>();
    for (const s of syncs)
      for (const a of s.alternatives) {
        const x = verdict(a.decision, { ...s, behaviour: a.behaviour, decision: a.decision });
        const had = answers.get(a.versions);
        if (!had || (x.ok && !had.ok)) answers.set(a.versions, x);
      }
    const answer = (x: Verdict) => (x.ok ? `do it${x.reason ? ` (${x.reason})` : ''}` : 'do not');
    const others = [...answers].filter(([, x]) => x.ok !== v.ok || (v.ok && x.reason !== v.reason));
    if (others.length === 0) return null;
    return `the input does not name the Kubernetes version of the controller that wrote it, and the rules differ on this write: those of ${syncs[0].behaviour.version} ${answer(v)}, those of ${others.map(([versions, x]) => `${versions} ${answer(x)}`).join(', ')} (--kube-version chooses)`;
  }

  /** A refused write of a pod by the controller, in words (the pod's story tells it). */
  private refusal(w: ApiWrite): RefusedWrite {
    const name = w.name ?? (w.request?.metadata?.name as string | undefined) ?? null;
    const owner = ownerOf(w.request as Pod | null, w.namespace);
    const refs = w.request?.metadata?.ownerReferences;
    const verb: HistoryVerb =
      w.verb === 'create'
        ? 'create'
        : w.verb === 'delete'
          ? 'delete'
          : Array.isArray(refs) && refs.some((r: { controller?: boolean }) => r?.controller)
            ? 'adopt'
            : refs !== undefined || w.request?.metadata?.['$deleteFromPrimitiveList/finalizers']
              ? 'release'
              : w.verb === 'update'
                ? 'update'
                : 'patch';
    const why = typeof w.response?.message === 'string' ? `: ${w.response.message}` : '';
    return { time: w.time, user: w.user, verb, controller: owner, pod: name, code: w.code, message: `${statusText(w.code)}${why}` };
  }

  /** Tells the cause tracker what a write that is not a controller's own sync changed. */
  private noteCause(ns: NamespaceState, w: ApiWrite): void {
    if (w.resource === 'pods') {
      if (w.subresource === 'binding') return;
      const name = w.name ?? (w.response?.metadata?.name as string | undefined);
      if (!name) return;
      const before = ns.pods.get(name);
      const after = w.bodies ? (w.response ?? undefined) : undefined;
      if (after && after.kind !== 'Pod') return;
      const affected = new Set<string>();
      for (const p of [before, after]) {
        const ref = p ? controllerRef(p as Pod) : undefined;
        if (ref && isControllerKind(ref.kind)) affected.add(kindKey(ref.kind as ControllerKind, ref.name));
      }
      // an orphan counts for the controllers that select it (they may adopt it)
      if (affected.size === 0 && (w.subresource === null || w.verb !== 'delete'))
        for (const k of ns.selecting(after?.metadata?.labels ?? before?.metadata.labels)) affected.add(k);
      this.causes.podChanged(w, name, before, after, [...affected]);
      return;
    }
    const kind = kindOfResource(w.resource);
    const name = w.name ?? (w.response?.metadata?.name as string | undefined);
    if (!kind || !name) return;
    if (w.subresource === 'status') return; // the controller's own report, or someone else's: nothing it counts
    const key = kindKey(kind, name);
    if (w.verb === 'delete' && (!w.response || gone(w.response))) return this.causes.forget(w.namespace, key);
    this.causes.controllerChanged(w, kind, name, ns.controllers.get(key), w.bodies ? (w.response ?? undefined) : undefined);
  }

  // ------------------------------------------------------------------------------------------
  // State

  private apply(ns: NamespaceState, w: ApiWrite): void {
    const kind = kindOfResource(w.resource);
    const key = w.name === null ? null : kind ? kindKey(kind, w.name) : w.name;
    if (!w.bodies) {
      // A write to the status subresource cannot change the spec, labels or owner: what the
      // controller plans on stays known, only its status is lost until a body shows it again.
      if (kind && key && w.subresource === 'status' && ns.controllers.has(key)) {
        ns.statusUnknown.set(key, `the status of ${kind} ${w.name} was written at ${w.time} without bodies in the log`);
        return;
      }
      ns.unknown.set(
        key ?? `*${w.resource}`,
        `${w.resource === 'pods' ? 'pod' : kind} ${w.name ?? '(name not logged)'} was written at ${w.time} without bodies in the log (${w.verb})`,
      );
      if (w.resource === 'pods' && w.name) ns.seenPods.add(w.name);
      return;
    }
    if (w.verb === 'deletecollection') {
      const items = Array.isArray(w.response?.items) ? (w.response!.items as Record<string, any>[]) : null;
      if (!items) ns.unknown.set(`*${w.resource}`, `${w.resource} of namespace ${w.namespace} were deleted as a collection at ${w.time}`);
      else for (const o of items) this.put(ns, w.resource, o, true);
      return;
    }
    if (w.resource === 'pods') return this.applyPod(ns, w);
    if (w.subresource === 'scale') {
      const c = key ? ns.controllers.get(key) : undefined;
      const to = w.response?.spec?.replicas;
      if (c && typeof to === 'number') {
        const changed = desiredOf(c) !== to;
        ns.setController(key!, {
          ...c,
          spec: { ...c.spec, replicas: to },
          metadata: { ...c.metadata, resourceVersion: w.response?.metadata?.resourceVersion, generation: (c.metadata.generation ?? 0) + (changed ? 1 : 0) },
        } as Controllerish);
      } else if (key) ns.unknown.set(key, `${kind} ${w.name} was scaled at ${w.time} before the log showed it`);
      return;
    }
    if (w.subresource !== null && w.subresource !== 'status') return;
    const o = w.response;
    if (!o || o.kind === 'Status') {
      if (w.verb === 'delete' && key) ns.removeController(key);
      return;
    }
    const first = key !== null && !ns.controllers.has(key) && !(w.verb === 'create' && w.subresource === null);
    this.put(ns, w.resource, o, w.verb === 'delete' && gone(o));
    if (first && ns.controllers.has(key!)) {
      ns.unknown.set(`first:${key}`, `${kind} ${w.name} was created before the log starts (first seen at ${w.time}): its pods may be missing`);
    }
    if (w.subresource === 'status' && this.isController(w) && key) this.checkAgreement(ns, key);
  }

  private applyPod(ns: NamespaceState, w: ApiWrite): void {
    const name = w.name ?? w.response?.metadata?.name;
    if (typeof name === 'string') ns.seenPods.add(name);
    if (w.subresource === 'binding') {
      const p = name ? ns.pods.get(name) : undefined;
      const node = w.request?.target?.name;
      if (p && typeof node === 'string') ns.setPod(name!, { ...p, spec: { ...p.spec, nodeName: node } });
      return;
    }
    if (w.subresource === 'eviction') {
      const p = name ? ns.pods.get(name) : undefined;
      if (p) ns.setPod(name!, { ...p, metadata: { ...p.metadata, deletionTimestamp: p.metadata.deletionTimestamp ?? w.time } });
      return;
    }
    if (w.subresource !== null && w.subresource !== 'status' && w.response?.kind !== 'Pod') return;
    const o = w.response;
    if (o?.kind !== 'Pod') {
      if (w.verb === 'delete' && name) ns.removePod(name);
      return;
    }
    // Only pods/status writes change a pod's status: a body of another write showing a phase or a
    // readiness the log never set proves the log lacks them (GKE without Data Access logs).
    const had = w.subresource === null && typeof name === 'string' ? ns.pods.get(name) : undefined;
    if (had && this.podStatusEvidence === null) {
      const [p0, p1] = [had.status?.phase ?? '', o.status?.phase ?? ''];
      const [r0, r1] = [readyStatus(had), readyStatus(o)];
      if (p0 !== p1 || r0 !== r1) {
        this.podStatusEvidence = `pod ${name} was ${p0 !== p1 ? `${p1 || 'without a phase'}` : `Ready ${r1}`} in the answer to a ${w.verb} at ${w.time}, which no pods/status write in the log had set`;
      }
    }
    this.put(ns, 'pods', o, w.verb === 'delete' && gone(o));
  }

  /** Stores an object seen whole (or forgets it when `removed`), which ends any gap it had. */
  private put(ns: NamespaceState, resource: string, o: Record<string, any>, removed: boolean): void {
    const name = o?.metadata?.name;
    if (typeof name !== 'string') return;
    const kind = kindOfResource(resource);
    const key = kind ? kindKey(kind, name) : name;
    if (removed) {
      if (kind) ns.removeController(key);
      else ns.removePod(key);
      ns.unknown.delete(key);
      return;
    }
    try {
      if (kind) {
        validateController(o, kind);
        const c = slimController(o, kind);
        ns.setController(key, c);
        ns.statusUnknown.delete(key);
        const owner = controllerRef(c);
        if (kind === 'ReplicaSet' && owner?.kind === 'Deployment') {
          const k = metaNamespaceKey(c.metadata.namespace, owner.name);
          if (!this.deploymentReplicaSets.has(k)) this.deploymentReplicaSets.set(k, new Set());
          this.deploymentReplicaSets.get(k)!.add(name);
        }
      } else {
        validatePod(o);
        ns.setPod(key, slimPod(o));
      }
      ns.unknown.delete(key);
    } catch (e) {
      ns.unknown.set(key, `${kind ?? 'pod'} ${name} has a body the history cannot read: ${(e as Error).message}`);
    }
  }

  /**
   * A status the controller wrote says how many pods it owns; when that agrees with the pods the
   * log has shown, nothing it counts is missing, and the gaps of unnamed writes and of a log that
   * starts late end.
   */
  private checkAgreement(ns: NamespaceState, key: string): void {
    const c = ns.controllers.get(key);
    if (!c) return;
    const owned = ns.ownedBy(c.metadata.uid).filter(isPodActive).length;
    if ((c.status?.replicas ?? 0) !== owned) return;
    ns.unknown.delete(`first:${key}`);
    ns.unknown.delete('*pods');
  }
}
