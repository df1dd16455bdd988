#!/usr/bin/env node
// Writes the bundled example snapshots in examples/ (as `kubectl get rs,rc,pods -o yaml` prints
// them). Deterministic: run it again after editing a scenario and commit the YAML.
// Every example is evaluated at NOW (pass `--now 2026-01-01T00:00:00Z`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_SCHEMA, dump } from 'js-yaml';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
const NOW = Date.parse('2026-01-01T00:00:00Z');
const ago = (s) => new Date(NOW - s * 1000).toISOString().replace(/\.000Z$/, 'Z');
let n = 0;
const uid = (tag) => {
  n++;
  const h = (x, len) => x.toString(16).padStart(len, '0').slice(-len);
  return `${h(0x5a000000 + n * 7919, 8)}-${h(n * 31, 4)}-4${h(n * 17, 3)}-8${h(n * 13, 3)}-${h(tag.length * 1000003 + n, 12)}`;
};
let rv = 1000;

function replicaSet({
  name,
  ns = 'default',
  replicas,
  labels,
  selector,
  owner,
  generation = 1,
  observed = 1,
  status,
  minReadySeconds,
  kind = 'ReplicaSet',
  annotations,
}) {
  const isRC = kind === 'ReplicationController';
  const meta = { name, namespace: ns, uid: uid(name), generation, resourceVersion: String(rv++), creationTimestamp: ago(86400 * 30), labels };
  if (annotations) meta.annotations = annotations;
  if (owner)
    meta.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }];
  return {
    apiVersion: isRC ? 'v1' : 'apps/v1',
    kind,
    metadata: meta,
    spec: {
      replicas,
      ...(minReadySeconds ? { minReadySeconds } : {}),
      selector: isRC ? (selector ?? labels) : (selector ?? { matchLabels: labels }),
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'app', image: `registry.example/${name.split('-')[0]}:1.4.2`, ports: [{ containerPort: 8080, protocol: 'TCP' }] }] },
      },
    },
    status: {
      replicas: status?.[0] ?? replicas,
      fullyLabeledReplicas: status?.[0] ?? replicas,
      readyReplicas: status?.[1] ?? replicas,
      availableReplicas: status?.[2] ?? replicas,
      ...(isRC ? {} : { terminatingReplicas: 0 }),
      observedGeneration: observed,
    },
  };
}

function pod({
  name,
  ns = 'default',
  labels,
  owner,
  node = 'node-1',
  phase = 'Running',
  ready = true,
  created = 86400 * 3,
  readyFor,
  restarts = 0,
  cost,
  deleting,
  extraOwners,
}) {
  const meta = {
    name,
    generateName: owner ? `${owner.metadata.name}-` : undefined,
    namespace: ns,
    uid: uid(name),
    resourceVersion: String(rv++),
    creationTimestamp: ago(created),
    labels,
  };
  if (!meta.generateName) delete meta.generateName;
  const refs = [];
  if (owner)
    refs.push({
      apiVersion: owner.apiVersion,
      kind: owner.kind,
      name: owner.metadata.name,
      uid: owner.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    });
  if (extraOwners) refs.push(...extraOwners);
  if (refs.length) meta.ownerReferences = refs;
  if (cost !== undefined) meta.annotations = { 'controller.kubernetes.io/pod-deletion-cost': String(cost) };
  if (deleting) {
    meta.deletionTimestamp = ago(deleting);
    meta.deletionGracePeriodSeconds = 30;
  }
  const readySince = readyFor ?? created - 20;
  const conditions = [
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: ago(created - 2) },
    { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: ago(readySince) },
    { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: ago(readySince) },
    { type: 'PodScheduled', status: node ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: ago(created - 1) },
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta,
    spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'app', image: 'registry.example/app:1.4.2' }], restartPolicy: 'Always' },
    status: {
      phase,
      conditions:
        phase === 'Pending' && !node
          ? [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: ago(created), reason: 'Unschedulable' }]
          : conditions,
      ...(node ? { startTime: ago(created - 1) } : {}),
      containerStatuses:
        phase === 'Pending'
          ? []
          : [{ name: 'app', ready, restartCount: restarts, image: 'registry.example/app:1.4.2', started: ready, state: containerState(phase, created) }],
    },
  };
}

