// `watch`: where snapshots come from and how they become plans for the dashboard.
//
// Sources: a static snapshot (-f files, read once), or the live cluster through informers (pods,
// and one per controller kind of CONTROLLER_KINDS). Every informer event marks the snapshot dirty; a
// session re-plans at most every 100 ms from the informer caches and hands each plan (a
// PlanFrame) to the UI. Informer changes also become log lines ("pod shop/web-x added",
// "rs shop/web scaled 3→5"). In reconcile mode the informers are the controller's own (from
// run-service's startControllers), and the workqueues and expectations are sampled for the UI.

import { basename } from 'node:path';
import type { Progress } from './progress.js';
import type { InformerOptions } from '../cluster/informer.js';
import type { Connection, ConnectionFlags } from '../cluster/kubeconfig.js';
import type { ControllerLogger } from '../controller/controller.js';
import { realClock } from '../runtime/clock.js';
import type { ActionOutcome } from '../runtime/api.js';
import { buildExplainModel } from '../core/explain.js';
import type { Clock } from '../runtime/clock.js';
import { CONTROLLER_KINDS, controllerKindInfo, controllersOf, emptySnapshot, namespaceOf, type ControllerKindInfo } from '../core/controller.js';
import type { ExplainModel } from '../core/explain-types.js';
import { ClusterPlanner } from '../core/plan.js';
import type { PlanController } from '../core/plan-types.js';
import { isPodReady } from '../core/pod.js';
import { parseSelectorString } from '../core/selector.js';
import type { Controller, ControllerKind, Pod, ReplicaSet, ReplicationController, Snapshot, Tombstone } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import { targetMatches, type Target } from './targets.js';
import { UserError, oneLine } from '../errors.js';
import { chooseBehaviour, parseNow, readSnapshot, selectControllers } from './plan-service.js';
import type { AwaitedWrites, HistoryRow, LogEntry, LogLevel, PendingExpectation, PlanFrame, QueueInfo, WatchFeed } from './watch-feed.js';
import { RecordingConverter, RS_RECONCILE_USER, type RecordedResource, type RecordingLine } from '../history/recording.js';
import { HistoryReplay } from '../history/replay.js';
import type { InformerMetric } from '../cluster/informer.js';
import { EVENT_RESOURCE, Recorder, eventsUnreadable, type RecordableInformer, type RecordingSession } from './record-service.js';
import { Throttle } from '../runtime/throttle.js';

export const REPLAN_INTERVAL_MS = 100;
/** The longest the session waits between plans when planning is slow. */
export const MAX_REPLAN_INTERVAL_MS = 2000;

// ---------------------------------------------------------------------------------------------
// Scope and plans

export interface WatchScope {
  /** null: every namespace (of the files, or of the cluster). */
  namespace: string | null;
  /** -l on the controllers' labels. */
  selector?: string;
  /** NAME…, deploy/NAME… arguments; empty: every controller in scope. */
  targets: Target[];
}

/** Which controllers the dashboard shows (all are still read, for overlaps and siblings). */
export function scopePredicate(scope: WatchScope): (c: Controller) => boolean {
  let sel: ((labels: Controller['metadata']['labels']) => boolean) | null = null;
  if (scope.selector !== undefined) {
    const parsed = parseSelectorString(scope.selector);
    if (!parsed.ok) throw new UserError(parsed.error);
    sel = (labels) => parsed.selector.matches(labels);
  }
  return (c) => {
    if (scope.namespace !== null && namespaceOf(c) !== scope.namespace) return false;
    if (sel && !sel(c.metadata.labels)) return false;
    if (scope.targets.length === 0) return true;
    return scope.targets.some((t) => targetMatches(t, c));
  };
}

export interface FrameOptions {
  behaviour: Behaviour;
  /** The evaluation time of this plan (--now, or the wall clock). */
  nowMs: number;
  /** Wall-clock time of the update. */
  at: number;
  source: 'file' | 'cluster';
  burstReplicas?: number;
  scope: WatchScope;
  /** Live reconcile: whether the controller's expectations for ns/name are satisfied. */
  expectationsSatisfied?: (key: string) => boolean;
  /** Live reconcile: the creates and deletes still expected for ns/name (what a skipped controller waits for). */
  expectationsPending?: (key: string) => { add: number; del: number };
  /** Throw (like `diff NAME`) when a named controller is not in scope. */
  strictTargets?: boolean;
}

