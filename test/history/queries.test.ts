// `history --print-query`: the queries that make a cloud's log engine select what history reads.
// Golden outputs per cloud; the values a user gives are checked (one-line errors) and cannot leave
// their quotes; each query names the four resources and the five write verbs and nothing that
// reads; each command is one POSIX shell line whose query argument is exactly the printed query.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import {
  QUERY_CLOUDS,
  QUERY_RESOURCES,
  WRITE_VERBS,
  buildCloudQuery,
  cloudAuditQuery,
  kqlString,
  loggingString,
  shellQuote,
  sqlString,
  type CloudQueryOptions,
  type QueryCloud,
} from '../../src/history/queries.js';

const SINCE = Date.parse('2026-05-04T08:00:00Z');
const UNTIL = Date.parse('2026-05-04T10:00:00Z');

// ---------------------------------------------------------------------------------------------
// a tiny POSIX shell reader: words (quotes removed) and operators, refusing anything the shell
// would expand or interpret outside quotes

type Token = { word: string } | { op: string };

function shellWords(src: string): Token[] {
  const out: Token[] = [];
  let cur: string | null = null;
  const flush = () => {
    if (cur !== null) out.push({ word: cur });
    cur = null;
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      i++;
    } else if (c === '\\') {
      if (i + 1 >= src.length) throw new Error('a backslash ends the line');
      if (src[i + 1] !== '\n') cur = (cur ?? '') + src[i + 1]; // backslash-newline: the line goes on
      i += 2;
    } else if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' at ${i}`);
      cur = (cur ?? '') + src.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < src.length && src[j] !== '"'; j++) {
        if (src[j] === '$' || src[j] === '`') throw new Error(`expansion inside "…" at ${j}`);
        if (src[j] === '\\' && '$`"\\\n'.includes(src[j + 1])) {
          if (src[j + 1] !== '\n') s += src[j + 1];
          j++;
        } else s += src[j];
      }
      if (j >= src.length) throw new Error(`unterminated " at ${i}`);
      cur = (cur ?? '') + s;
      i = j + 1;
    } else if ('<>|&;()'.includes(c)) {
      flush();
      out.push({ op: c });
      i++;
    } else if ('$`*?[{'.includes(c) || ((c === '#' || c === '~') && cur === null)) {
      throw new Error(`unquoted ${JSON.stringify(c)} at ${i}: the shell would interpret it`);
    } else {
      cur = (cur ?? '') + c;
      i++;
    }
  }
  flush();
  return out;
}

/** The words of a command that writes one file: everything before `> FILE`, and FILE. */
function commandLine(command: string): { words: string[]; file: string } {
  const tokens = shellWords(command);
  const redirect = tokens.findIndex((t) => 'op' in t);
  expect(redirect, 'one > redirection').toBeGreaterThan(0);
  expect(tokens[redirect]).toEqual({ op: '>' });
  expect(tokens.length, 'nothing after the file').toBe(redirect + 2);
  const file = tokens[redirect + 1];
  const words = tokens.slice(0, redirect).map((t) => ('word' in t ? t.word : `<${t.op}>`));
  return { words, file: 'word' in file ? file.word : `<${file.op}>` };
}

/** The value of `--flag VALUE` or `--flag=VALUE` among words. */
function flag(words: string[], name: string): string | undefined {
  const i = words.indexOf(name);
  if (i >= 0) return words[i + 1];
  return words.find((w) => w.startsWith(`${name}=`))?.slice(name.length + 1);
}

// a double-quoted string with backslash escapes, read back (GoogleSQL, KQL, Logging query language)
function readBackslashString(lit: string): string {
  expect(lit.startsWith('"') && lit.endsWith('"')).toBe(true);
  const body = lit.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '"') throw new Error(`unescaped " at ${i}`);
    if (body[i] === '\n') throw new Error(`raw newline at ${i}`);
    if (body[i] !== '\\') {
      out += body[i];
      continue;
    }
    const e = body[++i];
    out += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e;
  }
  return out;
}

const variants: Array<[string, Omit<CloudQueryOptions, 'cloud'>]> = [
  ['namespace, target and window', { namespace: 'shop', target: { kind: 'ReplicaSet', name: 'web' }, sinceMs: SINCE, untilMs: UNTIL }],
  ['all namespaces, no window', {}],
  ['namespace, since only', { namespace: 'payments-eu', sinceMs: SINCE }],
  ['all namespaces, until only, a pod', { target: { kind: 'Pod', name: 'web-7d9c5b6f4-x2k8q' }, untilMs: UNTIL }],
];
const everyCase = QUERY_CLOUDS.flatMap((cloud) => variants.map(([what, o]) => [cloud, what, { cloud, ...o }] as const));

// ---------------------------------------------------------------------------------------------

