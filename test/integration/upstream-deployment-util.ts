// What upstream's Deployment tests (test/integration/deployment/util.go, test/utils/deployment.go)
// compute beside the API calls, for the two ports that run them against `run`
// (upstream-deployment.test.ts, upstream-e2e-deployment.test.ts). Written from upstream's
// definitions, independent of src/core/deployment: the tests must not agree with the rules by
// construction.
import type { V1Deployment, V1DeploymentStatus, V1PodTemplateSpec, V1ReplicaSet } from '@kubernetes/client-node';
import { until } from './env.js';

export const HASH = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
export const DESIRED = 'deployment.kubernetes.io/desired-replicas';
export const MAX = 'deployment.kubernetes.io/max-replicas';

const POLL_MS = 100;
/** upstream's pollTimeout */
export const TIMEOUT_MS = 60_000;

/** until, polling every 100 ms, whose timeout names what `fn` saw last (`seen`). */
export async function eventually<T>(what: string, fn: (seen: (s: string) => void) => Promise<T | false | null | undefined>, ms = TIMEOUT_MS): Promise<T> {
  let last = '';
  try {
    return await until(
      what,
      () =>
        fn((s) => {
          last = s;
        }),
      ms,
      POLL_MS,
    );
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('timed out')) throw new Error(`${e.message}${last ? `; last seen: ${last}` : ''}`);
    throw e;
  }
}

export const controllerOf = (o: { metadata?: { ownerReferences?: { controller?: boolean; uid: string }[] } }) =>
  o.metadata?.ownerReferences?.find((r) => r.controller === true) ?? null;

/** JSON with keys sorted and empty values left out: Semantic.DeepEqual's view of two defaulted objects. */
function canonical(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined && x !== null) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

/** EqualIgnoreHash: the two templates equal once the pod-template-hash label is left out of both. */
export function equalIgnoreHash(a: V1PodTemplateSpec | undefined, b: V1PodTemplateSpec | undefined): boolean {
  const strip = (t: V1PodTemplateSpec | undefined) => {
    const c = structuredClone(t ?? {});
    if (c.metadata?.labels) delete c.metadata.labels[HASH];
    return JSON.stringify(canonical(c));
  };
  return strip(a) === strip(b);
}

export const creation = (rs: V1ReplicaSet) => new Date(rs.metadata?.creationTimestamp ?? 0).getTime();

/** intstr.GetScaledValueFromIntOrPercent of spec.replicas (unset: the API server's default, 25%). */
function scaled(v: number | string | undefined, replicas: number, roundUp: boolean): number {
  const x = v ?? '25%';
  if (typeof x === 'number') return x;
  const pct = Number(x.replace('%', ''));
  return roundUp ? Math.ceil((pct * replicas) / 100) : Math.floor((pct * replicas) / 100);
}

/** deploymentutil.MaxSurge and MaxUnavailable (ResolveFenceposts) of a RollingUpdate Deployment. */
export function fenceposts(d: V1Deployment): { surge: number; unavailable: number } {
  const replicas = d.spec?.replicas ?? 1;
  if (d.spec?.strategy?.type !== 'RollingUpdate') return { surge: 0, unavailable: 0 };
  const ru = d.spec.strategy.rollingUpdate ?? {};
  const surge = scaled(ru.maxSurge as number | string | undefined, replicas, true);
  let unavailable = scaled(ru.maxUnavailable as number | string | undefined, replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable: Math.min(unavailable, replicas) };
}

/** deploymentutil.DeploymentComplete: the counts at spec.replicas of `want`, its generation observed. */
export function deploymentComplete(want: V1Deployment, s: V1DeploymentStatus | undefined): boolean {
  const n = want.spec?.replicas ?? 1;
  return (
    (s?.updatedReplicas ?? 0) === n &&
    (s?.replicas ?? 0) === n &&
    (s?.availableReplicas ?? 0) === n &&
    (s?.observedGeneration ?? 0) >= (want.metadata?.generation ?? 0)
  );
}

/** Each ReplicaSet as `name=spec/status` replicas, for a timeout's message. */
export const sizes = (rss: V1ReplicaSet[]) => rss.map((rs) => `${rs.metadata?.name}=${rs.spec?.replicas}/${rs.status?.replicas ?? 0}`).join(' ');
