// `history --print-query gke|bigquery|eks|aks`: the query that makes the cloud's log engine select
// what `history` reads (writes of pods, ReplicaSets, ReplicationControllers and Deployments, in one
// namespace or all, in a time window), with the one command that writes it to a file. Pure: no
// I/O, no clock; the caller turns --since/--until into epoch ms. docs/cloud-audit-logs.md says what
// each source can and cannot tell.
//
// Every value from the user is checked before it reaches a query (Kubernetes names only: lowercase
// letters, digits, '-' and '.'), and is still written through each language's own string escape;
// every query is passed to its command as one single-quoted shell word.

import { formatTime } from '../core/time.js';
import { UserError } from '../errors.js';

export const QUERY_CLOUDS = ['gke', 'bigquery', 'eks', 'aks'] as const;
export type QueryCloud = (typeof QUERY_CLOUDS)[number];

/** What `history` follows, as the command parsed it: rs/NAME, rc/NAME, deploy/NAME, pod/NAME, or NAME (either controller kind). */
interface QueryTarget {
  kind: 'ReplicaSet' | 'ReplicationController' | 'Deployment' | 'Pod' | null;
  name: string;
}

export interface CloudQueryOptions {
  cloud: QueryCloud;
  /** undefined: every namespace (-A). */
  namespace?: string;
  target?: QueryTarget;
  /** The window's bounds, ms since the epoch (inclusive). */
  sinceMs?: number;
  untilMs?: number;
}

export interface CloudQuery {
  cloud: QueryCloud;
  /** The query as the cloud's console takes it (Logs Explorer, BigQuery, Logs Insights, Log Analytics). */
  query: string;
  /** The one shell command that writes audit.json, the file `history --audit-log` reads. */
  command: string;
  /** The whole block: comment header, query, command. */
  text: string;
}

/** The write verbs history replays; reads (get, list, watch) are never selected. */
export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/**
 * The resources history needs, with the subresources whose writes it reads ('' is the object
 * itself): pods' status (Ready, phase), binding (node) and eviction; the controllers' status and
 * scale; Deployments' scale (the cause chains follow the deployment controller back to whoever
 * changed the Deployment). HorizontalPodAutoscalers' own writes are not needed.
 */
export const QUERY_RESOURCES = [
  { group: 'core', resource: 'pods', subresources: ['', 'status', 'binding', 'eviction'] },
  { group: 'core', resource: 'replicationcontrollers', subresources: ['', 'status', 'scale'] },
  { group: 'apps', resource: 'replicasets', subresources: ['', 'status', 'scale'] },
  { group: 'apps', resource: 'deployments', subresources: ['', 'scale'] },
] as const;

// ---------------------------------------------------------------------------------------------
// quoting

/** A POSIX shell word that is exactly `s`: single quotes, each `'` written as `'\''`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A double-quoted string with backslash escapes, as GoogleSQL, KQL and the Logging query language read it. */
function backslashString(s: string): string {
  return `"${s
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')}"`;
}

/** A GoogleSQL (BigQuery) string literal. */
export function sqlString(s: string): string {
  return backslashString(s);
}

/** A KQL (Log Analytics) string literal. */
export function kqlString(s: string): string {
  return backslashString(s);
}

/** A Logging query language (Cloud Logging) string. */
export function loggingString(s: string): string {
  return backslashString(s);
}

/** `s` matched literally inside a regular expression (RE2, as Cloud Logging and BigQuery use). */
function regexLiteral(s: string): string {
  return s.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

// ---------------------------------------------------------------------------------------------
// validation

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// the latest time RFC 3339 can write, and the earliest CloudWatch takes (ms since the epoch ≥ 0)
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function shown(s: string): string {
  return JSON.stringify(s);
}

/** Refuses a namespace that is not a Kubernetes one (an RFC 1123 label). */
function checkNamespace(ns: string): void {
  if (ns.length > 63 || !DNS1123_LABEL.test(ns)) {
    throw new UserError(
      `invalid namespace ${shown(ns)}: a namespace is a lowercase RFC 1123 label (letters a-z, digits and '-', starting and ending with a letter or digit, at most 63 characters)`,
    );
  }
}

/** Refuses an object name that is not a Kubernetes one (an RFC 1123 subdomain). */
function checkName(name: string, as: string): void {
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    throw new UserError(
      `invalid name ${shown(name)} in ${shown(as)}: a name is a lowercase RFC 1123 subdomain (letters a-z, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)`,
    );
  }
}

