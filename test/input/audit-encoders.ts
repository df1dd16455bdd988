// Test helpers for the audit reader: audit.k8s.io/v1 Events rendered in each export's shape (as
// reference/cloud-audit-formats.md describes them), and what of an Event must survive the trip.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export type Ev = Record<string, any>;

/** A pod update written through to the end (ResponseComplete, with both bodies), at `at`. */
export const podUpdateEvent = (at: string, name: string, extra: Ev = {}): Ev => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'RequestResponse',
  auditID: `id-${name}`,
  stage: 'ResponseComplete',
  requestURI: `/api/v1/namespaces/ns/pods/${name}`,
  verb: 'update',
  user: { username: 'u' },
  objectRef: { resource: 'pods', namespace: 'ns', name, apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 200 },
  requestObject: { kind: 'Pod', metadata: { name } },
  responseObject: { kind: 'Pod', metadata: { name } },
  requestReceivedTimestamp: at,
  stageTimestamp: at,
  ...extra,
});

const GRPC_OF_HTTP: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 10, 422: 3, 429: 8, 500: 13, 503: 14, 504: 4 };

const sortKeys = (o: Ev): Ev =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
const group = (e: Ev) => (e.objectRef?.apiGroup ? e.objectRef.apiGroup : 'core');

/** GKE's methodName and resourceName of an Event (a create names the object the server made). */
export function gkeNames(e: Ev): { method: string; resourceName: string } {
  const ref = e.objectRef ?? {};
  const v = ref.apiVersion ?? 'v1';
  const name = ref.name ?? e.responseObject?.metadata?.name;
  return {
    method: `io.k8s.${group(e)}.${v}.${ref.resource}${ref.subresource ? `.${ref.subresource}` : ''}.${e.verb}`,
    resourceName: `${group(e)}/${v}/${ref.namespace !== undefined ? `namespaces/${ref.namespace}/` : ''}${ref.resource}${name ? `/${name}` : ''}${ref.subresource ? `/${ref.subresource}` : ''}`,
  };
}

export function logEntryOf(e: Ev): Ev {
  const { method, resourceName } = gkeNames(e);
  const code = e.responseStatus?.code ?? 200;
  const type = (o: Ev | undefined) => (o?.kind ? `${group(e)}.k8s.io/${e.objectRef?.apiVersion ?? 'v1'}.${o.kind}` : 'meta.k8s.io/__internal.Unknown');
  const payload: Ev = {
    '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
    authenticationInfo: { principalEmail: e.user?.username },
    authorizationInfo: [{ granted: true, permission: method, resource: resourceName }],
    methodName: method,
    requestMetadata: { callerIp: e.sourceIPs?.[0] ?? '127.0.0.1', callerSuppliedUserAgent: e.userAgent },
    resourceName,
    serviceName: 'k8s.io',
    status: code < 300 ? {} : { code: GRPC_OF_HTTP[code] ?? 2, message: e.responseStatus?.message ?? 'failed' },
  };
  if (e.requestObject !== undefined) payload.request = { ...e.requestObject, '@type': type(e.requestObject) };
  if (e.responseObject !== undefined) payload.response = { ...e.responseObject, '@type': type(e.responseObject) };
  const entry: Ev = {
    insertId: e.auditID,
    logName: `projects/acme-prod/logs/cloudaudit.googleapis.com%2F${e.objectRef?.subresource === 'status' ? 'data_access' : 'activity'}`,
    operation: { first: true, id: e.auditID, last: true, producer: 'k8s.io' },
    protoPayload: sortKeys(payload),
    receiveTimestamp: e.stageTimestamp,
    resource: { labels: { cluster_name: 'prod-1', location: 'europe-west1', project_id: 'acme-prod' }, type: 'k8s_cluster' },
    severity: code < 300 ? 'NOTICE' : 'ERROR',
    timestamp: e.stageTimestamp,
  };
  if (e.annotations) entry.labels = e.annotations;
  return sortKeys(entry);
}

