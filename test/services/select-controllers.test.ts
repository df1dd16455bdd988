// Which controllers a command's names, -n and -l choose: deploy/NAME by owner references, and the
// warnings for a selector that chooses nothing and a snapshot without pods.
import { describe, expect, it } from 'vitest';

import { ClusterPlanner } from '../../src/core/plan.js';
import type { ReplicaSet, Snapshot } from '../../src/core/types.js';
import { UserError } from '../../src/errors.js';
import { podlessInput, preparePlan, selectControllers, type SourceOptions } from '../../src/services/plan-service.js';
import type { Target } from '../../src/services/targets.js';
import { planFrame } from '../../src/services/watch/frame.js';
import { prepareWatch } from '../../src/services/watch/prepare.js';
import { bh, controllerRefTo, NOW, pod, rc, rs, snap } from '../core/rules/helpers.js';

/** A ReplicaSet controlled by the Deployment `deployment` (uid `dep-uid-<deployment>` unless given). */
function owned(name: string, deployment: string, o: { ns?: string; uid?: string; apiVersion?: string; labels?: Record<string, string> } = {}): ReplicaSet {
  const r = rs({ name, ns: o.ns, selector: { matchLabels: { app: deployment, hash: name } }, templateLabels: { app: deployment, hash: name } });
  r.metadata.ownerReferences = [controllerRefTo(o.uid ?? `dep-uid-${deployment}`, deployment, 'Deployment', o.apiVersion ?? 'apps/v1')];
  r.metadata.labels = o.labels ?? { app: deployment };
  return r;
}

const names = (cs: { metadata: { name: string; namespace?: string } }[]) => cs.map((c) => `${c.metadata.namespace}/${c.metadata.name}`).sort();

function select(s: Snapshot, targets: Target[], src: Partial<SourceOptions> = {}, notices: string[] = []) {
  const planner = new ClusterPlanner(s, { now: NOW, behaviour: bh(), source: 'file' });
  return selectControllers(planner, { connection: {}, ...src }, targets, null, 'file', notices);
}

const deploy = (name: string): Target => ({ kind: 'Deployment', name });

describe('deploy/NAME', () => {
  const cluster = snap({
    replicaSets: [
      owned('web-1', 'web'),
      owned('web-2', 'web'),
      owned('api-1', 'api'),
      owned('web-1', 'web', { ns: 'other', uid: 'dep-uid-other-web' }),
      // a custom resource called Deployment is not apps' Deployment
      owned('web-crd', 'web', { apiVersion: 'example.io/v1', uid: 'crd-uid' }),
      rs({ name: 'web' }), // a standalone ReplicaSet named like the Deployment
    ],
    rcs: [rc({ name: 'web' })],
  });

  it('covers every ReplicaSet whose controller reference names the Deployment, in the namespace in scope', () => {
    expect(names(select(cluster, [deploy('web')], { namespace: 'default' }))).toEqual(['default/web-1', 'default/web-2']);
    expect(names(select(cluster, [deploy('web')], { allNamespaces: true }))).toEqual(['default/web-1', 'default/web-2', 'other/web-1']);
    expect(names(select(cluster, [deploy('web'), deploy('api')], { namespace: 'default' }))).toEqual(['default/api-1', 'default/web-1', 'default/web-2']);
    // rs/NAME and NAME still name the ReplicaSet itself
    expect(names(select(cluster, [{ kind: 'ReplicaSet', name: 'web' }], { namespace: 'default' }))).toEqual(['default/web']);
  });

  it('not found: one line naming the Deployments that do own ReplicaSets there', () => {
    const err = (() => {
      try {
        select(cluster, [deploy('shop')], { namespace: 'default' });
      } catch (e) {
        return e as Error;
      }
      throw new Error('no error');
    })();
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(
      'deployments.apps "shop" not found: no ReplicaSet in default namespace is controlled by a Deployment named shop (ReplicaSets here are controlled by deployments api, web)',
    );
    expect(() => select(snap({ replicaSets: [rs({ name: 'solo' })] }), [deploy('web')], { namespace: 'default' })).toThrow(
      'deployments.apps "web" not found: no ReplicaSet in default namespace is controlled by a Deployment named web (no ReplicaSet here is controlled by a Deployment)',
    );
  });

  it('with -l: a Deployment whose ReplicaSets the selector leaves out says so', () => {
    expect(names(select(cluster, [deploy('web')], { namespace: 'default', selector: 'app=web' }))).toEqual(['default/web-1', 'default/web-2']);
    expect(() => select(cluster, [deploy('web')], { namespace: 'default', selector: 'app=api' })).toThrow(
      'deployments.apps "web" in default namespace does not match the selector app=api',
    );
  });

  it('a re-created Deployment: the ReplicaSets of both uids, with a warning that they rank apart', () => {
    const s = snap({ replicaSets: [owned('web-old', 'web', { uid: 'uid-1' }), owned('web-new', 'web', { uid: 'uid-2' })] });
    const notices: string[] = [];
    expect(names(select(s, [deploy('web')], { namespace: 'default' }, notices))).toEqual(['default/web-new', 'default/web-old']);
    expect(notices).toEqual([
      'deployment default/web: its ReplicaSets are controlled by 2 Deployments of that name (uids uid-1, uid-2; re-created): all are shown, and colocation ranks only among the ReplicaSets of one uid, as upstream',
    ]);
    const one: string[] = [];
    select(cluster, [deploy('web')], { allNamespaces: true }, one);
    expect(one).toEqual([]); // one uid per namespace: nothing to say
  });

  it('ranks colocation across the Deployment’s ReplicaSets: the same deletions as planning the whole namespace', async () => {
    const files = { filename: [new URL('../../examples/deployment-rollout.yaml', import.meta.url).pathname], namespace: 'shop', connection: {} };
    const io = { progress: { update: () => {}, done: () => {} } };
    const model = { now: '2026-01-01T00:00:00Z' };
    const byDeploy = await preparePlan(files, model, [deploy('checkout')], io);
    const whole = await preparePlan(files, model, [], io);
    expect(byDeploy.plan.controllers.map((c) => c.name)).toEqual(['checkout-6b8d', 'checkout-9c2f']);
    expect(byDeploy.plan.controllers).toEqual(whole.plan.controllers);
    const old = byDeploy.plan.controllers[0];
    expect(old.delete.map((d) => d.reason)).toContain('MoreOnSameNode');
  });

  it('--replicas is refused before anything is read', async () => {
    const io = { progress: { update: () => {}, done: () => {} } };
    await expect(preparePlan({ filename: ['/nonexistent.yaml'], connection: {} }, { replicas: 2 }, [deploy('web')], io)).rejects.toThrow(
      '--replicas cannot be used with deploy/web: the Deployment controller decides how replicas are split between its ReplicaSets',
    );
  });

  it('watch shows the same ReplicaSets, and checks the name on the first plan', () => {
    const frame = (targets: Target[], strict = false) =>
      planFrame(cluster, { behaviour: bh(), nowMs: NOW, at: NOW, source: 'file', scope: { namespace: 'default', targets }, strictTargets: strict });
    expect(frame([deploy('web')]).plan.controllers.map((c) => c.name)).toEqual(['web-1', 'web-2']);
    expect(() => frame([deploy('nope')], true)).toThrow('deployments.apps "nope" not found');
  });
});