function checkTime(ms: number | undefined, flag: string): void {
  if (ms === undefined) return;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_MS) {
    throw new UserError(`invalid ${flag} for a query: ${String(ms)} is not a time between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z`);
  }
}

function targetWord(t: QueryTarget): string {
  switch (t.kind) {
    case 'ReplicaSet':
      return `rs/${t.name}`;
    case 'ReplicationController':
      return `rc/${t.name}`;
    case 'Deployment':
      return `deploy/${t.name}`;
    case 'Pod':
      return `pod/${t.name}`;
    default:
      return t.name;
  }
}

// ---------------------------------------------------------------------------------------------
// the window

interface Window {
  /** Whole seconds: the lower bound rounded down, the upper one up (the window only widens). */
  since?: number;
  until?: number;
}

function windowOf(o: CloudQueryOptions): Window {
  const w: Window = {};
  if (o.sinceMs !== undefined) w.since = Math.floor(o.sinceMs / 1000) * 1000;
  if (o.untilMs !== undefined) w.until = Math.ceil(o.untilMs / 1000) * 1000;
  return w;
}

const rfc3339 = (ms: number) => formatTime(ms);
/** YYYYMMDD of the UTC day, as a BigQuery sink names its date-sharded tables. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

// ---------------------------------------------------------------------------------------------
// the parts every cloud shares

/**
 * The methodName regex (io.k8s.GROUP.v1.RESOURCE[.SUBRESOURCE].VERB): every (group, resource,
 * subresource) above, then a write verb. `dot` is how a literal '.' is written: `[.]` where a
 * backslash would first go through a string's own escapes (Cloud Logging), `\.` in a raw string.
 */
function methodRegex(dot: string): string {
  const byGroup = new Map<string, string[]>();
  for (const r of QUERY_RESOURCES) {
    const subs = r.subresources.filter((s) => s !== '');
    byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), `${r.resource}(${dot}(${subs.join('|')}))?`]);
  }
  const groups = [...byGroup].map(([g, alts]) => `${g}${dot}v1${dot}(${alts.join('|')})`);
  return `^io${dot}k8s${dot}(${groups.join('|')})${dot}(${WRITE_VERBS.join('|')})$`;
}

/** `resourceName` of a namespaced object of core/v1 or apps/v1 in namespace ns. */
function resourceNameRegex(ns: string): string {
  return `^(core|apps)/v1/namespaces/${regexLiteral(ns)}/`;
}

function header(o: CloudQueryOptions, w: Window, title: string): string[] {
  const lines = [
    `# ${title}`,
    '# Selects the writes `history` reads: create, update, patch, delete and deletecollection of pods',
    '#   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,',
    '#   /scale) and deployments (with /scale). No get, list or watch.',
  ];
  lines.push(
    o.namespace !== undefined
      ? `# Namespace: ${o.namespace}.`
      : "# Namespace: all (-A): every namespace's writes, a lot on a large cluster; -n NAMESPACE selects one.",
  );
  if (w.since !== undefined && w.until !== undefined) lines.push(`# Time: ${rfc3339(w.since)} to ${rfc3339(w.until)} (UTC, both included).`);
  else if (w.since !== undefined) lines.push(`# Time: from ${rfc3339(w.since)} (UTC) on.`);
  else if (w.until !== undefined) lines.push(`# Time: up to ${rfc3339(w.until)} (UTC): everything older the logs still keep; --since bounds it.`);
  else lines.push('# Time: no bound: everything the logs still keep; --since and --until bound it.');
  if (w.since !== undefined) lines.push('#   Writes before the window are not fetched: an object made earlier is known from its first write in it.');
  if (o.target) {
    const t = targetWord(o.target);
    const why =
      o.target.kind === 'Pod'
        ? "a pod's story needs its controller's other pods"
        : o.target.kind === 'Deployment'
          ? 'its ReplicaSets and their pods have generated names'
          : "its pods' names are generated, and its Deployment's writes hold the causes";
    lines.push(`# Target ${t}: not filtered here (${why}):`, `#   the query keeps the whole namespace, and history picks ${t} out of it.`);
  }
  return lines;
}

