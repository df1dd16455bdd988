// `history`: the audit logs (or recordings of `record`) read in one streaming pass, every write
// of pods, ReplicaSets and ReplicationControllers replayed (src/history/replay.ts), and the
// events of the chosen scope and target put in time order and kept on disk (event-spool.ts):
// memory holds the objects that exist, a few minutes of events being put in order, and the counts.

import { HistoryReplay } from '../history/replay.js';
import type { CandidateRules } from '../history/sync-planning.js';
import { NEWEST_MINOR, NEWEST_VERSION, OLDEST_MINOR } from '../core/versions.js';
import { rulesVersionOf } from '../history/agents.js';
import type { Behaviour } from '../core/versions.js';
import type { ApiWrite, HistoryCounts, HistoryCoverage, HistoryEvent, ReconcileHistory, RefusedWrite } from '../history/types.js';
import {
  RecordingConverter,
  RecordingFormatError,
  RS_RECONCILE_USER,
  parseRecordingLine,
  type ConvertedWrite,
  type RecordingLine,
} from '../history/recording.js';
import { RECORDING_KIND, recordedRules, type RecordedRules } from '../history/recording-header.js';
import { readJsonLines, type JsonLinesKind } from '../input/audit-log.js';
import { auditWrites as readAuditWrites, type ReadSummary } from './history-reader.js';
import { fileParseError, UserError } from '../errors.js';
import { EventSpool } from './event-spool.js';
import { Overlaps } from './write-overlaps.js';
import { chooseBehaviour } from './behaviour.js';
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
  /** Where the events are kept while they are written out (default: the system's temporary directory). */
  spoolDir?: string;
  /** Forces the format of every --audit-log input instead of recognising it from the content. */
  auditLogFormat?: string;
  /** Only events received at or after this time (ms since the epoch); the state is still rebuilt from the whole log. */
  sinceMs?: number;
  /** Only events received at or before this time (ms since the epoch). */
  untilMs?: number;
  /** Only the controllers' writes and the writes in their cause chains. */
  controllerWritesOnly?: boolean;
}

/** The writes the rules did not predict, shown under the table: the first ones, and how many. */
const NOT_PREDICTED_SHOWN = 50;

