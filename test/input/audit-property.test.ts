// For random sets of events, every export's rendering (test/input/audit-encoders.ts) reads back to
// the same events, in time order.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readAuditLogs } from '../../src/input/audit-log.js';
import { AuditCoverage } from '../../src/input/audit/coverage.js';
import type { AuditFormat } from '../../src/input/audit/formats/index.js';
import { encoders, essentials, writeMustGather, type EncoderName, type Ev } from './audit-encoders.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-audit-prop-'));
let seq = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RESOURCES: [resource: string, group: string, subresources: string[]][] = [
  ['pods', '', ['status', 'binding', 'eviction']],
  ['replicasets', 'apps', ['status', 'scale']],
  ['replicationcontrollers', '', ['status', 'scale']],
  ['deployments', 'apps', ['status', 'scale']],
  ['events', '', []],
  ['leases', 'coordination.k8s.io', []],
];
const dnsName = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9](\.[a-z0-9]{1,8})?$/);
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '/', ',', ':', '{', '}', '\n', 'é', '日', '🚀', '&', '<'), maxLength: 12 });
const body = fc.dictionary(
  fc.stringMatching(/^[a-z][a-zA-Z]{0,6}$/),
  fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 })),
  { maxKeys: 4 },
);

const eventArb = fc
  .record({
    id: fc.uuid(),
    us: fc.integer({ min: 0, max: 3_600_000_000 }),
    latency: fc.integer({ min: 0, max: 2_000_000 }),
    verb: fc.constantFrom('create', 'update', 'patch', 'delete', 'get'),
    res: fc.constantFrom(...RESOURCES),
    sub: fc.nat(3),
    namespace: dnsName,
    name: dnsName,
    user: fc.oneof(fc.constantFrom('admin', 'system:serviceaccount:kube-system:replicaset-controller', 'system:node:n1'), text),
    // an empty User-Agent and none are one empty column in Log Analytics
    agent: fc.option(
      text.filter((s) => s !== ''),
      { nil: undefined },
    ),
    fail: fc.constantFrom(0, 0, 0, 403, 404, 409),
    request: fc.option(body, { nil: undefined }),
    response: fc.option(body, { nil: undefined }),
    annotations: fc.option(fc.dictionary(fc.constantFrom('authorization.k8s.io/decision', 'authorization.k8s.io/reason', 'x/y'), text, { maxKeys: 2 }), {
      nil: undefined,
    }),
  })
  .map((r): Ev => {
    const [resource, group, subs] = r.res;
    const subresource = r.sub < subs.length && r.verb !== 'create' ? subs[r.sub] : undefined;
    const base = Date.parse('2026-11-25T00:00:00Z') * 1000;
    const iso = (us: number) =>
      new Date(Math.floor(us / 1000)).toISOString().replace(/\.(\d{3})Z$/, (_m, ms) => `.${ms}${String(us % 1000).padStart(3, '0')}Z`);
    const objectRef: Ev = {
      resource,
      namespace: r.namespace,
      name: r.name,
      ...(group ? { apiGroup: group } : {}),
      apiVersion: 'v1',
      ...(subresource ? { subresource } : {}),
    };
    const path = `${group ? `/apis/${group}/v1` : '/api/v1'}/namespaces/${r.namespace}/${resource}${r.verb === 'create' ? '' : `/${r.name}`}${subresource ? `/${subresource}` : ''}`;
    const e: Ev = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: r.response ? 'RequestResponse' : r.request ? 'Request' : 'Metadata',
      auditID: r.id,
      stage: 'ResponseComplete',
      requestURI: path,
      verb: r.verb,
      user: { username: r.user, groups: ['system:authenticated'] },
      sourceIPs: ['10.0.0.1'],
      ...(r.agent !== undefined ? { userAgent: r.agent } : {}),
      objectRef,
      responseStatus: { metadata: {}, code: r.fail || (r.verb === 'create' ? 201 : 200) },
      ...(r.request ? { requestObject: r.request } : {}),
      ...(r.response ? { responseObject: r.response } : {}),
      requestReceivedTimestamp: iso(base + r.us),
      stageTimestamp: iso(base + r.us + r.latency),
      ...(r.annotations && Object.keys(r.annotations).length > 0 ? { annotations: r.annotations } : {}),
    };
    return e;
  });

// distinct IDs and distinct times: one right order
const eventsArb = fc
  .uniqueArray(eventArb, { minLength: 1, maxLength: 12, selector: (e) => e.auditID })
  .filter((es) => new Set(es.map((e) => e.stageTimestamp)).size === es.length);

const FORMATS: [EncoderName, AuditFormat][] = [
  ['kubeLines', 'kube-apiserver'],
  ['gcloud', 'gke-cloud-logging'],
  ['gcloudOneLine', 'gke-cloud-logging'],
  ['gcs', 'gke-cloud-logging'],
  ['bigquery', 'gke-bigquery'],
  ['cloudwatch', 'eks-cloudwatch'],
  ['s3', 'eks-s3-export'],
  ['insights', 'eks-logs-insights'],
  ['insightsConsole', 'eks-logs-insights'],
  ['insightsCsv', 'eks-logs-insights'],
  ['aksStorage', 'aks-storage'],
  ['eventHub', 'aks-event-hub'],
  ['logAnalytics', 'aks-log-analytics'],
  ['azureDiagnostics', 'aks-log-analytics'],
  ['nodeLogs', 'openshift-node-logs'],
];

const byTime = (es: Ev[]) => [...es].sort((a, b) => (a.stageTimestamp < b.stageTimestamp ? -1 : 1));

