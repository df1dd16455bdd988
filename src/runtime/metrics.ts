// The Prometheus metrics of `run` on prom-client (the Node ecosystem's client), and its HTTP
// endpoint: GET /metrics, /healthz, /readyz on node:http.
//
// The controller's metrics keep client-go's names so existing dashboards and alerts apply:
// workqueue_* with the queue's name as the `name` label (workqueue_depth{name="replicaset"}, as
// kube-controller-manager exports them), and rs_reconcile_* for the rest.
//
// prom-client keeps the series; the exposition is prom-client's text format 0.0.4 with three
// touches so a scrape reads as client_golang's: families sorted by name and series by label
// values, `le` last among the labels and printed as Go prints a float (`1e-08`, where JavaScript
// prints `1e-8`: `le` is a label, compared as text by PromQL), and a vector without series not
// exposed at all.
//
// Only `run` loads this module (commands/run.ts imports run-foreground lazily), so prom-client
// costs the other commands nothing (docs/dependencies.md has what it was measured to cost `run`).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry } from 'prom-client';
import { UserError } from '../errors.js';
import type { MetricEvent } from './workqueue.js';

export type Labels = Record<string, string | number | boolean>;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Prometheus' DefBuckets (seconds). */
const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * prometheus.ExponentialBuckets(start, factor, count), computed as client_golang does (each bound
 * the previous times factor, in float64), so the bounds are the same numbers, to the last bit.
 */
function exponentialBuckets(start: number, factor: number, count: number): number[] {
  if (!(start > 0) || !(factor > 1) || !(count >= 1)) throw new RangeError('exponentialBuckets needs start > 0, factor > 1, count >= 1');
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}

/**
 * A float as Go's strconv.FormatFloat(v, 'g', -1, 64) prints it (what client_golang writes):
 * the shortest exact digits, exponent form below 1e-4 and from 1e6: `1e+06`, `1.5e-08`.
 */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, expText] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(v); // plain decimals in this range, the same shortest digits
}

type MetricType = 'counter' | 'gauge' | 'histogram';
type PromMetric = PromCounter<string> | PromGauge<string> | PromHistogram<string>;
type PromValue = { value: number; labels: Record<string, string | number>; metricName?: string; sharedLabels?: Record<string, string | number> };