export interface HistoryResult {
  /** The contract's document; `events` is read from disk as it is written out. */
  history: Omit<ReconcileHistory, 'events'> & { events: EventSpool<HistoryEvent> };
  counts: HistoryCounts;
  notPredicted: HistoryEvent[];
  /** The controllers' writes the API server refused, of the target pod (its story tells them). */
  refused: RefusedWrite[];
  /** What the input could and could not tell (also in the document); its one-line summary goes first on stderr. */
  coverage: HistoryCoverage;
  /** The times of the first and last write read (ms), whatever the scope and target: what the input covers. */
  span: { from: number; to: number } | null;
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
const REORDER_WINDOW_MS = 120_000;

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

/** Recordings are merged by the time each change was seen (the header's: when recording started). */
const RECORDING: JsonLinesKind = {
  noun: 'recording',
  lineNoun: 'a JSON recording line',
  tooLongHint: 'not a recording written by rs-reconcile record?',
  timeOf: (v) => (typeof v?.time === 'string' ? v.time : ''),
};

/** A write to replay, whether it is state only (no event), and the log time it was read at (ms). */
type ReadWrite = ConvertedWrite & { at: number };

/** The writes of the recordings, in order, each with whether it is state only (no event). */
async function* recordedWrites(files: string[], opts: HistoryOptions, notices: string[]): AsyncGenerator<ReadWrite> {
  const converter = new RecordingConverter();
  /** Each file's header's rules (null: it names none). */
  const started = new Map<string, RecordedRules | null>();
  for await (const line of readJsonLines(files, RECORDING, { onBytes: opts.onBytes })) {
    let parsed: RecordingLine;
    try {
      parsed = parseRecordingLine(line.value);
    } catch (e) {
      if (e instanceof RecordingFormatError)
        throw fileParseError(
          line.file,
          `${e.message}${started.has(line.file) ? '' : ': not a recording of rs-reconcile record (an audit log? use --audit-log)'}`,
          { line: line.line },
        );
      throw e;
    }
    if (!started.has(line.file)) {
      if (parsed.kind !== RECORDING_KIND)
        throw fileParseError(line.file, `not a recording of rs-reconcile record: its first line is not the {"kind":"Recording"} header`, { line: line.line });
      started.set(line.file, recordedRules(parsed));
    }
    for (const c of converter.push(parsed, started.get(line.file) ?? null)) yield { ...c, at: Date.parse(c.write.time) };
  }
  for (const c of converter.end()) yield { ...c, at: Date.parse(c.write.time) };
  notices.push(...converter.notices);
}

/** The audit inputs' writes (history-reader.ts: on a thread of their own for a big input), as the replay takes them. */
async function* auditLogWrites(opts: HistoryOptions, found: (s: ReadSummary) => void): AsyncGenerator<{ write: ApiWrite; stateOnly: false; at: number }> {
  for await (const r of readAuditWrites({ files: opts.auditLogs, format: opts.auditLogFormat, spoolDir: opts.spoolDir }, { onBytes: opts.onBytes }, found)) {
    // a time that was NaN comes back from the reading thread's JSON as null
    yield { write: r.write, stateOnly: false, at: r.at ?? Number.NaN };
  }
}

/** Positions of events, a bit each: the verdicts held until the log shows whether it carries pod status. */
class BitSet {
  private bits = new Uint8Array(1024);
  add(i: number): void {
    if (i >> 3 >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, (i >> 3) + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[i >> 3] |= 1 << (i & 7);
  }
  has(i: number): boolean {
    return i >> 3 < this.bits.length && (this.bits[i >> 3] & (1 << (i & 7))) !== 0;
  }
}

/** A pod the log shows for this long without one pods/status write means the log lacks them (a kubelet reports within seconds). */
const KUBELET_REPORTS_MS = 60_000;

/**
 * The history of the audit logs (or recordings): every write replayed in one pass, the events of
 * the scope and target put in time order and kept on disk, then, once the whole log is read, the
 * verdicts it turns out it cannot support marked unknown.
 */
export async function buildHistory(opts: HistoryOptions): Promise<HistoryResult> {
  const build = new HistoryBuild(opts);
  try {
    await build.replayInput();
    build.checkTarget();
    build.takeReadSummary();
    build.refilter(build.lacksPodStatus());
  } catch (e) {
    build.spool.close();
    throw e;
  }
  return build.result();
}

/** One history being built: the replay, the rules of each writer, the spool and its counts. */
class HistoryBuild {
  private readonly source: 'recording' | 'audit-log';
  /** The input in words, for messages: `audit log`, `recording`. */
  private readonly input: string;
  private readonly notices: string[] = [];
  private readonly behaviour: Behaviour;
  /** The rules of the controller that wrote each sync, by the version it names. */
  private readonly rulesByVersion = new Map<string, Behaviour>();
  /** The versions the log's controllers name, and how many writes each. */
  private readonly writers = new Map<string, number>();
  /** The rules a write whose writer's version is unknown may have run (candidateRules), made once. */
  private candidates: CandidateRules[] | null = null;
  private readonly replay: HistoryReplay;
  private readonly targetNamespaces = new Set<string>();
  private readonly counts: HistoryCounts = { events: 0, controller: 0, predicted: 0, notPredicted: 0, unknown: 0 };
  private readonly notPredicted: HistoryEvent[] = [];
  private readonly refused: RefusedWrite[] = [];
  spool: EventSpool<HistoryEvent>;
  private audit: ReadSummary | null = null;
  private readonly coverage: HistoryCoverage;
  private from: string | null = null;
  private to: string | null = null;
  /** Verdicts on pods' phase and readiness, by their place in the spool: unknown if the log turns out to lack them. */
  private readonly held = new BitSet();
  private firstPodCreate: number | null = null;
  private firstAt: number | null = null;
  private lastAt: number | null = null;
  /** The writes controllers' syncs name as their causes (--controller-writes-only keeps them). */
  private readonly causeKeys = new Set<string>();
  private readonly order = new TimeOrder();
  private readonly overlaps = new Overlaps();
  /** Writes read (state-only entries not counted). */
  private writes = 0;

