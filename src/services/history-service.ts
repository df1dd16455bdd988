// `history`: the audit logs read in one streaming pass, every write of pods, ReplicaSets and
// ReplicationControllers replayed (src/history/replay.ts), and the events of the chosen scope
// and target kept.

import { AuditFormatError, writeOfAuditEvent } from '../history/audit-event.js';
import { HistoryReplay } from '../history/replay.js';
import type { HistoryEvent, ReconcileHistory } from '../history/types.js';
import { readAuditLogs } from '../input/audit-log.js';
import { UserError } from '../errors.js';
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
}

export interface HistoryResult {
  history: ReconcileHistory;
  notices: string[];
  /** The namespace the target was found in (a pod story names it). */
  targetNamespace: string | null;
}

export async function buildHistory(opts: HistoryOptions): Promise<HistoryResult> {
  if (opts.auditLogs.length === 0) throw new UserError('no audit log: give one or more with --audit-log FILE');
  const notices: string[] = [];
  const behaviour = chooseBehaviour({ kubeVersion: opts.kubeVersion, featureGates: opts.featureGates }, null, notices);
  const replay = new HistoryReplay({ behaviour, controllerUsers: opts.controllerUsers });
  const target = opts.target;
  // Which namespaces the target was written in: a name in several needs -n.
  const targetNamespaces = new Set<string>();
  const kept: { ns: string; e: HistoryEvent }[] = [];
  let writes = 0;
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
    for (const e of replay.push(w)) kept.push({ ns: w.namespace, e });
  }
  let events = kept;
  if (target) {
    events = kept.filter(({ ns, e }) => {
      if (!matches(replay, ns, e, target)) return false;
      targetNamespaces.add(ns);
      return true;
    });
    if (events.length === 0) throw new UserError(`${describeTarget(target)} has no write in the audit log${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''}`);
    if (targetNamespaces.size > 1) throw new UserError(`"${target.name}" is in several namespaces of the log (${[...targetNamespaces].sort().join(', ')}): choose one with -n`);
  }
  if (writes === 0) notices.push(`no write of pods, ReplicaSets or ReplicationControllers${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''} in the audit log: was it written with a policy that logs them at RequestResponse?`);
  // The log holds writes in the order the server answered them; the contract lists them by the
  // time they were received (a stable sort keeps the answer order between equal times).
  const history = replay.history('audit-log', events.map((k) => k.e).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)));
  return { history, notices, targetNamespace: targetNamespaces.size === 1 ? [...targetNamespaces][0] : (opts.namespace ?? null) };
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