abstract class Metric<P extends PromMetric> {
  protected abstract readonly prom: P;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: MetricType,
    readonly labelNames: readonly string[],
  ) {
    if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name "${name}"`);
    const seen = new Set<string>();
    for (const l of labelNames) {
      if (!LABEL_NAME.test(l) || l.startsWith('__')) throw new Error(`metric ${name}: invalid label name "${l}"`);
      if (seen.has(l)) throw new Error(`metric ${name}: duplicate label name "${l}"`);
      seen.add(l);
    }
  }

  /**
   * The label values as prom-client takes them. Every label must be given (client_golang panics
   * on a wrong label count; prom-client would make a series without it).
   */
  protected labels(labels: Labels | undefined): Record<string, string> {
    const given = labels ?? {};
    for (const k of Object.keys(given)) {
      if (!this.labelNames.includes(k)) throw new Error(`metric ${this.name}: unknown label "${k}" (labels: ${this.labelNames.join(', ') || 'none'})`);
    }
    const out: Record<string, string> = {};
    for (const n of this.labelNames) {
      const v = given[n];
      if (v === undefined) throw new Error(`metric ${this.name}: label "${n}" is missing`);
      out[n] = String(v);
    }
    return out;
  }

  /** The series of one label set, from prom-client (undefined: none yet). */
  protected async series(labels: Labels | undefined): Promise<PromValue[]> {
    const want = this.labels(labels);
    const { values } = (await this.prom.get()) as { values: PromValue[] };
    return values.filter((v) => this.labelNames.every((n) => String({ ...v.sharedLabels, ...v.labels }[n]) === want[n]));
  }

  /** Drops every series (a metric without labels goes back to zero). */
  reset(): void {
    this.prom.reset();
  }

  /**
   * The family as client_golang exposes it: null for a vector without series; series sorted by
   * label values (stable, so a histogram's lines stay in order), labels in declared order with
   * `le` last, printed as Go prints it.
   */
  async exposition(): Promise<{ name: string; help: string; type: MetricType; values: PromValue[]; aggregator: 'sum' } | null> {
    const { values } = (await this.prom.get()) as { values: PromValue[] };
    if (values.length === 0) return null;
    const rows = values.map((v) => {
      const all: Record<string, string | number> = { ...v.sharedLabels, ...v.labels };
      const labels: Record<string, string> = {};
      for (const n of this.labelNames) labels[n] = String(all[n]);
      const key = this.labelNames.map((n) => labels[n]);
      if (all.le !== undefined) labels.le = typeof all.le === 'number' ? formatFloat(all.le) : String(all.le);
      return { key, row: { value: v.value, labels, metricName: v.metricName } };
    });
    const order = rows.map((r, i) => ({ r, i }));
    order.sort((a, b) => {
      for (let j = 0; j < a.r.key.length; j++) if (a.r.key[j] !== b.r.key[j]) return a.r.key[j] < b.r.key[j] ? -1 : 1;
      return a.i - b.i;
    });
    return { name: this.name, help: this.help, type: this.type, values: order.map((o) => o.r.row), aggregator: 'sum' };
  }
}

/** Splits the (labels, value) / (value) overloads. */
function args(a: Labels | number | undefined, b: number | undefined, dflt: number | undefined): { labels: Labels | undefined; value: number } {
  if (typeof a === 'number') return { labels: undefined, value: a };
  const value = b ?? dflt;
  if (value === undefined) throw new Error('a value is required');
  return { labels: a, value };
}

export class Counter extends Metric<PromCounter<string>> {
  protected readonly prom: PromCounter<string>;
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'counter', labelNames);
    this.prom = new PromCounter({ name, help, labelNames: [...labelNames], registers: [registry] });
  }
  /** inc(), inc(5), inc({verb: 'get'}), inc({verb: 'get'}, 5). A counter never goes down. */
  inc(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    if (!(a.value >= 0)) throw new Error(`counter ${this.name} cannot decrease (inc by ${a.value})`);
    this.prom.inc(this.labels(a.labels), a.value);
  }
  async get(labels?: Labels): Promise<number> {
    return (await this.series(labels))[0]?.value ?? 0;
  }
}

export class Gauge extends Metric<PromGauge<string>> {
  protected readonly prom: PromGauge<string>;
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
    this.prom = new PromGauge({ name, help, labelNames: [...labelNames], registers: [registry] });
  }
  /** set(3), set({name: 'replicaset'}, 3). */
  set(labels: Labels | number, value?: number): void {
    const a = args(labels, value, undefined);
    this.prom.set(this.labels(a.labels), a.value);
  }
  inc(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    this.prom.inc(this.labels(a.labels), a.value);
  }
  dec(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    this.prom.dec(this.labels(a.labels), a.value);
  }
  async get(labels?: Labels): Promise<number> {
    return (await this.series(labels))[0]?.value ?? 0;
  }
}

export class Histogram extends Metric<PromHistogram<string>> {
  protected readonly prom: PromHistogram<string>;
  readonly buckets: readonly number[];

  constructor(registry: Registry, name: string, help: string, buckets: readonly number[] = DEFAULT_BUCKETS, labelNames: readonly string[] = []) {
    const bounds = buckets.filter((b) => b !== Infinity);
    for (let i = 0; i < bounds.length; i++) {
      if (!Number.isFinite(bounds[i])) throw new Error(`histogram ${name}: bucket bounds must be numbers`);
      if (i > 0 && bounds[i] <= bounds[i - 1]) throw new Error(`histogram ${name}: bucket bounds must be in increasing order`);
    }
    if (labelNames.includes('le')) throw new Error(`histogram ${name}: "le" is reserved`);
    super(name, help, 'histogram', labelNames);
    this.buckets = bounds;
    this.prom = new PromHistogram({ name, help, buckets: [...bounds], labelNames: [...labelNames], registers: [registry] });
  }

  /** observe(0.25), observe({verb: 'get'}, 0.25): a value in the metric's unit (seconds). */
  observe(labels: Labels | number, value?: number): void {
    const a = args(labels, value, undefined);
    if (Number.isNaN(a.value)) return;
    this.prom.observe(this.labels(a.labels), a.value);
  }

  async get(labels?: Labels): Promise<{ buckets: { le: number; count: number }[]; sum: number; count: number }> {
    const rows = await this.series(labels);
    const name = (suffix: string) => `${this.name}_${suffix}`;
    const buckets = [...this.buckets, Infinity].map((le) => ({
      le,
      count: rows.find((r) => r.metricName === name('bucket') && (le === Infinity ? r.labels.le === '+Inf' : r.labels.le === le))?.value ?? 0,
    }));
    return { buckets, sum: rows.find((r) => r.metricName === name('sum'))?.value ?? 0, count: rows.find((r) => r.metricName === name('count'))?.value ?? 0 };
  }
}

export class Metrics {
  /** prom-client's registry: every metric is registered there (a name registered twice is refused). */
  readonly registry = new Registry();
  private readonly metrics = new Map<string, Metric<PromMetric>>();

  private add<M extends Metric<PromMetric>>(make: () => M, name: string, type: MetricType): M {
    // the series names of a histogram are taken too (client_golang refuses these collisions)
    const clash = [name, `${name}_bucket`, `${name}_sum`, `${name}_count`].some((n) => this.metrics.has(n));
    const reverse = [...this.metrics.values()].some(
      (o) => (o.type === 'histogram' || type === 'histogram') && [`${o.name}_bucket`, `${o.name}_sum`, `${o.name}_count`].includes(name),
    );
    if (clash || reverse) throw new Error(`metric ${name} is already registered`);
    const m = make();
    this.metrics.set(name, m);
    return m;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(() => new Counter(this.registry, name, help, labelNames), name, 'counter');
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(() => new Gauge(this.registry, name, help, labelNames), name, 'gauge');
  }

  histogram(name: string, help: string, buckets: readonly number[] = DEFAULT_BUCKETS, labelNames: readonly string[] = []): Histogram {
    return this.add(() => new Histogram(this.registry, name, help, buckets, labelNames), name, 'histogram');
  }

  /** The text exposition format 0.0.4 (prom-client's), families sorted by name, as client_golang orders them. */
  async render(): Promise<string> {
    const view = new Registry();
    for (const name of [...this.metrics.keys()].sort()) {
      const family = await this.metrics.get(name)!.exposition();
      // prom-client renders what `get` returns: hand it the family as client_golang shows it
      // biome-ignore lint/plugin/double-assertion: prom-client's type is its Metric class; registerMetric only reads `name` and calls `get`
      if (family) view.registerMetric({ name, get: async () => family } as unknown as Parameters<Registry['registerMetric']>[0]);
    }
    const text = await view.metrics();
    return text === '\n' ? '' : text;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface HealthChecks {
  /** false (or a throw, whose message is given as the reason) → 500. */
  healthz(): boolean;
  readyz(): boolean;
}

export interface MetricsServer {
  /** The address bound ("127.0.0.1", "::"); "" when serving is disabled. */
  address: string;
  /** The port bound (the actual one for ":0"); 0 when serving is disabled. */
  port: number;
  close(): Promise<void>;
}

/** Parses a bind address: ":8080", "127.0.0.1:0", "[::1]:9090", "8080"; null for "0" (disabled). */
export function parseBindAddress(bind: string): { host: string | undefined; port: number } | null {
  const b = bind.trim();
  if (b === '0') return null;
  const m = /^(?:(\[[0-9a-fA-F:.%\w]+\]|[^:[\]]*):)?(\d{1,5})$/.exec(b);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    throw new UserError(`invalid metrics bind address "${bind}": use HOST:PORT, :PORT (all interfaces), or 0 to disable`);
  }
  let host = m[1];
  if (host?.startsWith('[')) host = host.slice(1, -1);
  return { host: host === '' ? undefined : host, port };
}

function check(name: 'healthz' | 'readyz', fn: () => boolean): { ok: boolean; reason: string } {
  try {
    return fn() ? { ok: true, reason: 'ok' } : { ok: false, reason: `${name} check failed` };
  } catch (err) {
    return { ok: false, reason: `${name} check failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Serves GET/HEAD /metrics, /healthz and /readyz on `bindAddress`. "0" disables serving: the
 * returned handle then has port 0 and a no-op close.
 */
export async function serveMetrics(metrics: Metrics, bindAddress: string, health: HealthChecks): Promise<MetricsServer> {
  const bind = parseBindAddress(bindAddress);
  if (!bind) return { address: '', port: 0, close: async () => {} };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (code: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
      res.writeHead(code, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff', ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path !== '/metrics' && path !== '/healthz' && path !== '/readyz') return send(404, '404 page not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', undefined, { Allow: 'GET, HEAD' });
    if (path === '/metrics') {
      metrics.render().then(
        (text) => send(200, text, METRICS_CONTENT_TYPE),
        (err: unknown) => send(500, `error rendering metrics: ${err instanceof Error ? err.message : String(err)}\n`),
      );
      return;
    }
    const r = path === '/healthz' ? check('healthz', () => health.healthz()) : check('readyz', () => health.readyz());
    return send(r.ok ? 200 : 500, r.reason);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL'
          ? new UserError(`cannot serve metrics on "${bindAddress}": ${err.message}`)
          : err,
      );
    };
    server.once('error', onError);
    server.listen(bind.port, bind.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    address: addr.address,
    port: addr.port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive scrapers would hold it open
      })),
  };
}

