// client-go's EventCorrelator (tools/record/events_cache.go), as kube-controller-manager's event
// recorder runs it before it writes an Event: it decides, per recorded event, whether to POST a
// new Event, PATCH the count of one already written, or drop it.
//
// - Aggregation (EventAggregator, EventAggregatorByReasonFunc): events that differ only in their
//   message are "similar". Once 10 distinct messages of one group are seen within 600 s of each
//   other, the event becomes "(combined from similar events): <message>", a new Event whose count
//   is then patched by every further similar event.
// - Dedup (eventLogger.eventObserve): an event seen before (same key, message included, or the
//   same aggregate) becomes a strategic merge patch of count, lastTimestamp and message.
// - Spam filter (EventSourceObjectSpamFilter, getSpamKey): per source, object and type, a token
//   bucket of burst 25 refilled at one token per 300 s; events over it are dropped. As upstream,
//   it runs last: a dropped event still counts for aggregation and in the count of later patches.
// - Each of the three caches is an LRU of 4096 entries, so memory stays bounded.
//
// Pure: time is the caller's `now` (epoch ms), randomness an injected function.

/** A core/v1 Event in its wire shape (timestamps RFC 3339), the fields the correlator reads. */
export interface CoreEvent {
  apiVersion?: 'v1';
  kind?: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  involvedObject: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string; resourceVersion?: string; fieldPath?: string };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
}

/** The body of the PATCH (application/strategic-merge-patch+json) that bumps an Event. */
export interface EventPatch {
  count: number;
  lastTimestamp: string;
  message?: string;
}

/**
 * What to send for one recorded event. A patch carries the whole event too: when the PATCH
 * answers 404 (the Event expired or was deleted) it is POSTed anew, as client-go's recordEvent.
 */
export type EventAction =
  | { kind: 'create'; event: CoreEvent }
  | { kind: 'patch'; name: string; namespace: string; patch: EventPatch; event: CoreEvent }
  | { kind: 'drop' };

export const MAX_LRU_CACHE_ENTRIES = 4096;
const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
const DEFAULT_SPAM_BURST = 25;
const DEFAULT_SPAM_QPS = 1 / 300;
export const AGGREGATE_MESSAGE_PREFIX = '(combined from similar events): ';

export interface CorrelatorOptions {
  lruCacheSize?: number;
  maxEvents?: number;
  maxIntervalSeconds?: number;
  spamBurst?: number;
  spamQps?: number;
  /** A random unique name (a UUID), for an object whose name leaves no room for the suffix. */
  uuid?: () => string;
}

/** groupcache's lru.Cache: Get and Add make an entry the newest; past the size the oldest goes. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be an integer >= 1, got ${maxEntries}`);
  }
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }
  add(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }
  get size(): number {
    return this.map.size;
  }
}

// Upstream joins the fields with ""; a separator that cannot occur keeps distinct events apart.
const join = (parts: (string | undefined)[]): string => parts.map((p) => p ?? '').join('\u0000');

/** getEventKey: source, involvedObject (fieldPath included), type, reason, message. */
function eventKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message]);
}

/** getSpamKey: source, involvedObject and type (not the reason: all of an object's events share one budget). */
function spamKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type]);
}

/** EventAggregatorByReasonFunc: [aggregateKey, localKey]; similar events differ only in the message. */
function aggregatorKeys(e: CoreEvent): [string, string] {
  const o = e.involvedObject;
  return [
    join([e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance]),
    e.message ?? '',
  ];
}

