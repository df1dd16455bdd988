// `history --events`: where there is no audit log, the cluster's Events (core/v1 or
// events.k8s.io/v1, live or as `kubectl get events -o json|yaml` printed them) tell who created
// or deleted which pod and when, in words:
//
// - the ReplicaSet and ReplicationController controllers' SuccessfulCreate "Created pod: X" and
//   SuccessfulDelete "Deleted pod: X" (rs-reconcile's own as well): their writes, with no verdict
//   (`predicted: null`): Events do not carry the state the controller decided on;
// - their FailedCreate / FailedDelete: writes the API server refused (no event, as the contract
//   says; `refused`);
// - the deployment controller's ScalingReplicaSet "Scaled up replica set X from 1 to 3": a scale of
//   the ReplicaSet, an event of its own and the cause of the creates (deletes) that followed, as
//   many as it asked for;
// - the kubelet's Killing "Stopping container c" of a pod of a controller that no Event says was
//   deleted by anyone (nor Evicted by the kubelet, which fails a pod rather than deleting it): a
//   delete by someone Events do not name; the scheduler's Preempted and the taint eviction
//   controller's TaintManagerEviction name who deleted it.
//
// client-go's event recorder counts an Event again rather than writing a new one (`count`,
// `series.count`), combines similar ones ("(combined from similar events): …", naming only the
// last), and drops Events past its spam filter: a count of N is N writes whose times are not
// kept but the first and the last; nothing is invented in between. The same Event seen several
// times (a file holding several listings, a watch's output) is one Event: the one seen with the
// highest count. Everything is ordered by time, ties broken by the Events' names, so that the
// history of a set of Events does not depend on the order they are read in.
//
// Pure: no I/O and no clock.

import { isControllerKind } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { COMBINED_PREFIX, EVENT_COMPONENT_USERS, UNKNOWN_USER } from './recording.js';
import type { CauseStep, HistoryControllerRef, HistoryCoverage, HistoryEvent, HistoryVerb, RefusedWrite } from './types.js';
import { isObj } from '../core/guards.js';
import { kindKey, metaNamespaceKey, splitMetaNamespaceKey } from '../core/object-key.js';

/** The prefix client-go's EventAggregator gives the Event that combines similar ones. */

/** Why a write read from an Event has no verdict: said in each event's message. */
export const EVENTS_WHY =
  'Events name the pods a controller created or deleted, not the state it decided on: the ranking and the status are not in them; `kubectl rs-reconcile record` keeps the whole state for next time';

/** What Events cannot tell, said once in the coverage. */
const EVENTS_MISSING: readonly string[] = [
  'the state of pods and controllers (Events carry only what happened, in words): no write is checked against the rules',
  "Events older than the cluster's event TTL (kube-apiserver --event-ttl, 1h by default)",
  'writes of users (Events are written by controllers, not by kubectl): their scales, deletes and label changes show only through what the controllers did next',
  'adoptions, releases and status writes (the controllers write no Event for them)',
  "writes past the event recorder's limits: after 10 similar Events in 10 minutes it combines them into one that names only the last pod, and past 25 Events about one object it sends one every 5 minutes",
  'the order of writes within one second (Event times are kept to the second)',
];

/** The users the components writing these Events run as, where it is known. */
const COMPONENT_USERS: Readonly<Record<string, string>> = {
  ...EVENT_COMPONENT_USERS,
  'deployment-controller': 'system:serviceaccount:kube-system:deployment-controller',
  'default-scheduler': 'system:kube-scheduler',
};

/** The Event reasons the history reads; any other Event is left out. */
export const EVENT_REASONS: ReadonlySet<string> = new Set([
  'SuccessfulCreate',
  'SuccessfulDelete',
  'FailedCreate',
  'FailedDelete',
  'ScalingReplicaSet',
  'Killing',
  'Evicted',
  'Preempted',
  'TaintManagerEviction',
]);

