// One kube-apiserver audit `Event` (audit.k8s.io/v1, as written with --audit-log-format=json)
// read as the write it logs. Only writes of pods, ReplicaSets and ReplicationControllers that
// reached storage matter to the history: reads, other resources and dry runs are left out here.

import type { ApiWrite } from './types.js';
import { isObj } from '../core/guards.js';

// Deployments: their changes are what the deployment controller's writes of ReplicaSets carry out (cause chains).
const RESOURCES = new Set(['pods', 'replicasets', 'replicationcontrollers', 'deployments']);
const VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export class AuditFormatError extends Error {}

/** The code of a write whose log entry was cut before its answer: whether the server accepted it is unknown. */
export const UNKNOWN_OUTCOME = -1;

const TRUNCATED = 'audit.k8s.io/truncated';

/**
 * The write an audit event logs, or null when it is not one the history follows. Throws
 * AuditFormatError when the line is not an audit event at all.
 */
export function writeOfAuditEvent(e: unknown): ApiWrite | null {
  if (!isObj(e) || e.kind !== 'Event' || typeof e.apiVersion !== 'string' || !e.apiVersion.startsWith('audit.k8s.io/')) {
    throw new AuditFormatError(
      `not an audit event (kind ${describe(isObj(e) ? e.kind : e)}, apiVersion ${describe(isObj(e) ? e.apiVersion : undefined)}; expected kind Event, apiVersion audit.k8s.io/v1)`,
    );
  }
  // Only the final answer carries the response status (RequestReceived/ResponseStarted do not).
  if (e.stage !== undefined && e.stage !== 'ResponseComplete') return null;
  if (!VERBS.has(e.verb)) return null;
  const ref = e.objectRef;
  if (!isObj(ref) || !RESOURCES.has(ref.resource) || typeof ref.namespace !== 'string') return null;
  if (typeof e.requestURI === 'string' && /[?&]dryRun=/.test(e.requestURI)) return null;
  // kubectl delete --dry-run=server sends dryRun in the DeleteOptions body, not the query
  if (isObj(e.requestObject) && e.requestObject.kind === 'DeleteOptions' && Array.isArray(e.requestObject.dryRun) && e.requestObject.dryRun.length > 0)
    return null;
  const time = typeof e.requestReceivedTimestamp === 'string' ? e.requestReceivedTimestamp : typeof e.stageTimestamp === 'string' ? e.stageTimestamp : null;
  if (time === null) throw new AuditFormatError('audit event without requestReceivedTimestamp or stageTimestamp');
  // kube-apiserver's truncate backend, and the cloud exports' cuts read back (src/input/audit), mark the entry
  const truncated = isObj(e.annotations) && e.annotations[TRUNCATED] === 'true';
  const code = isObj(e.responseStatus) && typeof e.responseStatus.code === 'number' ? e.responseStatus.code : truncated ? UNKNOWN_OUTCOME : 0;
  const request = isObj(e.requestObject) ? e.requestObject : null;
  const response = isObj(e.responseObject) ? e.responseObject : null;
  return {
    time,
    // when it finished, where the log tells it apart from when it was received
    finished: typeof e.stageTimestamp === 'string' && typeof e.requestReceivedTimestamp === 'string' ? e.stageTimestamp : undefined,
    // the user the request acted as (kubectl --as) is the one who wrote it
    user:
      isObj(e.impersonatedUser) && typeof e.impersonatedUser.username === 'string'
        ? e.impersonatedUser.username
        : isObj(e.user) && typeof e.user.username === 'string'
          ? e.user.username
          : '<unknown user>',
    userAgent: typeof e.userAgent === 'string' ? e.userAgent : '',
    verb: e.verb,
    resource: ref.resource,
    subresource: typeof ref.subresource === 'string' && ref.subresource !== '' ? ref.subresource : null,
    namespace: ref.namespace,
    name: typeof ref.name === 'string' && ref.name !== '' ? ref.name : null,
    code,
    bodies: e.level === 'RequestResponse' && response !== null && !truncated,
    truncated,
    request,
    response,
  };
}

function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : v === undefined ? 'missing' : typeof v;
}
