// Upstream behaviour that changed between Kubernetes minor versions, and the feature gates that
// change this controller (docs/how-it-works.md, Versions, says what each release was compared
// with). `--kube-version 1.X` picks one; reading a cluster the default is the server's own minor,
// offline the newest. A minor whose rules equal the one before it adds no line below: only
// NEWEST_MINOR moves.

export const OLDEST_MINOR = 24;
export const NEWEST_MINOR = 37;
export const NEWEST_VERSION = `1.${NEWEST_MINOR}`;

import type { ControllerKind } from './types.js';

export type GateName = 'PodDeletionCost' | 'LogarithmicScaleDown' | 'DeploymentReplicaSetTerminatingReplicas' | 'StaleControllerConsistencyReplicaSet';

interface GateHistory {
  since: number; // first minor that knows the gate
  defaultOnSince: number; // first minor where it is on by default
  lockedSince?: number; // GA and locked to its default
}

const GATES: Record<GateName, GateHistory> = {
  PodDeletionCost: { since: 21, defaultOnSince: 22 },
  LogarithmicScaleDown: { since: 21, defaultOnSince: 22, lockedSince: 31 },
  DeploymentReplicaSetTerminatingReplicas: { since: 33, defaultOnSince: 35 },
  // 1.36 against 1.35 (kube-controller-manager v1.36.3 vs v1.35.6, as openshift/kubernetes carries
  // them: openshift/microshift release-5.0 ab25d11482f8 vs release-4.22 5019821e0eb2, both
  // vendoring pkg/controller): replica_set.go gains only this guard (PR #137212, KEP-5647).
  // syncReplicaSet first asks consistencyStore.EnsureReady whether the informers have seen the
  // controller's own last writes (pods it created or patched, the status it wrote) and returns an
  // error, so a backoff requeue, until they have; NewReplicationManager passes a no-op store.
  // replica_set_utils.go (calculateStatus), controller_utils.go's ActivePodsWithRanks,
  // FilterActivePods, IsPodActive and SlowStartBatch, controller_ref_manager.go and
  // pkg/api/v1/pod/util.go (IsPodAvailable) are unchanged: no decision of a sync differs.
  StaleControllerConsistencyReplicaSet: { since: 36, defaultOnSince: 36 },
};

export const GATE_NAMES = Object.keys(GATES) as GateName[];

export interface Behaviour {
  version: string; // "1.35"
  minor: number;
  gates: Record<GateName, boolean>;
  /** IsPodAvailable compares with <= (PR #132122, v1.34+); before, strictly <. */
  availabilityInclusive: boolean;
  /**
   * Equal container restarts: the restarts of sidecars (restartable init containers) decide
   * (ActivePodsWithRanks in controller_utils.go, PR #124952, v1.32.0+).
   */
  sidecarRestarts: boolean;
  /** Availability requeue: at the next pod's availability time (PR #132121, v1.34+) or legacy. */
  requeue: 'next-available' | 'legacy';
  /** updatePod re-enqueues minReadySeconds + 1 s after a pod turns ready (clock-skew guard); v1.34 dropped the second. */
  readyRequeueExtraSecond: boolean;
  /**
   * How a sync finds the pods a controller owns. 'uid': the controller reference's uid alone (up
   * to 1.33 the namespace's pods are listed and ClaimPods compares uids). From 1.34 the pods come
   * from an index keyed by the reference's namespace, kind, name and uid (FilterPodsByOwner,
   * PodControllerIndexKey; the kind and name joined the key in PR #134654, picked to 1.34): a pod
   * whose reference carries the uid under another kind or name is not listed at all.
   */
  controllerRefIndex: 'uid' | 'namespace-kind-name-uid';
  /**
   * The controller's own EnableStatusTerminatingReplicas switch, which the gate
   * DeploymentReplicaSetTerminatingReplicas also needs. 1.33 counts for ReplicationControllers too
   * (their API drops the field, so the status is rewritten every sync: issue #131821); from 1.34
   * the ReplicationController manager turns it off (PR #131822).
   */
  statusTerminatingReplicas: Record<ControllerKind, boolean>;
}

export type VersionResult = { ok: true; minor: number } | { ok: false; error: string };

