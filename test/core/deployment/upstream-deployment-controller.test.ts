// upstream's pkg/controller/deployment/deployment_controller_test.go (syncDeployment's cases), as
// table tests: each row names the upstream test function and case, with its inputs and expected
// writes (facts, not code). Read at kube v1.36.3 (openshift/microshift release-5.0 ab25d11482f8);
// syncDeployment's order is the same from 1.24 on. The rows below them check rules of
// syncDeployment, sync and isScalingEvent that upstream's tests do not spell out.
import { describe, expect, it } from 'vitest';
import { DESIRED_REPLICAS_ANNOTATION, REVISION_ANNOTATION, ROLLBACK_TO_ANNOTATION } from '../../../src/core/deployment/util.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { acts, cond, decide, deploy, NOW, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);
const kinds = (dec: ReturnType<typeof decide>) => dec.writes.map((w) => w.kind);

describe('syncDeployment (deployment_controller_test.go)', () => {
  it("TestSyncDeploymentCreatesReplicaSet: a create, then the status write (and the strategy's second status write, a 409 here)", () => {
    const d = deploy({ replicas: 1, maxSurge: 0, maxUnavailable: 0, status: {} });
    for (const minor of MINORS) {
      const dec = decide(d, [], { minor });
      expect(kinds(dec), `1.${minor}`).toEqual(['createReplicaSet', 'updateDeploymentStatus', 'updateDeploymentStatus']);
      expect(acts(dec)).toEqual(['create ?=1']);
    }
  });
  it('TestSyncDeploymentDontDoAnythingDuringDeletion: only the status', () => {
    const d = deploy({ replicas: 1, deletionTimestamp: new Date(NOW).toISOString(), status: {} });
    for (const minor of MINORS) expect(kinds(decide(d, [], { minor })), `1.${minor}`).toEqual(['updateDeploymentStatus']);
  });
  it('TestDontSyncDeploymentsWithEmptyPodSelector: nothing (the generation is observed already)', () => {
    const d = deploy({ replicas: 1, generation: 0, status: {} });
    d.spec.selector = {};
    for (const minor of MINORS) {
      const dec = decide(d, [], { minor });
      expect(kinds(dec), `1.${minor}`).toEqual([]);
      expect(dec.skip?.reason).toBe('EmptySelector');
    }
  });
  it('TestReentrantRollback: a rollback to revision 0 (the one before the newest) is one update of the Deployment, no write of a ReplicaSet', () => {
    const d = deploy({ replicas: 1, progressDeadlineSeconds: null, annotations: { [REVISION_ANNOTATION]: '2', [ROLLBACK_TO_ANNOTATION]: '0' } });
    const rs1 = rs({ name: 'web-old', replicas: 0, revision: 1, image: 'nginx:1.26' });
    const rs2 = rs({ name: 'web-new', replicas: 1, revision: 2 });
    for (const minor of MINORS) {
      const dec = decide(d, [rs1, rs2], { minor });
      expect(kinds(dec), `1.${minor}`).toEqual(['updateDeployment']);
      expect(dec.error).toBeNull();
      const w = dec.writes[0] as Extract<(typeof dec.writes)[number], { kind: 'updateDeployment' }>;
      // rs1's template without its pod-template-hash, the rollback annotation cleared
      expect(w.deployment.spec.template?.spec?.containers?.[0]?.image).toBe('nginx:1.26');
      expect(w.deployment.spec.template?.metadata?.labels).not.toHaveProperty('pod-template-hash');
      expect(w.deployment.metadata.annotations).not.toHaveProperty(ROLLBACK_TO_ANNOTATION);
      expect([w.conflict, w.warning, w.event]).toEqual([
        false,
        null,
        { type: 'Normal', reason: 'DeploymentRollback', message: 'Rolled back deployment "web" to revision 1' },
      ]);
    }
  });
});