const byTime = (events: Ev[]) => [...events].sort((a, b) => (a.stageTimestamp < b.stageTimestamp ? -1 : a.stageTimestamp > b.stageTimestamp ? 1 : 0));
const bqTime = (t: string) => {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(t)!;
  return `${m[1]} ${m[2]}.${(m[3] ?? '').padEnd(6, '0').slice(0, 6)} UTC`;
};
/** JSON like Python's json.dumps: `", "` and `": "` separators (az, bq). */
const pyJson = (v: unknown): string => JSON.stringify(v).replace(/("(?:[^"\\]|\\.)*")|([,:])/g, (_m, s, p) => s ?? `${p} `);

export const encoders = {
  /** kube-apiserver --audit-log-format=json */
  kubeLines: (events: Ev[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n',
  /** `gcloud logging read --format=json`: one pretty array, newest first */
  gcloud: (events: Ev[]) => JSON.stringify(byTime(events).reverse().map(logEntryOf), null, 2) + '\n',
  /** the same on one line (a compact tool's output) */
  gcloudOneLine: (events: Ev[]) => JSON.stringify(byTime(events).reverse().map(logEntryOf)),
  /** a Cloud Storage sink's hourly file: LogEntry JSON lines */
  gcs: (events: Ev[]) => events.map((e) => JSON.stringify(logEntryOf(e))).join('\n') + '\n',
  /** `bq query --format=json`: the whole array on one line, bodies as JSON strings */
  bigquery: (events: Ev[]) =>
    '[' +
    events
      .map((e) => {
        const l = logEntryOf(e);
        const p = l.protoPayload;
        const row: Ev = {
          logName: l.logName,
          timestamp: bqTime(e.stageTimestamp),
          receiveTimestamp: bqTime(e.stageTimestamp),
          insertId: l.insertId,
          resource: l.resource,
          severity: l.severity,
          protopayload_auditlog: {
            serviceName: 'k8s.io',
            methodName: p.methodName,
            resourceName: p.resourceName,
            authenticationInfo: p.authenticationInfo,
            requestMetadata: p.requestMetadata,
            status: p.status.code === undefined ? { code: null, message: null } : p.status,
            ...(p.request ? { requestJson: pyJson(p.request) } : {}),
            ...(p.response ? { responseJson: pyJson(p.response) } : {}),
          },
        };
        if (e.annotations) row.labels = e.annotations;
        return pyJson(row);
      })
      .join(', ') +
    ']\n',
  /** `aws logs filter-log-events`: one pretty document, events grouped by stream (two API servers) */
  cloudwatch: (events: Ev[]) => {
    const streams = ['kube-apiserver-audit-0c5e1d8f2a9b4e6f8a1d3c5b7e9f0a2c', 'kube-apiserver-audit-71976ca11bea5d3083393f7d32dab75b'];
    const ev = (e: Ev, i: number) => ({
      logStreamName: streams[i % 2],
      timestamp: Date.parse(e.stageTimestamp),
      message: JSON.stringify(e),
      ingestionTime: Date.parse(e.stageTimestamp) + 1500,
      eventId: String(3847123456789 + i),
    });
    const all = events.map(ev);
    return (
      JSON.stringify(
        { events: [...all.filter((_, i) => i % 2 === 0), ...all.filter((_, i) => i % 2 === 1)], searchedLogStreams: [], nextToken: 'Bxkq6kVGFtq2y' },
        null,
        4,
      ) + '\n'
    );
  },
  /** a CloudWatch export task to S3: gzip of "<ISO ms> <event>" lines, in no particular order */
  s3: (events: Ev[]) => {
    const lines = events.map((e) => `${new Date(Date.parse(e.stageTimestamp)).toISOString()} ${JSON.stringify(e)}`);
    const shuffled = lines
      .map((l, i) => [((i * 7919) % 101) + i / 1e6, l] as const)
      .sort((a, b) => a[0] - b[0])
      .map((x) => x[1]);
    return gzipSync(shuffled.join('\n') + '\n');
  },
  /** Logs Insights get-query-results */
  insights: (events: Ev[]) =>
    JSON.stringify(
      {
        results: byTime(events)
          .reverse()
          .map((e) => [
            { field: '@timestamp', value: new Date(Date.parse(e.stageTimestamp)).toISOString().replace('T', ' ').replace('Z', '') },
            { field: '@message', value: JSON.stringify(e) },
            { field: '@ptr', value: 'CmAKJgoi' },
          ]),
        statistics: { recordsMatched: events.length, recordsScanned: events.length, bytesScanned: 1 },
        status: 'Complete',
      },
      null,
      4,
    ),
  /** the Logs Insights console's JSON download */
  insightsConsole: (events: Ev[]) =>
    JSON.stringify(
      events.map((e) => ({
        '@timestamp': new Date(Date.parse(e.stageTimestamp)).toISOString().replace('T', ' ').replace('Z', ''),
        '@message': JSON.stringify(e),
      })),
      null,
      2,
    ),
  /** the Logs Insights console's CSV */
  insightsCsv: (events: Ev[]) =>
    '@logStream,@timestamp,@message\n' +
    events
      .map(
        (e) =>
          `kube-apiserver-audit-71976ca11bea5d3083393f7d32dab75b,${new Date(Date.parse(e.stageTimestamp)).toISOString().replace('T', ' ').replace('Z', '')},"${JSON.stringify(e).replace(/"/g, '""')}"`,
      )
      .join('\n') +
    '\n',
  /** AKS diagnostic setting to a storage account (PT1H.json): `{ ` lines, `/` escaped, both categories (every event twice) */
  aksStorage: (events: Ev[], both = true) =>
    events
      .flatMap((e) => (both ? ['kube-audit', 'kube-audit-admin'] : ['kube-audit-admin']).map((category) => ({ category, e })))
      .map(({ category, e }) =>
        `{ "category": "${category}", "operationName": "Microsoft.ContainerService/managedClusters/diagnosticLogs/Read", "properties": ${JSON.stringify({ pod: 'kube-apiserver-6797f4455b-jdgtt', containerID: 'c2120cb7d9e94024', log: JSON.stringify(e) + '\n', stream: 'stdout' })}, "resourceId": "/SUBSCRIPTIONS/0B62A232/RESOURCEGROUPS/RG-PROD/PROVIDERS/MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS-PROD", "time": "${e.stageTimestamp}"}`.replace(
          /\//g,
          '\\/',
        ),
      )
      .join('\n') + '\n',
  /** AKS diagnostic setting to Event Hub */
  eventHub: (events: Ev[]) =>
    pyJson({
      records: events.map((e) => ({
        category: 'kube-audit-admin',
        operationName: 'Microsoft.ContainerService/managedClusters/diagnosticLogs/Read',
        properties: { pod: 'kube-apiserver-6797f4455b-jdgtt', log: JSON.stringify(e) + '\n', stream: 'stdout' },
        time: e.stageTimestamp,
      })),
    }) + '\n',
  /** `az monitor log-analytics query` on AKSAuditAdmin: flat rows, every value a string */
  logAnalytics: (events: Ev[]) =>
    JSON.stringify(
      events.map((e) => {
        const j = (v: unknown) => (v === undefined ? '' : pyJson(v));
        return {
          TenantId: '4f3c0000-0000-0000-0000-00000000aaaa',
          TimeGenerated: e.stageTimestamp,
          Level: e.level,
          AuditId: e.auditID,
          Stage: e.stage,
          RequestUri: e.requestURI,
          Verb: e.verb,
          User: j(e.user),
          SourceIps: j(e.sourceIPs),
          UserAgent: e.userAgent ?? '',
          ObjectRef: j(e.objectRef),
          ResponseStatus: j(e.responseStatus),
          RequestObject: j(e.requestObject),
          ResponseObject: j(e.responseObject),
          RequestReceivedTime: e.requestReceivedTimestamp,
          StageReceivedTime: e.stageTimestamp,
          Annotations: j(e.annotations),
          PodName: 'kube-apiserver-6797f4455b-jdgtt',
          Type: 'AKSAuditAdmin',
          _ResourceId: '/subscriptions/0b62a232/resourcegroups/rg-prod/providers/microsoft.containerservice/managedclusters/aks-prod',
          TableName: 'PrimaryResult',
        };
      }),
      null,
      2,
    ),
  /** the same in Azure diagnostics mode: AzureDiagnostics rows with the Event in log_s */
  azureDiagnostics: (events: Ev[]) =>
    JSON.stringify(
      events.map((e) => ({
        TimeGenerated: e.stageTimestamp,
        Category: 'kube-audit',
        log_s: JSON.stringify(e),
        pod_s: 'kube-apiserver-1',
        TableName: 'PrimaryResult',
      })),
      null,
      2,
    ),
  /** `oc adm node-logs --role=master --path=kube-apiserver/audit.log`: "<node> <event>", one node after the other */
  nodeLogs: (events: Ev[]) => {
    const nodes = ['ci-ln-m0wpfjb-f76d1-vnb5x-master-0', 'ci-ln-m0wpfjb-f76d1-vnb5x-master-1'];
    return nodes.flatMap((n, k) => events.filter((_, i) => i % 2 === k).map((e) => `${n} ${JSON.stringify(e)}`)).join('\n') + '\n';
  },
};

export type EncoderName = keyof typeof encoders;

/** An unpacked `oc adm must-gather -- /usr/bin/gather_audit_logs` under `dir` (two nodes, a listing file). */
export function writeMustGather(dir: string, events: Ev[]): string {
  const root = join(dir, 'must-gather.local.5512', 'quay-io-openshift-must-gather-sha256');
  const logs = join(root, 'audit_logs', 'kube-apiserver');
  mkdirSync(logs, { recursive: true });
  const nodes = ['master-0', 'master-1'];
  nodes.forEach((n, k) => {
    writeFileSync(
      join(logs, `${n}-audit.log.gz`),
      gzipSync(
        events
          .filter((_, i) => i % 2 === k)
          .map((e) => JSON.stringify(e))
          .join('\n') + '\n',
      ),
    );
  });
  writeFileSync(join(root, 'audit_logs', 'kube-apiserver.audit_logs_listing'), nodes.map((n) => `${n} audit.log`).join('\n') + '\n');
  writeFileSync(join(root, 'timestamp'), '2026-11-25 02:53:00.000000000 +0000 UTC m=+0.000000001\n');
  return join(dir, 'must-gather.local.5512');
}

/**
 * What of an Event every format keeps: who did what to which object, the answer, the bodies, the
 * times. GKE: the object's name on a create is the one the server gave, and the request's
 * received time is the entry's timestamp (the stage's).
 */
export function essentials(e: Ev, gke = false): Ev {
  const ref = e.objectRef ?? {};
  const name = ref.name ?? (gke && e.verb === 'create' && !ref.subresource ? e.responseObject?.metadata?.name : undefined);
  return {
    auditID: e.auditID,
    verb: e.verb,
    objectRef: {
      resource: ref.resource,
      namespace: ref.namespace,
      name,
      subresource: ref.subresource,
      apiGroup: ref.apiGroup || undefined,
      apiVersion: ref.apiVersion,
    },
    user: e.user?.username,
    userAgent: e.userAgent,
    code: e.responseStatus?.code,
    requestObject: e.requestObject,
    responseObject: e.responseObject,
    requestReceivedTimestamp: gke ? e.stageTimestamp : e.requestReceivedTimestamp,
    stageTimestamp: e.stageTimestamp,
  };
}