/** What kubectl shows a container as (its READY column counts running, ready containers). */
function containerState(phase, created) {
  if (phase === 'Running') return { running: { startedAt: ago(created - 5) } };
  return {
    terminated: {
      exitCode: phase === 'Succeeded' ? 0 : 1,
      reason: phase === 'Succeeded' ? 'Completed' : 'Error',
      startedAt: ago(created - 5),
      finishedAt: ago(created - 60),
    },
  };
}

function write(file, comment, items) {
  const doc = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
  const text =
    `# ${comment.split('\n').join('\n# ')}\n# Evaluate with: --now 2026-01-01T00:00:00Z\n` +
    dump(doc, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true, quotingType: '"' });
  writeFileSync(join(out, file), text);
}

mkdirSync(out, { recursive: true });

// 1. A drifted ReplicaSet: an orphan to adopt, a relabelled pod to release, one pod to create.
{
  const labels = { app: 'shop', tier: 'web' };
  const rs = replicaSet({ name: 'shop-web', ns: 'shop', replicas: 5, labels, generation: 4, observed: 3, status: [4, 4, 4] });
  write(
    'drifted-replicaset.yaml',
    'A drifted ReplicaSet: 3 owned pods, one matching orphan (adopted), one owned pod whose\nlabels were edited (released), so one pod is created and the status is rewritten.',
    [
      rs,
      pod({ name: 'shop-web-7xk2p', ns: 'shop', labels: { ...labels, 'pod-template-hash': 'a1' }, owner: rs, node: 'node-1' }),
      pod({ name: 'shop-web-9mfqz', ns: 'shop', labels, owner: rs, node: 'node-2' }),
      pod({ name: 'shop-web-c4r8t', ns: 'shop', labels, owner: rs, node: 'node-3' }),
      pod({ name: 'shop-web-debug', ns: 'shop', labels: { app: 'shop', tier: 'debug' }, owner: rs, node: 'node-1', created: 3600 }),
      pod({ name: 'shop-web-manual', ns: 'shop', labels, node: 'node-2', created: 7200 }),
    ],
  );
}

// 2. Two ReplicaSets with overlapping selectors.
{
  const a = replicaSet({ name: 'api', ns: 'payments', replicas: 2, labels: { app: 'payments' } });
  const b = replicaSet({
    name: 'api-canary',
    ns: 'payments',
    replicas: 1,
    labels: { app: 'payments', track: 'canary' },
    selector: { matchLabels: { app: 'payments' }, matchExpressions: [{ key: 'track', operator: 'In', values: ['canary', 'stable'] }] },
  });
  write(
    'overlapping-selectors.yaml',
    'Two ReplicaSets whose selectors overlap: api selects app=payments, api-canary selects\napp=payments,track in (canary,stable). The orphan payments-stray matches both (a race upstream:\nwhoever patches first adopts it), and api-canary also matches pods that api owns.',
    [
      a,
      b,
      pod({ name: 'api-h2k9d', ns: 'payments', labels: { app: 'payments', track: 'stable' }, owner: a, node: 'node-1' }),
      pod({ name: 'api-p8d2w', ns: 'payments', labels: { app: 'payments', track: 'stable' }, owner: a, node: 'node-2' }),
      pod({ name: 'api-canary-x7fq2', ns: 'payments', labels: { app: 'payments', track: 'canary' }, owner: b, node: 'node-3' }),
      pod({ name: 'payments-stray', ns: 'payments', labels: { app: 'payments', track: 'canary' }, node: 'node-3', created: 600 }),
    ],
  );
}

