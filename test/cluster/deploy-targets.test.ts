// deploy/NAME against a live API server (the recorded one): the ReplicaSets the Deployment
// controls, read with the namespace of the kubeconfig, and their names offered to completion.
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/cluster/kubeconfig.js';
import { listControllerNames } from '../../src/cluster/list-names.js';
import { spellings } from '../../src/commands/completion.js';
import { controllerCandidates } from '../../src/completion/names.js';
import { preparePlan } from '../../src/services/plan-service.js';
import { kubeconfigFileFor, recordedServers } from './helpers.js';

const serve = recordedServers();
const io = { progress: { update: () => {}, done: () => {} }, env: {} };

describe('deploy/NAME on a live cluster', () => {
  it('plans the ReplicaSets of Deployment web in the current namespace, and refuses an unknown one', async () => {
    const server = await serve();
    const connection = { kubeconfig: kubeconfigFileFor(server, { namespace: 'shop' }) };
    const ctx = await preparePlan({ connection }, { now: '2026-01-01T00:00:00Z', kubeVersion: '1.32' }, [{ kind: 'Deployment', name: 'web' }], io);
    expect(ctx.plan.controllers.map((c) => `${c.namespace}/${c.name}`)).toEqual(['shop/web-5b8c9d7f6a', 'shop/web-7d9f8b6c5d']);
    // checkout's ReplicaSet lives in payments: not in the current namespace
    await expect(preparePlan({ connection }, { kubeVersion: '1.32' }, [{ kind: 'Deployment', name: 'checkout' }], io)).rejects.toThrow(
      'deployments.apps "checkout" not found: no ReplicaSet in shop namespace is controlled by a Deployment named checkout (ReplicaSets here are controlled by deployments api, web, worker)',
    );
  });

  it('completion lists the Deployments owning ReplicaSets, once each', async () => {
    const server = await serve();
    const conn = connect({ kubeconfig: kubeconfigFileFor(server) }, {});
    const names = await listControllerNames(conn, null);
    expect(controllerCandidates(names, 'deploy/', true, spellings)).toEqual([
      { value: 'deploy/api', description: 'shop' },
      { value: 'deploy/checkout', description: 'payments' },
      { value: 'deploy/coredns', description: 'kube-system' },
      { value: 'deploy/web', description: 'shop' },
      { value: 'deploy/worker', description: 'shop' },
    ]);
  });
});
