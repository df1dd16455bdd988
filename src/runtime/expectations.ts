// Controller expectations, after `pkg/controller/controller_utils.go` (`ControllerExpectations`,
// `ControlleeExpectations`, `UIDTrackingControllerExpectations`).
//
// After a sync issues n creates (or deletes) for a ReplicaSet, the informer has not seen them
// yet, so the next sync would count stale pods and act again. Expectations hold that ReplicaSet
// back until every create/delete was observed, or until the record is 5 minutes old (in case an
// observation was lost). Records are per controller key (`namespace/name`).

import type { Clock } from './clock.js';

/** Upstream `ExpectationsTimeout`: a record older than this no longer blocks syncs. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

export interface ExpectationsRecord {
  /** Creations still expected; may go negative when more were observed than expected. */
  add: number;
  /** Deletions still expected; may go negative likewise. */
  del: number;
  /** When the record was last set (`setExpectations`), epoch ms. Raising/lowering keeps it. */
  timestamp: number;
}

export interface PendingExpectations {
  key: string;
  add: number;
  del: number;
  ageMs: number;
}

export class ControllerExpectations {
  private readonly records = new Map<string, ExpectationsRecord>();

  constructor(private readonly clock: Clock) {}

  /** A copy of the key's record, or undefined if it has none. */
  getExpectations(key: string): ExpectationsRecord | undefined {
    const r = this.records.get(key);
    return r === undefined ? undefined : { ...r };
  }

  /**
   * Whether the controller may act on `key`: true with no record (a new controller, or one
   * whose expectations were deleted), when everything expected was observed, or when the record
   * is older than EXPECTATIONS_TIMEOUT_MS (strictly, as upstream's `Since(ts) > timeout`).
   */
  satisfiedExpectations(key: string): boolean {
    const r = this.records.get(key);
    if (r === undefined) return true;
    return fulfilled(r) || this.expired(r);
  }

  /** Replaces the key's record with (add, del), stamped now. */
  setExpectations(key: string, add: number, del: number): void {
    this.records.set(key, { add, del, timestamp: this.clock.now() });
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** Adds to an existing record (the timestamp is kept); a missing record stays missing. */
  raiseExpectations(key: string, add: number, del: number): void {
    const r = this.records.get(key);
    if (r === undefined) return;
    r.add += add;
    r.del += del;
  }

  /** Subtracts from an existing record (the timestamp is kept); a missing record stays missing. */
  lowerExpectations(key: string, add: number, del: number): void {
    const r = this.records.get(key);
    if (r === undefined) return;
    r.add -= add;
    r.del -= del;
  }

  /** One creation was observed (or a create failed and will never be observed). */
  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  /** One deletion was observed (or a delete failed and will never be observed). */
  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }

  deleteExpectations(key: string): void {
    this.records.delete(key);
  }

  /** Records that currently hold their controller back, by key, with their age. */
  pending(): PendingExpectations[] {
    const now = this.clock.now();
    const out: PendingExpectations[] = [];
    for (const [key, r] of this.records) {
      if (fulfilled(r) || this.expired(r)) continue;
      out.push({ key, add: r.add, del: r.del, ageMs: now - r.timestamp });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private expired(r: ExpectationsRecord): boolean {
    return this.clock.now() - r.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }
}

function fulfilled(r: ExpectationsRecord): boolean {
  return r.add <= 0 && r.del <= 0;
}

export interface UIDTrackingOptions {
  /**
   * Called when `expectDeletions` overwrites a non-empty set of keys still expected to be
   * deleted (upstream logs "Clobbering existing delete keys" and carries on).
   */
  onError?: (message: string, context: { key: string; existing: string[] }) => void;
  /** The counting expectations to wrap; a new one on the same clock by default. */
  expectations?: ControllerExpectations;
}

/**
 * Expectations that track deletions by pod key (`namespace/name`; upstream calls them UIDs but
 * stores keys), so one pod observed twice — first terminating, then gone — counts once.
 */
export class UIDTrackingControllerExpectations {
  private readonly inner: ControllerExpectations;
  private readonly onError: UIDTrackingOptions['onError'];
  private readonly keys = new Map<string, Set<string>>();

  constructor(clock: Clock, opts: UIDTrackingOptions = {}) {
    this.inner = opts.expectations ?? new ControllerExpectations(clock);
    this.onError = opts.onError;
  }

  /** The pod keys still expected to be deleted for `rsKey` (a copy), or undefined. */
  getUIDs(rsKey: string): Set<string> | undefined {
    const set = this.keys.get(rsKey);
    return set === undefined ? undefined : new Set(set);
  }

  /**
   * Expects the deletion of exactly these pods: stores the (de-duplicated) set, replacing any
   * previous one, and sets the record to (0, set size) — so pending creations are dropped too.
   */
  expectDeletions(rsKey: string, podKeys: string[]): void {
    const expected = new Set(podKeys);
    const existing = this.keys.get(rsKey);
    if (existing !== undefined && existing.size > 0) {
      this.onError?.('Clobbering existing delete keys', { key: rsKey, existing: [...existing].sort() });
    }
    this.keys.set(rsKey, expected);
    this.inner.expectDeletions(rsKey, expected.size);
  }

  /** Lowers the deletion count only if `podKey` was expected, and only the first time. */
  deletionObserved(rsKey: string, podKey: string): void {
    const set = this.keys.get(rsKey);
    if (set === undefined || !set.has(podKey)) return;
    this.inner.deletionObserved(rsKey);
    set.delete(podKey);
  }

  /** Drops both the counts and the key set. */
  deleteExpectations(rsKey: string): void {
    this.inner.deleteExpectations(rsKey);
    this.keys.delete(rsKey);
  }

  getExpectations(rsKey: string): ExpectationsRecord | undefined {
    return this.inner.getExpectations(rsKey);
  }

  satisfiedExpectations(rsKey: string): boolean {
    return this.inner.satisfiedExpectations(rsKey);
  }

  setExpectations(rsKey: string, add: number, del: number): void {
    this.inner.setExpectations(rsKey, add, del);
  }

  expectCreations(rsKey: string, adds: number): void {
    this.inner.expectCreations(rsKey, adds);
  }

  creationObserved(rsKey: string): void {
    this.inner.creationObserved(rsKey);
  }

  raiseExpectations(rsKey: string, add: number, del: number): void {
    this.inner.raiseExpectations(rsKey, add, del);
  }

  lowerExpectations(rsKey: string, add: number, del: number): void {
    this.inner.lowerExpectations(rsKey, add, del);
  }

  pending(): PendingExpectations[] {
    return this.inner.pending();
  }
}
