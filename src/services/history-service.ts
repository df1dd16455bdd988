// `history`: the audit logs read in one streaming pass, every write of pods, ReplicaSets and
// ReplicationControllers replayed (src/history/replay.ts), and the events of the chosen scope and
// target put in time order and kept on disk (event-spool.ts): memory holds the objects that
// exist, a few minutes of events being put in order, and the counts.

import { AuditFormatError, writeOfAuditEvent } from '../history/audit-event.js';
import { HistoryReplay } from '../history/replay.js';
import type { HistoryCounts, HistoryEvent, ReconcileHistory } from '../history/types.js';
import { readAuditLogs } from '../input/audit-log.js';
import { UserError } from '../errors.js';
import { EventSpool } from './event-spool.js';
import { chooseBehaviour } from './plan-service.js';
import type { Target } from './targets.js';

export type HistoryTarget = Target | { kind: 'Pod'; name: string };

export interface HistoryOptions {
  auditLogs: string[];
  /** undefined: every namespace in the logs. */
  namespace?: string;
  target?: HistoryTarget;
  kubeVersion?: string;
  featureGates?: string;
  controllerUsers?: string[];
  onBytes?: (read: number, total: number) => void;
  /** Where the events are kept while they are written out (default: the system's temporary directory). */
  spoolDir?: string;
}

/** The writes the rules did not predict, shown under the table: the first ones, and how many. */
export const NOT_PREDICTED_SHOWN = 50;

export interface HistoryResult {
  /** The contract's document; `events` is read from disk as it is written out. */
  history: Omit<ReconcileHistory, 'events'> & { events: EventSpool<HistoryEvent> };
  counts: HistoryCounts;
  notPredicted: HistoryEvent[];
  notices: string[];
  /** The namespace the target was found in (a pod story names it). */
  targetNamespace: string | null;
  /** Removes the events kept on disk. */
  close(): void;
}

/**
 * An audit log holds writes in the order the server answered them; the contract lists them by
 * the time they were received. A write is answered within the API server's request timeout (60 s
 * by default), so an event can be released once the log has moved REORDER_WINDOW_MS past it.
 */
export const REORDER_WINDOW_MS = 120_000;

class TimeOrder {
  private readonly heap: { at: number; seq: number; e: HistoryEvent }[] = [];
  private seq = 0;

  push(e: HistoryEvent): void {
    const h = this.heap;
    h.push({ at: Date.parse(e.time), seq: this.seq++, e });
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  /** The events received at or before `limit` (ms), in order; all of them when undefined. */
  *release(limit?: number): Generator<HistoryEvent> {
    const h = this.heap;
    while (h.length > 0 && (limit === undefined || h[0].at <= limit)) {
      const top = h[0];
      const last = h.pop()!;
      if (h.length > 0) {
        h[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < h.length && before(h[l], h[m])) m = l;
          if (r < h.length && before(h[r], h[m])) m = r;
          if (m === i) break;
          [h[i], h[m]] = [h[m], h[i]];
          i = m;
        }
      }
      yield top.e;
    }
  }
}

const before = (a: { at: number; seq: number }, b: { at: number; seq: number }): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

export async function buildHistory(opts: HistoryOptions): Promise<HistoryResult> {
  if (opts.auditLogs.length === 0) throw new UserError('no audit log: give one or more with --audit-log FILE');
  const notices: string[] = [];
  const behaviour = chooseBehaviour({ kubeVersion: opts.kubeVersion, featureGates: opts.featureGates }, null, notices);
  const replay = new HistoryReplay({ behaviour, controllerUsers: opts.controllerUsers });
  const target = opts.target;
  const targetNamespaces = new Set<string>();
  const counts: HistoryCounts = { events: 0, controller: 0, predicted: 0, notPredicted: 0, unknown: 0 };
  const notPredicted: HistoryEvent[] = [];
  const spool = new EventSpool<HistoryEvent>(opts.spoolDir);
  let from = null as string | null;
  let to = null as string | null;
  const keep = (e: HistoryEvent): void => {
    spool.push(e);
    from ??= e.time;
    to = e.time;
    counts.events++;
    if (!e.actor.controller) return;
    counts.controller++;
    if (e.predicted === true) counts.predicted++;
    else if (e.predicted === null) counts.unknown++;
    else {
      counts.notPredicted++;
      if (notPredicted.length < NOT_PREDICTED_SHOWN) notPredicted.push(e);
    }
  };
  const order = new TimeOrder();
  let writes = 0;
  // the version of the kube-controller-manager that wrote the log, from its User-Agent
  let writer: string | undefined;
  try {
    for await (const line of readAuditLogs(opts.auditLogs, { onBytes: opts.onBytes })) {
      let w;
      try {
        w = writeOfAuditEvent(line.value);
      } catch (e) {
        if (e instanceof AuditFormatError) throw new UserError(`${line.file}:${line.line}: ${e.message}`);
        throw e;
      }
      if (!w || (opts.namespace !== undefined && w.namespace !== opts.namespace)) continue;
      writes++;
      writer ??= /^kube-controller-manager\/v(1\.\d+)\./.exec(w.userAgent)?.[1];
      for (const e of replay.push(w)) {
        if (target && !matches(replay, w.namespace, e, target)) continue;
        if (target) targetNamespaces.add(w.namespace);
        order.push(e);
      }
      const at = Date.parse(line.at);
      if (!Number.isNaN(at)) for (const e of order.release(at - REORDER_WINDOW_MS)) keep(e);
    }
    for (const e of order.release()) keep(e);
    if (target) {
      if (counts.events === 0) throw new UserError(`${describeTarget(target)} has no write in the audit log${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''}`);
      if (targetNamespaces.size > 1) throw new UserError(`"${target.name}" is in several namespaces of the log (${[...targetNamespaces].sort().join(', ')}): choose one with -n`);
    }
  } catch (e) {
    spool.close();
    throw e;
  }
  if (writer !== undefined && opts.kubeVersion === undefined && writer !== behaviour.version) {
    notices.push(`the log was written by kube-controller-manager v${writer}, and the rules of ${behaviour.version} were applied: pass --kube-version ${writer} to emulate it`);
  }
  if (writes === 0) notices.push(`no write of pods, ReplicaSets or ReplicationControllers${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''} in the audit log: was it written with a policy that logs them at RequestResponse?`);
  const { events: _none, ...header } = replay.history('audit-log', []);
  const history = { ...header, from, to, events: spool };
  return {
    history,
    counts,
    notPredicted,
    notices,
    targetNamespace: targetNamespaces.size === 1 ? [...targetNamespaces][0] : (opts.namespace ?? null),
    close: () => spool.close(),
  };
}

function matches(replay: HistoryReplay, ns: string, e: HistoryEvent, t: HistoryTarget): boolean {
  if (t.kind === 'Pod') return e.pod === t.name;
  if (!e.controller) return false;
  if (t.kind === 'Deployment') return e.controller.kind === 'ReplicaSet' && replay.replicaSetsOfDeployment(ns, t.name).has(e.controller.name);
  return e.controller.name === t.name && (t.kind === null || e.controller.kind === t.kind);
}

function describeTarget(t: HistoryTarget): string {
  switch (t.kind) {
    case 'Pod':
      return `pod ${t.name}`;
    case 'Deployment':
      return `Deployment ${t.name}`;
    case null:
      return `controller ${t.name}`;
    default:
      return `${t.kind} ${t.name}`;
  }
}
