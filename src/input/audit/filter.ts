// What a caller wants of the audit inputs, told before an entry is parsed.

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
