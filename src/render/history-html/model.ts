// The timeline page's model: a ReconcileHistory document (../shared/history-format.md) laid out
// as rows (a Deployment, its controllers, their pods), pod bars and marks. Pure, with no DOM: the
// page's script builds it in the browser from the one embedded document, and the unit tests build
// it here. It only places what the document says: verdicts, reasons, messages and causes are
// read as they are, never worked out again. What it reads besides them, for the picture alone:
// - a pod's life: the create and delete writes that name it (a delete sets deletionTimestamp; the
//   last delete is when it went), and the phase and Ready changes its cause steps carry;
// - a Deployment's ReplicaSets: a cause step of the deployment controller on a ReplicaSet
//   followed by the Deployment write that made it act (as `history` says "rolling out");
// - who wrote it: the writer kind gives the colour, from the controller flag and the user's name.

import { isControllerKind } from '../../core/controller.js';
import { kindKey, metaNamespaceKey } from '../../core/object-key.js';
import type { CauseStep, HistoryEvent } from '../../history/types.js';

/** Who wrote, as the picture colours it. */
export type WriterKind = 'replicaset-controller' | 'deployment-controller' | 'person' | 'node' | 'garbage-collector' | 'other-controller';

export const WRITER_KINDS: readonly WriterKind[] = [
  'replicaset-controller',
  'deployment-controller',
  'person',
  'node',
  'garbage-collector',
  'other-controller',
];

/** The colour and the legend's words of each writer kind (colour-blind safe: Okabe–Ito). */
export const WRITER_STYLE: Readonly<Record<WriterKind, { color: string; label: string }>> = {
  'replicaset-controller': { color: '#0072b2', label: 'the replicaset / replication controller' },
  'deployment-controller': { color: '#e69f00', label: 'the deployment controller' },
  person: { color: '#cc79a7', label: 'a person (or another client)' },
  node: { color: '#009e73', label: 'the kubelet or the scheduler' },
  'garbage-collector': { color: '#7f7f7f', label: 'the garbage collector' },
  'other-controller': { color: '#56b4e9', label: 'another controller (HPA, …)' },
};

/** A controller write's verdict as the document gives it; none for others' writes. */
export type Verdict = 'predicted' | 'not-predicted' | 'unknown';

const SA = /^system:serviceaccount:kube-system:(.+)$/;

/**
 * The writer kind of a write: the document's controller flag first (the ReplicaSet and
 * ReplicationController controllers, rs-reconcile's own `run` included), then kube-system's
 * well-known users.
 */
export function writerKind(user: string, controller: boolean): WriterKind {
  if (controller) return 'replicaset-controller';
  const sa = SA.exec(user)?.[1];
  if (sa === 'deployment-controller') return 'deployment-controller';
  if (sa === 'generic-garbage-collector') return 'garbage-collector';
  if (user.startsWith('system:node:') || user === 'system:kube-scheduler') return 'node';
  if (sa !== undefined && /-controller$|^horizontal-pod-autoscaler$/.test(sa)) return 'other-controller';
  if (user === 'system:kube-controller-manager') return 'other-controller';
  return 'person';
}

export function verdictOf(e: HistoryEvent): Verdict | null {
  if (!e.actor.controller) return null;
  return e.predicted === true ? 'predicted' : e.predicted === false ? 'not-predicted' : 'unknown';
}

/** What a stretch of a pod's bar shows: what the document says of its phase and readiness. */
type PodState = 'unknown' | 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'ready' | 'not-ready' | 'terminating';

export interface BarSegment {
  from: number;
  to: number;
  state: PodState;
}

export interface PodBar {
  namespace: string;
  name: string;
  row: number;
  /** ms; the log's first time when the create is not in the document (`createdInLog` false). */
  start: number;
  end: number;
  createdInLog: boolean;
  /** The pod went (its last delete) within the document; false: it outlives the log. */
  deletedInLog: boolean;
  segments: BarSegment[];
}

type RowKind = 'deployment' | 'controller' | 'pod';

export interface Row {
  kind: RowKind;
  namespace: string;
  /** Deployment, ReplicaSet/ReplicationController or pod name; '' for writes of no controller. */
  name: string;
  /** The controller lane a row belongs to (its own index for a lane; -1 for a Deployment row). */
  lane: number;
  /** The Deployment group the row is in, by its row index (-1: none). */
  group: number;
  /** The controller's kind, on controller rows. */
  controllerKind?: string;
  /** On pod rows: the bar's index. */
  bar?: number;
}

export interface Mark {
  time: number;
  row: number;
  writer: WriterKind;
  /** The document's event index; -1 for a cause step that is no event of the document. */
  event: number;
  /** Cause steps only: the step as the document gives it (first seen). */
  step?: CauseStep;
  verb: string;
  verdict: Verdict | null;
  /** Events only: each cause step's mark, nearest first (-1 where it has none). */
  causes: number[];
}

export interface Lane {
  row: number;
  /** Marks of this controller's writes (its pods' included), in time order: keyboard navigation. */
  marks: number[];
}

export interface TimelineModel {
  from: number;
  to: number;
  rows: Row[];
  lanes: Lane[];
  bars: PodBar[];
  /** In time order; events before the cause steps that are no event at equal times. */
  marks: Mark[];
  /** Per row, its marks' indices in time order (rendering looks up the visible ones by time). */
  rowMarks: number[][];
  namespaces: string[];
}