/** `kubectl rs-reconcile history … --audit-log audit.json`: what reads the file. */
function readBack(o: CloudQueryOptions): string {
  const parts = ['kubectl rs-reconcile history'];
  if (o.target) parts.push(targetWord(o.target));
  parts.push(o.namespace !== undefined ? `-n ${o.namespace}` : '-A');
  parts.push('--audit-log audit.json');
  return parts.join(' ');
}

function block(head: string[], queryTitle: string[], query: string, commandTitle: string[], command: string, tail: string[] = []): string {
  return [...head, '', ...queryTitle, query, '', ...commandTitle, command, ...(tail.length ? ['', ...tail] : [])].join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// GKE: Cloud Logging, read with gcloud

function gke(o: CloudQueryOptions, w: Window): CloudQuery {
  const filter = [
    'resource.type="k8s_cluster"',
    'resource.labels.cluster_name="CLUSTER"',
    'protoPayload.serviceName="k8s.io"',
    '(log_id("cloudaudit.googleapis.com/activity") OR log_id("cloudaudit.googleapis.com/data_access"))',
    `protoPayload.methodName=~${loggingString(methodRegex('[.]'))}`,
    ...(o.namespace !== undefined ? [`protoPayload.resourceName=~${loggingString(resourceNameRegex(o.namespace))}`] : []),
    ...(w.since !== undefined ? [`timestamp>=${loggingString(rfc3339(w.since))}`] : []),
    ...(w.until !== undefined ? [`timestamp<=${loggingString(rfc3339(w.until))}`] : []),
  ].join('\n');
  const command = `gcloud logging read ${shellQuote(filter)} \\\n  --project=PROJECT --order=asc --format=json > audit.json`;
  const head = [
    ...header(o, w, 'history --print-query gke: Cloud Logging (GKE audit logs), read with gcloud'),
    '# Replace PROJECT (the cluster\'s project ID) and CLUSTER (its name; add resource.labels.location="LOCATION"',
    '#   if two clusters of the project share the name).',
    '# Status writes (pods/status, replicasets/status) are Data Access DATA_WRITE entries, off by default: unless',
    '#   Data Access audit logs (DATA_WRITE) are on for the Kubernetes Engine API there are none, and history',
    '#   cannot tell when pods became ready (its verdicts that depend on it are null).',
    '# Entries carry a gRPC status code (no HTTP code), one caller IP and no user groups; an entry too large',
    '#   for Cloud Logging keeps no bodies (label audit.k8s.io/truncated).',
    '# No --freshness: gcloud applies it (default 1d) only with --order=desc and a filter without "timestamp";',
    "#   with --order=asc it reads everything in the filter's bounds, as far back as the logs are kept",
    '#   (Admin Activity 400 days, Data Access 30 days by default).',
  ];
  return {
    cloud: 'gke',
    query: filter,
    command,
    text: block(head, ['# Logs Explorer query:'], filter, [`# The command: writes audit.json; then ${readBack(o)}`], command),
  };
}

// ---------------------------------------------------------------------------------------------
// GKE: a log sink's BigQuery dataset

function bigquery(o: CloudQueryOptions, w: Window): CloudQuery {
  const lo = w.since !== undefined ? utcDay(w.since) : '00000000';
  const hi = w.until !== undefined ? utcDay(w.until) : '99999999';
  const shards = (log: string) => `_TABLE_SUFFIX BETWEEN ${sqlString(`${log}_${lo}`)} AND ${sqlString(`${log}_${hi}`)}`;
  const where = [
    `(${shards('activity')}`,
    `    OR ${shards('data_access')})`,
    'AND resource.type = "k8s_cluster"',
    'AND resource.labels.cluster_name = "CLUSTER"',
    'AND protopayload_auditlog.serviceName = "k8s.io"',
    `AND REGEXP_CONTAINS(protopayload_auditlog.methodName, r"${methodRegex('\\.')}")`,
    ...(o.namespace !== undefined ? [`AND REGEXP_CONTAINS(protopayload_auditlog.resourceName, r"${resourceNameRegex(o.namespace)}")`] : []),
    ...(w.since !== undefined ? [`AND timestamp >= TIMESTAMP(${sqlString(rfc3339(w.since))})`] : []),
    ...(w.until !== undefined ? [`AND timestamp <= TIMESTAMP(${sqlString(rfc3339(w.until))})`] : []),
  ];
  const sql = [
    'SELECT *',
    'FROM `PROJECT.DATASET.cloudaudit_googleapis_com_*`',
    `WHERE ${where[0]}`,
    ...where.slice(1).map((l) => `  ${l}`),
    'ORDER BY timestamp',
  ].join('\n');
  const command = `bq query --use_legacy_sql=false --format=json --max_rows=1000000 ${shellQuote(sql)} > audit.json`;
  const head = [
    ...header(o, w, "history --print-query bigquery: GKE audit logs in a log sink's BigQuery dataset"),
    "# Replace PROJECT.DATASET (the sink's dataset) and CLUSTER (the cluster's name).",
    "# Reads the sink's date-sharded tables cloudaudit_googleapis_com_activity_YYYYMMDD and",
    "#   …_data_access_YYYYMMDD (named by the entry's UTC day); whole rows, bodies in requestJson/responseJson.",
    '#   A sink with partitioned tables (no date suffix): put _TABLE_SUFFIX IN ("activity", "data_access")',
    '#   in place of the two _TABLE_SUFFIX conditions.',
    "#   If BigQuery says the matched tables' schemas differ, run it once FROM …cloudaudit_googleapis_com_activity_*",
    '#   and once FROM …_data_access_* (the suffix is then the day alone), into two files: history reads both.',
    '# data_access tables exist only while Data Access DATA_WRITE logs were on for the Kubernetes Engine API:',
    '#   without them there are no status writes (pods/status, replicasets/status), and history cannot tell',
    '#   when pods became ready (its verdicts that depend on it are null).',
    '# bq prints at most --max_rows rows (default 100): 1000000 here; raise it if the window holds more.',
  ];
  return {
    cloud: 'bigquery',
    query: sql,
    command,
    text: block(head, ['# BigQuery query (GoogleSQL):'], sql, [`# The command: writes audit.json; then ${readBack(o)}`], command),
  };
}

// ---------------------------------------------------------------------------------------------
// EKS: CloudWatch Logs

function eks(o: CloudQueryOptions, w: Window): CloudQuery {
  const list = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;
  const bySub = QUERY_RESOURCES.map((r) => {
    const subs = r.subresources.filter((s) => s !== '');
    return `(objectRef.resource = "${r.resource}" and (isempty(objectRef.subresource) or objectRef.subresource in ${list(subs)}))`;
  });
  const insights = [
    'fields @timestamp, @message',
    '| filter @logStream like /^kube-apiserver-audit-/',
    `| filter verb in ${list(WRITE_VERBS)}`,
    ...(o.namespace !== undefined ? [`| filter objectRef.namespace = ${JSON.stringify(o.namespace)}`] : []),
    `| filter ${bySub.join(' or ')}`,
    '| sort @timestamp asc',
    '| limit 10000',
  ].join('\n');
  // the JSON filter pattern of filter-log-events, kept to the documented syntax (string equalities,
  // && and || with parentheses; no regex, of which a pattern may hold two) and far within the API's
  // 1,024 characters; subresources are not filtered (a few extra events, and a shorter pattern)
  const verbs = WRITE_VERBS.map((v) => `$.verb = "${v}"`).join(' || ');
  const resources = QUERY_RESOURCES.map((r) => `$.objectRef.resource = "${r.resource}"`).join(' || ');
  const pattern = `{ (${verbs}) && (${resources})${o.namespace !== undefined ? ` && ($.objectRef.namespace = ${JSON.stringify(o.namespace)})` : ''} }`;
  const times = [...(w.since !== undefined ? [`--start-time ${w.since}`] : []), ...(w.until !== undefined ? [`--end-time ${w.until}`] : [])];
  const command = [
    'aws logs filter-log-events --log-group-name /aws/eks/CLUSTER/cluster \\',
    `  --log-stream-name-prefix kube-apiserver-audit${times.length ? ` ${times.join(' ')}` : ''} \\`,
    `  --filter-pattern ${shellQuote(pattern)} \\`,
    '  --output json > audit.json',
  ].join('\n');
  const startS = w.since !== undefined ? String(w.since / 1000) : 'START_SECONDS';
  const endS = w.until !== undefined ? String(w.until / 1000) : 'END_SECONDS';
  const head = [
    ...header(o, w, 'history --print-query eks: CloudWatch Logs (EKS control-plane audit log)'),
    "# Replace CLUSTER (the EKS cluster's name); add --region REGION unless the AWS CLI's default region is the cluster's.",
    '# Needs the cluster\'s control-plane logging of type "audit" on (off by default); delivery is best effort,',
    '#   within minutes.',
    "# An event over CloudWatch's 256 KB is cut and ends with [Truncated...]: it is not JSON, so neither the",
    "#   query's fields nor the JSON filter pattern match it, and it is left out rather than counted",
    '#   (without --filter-pattern it comes too, with everything else in the window).',
    '# filter-log-events below: every page (the CLI follows them), times in ms since the epoch; its pattern also',
    '#   matches the few writes of other subresources (pods/exec, deployments/status…), which history skips.',
  ];
  const insightsRun = [
    '# Logs Insights query (log group /aws/eks/CLUSTER/cluster). It returns at most 10,000 rows (get-query-results):',
    '#   if you get 10,000, split the window. From the CLI (times in seconds), when its status is Complete:',
    `#   aws logs start-query --log-group-name /aws/eks/CLUSTER/cluster --start-time ${startS} --end-time ${endS} --query-string '<the query>'`,
    '#   aws logs get-query-results --query-id QUERY_ID --output json > audit.json',
  ];
  return {
    cloud: 'eks',
    query: insights,
    command,
    text: block(head, insightsRun, insights, [`# The command: writes audit.json; then ${readBack(o)}`], command),
  };
}

// ---------------------------------------------------------------------------------------------
// AKS: Log Analytics

function aks(o: CloudQueryOptions, w: Window): CloudQuery {
  const list = (xs: readonly string[]) => `(${xs.map(kqlString).join(', ')})`;
  const time =
    w.since !== undefined && w.until !== undefined
      ? `TimeGenerated between (datetime(${rfc3339(w.since)}) .. datetime(${rfc3339(w.until)}))`
      : w.since !== undefined
        ? `TimeGenerated >= datetime(${rfc3339(w.since)})`
        : w.until !== undefined
          ? `TimeGenerated <= datetime(${rfc3339(w.until)})`
          : undefined;
  // the same conditions on the event's fields, as columns (AKSAuditAdmin) or inside log_s (AzureDiagnostics)
  const conditions = (verb: string, ref: (field: string) => string) => [
    `${verb} in ${list(WRITE_VERBS)}`,
    ...(o.namespace !== undefined ? [`${ref('namespace')} == ${kqlString(o.namespace)}`] : []),
    QUERY_RESOURCES.map((r) => `(${ref('resource')} == ${kqlString(r.resource)} and ${ref('subresource')} in ${list(r.subresources)})`).join('\n    or '),
  ];
  const kql = [
    'AKSAuditAdmin',
    '| where _ResourceId endswith "/managedclusters/CLUSTER"',
    ...(time ? [`| where ${time}`] : []),
    ...conditions('Verb', (f) => `tostring(ObjectRef.${f})`).map((c) => `| where ${c}`),
    '| order by TimeGenerated asc',
  ].join('\n');
  const diagnostics = [
    'AzureDiagnostics',
    '| where Category == "kube-audit-admin"',
    '| where _ResourceId endswith "/managedclusters/CLUSTER"',
    ...(time ? [`| where ${time}`] : []),
    '| extend e = parse_json(log_s)',
    ...conditions('tostring(e.verb)', (f) => `tostring(e.objectRef.${f})`).map((c) => `| where ${c}`),
    '| project-away e',
    '| order by TimeGenerated asc',
  ].join('\n');
  const command = `az monitor log-analytics query -w WORKSPACE_ID --analytics-query ${shellQuote(kql)} -o json > audit.json`;
  const head = [
    ...header(o, w, 'history --print-query aks: Azure Monitor Log Analytics (AKS audit logs)'),
    "# Replace WORKSPACE_ID (the Log Analytics workspace's ID, a GUID) and CLUSTER (the AKS cluster's name).",
    '# Needs a diagnostic setting that sends kube-audit-admin (every write, no get or list) to the workspace;',
    '#   in resource-specific mode it lands in AKSAuditAdmin (this query), in Azure diagnostics mode in',
    '#   AzureDiagnostics (the variant at the end).',
    '# AKSAuditAdmin has no impersonated user, and a body too big for it reads "skipped-too-big-size-object"',
    '#   (history counts it as truncated). A query returns at most 500,000 rows and 64 MB: split the window',
    '#   if it fails for that.',
  ];
  const tail = [
    '# Azure diagnostics mode: the same in AzureDiagnostics (the event is the JSON text log_s, cut at',
    '#   32,766 bytes; a cut one does not parse and is left out):',
    ...diagnostics.split('\n').map((l) => `#   ${l}`),
  ];
  return {
    cloud: 'aks',
    query: kql,
    command,
    text: block(head, ['# Log Analytics query (KQL):'], kql, [`# The command: writes audit.json; then ${readBack(o)}`], command, tail),
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * The query for `history --print-query CLOUD` and the command that writes its result to
 * audit.json. Throws a UserError (one line) on a cloud it does not know, a namespace or name that
 * is not a Kubernetes one, or a time outside what the clouds take.
 */
export function buildCloudQuery(o: CloudQueryOptions): CloudQuery {
  if (!(QUERY_CLOUDS as readonly string[]).includes(o.cloud)) {
    throw new UserError(`unknown cloud ${shown(String(o.cloud))} for --print-query: expected one of ${QUERY_CLOUDS.join(', ')}`);
  }
  if (o.namespace !== undefined) checkNamespace(o.namespace);
  if (o.target) checkName(o.target.name, targetWord(o.target));
  checkTime(o.sinceMs, '--since');
  checkTime(o.untilMs, '--until');
  if (o.sinceMs !== undefined && o.untilMs !== undefined && o.untilMs < o.sinceMs) {
    throw new UserError(`--until ${formatTime(o.untilMs)} is before --since ${formatTime(o.sinceMs)}: nothing is between them`);
  }
  const w = windowOf(o);
  switch (o.cloud) {
    case 'gke':
      return gke(o, w);
    case 'bigquery':
      return bigquery(o, w);
    case 'eks':
      return eks(o, w);
    case 'aks':
      return aks(o, w);
  }
}

/** The text `history --print-query CLOUD` prints: comment header, query, command. */
export function cloudAuditQuery(o: CloudQueryOptions): string {
  return buildCloudQuery(o).text;
}
