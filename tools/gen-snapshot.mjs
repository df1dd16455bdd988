#!/usr/bin/env node
// Vendored copy of ../shared/tools/gen-snapshot.mjs (the project's shared reference material),
// taken on 2026-11-25, so that the tests and `npm run bench` run in a clone without ../shared.
// Where ../shared/tools/gen-snapshot.mjs exists it is authoritative: the tests and the bench use
// it instead, and test/contract/vendored.test.ts fails when this copy differs from it (copy it
// again, keeping this note). Everything below the next line is the shared file, unchanged.
// ---- vendored text follows ----
// Generates a synthetic cluster snapshot (a kind: List of ReplicaSets and Pods, as
// `kubectl get rs,pods -A -o json` prints them) for benchmarks and scale tests.
// Usage: node gen-snapshot.mjs --rs 1000 --pods-per-rs 10 [--namespaces 20] [--nodes 200]
//        [--drift 0.1] [--seed 1] [--format json|ndjson] > snapshot.json
// --drift: fraction of ReplicaSets whose pod count differs from spec.replicas, plus some
// orphans and released pods, so that a plan has real work in it.
import { argv, stdout } from 'node:process';

const args = Object.fromEntries(
  argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const nRS = Number(args.rs ?? 100);
const perRS = Number(args['pods-per-rs'] ?? 10);
const nNS = Number(args.namespaces ?? 10);
const nNodes = Number(args.nodes ?? 100);
const drift = Number(args.drift ?? 0.1);
const format = args.format ?? 'json';
let seed = Number(args.seed ?? 1);
// (a*seed + c) mod 2^31 in exact 32-bit integer arithmetic: a float product passes 2^53 and cycles.
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 2147483648);
const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
const uid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
const base = Date.parse('2026-01-01T00:00:00Z');
const ts = (secondsBefore) => new Date(base - secondsBefore * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

let first = true;
const out = [];
const flush = () => { if (out.length) { stdout.write(out.join('')); out.length = 0; } };
function emit(obj) {
  if (format === 'ndjson') out.push(JSON.stringify(obj) + '\n');
  else { out.push((first ? '' : ',\n') + JSON.stringify(obj)); first = false; }
  if (out.length > 512) flush();
}
if (format === 'json') out.push('{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[\n');

for (let r = 0; r < nRS; r++) {
  const ns = `team-${r % nNS}`;
  const app = `app-${r}`;
  const hash = hex(10).slice(0, 10);
  const rsName = `${app}-${hash}`;
  const rsUid = uid();
  const depUid = uid();
  const labels = { app, 'pod-template-hash': hash };
  let desired = perRS;
  let actual = perRS;
  const drifting = rand() < drift;
  if (drifting) actual = Math.max(0, perRS + Math.floor(rand() * 5) - 2);
  emit({
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: rsName, namespace: ns, uid: rsUid, generation: 3, resourceVersion: String(1000 + r),
      creationTimestamp: ts(86400 * 30), labels,
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(desired), 'deployment.kubernetes.io/max-replicas': String(desired + 1), 'deployment.kubernetes.io/revision': '3' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: depUid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: desired,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'main', image: `registry.example/${app}:1.0.${r % 7}`, ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
      },
    },
    status: { replicas: actual, fullyLabeledReplicas: actual, readyReplicas: actual, availableReplicas: actual, observedGeneration: 3 },
  });
  for (let p = 0; p < actual; p++) {
    const podName = `${rsName}-${hex(5)}`;
    const orphan = drifting && p === 0 && rand() < 0.3;
    const ready = rand() > 0.05;
    const started = 3600 + Math.floor(rand() * 86400 * 20);
    const node = `node-${Math.floor(rand() * nNodes)}`;
    emit({
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name: podName, generateName: `${rsName}-`, namespace: ns, uid: uid(), resourceVersion: String(50000 + r * 100 + p),
        creationTimestamp: ts(started), labels,
        ...(orphan ? {} : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: rsUid, controller: true, blockOwnerDeletion: true }] }),
      },
      spec: {
        nodeName: node, restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default', terminationGracePeriodSeconds: 30,
        containers: [{ name: 'main', image: `registry.example/${app}:1.0.${r % 7}`, ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '128Mi' } },
          volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }] }],
        volumes: [{ name: 'kube-api-access', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }] } }],
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      },
      status: {
        phase: 'Running', hostIP: `10.0.${Math.floor(rand() * 250)}.${Math.floor(rand() * 250)}`, podIP: `10.244.${Math.floor(rand() * 250)}.${Math.floor(rand() * 250)}`, qosClass: 'Burstable',
        startTime: ts(started - 1),
        conditions: [
          { type: 'Initialized', status: 'True', lastTransitionTime: ts(started - 1) },
          { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: ts(started - 5) },
          { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: ts(started - 5) },
          { type: 'PodScheduled', status: 'True', lastTransitionTime: ts(started) },
        ],
        containerStatuses: [{ name: 'main', ready, restartCount: Math.floor(rand() * 3), started: true, image: `registry.example/${app}:1.0.${r % 7}`, imageID: `registry.example/${app}@sha256:${hex(64)}`, containerID: `containerd://${hex(64)}`, state: { running: { startedAt: ts(started - 2) } } }],
      },
    });
  }
}
if (format === 'json') out.push('\n]}\n');
flush();