describe('history --print-query: golden outputs', () => {
  const shop = (cloud: QueryCloud) =>
    cloudAuditQuery({ cloud, namespace: 'shop', target: { kind: 'ReplicaSet', name: 'web' }, sinceMs: SINCE, untilMs: UNTIL });
  const all = (cloud: QueryCloud) => cloudAuditQuery({ cloud });

  it('gke, one namespace and a window', () => {
    expect(shop('gke')).toMatchInlineSnapshot(`
      "# history --print-query gke: Cloud Logging (GKE audit logs), read with gcloud
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: shop.
      # Time: 2026-05-04T08:00:00Z to 2026-05-04T10:00:00Z (UTC, both included).
      #   Writes before the window are not fetched: an object made earlier is known from its first write in it.
      # Target rs/web: not filtered here (its pods' names are generated, and its Deployment's writes hold the causes):
      #   the query keeps the whole namespace, and history picks rs/web out of it.
      # Replace PROJECT (the cluster's project ID) and CLUSTER (its name; add resource.labels.location="LOCATION"
      #   if two clusters of the project share the name).
      # Status writes (pods/status, replicasets/status) are Data Access DATA_WRITE entries, off by default: unless
      #   Data Access audit logs (DATA_WRITE) are on for the Kubernetes Engine API there are none, and history
      #   cannot tell when pods became ready (its verdicts that depend on it are null).
      # Entries carry a gRPC status code (no HTTP code), one caller IP and no user groups; an entry too large
      #   for Cloud Logging keeps no bodies (label audit.k8s.io/truncated).
      # No --freshness: gcloud applies it (default 1d) only with --order=desc and a filter without "timestamp";
      #   with --order=asc it reads everything in the filter's bounds, as far back as the logs are kept
      #   (Admin Activity 400 days, Data Access 30 days by default).

      # Logs Explorer query:
      resource.type="k8s_cluster"
      resource.labels.cluster_name="CLUSTER"
      protoPayload.serviceName="k8s.io"
      (log_id("cloudaudit.googleapis.com/activity") OR log_id("cloudaudit.googleapis.com/data_access"))
      protoPayload.methodName=~"^io[.]k8s[.](core[.]v1[.](pods([.](status|binding|eviction))?|replicationcontrollers([.](status|scale))?)|apps[.]v1[.](replicasets([.](status|scale))?|deployments([.](scale))?))[.](create|update|patch|delete|deletecollection)$"
      protoPayload.resourceName=~"^(core|apps)/v1/namespaces/shop/"
      timestamp>="2026-05-04T08:00:00Z"
      timestamp<="2026-05-04T10:00:00Z"

      # The command: writes audit.json; then kubectl rs-reconcile history rs/web -n shop --audit-log audit.json
      gcloud logging read 'resource.type="k8s_cluster"
      resource.labels.cluster_name="CLUSTER"
      protoPayload.serviceName="k8s.io"
      (log_id("cloudaudit.googleapis.com/activity") OR log_id("cloudaudit.googleapis.com/data_access"))
      protoPayload.methodName=~"^io[.]k8s[.](core[.]v1[.](pods([.](status|binding|eviction))?|replicationcontrollers([.](status|scale))?)|apps[.]v1[.](replicasets([.](status|scale))?|deployments([.](scale))?))[.](create|update|patch|delete|deletecollection)$"
      protoPayload.resourceName=~"^(core|apps)/v1/namespaces/shop/"
      timestamp>="2026-05-04T08:00:00Z"
      timestamp<="2026-05-04T10:00:00Z"' \\
        --project=PROJECT --order=asc --format=json > audit.json
      "
    `);
  });

  it('gke, every namespace, no window', () => {
    expect(all('gke')).toMatchInlineSnapshot(`
      "# history --print-query gke: Cloud Logging (GKE audit logs), read with gcloud
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: all (-A): every namespace's writes, a lot on a large cluster; -n NAMESPACE selects one.
      # Time: no bound: everything the logs still keep; --since and --until bound it.
      # Replace PROJECT (the cluster's project ID) and CLUSTER (its name; add resource.labels.location="LOCATION"
      #   if two clusters of the project share the name).
      # Status writes (pods/status, replicasets/status) are Data Access DATA_WRITE entries, off by default: unless
      #   Data Access audit logs (DATA_WRITE) are on for the Kubernetes Engine API there are none, and history
      #   cannot tell when pods became ready (its verdicts that depend on it are null).
      # Entries carry a gRPC status code (no HTTP code), one caller IP and no user groups; an entry too large
      #   for Cloud Logging keeps no bodies (label audit.k8s.io/truncated).
      # No --freshness: gcloud applies it (default 1d) only with --order=desc and a filter without "timestamp";
      #   with --order=asc it reads everything in the filter's bounds, as far back as the logs are kept
      #   (Admin Activity 400 days, Data Access 30 days by default).

      # Logs Explorer query:
      resource.type="k8s_cluster"
      resource.labels.cluster_name="CLUSTER"
      protoPayload.serviceName="k8s.io"
      (log_id("cloudaudit.googleapis.com/activity") OR log_id("cloudaudit.googleapis.com/data_access"))
      protoPayload.methodName=~"^io[.]k8s[.](core[.]v1[.](pods([.](status|binding|eviction))?|replicationcontrollers([.](status|scale))?)|apps[.]v1[.](replicasets([.](status|scale))?|deployments([.](scale))?))[.](create|update|patch|delete|deletecollection)$"

      # The command: writes audit.json; then kubectl rs-reconcile history -A --audit-log audit.json
      gcloud logging read 'resource.type="k8s_cluster"
      resource.labels.cluster_name="CLUSTER"
      protoPayload.serviceName="k8s.io"
      (log_id("cloudaudit.googleapis.com/activity") OR log_id("cloudaudit.googleapis.com/data_access"))
      protoPayload.methodName=~"^io[.]k8s[.](core[.]v1[.](pods([.](status|binding|eviction))?|replicationcontrollers([.](status|scale))?)|apps[.]v1[.](replicasets([.](status|scale))?|deployments([.](scale))?))[.](create|update|patch|delete|deletecollection)$"' \\
        --project=PROJECT --order=asc --format=json > audit.json
      "
    `);
  });

  it('bigquery, one namespace and a window', () => {
    expect(shop('bigquery')).toMatchInlineSnapshot(`
      "# history --print-query bigquery: GKE audit logs in a log sink's BigQuery dataset
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: shop.
      # Time: 2026-05-04T08:00:00Z to 2026-05-04T10:00:00Z (UTC, both included).
      #   Writes before the window are not fetched: an object made earlier is known from its first write in it.
      # Target rs/web: not filtered here (its pods' names are generated, and its Deployment's writes hold the causes):
      #   the query keeps the whole namespace, and history picks rs/web out of it.
      # Replace PROJECT.DATASET (the sink's dataset) and CLUSTER (the cluster's name).
      # Reads the sink's date-sharded tables cloudaudit_googleapis_com_activity_YYYYMMDD and
      #   …_data_access_YYYYMMDD (named by the entry's UTC day); whole rows, bodies in requestJson/responseJson.
      #   A sink with partitioned tables (no date suffix): put _TABLE_SUFFIX IN ("activity", "data_access")
      #   in place of the two _TABLE_SUFFIX conditions.
      #   If BigQuery says the matched tables' schemas differ, run it once FROM …cloudaudit_googleapis_com_activity_*
      #   and once FROM …_data_access_* (the suffix is then the day alone), into two files: history reads both.
      # data_access tables exist only while Data Access DATA_WRITE logs were on for the Kubernetes Engine API:
      #   without them there are no status writes (pods/status, replicasets/status), and history cannot tell
      #   when pods became ready (its verdicts that depend on it are null).
      # bq prints at most --max_rows rows (default 100): 1000000 here; raise it if the window holds more.

      # BigQuery query (GoogleSQL):
      SELECT *
      FROM \`PROJECT.DATASET.cloudaudit_googleapis_com_*\`
      WHERE (_TABLE_SUFFIX BETWEEN "activity_20260504" AND "activity_20260504"
            OR _TABLE_SUFFIX BETWEEN "data_access_20260504" AND "data_access_20260504")
        AND resource.type = "k8s_cluster"
        AND resource.labels.cluster_name = "CLUSTER"
        AND protopayload_auditlog.serviceName = "k8s.io"
        AND REGEXP_CONTAINS(protopayload_auditlog.methodName, r"^io\\.k8s\\.(core\\.v1\\.(pods(\\.(status|binding|eviction))?|replicationcontrollers(\\.(status|scale))?)|apps\\.v1\\.(replicasets(\\.(status|scale))?|deployments(\\.(scale))?))\\.(create|update|patch|delete|deletecollection)$")
        AND REGEXP_CONTAINS(protopayload_auditlog.resourceName, r"^(core|apps)/v1/namespaces/shop/")
        AND timestamp >= TIMESTAMP("2026-05-04T08:00:00Z")
        AND timestamp <= TIMESTAMP("2026-05-04T10:00:00Z")
      ORDER BY timestamp

      # The command: writes audit.json; then kubectl rs-reconcile history rs/web -n shop --audit-log audit.json
      bq query --use_legacy_sql=false --format=json --max_rows=1000000 'SELECT *
      FROM \`PROJECT.DATASET.cloudaudit_googleapis_com_*\`
      WHERE (_TABLE_SUFFIX BETWEEN "activity_20260504" AND "activity_20260504"
            OR _TABLE_SUFFIX BETWEEN "data_access_20260504" AND "data_access_20260504")
        AND resource.type = "k8s_cluster"
        AND resource.labels.cluster_name = "CLUSTER"
        AND protopayload_auditlog.serviceName = "k8s.io"
        AND REGEXP_CONTAINS(protopayload_auditlog.methodName, r"^io\\.k8s\\.(core\\.v1\\.(pods(\\.(status|binding|eviction))?|replicationcontrollers(\\.(status|scale))?)|apps\\.v1\\.(replicasets(\\.(status|scale))?|deployments(\\.(scale))?))\\.(create|update|patch|delete|deletecollection)$")
        AND REGEXP_CONTAINS(protopayload_auditlog.resourceName, r"^(core|apps)/v1/namespaces/shop/")
        AND timestamp >= TIMESTAMP("2026-05-04T08:00:00Z")
        AND timestamp <= TIMESTAMP("2026-05-04T10:00:00Z")
      ORDER BY timestamp' > audit.json
      "
    `);
  });

  it('bigquery, every namespace, no window', () => {
    expect(all('bigquery')).toMatchInlineSnapshot(`
      "# history --print-query bigquery: GKE audit logs in a log sink's BigQuery dataset
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: all (-A): every namespace's writes, a lot on a large cluster; -n NAMESPACE selects one.
      # Time: no bound: everything the logs still keep; --since and --until bound it.
      # Replace PROJECT.DATASET (the sink's dataset) and CLUSTER (the cluster's name).
      # Reads the sink's date-sharded tables cloudaudit_googleapis_com_activity_YYYYMMDD and
      #   …_data_access_YYYYMMDD (named by the entry's UTC day); whole rows, bodies in requestJson/responseJson.
      #   A sink with partitioned tables (no date suffix): put _TABLE_SUFFIX IN ("activity", "data_access")
      #   in place of the two _TABLE_SUFFIX conditions.
      #   If BigQuery says the matched tables' schemas differ, run it once FROM …cloudaudit_googleapis_com_activity_*
      #   and once FROM …_data_access_* (the suffix is then the day alone), into two files: history reads both.
      # data_access tables exist only while Data Access DATA_WRITE logs were on for the Kubernetes Engine API:
      #   without them there are no status writes (pods/status, replicasets/status), and history cannot tell
      #   when pods became ready (its verdicts that depend on it are null).
      # bq prints at most --max_rows rows (default 100): 1000000 here; raise it if the window holds more.

      # BigQuery query (GoogleSQL):
      SELECT *
      FROM \`PROJECT.DATASET.cloudaudit_googleapis_com_*\`
      WHERE (_TABLE_SUFFIX BETWEEN "activity_00000000" AND "activity_99999999"
            OR _TABLE_SUFFIX BETWEEN "data_access_00000000" AND "data_access_99999999")
        AND resource.type = "k8s_cluster"
        AND resource.labels.cluster_name = "CLUSTER"
        AND protopayload_auditlog.serviceName = "k8s.io"
        AND REGEXP_CONTAINS(protopayload_auditlog.methodName, r"^io\\.k8s\\.(core\\.v1\\.(pods(\\.(status|binding|eviction))?|replicationcontrollers(\\.(status|scale))?)|apps\\.v1\\.(replicasets(\\.(status|scale))?|deployments(\\.(scale))?))\\.(create|update|patch|delete|deletecollection)$")
      ORDER BY timestamp

      # The command: writes audit.json; then kubectl rs-reconcile history -A --audit-log audit.json
      bq query --use_legacy_sql=false --format=json --max_rows=1000000 'SELECT *
      FROM \`PROJECT.DATASET.cloudaudit_googleapis_com_*\`
      WHERE (_TABLE_SUFFIX BETWEEN "activity_00000000" AND "activity_99999999"
            OR _TABLE_SUFFIX BETWEEN "data_access_00000000" AND "data_access_99999999")
        AND resource.type = "k8s_cluster"
        AND resource.labels.cluster_name = "CLUSTER"
        AND protopayload_auditlog.serviceName = "k8s.io"
        AND REGEXP_CONTAINS(protopayload_auditlog.methodName, r"^io\\.k8s\\.(core\\.v1\\.(pods(\\.(status|binding|eviction))?|replicationcontrollers(\\.(status|scale))?)|apps\\.v1\\.(replicasets(\\.(status|scale))?|deployments(\\.(scale))?))\\.(create|update|patch|delete|deletecollection)$")
      ORDER BY timestamp' > audit.json
      "
    `);
  });

  it('eks, one namespace and a window', () => {
    expect(shop('eks')).toMatchInlineSnapshot(`
      "# history --print-query eks: CloudWatch Logs (EKS control-plane audit log)
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: shop.
      # Time: 2026-05-04T08:00:00Z to 2026-05-04T10:00:00Z (UTC, both included).
      #   Writes before the window are not fetched: an object made earlier is known from its first write in it.
      # Target rs/web: not filtered here (its pods' names are generated, and its Deployment's writes hold the causes):
      #   the query keeps the whole namespace, and history picks rs/web out of it.
      # Replace CLUSTER (the EKS cluster's name); add --region REGION unless the AWS CLI's default region is the cluster's.
      # Needs the cluster's control-plane logging of type "audit" on (off by default); delivery is best effort,
      #   within minutes.
      # An event over CloudWatch's 256 KB is cut and ends with [Truncated...]: it is not JSON, so neither the
      #   query's fields nor the JSON filter pattern match it, and it is left out rather than counted
      #   (without --filter-pattern it comes too, with everything else in the window).
      # filter-log-events below: every page (the CLI follows them), times in ms since the epoch; its pattern also
      #   matches the few writes of other subresources (pods/exec, deployments/status…), which history skips.

      # Logs Insights query (log group /aws/eks/CLUSTER/cluster). It returns at most 10,000 rows (get-query-results):
      #   if you get 10,000, split the window. From the CLI (times in seconds), when its status is Complete:
      #   aws logs start-query --log-group-name /aws/eks/CLUSTER/cluster --start-time 1777881600 --end-time 1777888800 --query-string '<the query>'
      #   aws logs get-query-results --query-id QUERY_ID --output json > audit.json
      fields @timestamp, @message
      | filter @logStream like /^kube-apiserver-audit-/
      | filter verb in ["create", "update", "patch", "delete", "deletecollection"]
      | filter objectRef.namespace = "shop"
      | filter (objectRef.resource = "pods" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "binding", "eviction"])) or (objectRef.resource = "replicationcontrollers" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "scale"])) or (objectRef.resource = "replicasets" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "scale"])) or (objectRef.resource = "deployments" and (isempty(objectRef.subresource) or objectRef.subresource in ["scale"]))
      | sort @timestamp asc
      | limit 10000

      # The command: writes audit.json; then kubectl rs-reconcile history rs/web -n shop --audit-log audit.json
      aws logs filter-log-events --log-group-name /aws/eks/CLUSTER/cluster \\
        --log-stream-name-prefix kube-apiserver-audit --start-time 1777881600000 --end-time 1777888800000 \\
        --filter-pattern '{ ($.verb = "create" || $.verb = "update" || $.verb = "patch" || $.verb = "delete" || $.verb = "deletecollection") && ($.objectRef.resource = "pods" || $.objectRef.resource = "replicationcontrollers" || $.objectRef.resource = "replicasets" || $.objectRef.resource = "deployments") && ($.objectRef.namespace = "shop") }' \\
        --output json > audit.json
      "
    `);
  });

  it('eks, every namespace, no window', () => {
    expect(all('eks')).toMatchInlineSnapshot(`
      "# history --print-query eks: CloudWatch Logs (EKS control-plane audit log)
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: all (-A): every namespace's writes, a lot on a large cluster; -n NAMESPACE selects one.
      # Time: no bound: everything the logs still keep; --since and --until bound it.
      # Replace CLUSTER (the EKS cluster's name); add --region REGION unless the AWS CLI's default region is the cluster's.
      # Needs the cluster's control-plane logging of type "audit" on (off by default); delivery is best effort,
      #   within minutes.
      # An event over CloudWatch's 256 KB is cut and ends with [Truncated...]: it is not JSON, so neither the
      #   query's fields nor the JSON filter pattern match it, and it is left out rather than counted
      #   (without --filter-pattern it comes too, with everything else in the window).
      # filter-log-events below: every page (the CLI follows them), times in ms since the epoch; its pattern also
      #   matches the few writes of other subresources (pods/exec, deployments/status…), which history skips.

      # Logs Insights query (log group /aws/eks/CLUSTER/cluster). It returns at most 10,000 rows (get-query-results):
      #   if you get 10,000, split the window. From the CLI (times in seconds), when its status is Complete:
      #   aws logs start-query --log-group-name /aws/eks/CLUSTER/cluster --start-time START_SECONDS --end-time END_SECONDS --query-string '<the query>'
      #   aws logs get-query-results --query-id QUERY_ID --output json > audit.json
      fields @timestamp, @message
      | filter @logStream like /^kube-apiserver-audit-/
      | filter verb in ["create", "update", "patch", "delete", "deletecollection"]
      | filter (objectRef.resource = "pods" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "binding", "eviction"])) or (objectRef.resource = "replicationcontrollers" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "scale"])) or (objectRef.resource = "replicasets" and (isempty(objectRef.subresource) or objectRef.subresource in ["status", "scale"])) or (objectRef.resource = "deployments" and (isempty(objectRef.subresource) or objectRef.subresource in ["scale"]))
      | sort @timestamp asc
      | limit 10000

      # The command: writes audit.json; then kubectl rs-reconcile history -A --audit-log audit.json
      aws logs filter-log-events --log-group-name /aws/eks/CLUSTER/cluster \\
        --log-stream-name-prefix kube-apiserver-audit \\
        --filter-pattern '{ ($.verb = "create" || $.verb = "update" || $.verb = "patch" || $.verb = "delete" || $.verb = "deletecollection") && ($.objectRef.resource = "pods" || $.objectRef.resource = "replicationcontrollers" || $.objectRef.resource = "replicasets" || $.objectRef.resource = "deployments") }' \\
        --output json > audit.json
      "
    `);
  });

  it('aks, one namespace and a window', () => {
    expect(shop('aks')).toMatchInlineSnapshot(`
      "# history --print-query aks: Azure Monitor Log Analytics (AKS audit logs)
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: shop.
      # Time: 2026-05-04T08:00:00Z to 2026-05-04T10:00:00Z (UTC, both included).
      #   Writes before the window are not fetched: an object made earlier is known from its first write in it.
      # Target rs/web: not filtered here (its pods' names are generated, and its Deployment's writes hold the causes):
      #   the query keeps the whole namespace, and history picks rs/web out of it.
      # Replace WORKSPACE_ID (the Log Analytics workspace's ID, a GUID) and CLUSTER (the AKS cluster's name).
      # Needs a diagnostic setting that sends kube-audit-admin (every write, no get or list) to the workspace;
      #   in resource-specific mode it lands in AKSAuditAdmin (this query), in Azure diagnostics mode in
      #   AzureDiagnostics (the variant at the end).
      # AKSAuditAdmin has no impersonated user, and a body too big for it reads "skipped-too-big-size-object"
      #   (history counts it as truncated). A query returns at most 500,000 rows and 64 MB: split the window
      #   if it fails for that.

      # Log Analytics query (KQL):
      AKSAuditAdmin
      | where _ResourceId endswith "/managedclusters/CLUSTER"
      | where TimeGenerated between (datetime(2026-05-04T08:00:00Z) .. datetime(2026-05-04T10:00:00Z))
      | where Verb in ("create", "update", "patch", "delete", "deletecollection")
      | where tostring(ObjectRef.namespace) == "shop"
      | where (tostring(ObjectRef.resource) == "pods" and tostring(ObjectRef.subresource) in ("", "status", "binding", "eviction"))
          or (tostring(ObjectRef.resource) == "replicationcontrollers" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "replicasets" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "deployments" and tostring(ObjectRef.subresource) in ("", "scale"))
      | order by TimeGenerated asc

      # The command: writes audit.json; then kubectl rs-reconcile history rs/web -n shop --audit-log audit.json
      az monitor log-analytics query -w WORKSPACE_ID --analytics-query 'AKSAuditAdmin
      | where _ResourceId endswith "/managedclusters/CLUSTER"
      | where TimeGenerated between (datetime(2026-05-04T08:00:00Z) .. datetime(2026-05-04T10:00:00Z))
      | where Verb in ("create", "update", "patch", "delete", "deletecollection")
      | where tostring(ObjectRef.namespace) == "shop"
      | where (tostring(ObjectRef.resource) == "pods" and tostring(ObjectRef.subresource) in ("", "status", "binding", "eviction"))
          or (tostring(ObjectRef.resource) == "replicationcontrollers" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "replicasets" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "deployments" and tostring(ObjectRef.subresource) in ("", "scale"))
      | order by TimeGenerated asc' -o json > audit.json

      # Azure diagnostics mode: the same in AzureDiagnostics (the event is the JSON text log_s, cut at
      #   32,766 bytes; a cut one does not parse and is left out):
      #   AzureDiagnostics
      #   | where Category == "kube-audit-admin"
      #   | where _ResourceId endswith "/managedclusters/CLUSTER"
      #   | where TimeGenerated between (datetime(2026-05-04T08:00:00Z) .. datetime(2026-05-04T10:00:00Z))
      #   | extend e = parse_json(log_s)
      #   | where tostring(e.verb) in ("create", "update", "patch", "delete", "deletecollection")
      #   | where tostring(e.objectRef.namespace) == "shop"
      #   | where (tostring(e.objectRef.resource) == "pods" and tostring(e.objectRef.subresource) in ("", "status", "binding", "eviction"))
      #       or (tostring(e.objectRef.resource) == "replicationcontrollers" and tostring(e.objectRef.subresource) in ("", "status", "scale"))
      #       or (tostring(e.objectRef.resource) == "replicasets" and tostring(e.objectRef.subresource) in ("", "status", "scale"))
      #       or (tostring(e.objectRef.resource) == "deployments" and tostring(e.objectRef.subresource) in ("", "scale"))
      #   | project-away e
      #   | order by TimeGenerated asc
      "
    `);
  });

  it('aks, every namespace, no window', () => {
    expect(all('aks')).toMatchInlineSnapshot(`
      "# history --print-query aks: Azure Monitor Log Analytics (AKS audit logs)
      # Selects the writes \`history\` reads: create, update, patch, delete and deletecollection of pods
      #   (with pods/status, /binding, /eviction), replicasets and replicationcontrollers (with /status,
      #   /scale) and deployments (with /scale). No get, list or watch.
      # Namespace: all (-A): every namespace's writes, a lot on a large cluster; -n NAMESPACE selects one.
      # Time: no bound: everything the logs still keep; --since and --until bound it.
      # Replace WORKSPACE_ID (the Log Analytics workspace's ID, a GUID) and CLUSTER (the AKS cluster's name).
      # Needs a diagnostic setting that sends kube-audit-admin (every write, no get or list) to the workspace;
      #   in resource-specific mode it lands in AKSAuditAdmin (this query), in Azure diagnostics mode in
      #   AzureDiagnostics (the variant at the end).
      # AKSAuditAdmin has no impersonated user, and a body too big for it reads "skipped-too-big-size-object"
      #   (history counts it as truncated). A query returns at most 500,000 rows and 64 MB: split the window
      #   if it fails for that.

      # Log Analytics query (KQL):
      AKSAuditAdmin
      | where _ResourceId endswith "/managedclusters/CLUSTER"
      | where Verb in ("create", "update", "patch", "delete", "deletecollection")
      | where (tostring(ObjectRef.resource) == "pods" and tostring(ObjectRef.subresource) in ("", "status", "binding", "eviction"))
          or (tostring(ObjectRef.resource) == "replicationcontrollers" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "replicasets" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "deployments" and tostring(ObjectRef.subresource) in ("", "scale"))
      | order by TimeGenerated asc

      # The command: writes audit.json; then kubectl rs-reconcile history -A --audit-log audit.json
      az monitor log-analytics query -w WORKSPACE_ID --analytics-query 'AKSAuditAdmin
      | where _ResourceId endswith "/managedclusters/CLUSTER"
      | where Verb in ("create", "update", "patch", "delete", "deletecollection")
      | where (tostring(ObjectRef.resource) == "pods" and tostring(ObjectRef.subresource) in ("", "status", "binding", "eviction"))
          or (tostring(ObjectRef.resource) == "replicationcontrollers" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "replicasets" and tostring(ObjectRef.subresource) in ("", "status", "scale"))
          or (tostring(ObjectRef.resource) == "deployments" and tostring(ObjectRef.subresource) in ("", "scale"))
      | order by TimeGenerated asc' -o json > audit.json

      # Azure diagnostics mode: the same in AzureDiagnostics (the event is the JSON text log_s, cut at
      #   32,766 bytes; a cut one does not parse and is left out):
      #   AzureDiagnostics
      #   | where Category == "kube-audit-admin"
      #   | where _ResourceId endswith "/managedclusters/CLUSTER"
      #   | extend e = parse_json(log_s)
      #   | where tostring(e.verb) in ("create", "update", "patch", "delete", "deletecollection")
      #   | where (tostring(e.objectRef.resource) == "pods" and tostring(e.objectRef.subresource) in ("", "status", "binding", "eviction"))
      #       or (tostring(e.objectRef.resource) == "replicationcontrollers" and tostring(e.objectRef.subresource) in ("", "status", "scale"))
      #       or (tostring(e.objectRef.resource) == "replicasets" and tostring(e.objectRef.subresource) in ("", "status", "scale"))
      #       or (tostring(e.objectRef.resource) == "deployments" and tostring(e.objectRef.subresource) in ("", "scale"))
      #   | project-away e
      #   | order by TimeGenerated asc
      "
    `);
  });

  it('the printed block holds its query and its command, every comment line starting with #', () => {
    for (const [cloud, what, o] of everyCase) {
      const q = buildCloudQuery(o);
      expect(q.text, `${cloud} ${what}`).toContain(`\n${q.query}\n`);
      expect(q.text, `${cloud} ${what}`).toContain(`\n${q.command}\n`);
      const rest = q.text.replace(q.query, '').replace(q.command, '');
      for (const line of rest.split('\n')) expect(line === '' || line.startsWith('#'), `${cloud} ${what}: ${line}`).toBe(true);
      expect(q.text.endsWith('\n')).toBe(true);
    }
  });
});

