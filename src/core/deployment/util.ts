// pkg/controller/deployment/util (deployment_util.go, replicaset_util.go) and the sort orders of
// pkg/controller/controller_utils.go the deployment controller uses. Pure: ReplicaSets and
// Deployments are read, and every "set" returns a new value or mutates only the copy it is given.

import { parseTime } from '../time.js';
import type { Deployment, DeploymentCondition, DeploymentStatus, DeploymentStrategyType, IntOrString, PodTemplateSpec, ReplicaSet } from '../types.js';
import type { Behaviour } from '../versions.js';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** sync.go's maxRevHistoryLengthInChars: the revision-history annotation is kept within it. */
const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;
const MAX_INT32 = 2147483647;

/** The annotations a Deployment never copies to its ReplicaSets (skipCopyAnnotation). */
const SKIP_COPY: ReadonlySet<string> = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

/** skipCopyAnnotation: one of the annotations a Deployment and its ReplicaSets never copy to each other. */
export function skipCopyAnnotation(key: string): boolean {
  return SKIP_COPY.has(key);
}

// Condition reasons (deployment_util.go).
export const REASON = {
  FailedRSCreate: 'ReplicaSetCreateError',
  NewRSCreated: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  NewRSAvailable: 'NewReplicaSetAvailable',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  TimedOut: 'ProgressDeadlineExceeded',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

// ---- the Deployment's fields, with the apps/v1 defaults (SetDefaults_Deployment) ----

export function deploymentReplicas(d: Deployment): number {
  return d.spec.replicas ?? 1;
}

/** The strategy type; anything but the two known types is returned as written (syncDeployment then does nothing). */
export function strategyType(d: Deployment): DeploymentStrategyType | string {
  return d.spec.strategy?.type || 'RollingUpdate';
}

export function isRollingUpdate(d: Deployment): boolean {
  return strategyType(d) === 'RollingUpdate';
}

export function maxSurgeValue(d: Deployment): IntOrString {
  return d.spec.strategy?.rollingUpdate?.maxSurge ?? '25%';
}

export function maxUnavailableValue(d: Deployment): IntOrString {
  return d.spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%';
}

export function minReadySeconds(d: Deployment): number {
  return d.spec.minReadySeconds ?? 0;
}

/** HasProgressDeadline: set and not math.MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const p = progressDeadlineSeconds(d);
  return p !== null && p !== MAX_INT32;
}

export function progressDeadlineSeconds(d: Deployment): number | null {
  return d.spec.progressDeadlineSeconds === undefined ? 600 : d.spec.progressDeadlineSeconds;
}

/** HasRevisionHistoryLimit: set and not math.MaxInt32. */
export function revisionHistoryLimit(d: Deployment): number | null {
  const l = d.spec.revisionHistoryLimit === undefined ? 10 : d.spec.revisionHistoryLimit;
  return l === null || l === MAX_INT32 ? null : l;
}

// ---- intstr and the fenceposts ----

export type ScaledResult = { ok: true; value: number } | { ok: false; error: string };

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is; "N%" of total rounded up (ceil) or down
 * (floor); any other string is an error.
 */
export function getScaledValueFromIntOrPercent(v: IntOrString, total: number, roundUp: boolean): ScaledResult {
  if (typeof v === 'number') return { ok: true, value: v };
  // strconv.Atoi of what is before the "%": a sign is allowed
  const m = /^([+-]?\d+)%$/.exec(v);
  if (!m) return { ok: false, error: `invalid value for IntOrString: invalid type: string is not a percentage (${JSON.stringify(v)})` };
  const raw = (Number(m[1]) * total) / 100;
  return { ok: true, value: roundUp ? Math.ceil(raw) : Math.floor(raw) };
}

export interface Fenceposts {
  maxSurge: number;
  maxUnavailable: number;
  /** Both resolved to 0, so maxUnavailable was set to 1 (surge might not work due to quota). */
  bumpedUnavailable: boolean;
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(
  maxSurge: IntOrString | null | undefined,
  maxUnavailable: IntOrString | null | undefined,
  desired: number,
): Fenceposts | { error: string } {
  const s = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  if (!s.ok) return { error: s.error };
  const u = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (!u.ok) return { error: u.error };
  if (s.value === 0 && u.value === 0) return { maxSurge: 0, maxUnavailable: 1, bumpedUnavailable: true };
  return { maxSurge: s.value, maxUnavailable: u.value, bumpedUnavailable: false };
}

function fenceposts(d: Deployment): Fenceposts {
  const f = resolveFenceposts(maxSurgeValue(d), maxUnavailableValue(d), deploymentReplicas(d));
  // validation refuses such strategies; upstream ignores the error and reads zeros
  return 'error' in f ? { maxSurge: 0, maxUnavailable: 0, bumpedUnavailable: false } : f;
}

/** MaxSurge: 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? fenceposts(d).maxSurge : 0;
}

/** MaxUnavailable: 0 unless RollingUpdate with replicas > 0; never above replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d).maxUnavailable, replicas);
}

/** MinAvailable: replicas − MaxUnavailable for RollingUpdate, else 0. */
export function minAvailable(d: Deployment): number {
  return isRollingUpdate(d) ? deploymentReplicas(d) - maxUnavailable(d) : 0;
}

// ---- ReplicaSet counts ----

export function rsReplicas(rs: ReplicaSet): number {
  return rs.spec.replicas ?? 1;
}

/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export function replicaCount(rss: readonly (ReplicaSet | null)[]): number {
  return rss.reduce((n, rs) => n + (rs ? rsReplicas(rs) : 0), 0);
}

/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export function actualReplicaCount(rss: readonly (ReplicaSet | null)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

export function readyReplicaCount(rss: readonly (ReplicaSet | null)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

export function availableReplicaCount(rss: readonly (ReplicaSet | null)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/**
 * GetTerminatingReplicaCountForReplicaSets: null as soon as one ReplicaSet its controller has
 * synced (status.observedGeneration > 0) does not report it; one never synced adds nothing.
 */
export function terminatingReplicaCount(rss: readonly (ReplicaSet | null)[]): number | null {
  let n = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const t = rs.status?.terminatingReplicas;
    if ((t === undefined || t === null) && (rs.status?.observedGeneration ?? 0) === 0) continue;
    if (t === undefined || t === null) return null;
    n += t;
  }
  return n;
}

/** FilterActiveReplicaSets: spec.replicas > 0. */
export function filterActive(rss: readonly (ReplicaSet | null)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== null && rsReplicas(rs) > 0);
}

// ---- sort orders ----

function creationMs(rs: ReplicaSet): number {
  return parseTime(rs.metadata.creationTimestamp) ?? Number.NEGATIVE_INFINITY;
}

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
  const ta = creationMs(a);
  const tb = creationMs(b);
  if (ta === tb) return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
  return ta < tb ? -1 : 1;
}

/** ReplicaSetsBySizeNewer: larger first; equal size, newer first. */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(b) - rsReplicas(a) || byCreationTimestamp(b, a);
}

/** ReplicaSetsBySizeOlder: larger first; equal size, older first. */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return rsReplicas(b) - rsReplicas(a) || byCreationTimestamp(a, b);
}

