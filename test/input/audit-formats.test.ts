// Every audit export is recognised with no flag and read to the same Events as the kube-apiserver
// log it was made from: the demo log as the clouds export it (../shared/history/demo/cloud, when
// it is there) and the self-made fixtures (test/input/fixtures/audit, always).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuditLogs, type AuditReadOptions } from '../../src/input/audit-log.js';
import { AUDIT_FORMATS, type AuditFormat } from '../../src/input/audit/formats/index.js';
import { AuditCoverage } from '../../src/input/audit/coverage.js';
import type { AuditLine } from '../../src/input/audit/sources.js';
import { essentials, type Ev } from './audit-encoders.js';
import { itUnless, skipAllIf, withoutShared } from '../skips.js';

const DEMO = join(import.meta.dirname, '../../../shared/history/demo');
const FIX = join(import.meta.dirname, 'fixtures/audit');

async function read(inputs: string[], opts: AuditReadOptions = {}): Promise<{ lines: AuditLine[]; coverage: AuditCoverage }> {
  const coverage = opts.coverage ?? new AuditCoverage();
  const lines: AuditLine[] = [];
  for await (const l of readAuditLogs(inputs, { ...opts, coverage })) lines.push(l);
  return { lines, coverage };
}

const jsonl = (file: string): Ev[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

const GKE = new Set<AuditFormat>(['gke-cloud-logging', 'gke-bigquery']);

/** The names a contract's `"format":` line lists (docs/history-format.md, ../shared/history-format.md). */
function contractFormats(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('"format": "');
  return [...text.slice(at, text.indexOf(',\n', at)).matchAll(/"([a-z0-9-]+)"/g)].map((m) => m[1]).filter((n) => n !== 'format');
}

describe('AUDIT_FORMATS', () => {
  const names = [...AUDIT_FORMATS, 'events', 'recording'];
  it("are the contract's coverage.format names, but events and recording, in its order", () => {
    expect(contractFormats(join(import.meta.dirname, '../../docs/history-format.md'))).toEqual(names);
    expect(new Set(AUDIT_FORMATS).size).toBe(AUDIT_FORMATS.length);
  });
  itUnless(withoutShared(join(DEMO, '../../history-format.md')))("are the shared contract's names", () => {
    expect(contractFormats(join(DEMO, '../../history-format.md'))).toEqual(names);
  });
});

const CASES: [file: string, format: AuditFormat, duplicates: number][] = [
  ['gke-gcloud.json', 'gke-cloud-logging', 0],
  ['gke-gcs.json', 'gke-cloud-logging', 2],
  ['gke-bigquery.json', 'gke-bigquery', 0],
  ['eks-filter.json', 'eks-cloudwatch', 0],
  ['eks-s3.gz', 'eks-s3-export', 0],
  ['eks-insights.json', 'eks-logs-insights', 0],
  ['eks-insights-console.json', 'eks-logs-insights', 0],
  ['eks-insights.csv', 'eks-logs-insights', 0],
  ['aks-storage.json', 'aks-storage', 9],
  ['aks-eventhub.json', 'aks-event-hub', 0],
  ['aks-la.json', 'aks-log-analytics', 0],
  ['aks-azure-diagnostics.json', 'aks-log-analytics', 0],
  ['ocp-node-logs.txt', 'openshift-node-logs', 0],
  ['ocp-must-gather', 'openshift-must-gather', 0],
  ['kube-apiserver.jsonl', 'kube-apiserver', 0],
];

describe('the self-made fixtures of every format (test/input/fixtures/audit)', () => {
  const base = jsonl(join(FIX, 'kube-apiserver.jsonl'));

  it.each(CASES)('%s is read as %s, to the same events in time order', async (file, format, duplicates) => {
    const { lines, coverage } = await read([join(FIX, file)]);
    const gke = GKE.has(format);
    expect(coverage.formats).toEqual([format]);
    expect(lines.map((l) => essentials(l.value as Ev, gke))).toEqual(base.map((e) => essentials(e, gke)));
    expect(lines.every((l) => l.format === format && !l.truncated)).toBe(true);
    expect(coverage.duplicates).toBe(duplicates);
    expect(coverage.truncated).toBe(0);
    expect(coverage.cutOff).toEqual([]);
    for (const l of lines) expect((l.value as Ev).kind).toBe('Event');
  });

  it('reads the whole directory at once: every format, each event once, the README left out', async () => {
    const { lines, coverage } = await read([FIX]);
    expect(lines.map((l) => (l.value as Ev).auditID)).toEqual(base.map((e) => e.auditID));
    expect(new Set(coverage.formats)).toEqual(new Set(CASES.map((c) => c[1])));
    expect(coverage.files.map((f) => f.file).some((f) => f.endsWith('README.md') || f.endsWith('.audit_logs_listing') || f.endsWith('timestamp'))).toBe(false);
    expect(coverage.duplicates).toBe(CASES.length * base.length - base.length + 2 + 9 + 0);
  });

  it('GKE: the status code from the gRPC code, the facts it cannot carry, the subresource of pods.status.patch', async () => {
    const { lines, coverage } = await read([join(FIX, 'gke-gcloud.json')]);
    const conflict = lines.find((l) => (l.value as Ev).auditID.startsWith('00b5019e'))!.value as Ev;
    expect(conflict.responseStatus.code).toBe(409);
    const patch = lines.find((l) => (l.value as Ev).auditID.startsWith('ef682a56'))!.value as Ev;
    expect(patch.objectRef).toMatchObject({ resource: 'pods', subresource: 'status', name: 'api-blpkp', namespace: 'demo' });
    expect(patch.objectRef.apiGroup).toBeUndefined();
    expect(patch.requestURI).toBe('/api/v1/namespaces/demo/pods/api-blpkp/status');
    expect(patch.requestObject['@type']).toBeUndefined();
    expect(patch.level).toBe('RequestResponse');
    expect(patch.stage).toBe('ResponseComplete');
    expect(patch.annotations['authorization.k8s.io/decision']).toBe('allow');
    const event = lines.find((l) => (l.value as Ev).objectRef.resource === 'events')!.value as Ev;
    expect(event.level).toBe('Metadata');
    expect(coverage.missing.some((m) => /gRPC/.test(m))).toBe(true);
    expect(coverage.missing.some((m) => /Data Access/.test(m))).toBe(false); // status writes are there
  });

  it('AKS Log Analytics rows have no impersonated user: said in missing', async () => {
    const { coverage } = await read([join(FIX, 'aks-la.json')]);
    expect(coverage.missing).toEqual([expect.stringMatching(/^impersonated users/)]);
  });
});

describe('the demo log as managed clusters export it (../shared/history/demo/cloud)', () => {
  skipAllIf(withoutShared(DEMO));
  const base = existsSync(DEMO) ? jsonl(join(DEMO, 'audit.jsonl')) : [];
  const DEMO_CASES: [file: string, format: AuditFormat, duplicates: number][] = [
    ['gke-gcloud.json', 'gke-cloud-logging', 0],
    ['gke-gcs.json', 'gke-cloud-logging', 4],
    ['gke-bigquery.json', 'gke-bigquery', 0],
    ['eks-filter.json', 'eks-cloudwatch', 0],
    ['eks-s3.gz', 'eks-s3-export', 0],
    ['aks-storage.json', 'aks-storage', 36],
    ['aks-eventhub.json', 'aks-event-hub', 0],
    ['aks-la.json', 'aks-log-analytics', 0],
    ['ocp-node-logs.txt', 'openshift-node-logs', 0],
    ['ocp-must-gather', 'openshift-must-gather', 0],
  ];

  it.each(DEMO_CASES)('%s is read as %s, to the same events as audit.jsonl', async (file, format, duplicates) => {
    const { lines, coverage } = await read([join(DEMO, 'cloud', file)]);
    const gke = GKE.has(format);
    expect(coverage.formats).toEqual([format]);
    expect(lines.map((l) => essentials(l.value as Ev, gke))).toEqual(base.map((e) => essentials(e, gke)));
    expect(coverage.duplicates).toBe(duplicates);
    expect(coverage.truncated).toBe(0);
  });

  it('gke-gcloud-default.json (Data Access off): no status writes, and missing says why', async () => {
    const { lines, coverage } = await read([join(DEMO, 'cloud', 'gke-gcloud-default.json')]);
    const expected = base.filter((e) => e.objectRef.subresource !== 'status');
    expect(lines.map((l) => essentials(l.value as Ev, true))).toEqual(expected.map((e) => essentials(e, true)));
    expect(coverage.missing[0]).toBe('status writes (pods/status, replicasets/status): GKE logs them in Data Access audit logs, which are off by default');
  });

  it('eks-truncated.json: the cut messages come out without bodies, marked, their object recovered', async () => {
    const { lines, coverage } = await read([join(DEMO, 'cloud', 'eks-truncated.json')]);
    expect(lines).toHaveLength(base.length);
    expect(coverage.truncated).toBe(2);
    expect(coverage.unrecovered).toBe(0);
    lines.forEach((l, i) => {
      const e = l.value as Ev;
      if (!l.truncated) {
        expect(essentials(e)).toEqual(essentials(base[i]));
        return;
      }
      expect(e.auditID).toBe(base[i].auditID);
      expect(e.level).toBe('Metadata');
      expect(e.requestObject).toBeUndefined();
      expect(e.responseObject).toBeUndefined();
      expect(e.annotations['audit.k8s.io/truncated']).toBe('true');
      expect(e.objectRef).toMatchObject({ resource: 'replicationcontrollers', namespace: 'demo', name: 'api', subresource: 'status' });
      expect(e.verb).toBe('update');
      expect(e.user.username).toBe(base[i].user.username);
      expect(e.userAgent).toBe(base[i].userAgent);
      // the times are lost with the cut: CloudWatch's own (ms) stand in
      expect(e.stageTimestamp.slice(0, 23)).toBe(base[i].stageTimestamp.slice(0, 23));
    });
  });

  it('every export of the demo at once: 36 events, each once, whole copies preferred to cut ones', async () => {
    const { lines, coverage } = await read([join(DEMO, 'cloud'), join(DEMO, 'audit.jsonl')]);
    expect(lines.map((l) => (l.value as Ev).auditID)).toEqual(base.map((e) => e.auditID));
    expect(coverage.truncated).toBe(0);
    expect(lines.every((l) => !l.truncated)).toBe(true);
    expect(coverage.formats.length).toBe(10); // every format but Logs Insights, which the demo has no file of
  });
});