  constructor(private readonly opts: HistoryOptions) {
    const recordings = opts.recordings ?? [];
    if (opts.auditLogs.length > 0 && recordings.length > 0)
      throw new UserError('give audit logs (--audit-log) or recordings (--recording), not both: one history is read from one kind of input');
    if (opts.auditLogs.length === 0 && recordings.length === 0)
      throw new UserError('no audit log: give one or more with --audit-log FILE (or recordings of rs-reconcile record with --recording FILE)');
    this.source = recordings.length > 0 ? 'recording' : 'audit-log';
    this.input = this.source === 'recording' ? 'recording' : 'audit log';
    this.behaviour = chooseBehaviour({ kubeVersion: opts.kubeVersion, featureGates: opts.featureGates }, null, this.notices);
    // In a recording, rs-reconcile's writes carry its field manager, not its User-Agent.
    const controllerUsers = this.source === 'recording' ? [...(opts.controllerUsers ?? []), RS_RECONCILE_USER] : opts.controllerUsers;
    this.replay = new HistoryReplay({
      behaviour: this.behaviour,
      controllerUsers,
      rulesFor: (w) => this.rulesFor(w),
      candidateRules: (w) => this.candidateRules(w),
      observedTimes: this.source === 'recording',
    });
    this.spool = new EventSpool<HistoryEvent>(opts.spoolDir);
    this.coverage = { format: this.source === 'recording' ? 'recording' : 'kube-apiserver', truncated: 0, duplicates: 0, missing: [] };
  }

  /**
   * The rules of the controller that wrote a sync: kube-controller-manager names its version in
   * its User-Agent, rs-reconcile the rules it ran; --kube-version overrides them all (null).
   */
  private rulesFor(w: ApiWrite): Behaviour | null {
    const v = w.rules ?? rulesVersionOf(w.userAgent);
    if (v === null) return null;
    this.writers.set(v, (this.writers.get(v) ?? 0) + 1);
    if (this.opts.kubeVersion !== undefined) return null;
    let b = this.rulesByVersion.get(v);
    if (!b) {
      // each version's rules hear --feature-gates again: what they say once is said once
      const notes: string[] = [];
      this.rulesByVersion.set(v, (b = chooseBehaviour({ featureGates: this.opts.featureGates }, v.split('.')[1], notes)));
      for (const n of notes) if (!this.notices.includes(n)) this.notices.push(n);
    }
    return b;
  }

  /**
   * A write whose writer's version the input does not name (and --kube-version not given): the
   * rules of every minor known, grouped where they are the same rules.
   */
  private candidateRules(w: ApiWrite): readonly CandidateRules[] | null {
    if (this.opts.kubeVersion !== undefined || w.rules !== undefined || rulesVersionOf(w.userAgent) !== null) return null;
    if (!this.candidates) {
      this.candidates = candidateRulesOf(this.opts.featureGates);
      this.notices.push(
        `the ${this.input} does not name the Kubernetes version of every controller write: those are judged by the rules of ${this.behaviour.version}, and where the rules of another version (${OLDEST_VERSION} to ${NEWEST_VERSION}) answer otherwise the verdict is unknown; --kube-version says which version ran`,
      );
    }
    return this.candidates;
  }

  /** Every write of the input replayed; the events of the scope and target put in time order and kept. */
  async replayInput(): Promise<void> {
    const { opts } = this;
    const writesIn = this.source === 'recording' ? recordedWrites(opts.recordings ?? [], opts, this.notices) : auditLogWrites(opts, (s) => (this.audit = s));
    for await (const { write: w, stateOnly, at } of writesIn) {
      if (opts.namespace !== undefined && w.namespace !== opts.namespace) continue;
      this.replayWrite(w, stateOnly, at);
      if (!Number.isNaN(at)) for (const e of this.order.release(at - REORDER_WINDOW_MS)) this.keep(e);
    }
    for (const e of this.order.release()) this.keep(e);
  }

  /** One write: the state it brings, the events it makes (of the target), the times it tells. */
  private replayWrite(w: ApiWrite, stateOnly: boolean, at: number): void {
    const target = this.opts.target;
    if (!stateOnly) this.writes++;
    if (!Number.isNaN(at)) {
      this.firstAt ??= at;
      this.lastAt = at;
    }
    if (this.firstPodCreate === null && w.resource === 'pods' && w.verb === 'create' && w.subresource === null && !Number.isNaN(at)) this.firstPodCreate = at;
    // (a recording is in the watch's order, which is storage's: nothing to doubt there)
    if (this.source === 'audit-log') this.overlaps.check(w, at);
    const events = this.replay.push(w);
    if (this.source === 'audit-log') this.overlaps.add(events, w, at);
    const no = this.replay.refusedWrite();
    if (no && target?.kind === 'Pod' && no.pod === target.name && this.refused.length < NOT_PREDICTED_SHOWN) this.refused.push(no);
    // A list, or a removal after termination, brings state: it is not a write anyone made then.
    if (stateOnly) return;
    for (const e of events) {
      if (target && !matches(this.replay, w.namespace, e, target)) continue;
      if (target) this.targetNamespaces.add(w.namespace);
      this.order.push(e);
    }
  }