// ---------------------------------------------------------------------------------------------
// The controller's metrics

/**
 * client-go's workqueue latency buckets: ExponentialBuckets(10e-9, 10, 12), 10 ns … 1000 s, the
 * same float64 products, so `le` reads as kube-controller-manager's /metrics does, down to its
 * "9.999999999999999e-06" and "9.999999999999999e-05" (series summed by le across both match).
 */
export const WORKQUEUE_BUCKETS: readonly number[] = exponentialBuckets(10e-9, 10, 12);

export interface ControllerMetrics {
  /** workqueue_depth{name} */
  queueDepth: Gauge;
  /** workqueue_adds_total{name} */
  adds: Counter;
  /** workqueue_retries_total{name} */
  retries: Counter;
  /** workqueue_work_duration_seconds{name} */
  workDuration: Histogram;
  /** workqueue_queue_duration_seconds{name} */
  queueLatency: Histogram;
  /** rs_reconcile_sync_duration_seconds */
  syncDuration: Histogram;
  /** rs_reconcile_api_requests_total{verb,resource,code} */
  apiRequests: Counter;
  /** rs_reconcile_expectations_pending */
  expectationsPending: Gauge;
  /** workqueue_unfinished_work_seconds{name} */
  unfinishedWork: Gauge;
  /** workqueue_longest_running_processor_seconds{name} */
  longestRunning: Gauge;
  /** rs_reconcile_leader: 1 while this instance leads (or runs without leader election). */
  leader: Gauge;
}