/** Parses "1.32", "v1.32", "1.32.4", "32"-style minors from /version ("32+"). */
export function parseKubeVersion(text: string): VersionResult {
  const m = /^v?1\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(text.trim());
  if (!m) return { ok: false, error: `invalid Kubernetes version ${JSON.stringify(text)}: expected 1.X, e.g. ${NEWEST_VERSION}` };
  const minor = Number(m[1]);
  if (minor < OLDEST_MINOR || minor > NEWEST_MINOR)
    return { ok: false, error: `Kubernetes version 1.${minor} is not supported: choose 1.${OLDEST_MINOR} to ${NEWEST_VERSION}` };
  return { ok: true, minor };
}

/** The minor a live server reports, clamped into the supported range (with a note when clamped). */
export function minorFromServer(minorField: string): { minor: number; note: string | null } {
  const n = Number(/^\d+/.exec(minorField)?.[0] ?? NaN);
  if (!Number.isFinite(n))
    return { minor: NEWEST_MINOR, note: `the server reported minor version ${JSON.stringify(minorField)}; explaining as ${NEWEST_VERSION}` };
  if (n > NEWEST_MINOR)
    return { minor: NEWEST_MINOR, note: `the server runs 1.${n}; rs-reconcile knows upstream behaviour up to ${NEWEST_VERSION} and explains as that` };
  if (n < OLDEST_MINOR)
    return { minor: OLDEST_MINOR, note: `the server runs 1.${n}; rs-reconcile knows upstream behaviour from 1.${OLDEST_MINOR} and explains as that` };
  return { minor: n, note: null };
}

export type GatesResult = { ok: true; gates: Partial<Record<GateName, boolean>> } | { ok: false; error: string };

/** Parses kube-controller-manager's `--feature-gates A=true,B=false`. */
export function parseFeatureGates(text: string | undefined): GatesResult {
  const gates: Partial<Record<GateName, boolean>> = {};
  if (!text) return { ok: true, gates };
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9]+)=(true|false)$/i.exec(part);
    if (!m) return { ok: false, error: `invalid --feature-gates entry ${JSON.stringify(part)}: expected Name=true|false` };
    const name = GATE_NAMES.find((g) => g.toLowerCase() === m[1].toLowerCase());
    if (!name) return { ok: false, error: `unknown feature gate ${JSON.stringify(m[1])}: this controller is affected by ${GATE_NAMES.join(', ')}` };
    gates[name] = m[2].toLowerCase() === 'true';
  }
  return { ok: true, gates };
}

export interface BehaviourResult {
  behaviour: Behaviour;
  warnings: string[];
  error?: string;
}

/** The behaviour of upstream's controller at a minor version, with gate overrides applied. */
export function behaviourFor(minor: number, overrides: Partial<Record<GateName, boolean>> = {}): BehaviourResult {
  const warnings: string[] = [];
  const gates = {} as Record<GateName, boolean>;
  for (const name of GATE_NAMES) {
    const h = GATES[name];
    const known = minor >= h.since;
    let on = known && minor >= h.defaultOnSince;
    const wanted = overrides[name];
    if (wanted !== undefined) {
      if (!known) {
        return {
          // biome-ignore lint/plugin/double-assertion: an error result has no behaviour; only overrides can fail, and that caller reads `error` first
          behaviour: undefined as unknown as Behaviour,
          warnings,
          error: `feature gate ${name} does not exist in Kubernetes 1.${minor} (it appeared in 1.${h.since})`,
        };
      }
      if (h.lockedSince !== undefined && minor >= h.lockedSince && wanted !== on) {
        warnings.push(
          `feature gate ${name} is locked to ${on} since 1.${h.lockedSince} (kube-controller-manager would refuse to start); evaluating as if it were ${wanted}`,
        );
      }
      on = wanted;
    }
    gates[name] = on;
  }
  return {
    behaviour: {
      version: `1.${minor}`,
      minor,
      gates,
      availabilityInclusive: minor >= 34,
      sidecarRestarts: minor >= 32,
      requeue: minor >= 34 ? 'next-available' : 'legacy',
      readyRequeueExtraSecond: minor < 34,
      controllerRefIndex: minor >= 34 ? 'namespace-kind-name-uid' : 'uid',
      statusTerminatingReplicas: { ReplicaSet: true, ReplicationController: minor < 34 },
    },
    warnings,
  };
}

export function defaultBehaviour(): Behaviour {
  return behaviourFor(NEWEST_MINOR).behaviour;
}