/** metav1.Time on the wire: RFC 3339 in whole seconds. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

interface AggregateRecord {
  localKeys: Set<string>;
  lastTimestamp: number; // ms
}

interface EventLog {
  count: number;
  firstTimestamp?: string;
  name: string;
  resourceVersion?: string;
}

interface SpamRecord {
  tokens: number;
  last: number; // ms
}

export class EventCorrelator {
  private readonly aggregates: LruCache<AggregateRecord>;
  private readonly logs: LruCache<EventLog>;
  private readonly spam: LruCache<SpamRecord>;
  private readonly maxEvents: number;
  private readonly maxIntervalMs: number;
  private readonly burst: number;
  private readonly qps: number;
  private readonly uuid?: () => string;
  /** The last nanosecond stamp handed out: names stay unique at millisecond clock resolution. */
  private lastNanos = 0n;

  constructor(opts: CorrelatorOptions = {}) {
    const size = opts.lruCacheSize ?? MAX_LRU_CACHE_ENTRIES;
    this.aggregates = new LruCache(size);
    this.logs = new LruCache(size);
    this.spam = new LruCache(size);
    this.maxEvents = opts.maxEvents ?? DEFAULT_AGGREGATE_MAX_EVENTS;
    this.maxIntervalMs = (opts.maxIntervalSeconds ?? DEFAULT_AGGREGATE_INTERVAL_SECONDS) * 1000;
    this.burst = opts.spamBurst ?? DEFAULT_SPAM_BURST;
    // upstream's qps is a float32: 1/300 rounds up, so a token is back after exactly 300 s
    this.qps = Math.fround(opts.spamQps ?? DEFAULT_SPAM_QPS);
    this.uuid = opts.uuid;
  }

  /**
   * util.GenerateEventName: `<object name>.<hex unix nanoseconds>`, or a UUID when that is no
   * valid name. A millisecond clock gives the same stamp to events of one instant, so the
   * nanoseconds are made strictly increasing.
   */
  eventName(refName: string, nowMs: number): string {
    let nanos = BigInt(Math.floor(nowMs)) * 1_000_000n;
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    const name = `${refName}.${nanos.toString(16)}`;
    if (name.length <= 253 && DNS_SUBDOMAIN.test(name)) return name;
    return this.uuid ? this.uuid() : name;
  }

  /** EventCorrelate: aggregate, observe (dedup), then the spam filter; what to send for `event`. */
  correlate(event: CoreEvent, nowMs: number): EventAction {
    const [aggregated, key] = this.aggregate(event, nowMs);
    const { observed, patch } = this.observe(aggregated, key);
    if (this.filtered(observed, nowMs)) return { kind: 'drop' };
    if (patch) return { kind: 'patch', name: observed.metadata.name, namespace: observed.metadata.namespace, patch, event: observed };
    return { kind: 'create', event: observed };
  }

  /** UpdateState: the Event as the server answered (name, count, resourceVersion). */
  updateState(event: CoreEvent): void {
    this.logs.add(eventKey(event), {
      count: event.count ?? 0,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata.name,
      resourceVersion: event.metadata.resourceVersion,
    });
  }

  /** EventAggregate: the event to observe and its cache key (the aggregate key once combined). */
  private aggregate(event: CoreEvent, nowMs: number): [CoreEvent, string] {
    const [aggregateKey, localKey] = aggregatorKeys(event);
    let record = this.aggregates.get(aggregateKey);
    // older than the interval (strictly), or never seen: a fresh record
    if (!record || nowMs - record.lastTimestamp > this.maxIntervalMs) record = { localKeys: new Set(), lastTimestamp: nowMs };
    record.localKeys.add(localKey);
    record.lastTimestamp = nowMs;
    this.aggregates.add(aggregateKey, record);
    if (record.localKeys.size < this.maxEvents) return [event, eventKey(event)];
    // keep the set at most max-1 large (upstream's PopAny removes any one; here the oldest)
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const now = rfc3339(nowMs);
    const combined: CoreEvent = {
      metadata: { name: this.eventName(event.involvedObject.name ?? '', nowMs), namespace: event.metadata.namespace },
      involvedObject: event.involvedObject,
      reason: event.reason,
      message: AGGREGATE_MESSAGE_PREFIX + (event.message ?? ''),
      type: event.type,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: event.source,
      // as upstream, the combined event carries no reportingController / reportingInstance
    };
    return [combined, aggregateKey];
  }

  /** eventObserve: a known key becomes a patch of the event written first; the count goes up either way. */
  private observe(event: CoreEvent, key: string): { observed: CoreEvent; patch?: EventPatch } {
    const last = this.logs.get(key);
    let observed = event;
    let patch: EventPatch | undefined;
    if (last && last.count > 0) {
      observed = {
        ...event,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
      // CreateTwoWayMergePatch against the same event with count, lastTimestamp and message zeroed
      patch = { count: observed.count!, lastTimestamp: observed.lastTimestamp ?? rfc3339(0), ...(observed.message ? { message: observed.message } : {}) };
    }
    this.logs.add(key, {
      count: observed.count ?? 0,
      firstTimestamp: observed.firstTimestamp,
      name: observed.metadata.name,
      resourceVersion: observed.metadata.resourceVersion,
    });
    return { observed, patch };
  }

  /** EventSourceObjectSpamFilter.Filter: true when the event is over its object's budget. */
  private filtered(event: CoreEvent, nowMs: number): boolean {
    const key = spamKey(event);
    const record = this.spam.get(key) ?? { tokens: this.burst, last: nowMs };
    // x/time/rate AllowN: tokens refill continuously up to burst since the last accepted event
    // (a refused one changes nothing); a clock gone backwards refills nothing
    const tokens = Math.min(this.burst, record.tokens + (Math.max(0, nowMs - record.last) / 1000) * this.qps);
    const allowed = tokens >= 1;
    this.spam.add(key, allowed ? { tokens: tokens - 1, last: Math.max(record.last, nowMs) } : record);
    return !allowed;
  }
}
