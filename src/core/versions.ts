// Upstream behaviour that changed between Kubernetes minor versions, and the feature gates that
// change this controller (docs/how-it-works.md, Versions, says what each release was compared
// with). `--kube-version 1.X` picks one; reading a cluster the default is the server's own minor,
// offline the newest. A minor whose rules equal the one before it adds no line below: only
// NEWEST_MINOR moves.

export const OLDEST_MINOR = 24;
export const NEWEST_MINOR = 37;
export const NEWEST_VERSION = `1.${NEWEST_MINOR}`;

import { KCM_GATES_1_37, KCM_GATES_NEWEST_MINOR, kcmGateRange } from './kcm-feature-gates.js';

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

const GATE_NAMES = Object.keys(GATES) as GateName[];

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
   * (their API drops the field, so the status is rewritten every sync: kubernetes#131821); from
   * 1.34 the ReplicationController manager turns it off (PR #131822).
   */
  // the two kinds spelled out (ControllerKind's members): the gates stand below the object types
  statusTerminatingReplicas: Record<'ReplicaSet' | 'ReplicationController', boolean>;
  /**
   * The deployment controller reads a ReplicaSet's desired-replicas and max-replicas annotations
   * as a non-negative int32 (getNonNegativeInt32FromAnnotation: strconv.ParseUint, at most
   * MaxInt32; v1.32+), and getReplicaSetFraction takes status.replicas for a max-replicas of 0.
   * Before, 'atoi': strconv.Atoi (a sign allowed, the int truncated to int32).
   */
  replicasAnnotations: 'non-negative-int32' | 'atoi';
  /**
   * getPodMapForDeployment: 'owner-index' (v1.36+): each claimed ReplicaSet's pods are those the
   * pod controller index lists under its namespace, kind ReplicaSet, name and uid, whatever their
   * labels. 'selector': the pods the Deployment's selector matches, by their controller's uid.
   */
  deploymentPodMap: 'owner-index' | 'selector';
  /** generateReplicaSetName (v1.34+): the Deployment's name is cut so `<name>-<hash>` fits 253 characters. */
  replicaSetNameTruncated: boolean;
  /**
   * The deployment controller's ScalingReplicaSet Event on a scale (scaleReplicaSet): 'to' "Scaled
   * up replica set X to 3" (1.24), 'to-from' "… to 3 from 1" (1.25–1.31), 'from-to' "… from 1 to
   * 3" (1.32+, whose create says "from 0 to 3" too; before, a create says "… to 3").
   */
  scalingEventWording: 'to' | 'to-from' | 'from-to';
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

export type GatesResult = { ok: true; gates: Record<string, boolean> } | { ok: false; error: string };

/** strconv.ParseBool's spellings, as kube-controller-manager reads each value of --feature-gates. */
const GO_BOOLS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * Parses kube-controller-manager's `--feature-gates A=true,B=false` as its flag does
 * (component-base's map of string to bool): comma-separated Name=value, each trimmed, the value
 * one of strconv.ParseBool's spellings. Names are kept as typed: featuregate matches them exactly.
 */
export function parseFeatureGates(text: string | undefined): GatesResult {
  const gates: Record<string, boolean> = {};
  if (!text) return { ok: true, gates };
  const refuse = (reason: string): GatesResult => ({ ok: false, error: `invalid argument ${JSON.stringify(text)} for "--feature-gates" flag: ${reason}` });
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return refuse(`missing bool value for ${part}`);
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!Object.hasOwn(GO_BOOLS, value))
      return refuse(`invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    gates[name] = GO_BOOLS[value];
  }
  return { ok: true, gates };
}

/** featuregate's own gates: every Alpha (or Beta) gate not set by name takes this value. */
const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

/** Whether kube-controller-manager of this minor knows the gate (src/core/kcm-feature-gates.ts). */
export function kcmKnowsGate(name: string, minor: number): boolean {
  if (name === ALL_ALPHA || name === ALL_BETA) return true;
  if (minor >= 37 && KCM_GATES_1_37.removed.includes(name)) return false;
  if (minor >= 37 && KCM_GATES_1_37.added.includes(name)) return true;
  const range = kcmGateRange(name);
  if (range === undefined) return false;
  const [first, last] = range;
  // past the table, a gate still known at its newest minor is taken as still known
  if (minor > KCM_GATES_NEWEST_MINOR && last === KCM_GATES_NEWEST_MINOR) return minor >= first;
  return minor >= first && minor <= last;
}

/** The stage of one of this controller's gates at a minor: each turned on by default as it went beta. */
function gateStage(h: GateHistory, minor: number): 'Alpha' | 'Beta' | 'GA' {
  if (h.lockedSince !== undefined && minor >= h.lockedSince) return 'GA';
  return minor >= h.defaultOnSince ? 'Beta' : 'Alpha';
}

export interface BehaviourResult {
  behaviour: Behaviour;
  warnings: string[];
  error?: string;
}

/**
 * The behaviour of upstream's controller at a minor version, with --feature-gates applied as
 * kube-controller-manager of that minor applies them: a name it does not know is refused, one
 * that changes nothing this controller does is accepted with a note, AllAlpha and AllBeta set
 * every gate of that stage not set by name.
 */
export function behaviourFor(minor: number, overrides: Readonly<Record<string, boolean>> = {}): BehaviourResult {
  const warnings: string[] = [];
  const gates = {} as Record<GateName, boolean>;
  const unknown = Object.keys(overrides).find((name) => !kcmKnowsGate(name, minor));
  if (unknown !== undefined) {
    const range = kcmGateRange(unknown);
    const elsewhere = range
      ? ` (kube-controller-manager 1.${minor} does not know it: ${
          range[1] === KCM_GATES_NEWEST_MINOR && !KCM_GATES_1_37.removed.includes(unknown)
            ? `1.${range[0]} and later do`
            : range[0] === range[1]
              ? `1.${range[0]} does`
              : `1.${range[0]} to 1.${range[1]} do`
        })`
      : minor > KCM_GATES_NEWEST_MINOR
        ? ` (rs-reconcile knows kube-controller-manager's gates up to 1.${KCM_GATES_NEWEST_MINOR}; a gate new in 1.${minor} is not in its list)`
        : '';
    return {
      // biome-ignore lint/plugin/double-assertion: an error result has no behaviour; only overrides can fail, and that caller reads `error` first
      behaviour: undefined as unknown as Behaviour,
      warnings,
      error: `unrecognized feature gate: ${unknown}${elsewhere}`,
    };
  }
  const elsewhereGates = Object.keys(overrides).filter((n) => n !== ALL_ALPHA && n !== ALL_BETA && !(GATE_NAMES as string[]).includes(n));
  if (elsewhereGates.length)
    warnings.push(
      `feature gate${elsewhereGates.length > 1 ? 's' : ''} ${elsewhereGates.join(', ')} ${elsewhereGates.length > 1 ? 'change' : 'changes'} nothing the ReplicaSet and ReplicationController controllers do: accepted, as kube-controller-manager accepts ${elsewhereGates.length > 1 ? 'them' : 'it'}`,
    );
  for (const name of GATE_NAMES) {
    const h = GATES[name];
    const known = minor >= h.since;
    let on = known && minor >= h.defaultOnSince;
    const stage = gateStage(h, minor);
    const all = stage === 'Alpha' ? overrides[ALL_ALPHA] : stage === 'Beta' ? overrides[ALL_BETA] : undefined;
    const wanted = known ? (Object.hasOwn(overrides, name) ? overrides[name] : all) : undefined;
    if (wanted !== undefined) {
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
      replicasAnnotations: minor >= 32 ? 'non-negative-int32' : 'atoi',
      deploymentPodMap: minor >= 36 ? 'owner-index' : 'selector',
      replicaSetNameTruncated: minor >= 34,
      scalingEventWording: minor >= 32 ? 'from-to' : minor >= 25 ? 'to-from' : 'to',
    },
    warnings,
  };
}

export function defaultBehaviour(): Behaviour {
  return behaviourFor(NEWEST_MINOR).behaviour;
}