describe('warnings', () => {
  const cluster = snap({ replicaSets: [rs({ name: 'a' }), rs({ name: 'b' })], rcs: [rc({ name: 'c' })] });

  it('a selector that matches no controller of the namespace', () => {
    const notices: string[] = [];
    expect(select(cluster, [], { namespace: 'default', selector: 'app=nope' }, notices)).toEqual([]);
    expect(notices).toEqual([
      'no ReplicaSet or ReplicationController matches the selector app=nope in default namespace (2 ReplicaSets and 1 ReplicationController there)',
    ]);
    // nothing there at all, or something matches: no warning
    const quiet: string[] = [];
    select(cluster, [], { namespace: 'empty', selector: 'app=nope' }, quiet);
    select(cluster, [], { namespace: 'default', selector: '!app' }, quiet);
    select(cluster, [], { namespace: 'default' }, quiet);
    expect(quiet).toEqual([]);
  });

  it('watch -f says them before the stream starts, and fails at once on an unknown deploy/NAME', async () => {
    const io = { progress: { update: () => {}, done: () => {} } };
    const file = [new URL('../../examples/deployment-rollout.yaml', import.meta.url).pathname];
    const base = { filename: file, namespace: 'shop', allNamespaces: false, connection: {} };
    const model = { now: '2026-01-01T00:00:00Z' };
    expect((await prepareWatch({ source: { ...base, selector: 'app=nope', targets: [] }, model }, io)).notices).toEqual([
      'no ReplicaSet or ReplicationController matches the selector app=nope in shop namespace (2 ReplicaSets there)',
    ]);
    expect((await prepareWatch({ source: { ...base, targets: [deploy('checkout')] }, model }, io)).notices).toEqual([]);
    await expect(prepareWatch({ source: { ...base, targets: [deploy('web')] }, model }, io)).rejects.toThrow('deployments.apps "web" not found');
  });

  it('a snapshot with controllers wanting pods but no pod at all', () => {
    expect(podlessInput(cluster)).toBe(
      'the input holds 2 ReplicaSets and 1 ReplicationController but no pods: every controller is planned as if its pods were gone (did you mean "kubectl get rs,rc,pods -o yaml"?)',
    );
    expect(podlessInput(snap({ replicaSets: [rs({ name: 'a' })] }))).toMatch(/^the input holds 1 ReplicaSet but no pods/);
    expect(podlessInput(snap({ replicaSets: [rs({ name: 'a', replicas: 0 })] }))).toBeNull(); // nothing wants a pod
    expect(podlessInput(snap({ replicaSets: [rs({ name: 'a' })], pods: [pod({ name: 'p', labels: { app: 'web' } })] }))).toBeNull();
    expect(podlessInput(snap({}))).toBeNull();
  });
});
