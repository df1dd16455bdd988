// Leader election on a coordination.k8s.io/v1 Lease, with client-go's `leaderelection` semantics
// (client-node 1.4 has no helper for it):
//
// - acquire: read the lease (create it when absent) and take it when it has no holder or has
//   expired, retrying every retryPeriod with client-go's jitter (up to +120%). Expiry follows
//   client-go's observed-time rule: a lease expires leaseDurationSeconds after WE last saw its
//   record change, never by comparing renewTime with the local clock (clocks are not shared).
// - leading: renew every retryPeriod (a replace carrying the resourceVersion of the last write:
//   optimistic concurrency, a 409 means somebody else wrote and the lease is re-read). When no
//   renewal has succeeded for renewDeadline, leading stops at once: the signal handed to
//   onStartedLeading aborts and onStoppedLeading runs, whatever request is still in flight.
//   Seeing another holder on a valid lease also stops leading at once.
// - the write fence handed to onStartedLeading: every write of the leader (and every renewal)
//   is sent only while now - (start of the last successful renewal) < renewDeadline, measured on
//   the monotonic clock read at send time. A process frozen (SIGSTOP, a long pause) past that
//   wakes with a stale renewal: its first write, whichever timer or response runs first, is
//   refused, and leading stops there and then. Since leaseDuration > renewDeadline and a standby
//   counts the lease from when it saw our last renewal, no write is sent once another instance
//   may hold the lease (as long as the two clocks run at about the same rate).
// - cancel: leading stops the same way. With releaseOnCancel the lease, if still ours within the
//   renew deadline, is then written with no holder and leaseDurationSeconds 1 (client-go's
//   release), so a standby takes over at its next retry. Unlike client-go, a leader whose renew
//   deadline passed releases nothing: the lease may be another's by then, and a deposed leader
//   writes nothing at all.
// - timing reads the monotonic clock (client-go compares Go's monotonic readings too); the
//   acquireTime and renewTime on the wire are wall time.
// - lease requests carry the identity in their User-Agent (`… leader-election/<identity>`), so
//   audit logs tell the candidates apart.
// - leaseDurationSeconds on the wire is leaseDurationMs rounded UP to whole seconds (client-go
//   truncates): a standby never waits less than configured, so renewDeadline < leaseDuration holds.
//
// runLeaderElection resolves when the signal aborts, or when leadership was lost (as client-go's
// Run returns then: the caller decides between exiting, as kube-controller-manager does, and
// campaigning again). onStoppedLeading runs only if leadership was acquired.

import { CoordinationV1Api, Observable, type ObservableMiddleware, type V1Lease } from '@kubernetes/client-node';
// Not re-exported by the package root; the models carry Date objects and need it both ways.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import type { Clock, TimerHandle } from '../runtime/clock.js';
import { ApiError, FencedError, type WriteFence } from '../runtime/api.js';
import { monotonicClock } from '../runtime/clock.js';
import { toApiError, userAgentFor } from './controller-api.js';
import type { Connection } from './kubeconfig.js';

export interface LeaderElectionConfig {
  conn: Connection;
  namespace: string;
  name: string;
  identity: string;
  /** How long a standby waits after the last observed change before taking over (default 15000). */
  leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives up leading (default 10000). */
  renewDeadlineMs?: number;
  /** Interval between attempts to acquire or renew (default 2000). */
  retryPeriodMs?: number;
  /** Timing and timers (default: the monotonic clock); also the wire stamps when given (tests). */
  clock?: Clock;
  /**
   * `signal` aborts when leading stops; every write made while leading goes through `fence`
   * (whose signal is the same), which refuses it once the renew deadline has passed.
   */
  onStartedLeading(signal: AbortSignal, fence: WriteFence): void;
  onStoppedLeading(): void;
  /** Called when the observed holder changes (ourselves included); not for a lease with no holder. */
  onNewLeader?(identity: string): void;
  /** Give the lease up on cancel so a standby takes over at once (default true). */
  releaseOnCancel?: boolean;
  /** Failed API calls (for logging); the election retries by itself. Aborted requests are not reported. */
  onError?(err: ApiError, during: 'acquire' | 'renew' | 'release'): void;
}

const DEFAULT_LEASE_DURATION_MS = 15_000;
const DEFAULT_RENEW_DEADLINE_MS = 10_000;
const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** client-go's JitterFactor for the acquire loop and its bound on renewDeadline. */
const JITTER_FACTOR = 1.2;