// 3. A scale-down where ranking matters: every criterion shows up once.
{
  const labels = { app: 'search' };
  const owner = { name: 'search', uid: uid('search-deploy') };
  const rs = replicaSet({
    name: 'search-5f7c9',
    ns: 'search',
    replicas: 3,
    labels: { ...labels, 'pod-template-hash': '5f7c9' },
    owner,
    generation: 7,
    observed: 6,
    status: [9, 9, 7],
  });
  const L = { ...labels, 'pod-template-hash': '5f7c9' };
  write(
    'scale-down-ranking.yaml',
    'A scale-down from 9 pods to 3 where the ranking decides: an unscheduled pod, a Pending one,\na not-ready one, a low pod-deletion-cost, two pods doubled up on node-a, a recently ready one,\na pod with many restarts and older pods. Which 6 go, and why each before the first that stays?',
    [
      rs,
      pod({ name: 'search-5f7c9-unsched', ns: 'search', labels: L, owner: rs, node: '', phase: 'Pending', ready: false, created: 300 }),
      pod({ name: 'search-5f7c9-pending', ns: 'search', labels: L, owner: rs, node: 'node-e', phase: 'Pending', ready: false, created: 400 }),
      pod({ name: 'search-5f7c9-notready', ns: 'search', labels: L, owner: rs, node: 'node-f', ready: false, created: 86400 * 2 }),
      pod({ name: 'search-5f7c9-cheap', ns: 'search', labels: L, owner: rs, node: 'node-g', cost: -100, created: 86400 * 9 }),
      pod({ name: 'search-5f7c9-crowd1', ns: 'search', labels: L, owner: rs, node: 'node-a', created: 86400 * 10 }),
      pod({ name: 'search-5f7c9-crowd2', ns: 'search', labels: L, owner: rs, node: 'node-a', created: 86400 * 10 + 60 }),
      pod({ name: 'search-5f7c9-fresh', ns: 'search', labels: L, owner: rs, node: 'node-b', created: 86400 * 10, readyFor: 1800 }),
      pod({ name: 'search-5f7c9-flaky', ns: 'search', labels: L, owner: rs, node: 'node-c', created: 86400 * 10, readyFor: 86400 * 10 - 20, restarts: 14 }),
      pod({ name: 'search-5f7c9-steady', ns: 'search', labels: L, owner: rs, node: 'node-d', created: 86400 * 20, readyFor: 86400 * 20 - 20, cost: 50 }),
    ],
  );
}

// 4. Orphans and released pods.
{
  const labels = { app: 'worker' };
  const rs = replicaSet({ name: 'worker', ns: 'batch', replicas: 3, labels, generation: 2, observed: 2, status: [3, 3, 3] });
  const ghost = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'worker',
    uid: 'deadbeef-0000-4000-8000-000000000001',
    controller: true,
    blockOwnerDeletion: true,
  };
  const p = (o) => pod({ ns: 'batch', labels, ...o });
  write(
    'orphans-and-released.yaml',
    'Why is this pod orphaned? A ReplicaSet with owned pods, a matching orphan (adopted), a pod\nwhose labels no longer match (released), a pod still pointing at an earlier ReplicaSet of the same\nname (ignored: ownership is by uid), a Succeeded pod and a terminating pod (neither counts).',
    [
      rs,
      p({ name: 'worker-a1', owner: rs, node: 'node-1' }),
      p({ name: 'worker-b2', owner: rs, node: 'node-2' }),
      p({ name: 'worker-c3', labels: { app: 'worker-old' }, owner: rs, node: 'node-3' }),
      p({ name: 'worker-hand-made', node: 'node-1', created: 900 }),
      p({ name: 'worker-previous', node: 'node-2', extraOwners: [ghost] }),
      p({ name: 'worker-done', owner: rs, node: 'node-3', phase: 'Succeeded', ready: false }),
      p({ name: 'worker-leaving', owner: rs, node: 'node-1', deleting: 20 }),
    ],
  );
}

