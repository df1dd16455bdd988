// A small Prometheus registry (counters, gauges, histograms, with labels) rendered in the text
// exposition format 0.0.4 as client_golang writes it, and the HTTP endpoint of `run`:
// GET /metrics, /healthz, /readyz on node:http.
//
// The controller's metrics keep client-go's names so existing dashboards and alerts apply:
// workqueue_* with the queue's name as the `name` label (workqueue_depth{name="replicaset"}, as
// kube-controller-manager exports them), and rs_reconcile_* for the rest.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UserError } from '../errors.js';
import type { MetricEvent } from './workqueue.js';

export type Labels = Record<string, string | number | boolean>;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Prometheus' DefBuckets (seconds). */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** prometheus.ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
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

function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabelValue(values[i])}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

type MetricType = 'counter' | 'gauge' | 'histogram';

abstract class Metric<S> {
  protected readonly series = new Map<string, { values: string[]; state: S }>();

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

  protected abstract initial(): S;

  protected values(labels: Labels | undefined): string[] {
    const given = labels ?? {};
    for (const k of Object.keys(given)) {
      if (!this.labelNames.includes(k)) throw new Error(`metric ${this.name}: unknown label "${k}" (labels: ${this.labelNames.join(', ') || 'none'})`);
    }
    return this.labelNames.map((n) => {
      const v = given[n];
      if (v === undefined) throw new Error(`metric ${this.name}: label "${n}" is missing`);
      return String(v);
    });
  }

  protected state(labels: Labels | undefined): S {
    const values = this.values(labels);
    const key = JSON.stringify(values);
    let s = this.series.get(key);
    if (!s) {
      s = { values, state: this.initial() };
      this.series.set(key, s);
    }
    return s.state;
  }

  protected peek(labels: Labels | undefined): S | undefined {
    return this.series.get(JSON.stringify(this.values(labels)))?.state;
  }

  /** Drops every series (a metric without labels goes back to zero). */
  reset(): void {
    this.series.clear();
  }

  protected sortedSeries(): { values: string[]; state: S }[] {
    return [...this.series.values()].sort((a, b) => {
      for (let i = 0; i < a.values.length; i++) {
        if (a.values[i] !== b.values[i]) return a.values[i] < b.values[i] ? -1 : 1;
      }
      return 0;
    });
  }

  protected abstract samples(out: string[]): void;

  render(out: string[]): void {
    // A metric without labels always exists (client_golang shows it as 0); a vector with no
    // series yet is not exposed at all.
    if (this.labelNames.length === 0) this.state(undefined);
    if (this.series.size === 0) return;
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`);
    out.push(`# TYPE ${this.name} ${this.type}`);
    this.samples(out);
  }
}

/** Splits the (labels, value) / (value) overloads. */
function args(a: Labels | number | undefined, b: number | undefined, dflt: number | undefined): { labels: Labels | undefined; value: number } {
  if (typeof a === 'number') return { labels: undefined, value: a };
  const value = b ?? dflt;
  if (value === undefined) throw new Error('a value is required');
  return { labels: a, value };
}

export class Counter extends Metric<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'counter', labelNames);
  }
  protected initial() {
    return { v: 0 };
  }
  /** inc(), inc(5), inc({verb: 'get'}), inc({verb: 'get'}, 5). A counter never goes down. */
  inc(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    if (!(a.value >= 0)) throw new Error(`counter ${this.name} cannot decrease (inc by ${a.value})`);
    this.state(a.labels).v += a.value;
  }
  get(labels?: Labels): number {
    return this.peek(labels)?.v ?? 0;
  }
  protected samples(out: string[]): void {
    for (const s of this.sortedSeries()) out.push(`${this.name}${labelText(this.labelNames, s.values)} ${formatFloat(s.state.v)}`);
  }
}

export class Gauge extends Metric<{ v: number }> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
  }
  protected initial() {
    return { v: 0 };
  }
  /** set(3), set({name: 'replicaset'}, 3). */
  set(labels: Labels | number, value?: number): void {
    const a = args(labels, value, undefined);
    this.state(a.labels).v = a.value;
  }
  inc(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    this.state(a.labels).v += a.value;
  }
  dec(labels?: Labels | number, value?: number): void {
    const a = args(labels, value, 1);
    this.state(a.labels).v -= a.value;
  }
  get(labels?: Labels): number {
    return this.peek(labels)?.v ?? 0;
  }
  protected samples(out: string[]): void {
    for (const s of this.sortedSeries()) out.push(`${this.name}${labelText(this.labelNames, s.values)} ${formatFloat(s.state.v)}`);
  }
}

interface HistogramState {
  counts: number[]; // per bucket, not cumulative; the last is +Inf
  sum: number;
  count: number;
}

export class Histogram extends Metric<HistogramState> {
  readonly buckets: readonly number[];