describe('history --print-query: what each query selects', () => {
  it('names the four resources and the five write verbs, and no read verb', () => {
    for (const [cloud, what, o] of everyCase) {
      const { query, command } = buildCloudQuery(o);
      for (const text of cloud === 'eks' ? [query, command] : [query]) {
        for (const r of ['pods', 'replicasets', 'replicationcontrollers', 'deployments'])
          expect(text, `${cloud} ${what}: ${r}`).toMatch(new RegExp(`\\b${r}\\b`));
        for (const v of WRITE_VERBS) expect(text, `${cloud} ${what}: ${v}`).toMatch(new RegExp(`\\b${v}\\b`));
        for (const v of ['get', 'list', 'watch', 'horizontalpodautoscalers']) expect(text, `${cloud} ${what}: ${v}`).not.toMatch(new RegExp(`\\b${v}\\b`));
      }
    }
    expect(QUERY_RESOURCES.map((r) => r.resource).sort()).toEqual(['deployments', 'pods', 'replicasets', 'replicationcontrollers']);
  });

  it('the namespace is in the query only with -n; the target only in the comments, with the reason', () => {
    for (const cloud of QUERY_CLOUDS) {
      const one = buildCloudQuery({ cloud, namespace: 'payments-eu', target: { kind: 'Pod', name: 'web-7d9c5b6f4-x2k8q' } });
      expect(one.query, cloud).toContain('payments-eu');
      expect(one.query + one.command, cloud).not.toContain('web-7d9c5b6f4-x2k8q');
      expect(one.text, cloud).toContain("# Target pod/web-7d9c5b6f4-x2k8q: not filtered here (a pod's story needs its controller's other pods):");
      expect(one.text, cloud).toContain('kubectl rs-reconcile history pod/web-7d9c5b6f4-x2k8q -n payments-eu --audit-log audit.json');
      const every = buildCloudQuery({ cloud });
      expect(every.query + every.command, cloud).not.toMatch(/namespace[^s]*"|namespaces\//);
      expect(every.text, cloud).toContain('# Namespace: all (-A)');
      expect(every.text, cloud).toContain('kubectl rs-reconcile history -A --audit-log audit.json');
    }
    expect(cloudAuditQuery({ cloud: 'gke', namespace: 'a', target: { kind: 'Deployment', name: 'web' } })).toContain(
      '# Target deploy/web: not filtered here (its ReplicaSets and their pods have generated names):',
    );
    expect(cloudAuditQuery({ cloud: 'gke', namespace: 'a', target: { kind: 'ReplicationController', name: 'api' } })).toContain(
      '# Target rc/api: not filtered here',
    );
    expect(cloudAuditQuery({ cloud: 'gke', namespace: 'a', target: { kind: null, name: 'api' } })).toContain('# Target api: not filtered here');
  });

  it('the GKE and BigQuery methodName regexes select exactly the writes history reads', () => {
    const selected = [
      'io.k8s.core.v1.pods.create',
      'io.k8s.core.v1.pods.update',
      'io.k8s.core.v1.pods.patch',
      'io.k8s.core.v1.pods.delete',
      'io.k8s.core.v1.pods.deletecollection',
      'io.k8s.core.v1.pods.status.patch',
      'io.k8s.core.v1.pods.status.update',
      'io.k8s.core.v1.pods.binding.create',
      'io.k8s.core.v1.pods.eviction.create',
      'io.k8s.core.v1.replicationcontrollers.update',
      'io.k8s.core.v1.replicationcontrollers.status.update',
      'io.k8s.core.v1.replicationcontrollers.scale.patch',
      'io.k8s.apps.v1.replicasets.create',
      'io.k8s.apps.v1.replicasets.status.update',
      'io.k8s.apps.v1.replicasets.scale.update',
      'io.k8s.apps.v1.replicasets.deletecollection',
      'io.k8s.apps.v1.deployments.patch',
      'io.k8s.apps.v1.deployments.scale.update',
    ];
    const refused = [
      'io.k8s.core.v1.pods.get',
      'io.k8s.core.v1.pods.list',
      'io.k8s.core.v1.pods.watch',
      'io.k8s.core.v1.pods.exec.create',
      'io.k8s.core.v1.pods.log.get',
      'io.k8s.core.v1.pods.ephemeralcontainers.patch',
      'io.k8s.core.v1.nodes.status.patch',
      'io.k8s.apps.v1.deployments.status.update',
      'io.k8s.apps.v1.deployments.rollback.create',
      'io.k8s.apps.v1.statefulsets.update',
      'io.k8s.autoscaling.v2.horizontalpodautoscalers.update',
      'io.k8s.core.v1.podsXstatus.patch',
      'io.k8s.core.v1.pods.createx',
      'xio.k8s.core.v1.pods.create',
    ];
    const gke = /protoPayload\.methodName=~"(.*)"$/m.exec(buildCloudQuery({ cloud: 'gke' }).query)![1];
    const bq = /methodName, r"(.*)"\)$/m.exec(buildCloudQuery({ cloud: 'bigquery' }).query)![1];
    expect(gke).not.toContain('\\'); // no backslash for a Logging string's escapes to change
    for (const source of [gke, bq]) {
      const re = new RegExp(source);
      for (const m of selected) expect(re.test(m), `${source} ${m}`).toBe(true);
      for (const m of refused) expect(re.test(m), `${source} ${m}`).toBe(false);
    }
  });

  it("the namespace's resourceName prefix: its objects and collections, not a namespace that starts alike", () => {
    const gke = /protoPayload\.resourceName=~"(.*)"$/m.exec(buildCloudQuery({ cloud: 'gke', namespace: 'shop' }).query)![1];
    const bq = /resourceName, r"(.*)"\)$/m.exec(buildCloudQuery({ cloud: 'bigquery', namespace: 'shop' }).query)![1];
    for (const source of [gke, bq]) {
      const re = new RegExp(source);
      for (const r of [
        'core/v1/namespaces/shop/pods/web-x',
        'core/v1/namespaces/shop/pods',
        'core/v1/namespaces/shop/pods/web-x/binding',
        'apps/v1/namespaces/shop/replicasets/web/scale',
      ])
        expect(re.test(r), r).toBe(true);
      for (const r of ['core/v1/namespaces/shop-v2/pods/web-x', 'core/v1/namespaces/myshop/pods/x', 'core/v1/nodes/shop', 'batch/v1/namespaces/shop/jobs/x'])
        expect(re.test(r), r).toBe(false);
    }
  });

  it('the time bounds: absolute RFC 3339 UTC, the window widened to whole seconds, each cloud in its unit', () => {
    const o = { namespace: 'shop', sinceMs: Date.parse('2026-05-04T23:59:59.250Z'), untilMs: Date.parse('2026-05-05T00:00:10.001Z') };
    const gke = buildCloudQuery({ cloud: 'gke', ...o });
    expect(gke.query).toContain('timestamp>="2026-05-04T23:59:59Z"\ntimestamp<="2026-05-05T00:00:11Z"');
    const bq = buildCloudQuery({ cloud: 'bigquery', ...o });
    expect(bq.query).toContain('_TABLE_SUFFIX BETWEEN "activity_20260504" AND "activity_20260505"');
    expect(bq.query).toContain('_TABLE_SUFFIX BETWEEN "data_access_20260504" AND "data_access_20260505"');
    expect(bq.query).toContain('AND timestamp >= TIMESTAMP("2026-05-04T23:59:59Z")\n  AND timestamp <= TIMESTAMP("2026-05-05T00:00:11Z")');
    const eks = buildCloudQuery({ cloud: 'eks', ...o });
    const { words } = commandLine(eks.command);
    expect(flag(words, '--start-time')).toBe(String(Date.parse('2026-05-04T23:59:59Z')));
    expect(flag(words, '--end-time')).toBe(String(Date.parse('2026-05-05T00:00:11Z')));
    expect(eks.text).toContain(`--start-time ${Date.parse('2026-05-04T23:59:59Z') / 1000} --end-time ${Date.parse('2026-05-05T00:00:11Z') / 1000}`);
    const aks = buildCloudQuery({ cloud: 'aks', ...o });
    expect(aks.query).toContain('| where TimeGenerated between (datetime(2026-05-04T23:59:59Z) .. datetime(2026-05-05T00:00:11Z))');

    // one bound alone
    expect(buildCloudQuery({ cloud: 'aks', sinceMs: SINCE }).query).toContain('| where TimeGenerated >= datetime(2026-05-04T08:00:00Z)\n');
    expect(buildCloudQuery({ cloud: 'aks', untilMs: UNTIL }).query).toContain('| where TimeGenerated <= datetime(2026-05-04T10:00:00Z)\n');
    expect(buildCloudQuery({ cloud: 'bigquery', sinceMs: SINCE }).query).toContain('BETWEEN "activity_20260504" AND "activity_99999999"');
    expect(buildCloudQuery({ cloud: 'bigquery', untilMs: UNTIL }).query).toContain('BETWEEN "activity_00000000" AND "activity_20260504"');
    const eksUntil = commandLine(buildCloudQuery({ cloud: 'eks', untilMs: UNTIL }).command).words;
    expect(flag(eksUntil, '--start-time')).toBeUndefined();
    expect(flag(eksUntil, '--end-time')).toBe(String(UNTIL));
    // no bound at all: none in the query, and the comment says so
    for (const cloud of QUERY_CLOUDS) {
      const q = buildCloudQuery({ cloud });
      expect(q.query + q.command, cloud).not.toMatch(/20\d\d-\d\d-\d\dT|timestamp *[<>]=|--start-time|--end-time|datetime\(/);
      expect(q.text, cloud).toContain('# Time: no bound: everything the logs still keep');
    }
    expect(buildCloudQuery({ cloud: 'eks' }).text).toContain('--start-time START_SECONDS --end-time END_SECONDS');
  });

  it('says what each source cannot tell, and what to replace', () => {
    const text = (cloud: QueryCloud) => cloudAuditQuery({ cloud, namespace: 'shop' });
    expect(text('gke')).toContain('Data Access DATA_WRITE entries, off by default');
    expect(text('gke')).toContain('# No --freshness: gcloud applies it (default 1d) only with --order=desc');
    expect(text('gke')).toContain('# Replace PROJECT');
    expect(text('bigquery')).toContain('bq prints at most --max_rows rows (default 100)');
    expect(text('bigquery')).toContain('_TABLE_SUFFIX IN ("activity", "data_access")');
    expect(text('eks')).toContain('[Truncated...]');
    expect(text('eks')).toContain('at most 10,000 rows');
    expect(text('aks')).toContain('skipped-too-big-size-object');
    expect(text('aks')).toContain('no impersonated user');
    expect(text('aks')).toContain('#   AzureDiagnostics\n#   | where Category == "kube-audit-admin"\n');
    expect(text('aks')).toContain('parse_json(log_s)');
    // placeholders are capitalised words, never values that look real
    for (const cloud of QUERY_CLOUDS) {
      const q = buildCloudQuery({ cloud, namespace: 'shop' });
      expect(q.query + q.command, cloud).not.toMatch(/acme|prod-1|my-project|us-central1|eu-west|0b62a232/i);
    }
    expect(buildCloudQuery({ cloud: 'gke' }).command).toContain('--project=PROJECT');
    expect(buildCloudQuery({ cloud: 'gke' }).query).toContain('resource.labels.cluster_name="CLUSTER"');
    expect(buildCloudQuery({ cloud: 'bigquery' }).query).toContain('`PROJECT.DATASET.cloudaudit_googleapis_com_*`');
    expect(buildCloudQuery({ cloud: 'eks' }).command).toContain('--log-group-name /aws/eks/CLUSTER/cluster');
    expect(buildCloudQuery({ cloud: 'aks' }).command).toContain('-w WORKSPACE_ID');
    expect(buildCloudQuery({ cloud: 'aks' }).query).toContain('_ResourceId endswith "/managedclusters/CLUSTER"');
  });
});

