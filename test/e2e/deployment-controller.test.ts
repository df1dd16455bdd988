// End to end: the deployment controller's next sync in `diff` (table, -o json, exit status) and
// `explain deploy/NAME`, on examples/deployment-midrollout.yaml (kubectl get deploy,rs,pods).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli, ensureBuilt, example, NOW } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

const MID = ['-f', example('deployment-midrollout'), '--now', NOW];

describe('diff with a Deployment in the input', () => {
  it('-o json: the deployments list as the contract says; exit 1 for its action', () => {
    const r = cli(['diff', ...MID, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const plan = JSON.parse(r.stdout);
    // the ReplicaSets themselves are in sync: the exit status is the Deployment's
    expect(plan.controllers.every((c: { inSync: boolean }) => c.inSync)).toBe(true);
    expect(plan.deployments).toHaveLength(1);
    const d = plan.deployments[0];
    expect(d).toMatchObject({
      namespace: 'shop',
      name: 'web',
      strategy: 'RollingUpdate',
      paused: false,
      inSync: false,
      skip: null,
      newReplicaSet: 'web-7d9c5b6f4',
    });
    expect(d.actions).toEqual([
      {
        verb: 'scale',
        replicaSet: 'web-5f6b4c8d9',
        from: 3,
        to: 2,
        message: expect.stringContaining('maxUnavailable 25% of 4 = 1 (rounded down), so at least 3 available; 4 are available'),
      },
    ]);
    // nothing to write in the status; the progress check at lastUpdateTime + 600 s (+1)
    expect(d.statusChanged).toBe(false);
    expect(d.requeueAfterSeconds).toBe(571);
    expect(d.status).toMatchObject({ replicas: 5, updatedReplicas: 2, availableReplicas: 4, terminatingReplicas: 0 });
  });

  it('-o name lists the Deployment after the ReplicaSets not in sync', () => {
    expect(cli(['diff', ...MID, '-o', 'name']).stdout).toBe('deployment.apps/web\n');
  });

  it('-o yaml is the same document', () => {
    expect(parse(cli(['diff', ...MID, '-o', 'yaml']).stdout)).toEqual(JSON.parse(cli(['diff', ...MID, '-o', 'json']).stdout));
  });

  it('the table lists the Deployment and its action with the arithmetic', () => {
    const r = cli(['diff', ...MID]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("Deployments (the deployment controller's next sync):\ndeployment.apps/web (shop, RollingUpdate): 1 action\n");
    expect(r.stdout).toContain('  scale web-5f6b4c8d9 3 → 2: maxUnavailable 25% of 4 = 1 (rounded down)');
  });

  it('--kube-version 1.34 writes no terminatingReplicas', () => {
    const d = JSON.parse(cli(['diff', ...MID, '--kube-version', '1.34', '-o', 'json']).stdout).deployments[0];
    expect(d.status).not.toHaveProperty('terminatingReplicas');
  });

  it('a completed rollout: the Deployment is in sync, its table section gone', () => {
    const list = parse(readFileSync(example('deployment-midrollout'), 'utf8'));
    // the rollout done: the new ReplicaSet has all 4 pods available, the old one none
    const [dep, old, neu] = list.items;
    old.spec.replicas = 0;
    old.status = { replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, terminatingReplicas: 0, observedGeneration: 3 };
    neu.spec.replicas = 4;
    neu.status = { replicas: 4, fullyLabeledReplicas: 4, readyReplicas: 4, availableReplicas: 4, terminatingReplicas: 0, observedGeneration: 1 };
    dep.status = {
      ...dep.status,
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
      unavailableReplicas: 0,
      conditions: [
        dep.status.conditions[0],
        { ...dep.status.conditions[1], reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-7d9c5b6f4" has successfully progressed.' },
      ],
    };
    list.items = [dep, old, neu];
    const r = cli(['diff', '-f', '-', '--now', NOW, '-o', 'json'], { input: JSON.stringify(list) });
    const d = JSON.parse(r.stdout).deployments[0];
    expect(d.actions).toEqual([]);
    expect(d.inSync).toBe(true);
    // the ReplicaSets still act (this input has no pods): the exit status is theirs
    expect(r.status).toBe(1);
    expect(cli(['diff', '-f', '-', '--now', NOW], { input: JSON.stringify(list) }).stdout).not.toContain('Deployments (');
  });

  it('rs/NAME targets leave Deployments out; deploy/NAME keeps its own', () => {
    expect(JSON.parse(cli(['diff', 'rs/web-5f6b4c8d9', ...MID, '-o', 'json']).stdout)).not.toHaveProperty('deployments');
    const plan = JSON.parse(cli(['diff', 'deploy/web', ...MID, '-o', 'json']).stdout);
    expect(plan.deployments.map((d: { name: string }) => d.name)).toEqual(['web']);
  });

  it('deploy/NAME of a Deployment that controls no ReplicaSet yet: its first ReplicaSet, name not computed', () => {
    const list = parse(readFileSync(example('deployment-midrollout'), 'utf8'));
    list.items = [list.items[0]];
    const r = cli(['diff', 'deploy/web', '-f', '-', '--now', NOW, '-o', 'json'], { input: JSON.stringify(list) });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const d = JSON.parse(r.stdout).deployments[0];
    expect(d.actions).toEqual([{ verb: 'create', replicaSet: null, replicas: 4, message: expect.stringContaining('pod-template-hash') }]);
    expect(d.actions[0].message).toContain(
      'maxSurge 25% of 4 = 1 (rounded up), so at most 5 pods; the ReplicaSets have 0, so the new ReplicaSet starts with 4',
    );
    expect(d.status.conditions.find((c: { type: string }) => c.type === 'Progressing')).toMatchObject({ reason: 'NewReplicaSetCreated' });
  });
});

describe('explain deploy/NAME with the Deployment in the input', () => {
  it("the deployment controller's next sync under the Deployment's header, then the tree as before", () => {
    const r = cli(['explain', 'deploy/web', ...MID]);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Deployment shop/web');
    expect(lines).toContain('  Next sync:          the deployment controller (RollingUpdate) makes 1 ReplicaSet write');
    expect(r.stdout).toContain('  1. scale web-5f6b4c8d9 3 → 2: maxUnavailable 25% of 4 = 1 (rounded down), so at least 3 available;');
    expect(r.stdout).toContain('  progress check again in 571 s (progressDeadlineSeconds)');
    expect(r.stdout).toMatch(/^Deployment\/web\n├─ReplicaSet\/web-7d9c5b6f4 +2 \(new\)/m);
    expect(cli(['explain', 'deploy/web', ...MID, '--exit-code']).status).toBe(1);
  });

  it('-o json is the plan of diff deploy/NAME, deployments included', () => {
    const r = cli(['explain', 'deploy/web', ...MID, '-o', 'json']);
    const plan = JSON.parse(r.stdout);
    expect(plan.deployments[0].actions[0]).toMatchObject({ verb: 'scale', replicaSet: 'web-5f6b4c8d9', from: 3, to: 2 });
    expect(plan).toEqual(JSON.parse(cli(['diff', 'deploy/web', ...MID, '-o', 'json']).stdout));
  });

  it('a Deployment with no ReplicaSet yet: its header and the create it makes', () => {
    const list = parse(readFileSync(example('deployment-midrollout'), 'utf8'));
    list.items = [list.items[0]];
    const r = cli(['explain', 'deploy/web', '-f', '-', '--now', NOW], { input: JSON.stringify(list) });
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      'Deployment shop/web',
      '  UID:                7e01a1d0-0101-4a01-8a01-000000000001',
      '  ReplicaSets:        <none>',
    ]);
    const words = r.stdout.replace(/\s+/g, ' ');
    expect(words).toContain('Next sync: the deployment controller (RollingUpdate) makes 1 ReplicaSet write and writes the status');
    expect(words).toContain('1. create a new ReplicaSet (name not computed) with 4: maxSurge 25% of 4 = 1 (rounded up)');
    // the first status write is the Progressing condition; the strategy's later one meets a 409
    expect(words).toContain('status: replicas 5, updated 2, available 4, Progressing True NewReplicaSetCreated');
    expect(words).toContain('then the sync ends: Operation cannot be fulfilled on deployments.apps "web"');
  });
});