async function readBack(path: string, chunkBytes?: number): Promise<{ events: Ev[]; formats: AuditFormat[] }> {
  const coverage = new AuditCoverage();
  const events: Ev[] = [];
  for await (const l of readAuditLogs([path], { coverage, chunkBytes })) events.push(l.value as Ev);
  return { events, formats: coverage.formats };
}

describe('every format reads back to the events it renders', () => {
  it.each(FORMATS)('%s (%s), read a MiB or a few bytes at a time', async (encoder, format) => {
    await fc.assert(
      fc.asyncProperty(eventsArb, fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }), async (events, chunkBytes) => {
        // kube-apiserver writes in the order it answers: the others come in any order
        const input = encoder === 'kubeLines' ? byTime(events) : events;
        const path = join(dir, `${++seq}-${encoder}`);
        writeFileSync(path, encoders[encoder](input));
        const got = await readBack(path, chunkBytes);
        const gke = format === 'gke-cloud-logging' || format === 'gke-bigquery';
        expect(got.formats).toEqual([format]);
        expect(got.events.map((e) => essentials(e, gke))).toEqual(byTime(events).map((e) => essentials(e, gke)));
      }),
      { numRuns: 25 },
    );
  });

  it('must-gather', async () => {
    await fc.assert(
      fc.asyncProperty(eventsArb, async (events) => {
        const root = writeMustGather(join(dir, `${++seq}-mg`), byTime(events));
        const got = await readBack(root);
        expect(got.events.map((e) => essentials(e))).toEqual(byTime(events).map((e) => essentials(e)));
      }),
      { numRuns: 15 },
    );
  });
});

describe('the filter reads the resource of a request URI as kube-apiserver does', () => {
  it('on the raw bytes, as on the string (resourceOfPath)', async () => {
    const { eventOutside, resourceOfPath } = await import('../../src/input/audit/event.js');
    const { HISTORY_WRITES } = await import('../../src/input/audit/filter.js');
    const seg = fc.constantFrom('api', 'apis', 'v1', 'apps', 'namespaces', 'watch', 'status', 'finalize', 'pods', 'replicasets', 'events', 'x', '');
    fc.assert(
      fc.property(
        fc.constantFrom('/api/v1', '/apis/apps/v1', '/api', ''),
        fc.array(seg, { maxLength: 6 }),
        fc.option(fc.constantFrom('?a=b', '?watch=1&x=/api/v1/pods'), { nil: '' }),
        (prefix, segs, query) => {
          const path = `${prefix}/${segs.join('/')}`;
          const text = JSON.stringify({
            kind: 'Event',
            apiVersion: 'audit.k8s.io/v1',
            level: 'Metadata',
            auditID: 'a',
            stage: 'ResponseComplete',
            requestURI: path + query,
            verb: 'create',
          });
          const b = Buffer.from(text);
          const r = resourceOfPath(path);
          expect(eventOutside(b, 0, b.length, HISTORY_WRITES)).toBe(r !== null && !HISTORY_WRITES.resources.has(r));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('an Event inside a JSON string (CloudWatch, AKS) is skipped as the Event itself would be', () => {
  it('escapedEventOutside on the escaped text answers as eventOutside on the text', async () => {
    const { escapedEventOutside, eventOutside } = await import('../../src/input/audit/event.js');
    const { HISTORY_WRITES } = await import('../../src/input/audit/filter.js');
    // values that hold what the early stop looks for (the verb's key) and what ends it
    const tricky = fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', ':', 'verb', '","verb":"', '\u00e9', '\u65e5', '\n', '/', '?'), maxLength: 8 });
    const member = fc.tuple(fc.constantFrom('user', 'objectRef', 'verb', 'stage', 'requestObject', 'x'), fc.oneof(tricky, fc.integer()));
    fc.assert(
      fc.property(
        fc.constantFrom('ResponseComplete', 'RequestReceived', 'Panic'),
        fc.constantFrom('create', 'update', 'patch', 'delete', 'get', 'watch', 'cre"ate', 'pa\\tch', ''),
        fc.constantFrom('/api/v1/namespaces/a/pods', '/apis/apps/v1/namespaces/a/replicasets/x/status', '/api/v1/events', '/apis/apps/v1/deployments'),
        fc.option(tricky, { nil: undefined }),
        fc.array(member, { maxLength: 4 }),
        fc.constantFrom('kube-apiserver', 'verb-first', 'no-stage'),
        (stage, verb, path, query, rest, layout) => {
          const uri = query === undefined ? path : `${path}?q=${query}`;
          const head: [string, unknown][] =
            layout === 'verb-first'
              ? [
                  ['verb', verb],
                  ['requestURI', uri],
                  ['stage', stage],
                ]
              : layout === 'no-stage'
                ? [
                    ['requestURI', uri],
                    ['verb', verb],
                  ]
                : [
                    ['stage', stage],
                    ['requestURI', uri],
                    ['verb', verb],
                  ];
          const members: [string, unknown][] = [
            ['kind', 'Event'],
            ['apiVersion', 'audit.k8s.io/v1'],
            ['level', 'Request'],
            ['auditID', 'a-1'],
            ...head,
            ...rest,
          ];
          // JSON.stringify of an object would fold a repeated key; the text keeps every member in order
          const text = `{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
          const plain = Buffer.from(text);
          const escaped = Buffer.from(JSON.stringify(text));
          expect(escapedEventOutside(escaped, 1, escaped.length, HISTORY_WRITES)).toBe(eventOutside(plain, 0, plain.length, HISTORY_WRITES));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