describe('history --print-query: the commands are shell-safe', () => {
  it('the gcloud filter is one single-quoted argument, exactly the printed filter', () => {
    const q = buildCloudQuery({ cloud: 'gke', namespace: 'shop', sinceMs: SINCE, untilMs: UNTIL });
    const { words, file } = commandLine(q.command);
    expect(words).toEqual(['gcloud', 'logging', 'read', q.query, '--project=PROJECT', '--order=asc', '--format=json']);
    expect(file).toBe('audit.json');
    expect(q.query).toContain('$'); // the regex's end: literal inside the quotes
  });

  it('every command reads back to its query as one argument, and writes audit.json', () => {
    for (const [cloud, what, o] of everyCase) {
      const q = buildCloudQuery(o);
      const { words, file } = commandLine(q.command);
      expect(file, `${cloud} ${what}`).toBe('audit.json');
      if (cloud === 'gke') expect(words.slice(0, 4)).toEqual(['gcloud', 'logging', 'read', q.query]);
      if (cloud === 'bigquery') {
        expect(words).toEqual(['bq', 'query', '--use_legacy_sql=false', '--format=json', '--max_rows=1000000', q.query]);
      }
      if (cloud === 'aks') expect(words).toEqual(['az', 'monitor', 'log-analytics', 'query', '-w', 'WORKSPACE_ID', '--analytics-query', q.query, '-o', 'json']);
      if (cloud === 'eks') {
        expect(words.slice(0, 4)).toEqual(['aws', 'logs', 'filter-log-events', '--log-group-name']);
        expect(flag(words, '--log-group-name')).toBe('/aws/eks/CLUSTER/cluster');
        expect(flag(words, '--log-stream-name-prefix')).toBe('kube-apiserver-audit');
        expect(flag(words, '--output')).toBe('json');
      }
    }
  });

  it("the EKS filter pattern is one valid JSON pattern: braces, balanced parentheses, within CloudWatch's 1,024 characters", () => {
    const longest = 'n'.repeat(63);
    for (const namespace of [undefined, 'shop', longest]) {
      const { words } = commandLine(buildCloudQuery({ cloud: 'eks', namespace }).command);
      const pattern = flag(words, '--filter-pattern')!;
      expect(pattern.startsWith('{ ') && pattern.endsWith(' }')).toBe(true);
      expect(pattern.length).toBeLessThanOrEqual(1024);
      let depth = 0;
      for (const c of pattern) {
        depth += c === '(' ? 1 : c === ')' ? -1 : 0;
        expect(depth).toBeGreaterThanOrEqual(0);
      }
      expect(depth).toBe(0);
      // only string equalities joined by || and &&, no regex (%…%), no IN
      const conditions = pattern
        .slice(2, -2)
        .replace(/[()]/g, ' ')
        .split(/\|\||&&/)
        .map((s) => s.trim());
      for (const c of conditions) expect(c).toMatch(/^\$\.[A-Za-z.]+ = "[a-z0-9-]+"$/);
      expect(conditions.length).toBe(namespace === undefined ? 9 : 10);
      if (namespace) expect(pattern).toContain(`&& ($.objectRef.namespace = "${namespace}") }`);
    }
  });

  it('shellQuote gives back any string as one word (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(shellWords(shellQuote(s))).toEqual([{ word: s }]);
        expect(shellWords(`cmd ${shellQuote(s)} > out`)).toEqual([{ word: 'cmd' }, { word: s }, { op: '>' }, { word: 'out' }]);
      }),
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellWords("echo '$(rm -rf /)' '`x`'")).toEqual([{ word: 'echo' }, { word: '$(rm -rf /)' }, { word: '`x`' }]);
  });

  it('the reader itself refuses what the shell would expand', () => {
    expect(() => shellWords('echo $HOME')).toThrow(/unquoted "\$"/);
    expect(() => shellWords('echo "$HOME"')).toThrow(/expansion/);
    expect(() => shellWords('echo a*')).toThrow(/unquoted/);
    expect(() => shellWords("echo 'open")).toThrow(/unterminated/);
  });
});