/** The holder record of a Lease, as client-go's LeaderElectionRecord. */
interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string | null;
  renewTime: string | null;
  leaseTransitions: number;
}

/** metav1.MicroTime as it marshals: RFC 3339, UTC, six fractional digits. */
export function formatMicroTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  const iso = new Date(whole).toISOString(); // 2026-01-01T00:00:00.123Z
  return `${iso.slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

type Wire = Record<string, any>;

const toWire = (lease: V1Lease): Wire => ObjectSerializer.serialize(lease, 'V1Lease') as Wire;
const fromWire = (obj: Wire): V1Lease => ObjectSerializer.deserialize(obj, 'V1Lease') as V1Lease;

/** The record a Lease carries; MicroTimes stay the strings the server sent. */
function recordOf(lease: Wire): LeaderElectionRecord {
  const spec = (lease.spec ?? {}) as Wire;
  const time = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : v instanceof Date ? formatMicroTime(v.getTime()) : null);
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : 0,
    acquireTime: time(spec.acquireTime),
    renewTime: time(spec.renewTime),
    leaseTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
  };
}

const rawOf = (r: LeaderElectionRecord): string => JSON.stringify([r.holderIdentity, r.leaseDurationSeconds, r.acquireTime, r.renewTime, r.leaseTransitions]);

function specOf(r: LeaderElectionRecord, previous: Wire | undefined): Wire {
  const spec: Wire = {
    ...(previous ?? {}),
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    leaseTransitions: r.leaseTransitions,
  };
  if (r.acquireTime) spec.acquireTime = r.acquireTime;
  else delete spec.acquireTime;
  if (r.renewTime) spec.renewTime = r.renewTime;
  else delete spec.renewTime;
  return spec;
}

/**
 * The fence of one term of leadership (see the top of this file). `renewed(at)` records the
 * start of a successful renewal; `check()` throws a FencedError, and ends the term (onExpired,
 * once), when the renew deadline has passed by the clock read now, whether or not any timer has
 * fired yet; `signal` aborts when the term ends, whatever ended it.
 */
export class LeaseFence implements WriteFence {
  private readonly ctl = new AbortController();
  private renewedAt: number;

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    readonly renewDeadlineMs: number,
    renewedAt: number,
    private readonly onExpired: () => void = () => undefined,
  ) {
    this.renewedAt = renewedAt;
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** A renewal that started at `at` (monotonic) succeeded. */
  renewed(at: number): void {
    if (!this.ctl.signal.aborted) this.renewedAt = Math.max(this.renewedAt, at);
  }

  /** Whether writes may be sent now (and the term has not ended). */
  holds(): boolean {
    return !this.ctl.signal.aborted && this.clock.now() - this.renewedAt < this.renewDeadlineMs;
  }

  /** Milliseconds left before the renew deadline (<= 0: passed). */
  remainingMs(): number {
    return this.renewedAt + this.renewDeadlineMs - this.clock.now();
  }

  check(): void {
    if (this.ctl.signal.aborted) throw new FencedError(`write refused: not leading (${(this.ctl.signal.reason as Error).message})`);
    if (this.holds()) return;
    const expired = new FencedError(
      `write refused: the lease was last renewed ${Math.round(this.clock.now() - this.renewedAt)}ms ago, past the ${this.renewDeadlineMs}ms renew deadline`,
    );
    this.end(expired);
    this.onExpired();
    throw expired;
  }

  /** Ends the term: every later check fails, every request tied to `signal` aborts. */
  end(reason: Error): void {
    if (!this.ctl.signal.aborted) this.ctl.abort(reason);
  }
}

/**
 * Per-call options: the request is tied to an AbortSignal (the transport honours it), carries
 * the User-Agent, and, when `guard` is given, is sent only if guard() does not throw, checked
 * right before the request leaves.
 */
function requestOptions(signal: AbortSignal, userAgent: string, guard?: () => void) {
  const middleware: ObservableMiddleware = {
    pre: (ctx) => {
      ctx.setSignal(signal);
      ctx.setHeaderParam('User-Agent', userAgent);
      if (guard) {
        try {
          guard();
        } catch (err) {
          return new Observable(Promise.reject(err));
        }
      }
      return new Observable(Promise.resolve(ctx));
    },
    post: (rsp) => new Observable(Promise.resolve(rsp)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: 'append' as const };
}

/** client-go's LeaseLock: Get/Create/Update of one Lease, updates carrying the last resourceVersion. */
class LeaseLock {
  private readonly api: CoordinationV1Api;
  /** The lease as last read or written (wire form): its resourceVersion guards the next update. */
  private lease: Wire | null = null;

  constructor(
    conn: Connection,
    readonly namespace: string,
    readonly name: string,
    private readonly userAgent: string,
  ) {
    this.api = conn.kc.makeApiClient(CoordinationV1Api);
  }

  async get(signal: AbortSignal): Promise<LeaderElectionRecord> {
    const got = await this.api.readNamespacedLease({ namespace: this.namespace, name: this.name }, requestOptions(signal, this.userAgent));
    this.lease = toWire(got);
    return recordOf(this.lease);
  }

  /** `guard`, if given, is checked right before the request is sent (the fence of a renewal). */
  async create(r: LeaderElectionRecord, signal: AbortSignal, guard?: () => void): Promise<LeaderElectionRecord> {
    const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: this.namespace }, spec: specOf(r, undefined) };
    const created = await this.api.createNamespacedLease({ namespace: this.namespace, body: fromWire(body) }, requestOptions(signal, this.userAgent, guard));
    this.lease = toWire(created);
    return recordOf(this.lease);
  }

  async update(r: LeaderElectionRecord, signal: AbortSignal, guard?: () => void): Promise<LeaderElectionRecord> {
    if (!this.lease) throw new ApiError('lease not initialized, call get or create first', 0, 'Unknown');
    const body = { ...this.lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: specOf(r, this.lease.spec as Wire | undefined) };
    const updated = await this.api.replaceNamespacedLease(
      { namespace: this.namespace, name: this.name, body: fromWire(body) },
      requestOptions(signal, this.userAgent, guard),
    );
    this.lease = toWire(updated);
    return recordOf(this.lease);
  }
}

type Attempt = 'ok' | 'held' | 'failed';

/** The reason a request of an attempt was aborted after renewDeadline. */
class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
}

interface Settings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  leaseDurationSeconds: number;
  releaseOnCancel: boolean;
}

function settingsOf(cfg: LeaderElectionConfig): Settings {
  const leaseDurationMs = cfg.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
  const renewDeadlineMs = cfg.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
  const retryPeriodMs = cfg.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
  // client-go's NewLeaderElector checks.
  for (const [k, v] of Object.entries({ leaseDurationMs, renewDeadlineMs, retryPeriodMs })) {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`leader election: ${k} must be greater than zero, got ${v}`);
  }
  if (leaseDurationMs <= renewDeadlineMs) throw new RangeError('leader election: leaseDurationMs must be greater than renewDeadlineMs');
  if (renewDeadlineMs <= JITTER_FACTOR * retryPeriodMs)
    throw new RangeError(`leader election: renewDeadlineMs must be greater than retryPeriodMs*${JITTER_FACTOR}`);
  if (!cfg.identity) throw new RangeError('leader election: identity must not be empty');
  if (!cfg.name || !cfg.namespace) throw new RangeError('leader election: the lease needs a namespace and a name');
  return {
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
    // Whole seconds on the wire; rounded up so that no standby ever waits less than configured.
    leaseDurationSeconds: Math.max(1, Math.ceil(leaseDurationMs / 1000)),
    releaseOnCancel: cfg.releaseOnCancel ?? true,
  };
}

class LeaderElector {
  private readonly clock: Clock;
  /** Wall time for the stamps on the wire. */
  private readonly wallNow: () => number;
  private readonly lock: LeaseLock;
  /** Start (monotonic) of the attempt that acquired the lease. */
  private acquiredAt = -Infinity;
  private observed: LeaderElectionRecord | null = null;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private callbackError: { err: unknown } | null = null;

  constructor(
    private readonly cfg: LeaderElectionConfig,
    private readonly s: Settings,
  ) {
    this.clock = cfg.clock ?? monotonicClock;
    this.wallNow = cfg.clock ? () => cfg.clock!.now() : () => Date.now();
    this.lock = new LeaseLock(cfg.conn, cfg.namespace, cfg.name, userAgentFor('leader-election', cfg.identity));
  }

  private isLeader(): boolean {
    return this.observed?.holderIdentity === this.cfg.identity;
  }

  private isLeaseValid(now: number): boolean {
    return this.observed !== null && this.observedTime + this.observed.leaseDurationSeconds * 1000 > now;
  }

  private setObserved(r: LeaderElectionRecord): void {
    this.observed = r;
    this.observedRaw = rawOf(r);
    this.observedTime = this.clock.now();
  }

  /** Runs a user callback; the first one to throw ends the election (rethrown by run). */
  private callback(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.callbackError ??= { err };
    }
  }

  private report(err: unknown, signal: AbortSignal, during: 'acquire' | 'renew' | 'release'): void {
    // A request cut short by cancellation or loss of the lease is no error; one that timed out is.
    if (signal.aborted && !(signal.reason instanceof AttemptTimeout)) return;
    if (err instanceof FencedError) return; // not sent: past the renew deadline
    const api = signal.aborted ? new ApiError((signal.reason as Error).message, 0, 'Timeout') : toApiError(err);
    if (this.cfg.onError) this.callback(() => this.cfg.onError?.(api, during));
  }

  private maybeReportTransition(): void {
    const holder = this.observed?.holderIdentity ?? '';
    if (holder === '' || holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    if (this.cfg.onNewLeader) this.callback(() => this.cfg.onNewLeader?.(holder));
  }

  /**
   * client-go's tryAcquireOrRenew, plus 'held' when another holder has a valid lease. `guard`
   * (a renewal's fence) is checked right before each write is sent.
   */
  private async tryAcquireOrRenew(signal: AbortSignal, during: 'acquire' | 'renew', guard?: () => void): Promise<Attempt> {
    const now = this.clock.now();
    const stamp = formatMicroTime(this.wallNow());
    const record: LeaderElectionRecord = {
      holderIdentity: this.cfg.identity,
      leaseDurationSeconds: this.s.leaseDurationSeconds,
      acquireTime: stamp,
      renewTime: stamp,
      leaseTransitions: 0,
    };

    // 1. The leader's fast path: update from the record it wrote last.
    if (this.isLeader() && this.isLeaseValid(now) && this.observed) {
      record.acquireTime = this.observed.acquireTime;
      record.leaseTransitions = this.observed.leaseTransitions;
      try {
        this.setObserved(await this.lock.update(record, signal, guard));
        return 'ok';
      } catch (err) {
        this.report(err, signal, during); // a 409: somebody else wrote; re-read below
        if (signal.aborted || err instanceof FencedError) return 'failed';
      }
    }

    // 2. Read the lease, or create it.
    let current: LeaderElectionRecord;
    try {
      current = await this.lock.get(signal);
    } catch (err) {
      const api = toApiError(err);
      if (!api.notFound || signal.aborted) {
        this.report(api, signal, during);
        return 'failed';
      }
      try {
        this.setObserved(await this.lock.create(record, signal, guard));
        return 'ok';
      } catch (createErr) {
        this.report(createErr, signal, during); // 409 AlreadyExists: another candidate created it
        return 'failed';
      }
    }

    // 3. The observed-time rule: the clock starts when the record is seen to change.
    if (rawOf(current) !== this.observedRaw) this.setObserved(current);
    if (current.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return 'held';

    // 4. Take or keep it.
    if (this.isLeader()) {
      record.acquireTime = current.acquireTime;
      record.leaseTransitions = current.leaseTransitions;
    } else {
      record.leaseTransitions = current.leaseTransitions + 1;
    }
    try {
      this.setObserved(await this.lock.update(record, signal, guard));
      return 'ok';
    } catch (err) {
      this.report(err, signal, during);
      return 'failed';
    }
  }

  /** Sleeps on the clock; resolves early when the signal aborts. */
  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        this.clock.clearTimer(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.clock.setTimer(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** A signal that aborts with `parent` or after `ms` on the clock; dispose() clears the timer. */
  private bounded(parent: AbortSignal, ms: number): { signal: AbortSignal; dispose(): void } {
    const ctl = new AbortController();
    const onParent = () => ctl.abort(parent.reason);
    if (parent.aborted) ctl.abort(parent.reason);
    else parent.addEventListener('abort', onParent, { once: true });
    const timer = this.clock.setTimer(() => ctl.abort(new AttemptTimeout(`leader election: no answer from the API server within ${ms}ms`)), ms);
    return {
      signal: ctl.signal,
      dispose: () => {
        this.clock.clearTimer(timer);
        parent.removeEventListener('abort', onParent);
      },
    };
  }

  private async attempt(parent: AbortSignal, during: 'acquire' | 'renew', guard?: () => void): Promise<Attempt> {
    const b = this.bounded(parent, this.s.renewDeadlineMs);
    try {
      return await this.tryAcquireOrRenew(b.signal, during, guard);
    } finally {
      b.dispose();
    }
  }

  /** Loops until the lease is ours (true) or the signal aborts (false). */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted && !this.callbackError) {
      const started = this.clock.now();
      const got = await this.attempt(signal, 'acquire');
      this.maybeReportTransition();
      if (got === 'ok') {
        this.acquiredAt = started;
        return true;
      }
      if (this.callbackError) return false;
      await this.sleep(this.s.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR), signal);
    }
    return false;
  }

  /**
   * Renews until the signal aborts or leadership is lost. `stop` is called at once, from a timer
   * if need be, when renewDeadline passes without a successful renewal; the fence stops leading
   * on its own when a write finds the deadline passed before that timer ran.
   */
  private async renew(signal: AbortSignal, fence: LeaseFence, stop: (reason: Error) => void): Promise<void> {
    const round = AbortSignal.any([signal, fence.signal]);
    const expired = () => new Error(`leader election: failed to renew the lease within ${this.s.renewDeadlineMs}ms`);
    let deadline: TimerHandle | undefined;
    const arm = () => {
      if (deadline !== undefined) this.clock.clearTimer(deadline);
      deadline = this.clock.setTimer(() => stop(expired()), fence.remainingMs());
    };
    arm();
    try {
      while (!round.aborted && !this.callbackError) {
        await this.sleep(this.s.retryPeriodMs, round);
        if (round.aborted) break;
        if (!fence.holds()) {
          // Woken past the deadline (a frozen process): leading is over, and no renewal is sent.
          stop(expired());
          break;
        }
        const started = this.clock.now();
        const got = await this.attempt(round, 'renew', () => fence.check());
        this.maybeReportTransition();
        if (round.aborted) break;
        if (got === 'ok') {
          fence.renewed(started);
          arm();
        } else if (got === 'held') {
          stop(new Error('leader election: another instance holds the lease')); // ours is gone
          break;
        }
      }
    } finally {
      if (deadline !== undefined) this.clock.clearTimer(deadline);
    }
  }

  /**
   * client-go's release: an empty holder and a one-second lease. Only within the renew deadline
   * of the last renewal: later, the lease may be another's and this instance writes nothing.
   */
  private async release(fence: LeaseFence): Promise<void> {
    if (!this.isLeader() || !this.observed || fence.remainingMs() <= 0) return;
    const stamp = formatMicroTime(this.wallNow());
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: stamp,
      renewTime: stamp,
      leaseTransitions: this.observed.leaseTransitions,
    };
    const guard = () => {
      if (fence.remainingMs() <= 0) throw new FencedError('leader election: release refused: past the renew deadline');
    };
    const b = this.bounded(new AbortController().signal, this.s.renewDeadlineMs);
    try {
      this.setObserved(await this.lock.update(record, b.signal, guard));
    } catch (err) {
      this.report(err, b.signal, 'release');
    } finally {
      b.dispose();
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    if (await this.acquire(signal)) {
      let stopped = false;
      const stop = (reason: Error) => {
        fence.end(reason);
        if (stopped) return;
        stopped = true;
        this.callback(() => this.cfg.onStoppedLeading());
      };
      const fence = new LeaseFence(this.clock, this.s.renewDeadlineMs, this.acquiredAt, () => stop(new Error('leader election: renew deadline passed')));
      if (signal.aborted || this.callbackError) {
        // Acquired just as the election was cancelled: never lead, hand the lease back.
        fence.end(new Error('leader election: cancelled'));
        if (this.s.releaseOnCancel) await this.release(fence);
      } else {
        this.callback(() => this.cfg.onStartedLeading(fence.signal, fence));
        if (!this.callbackError) await this.renew(signal, fence, stop);
        stop(new Error('leader election: stopped leading'));
        if (this.s.releaseOnCancel) await this.release(fence);
      }
    }
    if (this.callbackError) throw this.callbackError.err;
  }
}

/**
 * Campaigns for the Lease `namespace/name` and leads while it holds it (see the top of this file).
 * Resolves when `signal` aborts or leadership is lost; rejects on an invalid configuration or
 * when a callback throws (after leading stopped and the lease was released).
 */
export async function runLeaderElection(cfg: LeaderElectionConfig, signal: AbortSignal): Promise<void> {
  const elector = new LeaderElector(cfg, settingsOf(cfg));
  await elector.run(signal);
}
