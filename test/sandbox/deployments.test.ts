// apps/v1 Deployments, stored and served as ReplicaSets are: discovery, SetDefaults_Deployment,
// validation, generation, the status and scale subresources, garbage collection of the
// ReplicaSets they own, and `kubectl get deploy`. No Deployment controller runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, mergePatch, raw, rsBody, smp, startEnv, waitFor, type Env } from './helpers.js';
import { headerOf, kubectlFor, rowOf } from './kubectl-runner.js';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(() => env.sb.close());

function deployBody(name: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = { app: name }) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }, ...extra },
  };
}

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

describe('Deployments', () => {
  it('discovery: deployments, deployments/scale, deployments/status in apps/v1, shortName deploy, category all', async () => {
    const r = await raw(env.sb, 'GET', '/apis/apps/v1');
    const names = r.json.resources.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(['deployments', 'deployments/scale', 'deployments/status']));
    const d = r.json.resources.find((x: { name: string }) => x.name === 'deployments');
    expect(d).toMatchObject({ singularName: 'deployment', namespaced: true, kind: 'Deployment', shortNames: ['deploy'], categories: ['all'] });
    const scale = r.json.resources.find((x: { name: string }) => x.name === 'deployments/scale');
    expect(scale).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  });

  it('defaults as SetDefaults_Deployment; generation 1; status empty; the template defaulted as a ReplicaSet one', async () => {
    const d = await env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('web') });
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec?.template.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
    });
    expect(d.spec?.template.spec?.serviceAccountName).toBeUndefined();
    expect(d.metadata?.generation).toBe(1);
    const stored = await raw(env.sb, 'GET', `${DEPLOYMENTS}/web`);
    expect(stored.json.status).toEqual({});
    const recreate = await env.apps.createNamespacedDeployment({
      namespace: 'default',
      body: deployBody('batch', { strategy: { type: 'Recreate' }, replicas: 0 }),
    });
    expect(recreate.spec?.strategy).toEqual({ type: 'Recreate' });
    expect(recreate.spec?.replicas).toBe(0);
  });

  it('validation: selector required and matching the template labels, strategy, rolling-update bounds, progress deadline', async () => {
    const noSel = await failure(
      env.apps.createNamespacedDeployment({ namespace: 'default', body: { ...deployBody('a'), spec: { template: deployBody('a').spec.template } } as never }),
    );
    expect(noSel.code).toBe(422);
    expect(noSel.status.message).toContain('spec.selector: Required value');
    const mismatch = await failure(
      env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('b', { selector: { matchLabels: { app: 'other' } } }) }),
    );
    expect(mismatch.status.message).toBe(
      'Deployment.apps "b" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    );
    const both0 = await failure(
      env.apps.createNamespacedDeployment({
        namespace: 'default',
        body: deployBody('c', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      }),
    );
    expect(both0.status.message).toBe(
      'Deployment.apps "c" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    );
    const recreateRU = await failure(
      env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('d', { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }) }),
    );
    expect(recreateRU.status.message).toBe(
      'Deployment.apps "d" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
    );
    const badType = await failure(env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('e', { strategy: { type: 'BlueGreen' } }) }));
    expect(badType.status.message).toBe(
      'Deployment.apps "e" is invalid: spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"',
    );
    const deadline = await failure(
      env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('f', { minReadySeconds: 600, progressDeadlineSeconds: 600 }) }),
    );
    expect(deadline.status.message).toBe(
      'Deployment.apps "f" is invalid: spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
    );
    const strict = await raw(env.sb, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, {
      body: deployBody('g', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxSurplus: 2 } } }),
    });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.strategy.rollingUpdate.maxSurplus"',
    );
  });

  it('generation follows spec and annotation changes, not labels or status; observedGeneration is left as written; a status write keeps spec and labels', async () => {
    await env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('gen') });
    const labelled = await env.apps.patchNamespacedDeployment(
      { name: 'gen', namespace: 'default', body: { metadata: { labels: { tier: 'x' } } } },
      mergePatch(),
    );
    expect(labelled.metadata?.generation).toBe(1);
    const annotated = await env.apps.patchNamespacedDeployment(
      { name: 'gen', namespace: 'default', body: { metadata: { annotations: { note: 'y' } } } },
      mergePatch(),
    );
    expect(annotated.metadata?.generation).toBe(2);
    const resized = await env.apps.patchNamespacedDeployment({ name: 'gen', namespace: 'default', body: { spec: { replicas: 3 } } }, mergePatch());
    expect(resized.metadata?.generation).toBe(3);
    const st = await env.apps.patchNamespacedDeploymentStatus(
      {
        name: 'gen',
        namespace: 'default',
        body: { status: { observedGeneration: 1, replicas: 3, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 1 } },
      },
      mergePatch(),
    );
    expect(st.metadata?.generation).toBe(3);
    expect(st.status).toEqual({ observedGeneration: 1, replicas: 3, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 1 });
    // The main resource ignores status; the status subresource ignores spec.
    const spec = await env.apps.patchNamespacedDeployment({ name: 'gen', namespace: 'default', body: { status: { replicas: 9 } } }, mergePatch());
    expect(spec.status?.replicas).toBe(3);
    const viaStatus = await env.apps.patchNamespacedDeploymentStatus({ name: 'gen', namespace: 'default', body: { spec: { replicas: 7 } } }, mergePatch());
    expect(viaStatus.spec?.replicas).toBe(3);
    // ...nor labels (deploymentStatusStrategy resets metadata.labels too); annotations it keeps
    const relabelled = await env.apps.patchNamespacedDeploymentStatus(
      { name: 'gen', namespace: 'default', body: { metadata: { labels: { tier: 'status' }, annotations: { via: 'status' } } } },
      mergePatch(),
    );
    expect([relabelled.metadata?.labels, relabelled.metadata?.annotations]).toEqual([{ tier: 'x' }, { note: 'y', via: 'status' }]);
    const badStatus = await failure(
      env.apps.patchNamespacedDeploymentStatus({ name: 'gen', namespace: 'default', body: { status: { availableReplicas: 3 } } }, mergePatch()),
    );
    expect(badStatus.status.message).toBe('Deployment.apps "gen" is invalid: status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas');
  });

  it('the scale subresource reads and writes spec.replicas (a new generation), with the selector in status', async () => {
    await env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('sc', { replicas: 2 }) });
    const s = await env.apps.readNamespacedDeploymentScale({ name: 'sc', namespace: 'default' });
    expect([s.spec?.replicas, s.status?.replicas, s.status?.selector]).toEqual([2, 0, 'app=sc']);
    const r = await raw(env.sb, 'PATCH', `${DEPLOYMENTS}/sc/scale`, { body: { spec: { replicas: 5 } }, contentType: 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 } });
    const d = await env.apps.readNamespacedDeployment({ name: 'sc', namespace: 'default' });
    expect([d.spec?.replicas, d.metadata?.generation]).toEqual([5, 2]);
  });

  it('the selector is immutable; a strategic merge patch merges template containers by name', async () => {
    const f = await failure(
      env.apps.patchNamespacedDeployment(
        {
          name: 'sc',
          namespace: 'default',
          body: { spec: { selector: { matchLabels: { app: 'sc', v: '2' } }, template: { metadata: { labels: { app: 'sc', v: '2' } } } } },
        },
        smp(),
      ),
    );
    expect(f.code).toBe(422);
    expect(f.status.message).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"sc", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    const d = await env.apps.patchNamespacedDeployment(
      { name: 'sc', namespace: 'default', body: { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.36' }] } } } } },
      smp(),
    );
    // merged by name; the new entry goes first, as upstream's strategic merge orders lists
    expect(d.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['sidecar', 'c']);
  });

  it('no Deployment controller: no ReplicaSet appears; a ReplicaSet it owns is collected when it is deleted', async () => {
    const d = await env.apps.createNamespacedDeployment({ namespace: 'default', body: deployBody('owner', { replicas: 2 }) });
    await new Promise((r) => setTimeout(r, 50));
    expect((await env.apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app=owner' })).items).toEqual([]);
    const rs = rsBody('owner-1', 0, { app: 'owner' });
    await env.apps.createNamespacedReplicaSet({
      namespace: 'default',
      body: {
        ...rs,
        metadata: { name: 'owner-1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'owner', uid: d.metadata!.uid!, controller: true }] },
      },
    });
    await env.apps.deleteNamespacedDeployment({ name: 'owner', namespace: 'default' });
    await waitFor(
      async () => (await env.apps.listNamespacedReplicaSet({ namespace: 'default', labelSelector: 'app=owner' })).items.length === 0,
      'the owned ReplicaSet collected',
    );
  });

  it('kubectl get deploy prints NAME READY UP-TO-DATE AVAILABLE AGE (-o wide: CONTAINERS IMAGES SELECTOR)', async () => {
    const k = await kubectlFor(env.sb);
    try {
      const r = await k.run('get', 'deploy');
      expect(r.stderr).toBe('');
      expect(headerOf(r.stdout)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      expect(rowOf(r.stdout, 'gen')?.slice(0, 4)).toEqual(['gen', '2/3', '2', '1']);
      const wide = await k.run('get', 'deployments.apps', 'sc', '-o', 'wide');
      expect(headerOf(wide.stdout)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      expect(rowOf(wide.stdout, 'sc')?.slice(5)).toEqual(['sidecar,c', 'busybox:1.36,nginx:1.27', 'app=sc']);
      const all = await k.run('get', 'all');
      expect(all.stdout).toContain('deployment.apps/gen');
      const scaled = await k.run('scale', 'deploy', 'gen', '--replicas', '4');
      expect([scaled.code, scaled.stdout.trim()]).toEqual([0, 'deployment.apps/gen scaled']);
    } finally {
      await k.close();
    }
  });
});
