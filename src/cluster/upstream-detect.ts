// Is the upstream ReplicaSet controller (kube-controller-manager) running in this cluster? Two
// controllers acting on the same ReplicaSets fight over pods, so `run` looks for its footprints:
// recent Events recorded by `replicaset-controller`, `replication-controller` or
// `deployment-controller` (upstream's event sources: SuccessfulCreate, SuccessfulDelete,
// FailedCreate, FailedDelete, SelectingAll, ScalingReplicaSet).
//
// Events are looked up with field selectors on source and reportingComponent (kube-apiserver
// selects on both), paginated; a server that rejects those selectors gets one unfiltered
// listing. Events recorded by rs-reconcile itself are never evidence.

import { CoreV1Api, type CoreV1EventList } from '@kubernetes/client-node';
// Not re-exported by the package root; the models carry Date objects and need it both ways.
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { parseTime, humanDuration } from '../core/time.js';
import type { ApiError } from '../runtime/api.js';
import { REPORTING_CONTROLLER, toApiError } from './controller-api.js';
import type { Connection } from './kubeconfig.js';
import { UserError } from '../errors.js';

// deployment-controller too: `run` is also the deployment controller (ScalingReplicaSet Events)
const UPSTREAM_COMPONENTS = ['replicaset-controller', 'replication-controller', 'deployment-controller'] as const;
const DEFAULT_DETECT_WITHIN_MS = 60 * 60 * 1000;

export interface UpstreamDetection {
  found: boolean;
  /** `Event SuccessfulCreate on ReplicaSet shop/web 3m ago by replicaset-controller`. */
  evidence: string | null;
  /** Set when the events could not be read (403): the answer is "unknown", not "absent". */
  warning?: string;
}

const PAGE = 500;
const MAX_PAGES = 20;

type Wire = Record<string, any>;

/** The time an event last happened: lastTimestamp, series, eventTime, firstTimestamp, creation. */
function eventTime(e: Wire): number | null {
  return (
    parseTime(e.lastTimestamp) ??
    parseTime(e.series?.lastObservedTime) ??
    parseTime(e.eventTime) ??
    parseTime(e.firstTimestamp) ??
    parseTime(e.metadata?.creationTimestamp)
  );
}

/** The upstream component that recorded the event, or null (ours and everybody else's). */
function upstreamComponent(e: Wire): string | null {
  const source = typeof e.source?.component === 'string' ? e.source.component : '';
  const reporting = typeof e.reportingComponent === 'string' ? e.reportingComponent : '';
  if (source === REPORTING_CONTROLLER || reporting === REPORTING_CONTROLLER) return null;
  for (const c of UPSTREAM_COMPONENTS) if (source === c || reporting === c) return c;
  return null;
}

function describe(e: Wire, component: string, ageMs: number): string {
  const obj = (e.involvedObject ?? {}) as Wire;
  const ns = obj.namespace || e.metadata?.namespace || '';
  const name = obj.name ? (ns ? `${ns}/${obj.name}` : obj.name) : '<unknown>';
  const kind = obj.kind || 'object';
  return `Event ${e.reason || '<no reason>'} on ${kind} ${name} ${humanDuration(ageMs / 1000)} ago by ${component}`;
}

async function listAll(api: CoreV1Api, namespace: string | null, fieldSelector: string | undefined): Promise<Wire[]> {
  const out: Wire[] = [];
  let cont: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const args = { fieldSelector, limit: PAGE, _continue: cont };
    const list: CoreV1EventList = namespace === null ? await api.listEventForAllNamespaces(args) : await api.listNamespacedEvent({ namespace, ...args });
    const wire = ObjectSerializer.serialize(list, 'CoreV1EventList') as Wire;
    out.push(...((wire.items as Wire[] | undefined) ?? []));
    cont = list.metadata?._continue || undefined;
    if (!cont) break;
  }
  return out;
}

function forbiddenWarning(err: ApiError, namespace: string | null): string {
  const where = namespace === null ? 'in all namespaces' : `in namespace "${namespace}"`;
  return `cannot tell whether kube-controller-manager runs the ReplicaSet controller: listing events ${where} is forbidden (${err.message})`;
}

/**
 * Looks for Events recorded by the upstream ReplicaSet/ReplicationController controller within
 * `withinMs` (default 1 h, the Events' own lifetime) before `now`, in `namespace` or, for null,
 * all namespaces. A 403 gives `found: false` with a warning; other failures throw an ApiError.
 */
export async function detectUpstreamController(
  conn: Connection,
  namespace: string | null,
  opts: { withinMs?: number; now?: number } = {},
): Promise<UpstreamDetection> {
  const withinMs = opts.withinMs ?? DEFAULT_DETECT_WITHIN_MS;
  const now = opts.now ?? Date.now();
  const api = conn.kc.makeApiClient(CoreV1Api);

  const selectors = UPSTREAM_COMPONENTS.flatMap((c) => [`source=${c}`, `reportingComponent=${c}`]);
  let events: Wire[];
  try {
    try {
      events = (await Promise.all(selectors.map((s) => listAll(api, namespace, s)))).flat();
    } catch (err) {
      const e = toApiError(err);
      if (e.code !== 400) throw e;
      events = await listAll(api, namespace, undefined); // "field label not supported"
    }
  } catch (err) {
    const e = toApiError(err);
    if (e.code === 403) return { found: false, evidence: null, warning: forbiddenWarning(e, namespace) };
    throw e;
  }

  let best: { e: Wire; component: string; at: number } | null = null;
  for (const e of events) {
    const component = upstreamComponent(e);
    if (!component) continue;
    const at = eventTime(e);
    if (at === null || now - at > withinMs) continue;
    if (!best || at > best.at) best = { e, component, at };
  }
  if (!best) return { found: false, evidence: null };
  return { found: true, evidence: describe(best.e, best.component, Math.max(0, now - best.at)) };
}

/**
 * `run` and `watch --reconcile` (without --force): refuses to start beside an active upstream
 * controller, since two controllers on the same objects fight over pods. `warn` hears why the
 * look was incomplete (a 403 on Events).
 */
export async function refuseBesideUpstreamController(conn: Connection, namespace: string | null, warn: (text: string) => void): Promise<void> {
  const found = await detectUpstreamController(conn, namespace);
  if (found.warning) warn(found.warning);
  if (found.found) {
    throw new UserError(
      `the upstream ReplicaSet controller is active ${namespace ? `in namespace "${namespace}"` : 'in this cluster'} (${found.evidence}): two controllers on the same objects fight; stop it or pass --force`,
    );
  }
}
