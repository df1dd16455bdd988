// End to end: explain deploy/NAME --image … foresees the whole rollout from a snapshot that holds
// the Deployment (examples/deployment-at-rest.yaml: 4 replicas, 25%/25%, one pod not ready).
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli, ensureBuilt, example, NOW } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

const FILE = ['-f', example('deployment-at-rest'), '--now', NOW];
const IMAGE = 'app=registry.example/web:1.5.0';
const NEW = 'web-<pod-template-hash>';
const OLD = 'web-5f6b4c8d9';

interface Step {
  at: number;
  controller: string;
  verb: string;
  replicaSet: string;
  pod?: string;
  reason?: string;
}

describe('explain deploy/NAME --image (a rollout foreseen)', () => {
  it('-o json is the contract RolloutPrediction: the unready pod goes first, then one old pod per ready new one', () => {
    const r = cli(['explain', 'deploy/web', ...FILE, '--image', IMAGE, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p).toMatchObject({
      apiVersion: 'rs-reconcile/v1alpha1',
      kind: 'RolloutPrediction',
      now: NOW,
      source: 'file',
      deployment: { namespace: 'storefront', name: 'web' },
      change: { image: { app: 'registry.example/web:1.5.0' } },
      assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 },
      complete: true,
    });
    const steps: Step[] = p.steps;
    // maxSurge 1: the new ReplicaSet starts with 1 (5 pods at most)
    expect(steps[0]).toMatchObject({ at: 0, controller: 'deployment', verb: 'create', replicaSet: NEW, replicas: 1 });
    // cleanupUnhealthyReplicas: the old ReplicaSet loses its unready pod first, ranked NotReady
    const deletes = steps.filter((s) => s.controller === 'replicaset' && s.verb === 'delete');
    expect(deletes[0]).toMatchObject({ replicaSet: OLD, pod: 'web-5f6b4c8d9-x2k8q', reason: 'NotReady' });
    expect(new Set(deletes.map((s) => s.pod))).toEqual(new Set(['web-5f6b4c8d9-a1b2c', 'web-5f6b4c8d9-d3e4f', 'web-5f6b4c8d9-g5h6j', 'web-5f6b4c8d9-x2k8q']));
    const last = p.sizes.at(-1);
    expect(last[NEW]).toBe(4);
    expect(last[OLD]).toBe(0);
    for (const s of p.sizes) expect((s[NEW] ?? 0) + (s[OLD] ?? 0)).toBeLessThanOrEqual(5);
    expect(p.completeAfterSeconds).toBe(p.end.at);
    // -o yaml: the same document
    expect(parse(cli(['explain', 'deploy/web', ...FILE, '--image', IMAGE, '-o', 'yaml']).stdout)).toEqual(p);
  });

  it('the text names the change, the arithmetic, the timeline and every pod deleted with its reason', () => {
    const r = cli(['explain', 'deploy/web', ...FILE, '--image', IMAGE]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Rollout of Deployment storefront/web: set image ${IMAGE}`);
    expect(r.stdout).toContain('maxSurge 25% of 4 = 1 (rounded up), so at most 5 pods');
    expect(r.stdout).toContain('maxUnavailable 25% of 4 = 1 (rounded down), so at least 3 available');
    expect(r.stdout).toMatch(/Result: +complete after \d+s/);
    expect(r.stdout).toContain(`${OLD} deletes web-5f6b4c8d9-x2k8q (NotReady)`);
    expect(r.stdout).toContain('ReplicaSet sizes');
  });

  it('--undo re-uses the ReplicaSet of the previous revision instead of creating one', () => {
    const p = JSON.parse(cli(['explain', 'deploy/web', ...FILE, '--undo', '-o', 'json']).stdout);
    expect(p.change).toEqual({ undo: { toRevision: 0 } });
    expect(p.newReplicaSet).toBe('web-7d9c5b6f4');
    expect(p.steps.some((s: Step) => s.controller === 'deployment' && s.verb === 'create')).toBe(false);
    expect(p.steps[0]).toMatchObject({ controller: 'deployment', verb: 'scale', replicaSet: 'web-7d9c5b6f4', from: 0, to: 1 });
    expect(p.sizes.at(-1)).toMatchObject({ 'web-7d9c5b6f4': 4, [OLD]: 0 });
    expect(p.complete).toBe(true);
  });

  it('--replicas with deploy/NAME is a scale of the Deployment, and a pod of the snapshot that is not ready keeps it from completing', () => {
    const p = JSON.parse(cli(['explain', 'deploy/web', ...FILE, '--replicas', '6', '-o', 'json']).stdout);
    expect(p.change).toEqual({ replicas: 6 });
    // the only active ReplicaSet takes all 6; no new ReplicaSet (the template did not change)
    expect(p.steps[0]).toMatchObject({ controller: 'deployment', verb: 'scale', replicaSet: OLD, from: 4, to: 6 });
    expect(p.steps.some((s: Step) => s.verb === 'create' && s.controller === 'deployment')).toBe(false);
    // web-5f6b4c8d9-x2k8q keeps its state (not ready): 5 of 6 available, never complete
    expect(p.complete).toBe(false);
    expect(p.end).toMatchObject({ state: 'stalled', reason: 'PodsNeverReady' });
    expect(p.end.message).toContain('web-5f6b4c8d9-x2k8q');
  });

  it('pods that never turn ready: the rollout stalls at the progress deadline, and --exit-code says so', () => {
    const r = cli(['explain', 'deploy/web', ...FILE, '--image', IMAGE, '--pod-ready-after', 'never', '--exit-code', '-o', 'json']);
    expect(r.status).toBe(1);
    const p = JSON.parse(r.stdout);
    expect(p.complete).toBe(false);
    expect(p.completeAfterSeconds).toBeNull();
    // requeueStuckDeployment checks again one second after the deadline (lastUpdateTime + 600 s + 1 s)
    expect(p.end).toMatchObject({ state: 'stalled', reason: 'ProgressDeadlineExceeded', at: 601 });
  });

  it('refuses what kubectl would refuse, in one line, with nothing printed on stdout', () => {
    const noContainer = cli(['explain', 'deploy/web', ...FILE, '--image', 'nope=x:1']);
    expect(noContainer.status).toBeGreaterThan(1);
    expect(noContainer.stdout).toBe('');
    expect(noContainer.stderr).toContain('unable to find container named "nope"');
    const notDeploy = cli(['explain', 'rs/web-5f6b4c8d9', ...FILE, '--image', IMAGE]);
    expect(notDeploy.status).toBeGreaterThan(1);
    expect(notDeploy.stderr).toContain('need deploy/NAME');
    const badDuration = cli(['explain', 'deploy/web', ...FILE, '--image', IMAGE, '--pod-ready-after', 'soon']);
    expect(badDuration.status).toBeGreaterThan(1);
    expect(badDuration.stderr).toContain('invalid --pod-ready-after "soon"');
    const same = cli(['explain', 'deploy/web', ...FILE, '--image', 'app=registry.example/web:1.4.2']);
    expect(same.status).toBeGreaterThan(1);
    expect(same.stderr).toContain('there is no rollout to foresee');
  });
});