  /** An event in time order: kept when in the window (--since, --until), and counted. */
  private keep(e: HistoryEvent): void {
    const { opts } = this;
    const t = Date.parse(e.time);
    if ((opts.sinceMs !== undefined && t < opts.sinceMs) || (opts.untilMs !== undefined && t > opts.untilMs)) return;
    if (e.actor.controller && e.predicted !== null && this.replay.dependsOnPodStatus(e)) this.held.add(this.spool.length);
    if (opts.controllerWritesOnly && e.cause)
      for (const c of e.cause) this.causeKeys.add(causeKey(c.time, c.user, c.object.kind === 'Pod' ? c.object.name : null));
    this.spool.push(e);
    this.count(e);
  }

  private count(e: HistoryEvent): void {
    const { counts } = this;
    this.from ??= e.time;
    this.to = e.time;
    counts.events++;
    if (!e.actor.controller) return;
    counts.controller++;
    if (e.predicted === true) counts.predicted++;
    else if (e.predicted === null) counts.unknown++;
    else {
      counts.notPredicted++;
      if (this.notPredicted.length < NOT_PREDICTED_SHOWN) this.notPredicted.push(e);
    }
  }

  /** A target with no write in the whole input, or in several namespaces of it, is refused. */
  checkTarget(): void {
    const { opts } = this;
    const target = opts.target;
    if (!target) return;
    if (this.counts.events === 0 && opts.sinceMs === undefined && opts.untilMs === undefined)
      throw new UserError(
        `${describeTarget(target)} has no write in the ${this.input}${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''}`,
      );
    if (this.targetNamespaces.size > 1)
      throw new UserError(
        `"${target.name}" is in several namespaces of the ${this.input} (${[...this.targetNamespaces].sort().join(', ')}): choose one with -n`,
      );
  }

  /** What the audit reader found about its input: its format, what it lacks, its notices. */
  takeReadSummary(): void {
    const read = this.audit;
    if (!read) return;
    this.coverage.format = (read.format ?? 'kube-apiserver') as HistoryCoverage['format'];
    this.coverage.truncated = read.truncated;
    this.coverage.duplicates = read.duplicates;
    this.coverage.missing.push(...read.missing);
    this.notices.push(...read.notices);
  }

  /**
   * A log that lacks pods/status writes cannot tell phase or readiness: the verdicts resting on
   * them are unknown. Known when a pod's status changed with no such write logged, or when the
   * log has none at all though pods lived in it past the time a kubelet takes to report.
   */
  lacksPodStatus(): boolean {
    const { replay, firstPodCreate, lastAt } = this;
    const quiet = replay.podStatusWrites === 0 && firstPodCreate !== null && lastAt !== null && lastAt - firstPodCreate >= KUBELET_REPORTS_MS;
    const gke = this.audit?.gkeWithoutDataAccess ?? false;
    const why =
      replay.podStatusEvidence ??
      (quiet ? `no pods/status write in the log, though pods lived in it for ${Math.round((lastAt! - firstPodCreate!) / 1000)} s` : null);
    const noPodStatus = (gke || why !== null) && this.counts.controller > 0 && this.source !== 'recording';
    // (GKE's own fact already says it)
    if (noPodStatus && !gke)
      this.coverage.missing.push(
        `pod status writes (pods/status, where the kubelet reports phase and readiness): ${why}; the verdicts that rest on them are unknown`,
      );
    return noPodStatus;
  }

  /**
   * The kept events again, counted afresh: those resting on pod status marked unknown when the log
   * lacks it, and with --controller-writes-only the controllers' writes and their causes alone.
   */
  refilter(noPodStatus: boolean): void {
    const { opts } = this;
    if (!noPodStatus && !opts.controllerWritesOnly) return;
    const all = this.spool;
    this.spool = new EventSpool<HistoryEvent>(opts.spoolDir);
    Object.assign(this.counts, { events: 0, controller: 0, predicted: 0, notPredicted: 0, unknown: 0 });
    this.notPredicted.length = 0;
    this.from = this.to = null;
    let i = 0;
    try {
      for (let e of all) {
        if (noPodStatus && this.held.has(i)) e = { ...e, predicted: null, reason: null, message: unknownMessage(e) };
        i++;
        if (opts.controllerWritesOnly && !e.actor.controller && !this.causeKeys.has(causeKey(e.time, e.actor.user, e.pod))) continue;
        this.spool.push(e);
        this.count(e);
      }
    } finally {
      all.close();
    }
  }

