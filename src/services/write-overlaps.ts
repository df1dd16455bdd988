// Where an audit log cannot tell the order of two writes, and a verdict resting on that order is
// unknown rather than false. Pure: the writes and their times come in.

import { timeUs } from '../input/audit/time.js';
import type { ApiWrite, HistoryEvent } from '../history/types.js';
import { kindKey, metaNamespaceKey } from '../core/object-key.js';

/**
 * The log lists writes as they finished, but a write may have reached storage before one that
 * finished earlier, and the controller may have seen it first (a kubelet's report received before
 * the controller's write and answered after it). A write the rules do not predict on the log's
 * order, overlapped in time by such a write in its namespace, is therefore unknown, not false:
 * the log cannot tell the order. Exports without the received time (GKE logs one time an entry)
 * count writes finishing within OVERLAP_MS after it.
 */
export class Overlaps {
  private held: { e: HistoryEvent; ns: string; done: number }[] = [];
  /** The writes of the last OVERLAP_MS (by when they finished), to look back from a verdict. */
  private recent: { w: ApiWrite; received: number; done: number }[] = [];
  /** Controllers (`ns/kind/name`) whose sync the log could not order, until when (ms): their next writes rest on it. */
  private readonly unordered = new Map<string, { until: number; why: string }>();

  /** Marks the held verdicts that `w` (finished at `at`, ms) may have come before. */
  check(w: ApiWrite, at: number): void {
    if (Number.isNaN(at)) return;
    const received = timeUs(w.time) / 1000;
    const oneTime = w.finished === undefined;
    // writes come in the order they finished: the old ones are at the front
    let old = 0;
    while (old < this.recent.length && at - this.recent[old].done > OVERLAP_MS) old++;
    if (old > 0) this.recent.splice(0, old);
    this.recent.push({ w, received, done: at });
    if (this.held.length === 0) return;
    if (this.held.some((h) => at - h.done > OVERLAP_MS)) this.held = this.held.filter((h) => at - h.done <= OVERLAP_MS);
    for (const h of this.held) {
      if (h.ns !== w.namespace || h.e.predicted !== false) continue;
      const before = oneTime ? at - h.done <= OVERLAP_MS : received <= h.done;
      if (!before) continue;
      const why = `${writeWords(w, oneTime)} may have reached storage before it and been seen by the controller`;
      unknownBecause(h.e, `not what the rules do on the log's order of writes, but ${why}: the log cannot tell`);
      const c = h.e.controller;
      if (c) this.unordered.set(kindKey(c.kind, metaNamespaceKey(c.namespace, c.name)), { until: h.done + UNORDERED_SYNC_MS, why });
    }
  }

  /** Holds the verdicts of `events` that the rules did not predict, to check the writes after them. */
  add(events: readonly HistoryEvent[], w: ApiWrite, at: number): void {
    if (Number.isNaN(at)) return;
    for (const e of events) {
      if (!e.actor.controller || e.predicted !== false) continue;
      // the same sync as a write the log could not order: planned on an order it cannot tell either
      const c = e.controller;
      const u = c ? this.unordered.get(kindKey(c.kind, metaNamespaceKey(c.namespace, c.name))) : undefined;
      if (u && at <= u.until) {
        unknownBecause(e, `not what the rules do on the log's order of writes, in a sync whose earlier write the log could not order (${u.why})`);
        continue;
      }
      // a write listed before it but received after it may not have reached storage before the controller planned
      const received = timeUs(w.time) / 1000;
      // (a log with one time an entry cannot tell when one was received: any other's just before may be)
      const oneTime = w.finished === undefined;
      const later = this.recent.find(
        (r) =>
          r.w !== w && r.w.namespace === w.namespace && r.w.user !== w.user && r.done <= at && (oneTime ? at - r.done <= OVERLAP_MS : r.received > received),
      );
      if (later) {
        unknownBecause(
          e,
          `not what the rules do on the log's order of writes, but ${writeWords(later.w, oneTime)} is listed before it ${oneTime ? 'and may have been received after it' : 'though received after it'}: the controller may not have seen it yet, and the log cannot tell`,
        );
        if (c)
          this.unordered.set(kindKey(c.kind, metaNamespaceKey(c.namespace, c.name)), {
            until: at + UNORDERED_SYNC_MS,
            why: `${writeWords(later.w, oneTime)} was listed before a write it may have come after`,
          });
        continue;
      }
      this.held.push({ e, ns: w.namespace, done: at });
    }
  }
}

/** How long after a write another may still have reached storage first, in a log with one time an entry. */
const OVERLAP_MS = 1000;

/** How long the writes of a sync the log could not order go on resting on that order. */
const UNORDERED_SYNC_MS = 5000;

/** "admin's patch (scale) of replicaset web, received at …" */
function writeWords(w: ApiWrite, oneTime: boolean): string {
  const what = `${w.resource === 'pods' ? 'pod' : w.resource.replace(/s$/, '')} ${w.name ?? ''}`.trim();
  return `${w.user}'s ${w.verb}${w.subresource ? ` (${w.subresource})` : ''} of ${what}, ${oneTime ? 'logged' : 'received'} at ${w.time},`;
}

function unknownBecause(e: HistoryEvent, why: string): void {
  e.message = `${e.message.replace(/[,:;].*$/, '')}; unknown: ${why}`;
  e.predicted = null;
  e.reason = null;
}