describe('getRollbackTo, sync, isScalingEvent and the strategy switch', () => {
  it('rollback: the new ReplicaSet is created first (getAllReplicaSetsAndSyncRevision with create) and its revision written; the Deployment update after that status write meets a 409', () => {
    const d = deploy({ replicas: 2, annotations: { [REVISION_ANNOTATION]: '1', [ROLLBACK_TO_ANNOTATION]: '1' }, progressDeadlineSeconds: null });
    const only = rs({ name: 'web-old', replicas: 2, revision: 1, image: 'nginx:1.26', desired: 2, max: 3 });
    for (const minor of MINORS) {
      const dec = decide(d, [only], { minor });
      expect(kinds(dec), `1.${minor}`).toEqual(['createReplicaSet', 'updateDeploymentStatus', 'updateDeployment']);
      expect(dec.writes[2]).toMatchObject({ conflict: true });
      expect(dec.error).toContain('Operation cannot be fulfilled on deployments.apps "web"');
    }
  });

  it('rollback given up: no revision before the newest, a revision no ReplicaSet has, or the template already the Deployment’s; the annotation is cleared with a Warning', () => {
    const neu = rs({ name: 'web-new', replicas: 1, revision: 2 });
    const older = rs({ name: 'web-old', replicas: 0, revision: 1, image: 'nginx:1.26' });
    const cases: [string, ReturnType<typeof rs>[], string, string][] = [
      ['0', [neu], 'DeploymentRollbackRevisionNotFound', 'Unable to find last revision.'],
      ['7', [older, neu], 'DeploymentRollbackRevisionNotFound', 'Unable to find the revision to rollback to.'],
      ['2', [older, neu], 'DeploymentRollbackTemplateUnchanged', 'The rollback revision contains the same template as current deployment "web"'],
    ];
    for (const [to, rss, reason, message] of cases) {
      const d = deploy({ replicas: 1, progressDeadlineSeconds: null, annotations: { [REVISION_ANNOTATION]: '2', [ROLLBACK_TO_ANNOTATION]: to } });
      const dec = decide(d, rss);
      expect(kinds(dec), to).toEqual(['updateDeployment']);
      const w = dec.writes[0] as Extract<(typeof dec.writes)[number], { kind: 'updateDeployment' }>;
      expect([w.warning, w.event], to).toEqual([{ type: 'Warning', reason, message }, null]);
      expect(w.deployment.spec.template, to).toEqual(d.spec.template);
      expect(w.deployment.metadata.annotations, to).toEqual({ [REVISION_ANNOTATION]: '2' });
    }
  });

  it('rollback: the Deployment takes the ReplicaSet’s annotations but keeps its own skipped ones (SetDeploymentAnnotationsTo)', () => {
    const d = deploy({
      replicas: 1,
      progressDeadlineSeconds: null,
      annotations: { [REVISION_ANNOTATION]: '2', [ROLLBACK_TO_ANNOTATION]: '1', 'kubernetes.io/change-cause': 'edit', team: 'b' },
    });
    const older = rs({ name: 'web-old', replicas: 0, revision: 1, image: 'nginx:1.26', annotations: { 'kubernetes.io/change-cause': 'create' } });
    const neu = rs({ name: 'web-new', replicas: 1, revision: 2 });
    const dec = decide(d, [older, neu]);
    // getNewReplicaSet copies the Deployment's annotations to the new ReplicaSet first
    expect(kinds(dec)).toEqual(['updateReplicaSet', 'updateDeployment']);
    const w = dec.writes[1] as Extract<(typeof dec.writes)[number], { kind: 'updateDeployment' }>;
    expect(w.deployment.metadata.annotations).toEqual({ [REVISION_ANNOTATION]: '2', 'kubernetes.io/change-cause': 'create' });
  });

  const old = (replicas = 0) => rs({ name: 'web-old', replicas, actual: replicas, revision: 1, image: 'nginx:1.26', desired: 3, max: 4, ageSeconds: 7200 });
  const neu = () => rs({ name: 'web-new', replicas: 3, revision: 2, desired: 3, max: 4, ageSeconds: 60 });

  it('an empty or unparseable rollback annotation is ignored (strconv.ParseInt fails): the sync goes on', () => {
    for (const value of ['', 'abc']) {
      const d = deploy({ replicas: 3, revisionHistoryLimit: 0, annotations: { [REVISION_ANNOTATION]: '2', [ROLLBACK_TO_ANNOTATION]: value } });
      d.status = {
        observedGeneration: 1,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 60_000)],
      };
      const dec = decide(d, [old(), neu()]);
      expect(dec.error, JSON.stringify(value)).toBeNull();
      expect(dec.path).toBe('rolling');
      expect(acts(dec)).toEqual(['delete web-old']);
    }
  });

  it('sync: a paused Deployment is cleaned up, but not while a rollback is asked for', () => {
    const d = deploy({ replicas: 3, paused: true, revisionHistoryLimit: 0, annotations: { [REVISION_ANNOTATION]: '2' } });
    expect(acts(decide(d, [old(), neu()]))).toEqual(['delete web-old']);
    const rollingBack = deploy({
      replicas: 3,
      paused: true,
      revisionHistoryLimit: 0,
      annotations: { [REVISION_ANNOTATION]: '2', [ROLLBACK_TO_ANNOTATION]: '1' },
    });
    for (const minor of MINORS) {
      const dec = decide(rollingBack, [old(), neu()], { minor });
      expect(acts(dec), `1.${minor}`).toEqual([]);
      expect(dec.path).toBe('paused');
    }
  });

  it('isScalingEvent: a desired-replicas annotation of "-3" is a number to strconv.Atoi (before 1.32), not from 1.32', () => {
    const d = deploy({ replicas: 3, annotations: { [REVISION_ANNOTATION]: '2' } });
    d.status = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 };
    const n = neu();
    n.metadata.annotations = { ...n.metadata.annotations, [DESIRED_REPLICAS_ANNOTATION]: '-3' };
    for (const minor of MINORS) expect(decide(d, [n], { minor }).path, `1.${minor}`).toBe(minor >= 32 ? 'rolling' : 'scaling');
  });

  it('isScalingEvent: "+3" reads as 3 before 1.32 (no scaling event), and is no number from 1.32', () => {
    const d = deploy({ replicas: 4, annotations: { [REVISION_ANNOTATION]: '2' } });
    const n = neu();
    n.metadata.annotations = { ...n.metadata.annotations, [DESIRED_REPLICAS_ANNOTATION]: '+4' };
    for (const minor of MINORS) expect(decide(d, [n], { minor }).path, `1.${minor}`).toBe('rolling');
    n.metadata.annotations = { ...n.metadata.annotations, [DESIRED_REPLICAS_ANNOTATION]: '+3' };
    for (const minor of MINORS) expect(decide(d, [n], { minor }).path, `1.${minor}`).toBe(minor >= 32 ? 'rolling' : 'scaling');
  });

  it("a strategy type neither Recreate nor RollingUpdate ends the sync with upstream's error (a rate-limited requeue)", () => {
    const d = deploy({ replicas: 3, annotations: { [REVISION_ANNOTATION]: '2' } });
    d.spec.strategy = { type: 'BlueGreen' };
    for (const minor of MINORS) {
      const dec = decide(d, [neu()], { minor });
      expect(dec.error, `1.${minor}`).toBe('unexpected deployment strategy type: BlueGreen');
      expect(dec.requeueAfterSeconds).toBe(0);
      expect(dec.path).toBe('unsupported');
    }
  });
});
