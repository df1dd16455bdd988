// The Prometheus registry (text format 0.0.4, golden outputs) and its HTTP endpoint (real scrapes).
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Metrics,
  METRICS_CONTENT_TYPE,
  WORKQUEUE_BUCKETS,
  controllerMetrics,
  formatFloat,
  parseBindAddress,
  serveMetrics,
  workQueueMetricSink,
  type MetricsServer,
} from '../../src/runtime/metrics.js';
import { UserError } from '../../src/errors.js';
import { WorkQueue } from '../../src/runtime/workqueue.js';
import { FakeClock } from '../../src/runtime/clock.js';

describe('formatFloat (Go strconv g, -1)', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [-1, '-1'],
    [0.005, '0.005'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e-8, '1e-08'],
    [2.5, '2.5'],
    [123456, '123456'],
    [1e6, '1e+06'],
    [1234567, '1.234567e+06'],
    [1e21, '1e+21'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
  ])('%s → %s', (v, text) => expect(formatFloat(v)).toBe(text));
});

describe('Metrics.render', () => {
  it('counters and gauges, with and without labels, sorted by name then label values', async () => {
    const m = new Metrics();
    const reqs = m.counter('http_requests_total', 'Requests.', ['verb', 'code']);
    const up = m.gauge('up', 'Whether it is up.');
    const idle = m.counter('idle_total', 'Never incremented.');
    m.gauge('unused', 'A vector with no series.', ['x']);
    reqs.inc({ verb: 'get', code: 200 });
    reqs.inc({ verb: 'get', code: 200 }, 2);
    reqs.inc({ verb: 'delete', code: '404' });
    up.set(1);
    expect(await idle.get()).toBe(0);
    expect(await m.render()).toBe(
      [
        '# HELP http_requests_total Requests.',
        '# TYPE http_requests_total counter',
        'http_requests_total{verb="delete",code="404"} 1',
        'http_requests_total{verb="get",code="200"} 3',
        '', // prom-client separates families with an empty line (parsers skip it)
        '# HELP idle_total Never incremented.',
        '# TYPE idle_total counter',
        'idle_total 0',
        '',
        '# HELP up Whether it is up.',
        '# TYPE up gauge',
        'up 1',
        '',
      ].join('\n'),
    );
  });

  it('escapes label values and help text', async () => {
    const m = new Metrics();
    const g = m.gauge('weird', 'Help with \\ backslash\nand newline "quotes" kept.', ['path']);
    g.set({ path: 'C:\\dir\n"x"' }, -2.5);
    expect(await m.render()).toBe(
      ['# HELP weird Help with \\\\ backslash\\nand newline "quotes" kept.', '# TYPE weird gauge', 'weird{path="C:\\\\dir\\n\\"x\\""} -2.5', ''].join('\n'),
    );
  });

  it('histograms: cumulative buckets with le, +Inf, _sum and _count', async () => {
    const m = new Metrics();
    const h = m.histogram('latency_seconds', 'Latency.', [0.1, 1, 10], ['op']);
    for (const v of [0.05, 0.1, 0.5, 3, 30]) h.observe({ op: 'sync' }, v);
    h.observe({ op: 'list' }, 0.2);
    expect(await m.render()).toBe(
      [
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{op="list",le="0.1"} 0',
        'latency_seconds_bucket{op="list",le="1"} 1',
        'latency_seconds_bucket{op="list",le="10"} 1',
        'latency_seconds_bucket{op="list",le="+Inf"} 1',
        'latency_seconds_sum{op="list"} 0.2',
        'latency_seconds_count{op="list"} 1',
        'latency_seconds_bucket{op="sync",le="0.1"} 2',
        'latency_seconds_bucket{op="sync",le="1"} 3',
        'latency_seconds_bucket{op="sync",le="10"} 4',
        'latency_seconds_bucket{op="sync",le="+Inf"} 5',
        'latency_seconds_sum{op="sync"} 33.65',
        'latency_seconds_count{op="sync"} 5',
        '',
      ].join('\n'),
    );
    expect((await h.get({ op: 'sync' })).buckets.map((b) => b.count)).toEqual([2, 3, 4, 5]);
  });

  it('a histogram without labels exists from the start', async () => {
    const m = new Metrics();
    m.histogram('empty_seconds', 'Nothing yet.', [1]);
    expect(await m.render()).toBe(
      [
        '# HELP empty_seconds Nothing yet.',
        '# TYPE empty_seconds histogram',
        'empty_seconds_bucket{le="1"} 0',
        'empty_seconds_bucket{le="+Inf"} 0',
        'empty_seconds_sum 0',
        'empty_seconds_count 0',
        '',
      ].join('\n'),
    );
  });

  it('rejects misuse: bad names, duplicate registration, wrong labels, decreasing counters, unsorted buckets', () => {
    const m = new Metrics();
    expect(() => m.counter('bad-name', 'x')).toThrow(/invalid metric name/);
    expect(() => m.counter('ok_total', 'x', ['__reserved'])).toThrow(/invalid label name/);
    const c = m.counter('ok_total', 'x', ['a']);
    expect(() => m.gauge('ok_total', 'again')).toThrow(/already registered/);
    m.histogram('h', 'x');
    expect(() => m.counter('h_count', 'clashes with the histogram')).toThrow(/already registered/);
    expect(() => c.inc({ b: '1' })).toThrow(/unknown label "b"/);
    expect(() => c.inc({})).toThrow(/label "a" is missing/);
    expect(() => c.inc({ a: 'x' }, -1)).toThrow(/cannot decrease/);
    expect(() => m.histogram('h2', 'x', [1, 0.5])).toThrow(/increasing order/);
    expect(() => m.histogram('h3', 'x', [1], ['le'])).toThrow(/reserved/);
  });
});

