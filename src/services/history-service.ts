// `history`: the audit logs (or recordings of `record`) read in one streaming pass, every write of
// pods, ReplicaSets and ReplicationControllers replayed (src/history/replay.ts), and the events of the chosen scope
// and target kept.

import { AuditFormatError, writeOfAuditEvent } from '../history/audit-event.js';
import { HistoryReplay } from '../history/replay.js';
import type { HistoryEvent, ReconcileHistory } from '../history/types.js';
import { RecordingConverter, RecordingFormatError, RECORDING_KIND, RS_RECONCILE_USER, parseRecordingLine, type ConvertedWrite } from '../history/recording.js';
import { readAuditLogs, readJsonLines, type AuditLine, type JsonLinesKind } from '../input/audit-log.js';
import { UserError } from '../errors.js';
import { chooseBehaviour } from './plan-service.js';
import type { Target } from './targets.js';

export type HistoryTarget = Target | { kind: 'Pod'; name: string };

export interface HistoryOptions {
  auditLogs: string[];
  /** Recordings of `record` / `watch --record` (docs/recording-format.md): the other kind of input. */
  recordings?: string[];
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

/** Recordings are merged by the time each change was seen (the header's: when recording started). */
const RECORDING: JsonLinesKind = {
  noun: 'recording',
  lineNoun: 'a JSON recording line',
  tooLongHint: 'not a recording written by rs-reconcile record?',
  timeOf: (v) => (typeof v?.time === 'string' ? v.time : ''),
};

/** The writes of the recordings, in order, each with whether it is state only (no event). */
async function* recordedWrites(files: string[], opts: HistoryOptions, notices: string[]): AsyncGenerator<ConvertedWrite> {
  const converter = new RecordingConverter();
  const started = new Set<string>();
  for await (const line of readJsonLines(files, RECORDING, { onBytes: opts.onBytes })) {
    let parsed;
    try {
      parsed = parseRecordingLine(line.value);
    } catch (e) {
      if (e instanceof RecordingFormatError) throw new UserError(`${line.file}:${line.line}: ${e.message}${started.has(line.file) ? '' : ': not a recording of rs-reconcile record (an audit log? use --audit-log)'}`);
      throw e;
    }
    if (!started.has(line.file)) {
      if (parsed.kind !== RECORDING_KIND) throw new UserError(`${line.file}:${line.line}: not a recording of rs-reconcile record: its first line is not the {"kind":"Recording"} header`);
      started.add(line.file);
    }
    yield* converter.push(parsed);
  }
  yield* converter.end();
  notices.push(...converter.notices);
}

async function* auditWrites(files: string[], opts: HistoryOptions): AsyncGenerator<ConvertedWrite> {
  for await (const line of readAuditLogs(files, { onBytes: opts.onBytes }) as AsyncGenerator<AuditLine>) {
    let w;
    try {
      w = writeOfAuditEvent(line.value);
    } catch (e) {
      if (e instanceof AuditFormatError) throw new UserError(`${line.file}:${line.line}: ${e.message}`);
      throw e;
    }
    if (w) yield { write: w, stateOnly: false };
  }
}

export async function buildHistory(opts: HistoryOptions): Promise<HistoryResult> {
  const recordings = opts.recordings ?? [];
  if (opts.auditLogs.length > 0 && recordings.length > 0) throw new UserError('give audit logs (--audit-log) or recordings (--recording), not both: one history is read from one kind of input');
  if (opts.auditLogs.length === 0 && recordings.length === 0) throw new UserError('no audit log: give one or more with --audit-log FILE (or recordings of rs-reconcile record with --recording FILE)');
  const source = recordings.length > 0 ? 'recording' : 'audit-log';
  const notices: string[] = [];
  const behaviour = chooseBehaviour({ kubeVersion: opts.kubeVersion, featureGates: opts.featureGates }, null, notices);
  // In a recording, rs-reconcile's writes carry its field manager, not its User-Agent.
  const controllerUsers = source === 'recording' ? [...(opts.controllerUsers ?? []), RS_RECONCILE_USER] : opts.controllerUsers;
  const replay = new HistoryReplay({ behaviour, controllerUsers });
  const input = source === 'recording' ? 'recording' : 'audit log';
  const target = opts.target;
  // Which namespaces the target was written in: a name in several needs -n.
  const targetNamespaces = new Set<string>();
  const kept: { ns: string; e: HistoryEvent }[] = [];
  let writes = 0;
  const writesIn = source === 'recording' ? recordedWrites(recordings, opts, notices) : auditWrites(opts.auditLogs, opts);
  for await (const { write: w, stateOnly } of writesIn) {
    if (opts.namespace !== undefined && w.namespace !== opts.namespace) continue;
    if (!stateOnly) writes++;
    const events = replay.push(w);
    // A list or a removal after termination brings state; it is not a write anyone made then.
    if (!stateOnly) for (const e of events) kept.push({ ns: w.namespace, e });
  }
  let events = kept;
  if (target) {
    events = kept.filter(({ ns, e }) => {
      if (!matches(replay, ns, e, target)) return false;
      targetNamespaces.add(ns);
      return true;
    });
    if (events.length === 0) throw new UserError(`${describeTarget(target)} has no write in the ${input}${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''}`);
    if (targetNamespaces.size > 1) throw new UserError(`"${target.name}" is in several namespaces of the ${input} (${[...targetNamespaces].sort().join(', ')}): choose one with -n`);
  }
  if (writes === 0) {
    const hint = source === 'recording' ? 'nothing changed while it recorded' : 'was it written with a policy that logs them at RequestResponse?';
    notices.push(`no write of pods, ReplicaSets or ReplicationControllers${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''} in the ${input}: ${hint}`);
  }
  const history = replay.history(source);
  // The log holds writes in the order the server answered them; the contract lists them by the
  // time they were received (a stable sort keeps the answer order between equal times).
  history.events = events.map((k) => k.e).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  history.from = history.events[0]?.time ?? null;
  history.to = history.events.at(-1)?.time ?? null;
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