describe('history --print-query: string literals are escaped', () => {
  it('SQL, KQL and Logging strings: quotes, backslashes and newlines escaped', () => {
    for (const lit of [sqlString, kqlString, loggingString]) {
      expect(lit('shop')).toBe('"shop"');
      expect(lit('a"b')).toBe('"a\\"b"');
      expect(lit('a\\b')).toBe('"a\\\\b"');
      expect(lit('a\\"; DROP TABLE x; --')).toBe('"a\\\\\\"; DROP TABLE x; --"');
      expect(lit('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
      expect(lit("it's")).toBe('"it\'s"');
    }
  });

  it('read back, every string is itself, and never ends its literal early (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        for (const lit of [sqlString, kqlString, loggingString]) expect(readBackslashString(lit(s))).toBe(s);
      }),
    );
  });
});

describe('history --print-query: the values a user gives are checked', () => {
  const one = (o: Partial<CloudQueryOptions>) => () => buildCloudQuery({ cloud: 'gke', ...o } as CloudQueryOptions);
  const message = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message;
    }
    throw new Error('no error');
  };

  it('refuses a namespace that is not an RFC 1123 label, in one line', () => {
    for (const ns of ['', 'Shop', 'shop_1', '-shop', 'shop-', 'shop.eu', 'n'.repeat(64), 'a"b', "a'b", 'a b', 'a\nb', '$(reboot)', 'shop/', 'shöp', 'a\\b']) {
      const m = message(one({ namespace: ns }));
      expect(m, JSON.stringify(ns)).toMatch(/^invalid namespace ".*": a namespace is a lowercase RFC 1123 label/);
      expect(m).not.toContain('\n');
      expect(m).toContain(JSON.stringify(ns));
    }
    expect(() => buildCloudQuery({ cloud: 'gke', namespace: 'n'.repeat(63) })).not.toThrow();
    expect(() => buildCloudQuery({ cloud: 'gke', namespace: '0' })).not.toThrow();
  });

  it('refuses a target name that is not an RFC 1123 subdomain, in one line', () => {
    for (const name of ['', 'Web', 'web_1', 'web/x', '-web', 'web.', 'a..b', 'x'.repeat(254), 'web\n# rm -rf /', "web'", 'we b']) {
      for (const kind of ['ReplicaSet', 'Pod', 'Deployment', 'ReplicationController', null] as const) {
        const m = message(one({ namespace: 'shop', target: { kind, name } }));
        expect(m, JSON.stringify(name)).toMatch(/^invalid name ".*" in ".*": a name is a lowercase RFC 1123 subdomain/);
        expect(m).not.toContain('\n');
      }
    }
    expect(message(one({ target: { kind: 'Pod', name: 'Web' } }))).toContain('in "pod/Web"');
    expect(() => buildCloudQuery({ cloud: 'eks', namespace: 'shop', target: { kind: 'Pod', name: 'web-7d9c5b6f4-x2k8q.v2' } })).not.toThrow();
  });

  it('refuses an unknown cloud, a time that is not one, and a window that ends before it starts', () => {
    expect(message(() => buildCloudQuery({ cloud: 'azure' as QueryCloud }))).toBe(
      'unknown cloud "azure" for --print-query: expected one of gke, bigquery, eks, aks',
    );
    for (const t of [Number.NaN, Number.POSITIVE_INFINITY, -1, Date.UTC(10000, 0, 1)]) {
      expect(message(one({ sinceMs: t }))).toMatch(/^invalid --since for a query: /);
      expect(message(one({ untilMs: t }))).toMatch(/^invalid --until for a query: /);
    }
    expect(message(one({ sinceMs: UNTIL, untilMs: SINCE }))).toBe(
      '--until 2026-05-04T08:00:00Z is before --since 2026-05-04T10:00:00Z: nothing is between them',
    );
    expect(() => buildCloudQuery({ cloud: 'gke', sinceMs: SINCE, untilMs: SINCE })).not.toThrow();
  });

  it('any valid namespace and name give a query that parses back, with the namespace in it (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    const subdomain = fc
      .array(label, { minLength: 1, maxLength: 4 })
      .map((xs) => xs.join('.'))
      .filter((s) => s.length <= 253);
    fc.assert(
      fc.property(
        fc.constantFrom(...QUERY_CLOUDS),
        label,
        subdomain,
        fc.constantFrom('ReplicaSet', 'Pod', 'Deployment', null),
        (cloud, namespace, name, kind) => {
          const q = buildCloudQuery({ cloud, namespace, target: { kind: kind as 'Pod', name }, sinceMs: SINCE });
          const { words } = commandLine(q.command);
          if (cloud !== 'eks') expect(words).toContain(q.query);
          else expect(flag(words, '--filter-pattern')).toContain(`"${namespace}"`);
          expect(q.query).toContain(namespace);
        },
      ),
      { numRuns: 200 },
    );
  });
});