  constructor(name: string, help: string, buckets: readonly number[] = DEFAULT_BUCKETS, labelNames: readonly string[] = []) {
    const bounds = buckets.filter((b) => b !== Infinity);
    for (let i = 0; i < bounds.length; i++) {
      if (!Number.isFinite(bounds[i])) throw new Error(`histogram ${name}: bucket bounds must be numbers`);
      if (i > 0 && bounds[i] <= bounds[i - 1]) throw new Error(`histogram ${name}: bucket bounds must be in increasing order`);
    }
    if (labelNames.includes('le')) throw new Error(`histogram ${name}: "le" is reserved`);
    super(name, help, 'histogram', labelNames);
    this.buckets = bounds;
  }

  protected initial(): HistogramState {
    return { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  /** observe(0.25), observe({verb: 'get'}, 0.25): a value in the metric's unit (seconds). */
  observe(labels: Labels | number, value?: number): void {
    const a = args(labels, value, undefined);
    if (Number.isNaN(a.value)) return;
    const s = this.state(a.labels);
    let i = this.buckets.findIndex((b) => a.value <= b);
    if (i < 0) i = this.buckets.length;
    s.counts[i]++;
    s.sum += a.value;
    s.count++;
  }

  get(labels?: Labels): { buckets: { le: number; count: number }[]; sum: number; count: number } {
    const s = this.peek(labels) ?? this.initial();
    let acc = 0;
    const buckets = [...this.buckets, Infinity].map((le, i) => ({ le, count: (acc += s.counts[i]) }));
    return { buckets, sum: s.sum, count: s.count };
  }

  protected samples(out: string[]): void {
    for (const s of this.sortedSeries()) {
      let acc = 0;
      [...this.buckets, Infinity].forEach((le, i) => {
        acc += s.state.counts[i];
        out.push(`${this.name}_bucket${labelText(this.labelNames, s.values, ['le', formatFloat(le)])} ${formatFloat(acc)}`);
      });
      const l = labelText(this.labelNames, s.values);
      out.push(`${this.name}_sum${l} ${formatFloat(s.state.sum)}`);
      out.push(`${this.name}_count${l} ${formatFloat(s.state.count)}`);
    }
  }
}

export class Metrics {
  private readonly metrics = new Map<string, Metric<unknown>>();

  private add<M extends Metric<any>>(m: M): M {
    const clash = [m.name, `${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`].some((n) => this.metrics.has(n));
    const reverse = [...this.metrics.values()].some((o) => o.type === 'histogram' && [`${o.name}_bucket`, `${o.name}_sum`, `${o.name}_count`].includes(m.name));
    if (clash || reverse) throw new Error(`metric ${m.name} is already registered`);
    this.metrics.set(m.name, m);
    return m;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames));
  }

  histogram(name: string, help: string, buckets: readonly number[] = DEFAULT_BUCKETS, labelNames: readonly string[] = []): Histogram {
    return this.add(new Histogram(name, help, buckets, labelNames));
  }

  /** The text exposition format 0.0.4: families sorted by name, series by label values. */
  render(): string {
    const out: string[] = [];
    for (const name of [...this.metrics.keys()].sort()) this.metrics.get(name)!.render(out);
    return out.length === 0 ? '' : `${out.join('\n')}\n`;
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
      let text: string;
      try {
        text = metrics.render();
      } catch (err) {
        return send(500, `error rendering metrics: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      return send(200, text, METRICS_CONTENT_TYPE);
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

/** client-go's workqueue latency buckets: ExponentialBuckets(10e-9, 10, 12), 10 ns … 1000 s. */
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
    queueLatency: m.histogram('workqueue_queue_duration_seconds', 'How long in seconds an item stays in workqueue before being requested.', WORKQUEUE_BUCKETS, q),
    unfinishedWork: m.gauge(
      'workqueue_unfinished_work_seconds',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      q,
    ),
    longestRunning: m.gauge('workqueue_longest_running_processor_seconds', 'How many seconds has the longest running processor for workqueue been running.', q),
    syncDuration: m.histogram('rs_reconcile_sync_duration_seconds', 'How long in seconds one sync of a ReplicaSet or ReplicationController takes.'),
    apiRequests: m.counter('rs_reconcile_api_requests_total', 'API requests made by the controller, by verb, resource and HTTP status code (0: no answer).', ['verb', 'resource', 'code']),
    expectationsPending: m.gauge('rs_reconcile_expectations_pending', 'Controllers whose expectations of pod creations or deletions are not yet satisfied.'),
    leader: m.gauge('rs_reconcile_leader', 'Whether this instance is the leader (1) or a standby (0).'),
  };
}

/** A WorkQueue `onMetric` sink feeding the workqueue_* metrics (milliseconds become seconds). */
export function workQueueMetricSink(cm: ControllerMetrics): (e: MetricEvent) => void {
  return (e) => {
    const labels = { name: e.name };
    switch (e.type) {
      case 'adds':
        cm.adds.inc(labels, Math.max(0, e.total - cm.adds.get(labels)));
        break;
      case 'retries':
        cm.retries.inc(labels, Math.max(0, e.total - cm.retries.get(labels)));
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