describe('controllerMetrics', () => {
  it('uses client-go workqueue names (label name) and rs_reconcile_* for the rest', async () => {
    const m = new Metrics();
    const cm = controllerMetrics(m);
    cm.queueDepth.set({ name: 'replicaset' }, 3);
    cm.apiRequests.inc({ verb: 'create', resource: 'pods', code: 201 });
    cm.leader.set(1);
    cm.syncDuration.observe(0.012);
    const text = await m.render();
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((x) => `${x[1]} ${x[2]}`);
    // vectors without series are not exposed yet; label-less metrics always are
    expect(types).toEqual([
      'rs_reconcile_api_requests_total counter',
      'rs_reconcile_expectations_pending gauge',
      'rs_reconcile_leader gauge',
      'rs_reconcile_sync_duration_seconds histogram',
      'workqueue_depth gauge',
    ]);
    expect(text).toContain('workqueue_depth{name="replicaset"} 3\n');
    expect(text).toContain('rs_reconcile_api_requests_total{verb="create",resource="pods",code="201"} 1\n');
    expect(text).toContain('rs_reconcile_sync_duration_seconds_bucket{le="0.025"} 1\n');
    expect(text).toContain('rs_reconcile_sync_duration_seconds_bucket{le="0.01"} 0\n');
    expect(WORKQUEUE_BUCKETS[0]).toBe(1e-8);
    expect(WORKQUEUE_BUCKETS).toHaveLength(12);
    expect(() => controllerMetrics(m)).toThrow(/already registered/);
  });

  it('bucket bounds print as kube-controller-manager prints them: le last, Go float text (1e-08, not 1e-8)', async () => {
    const m = new Metrics();
    const cm = controllerMetrics(m);
    cm.queueLatency.observe({ name: 'replicaset' }, 0.0004);
    const text = await m.render();
    const les = [...text.matchAll(/^workqueue_queue_duration_seconds_bucket\{name="replicaset",le="([^"]+)"\} (\d+)$/gm)].map((x) => `${x[1]} ${x[2]}`);
    // client-go's ExponentialBuckets(10e-9, 10, 12) in float64, as its /metrics shows them (the
    // 1e-05 and 1e-04 bounds are 9.999999999999999e-06 and 9.999999999999999e-05 there too):
    // the same text, so a sum by (le) over both controllers adds up
    expect(les).toEqual([
      '1e-08 0',
      '1e-07 0',
      '1e-06 0',
      '9.999999999999999e-06 0',
      '9.999999999999999e-05 0',
      '0.001 1',
      '0.01 1',
      '0.1 1',
      '1 1',
      '10 1',
      '100 1',
      '1000 1',
      '+Inf 1',
    ]);
    // exact decimal bounds print as Go prints them, where JavaScript would write 1e-8 and 1e-7
    const h = m.histogram('tiny_seconds', 'Tiny.', [1e-8, 1e-7, 0.00001, 5e-5, 0.5, 2e6], ['op']);
    h.observe({ op: 'x' }, 1);
    expect([...(await m.render()).matchAll(/^tiny_seconds_bucket\{op="x",le="([^"]+)"\}/gm)].map((x) => x[1])).toEqual([
      '1e-08',
      '1e-07',
      '1e-05',
      '5e-05',
      '0.5',
      '2e+06',
      '+Inf',
    ]);
  });

  it('workQueueMetricSink feeds the workqueue_* metrics from a real WorkQueue', async () => {
    const m = new Metrics();
    const cm = controllerMetrics(m);
    const clock = new FakeClock(0);
    const q = new WorkQueue<string>({ clock, name: 'replicaset', onMetric: workQueueMetricSink(cm) });
    q.add('shop/web');
    q.add('shop/api');
    q.add('shop/web'); // already dirty: not an add
    clock.advance(250);
    const got = await q.get();
    expect(got.shutdown).toBe(false);
    clock.advance(1500);
    q.done((got as { item: string }).item);
    q.addRateLimited('shop/web');
    const l = { name: 'replicaset' };
    expect(await cm.adds.get(l)).toBe(2);
    expect(await cm.retries.get(l)).toBe(1);
    expect(await cm.queueDepth.get(l)).toBe(1);
    expect(await cm.queueLatency.get(l)).toMatchObject({ count: 1, sum: 0.25 });
    expect(await cm.workDuration.get(l)).toMatchObject({ count: 1, sum: 1.5 });
    const text = await m.render();
    expect(text).toContain('workqueue_adds_total{name="replicaset"} 2\n');
    expect(text).toContain('workqueue_queue_duration_seconds_bucket{name="replicaset",le="0.1"} 0\n');
    expect(text).toContain('workqueue_queue_duration_seconds_bucket{name="replicaset",le="1"} 1\n');
    q.shutDown();
  });
});

describe('parseBindAddress', () => {
  it('reads host:port forms, and 0 as disabled', () => {
    expect(parseBindAddress(':8080')).toEqual({ host: undefined, port: 8080 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:9090')).toEqual({ host: '::1', port: 9090 });
    expect(parseBindAddress('localhost:10257')).toEqual({ host: 'localhost', port: 10257 });
    expect(parseBindAddress('9100')).toEqual({ host: undefined, port: 9100 });
    expect(parseBindAddress('0')).toBeNull();
    for (const bad of ['', 'x', ':99999', '1.2.3.4', 'a:b:1']) expect(() => parseBindAddress(bad), bad).toThrow(UserError);
  });
});

describe('serveMetrics', () => {
  let srv: MetricsServer | null = null;
  afterEach(async () => {
    await srv?.close();
    srv = null;
  });

  function get(port: number, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string; allow?: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body, allow: res.headers.allow }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('serves /metrics, /healthz and /readyz over HTTP', async () => {
    const m = new Metrics();
    const c = m.counter('scrapes_total', 'Scrapes.');
    let ready = false;
    srv = await serveMetrics(m, '127.0.0.1:0', { healthz: () => true, readyz: () => ready });
    expect(srv.address).toBe('127.0.0.1');
    expect(srv.port).toBeGreaterThan(0);
    c.inc(4);
    const scrape = await get(srv.port, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.type).toBe(METRICS_CONTENT_TYPE);
    expect(scrape.body).toBe('# HELP scrapes_total Scrapes.\n# TYPE scrapes_total counter\nscrapes_total 4\n');
    expect(await get(srv.port, '/healthz')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(srv.port, '/readyz')).toMatchObject({ status: 500, body: 'readyz check failed' });
    ready = true;
    expect(await get(srv.port, '/readyz?verbose')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(srv.port, '/nope')).toMatchObject({ status: 404 });
    expect(await get(srv.port, '/metrics', 'POST')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    expect(await get(srv.port, '/metrics', 'HEAD')).toMatchObject({ status: 200, body: '' });
  });

  it('a throwing health check answers 500 with its reason', async () => {
    srv = await serveMetrics(new Metrics(), '127.0.0.1:0', {
      healthz: () => {
        throw new Error('informers not synced');
      },
      readyz: () => true,
    });
    expect(await get(srv.port, '/healthz')).toMatchObject({ status: 500, body: 'healthz check failed: informers not synced' });
  });

  it('"0" disables serving; a port in use is a UserError; close is idempotent', async () => {
    const off = await serveMetrics(new Metrics(), '0', { healthz: () => true, readyz: () => true });
    expect(off).toMatchObject({ address: '', port: 0 });
    await off.close();
    srv = await serveMetrics(new Metrics(), '127.0.0.1:0', { healthz: () => true, readyz: () => true });
    await expect(serveMetrics(new Metrics(), `127.0.0.1:${srv.port}`, { healthz: () => true, readyz: () => true })).rejects.toThrow(UserError);
    const port = srv.port;
    await srv.close();
    await srv.close();
    srv = null;
    await expect(get(port, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});
