// The timeline's rows and marks: a Deployment's row over its ReplicaSets' lanes (the ones the
// cause chains show it rolling), each lane over its pods' bars, and a mark per write of the
// document on the row of what it wrote; the cause steps that are no write of the document (a
// kubelet's Ready change, a person's edit of a Deployment) get a mark of their own, so that
// every step of a cause chain links to one.

import type { CauseStep, HistoryEvent, ReconcileHistory } from '../../history/types.js';
import { metaNamespaceKey } from '../../core/object-key.js';
import {
  barSegments,
  collectPods,
  deploymentsOf,
  isController,
  key,
  laneKey,
  stepKey,
  verdictOf,
  writerKind,
  type Lane,
  type Mark,
  type PodBar,
  type PodLife,
  type Row,
  type TimelineModel,
} from './model.js';

interface LaneInfo {
  key: string;
  kind: string;
  namespace: string;
  name: string;
  deployment: string | null;
  first: number;
}

interface Top {
  namespace: string;
  name: string;
  deployment: boolean;
  lanes: LaneInfo[];
}

function lanesOf(events: readonly HistoryEvent[], times: number[], pods: Map<string, PodLife>): LaneInfo[] {
  const owner = deploymentsOf(events);
  const lanes = new Map<string, LaneInfo>();
  events.forEach((e, i) => {
    const k = laneKey(e);
    if (lanes.has(k)) return;
    const c = e.controller;
    const namespace = c?.namespace ?? k.split('/')[1];
    lanes.set(k, { key: k, kind: c?.kind ?? '', namespace, name: c?.name ?? '', deployment: c ? (owner.get(k) ?? null) : null, first: times[i] });
  });
  for (const p of pods.values()) if (!lanes.has(p.lane)) throw new Error(`pod ${p.name} has no lane`); // every pod comes from an event
  return [...lanes.values()];
}

/** Deployments (with their lanes in the order they first wrote) and lone lanes, by namespace and name. */
function topLevel(lanes: LaneInfo[]): Top[] {
  const tops = new Map<string, Top>();
  for (const l of lanes) {
    const k = l.deployment === null ? `lane|${l.key}` : `deploy|${metaNamespaceKey(l.namespace, l.deployment)}`;
    let t = tops.get(k);
    if (!t) tops.set(k, (t = { namespace: l.namespace, name: l.deployment ?? l.name, deployment: l.deployment !== null, lanes: [] }));
    t.lanes.push(l);
  }
  for (const t of tops.values()) t.lanes.sort((a, b) => a.first - b.first || a.name.localeCompare(b.name));
  return [...tops.values()].sort(
    (a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name) || Number(a.deployment) - Number(b.deployment),
  );
}

interface Placed {
  rows: Row[];
  lanes: Lane[];
  bars: PodBar[];
  laneRow: Map<string, number>;
  podRow: Map<string, number>;
  deploymentRow: Map<string, number>;
}

function placeRows(tops: Top[], pods: Map<string, PodLife>, from: number, to: number): Placed {
  const out: Placed = { rows: [], lanes: [], bars: [], laneRow: new Map(), podRow: new Map(), deploymentRow: new Map() };
  const podsOf = new Map<string, PodLife[]>();
  for (const p of pods.values()) {
    const list = podsOf.get(p.lane);
    if (list) list.push(p);
    else podsOf.set(p.lane, [p]);
  }
  for (const t of tops) {
    let group = -1;
    if (t.deployment) {
      group = out.rows.length;
      out.deploymentRow.set(key('Deployment', t.namespace, t.name), group);
      out.rows.push({ kind: 'deployment', namespace: t.namespace, name: t.name, lane: -1, group });
    }
    for (const l of t.lanes) {
      const lane = out.rows.length;
      out.laneRow.set(l.key, lane);
      out.lanes.push({ row: lane, marks: [] });
      out.rows.push({ kind: 'controller', namespace: l.namespace, name: l.name, lane, group, controllerKind: l.kind });
      const own = (podsOf.get(l.key) ?? []).map((p) => ({ p, start: p.created ?? from })).sort((a, b) => a.start - b.start || a.p.name.localeCompare(b.p.name));
      for (const { p, start } of own) {
        const row = out.rows.length;
        const end = Math.max(start, p.deletes.length > 0 ? p.deletes[p.deletes.length - 1] : to);
        out.podRow.set(key('Pod', p.namespace, p.name), row);
        out.rows.push({ kind: 'pod', namespace: p.namespace, name: p.name, lane, group, bar: out.bars.length });
        out.bars.push({
          namespace: p.namespace,
          name: p.name,
          row,
          start,
          end,
          createdInLog: p.created !== null,
          deletedInLog: p.deletes.length > 0,
          segments: barSegments(p, start, end),
        });
      }
    }
  }
  return out;
}