// 5. A Deployment mid-rollout: two ReplicaSets of one owner.
{
  const owner = { name: 'checkout', uid: uid('checkout-deploy') };
  const oldL = { app: 'checkout', 'pod-template-hash': '6b8d' };
  const newL = { app: 'checkout', 'pod-template-hash': '9c2f' };
  const oldRS = replicaSet({
    name: 'checkout-6b8d',
    ns: 'shop',
    replicas: 2,
    labels: oldL,
    owner,
    generation: 5,
    observed: 4,
    status: [4, 4, 4],
    annotations: { 'deployment.kubernetes.io/revision': '3' },
  });
  const newRS = replicaSet({
    name: 'checkout-9c2f',
    ns: 'shop',
    replicas: 3,
    labels: newL,
    owner,
    generation: 2,
    observed: 1,
    status: [2, 1, 1],
    minReadySeconds: 30,
    annotations: { 'deployment.kubernetes.io/revision': '4' },
  });
  write(
    'deployment-rollout.yaml',
    'A Deployment mid-rollout: the old ReplicaSet is scaled 4 → 2 while the new one grows 2 → 3.\nThe old pods on nodes shared with new pods go first (colocation counts pods of both\nReplicaSets); the new ReplicaSet creates one pod and waits for minReadySeconds.',
    [
      oldRS,
      newRS,
      pod({ name: 'checkout-6b8d-aaa11', ns: 'shop', labels: oldL, owner: oldRS, node: 'node-1', created: 86400 * 6 }),
      pod({ name: 'checkout-6b8d-bbb22', ns: 'shop', labels: oldL, owner: oldRS, node: 'node-2', created: 86400 * 6 }),
      pod({ name: 'checkout-6b8d-ccc33', ns: 'shop', labels: oldL, owner: oldRS, node: 'node-3', created: 86400 * 6 }),
      pod({ name: 'checkout-6b8d-ddd44', ns: 'shop', labels: oldL, owner: oldRS, node: 'node-4', created: 86400 * 6 }),
      pod({ name: 'checkout-9c2f-eee55', ns: 'shop', labels: newL, owner: newRS, node: 'node-1', created: 120, readyFor: 12 }),
      pod({ name: 'checkout-9c2f-fff66', ns: 'shop', labels: newL, owner: newRS, node: 'node-2', created: 90, ready: false }),
    ],
  );
}

// 6. A ReplicationController.
{
  const labels = { app: 'legacy-db', role: 'replica' };
  const rc = replicaSet({ kind: 'ReplicationController', name: 'legacy-db', ns: 'legacy', replicas: 2, labels, generation: 3, observed: 3, status: [3, 3, 3] });
  write(
    'replication-controller.yaml',
    'A ReplicationController with one pod too many: upstream runs the ReplicaSet controller for it\n(owner references say v1/ReplicationController; no colocation ranks).',
    [
      rc,
      pod({ name: 'legacy-db-4n2xq', ns: 'legacy', labels, owner: rc, node: 'node-1', created: 86400 * 40 }),
      pod({ name: 'legacy-db-8s7kd', ns: 'legacy', labels, owner: rc, node: 'node-2', created: 86400 * 40 }),
      pod({ name: 'legacy-db-zt5mw', ns: 'legacy', labels, owner: rc, node: 'node-3', created: 3600 * 5, restarts: 2 }),
    ],
  );
}

