// Which upstream behaviour a version and a set of feature gates pick (src/core/versions.ts, §0 of
// the reference): the supported range, a server's version clamped into it, gates unknown to a
// version, gates locked to their default.
import { describe, expect, it } from 'vitest';
import {
  behaviourFor,
  defaultBehaviour,
  kcmKnowsGate,
  minorFromServer,
  NEWEST_MINOR,
  NEWEST_VERSION,
  OLDEST_MINOR,
  parseFeatureGates,
  parseKubeVersion,
} from '../../../src/core/versions.js';

describe('parseKubeVersion (--kube-version)', () => {
  it('reads the minor from the forms kubectl and servers print', () => {
    for (const [text, minor] of [
      ['1.32', 32],
      ['v1.32', 32],
      ['1.32.4', 32],
      ['v1.30.2-gke.1200', 30],
      ['1.29+k3s1', 29],
      [' 1.28 ', 28],
    ] as const) {
      expect(parseKubeVersion(text), text).toEqual({ ok: true, minor });
    }
  });

  it('accepts exactly the supported range, 1.24 to 1.37, ends included', () => {
    expect([OLDEST_MINOR, NEWEST_MINOR]).toEqual([24, 37]);
    expect(parseKubeVersion('1.37')).toEqual({ ok: true, minor: 37 });
    expect(parseKubeVersion('v1.37.1')).toEqual({ ok: true, minor: 37 });
    expect(parseKubeVersion('1.38').ok).toBe(false);
    for (let minor = OLDEST_MINOR; minor <= NEWEST_MINOR; minor++) expect(parseKubeVersion(`1.${minor}`)).toEqual({ ok: true, minor });
    for (const minor of [0, 20, OLDEST_MINOR - 1, NEWEST_MINOR + 1, 99]) {
      const r = parseKubeVersion(`1.${minor}`);
      expect(r.ok).toBe(false);
      expect(r.ok === false && r.error).toBe(`Kubernetes version 1.${minor} is not supported: choose 1.24 to 1.37`);
    }
  });

  it('refuses what is not a 1.X version, with a one-line error naming it', () => {
    for (const text of ['', '1', '1.', '2.30', 'latest', '1.x', 'v1.32;rm -rf /', '1.32\n1.33']) {
      const r = parseKubeVersion(text);
      expect(r.ok, JSON.stringify(text)).toBe(false);
      if (!r.ok) {
        expect(r.error).toBe(`invalid Kubernetes version ${JSON.stringify(text)}: expected 1.X, e.g. ${NEWEST_VERSION}`);
        expect(r.error).not.toContain('\n');
      }
    }
  });
});

describe('minorFromServer (the minor field of /version)', () => {
  it('takes a supported minor as it is, "+" suffixes included (GKE, EKS print "32+")', () => {
    expect(minorFromServer('32')).toEqual({ minor: 32, note: null });
    expect(minorFromServer('32+')).toEqual({ minor: 32, note: null });
    expect(minorFromServer(String(OLDEST_MINOR))).toEqual({ minor: OLDEST_MINOR, note: null });
    expect(minorFromServer(String(NEWEST_MINOR))).toEqual({ minor: NEWEST_MINOR, note: null });
  });

  it('clamps a newer server down to the newest known behaviour, and says so', () => {
    expect(minorFromServer('36')).toEqual({ minor: 36, note: null });
    expect(minorFromServer('37')).toEqual({ minor: 37, note: null });
    expect(minorFromServer('38')).toEqual({ minor: 37, note: 'the server runs 1.38; rs-reconcile knows upstream behaviour up to 1.37 and explains as that' });
    expect(minorFromServer('40+').minor).toBe(NEWEST_MINOR);
  });

  it('clamps an older server up to the oldest known behaviour, and says so', () => {
    expect(minorFromServer('23')).toEqual({ minor: 24, note: 'the server runs 1.23; rs-reconcile knows upstream behaviour from 1.24 and explains as that' });
    expect(minorFromServer('9').minor).toBe(OLDEST_MINOR);
  });

  it('explains as the newest when the field is not a number', () => {
    expect(minorFromServer('')).toEqual({ minor: NEWEST_MINOR, note: 'the server reported minor version ""; explaining as 1.37' });
    expect(minorFromServer('x32')).toMatchObject({ minor: NEWEST_MINOR });
  });
});

