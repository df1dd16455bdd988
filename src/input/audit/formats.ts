// The audit exports `history --audit-log` reads, by the names of the history contract's
// `coverage.format` (docs/history-format.md; docs/cloud-audit-logs.md for each shape). src/input may not import src/history, so the names are spelled here; the tests check
// that they are exactly the contract's CoverageFormat minus 'events' and 'recording'.

export const AUDIT_FORMATS = [
  'kube-apiserver',
  'gke-cloud-logging',
  'gke-bigquery',
  'eks-cloudwatch',
  'eks-s3-export',
  'eks-logs-insights',
  'aks-storage',
  'aks-event-hub',
  'aks-log-analytics',
  'openshift-node-logs',
  'openshift-must-gather',
] as const;

export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export function isAuditFormat(s: string): s is AuditFormat {
  return (AUDIT_FORMATS as readonly string[]).includes(s);
}

/** What each format is, in the words of the command that made it (for messages and --help). */
export const FORMAT_DESCRIPTIONS: Record<AuditFormat, string> = {
  'kube-apiserver': 'kube-apiserver audit log (JSON lines, --audit-log-format=json)',
  'gke-cloud-logging': 'GKE Cloud Logging entries (gcloud logging read --format=json, a Cloud Storage sink, Pub/Sub)',
  'gke-bigquery': 'GKE audit logs from a BigQuery sink (bq query --format=json)',
  'eks-cloudwatch': 'EKS audit logs from CloudWatch (aws logs filter-log-events / get-log-events)',
  'eks-s3-export': 'EKS audit logs exported from CloudWatch to S3 ("<time> <event>" lines)',
  'eks-logs-insights': 'EKS audit logs from CloudWatch Logs Insights (get-query-results, console JSON or CSV)',
  'aks-storage': 'AKS diagnostic logs archived to a storage account (PT1H.json)',
  'aks-event-hub': 'AKS diagnostic logs from Event Hub ({"records": [...]})',
  'aks-log-analytics': 'AKS audit rows from Log Analytics (az monitor log-analytics query: AKSAudit, AKSAuditAdmin, AzureDiagnostics)',
  'openshift-node-logs': 'OpenShift oc adm node-logs output ("<node> <event>" lines)',
  'openshift-must-gather': 'OpenShift must-gather audit logs (audit_logs/**/<node>-audit.log.gz)',
};

/**
 * Entries the caller certainly does not want, told from a few bytes without parsing them: an
 * entry is skipped only when its stage, verb or resource is known for sure and is not listed.
 */
export interface AuditFilter {
  stages: ReadonlySet<string>;
  verbs: ReadonlySet<string>;
  resources: ReadonlySet<string>;
}

/** The writes `history` replays: answered writes of pods, ReplicaSets, ReplicationControllers and Deployments. */
export const HISTORY_WRITES: AuditFilter = {
  stages: new Set(['ResponseComplete']),
  verbs: new Set(['create', 'update', 'patch', 'delete', 'deletecollection']),
  resources: new Set(['pods', 'replicasets', 'replicationcontrollers', 'deployments']),
};

/** The annotation (GKE: label) that upstream's truncate backend sets when it drops the bodies. */
export const TRUNCATED_ANNOTATION = 'audit.k8s.io/truncated';