/** rand.SafeEncodeString's alphabet (no vowels): the tail of generated pod and ReplicaSet names. */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_POD = new RegExp(`^(.+)-[${SAFE}]{5}$`);
const POD_MESSAGE = /^(?:Created|Deleted) pod: (\S+)$/;
const REFUSED_POD = /\bpods? "([^"]+)"/;
const SCALING = /^Scaled (up|down) replica set (\S+) (?:from (\d+) to (\d+)|to (\d+) from (\d+)|to (\d+))$/;
const TAINT_EVICTION = /^Marking for deletion Pod (?:[^/\s]+\/)?(\S+)$/;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One Event as the history reads it, whichever API version it came in. */
export interface EventRecord {
  /** What makes two sightings the same Event: its namespace and name (its content when it has none). */
  key: string;
  namespace: string;
  name: string;
  reason: string;
  type: string;
  /** The message (note), without the combined prefix. */
  message: string;
  /** client-go combined similar Events into this one: its message names only the last. */
  combined: boolean;
  /** reportingComponent (reportingController), else source.component. */
  component: string;
  host: string;
  involved: { kind: string; namespace: string; name: string; uid: string };
  /** How many times it happened (count, series.count, deprecatedCount; at least 1). */
  count: number;
  first: string;
  firstMs: number;
  last: string;
  lastMs: number;
}

/** Whether a value is an Event object (core/v1 or events.k8s.io), or a list item shaped like one. */
export function isEventObject(v: unknown): boolean {
  if (!isObj(v)) return false;
  if (v.kind === 'Event') return typeof v.apiVersion !== 'string' || v.apiVersion === 'v1' || v.apiVersion.startsWith('events.k8s.io/');
  return v.kind === undefined && (isObj(v.involvedObject) || isObj(v.regarding)) && typeof v.reason === 'string';
}

/**
 * A time as the history writes it, whatever the Event's API version and serializer made of it
 * (`…:15Z`, `…:15.000Z`, a MicroTime's `…:15.123456Z`): RFC 3339 in UTC, to the millisecond when
 * there is a fraction.
 */
function eventTimeText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** The earliest (or latest) of the times given that parse, with its text. */
function pickTime(candidates: unknown[], latest: boolean): { text: string; ms: number } | null {
  let best: { text: string; ms: number } | null = null;
  for (const c of candidates) {
    if (typeof c !== 'string' || c === '') continue;
    const ms = Date.parse(c);
    if (Number.isNaN(ms)) continue;
    if (!best || (latest ? ms > best.ms : ms < best.ms)) best = { text: eventTimeText(ms), ms };
  }
  return best;
}

/**
 * An Event the history reads, in one shape; null when it is not one of EVENT_REASONS, names no
 * involved object, or carries no time.
 */
export function readEvent(v: unknown): EventRecord | null {
  if (!isEventObject(v)) return null;
  const e = v as Record<string, any>;
  const reason = str(e.reason);
  if (!EVENT_REASONS.has(reason)) return null;
  const io = isObj(e.involvedObject) ? e.involvedObject : isObj(e.regarding) ? e.regarding : null;
  if (!io || str(io.name) === '') return null;
  const meta = isObj(e.metadata) ? e.metadata : {};
  const series = isObj(e.series) ? e.series : {};
  const source = isObj(e.source) ? e.source : isObj(e.deprecatedSource) ? e.deprecatedSource : {};
  const first = pickTime([e.firstTimestamp, e.deprecatedFirstTimestamp, e.eventTime], false) ?? pickTime([meta.creationTimestamp], false);
  const last = pickTime([e.lastTimestamp, e.deprecatedLastTimestamp, series.lastObservedTime, e.eventTime], true) ?? first;
  if (!first || !last) return null;
  const raw = str(e.message) || str(e.note);
  const combined = raw.startsWith(COMBINED_PREFIX);
  const counts = [e.count, e.deprecatedCount, series.count].filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
  const namespace = str(meta.namespace) || str(io.namespace);
  const name = str(meta.name);
  const r: Omit<EventRecord, 'key'> = {
    namespace,
    name,
    reason,
    type: str(e.type),
    message: (combined ? raw.slice(COMBINED_PREFIX.length) : raw).trim(),
    combined,
    component: str(e.reportingComponent) || str(e.reportingController) || str(source.component),
    host: str(source.host),
    involved: { kind: str(io.kind), namespace: str(io.namespace) || namespace, name: str(io.name), uid: str(io.uid) },
    count: Math.max(1, Math.floor(Math.max(0, ...counts))),
    first: first.ms <= last.ms ? first.text : last.text,
    firstMs: Math.min(first.ms, last.ms),
    last: last.text,
    lastMs: last.ms,
  };
  // Unnamed (hand-made) Events are told apart by what they say and when they started.
  const key = name !== '' ? metaNamespaceKey(namespace, name) : `${namespace}//${JSON.stringify([reason, r.component, r.involved, raw, r.first])}`;
  return { key, ...r };
}