const key = (kind: string, namespace: string, name: string): string => kindKey(kind, metaNamespaceKey(namespace, name));
const stepKey = (s: CauseStep): string => `${s.time}|${s.user}|${s.verb}|${key(s.object.kind, s.object.namespace, s.object.name)}|${s.field}`;
const isController = (kind: string): boolean => isControllerKind(kind);

/**
 * The Deployment of each ReplicaSet the cause chains show the deployment controller rolling: a
 * step of it on a ReplicaSet followed by the Deployment write that made it act, or its own write
 * on a ReplicaSet whose cause goes back to a Deployment write.
 */
export function deploymentsOf(events: readonly HistoryEvent[]): Map<string, string> {
  const owner = new Map<string, string>();
  for (const e of events) {
    const steps = e.cause ?? [];
    const c = e.controller;
    if (c?.kind === 'ReplicaSet' && writerKind(e.actor.user, e.actor.controller) === 'deployment-controller') {
      const d = steps.find((s) => s.object.kind === 'Deployment' && s.object.namespace === c.namespace);
      if (d) owner.set(key('ReplicaSet', c.namespace, c.name), d.object.name);
    }
    for (let i = 0; i + 1 < steps.length; i++) {
      const s = steps[i];
      const next = steps[i + 1];
      if (writerKind(s.user, false) !== 'deployment-controller' || s.object.kind !== 'ReplicaSet' || next.object.kind !== 'Deployment') continue;
      if (next.object.namespace !== s.object.namespace) continue;
      owner.set(key('ReplicaSet', s.object.namespace, s.object.name), next.object.name);
    }
  }
  return owner;
}

interface PodLife {
  namespace: string;
  name: string;
  lane: string;
  first: number;
  created: number | null;
  deletes: number[];
  /** [time, phase or Ready value] in time order, from cause steps. */
  phase: [number, string][];
  ready: [number, boolean][];
}

/** After the arrow of "Pending → Running" / "not set → True". */
const after = (change: string): string =>
  change
    .split(/\s*(?:→|->)\s*/)
    .pop()!
    .trim();

function collectPods(events: readonly HistoryEvent[], times: number[]): Map<string, PodLife> {
  const pods = new Map<string, PodLife>();
  const life = (namespace: string, name: string, lane: string, t: number): PodLife => {
    const k = key('Pod', namespace, name);
    let p = pods.get(k);
    if (!p) pods.set(k, (p = { namespace, name, lane, first: t, created: null, deletes: [], phase: [], ready: [] }));
    p.first = Math.min(p.first, t);
    return p;
  };
  events.forEach((e, i) => {
    if (e.pod === null) return;
    const ns = e.controller?.namespace ?? podNamespace(e);
    const p = life(ns, e.pod, laneKey(e), times[i]);
    if (e.verb === 'create' && p.created === null) p.created = times[i];
    if (e.verb === 'delete') p.deletes.push(times[i]);
  });
  // phase and readiness where the cause chains carry them; pods no event names get no bar
  const seen = new Set<string>();
  for (const e of events) {
    for (const s of e.cause ?? []) {
      const p = s.object.kind === 'Pod' ? pods.get(key('Pod', s.object.namespace, s.object.name)) : undefined;
      if (!p || seen.has(stepKey(s))) continue;
      seen.add(stepKey(s));
      const t = Date.parse(s.time);
      if (s.field === 'status.phase') p.phase.push([t, after(s.change)]);
      else if (/ready/i.test(s.field)) p.ready.push([t, /^(true|ready)$/i.test(after(s.change))]);
    }
  }
  for (const p of pods.values()) {
    p.phase.sort((a, b) => a[0] - b[0]);
    p.ready.sort((a, b) => a[0] - b[0]);
  }
  return pods;
}

/** A pod written with no controller named: its namespace from a cause step naming it, else ''. */
function podNamespace(e: HistoryEvent): string {
  return e.cause?.find((s) => s.object.kind === 'Pod' && s.object.name === e.pod)?.object.namespace ?? '';
}

function laneKey(e: HistoryEvent): string {
  return e.controller ? key(e.controller.kind, e.controller.namespace, e.controller.name) : key('', e.pod === null ? '' : podNamespace(e), '');
}

/** The bar's stretches: what the phase and Ready steps say, from each one to the next. */
export function barSegments(p: Pick<PodLife, 'phase' | 'ready' | 'deletes'>, start: number, end: number): BarSegment[] {
  const cuts = [...new Set([start, end, ...p.phase.map((x) => x[0]), ...p.ready.map((x) => x[0]), ...p.deletes.slice(0, 1)])]
    .filter((t) => t >= start && t <= end)
    .sort((a, b) => a - b);
  const out: BarSegment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const at = cuts[i];
    const phase = lastAt(p.phase, at);
    const ready = lastAt(p.ready, at);
    let state: PodState = 'unknown';
    if (p.deletes.length > 0 && at >= p.deletes[0]) state = 'terminating';
    else if (phase === 'Succeeded' || phase === 'Failed') state = phase;
    else if (ready !== undefined) state = ready ? 'ready' : 'not-ready';
    else if (phase === 'Pending' || phase === 'Running') state = phase;
    const prev = out[out.length - 1];
    if (prev && prev.state === state) prev.to = cuts[i + 1];
    else out.push({ from: at, to: cuts[i + 1], state });
  }
  return out;
}

function lastAt<T>(changes: [number, T][], at: number): T | undefined {
  let v: T | undefined;
  for (const [t, x] of changes) if (t <= at) v = x;
  return v;
}

export type { PodLife };
export { collectPods, key, stepKey, isController, laneKey };