// 7. An invalid selector, skipped like upstream, next to a healthy ReplicaSet.
{
  const ok = replicaSet({ name: 'frontend', ns: 'web', replicas: 2, labels: { app: 'frontend' } });
  const bad = replicaSet({
    name: 'broken',
    ns: 'web',
    replicas: 2,
    labels: { app: 'broken' },
    selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['broken'] }] },
  });
  write(
    'invalid-selector.yaml',
    'An invalid selector (operator "Equals"): upstream skips that ReplicaSet entirely, with no status\nwrite; the other ReplicaSet is planned as usual (it is in sync).',
    [
      ok,
      bad,
      pod({ name: 'frontend-1', ns: 'web', labels: { app: 'frontend' }, owner: ok, node: 'node-1' }),
      pod({ name: 'frontend-2', ns: 'web', labels: { app: 'frontend' }, owner: ok, node: 'node-2' }),
      pod({ name: 'broken-1', ns: 'web', labels: { app: 'broken' }, owner: bad, node: 'node-1' }),
    ],
  );
}
// 8. Orphaned pods, one of each kind: an owner deleted with --cascade=orphan, a pod released when
// its labels stopped matching, a pod whose owner was re-created under a new uid. Appended last so
// the uids of the examples above stay as they were.
{
  const api = replicaSet({ name: 'orders-api', ns: 'orders', replicas: 2, labels: { app: 'orders-api' }, status: [3, 2, 2] });
  const cron = replicaSet({ name: 'orders-cron', ns: 'orders', replicas: 1, labels: { app: 'orders-cron' }, status: [0, 0, 0] });
  cron.metadata.creationTimestamp = ago(600); // re-created ten minutes ago
  const firstCron = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'orders-cron',
    uid: 'c0ffee00-0000-4000-8000-000000000002',
    controller: true,
    blockOwnerDeletion: true,
  };
  /** A pod without an owner reference that still carries the generateName its owner gave it. */
  const orphan = (o, generateName) => {
    const q = pod(o);
    const { name, ...rest } = q.metadata;
    q.metadata = { name, generateName, ...rest };
    return q;
  };
  write(
    'orphaned-pods.yaml',
    'Why is this pod orphaned? orders-worker-7c9d2-k4x8p lost its ReplicaSet to a\n--cascade=orphan delete; orders-api-q7w2e was released when its labels were edited; orders-cron-m2n4b\nstill names the first orders-cron, which was re-created under a new uid. orders-api (2 replicas,\n3 pods) deletes its pod that is not ready.',
    [
      api,
      cron,
      pod({ name: 'orders-api-h5k8s', ns: 'orders', labels: { app: 'orders-api' }, owner: api, node: 'node-1', created: 86400 * 5 }),
      pod({ name: 'orders-api-r2d9x', ns: 'orders', labels: { app: 'orders-api' }, owner: api, node: 'node-2', created: 86400 * 2 }),
      pod({ name: 'orders-api-z8m3p', ns: 'orders', labels: { app: 'orders-api' }, owner: api, node: 'node-3', created: 3600, ready: false }),
      orphan({ name: 'orders-api-q7w2e', ns: 'orders', labels: { app: 'orders-api-debug' }, node: 'node-2', created: 86400 * 4 }, 'orders-api-'),
      orphan(
        { name: 'orders-worker-7c9d2-k4x8p', ns: 'orders', labels: { app: 'orders-worker', 'pod-template-hash': '7c9d2' }, node: 'node-1', created: 86400 * 8 },
        'orders-worker-7c9d2-',
      ),
      orphan(
        { name: 'orders-cron-m2n4b', ns: 'orders', labels: { app: 'orders-cron' }, node: 'node-3', created: 86400 * 2, extraOwners: [firstCron] },
        'orders-cron-',
      ),
    ],
  );
}
// 9. A Deployment mid-rollout with its Deployment object (kubectl get deploy,rs,pods -o yaml), for
// the deployment controller's rules: written out whole, as the API server prints it.
write(
  'deployment-midrollout.yaml',
  `A Deployment mid-rollout (kubectl get deploy,rs,pods -o yaml): web rolls nginx:1.26 → 1.27 with
maxSurge and maxUnavailable 25% of 4 (1 and 1). The new ReplicaSet has 2 pods, 1 of them ready;
the old one 3, all ready. The deployment controller's next sync scales the old ReplicaSet 3 → 2
(4 available, at least 3 needed), and schedules its progress check.`,
  [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-000000000001',
        generation: 2,
        resourceVersion: '2005',
        creationTimestamp: '2025-12-01T00:00:00Z',
        annotations: {
          'deployment.kubernetes.io/revision': '2',
        },
        labels: {
          app: 'web',
        },
      },
      spec: {
        replicas: 4,
        selector: {
          matchLabels: {
            app: 'web',
          },
        },
        template: {
          metadata: {
            creationTimestamp: null,
            labels: {
              app: 'web',
            },
          },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.27',
                imagePullPolicy: 'IfNotPresent',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: {
            maxSurge: '25%',
            maxUnavailable: '25%',
          },
        },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {
        observedGeneration: 2,
        replicas: 5,
        updatedReplicas: 2,
        readyReplicas: 4,
        availableReplicas: 4,
        unavailableReplicas: 1,
        terminatingReplicas: 0,
        conditions: [
          {
            type: 'Available',
            status: 'True',
            lastUpdateTime: '2025-12-01T00:01:00Z',
            lastTransitionTime: '2025-12-01T00:01:00Z',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          },
          {
            type: 'Progressing',
            status: 'True',
            lastUpdateTime: '2025-12-31T23:59:30Z',
            lastTransitionTime: '2025-12-01T00:00:00Z',
            reason: 'ReplicaSetUpdated',
            message: 'ReplicaSet "web-7d9c5b6f4" is progressing.',
          },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-5f6b4c8d9',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-000000000002',
        generation: 3,
        resourceVersion: '1990',
        creationTimestamp: '2025-12-01T00:00:00Z',
        labels: {
          app: 'web',
          'pod-template-hash': '5f6b4c8d9',
        },
        annotations: {
          'deployment.kubernetes.io/desired-replicas': '4',
          'deployment.kubernetes.io/max-replicas': '5',
          'deployment.kubernetes.io/revision': '1',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: '7e01a1d0-0101-4a01-8a01-000000000001',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas: 3,
        selector: {
          matchLabels: {
            app: 'web',
            'pod-template-hash': '5f6b4c8d9',
          },
        },
        template: {
          metadata: {
            creationTimestamp: null,
            labels: {
              app: 'web',
              'pod-template-hash': '5f6b4c8d9',
            },
          },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.26',
                imagePullPolicy: 'IfNotPresent',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
      },
      status: {
        replicas: 3,
        fullyLabeledReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        terminatingReplicas: 0,
        observedGeneration: 3,
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-7d9c5b6f4',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-000000000003',
        generation: 1,
        resourceVersion: '2001',
        creationTimestamp: '2025-12-31T23:58:00Z',
        labels: {
          app: 'web',
          'pod-template-hash': '7d9c5b6f4',
        },
        annotations: {
          'deployment.kubernetes.io/desired-replicas': '4',
          'deployment.kubernetes.io/max-replicas': '5',
          'deployment.kubernetes.io/revision': '2',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: '7e01a1d0-0101-4a01-8a01-000000000001',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas: 2,
        selector: {
          matchLabels: {
            app: 'web',
            'pod-template-hash': '7d9c5b6f4',
          },
        },
        template: {
          metadata: {
            creationTimestamp: null,
            labels: {
              app: 'web',
              'pod-template-hash': '7d9c5b6f4',
            },
          },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.27',
                imagePullPolicy: 'IfNotPresent',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
      },
      status: {
        replicas: 2,
        fullyLabeledReplicas: 2,
        readyReplicas: 1,
        availableReplicas: 1,
        terminatingReplicas: 0,
        observedGeneration: 1,
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-5f6b4c8d9-a1b2c',
        generateName: 'web-5f6b4c8d9-',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-00000000a1b2',
        creationTimestamp: '2025-12-01T00:00:10Z',
        labels: {
          app: 'web',
          'pod-template-hash': '5f6b4c8d9',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-5f6b4c8d9',
            uid: '7e01a1d0-0101-4a01-8a01-000000000002',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: 'node-1',
        containers: [
          {
            name: 'web',
            image: 'nginx:1.26',
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:10Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:30Z',
          },
        ],
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-5f6b4c8d9-d3e4f',
        generateName: 'web-5f6b4c8d9-',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-00000000d3e4',
        creationTimestamp: '2025-12-01T00:00:10Z',
        labels: {
          app: 'web',
          'pod-template-hash': '5f6b4c8d9',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-5f6b4c8d9',
            uid: '7e01a1d0-0101-4a01-8a01-000000000002',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: 'node-2',
        containers: [
          {
            name: 'web',
            image: 'nginx:1.26',
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:10Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:30Z',
          },
        ],
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-5f6b4c8d9-g5h6j',
        generateName: 'web-5f6b4c8d9-',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-00000000g5h6',
        creationTimestamp: '2025-12-01T00:00:10Z',
        labels: {
          app: 'web',
          'pod-template-hash': '5f6b4c8d9',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-5f6b4c8d9',
            uid: '7e01a1d0-0101-4a01-8a01-000000000002',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: 'node-3',
        containers: [
          {
            name: 'web',
            image: 'nginx:1.26',
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:10Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-01T00:00:30Z',
          },
        ],
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-7d9c5b6f4-k7m8n',
        generateName: 'web-7d9c5b6f4-',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-00000000k7m8',
        creationTimestamp: '2025-12-31T23:58:00Z',
        labels: {
          app: 'web',
          'pod-template-hash': '7d9c5b6f4',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-7d9c5b6f4',
            uid: '7e01a1d0-0101-4a01-8a01-000000000003',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: 'node-1',
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-31T23:58:00Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-31T23:58:40Z',
          },
        ],
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-7d9c5b6f4-p9q2r',
        generateName: 'web-7d9c5b6f4-',
        namespace: 'shop',
        uid: '7e01a1d0-0101-4a01-8a01-00000000p9q2',
        creationTimestamp: '2025-12-31T23:59:30Z',
        labels: {
          app: 'web',
          'pod-template-hash': '7d9c5b6f4',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-7d9c5b6f4',
            uid: '7e01a1d0-0101-4a01-8a01-000000000003',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: 'node-2',
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
          },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-31T23:59:30Z',
          },
          {
            type: 'Ready',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: '2025-12-31T23:59:30Z',
          },
        ],
        containerStatuses: [
          {
            name: 'web',
            ready: false,
            restartCount: 0,
          },
        ],
      },
    },
  ],
);

// 10. A Deployment at rest, to foresee a rollout (explain deploy/web --image app=…): 4 replicas,
// maxSurge and maxUnavailable 25%, one ReplicaSet of revision 2 (revision 1 kept at 0 for undo),
// one of its pods not ready. Appended last so the uids of the examples above stay as they were.
{
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'storefront',
      uid: uid('web'),
      generation: 2,
      resourceVersion: String(rv++),
      creationTimestamp: ago(86400 * 30),
      annotations: { 'deployment.kubernetes.io/revision': '2' },
    },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'registry.example/web:1.4.2', ports: [{ containerPort: 8080, protocol: 'TCP' }] }] },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      minReadySeconds: 0,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 2,
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 1,
      terminatingReplicas: 0,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: ago(86400 * 3),
          lastTransitionTime: ago(86400 * 3),
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: ago(86400 * 3),
          lastTransitionTime: ago(86400 * 30),
          reason: 'NewReplicaSetAvailable',
          message: 'ReplicaSet "web-5f6b4c8d9" has successfully progressed.',
        },
      ],
    },
  };
  const owner = { name: 'web', uid: deployment.metadata.uid };
  const labelsOf = (hash) => ({ app: 'web', 'pod-template-hash': hash });
  const rsOf = (name, hash, replicas, revision, image, status) => {
    const r = replicaSet({
      name,
      ns: 'storefront',
      replicas,
      labels: labelsOf(hash),
      owner,
      generation: 3,
      observed: 3,
      status,
      annotations: {
        'deployment.kubernetes.io/revision': revision,
        'deployment.kubernetes.io/desired-replicas': '4',
        'deployment.kubernetes.io/max-replicas': '5',
      },
    });
    r.spec.template.spec.containers[0].image = image;
    return r;
  };
  const current = rsOf('web-5f6b4c8d9', '5f6b4c8d9', 4, '2', 'registry.example/web:1.4.2', [4, 3, 3]);
  const previous = rsOf('web-7d9c5b6f4', '7d9c5b6f4', 0, '1', 'registry.example/web:1.4.1', [0, 0, 0]);
  const p = (suffix, node, extra = {}) =>
    pod({ name: `web-5f6b4c8d9-${suffix}`, ns: 'storefront', labels: labelsOf('5f6b4c8d9'), owner: current, node, created: 86400 * 3, ...extra });
  write(
    'deployment-at-rest.yaml',
    'A Deployment at rest, to foresee a rollout: explain deploy/web -n storefront --image app=registry.example/web:1.5.0\n(4 replicas, maxSurge and maxUnavailable 25%; web-5f6b4c8d9-x2k8q is not ready, so it goes first),\nor --undo back to revision 1.',
    [deployment, current, previous, p('a1b2c', 'node-1'), p('d3e4f', 'node-2'), p('g5h6j', 'node-3'), p('x2k8q', 'node-1', { ready: false, created: 600 })],
  );
}
console.log(`wrote examples to ${out}`);