/** ReplicaSetsByRevision: lower revision first; equal revisions, or either not a number, by creation. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revision(a);
  const rb = revision(b);
  return ra === null || rb === null || ra === rb ? byCreationTimestamp(a, b) : ra < rb ? -1 : 1;
}

// ---- annotations ----

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(v, 10, 64): the value, or null when it is not a 64-bit integer. */
export function parseInt64(v: string): bigint | null {
  if (!/^[+-]?\d+$/.test(v)) return null;
  const n = BigInt(v);
  return n < INT64_MIN || n > INT64_MAX ? null : n;
}

/** Revisions are int64 upstream (a revision above 2^53 must not lose digits): bigint here. */
export type Revision = bigint;

/** Revision: the revision annotation (strconv.ParseInt, 64 bits); 0 when absent, null when it is not an int64. */
export function revision(rs: { metadata: { annotations?: Record<string, string> | null } }): Revision | null {
  const v = rs.metadata.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0n;
  return parseInt64(v);
}

/**
 * getRollbackTo: the revision the deprecated rollback annotation asks for; null without one, and
 * for one empty or not an int64 (strconv.ParseInt fails: upstream ignores it).
 */
export function rollbackTo(d: Deployment): Revision | null {
  const v = d.metadata.annotations?.[ROLLBACK_TO_ANNOTATION];
  return v === undefined || v === '' ? null : parseInt64(v);
}

/** MaxRevision: the highest parseable revision (unparseable ones are skipped). */
export function maxRevision(rss: readonly ReplicaSet[]): Revision {
  let max = 0n;
  for (const rs of rss) {
    const v = revision(rs);
    if (v !== null && v > max) max = v;
  }
  return max;
}