/** Of two sightings of one Event, the later: the higher count, then the later time, then any fixed choice. */
function later(a: EventRecord, b: EventRecord): EventRecord {
  if (a.count !== b.count) return a.count > b.count ? a : b;
  if (a.lastMs !== b.lastMs) return a.lastMs > b.lastMs ? a : b;
  if (a.firstMs !== b.firstMs) return a.firstMs < b.firstMs ? a : b;
  return JSON.stringify(a) >= JSON.stringify(b) ? a : b;
}

/** The objects a value holds: itself, or the items of a List (EventList, kind: List), flattened. */
export function objectsOf(doc: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isObj(v) && Array.isArray(v.items) && (v.kind === undefined || (typeof v.kind === 'string' && v.kind.endsWith('List'))))
      for (const x of v.items) walk(x);
    else if (v !== null && v !== undefined) out.push(v);
  };
  walk(doc);
  return out;
}

/** A Deployment, a Pod, or a controller (null: either kind), as `history` takes its argument. */
interface EventsTarget {
  kind: ControllerKind | 'Deployment' | 'Pod' | null;
  name: string;
}

export interface EventsScope {
  /** undefined: every namespace. */
  namespace?: string;
  target?: EventsTarget;
  /** Only events at or after / at or before these times (ms since the epoch). */
  sinceMs?: number;
  untilMs?: number;
  /** Only the controllers' writes (their causes stay in `cause`). */
  controllerWritesOnly?: boolean;
}

export interface EventsHistory {
  /** In time order. */
  events: HistoryEvent[];
  /** The namespace of each event, index for index. */
  namespaces: string[];
  /** FailedCreate / FailedDelete: the controllers' writes that did not happen, in time order. */
  refused: RefusedWrite[];
  coverage: HistoryCoverage;
  /** Events read (the ones of EVENT_REASONS in scope, each sighting), and how many distinct. */
  read: number;
  distinct: number;
}

type Item =
  | { at: number; rank: number; key: string; ns: string; e: EventRecord; kill?: undefined }
  | { at: number; rank: number; key: string; ns: string; e?: undefined; kill: Killed };

/** A pod the kubelet stopped that no Event says anyone deleted. */
interface Killed {
  ns: string;
  pod: string;
  time: string;
  ms: number;
  message: string;
  owner: HistoryControllerRef | null;
}

interface ScaleSeen {
  step: CauseStep;
  /** "up from 1 to 3", "down to 2" (its "from" not known). */
  words: string;
  dir: 'up' | 'down';
  to: number;
  /** Pods this scale still accounts for (Infinity when its "from" is unknown). */
  left: number;
}

interface Knowledge {
  /** `ns/pod` → the controller whose Event named it. */
  podOwner: Map<string, HistoryControllerRef>;
  /** `ns/name` → the controller kinds Events name with that name. */
  controllers: Map<string, Set<ControllerKind>>;
  /** `ns/deployment` → its ReplicaSets, from ScalingReplicaSet. */
  deploymentSets: Map<string, Set<string>>;
  /** `ns/pod`: pods an Event says someone deleted (or the kubelet evicted). */
  accounted: Set<string>;
  /** `ns/kind/name` → the controller's combined delete Events. */
  combinedDeletes: Map<string, EventRecord[]>;
}

const RANK: Readonly<Record<string, number>> = { ScalingReplicaSet: 0 };
const KILLED_RANK = 2;