describe('parseFeatureGates (--feature-gates, as kube-controller-manager takes it)', () => {
  it("reads Name=value pairs, each trimmed, the value one of strconv.ParseBool's spellings; names as typed", () => {
    expect(parseFeatureGates(undefined)).toEqual({ ok: true, gates: {} });
    expect(parseFeatureGates('')).toEqual({ ok: true, gates: {} });
    expect(parseFeatureGates('PodDeletionCost=false, LogarithmicScaleDown = TRUE,')).toEqual({
      ok: true,
      gates: { PodDeletionCost: false, LogarithmicScaleDown: true },
    });
    for (const [v, on] of [
      ['1', true],
      ['t', true],
      ['T', true],
      ['True', true],
      ['0', false],
      ['f', false],
      ['F', false],
      ['False', false],
    ] as const)
      expect(parseFeatureGates(`PodDeletionCost=${v}`)).toEqual({ ok: true, gates: { PodDeletionCost: on } });
    // featuregate matches names exactly: a name in another case is another (unknown) name
    expect(parseFeatureGates('poddeletioncost=true')).toEqual({ ok: true, gates: { poddeletioncost: true } });
  });

  it("refuses an entry as kube-controller-manager's flag does", () => {
    expect(parseFeatureGates('PodDeletionCost')).toEqual({
      ok: false,
      error: 'invalid argument "PodDeletionCost" for "--feature-gates" flag: missing bool value for PodDeletionCost',
    });
    for (const v of ['yes', 'tRUE', 'on', ''])
      expect(parseFeatureGates(`PodDeletionCost=${v}`)).toEqual({
        ok: false,
        error: `invalid argument "PodDeletionCost=${v}" for "--feature-gates" flag: invalid value of PodDeletionCost=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`,
      });
  });
});

describe("--feature-gates against kube-controller-manager's gates of each minor", () => {
  it('knows every gate of this controller from the minor upstream added it, as the table of all gates does', () => {
    for (let minor = OLDEST_MINOR; minor <= NEWEST_MINOR; minor++) {
      expect(kcmKnowsGate('PodDeletionCost', minor)).toBe(true);
      expect(kcmKnowsGate('DeploymentReplicaSetTerminatingReplicas', minor)).toBe(minor >= 33);
      expect(kcmKnowsGate('StaleControllerConsistencyReplicaSet', minor)).toBe(minor >= 36);
      for (const all of ['AllAlpha', 'AllBeta']) expect(kcmKnowsGate(all, minor)).toBe(true);
    }
  });

  it("accepts a gate of other controllers, with one note; refuses an unknown one in featuregate's words", () => {
    const r = behaviourFor(36, { JobPodReplacementPolicy: false, PodDeletionCost: false });
    expect(r.error).toBeUndefined();
    expect(r.behaviour.gates.PodDeletionCost).toBe(false);
    expect(r.warnings).toEqual([
      'feature gate JobPodReplacementPolicy changes nothing the ReplicaSet and ReplicationController controllers do: accepted, as kube-controller-manager accepts it',
    ]);
    expect(behaviourFor(36, { NoSuchGate: true }).error).toBe('unrecognized feature gate: NoSuchGate');
    expect(behaviourFor(36, { poddeletioncost: true }).error).toBe('unrecognized feature gate: poddeletioncost');
    // removed upstream: known to the minors that had it only (CSIMigration: up to 1.26)
    expect(behaviourFor(26, { CSIMigration: true }).error).toBeUndefined();
    expect(behaviourFor(27, { CSIMigration: true }).error).toBe(
      'unrecognized feature gate: CSIMigration (kube-controller-manager 1.27 does not know it: 1.24 to 1.26 do)',
    );
  });

  it('at 1.37 refuses the gates its release notes say were removed, and knows those they add', () => {
    expect(behaviourFor(36, { SidecarContainers: true }).error).toBeUndefined();
    expect(behaviourFor(37, { SidecarContainers: true }).error).toBe(
      'unrecognized feature gate: SidecarContainers (kube-controller-manager 1.37 does not know it: 1.28 to 1.36 do)',
    );
    expect(kcmKnowsGate('ConsistentListFromCache', 37)).toBe(false);
    expect(kcmKnowsGate('KubeProxyIPVS', 36)).toBe(false);
    expect(behaviourFor(37, { KubeProxyIPVS: false }).error).toBeUndefined();
    expect(behaviourFor(37, { EtcdRangeStream: true }).warnings).toHaveLength(1);
    // a gate the notes do not name: known at 1.36, taken as still known
    expect(kcmKnowsGate('WatchList', 37)).toBe(true);
  });

  it('AllAlpha and AllBeta set every gate of that stage not set by name', () => {
    // 1.34: DeploymentReplicaSetTerminatingReplicas alpha, PodDeletionCost beta, LogarithmicScaleDown GA
    const a = behaviourFor(34, { AllAlpha: true }).behaviour.gates;
    expect([a.DeploymentReplicaSetTerminatingReplicas, a.PodDeletionCost]).toEqual([true, true]);
    const b = behaviourFor(34, { AllBeta: false }).behaviour.gates;
    expect([b.PodDeletionCost, b.LogarithmicScaleDown, b.DeploymentReplicaSetTerminatingReplicas]).toEqual([false, true, false]);
    expect(behaviourFor(34, { AllBeta: false, PodDeletionCost: true }).behaviour.gates.PodDeletionCost).toBe(true);
    const c = behaviourFor(36, { AllBeta: false }).behaviour.gates;
    expect([c.DeploymentReplicaSetTerminatingReplicas, c.StaleControllerConsistencyReplicaSet]).toEqual([false, false]);
    expect(behaviourFor(36, { AllBeta: false }).warnings).toEqual([]);
  });
});