/** Plans a snapshot: one PlanFrame, with explain models computed on demand and cached. */
export function planFrame(snapshot: Snapshot, o: FrameOptions): PlanFrame {
  const include = scopePredicate(o.scope);
  const planner = new ClusterPlanner(snapshot, {
    now: o.nowMs,
    behaviour: o.behaviour,
    source: o.source,
    burstReplicas: o.burstReplicas,
    include,
    expectationsSatisfied: o.expectationsSatisfied,
  });
  if (o.strictTargets && o.scope.targets.length > 0) {
    selectControllers(
      planner,
      { namespace: o.scope.namespace ?? undefined, allNamespaces: o.scope.namespace === null, selector: o.scope.selector, connection: {} },
      o.scope.targets,
      o.scope.namespace,
      o.source,
    );
  }
  const plan = planner.plan();
  let pods = 0;
  if (o.scope.namespace === null) pods = snapshot.pods.length;
  else for (const p of snapshot.pods) if (namespaceOf(p) === o.scope.namespace) pods++;
  const models = new Map<string, ExplainModel | null>();
  const waiting = new Map<string, AwaitedWrites>();
  for (const c of plan.controllers) {
    if (c.skip?.reason !== 'ExpectationsPending') continue;
    const e = o.expectationsPending?.(`${c.namespace}/${c.name}`) ?? { add: 0, del: 0 };
    // both zero: the record went away between the plan and this look (say creates, the usual case)
    waiting.set(`${c.kind}/${c.namespace}/${c.name}`, e.add > 0 && e.del > 0 ? 'creates and deletes' : e.del > 0 ? 'deletes' : 'creates');
  }
  return {
    plan,
    waiting,
    at: o.at,
    pods,
    explain(c: PlanController): ExplainModel | null {
      const key = `${c.kind}/${c.namespace}/${c.name}`;
      if (models.has(key)) return models.get(key)!;
      const found = planner.find(c.kind, c.namespace, c.name)[0];
      const model = found ? buildExplainModel(planner, found, o.nowMs, o.behaviour.version) : null;
      models.set(key, model);
      return model;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// What changed, as one log line

type Obj = Pod | ReplicaSet | ReplicationController;
/** "pods", or the resource of a controller kind (replicasets, replicationcontrollers). */
export type WatchedResource = string;

function short(resource: WatchedResource): string {
  if (resource === 'pods') return 'pod';
  return CONTROLLER_KINDS.find((k) => k.resource === resource)?.shortName ?? resource;
}

function ref(resource: WatchedResource, o: Obj): string {
  return `${short(resource)} ${namespaceOf(o)}/${o.metadata.name}`;
}

function ownerOf(o: Obj): string | null {
  const r = o.metadata.ownerReferences?.find((x) => x.controller === true);
  return r ? `${CONTROLLER_KINDS.find((k) => k.kind === r.kind)?.shortName ?? r.kind.toLowerCase()}/${r.name}` : null;
}

export function describeAdd(resource: WatchedResource, o: Obj): string {
  if (resource === 'pods') {
    const owner = ownerOf(o);
    return `${ref(resource, o)} added${owner ? ` (owner ${owner})` : ' (no owner)'}`;
  }
  return `${ref(resource, o)} added (replicas ${(o as ReplicaSet).spec?.replicas ?? 1})`;
}

export function describeDelete(resource: WatchedResource, o: Obj): string {
  return `${ref(resource, o)} deleted`;
}

/**
 * The change between two versions of an object that a reader cares about; null for noise.
 * `status: false` leaves out a controller's status change (reconcile mode: the controller wrote
 * it, and its action line already says so).
 */
export function describeUpdate(resource: WatchedResource, before: Obj, after: Obj, opts: { status?: boolean } = {}): string | null {
  const parts: string[] = [];
  if (resource === 'pods') {
    const a = before as Pod;
    const b = after as Pod;
    if (!a.metadata.deletionTimestamp && b.metadata.deletionTimestamp) parts.push('terminating');
    const oa = ownerOf(a);
    const ob = ownerOf(b);
    if (oa !== ob) parts.push(ob === null ? `released by ${oa}` : oa === null ? `adopted by ${ob}` : `owner ${oa}→${ob}`);
    if ((a.spec?.nodeName ?? '') !== (b.spec?.nodeName ?? '') && b.spec?.nodeName) parts.push(`scheduled to ${b.spec.nodeName}`);
    if ((a.status?.phase ?? '') !== (b.status?.phase ?? '')) parts.push(`${a.status?.phase || 'no phase'}→${b.status?.phase || 'no phase'}`);
    const ra = isPodReady(a);
    const rb = isPodReady(b);
    if (ra !== rb) parts.push(rb ? 'ready' : 'not ready');
    if (JSON.stringify(a.metadata.labels ?? {}) !== JSON.stringify(b.metadata.labels ?? {})) parts.push('labels changed');
    const cost = 'controller.kubernetes.io/pod-deletion-cost';
    const ca = a.metadata.annotations?.[cost];
    const cb = b.metadata.annotations?.[cost];
    if (ca !== cb) parts.push(`deletion cost ${ca ?? '-'}→${cb ?? '-'}`);
  } else {
    const a = before as ReplicaSet;
    const b = after as ReplicaSet;
    const da = a.spec?.replicas ?? 1;
    const db = b.spec?.replicas ?? 1;
    if (da !== db) parts.push(`scaled ${da}→${db}`);
    else if ((a.metadata.generation ?? 0) !== (b.metadata.generation ?? 0)) parts.push(`spec changed (generation ${b.metadata.generation ?? 0})`);
    if (!a.metadata.deletionTimestamp && b.metadata.deletionTimestamp) parts.push('being deleted');
    const sa = a.status ?? {};
    const sb = b.status ?? {};
    if (opts.status !== false && ((sa.replicas ?? 0) !== (sb.replicas ?? 0) || (sa.readyReplicas ?? 0) !== (sb.readyReplicas ?? 0) || (sa.availableReplicas ?? 0) !== (sb.availableReplicas ?? 0))) {
      parts.push(`status replicas ${sb.replicas ?? 0} ready ${sb.readyReplicas ?? 0} available ${sb.availableReplicas ?? 0}`);
    }
  }
  return parts.length ? `${ref(resource, after)} ${parts.join(', ')}` : null;
}

// ---------------------------------------------------------------------------------------------
// Sources

export interface SourceListener {
  /** The snapshot changed (an informer event): re-plan soon. */
  changed(): void;
  log(level: LogLevel, text: string): void;
}

export interface WatchSource {
  readonly live: boolean;
  /** Starts (or attaches to) the source; resolves once the first snapshot is complete. */
  start(listener: SourceListener, signal: AbortSignal): Promise<void>;
  snapshot(): Snapshot;
}

/** -f: one snapshot, read once. */
export function staticSource(snapshot: Snapshot): WatchSource {
  return {
    live: false,
    start: async () => {},
    snapshot: () => snapshot,
  };
}

/** The informers' tombstone (kept under this name for the dashboard's fakes). */
export type TombstoneLike<T> = Tombstone<T>;

/** The part of src/cluster/informer.ts's Informer the dashboard uses. */
export interface InformerLike<T> {
  cache: { list(): T[] };
  addHandlers(h: { add?(obj: T): void; update?(oldObj: T, newObj: T): void; delete?(obj: T | TombstoneLike<T>): void }): void;
  run(signal: AbortSignal): Promise<void>;
  waitForSync(signal?: AbortSignal): Promise<void>;
  hasSynced(): boolean;
}

/** pods, and the informer of each controller kind under its resource (replicasets, …); a kind without one is read as empty. */
export interface InformerSet {
  pods: InformerLike<Pod>;
  [resource: string]: unknown;
}

/** Read-only informers for what the planner reads: pods and every controller kind. */
export async function createInformers(
  conn: Connection,
  namespace: string | null,
  onError?: (e: Error) => void,
  registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS,
  /** More options per resource (watch --record: managedFields kept, relists reported). */
  extra: (resource: string) => Partial<InformerOptions> = () => ({}),
): Promise<InformerSet> {
  const { Informer } = await import('../cluster/informer.js');
  const set: InformerSet = { pods: new Informer<Pod>({ conn, resource: 'pods', namespace, onError, ...extra('pods') }) };
  for (const k of registry) set[k.resource] = new Informer<ReplicaSet | ReplicationController>({ conn, resource: k, namespace, onError, ...extra(k.resource) });
  return set;
}

/**
 * A live source over informers. `run: true` runs them (read-only watch); `run: false` attaches
 * to informers someone else runs (the controller's, in reconcile mode). `controllerStatus: false`
 * leaves the controllers' status changes out of the log (reconcile mode: the controller's own
 * status writes are logged once, as its actions). Until every cache has synced, events only mark
 * the snapshot dirty (the initial list would flood the log).
 */
export function informerSource(set: InformerSet, opts: { run: boolean; controllerStatus?: boolean; registry?: readonly ControllerKindInfo[] }): WatchSource {
  const status = opts.controllerStatus ?? true;
  let synced = false;
  const kinds = (opts.registry ?? CONTROLLER_KINDS).flatMap((k) => {
    const inf = set[k.resource] as InformerLike<ReplicaSet | ReplicationController> | undefined;
    return inf ? [{ info: k, inf }] : [];
  });
  const attach = <T extends Obj>(resource: WatchedResource, inf: InformerLike<T>, l: SourceListener) => {
    inf.addHandlers({
      add: (o) => {
        l.changed();
        if (synced) l.log('change', describeAdd(resource, o));
      },
      update: (a, b) => {
        if (a === b || a.metadata.resourceVersion === b.metadata.resourceVersion) return; // a resync: nothing changed
        l.changed();
        const text = synced ? describeUpdate(resource, a, b, { status }) : null;
        if (text) l.log('change', text);
      },
      delete: (o) => {
        l.changed();
        if (synced) l.log('change', describeDelete(resource, 'tombstone' in o ? o.obj : o));
      },
    });
  };
  return {
    live: true,
    async start(l, signal) {
      attach('pods', set.pods, l);
      for (const { info, inf } of kinds) attach(info.resource, inf, l);
      const all = [set.pods, ...kinds.map((k) => k.inf)] as InformerLike<Obj>[];
      if (opts.run) for (const inf of all) void inf.run(signal);
      await Promise.all(all.map((inf) => inf.waitForSync(signal)));
      synced = true;
      const counts = [`${set.pods.cache.list().length} pods`, ...kinds.map(({ info, inf }) => `${inf.cache.list().length} ${info.resource}`)];
      l.log('info', `synced: ${counts.join(', ')}`);
      l.changed();
    },
    snapshot: () => {
      const snapshot: Snapshot = emptySnapshot(set.pods.cache.list());
      for (const { info, inf } of kinds) snapshot.controllers[info.kind] = inf.cache.list();
      return snapshot;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The session: source → (at most every 100 ms) plan → UI

export interface SessionOptions {
  source: WatchSource;
  /** Plans a snapshot; `first` is true for the first plan (named controllers must exist then). */
  plan: (snapshot: Snapshot, first: boolean) => PlanFrame;
  clock: Clock;
  intervalMs?: number;
  onFrame: (frame: PlanFrame) => void;
  onLog: (entry: LogEntry) => void;
}

export class WatchSession {
  /** Plans computed so far. */
  plans = 0;

  /** The current minimum time between plans (grows when planning is slow). */
  get interval(): number {
    return this.throttle.interval;
  }
  private paused = false;
  private readonly throttle: Throttle;
  private started = false;

  constructor(private readonly o: SessionOptions) {
    this.throttle = new Throttle(() => this.replan(), o.intervalMs ?? REPLAN_INTERVAL_MS, o.clock);
  }

  /** Starts the source and plans the first snapshot (errors of that first plan are thrown). */
  async start(signal: AbortSignal): Promise<PlanFrame> {
    signal.addEventListener('abort', () => this.throttle.dispose(), { once: true });
    await this.o.source.start(
      {
        changed: () => {
          if (this.started && !this.paused) this.throttle.request();
        },
        log: (level, text) => this.o.onLog({ at: this.o.clock.now(), level, text }),
      },
      signal,
    );
    const snapshot = this.o.source.snapshot();
    const first = this.o.plan(snapshot, true);
    this.plans++;
    this.started = true;
    if (!this.o.source.live) {
      const n = first.plan.controllers.length;
      this.o.onLog({ at: this.o.clock.now(), level: 'info', text: `snapshot: ${n} controller${n === 1 ? '' : 's'} in scope, ${first.pods} pod${first.pods === 1 ? '' : 's'} (static: no updates)` });
    }
    for (const c of first.plan.controllers) {
      if (c.skip?.reason === 'InvalidSelector') this.o.onLog({ at: this.o.clock.now(), level: 'warn', text: `${c.kind} ${c.namespace}/${c.name}: ${c.skip.message}` });
    }
    this.o.onFrame(first);
    return first;
  }

  /** While paused no plan is computed; changes seen meanwhile are planned on resume. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (!paused && this.o.source.live && this.started) this.throttle.request();
  }

  private replan(): void {
    try {
      const t0 = this.o.clock.now();
      const frame = this.o.plan(this.o.source.snapshot(), false);
      this.plans++;
      this.o.onFrame(frame);
      // A plan that takes longer than the interval would keep the process busy planning: leave
      // at least as much time as planning took for keys and rendering (up to 2 s between plans).
      const took = this.o.clock.now() - t0;
      const base = this.o.intervalMs ?? REPLAN_INTERVAL_MS;
      this.throttle.interval = Math.max(base, Math.min(MAX_REPLAN_INTERVAL_MS, 2 * took));
    } catch (err) {
      this.o.onLog({ at: this.o.clock.now(), level: 'error', text: `planning failed: ${oneLine(err)}` });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reconcile mode: what the controller's machinery looks like, for the queue pane

/** The part of ReplicaSetController the dashboard samples. */
export interface ControllerLike {
  readonly kind: ControllerKind;
  /** Its registry entry (default: the one CONTROLLER_KINDS has for kind). */
  readonly info?: Pick<ControllerKindInfo, 'queueName'>;
  queue: { metrics(): { depth: number; inFlight: number; retries: number; adds: number } };
  expectations: { pending(): { key: string; add: number; del: number; ageMs: number }[] };
}

export function queueInfo(controllers: readonly ControllerLike[]): QueueInfo {
  const queues = controllers.map((c) => {
    const m = c.queue.metrics();
    return { name: (c.info ?? controllerKindInfo(c.kind)).queueName, depth: m.depth, inFlight: m.inFlight, retries: m.retries, adds: m.adds };
  });
  const expectations: PendingExpectation[] = [];
  for (const c of controllers) for (const e of c.expectations.pending()) expectations.push({ kind: c.kind, key: e.key, add: e.add, del: e.del, ageMs: e.ageMs });
  expectations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { queues, expectations };
}

/** The creates and deletes still expected for a key, over the controllers whose expectations hold it back. */
export function expectationsPendingBy(
  controllers: readonly { expectations: { satisfiedExpectations(key: string): boolean; getExpectations(key: string): { add: number; del: number } | undefined } }[],
): (key: string) => { add: number; del: number } {
  return (key) => {
    let add = 0;
    let del = 0;
    for (const c of controllers) {
      if (c.expectations.satisfiedExpectations(key)) continue;
      const r = c.expectations.getExpectations(key);
      add += Math.max(0, r?.add ?? 0);
      del += Math.max(0, r?.del ?? 0);
    }
    return { add, del };
  };
}

/** Expectations satisfied for a key in every controller (keys are ns/name, as upstream's). */
export function expectationsSatisfiedBy(controllers: readonly { expectations: { satisfiedExpectations(key: string): boolean } }[]): (key: string) => boolean {
  return (key) => controllers.every((c) => c.expectations.satisfiedExpectations(key));
}

/** One controller action as a log line: `rs shop/web: create pod web-x2k9p`. */
export function actionText(kind: ControllerKind, key: string, a: ActionOutcome): { level: LogLevel; text: string } {
  const what = a.action === 'status' ? 'update status' : `${a.action}${a.pod ? ` pod ${a.pod}` : ''}`;
  const head = `${controllerKindInfo(kind).shortName} ${key}: ${what}`;
  if (a.ok) return { level: 'action', text: `${head}${a.note ? ` (${a.note})` : ''}` };
  return { level: 'error', text: `${head} failed${a.code ? ` (${a.code})` : ''}${a.error ? `: ${a.error}` : ''}` };
}

/**
 * run-service logs every action as well ("ReplicaSet shop/web: create pod x"): the dashboard
 * shows actions from onAction (as `action` lines), so those log lines are left out.
 */
export const ACTION_ECHO = new RegExp(`^(${CONTROLLER_KINDS.map((k) => k.kind).join('|')}) [^ ]+/[^ ]+: (adopt|release|create|delete|update status)\\b`);

/** The controller's log, into the dashboard's log pane (klog -v 0: info and errors only). */
export function uiLogger(push: (level: LogLevel, text: string) => void, skip: (msg: string) => boolean = (m) => ACTION_ECHO.test(m)): ControllerLogger {
  const fields = (f?: Record<string, unknown>) =>
    f && Object.keys(f).length
      ? ' ' +
        Object.entries(f)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' ')
      : '';
  const quiet = { info: () => {} };
  const info = (msg: string, f?: Record<string, unknown>) => {
    if (!skip(msg)) push('info', msg + fields(f));
  };
  return {
    info,
    error: (msg, f) => {
      if (!skip(msg)) push('error', msg + fields(f));
    },
    v: (level) => (level <= 0 ? { info } : quiet),
  };
}

// ---------------------------------------------------------------------------------------------
// From flags to a feed for the dashboard or the plain stream

export interface WatchOptions {
  filename?: string[];
  namespace?: string;
  allNamespaces: boolean;
  selector?: string;
  /** With filename: the most bytes read from one source (see SourceOptions). */
  maxInputSize?: string;
  targets: Target[];
  connection: ConnectionFlags;
  now?: string;
  kubeVersion?: string;
  featureGates?: string;
  burstReplicas?: number;
  /** --reconcile: run the controller (as `run` does) and show its queue and actions. */
  reconcile?: { workers: number; qps: number; burst: number; force: boolean };
  /** --record FILE: also write every change seen as `record` does (docs/recording-format.md). */
  record?: string;
}

export interface WatchIO {
  stdin?: NodeJS.ReadableStream;
  progress: Progress;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

export type PreparedWatch = WatchFeed & { notices: string[] };

function fileScopeText(files: string[], namespace: string | null): string {
  const name = files.length === 1 ? (files[0] === '-' ? 'stdin' : basename(files[0])) : `${files.length} files`;
  return `file ${name} · ${namespace === null ? 'all namespaces' : `namespace ${namespace}`}`;
}

/** Reads (or connects), picks the emulated version, and returns the feed; nothing runs yet. */
export async function prepareWatch(o: WatchOptions, io: WatchIO): Promise<PreparedWatch> {
  const clock = io.clock ?? realClock;
  const notices: string[] = [];
  if (o.reconcile && o.filename?.length) throw new UserError('--reconcile runs the controller against a cluster: it cannot be combined with -f (a snapshot)');
  if (o.reconcile && o.targets.length) throw new UserError('--reconcile controls every controller in scope: choose them with -n/-A and -l, not by name');
  if (o.reconcile && o.now !== undefined) throw new UserError('--now cannot be combined with --reconcile: the controller acts at the real time');
  if (o.record !== undefined && o.filename?.length) throw new UserError('--record writes what a live cluster does: it cannot be combined with -f (a snapshot)');
  const fixedNow = o.now === undefined ? undefined : parseNow(o.now, () => clock.now());
  if (o.selector !== undefined) scopePredicate({ namespace: null, selector: o.selector, targets: [] }); // a bad -l fails now

  if (o.filename?.length) {
    const read = await readSnapshot({ filename: o.filename, namespace: o.namespace, allNamespaces: o.allNamespaces, selector: o.selector, maxInputSize: o.maxInputSize, connection: o.connection }, { stdin: io.stdin, progress: io.progress });
    notices.push(...read.notices);
    const behaviour = chooseBehaviour({ kubeVersion: o.kubeVersion, featureGates: o.featureGates }, null, notices);
    const namespace = o.allNamespaces ? null : (o.namespace ?? null);
    // a snapshot does not change: an unknown name fails now, and a -l that matches nothing is said
    // before the (empty) stream starts, as diff says it
    const controllers = controllersOf(read.snapshot);
    selectControllers({ controllers }, { namespace: o.namespace, allNamespaces: o.allNamespaces, selector: o.selector, connection: o.connection }, o.targets, null, 'file', notices);
    const scope: WatchScope = { namespace, selector: o.selector, targets: o.targets };
    const nowMs = fixedNow ?? clock.now();
    const source = staticSource(read.snapshot);
    return {
      notices,
      meta: { context: '-', scope: fileScopeText(o.filename, namespace), mode: 'snapshot' },
      live: false,
      queue: null,
      setPaused: () => {},
      stopped: async () => {},
      async start(sink, signal) {
        const session = new WatchSession({
          source,
          clock,
          plan: (snapshot, first) => planFrame(snapshot, { behaviour, nowMs, at: clock.now(), source: 'file', burstReplicas: o.burstReplicas, scope, strictTargets: first }),
          onFrame: sink.frame,
          onLog: sink.log,
        });
        await session.start(signal);
      },
    };
  }

  const { connect } = await import('../cluster/kubeconfig.js');
  const { getServerVersion } = await import('../cluster/read.js');
  const conn = connect({ ...o.connection, namespace: o.namespace }, io.env ?? process.env);
  const namespace = o.allNamespaces ? null : conn.namespace;
  const version = o.kubeVersion === undefined ? await getServerVersion(conn) : null;
  const behaviour = chooseBehaviour({ kubeVersion: o.kubeVersion, featureGates: o.featureGates }, version?.minor ?? null, notices);
  const scope: WatchScope = { namespace, selector: o.selector, targets: o.targets };
  const meta = { context: conn.contextName || conn.server, scope: namespace === null ? 'all namespaces' : `namespace ${namespace}`, mode: o.reconcile ? ('reconcile' as const) : ('read-only' as const) };
  // Opened now: a file that cannot be written fails before the dashboard draws.
  const recording = o.record !== undefined ? await (await import('./record-service.js')).RecordingSession.open(conn, namespace, o.record) : null;
  const recordErrors = (sink: { log(e: LogEntry): void }) => (e: Error, resource: string, listed: boolean) =>
    sink.log({ at: clock.now(), level: 'warn', text: resource === 'events' && !listed ? `record: ${oneLine(e)} (who deleted a pod will show as <unknown user>)` : `record: ${oneLine(e)}` });

  if (o.reconcile) {
    const r = o.reconcile;
    if (!r.force) {
      const { detectUpstreamController } = await import('../cluster/upstream-detect.js');
      const found = await detectUpstreamController(conn, namespace);
      if (found.warning) notices.push(found.warning);
      if (found.found) {
        throw new UserError(
          `the upstream ReplicaSet controller is active ${namespace ? `in namespace "${namespace}"` : 'in this cluster'} (${found.evidence}): two controllers on the same objects fight; stop it or pass --force`,
        );
      }
    }
    const { startControllers } = await import('./run-service.js');
    let handle: ReturnType<typeof startControllers> | null = null;
    let session: WatchSession | null = null;
    return {
      notices,
      meta,
      live: true,
      historyDocument: liveHistoryDocument(behaviour),
      queue: () => (handle ? queueInfo(handle.controllers) : { queues: [], expectations: [] }),
      setPaused: (p) => session?.setPaused(p),
      stopped: async () => {
        await handle?.done;
        await recording?.close();
      },
      async start(sink, signal) {
        const push = (level: LogLevel, text: string) => sink.log({ at: clock.now(), level, text });
        // The controller's informers drop managedFields (memory): the recording lists and watches on its own.
        if (recording) await recording.start({ core: signal, events: signal }, recordErrors(sink));
        const h = startControllers(
          {
            conn,
            namespace,
            selector: o.selector,
            kinds: CONTROLLER_KINDS.map((k) => k.kind),
            workers: r.workers,
            burstReplicas: o.burstReplicas ?? 500,
            behaviour,
            qps: r.qps,
            burst: r.burst,
            log: uiLogger(push),
            onAction: (kind, key, a) => {
              const { level, text } = actionText(kind, key, a);
              push(level, text);
            },
          },
          signal,
        );
        handle = h;
        if (sink.history) {
          const live = new LiveHistory(behaviour, clock, sink.history.bind(sink));
          attachRecorders([live.recorder], h.informers as unknown as Record<string, RecordableInformer> & { pods: RecordableInformer });
          await startHistoryFeed(conn, namespace, [live], signal, (text) => push('warn', text));
        }
        const satisfied = expectationsSatisfiedBy(h.controllers);
        const pending = expectationsPendingBy(h.controllers);
        session = new WatchSession({
          source: informerSource(h.informers, { run: false, controllerStatus: false }),
          clock,
          plan: (snapshot, first) =>
            planFrame(snapshot, { behaviour, nowMs: clock.now(), at: clock.now(), source: 'cluster', burstReplicas: o.burstReplicas, scope, expectationsSatisfied: satisfied, expectationsPending: pending, strictTargets: first }),
          onFrame: sink.frame,
          onLog: sink.log,
        });
        await session.start(signal);
      },
    };
  }

  let session: WatchSession | null = null;
  return {
    notices,
    meta,
    live: true,
    historyDocument: liveHistoryDocument(behaviour),
    queue: null,
    setPaused: (p) => session?.setPaused(p),
    stopped: async () => {
      await recording?.close();
    },
    async start(sink, signal) {
      // The history pane and --record read the session's own informers (managedFields kept for
      // --record), and one informer of the controllers' Events.
      const live = sink.history ? new LiveHistory(behaviour, clock, sink.history.bind(sink)) : null;
      const recorders = [...(live ? [live.recorder] : []), ...(recording ? [recording.recorder] : [])];
      const informers = await createInformers(conn, namespace, (e) => sink.log({ at: clock.now(), level: 'warn', text: `watch: ${oneLine(e)}` }), CONTROLLER_KINDS, (r) =>
        recorders.length ? { keepManagedFields: recording !== null, onMetric: fanOut(recorders, r as RecordedResource) } : {},
      );
      if (recorders.length) {
        attachRecorders(recorders, informers as unknown as Record<string, RecordableInformer> & { pods: RecordableInformer });
        await startHistoryFeed(conn, namespace, live ? [live] : [], signal, (text) => sink.log({ at: clock.now(), level: 'warn', text }), recording?.recorder);
      }
      session = new WatchSession({
        source: informerSource(informers, { run: true }),
        clock,
        plan: (snapshot, first) =>
          planFrame(snapshot, { behaviour, nowMs: fixedNow ?? clock.now(), at: clock.now(), source: 'cluster', burstReplicas: o.burstReplicas, scope, strictTargets: first }),
        onFrame: sink.frame,
        onLog: sink.log,
      });
      await session.start(signal);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The history pane: the informers' changes read as `history --recording` reads a recording

/**
 * Changes in (as recording lines), the writes they stand for replayed (src/history/replay.ts),
 * every event about a controller or its pods out, as a HistoryRow for that controller. Memory:
 * the replay's state (the objects that exist), no events: the UI keeps the last few per controller.
 */
export class LiveHistory {
  readonly recorder: Recorder;
  private readonly converter = new RecordingConverter();
  private readonly replay: HistoryReplay;

  constructor(
    behaviour: Behaviour,
    private readonly clock: Clock,
    private readonly emit: (key: string, row: HistoryRow) => void,
  ) {
    this.replay = new HistoryReplay({ behaviour, controllerUsers: [RS_RECONCILE_USER] });
    this.recorder = new Recorder({ now: () => clock.now(), write: (l) => this.push(l) });
  }

  push(line: RecordingLine): void {
    this.deliver(this.converter.push(line));
  }

  /** A create or delete that waited for its controller's Event in vain goes, though no new change comes. */
  tick(): void {
    this.deliver(this.converter.tick(new Date(this.clock.now()).toISOString()));
  }

  private deliver(writes: ReturnType<RecordingConverter['push']>): void {
    for (const { write, stateOnly } of writes) {
      const events = this.replay.push(write);
      if (stateOnly) continue;
      for (const e of events) {
        if (!e.controller) continue;
        const row: HistoryRow = { at: Date.parse(e.time), who: e.actor.user, controller: e.actor.controller, verb: e.verb, pod: e.pod, reason: e.reason, predicted: e.predicted, message: e.message, event: e };
        this.emit(`${e.controller.kind}/${e.controller.namespace}/${e.controller.name}`, row);
      }
    }
  }
}

/** The history contract's document of a live session's writes, read as `history --recording` reads one. */
export function liveHistoryDocument(behaviour: Behaviour): NonNullable<WatchFeed['historyDocument']> {
  const replay = new HistoryReplay({ behaviour, controllerUsers: [RS_RECONCILE_USER] });
  return (events, missing) => replay.history('recording', events, { format: 'recording', truncated: 0, duplicates: 0, missing });
}

/** Every recorder hears an informer's relists. */
function fanOut(recorders: Recorder[], resource: RecordedResource): (m: InformerMetric) => void {
  const each = recorders.map((r) => r.metric(resource));
  return (m) => {
    for (const f of each) f(m);
  };
}

function attachRecorders(recorders: Recorder[], informers: Record<string, RecordableInformer> & { pods: RecordableInformer }): void {
  for (const rec of recorders) {
    rec.attach('pods', informers.pods);
    for (const k of CONTROLLER_KINDS) {
      const inf = informers[k.resource];
      if (inf) rec.attach(k.resource as RecordedResource, inf);
    }
  }
}

/** How often a live history lets go what waited for an Event in vain (the window itself is 30 s of changes' time). */
const HISTORY_TICK_MS = 5000;

/**
 * The controllers' Events (the evidence of who created or deleted a pod) for the live histories
 * and the --record file, and the live histories' tick; a refusal of Events only warns.
 */
async function startHistoryFeed(conn: Connection, namespace: string | null, lives: LiveHistory[], signal: AbortSignal, warn: (text: string) => void, file?: Recorder): Promise<void> {
  const { Informer } = await import('../cluster/informer.js');
  const recorders = [...lives.map((l) => l.recorder), ...(file ? [file] : [])];
  const stop = new AbortController();
  signal.addEventListener('abort', () => stop.abort(), { once: true });
  const events = new Informer({
    conn,
    resource: EVENT_RESOURCE,
    namespace,
    onMetric: fanOut(recorders, 'events'),
    onError: (e) => {
      if (events.hasSynced()) return warn(`events: ${oneLine(e)}`);
      warn(eventsUnreadable(e));
      stop.abort();
    },
  });
  for (const rec of recorders) rec.attach('events', events);
  void events.run(stop.signal);
  if (lives.length) {
    const timer = setInterval(() => {
      for (const l of lives) l.tick();
    }, HISTORY_TICK_MS);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }
}