/** Lower revision first, a missing one (null) lowest: for sorts (a comparator returns a number). */
export function compareRevisions(a: Revision | null, b: Revision | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** `maxOldRevision+1` in Go's int64: past MaxInt64 it wraps to MinInt64. */
export function nextRevision(max: Revision): Revision {
  return BigInt.asIntN(64, max + 1n);
}

/** strconv.Atoi (64-bit int) then Go's int32(): the value truncated to 32 bits, or null when not an int. */
export function atoiInt32(v: string | undefined): number | null {
  const n = v === undefined ? null : parseInt64(v);
  return n === null ? null : Number(BigInt.asIntN(32, n));
}

/** getNonNegativeInt32FromAnnotation: strconv.ParseUint(v, 10, 32), and at most MaxInt32; else null. */
export function nonNegativeInt32(v: string | undefined): number | null {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  const n = BigInt(v);
  return n > BigInt(MAX_INT32) ? null : Number(n);
}

/**
 * GetDesiredReplicasAnnotation / getMaxReplicasAnnotation: the annotation's value, or null when
 * absent or not read as a number at the behaviour's minor (Behaviour.replicasAnnotations).
 */
export function replicasAnnotation(rs: ReplicaSet, key: string, mode: Behaviour['replicasAnnotations']): number | null {
  const v = rs.metadata.annotations?.[key];
  return mode === 'non-negative-int32' ? nonNegativeInt32(v) : atoiInt32(v);
}

/** ReplicasAnnotationsNeedUpdate. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations;
  if (!a) return true;
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** SetReplicasAnnotations on `annotations` (mutated); true when one changed. */
export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let updated = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    updated = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    updated = true;
  }
  return updated;
}

/** copyDeploymentAnnotationsToReplicaSet: every annotation but skipCopyAnnotation's. */
function copyDeploymentAnnotations(d: Deployment, annotations: Record<string, string>): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIP_COPY.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/**
 * SetNewReplicaSetAnnotations on `annotations` (mutated): the Deployment's annotations, the
 * revision raised to `newRevision` when lower (keeping the one it had in revision-history when it
 * had one: a rollback), and for a ReplicaSet about to be created the replicas annotations.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  annotations: Record<string, string>,
  newRevision: Revision,
  exists: boolean,
  revHistoryLimitInChars = MAX_REV_HISTORY_LENGTH_IN_CHARS,
): boolean {
  let changed = copyDeploymentAnnotations(d, annotations);
  const had = Object.hasOwn(annotations, REVISION_ANNOTATION);
  const oldRevision = annotations[REVISION_ANNOTATION] ?? '';
  let oldInt = 0n;
  if (oldRevision !== '') {
    const parsed = parseInt64(oldRevision);
    if (parsed === null) return false;
    oldInt = parsed;
  }
  if (oldInt < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
  }
  if (had && oldInt < newRevision) {
    const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
    const old = history.split(',');
    if (old[0].length === 0) {
      annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
    } else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < old.length) {
        totalLen = totalLen - old[start].length - 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars) annotations[REVISION_HISTORY_ANNOTATION] = [...old.slice(start), oldRevision].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(annotations, deploymentReplicas(d), deploymentReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision on the Deployment copy `d` (mutated): true when it changed. */
export function setDeploymentRevision(d: Deployment, rev: string): boolean {
  const a = d.metadata.annotations ?? {};
  if (a[REVISION_ANNOTATION] === rev) return false;
  d.metadata.annotations = { ...a, [REVISION_ANNOTATION]: rev };
  return true;
}

// ---- templates ----

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/**
 * apiequality.Semantic.DeepEqual as it applies to two templates the API server defaulted alike:
 * a field left out equals its zero value (nil and empty maps and slices are equal).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!semanticEqual(ao[k], bo[k])) return false;
    return true;
  }
  return a === b;
}

function withoutHash(t: unknown): unknown {
  const tpl = (t ?? {}) as { metadata?: { labels?: Record<string, string> | null } | null };
  const labels = { ...(tpl.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return { ...tpl, metadata: { ...(tpl.metadata ?? {}), labels } };
}

/** A copy of a ReplicaSet's template without its pod-template-hash label: the Deployment's template it was made from (rollback, rollout undo). */
export function templateWithoutHash(template: PodTemplateSpec): PodTemplateSpec {
  const next = structuredClone(template);
  if (next.metadata?.labels) {
    const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...labels } = next.metadata.labels;
    next.metadata.labels = labels;
  }
  return next;
}

/** EqualIgnoreHash: the templates equal once the pod-template-hash label is left out of both. */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's (ignoring the hash). */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | null {
  return [...rss].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template)) ?? null;
}

/** FindOldReplicaSets: [those with pods (spec.replicas ≠ 0), all old ones], in `rss`'s order. */
export function findOldReplicaSets(d: Deployment, rss: readonly ReplicaSet[]): { required: ReplicaSet[]; all: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, rss);
  const all = rss.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid);
  return { required: all.filter((rs) => rsReplicas(rs) !== 0), all };
}