/** The history Events tell, in scope; `records` may hold the same Event several times, in any order. */
export function historyFromEvents(records: Iterable<EventRecord>, scope: EventsScope = {}): EventsHistory {
  const best = new Map<string, EventRecord>();
  let read = 0;
  for (const r of records) {
    if (scope.namespace !== undefined && r.namespace !== scope.namespace) continue;
    read++;
    const had = best.get(r.key);
    best.set(r.key, had ? later(had, r) : r);
  }
  const distinct = [...best.values()];
  const k = know(distinct);
  const items: Item[] = distinct.map((e) => ({ at: e.lastMs, rank: RANK[e.reason] ?? 1, key: e.key, ns: e.namespace, e }));
  for (const kill of killed(distinct, k)) items.push({ at: kill.ms, rank: KILLED_RANK, key: metaNamespaceKey(kill.ns, kill.pod), ns: kill.ns, kill });
  items.sort((a, b) => a.at - b.at || a.rank - b.rank || (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const scales = new Map<string, ScaleSeen>();
  const lastTo = new Map<string, number>();
  const events: HistoryEvent[] = [];
  const namespaces: string[] = [];
  const refused: RefusedWrite[] = [];
  const sets = new Map<string, Set<string>>();
  const setsOf = (ns: string, deployment: string): Set<string> => {
    const key = metaNamespaceKey(ns, deployment);
    let set = sets.get(key);
    if (!set) sets.set(key, (set = replicaSetsOfDeployment(k, ns, deployment)));
    return set;
  };
  const inTime = (ms: number) => (scope.sinceMs === undefined || ms >= scope.sinceMs) && (scope.untilMs === undefined || ms <= scope.untilMs);
  for (const it of items) {
    let out: HistoryEvent | RefusedWrite | null;
    if (it.kill) out = killedEvent(it.kill, k);
    else out = eventOf(it.e, k, scales, lastTo);
    if (!out || !inTime(it.at)) continue;
    if (scope.target && !matches(out, it.ns, scope.target, setsOf)) continue;
    if ('code' in out) refused.push(out);
    else {
      if (scope.controllerWritesOnly && !out.actor.controller) continue;
      events.push(out);
      namespaces.push(it.ns);
    }
  }
  const coverage: HistoryCoverage = { format: 'events', truncated: 0, duplicates: read - distinct.length, missing: [...EVENTS_MISSING] };
  return { events, namespaces, refused, coverage, read, distinct: distinct.length };
}

// ---------------------------------------------------------------------------------------------

const controllerOf = (e: EventRecord): HistoryControllerRef | null =>
  isControllerKind(e.involved.kind) ? { kind: e.involved.kind, namespace: e.namespace, name: e.involved.name } : null;

const podOf = (e: EventRecord): string | null => POD_MESSAGE.exec(e.message)?.[1] ?? null;

function scalingOf(e: EventRecord): { dir: 'up' | 'down'; rs: string; from: number | null; to: number } | null {
  const m = SCALING.exec(e.message);
  if (!m) return null;
  const [, dir, rs, f1, t1, t2, f2, t3] = m;
  return { dir: dir as 'up' | 'down', rs, from: f1 !== undefined ? Number(f1) : f2 !== undefined ? Number(f2) : null, to: Number(t1 ?? t2 ?? t3) };
}

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

/** What the Events say about which pod and which ReplicaSet belongs to what, whenever they say it. */
function know(events: EventRecord[]): Knowledge {
  const k: Knowledge = { podOwner: new Map(), controllers: new Map(), deploymentSets: new Map(), accounted: new Set(), combinedDeletes: new Map() };
  // the same order as the history, so that a conflict is settled the same way whatever the input order
  const sorted = [...events].sort((a, b) => a.lastMs - b.lastMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const e of sorted) {
    const ctl = controllerOf(e);
    if (ctl) addTo(k.controllers, metaNamespaceKey(e.namespace, ctl.name), ctl.kind);
    const pod = podOf(e);
    if (ctl && pod && (e.reason === 'SuccessfulCreate' || e.reason === 'SuccessfulDelete')) {
      const key = metaNamespaceKey(e.namespace, pod);
      if (!k.podOwner.has(key)) k.podOwner.set(key, ctl);
      if (e.reason === 'SuccessfulDelete') k.accounted.add(key);
    }
    if (ctl && e.reason === 'SuccessfulDelete' && e.combined && e.count > 1) {
      const key = metaNamespaceKey(e.namespace, kindKey(ctl.kind, ctl.name));
      k.combinedDeletes.set(key, [...(k.combinedDeletes.get(key) ?? []), e]);
    }
    if (e.reason === 'ScalingReplicaSet') {
      const s = scalingOf(e);
      if (!s) continue;
      addTo(k.controllers, metaNamespaceKey(e.namespace, s.rs), 'ReplicaSet');
      if (e.involved.kind === 'Deployment') addTo(k.deploymentSets, metaNamespaceKey(e.namespace, e.involved.name), s.rs);
    }
    if (
      e.involved.kind === 'Pod' &&
      (e.reason === 'Evicted' || e.reason === 'Preempted' || (e.reason === 'TaintManagerEviction' && TAINT_EVICTION.test(e.message)))
    ) {
      k.accounted.add(metaNamespaceKey(e.namespace, e.involved.name));
    }
  }
  return k;
}

/** The controller a pod belongs to: the one whose Event named it, else the one its generated name points to. */
function ownerOfPod(ns: string, pod: string, k: Knowledge): HistoryControllerRef | null {
  const named = k.podOwner.get(metaNamespaceKey(ns, pod));
  if (named) return named;
  const m = GENERATED_POD.exec(pod);
  const kinds = m ? k.controllers.get(metaNamespaceKey(ns, m[1])) : undefined;
  if (!m || !kinds || kinds.size !== 1) return null;
  return { kind: [...kinds][0], namespace: ns, name: m[1] };
}

/** Pods of a controller the kubelet stopped ("Stopping container") that no Event says anyone deleted. */
function killed(events: EventRecord[], k: Knowledge): Killed[] {
  const byPod = new Map<string, Killed>();
  for (const e of events) {
    if (e.reason !== 'Killing' || e.involved.kind !== 'Pod' || !e.message.startsWith('Stopping container')) continue;
    const pod = e.involved.name;
    const key = metaNamespaceKey(e.namespace, pod);
    if (k.accounted.has(key)) continue;
    const owner = ownerOfPod(e.namespace, pod, k);
    if (!owner) continue; // not a pod the ReplicaSet controllers' history follows
    const had = byPod.get(key);
    if (had && (had.ms < e.firstMs || (had.ms === e.firstMs && had.message <= e.message))) continue;
    byPod.set(key, { ns: e.namespace, pod, time: e.first, ms: e.firstMs, message: e.message, owner });
  }
  return [...byPod.values()];
}

/** "3 times between A and B" (or "at A" within one time), for an Event counted more than once. */
const times = (e: EventRecord): string => (e.firstMs === e.lastMs ? `${e.count} times at ${e.last}` : `${e.count} times between ${e.first} and ${e.last}`);

const actorOf = (component: string): HistoryEvent['actor'] => {
  const controller = Object.hasOwn(EVENT_COMPONENT_USERS, component);
  return { user: Object.hasOwn(COMPONENT_USERS, component) ? COMPONENT_USERS[component] : component || UNKNOWN_USER, controller };
};

const shortUser = (user: string): string => /^system:serviceaccount:kube-system:(.+)$/.exec(user)?.[1] ?? user;

function eventOf(e: EventRecord, k: Knowledge, scales: Map<string, ScaleSeen>, lastTo: Map<string, number>): HistoryEvent | RefusedWrite | null {
  switch (e.reason) {
    case 'SuccessfulCreate':
    case 'SuccessfulDelete':
      return writeEvent(e, scales);
    case 'FailedCreate':
    case 'FailedDelete':
      return refusedWrite(e);
    case 'ScalingReplicaSet':
      return scaleEvent(e, scales, lastTo);
    case 'Preempted':
    case 'TaintManagerEviction':
      return evictionEvent(e, k);
    default:
      return null;
  }
}

function writeEvent(e: EventRecord, scales: Map<string, ScaleSeen>): HistoryEvent | null {
  const controller = controllerOf(e);
  if (!controller) return null; // a Job's, a DaemonSet's pods: not this history's
  const verb: HistoryVerb = e.reason === 'SuccessfulCreate' ? 'create' : 'delete';
  const pod = podOf(e);
  const actor = actorOf(e.component);
  // the scale that asked for this write, while it accounts for pods still
  let cause: CauseStep[] | null = null;
  let reason: string | null = verb === 'create' && actor.controller ? 'TooFewReplicas' : null;
  const scale = controller.kind === 'ReplicaSet' ? scales.get(metaNamespaceKey(e.namespace, controller.name)) : undefined;
  if (scale && scale.left > 0 && scale.dir === (verb === 'create' ? 'up' : 'down')) {
    cause = [scale.step];
    scale.left -= e.count;
    if (verb === 'delete' && scale.to === 0 && actor.controller) reason = 'ScaleToZero';
  }
  const did = verb === 'create' ? 'created' : 'deleted';
  let what: string;
  if (e.combined && e.count > 1) {
    what = `${did} pods ${times(e)}, the last ${pod ?? '(not named)'}: the event recorder combined similar Events into one ("combined from similar events"), which names only the last pod and keeps no time of the others`;
  } else if (e.count > 1) {
    what = `${did} pod ${pod ?? '(not named)'} ${times(e)} (one Event counted ${e.count} times: only the first and the last time are kept)`;
  } else {
    what = `${did} pod ${pod ?? '(not named)'}`;
  }
  if (!actor.controller) what = `${actor.user} ${what}`;
  const after = cause && scale ? `, after ${shortUser(cause[0].user)} scaled ${controller.kind} ${controller.name} ${scale.words} at ${cause[0].time}` : '';
  return { time: e.last, actor, verb, controller, pod, reason, message: `${what}${after}; ${EVENTS_WHY}`, predicted: null, cause };
}

function refusedWrite(e: EventRecord): RefusedWrite | null {
  const controller = controllerOf(e);
  if (!controller) return null;
  const verb: HistoryVerb = e.reason === 'FailedCreate' ? 'create' : 'delete';
  const named = REFUSED_POD.exec(e.message)?.[1];
  // a create's error names the generateName prefix ("web-"), not a pod
  const pod = named !== undefined && !named.endsWith('-') ? named : null;
  return {
    time: e.last,
    user: actorOf(e.component).user,
    verb,
    controller,
    pod,
    code: codeOf(e.message),
    message: `${e.reason}: ${e.message}${e.count > 1 ? ` (${times(e)})` : ''}`,
  };
}

/** The HTTP status an error's words stand for (0: the Event does not say). */
function codeOf(message: string): number {
  if (/\bis forbidden\b|exceeded quota/.test(message)) return 403;
  if (/\bnot found\b/.test(message)) return 404;
  if (/\balready exists\b|the object has been modified|Operation cannot be fulfilled/.test(message)) return 409;
  if (/\bis invalid\b/.test(message)) return 422;
  if (/Too many requests|TooManyRequests|rate limit/i.test(message)) return 429;
  if (/timeout|timed out|deadline exceeded/i.test(message)) return 504;
  return 0;
}

function scaleEvent(e: EventRecord, scales: Map<string, ScaleSeen>, lastTo: Map<string, number>): HistoryEvent | null {
  const s = scalingOf(e);
  if (!s) return null;
  const actor = actorOf(e.component);
  const controller: HistoryControllerRef = { kind: 'ReplicaSet', namespace: e.namespace, name: s.rs };
  const key = metaNamespaceKey(e.namespace, s.rs);
  const from = s.from ?? lastTo.get(key) ?? null;
  lastTo.set(key, s.to);
  const change = from !== null ? `${from} → ${s.to}` : `? → ${s.to}`;
  const step: CauseStep = {
    time: e.last,
    user: actor.user,
    verb: 'scale',
    object: { kind: 'ReplicaSet', namespace: e.namespace, name: s.rs },
    field: 'spec.replicas',
    change,
  };
  const words = `${s.dir} ${from !== null ? `from ${from} ` : ''}to ${s.to}`;
  scales.set(key, { step, words, dir: s.dir, to: s.to, left: from !== null ? Math.abs(s.to - from) : Number.POSITIVE_INFINITY });
  const owner = e.involved.kind ? ` (${e.involved.kind} ${e.involved.name})` : '';
  let what = `${shortUser(actor.user)} scaled ReplicaSet ${s.rs}${owner} ${words}`;
  if (e.combined && e.count > 1)
    what += `, the last of ${e.count} scales between ${e.first} and ${e.last} combined into one Event by the event recorder (the others are not named)`;
  else if (e.count > 1) what += ` (${times(e)})`;
  if (s.from === null && from !== null) what += ` (from ${from} as the Event before said)`;
  const why = `; Events do not carry the change of the ${e.involved.kind || 'owner'} that made ${shortUser(actor.user)} scale it`;
  return { time: e.last, actor, verb: 'scale', controller, pod: null, reason: null, message: what + why, predicted: null, cause: null };
}

function evictionEvent(e: EventRecord, k: Knowledge): HistoryEvent | null {
  if (e.involved.kind !== 'Pod') return null;
  if (e.reason === 'TaintManagerEviction' && !TAINT_EVICTION.test(e.message)) return null;
  const pod = e.involved.name;
  const owner = ownerOfPod(e.namespace, pod, k);
  if (!owner) return null;
  const actor = actorOf(e.component);
  const how = e.reason === 'Preempted' ? `preempted pod ${pod} to make room for another` : `evicted pod ${pod} from a node with a taint it does not tolerate`;
  return {
    time: e.last,
    actor,
    verb: 'delete',
    controller: owner,
    pod,
    reason: null,
    message: `${shortUser(actor.user)} ${how} (${e.reason}: ${e.message})`,
    predicted: null,
    cause: null,
  };
}

function killedEvent(kill: Killed, k: Knowledge): HistoryEvent {
  let message =
    `pod ${kill.pod} was deleted: the kubelet stopped it at ${kill.time} (Killing: ${kill.message}), and no Event names who deleted it: ` +
    "users, the garbage collector and evictions write none (nor does a controller past its event recorder's limits)";
  if (kill.owner) {
    const combined = (k.combinedDeletes.get(metaNamespaceKey(kill.ns, kindKey(kill.owner.kind, kill.owner.name))) ?? []).filter(
      (e) => e.firstMs <= kill.ms + 60_000 && kill.ms <= e.lastMs + 60_000,
    );
    if (combined.length > 0) {
      const c = combined[0];
      message += `; ${kill.owner.kind} ${kill.owner.name} deleted pods ${times(c)} in an Event naming only the last: it may be one of them`;
    }
  }
  return {
    time: kill.time,
    actor: { user: UNKNOWN_USER, controller: false },
    verb: 'delete',
    controller: kill.owner,
    pod: kill.pod,
    reason: null,
    message,
    predicted: null,
    cause: null,
  };
}

/** The ReplicaSets of a Deployment: named by its ScalingReplicaSet Events, or by name (NAME-<pod-template-hash>). */
function replicaSetsOfDeployment(k: Knowledge, ns: string, deployment: string): Set<string> {
  const out = new Set(k.deploymentSets.get(metaNamespaceKey(ns, deployment)) ?? []);
  const hashed = new RegExp(`^${escapeRegExp(deployment)}-[${SAFE}]{1,10}$`);
  for (const [key, kinds] of k.controllers) {
    const split = splitMetaNamespaceKey(key);
    if (split?.namespace === ns && kinds.has('ReplicaSet') && hashed.test(split.name)) out.add(split.name);
  }
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matches(e: HistoryEvent | RefusedWrite, ns: string, t: EventsTarget, setsOf: (ns: string, deployment: string) => Set<string>): boolean {
  if (t.kind === 'Pod') return e.pod === t.name;
  if (!e.controller) return false;
  if (t.kind === 'Deployment') return e.controller.kind === 'ReplicaSet' && setsOf(ns, t.name).has(e.controller.name);
  return e.controller.name === t.name && (t.kind === null || e.controller.kind === t.kind);
}