export function controllerMetrics(m: Metrics): ControllerMetrics {
  const q = ['name'];
  return {
    queueDepth: m.gauge('workqueue_depth', 'Current depth of workqueue', q),
    adds: m.counter('workqueue_adds_total', 'Total number of adds handled by workqueue', q),
    retries: m.counter('workqueue_retries_total', 'Total number of retries handled by workqueue', q),
    workDuration: m.histogram('workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.', WORKQUEUE_BUCKETS, q),
    queueLatency: m.histogram(
      'workqueue_queue_duration_seconds',
      'How long in seconds an item stays in workqueue before being requested.',
      WORKQUEUE_BUCKETS,
      q,
    ),
    unfinishedWork: m.gauge(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      q,
    ),
    longestRunning: m.gauge('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running processor for workqueue been running.', q),
    syncDuration: m.histogram('rs_reconcile_sync_duration_seconds', 'How long in seconds one sync of a ReplicaSet or ReplicationController takes.'),
    apiRequests: m.counter('rs_reconcile_api_requests_total', 'API requests made by the controller, by verb, resource and HTTP status code (0: no answer).', [
      'verb',
      'resource',
      'code',
    ]),
    expectationsPending: m.gauge('rs_reconcile_expectations_pending', 'Controllers whose expectations of pod creations or deletions are not yet satisfied.'),
    leader: m.gauge('rs_reconcile_leader', 'Whether this instance is the leader (1) or a standby (0).'),
  };
}

/** A WorkQueue `onMetric` sink feeding the workqueue_* metrics (milliseconds become seconds). */
export function workQueueMetricSink(cm: ControllerMetrics): (e: MetricEvent) => void {
  // the queue reports running totals; the counters get the increase since the last report
  const seen = new Map<string, number>();
  const increase = (key: string, total: number): number => {
    const by = Math.max(0, total - (seen.get(key) ?? 0));
    seen.set(key, Math.max(total, seen.get(key) ?? 0));
    return by;
  };
  return (e) => {
    const labels = { name: e.name };
    switch (e.type) {
      case 'adds':
        cm.adds.inc(labels, increase(`adds/${e.name}`, e.total));
        break;
      case 'retries':
        cm.retries.inc(labels, increase(`retries/${e.name}`, e.total));
        break;
      case 'depth':
        cm.queueDepth.set(labels, e.depth);
        break;
      case 'queue_latency':
        cm.queueLatency.observe(labels, e.ms / 1000);
        break;
      case 'work_duration':
        cm.workDuration.observe(labels, e.ms / 1000);
        break;
      case 'unfinished_work':
        cm.unfinishedWork.set(labels, e.unfinishedWorkMs / 1000);
        cm.longestRunning.set(labels, e.longestRunningProcessorMs / 1000);
        break;
    }
  };
}