describe('behaviourFor', () => {
  const gates = (minor: number) => behaviourFor(minor).behaviour.gates;

  it('turns each gate on by default from the minor upstream did, and off where the gate does not exist yet', () => {
    expect(gates(24)).toEqual({
      PodDeletionCost: true,
      LogarithmicScaleDown: true,
      DeploymentReplicaSetTerminatingReplicas: false,
      StaleControllerConsistencyReplicaSet: false,
    });
    expect(gates(33).DeploymentReplicaSetTerminatingReplicas).toBe(false); // alpha in 1.33
    expect(gates(34).DeploymentReplicaSetTerminatingReplicas).toBe(false);
    expect(gates(35).DeploymentReplicaSetTerminatingReplicas).toBe(true); // beta, on by default
    // StaleControllerConsistencyReplicaSet: kube_features.go has it from 1.36 only, beta and on
    expect([gates(35).StaleControllerConsistencyReplicaSet, gates(36).StaleControllerConsistencyReplicaSet]).toEqual([false, true]);
    expect(defaultBehaviour()).toEqual(behaviourFor(NEWEST_MINOR).behaviour);
    expect(defaultBehaviour().version).toBe('1.37');
  });

  it('1.37 decides every sync as 1.36 does, with the same gates', () => {
    // release-1.37 against release-1.36 (docs/how-it-works.md, Versions): no gate this controller
    // reads changed its default or stage, and no rule of a sync changed.
    const { version: v37, minor: m37, ...rules37 } = behaviourFor(37).behaviour;
    const { version: v36, minor: m36, ...rules36 } = behaviourFor(36).behaviour;
    expect([v37, m37, v36, m36]).toEqual(['1.37', 37, '1.36', 36]);
    expect(rules37).toEqual(rules36);
    expect(behaviourFor(37, { StaleControllerConsistencyReplicaSet: false }).behaviour.gates.StaleControllerConsistencyReplicaSet).toBe(false);
  });

  it('1.36 decides every sync as 1.35 does: only the stale-controller gate is new', () => {
    // release-1.36 against release-1.35 (v1.36.3 / v1.35.6): replica_set.go adds the
    // consistencyStore guard (PR #137212); replica_set_utils.go and controller_utils.go's ranking
    // and filtering are unchanged.
    // the deployment controller's getPodMapForDeployment moved to the pod controller index in 1.36
    const { gates: g36, version: v36, minor: m36, deploymentPodMap: p36, ...rules36 } = behaviourFor(36).behaviour;
    const { gates: g35, version: v35, minor: m35, deploymentPodMap: p35, ...rules35 } = behaviourFor(35).behaviour;
    expect([v36, m36, v35, m35]).toEqual(['1.36', 36, '1.35', 35]);
    expect([p35, p36]).toEqual(['selector', 'owner-index']);
    expect(rules36).toEqual(rules35);
    expect({ ...g36, StaleControllerConsistencyReplicaSet: false }).toEqual(g35);
  });

  it('follows the behaviour changes of 1.32 and 1.34', () => {
    const at = (minor: number) => behaviourFor(minor).behaviour;
    // controller_utils.go ActivePodsWithRanks.Less: sidecar restarts from release-1.32 (PR #124952)
    expect([at(31).sidecarRestarts, at(32).sidecarRestarts, at(35).sidecarRestarts]).toEqual([false, true, true]);
    expect([at(33).availabilityInclusive, at(34).availabilityInclusive]).toEqual([false, true]);
    expect([at(33).requeue, at(34).requeue]).toEqual(['legacy', 'next-available']);
    // replica_set.go updatePod: "+ time.Second" up to release-1.33
    expect([at(24).readyRequeueExtraSecond, at(33).readyRequeueExtraSecond, at(34).readyRequeueExtraSecond, at(35).readyRequeueExtraSecond]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // replica_set.go syncReplicaSet: namespace list + ClaimPods by uid up to release-1.33,
    // FilterPodsByOwner on PodControllerIndexKey (namespace/kind/name/uid) from release-1.34
    expect([at(24).controllerRefIndex, at(33).controllerRefIndex, at(34).controllerRefIndex, at(35).controllerRefIndex]).toEqual([
      'uid',
      'uid',
      'namespace-kind-name-uid',
      'namespace-kind-name-uid',
    ]);
    // replication_controller.go NewReplicationManager: EnableStatusTerminatingReplicas false from release-1.34 (PR #131822)
    expect([at(33).statusTerminatingReplicas, at(34).statusTerminatingReplicas]).toEqual([
      { ReplicaSet: true, ReplicationController: true },
      { ReplicaSet: true, ReplicationController: false },
    ]);
  });

  it('applies a gate override the version knows', () => {
    const r = behaviourFor(33, { DeploymentReplicaSetTerminatingReplicas: true, PodDeletionCost: false });
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.behaviour.gates).toEqual({
      PodDeletionCost: false,
      LogarithmicScaleDown: true,
      DeploymentReplicaSetTerminatingReplicas: true,
      StaleControllerConsistencyReplicaSet: false,
    });
    expect(behaviourFor(36, { StaleControllerConsistencyReplicaSet: false }).behaviour.gates.StaleControllerConsistencyReplicaSet).toBe(false);
  });

  it('refuses a gate the version does not have yet, naming the versions that have it', () => {
    for (const wanted of [true, false]) {
      const r = behaviourFor(32, { DeploymentReplicaSetTerminatingReplicas: wanted });
      expect(r.error).toBe(
        'unrecognized feature gate: DeploymentReplicaSetTerminatingReplicas (kube-controller-manager 1.32 does not know it: 1.33 and later do)',
      );
    }
    expect(behaviourFor(32).error).toBeUndefined(); // not asked for: no error
    expect(behaviourFor(35, { StaleControllerConsistencyReplicaSet: true }).error).toBe(
      'unrecognized feature gate: StaleControllerConsistencyReplicaSet (kube-controller-manager 1.35 does not know it: 1.36 and later do)',
    );
  });

  it('warns when a gate locked to its default is set the other way, and evaluates as asked', () => {
    const r = behaviourFor(31, { LogarithmicScaleDown: false });
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([
      'feature gate LogarithmicScaleDown is locked to true since 1.31 (kube-controller-manager would refuse to start); evaluating as if it were false',
    ]);
    expect(r.behaviour.gates.LogarithmicScaleDown).toBe(false);
    expect(behaviourFor(35, { LogarithmicScaleDown: false }).warnings).toHaveLength(1);
  });

  it('does not warn for a locked gate set to its default, nor before it was locked', () => {
    expect(behaviourFor(31, { LogarithmicScaleDown: true }).warnings).toEqual([]);
    const before = behaviourFor(30, { LogarithmicScaleDown: false });
    expect(before.warnings).toEqual([]);
    expect(before.behaviour.gates.LogarithmicScaleDown).toBe(false);
    expect(behaviourFor(35, { PodDeletionCost: false }).warnings).toEqual([]); // never locked
  });
});

describe('feature gates past the newest minor the gate table lists', () => {
  it('a gate still known at the table’s newest minor is known after it; one removed before is not; an unlisted name is refused, saying why', () => {
    expect(kcmKnowsGate('StaleControllerConsistencyReplicaSet', 37)).toBe(true);
    expect(kcmKnowsGate('PodDeletionCost', 37)).toBe(true);
    expect(kcmKnowsGate('CSIMigration', 37)).toBe(false);
    const r = behaviourFor(37, { Foo: true });
    expect(r.error).toBe(
      "unrecognized feature gate: Foo (rs-reconcile knows kube-controller-manager's gates up to 1.36; a gate new in 1.37 is not in its list)",
    );
    expect(behaviourFor(36, { Foo: true }).error).toBe('unrecognized feature gate: Foo');
  });
});