/** The row a cause step's object is drawn on, when the timeline has one. */
function rowOfObject(o: CauseStep['object'], placed: Placed): number | undefined {
  if (o.kind === 'Pod') return placed.podRow.get(key('Pod', o.namespace, o.name));
  if (isController(o.kind)) return placed.laneRow.get(key(o.kind, o.namespace, o.name));
  if (o.kind === 'Deployment') return placed.deploymentRow.get(key('Deployment', o.namespace, o.name));
  return undefined;
}

/** The key a write and the cause step that names it share: when, who, and what. */
function writeKey(time: string, user: string, o: CauseStep['object']): string {
  return `${time}|${user}|${key(o.kind, o.namespace, o.name)}`;
}

function eventObject(e: HistoryEvent, namespace: string): CauseStep['object'] | null {
  if (e.pod !== null) return { kind: 'Pod', namespace, name: e.pod };
  return e.controller && { kind: e.controller.kind, namespace: e.controller.namespace, name: e.controller.name };
}

function placeMarks(events: readonly HistoryEvent[], times: number[], placed: Placed): Mark[] {
  const marks: Mark[] = [];
  const byWrite = new Map<string, number>();
  events.forEach((e, i) => {
    const lane = placed.laneRow.get(laneKey(e))!;
    const podRow = e.pod === null ? undefined : placed.podRow.get(key('Pod', placed.rows[lane].namespace, e.pod));
    marks.push({
      time: times[i],
      row: podRow ?? lane,
      writer: writerKind(e.actor.user, e.actor.controller),
      event: i,
      verb: e.verb,
      verdict: verdictOf(e),
      causes: [],
    });
    const o = eventObject(e, placed.rows[lane].namespace);
    if (o) byWrite.set(writeKey(e.time, e.actor.user, o), i);
  });
  const bySteps = new Map<string, number>();
  events.forEach((e, i) => {
    const lane = placed.laneRow.get(laneKey(e))!;
    marks[i].causes = (e.cause ?? []).map((s) => {
      const written = byWrite.get(writeKey(s.time, s.user, s.object));
      if (written !== undefined) return written;
      const k = stepKey(s);
      let m = bySteps.get(k);
      if (m === undefined) {
        bySteps.set(k, (m = marks.length));
        marks.push({
          time: Date.parse(s.time),
          row: rowOfObject(s.object, placed) ?? lane,
          writer: writerKind(s.user, false),
          event: -1,
          step: s,
          verb: s.verb,
          verdict: null,
          causes: [],
        });
      }
      return m;
    });
  });
  return marks;
}

/** Marks in time order (events first at equal times), with every index into them renumbered. */
function sortMarks(marks: Mark[]): Mark[] {
  const order = marks.map((_, i) => i).sort((a, b) => marks[a].time - marks[b].time || Number(marks[a].event < 0) - Number(marks[b].event < 0) || a - b);
  const at = new Array<number>(marks.length);
  order.forEach((old, i) => {
    at[old] = i;
  });
  return order.map((old) => ({ ...marks[old], causes: marks[old].causes.map((c) => at[c]) }));
}

/** The timeline of a ReconcileHistory document: rows, pod bars and marks (see model.ts). */
export function buildTimeline(doc: Pick<ReconcileHistory, 'events' | 'from' | 'to'>): TimelineModel {
  const events = doc.events;
  const times = events.map((e) => Date.parse(e.time));
  const stepTimes = events.flatMap((e) => (e.cause ?? []).map((s) => Date.parse(s.time)));
  const bounds = [...times, ...stepTimes, ...[doc.from, doc.to].filter((t): t is string => t !== null).map(Date.parse)].filter((t) => !Number.isNaN(t));
  let from = bounds.length ? bounds.reduce((a, b) => Math.min(a, b)) : 0;
  let to = bounds.length ? bounds.reduce((a, b) => Math.max(a, b)) : 1;
  // a lone instant still gets a width to draw
  if (to - from < 1) [from, to] = [from - 500, to + 500];
  const pods = collectPods(events, times);
  const placed = placeRows(topLevel(lanesOf(events, times, pods)), pods, from, to);
  const marks = sortMarks(placeMarks(events, times, placed));
  const rowMarks: number[][] = placed.rows.map(() => []);
  const laneOfRow = new Map(placed.lanes.map((l, i) => [l.row, i]));
  marks.forEach((m, i) => {
    rowMarks[m.row].push(i);
    // a controller's writes: those on its lane and its pods' rows (cause steps are others' writes)
    if (m.event >= 0) placed.lanes[laneOfRow.get(placed.rows[m.row].lane)!].marks.push(i);
  });
  const namespaces = [...new Set(placed.rows.map((r) => r.namespace))].sort();
  return { from, to, rows: placed.rows, lanes: placed.lanes, bars: placed.bars, marks, rowMarks, namespaces };
}