/** FindActiveOrLatest: the one active ReplicaSet; with none, the new one or the newest old one; with several, null. */
export function findActiveOrLatest(newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[]): ReplicaSet | null {
  if (!newRS && oldRSs.length === 0) return null;
  const newestFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActive([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : null;
}

// ---- sizes ----

export interface NewReplicas {
  replicas: number;
  /** RollingUpdate: the arithmetic, for messages. */
  maxSurge: number;
  maxTotal: number;
  current: number;
}

/** NewRSNewReplicas: how many replicas the new ReplicaSet may have now. */
export function newRSNewReplicas(d: Deployment, allRSs: readonly (ReplicaSet | null)[], newRS: ReplicaSet): NewReplicas | { error: string } {
  const replicas = deploymentReplicas(d);
  const type = strategyType(d);
  if (type === 'Recreate') return { replicas, maxSurge: 0, maxTotal: replicas, current: replicaCount(allRSs) };
  if (type !== 'RollingUpdate') return { error: `deployment type ${type} isn't supported` };
  const s = getScaledValueFromIntOrPercent(maxSurgeValue(d), replicas, true);
  if (!s.ok) return { error: s.error };
  const current = replicaCount(allRSs);
  const maxTotal = replicas + s.value;
  const own = rsReplicas(newRS);
  if (current >= maxTotal) return { replicas: own, maxSurge: s.value, maxTotal, current };
  return { replicas: own + Math.min(maxTotal - current, replicas - own), maxSurge: s.value, maxTotal, current };
}

/** IsSaturated: the new ReplicaSet has all the Deployment's replicas, annotated (strconv.Atoi, every minor) and available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | null): boolean {
  if (!rs) return false;
  const desired = atoiInt32(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
  if (desired === null) return false;
  const replicas = deploymentReplicas(d);
  return rsReplicas(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

/** integer.RoundToInt32: half away from zero. */
export function roundToInt32(a: number): number {
  // Go's int32(x) truncates toward zero; `| 0` also turns -0 into 0
  return Math.trunc(a < 0 ? a - 0.5 : a + 0.5) | 0;
}

/**
 * The max-replicas the ReplicaSet was sized for (getReplicaSetFraction's divisor): its
 * max-replicas annotation, else the Deployment's status.replicas; from 1.32 an annotation of 0
 * also falls back. 0 means no share can be computed.
 */
export function maxReplicasBeforeScale(rs: ReplicaSet, d: Deployment, mode: Behaviour['replicasAnnotations']): number {
  const annotated = replicasAnnotation(rs, MAX_REPLICAS_ANNOTATION, mode);
  if (annotated === null || (annotated === 0 && mode === 'non-negative-int32')) return d.status?.replicas ?? 0;
  return annotated;
}

/**
 * getReplicaSetFraction: the ReplicaSet's share of a resize, rs × (replicas + maxSurge) / the
 * max-replicas it was sized for, rounded, minus its size. Scaling to 0, its whole size goes.
 */
export function getReplicaSetFraction(rs: ReplicaSet, d: Deployment, mode: Behaviour['replicasAnnotations']): number {
  const size = rsReplicas(rs);
  if (deploymentReplicas(d) === 0) return -size;
  const deploymentMax = deploymentReplicas(d) + maxSurge(d);
  const before = maxReplicasBeforeScale(rs, d, mode);
  // from 1.32 upstream returns 0 here; before, it divides by zero (an annotation of 0), whose
  // float-to-int32 conversion Go leaves to the platform: no share is taken either
  if (before === 0) return 0;
  return roundToInt32((size * deploymentMax) / before) - size;
}

/** GetProportion (GetReplicaSetProportion from 1.32): the fraction, capped so the sum never passes what is left to add or remove. */
export function getProportion(rs: ReplicaSet | null, d: Deployment, toAdd: number, added: number, mode: Behaviour['replicasAnnotations']): number {
  if (!rs || rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = getReplicaSetFraction(rs, d, mode);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

// ---- conditions ----

export function getCondition(status: DeploymentStatus, type: string): DeploymentCondition | null {
  return status.conditions?.find((c) => c.type === type) ?? null;
}

export function newCondition(type: string, status: string, reason: string, message: string, now: string): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/**
 * SetDeploymentCondition on `status` (mutated): nothing when status and reason are the same;
 * else the condition replaces the one of its type (moved last), keeping lastTransitionTime when
 * the status did not change.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current && current.status === condition.status) c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== condition.type), c];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

/** DeploymentComplete: every replica updated and available, and this generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available than the status says. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** DeploymentTimedOut: the Progressing condition's lastUpdateTime + progressDeadlineSeconds is before now. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === REASON.NewRSAvailable) return false;
  if (c.reason === REASON.TimedOut) return true;
  const from = parseTime(c.lastUpdateTime) ?? 0;
  return from + (progressDeadlineSeconds(d) ?? 0) * 1000 < nowMs;
}