  /** The contract's document and what the command says around it. */
  result(): HistoryResult {
    const { opts, behaviour, notices, writers, coverage } = this;
    const versions = [...writers.keys()].sort();
    if (opts.kubeVersion !== undefined && versions.some((v) => v !== behaviour.version)) {
      notices.push(`the log's controllers ran the rules of ${versions.join(' and ')}, and --kube-version applied those of ${behaviour.version} instead`);
    }
    if (this.writes === 0) {
      const hint = this.source === 'recording' ? 'nothing changed while it recorded' : 'was it written with a policy that logs them at RequestResponse?';
      notices.push(
        `no write of pods, ReplicaSets or ReplicationControllers${opts.namespace !== undefined ? ` in namespace ${opts.namespace}` : ''} in the ${this.input}: ${hint}`,
      );
    }
    const { events: _none, ...header } = this.replay.history(this.source, [], coverage);
    // the rules applied: --kube-version, else those the log's controllers name (the most writes), else the newest
    const named = [...writers.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const kubernetesVersion =
      opts.kubeVersion === undefined && named !== undefined ? (this.rulesByVersion.get(named)?.version ?? header.kubernetesVersion) : header.kubernetesVersion;
    const { coverage: _c, ...head } = header;
    // in the contract's order: the events, then what the input could and could not tell
    const spool = this.spool;
    const history = { ...head, kubernetesVersion, from: this.from, to: this.to, events: spool, coverage };
    const { firstAt, lastAt, targetNamespaces } = this;
    return {
      history,
      counts: this.counts,
      notPredicted: this.notPredicted,
      refused: this.refused,
      coverage,
      span: firstAt !== null && lastAt !== null ? { from: firstAt, to: lastAt } : null,
      notices,
      targetNamespace: targetNamespaces.size === 1 ? [...targetNamespaces][0] : (opts.namespace ?? null),
      close: () => spool.close(),
    };
  }
}

const OLDEST_VERSION = `1.${OLDEST_MINOR}`;

/** The rules of every minor known, one entry per distinct set of rules (`1.24–1.31`), oldest first. */
function candidateRulesOf(featureGates: string | undefined): CandidateRules[] {
  const out: { from: string; to: string; rules: string; behaviour: Behaviour }[] = [];
  for (let minor = OLDEST_MINOR; minor <= NEWEST_MINOR; minor++) {
    let behaviour: Behaviour;
    try {
      behaviour = chooseBehaviour({ kubeVersion: `1.${minor}`, featureGates }, null, []);
    } catch {
      continue; // a --feature-gates naming a gate this minor does not have: not a candidate
    }
    const rules = JSON.stringify({ ...behaviour, version: undefined, minor: undefined });
    const last = out.at(-1);
    if (last && last.rules === rules) last.to = behaviour.version;
    else out.push({ from: behaviour.version, to: behaviour.version, rules, behaviour });
  }
  return out.map((g) => ({ versions: g.from === g.to ? g.from : `${g.from}–${g.to}`, behaviour: g.behaviour }));
}

/** The key a cause step and the event of the same write share: when, who, and the pod (if a pod's). */
function causeKey(time: string, user: string, pod: string | null): string {
  return `${time}\u0000${user}\u0000${pod ?? ''}`;
}

/** The message of a verdict that rests on pods' phase and readiness, in a log that has none of them. */
function unknownMessage(e: HistoryEvent): string {
  const what =
    e.verb === 'status'
      ? `wrote the status of ${e.controller?.kind} ${e.controller?.name}`
      : `${e.verb === 'create' ? 'created' : e.verb === 'delete' ? 'deleted' : e.verb === 'adopt' ? 'adopted' : e.verb === 'release' ? 'released' : e.verb} pod ${e.pod ?? '(name not logged)'}`;
  return `${what}; state unknown: the log has no pod status writes (pods/status), so the pods' phase and readiness this rests on are unknown`;
}

function matches(replay: HistoryReplay, ns: string, e: HistoryEvent, t: HistoryTarget): boolean {
  if (t.kind === 'Pod') return e.pod === t.name;
  if (!e.controller) return false;
  if (t.kind === 'Deployment') return e.controller.kind === 'ReplicaSet' && replay.replicaSetsOfDeployment(ns, t.name).has(e.controller.name);
  return e.controller.name === t.name && (t.kind === null || e.controller.kind === t.kind);
}

/** A target in words: `pod web-x`, `Deployment web`, `controller web`, `ReplicaSet web`. */
export function describeTarget(t: HistoryTarget): string {
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
