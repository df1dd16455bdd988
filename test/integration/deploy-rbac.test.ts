// deploy/ holds the RBAC of upstream's own controllers plus what rs-reconcile alone needs: prove it
// by running the controller on the sandbox through a scenario that makes every kind of call, then
// checking each request of the audit log against the rules, that upstream's bootstrap policy is
// granted whole, and that every grant beyond it was needed by some call.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runForeground } from '../../src/services/run-foreground.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { AuditEntry } from '../../src/sandbox/audit.js';

const DEPLOY = new URL('../../deploy/', import.meta.url).pathname;
const docs = (f: string) => parseAllDocuments(readFileSync(join(DEPLOY, f), 'utf8')).map((d) => d.toJS());
const rbac = docs('rbac.yaml');
const deployment = docs('deployment.yaml')[0];

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
const clusterRules: Rule[] = rbac.find((d) => d.kind === 'ClusterRole').rules;
const nsRules: Rule[] = rbac.find((d) => d.kind === 'Role').rules;
const groupOf: Record<string, string> = {
  pods: '',
  events: '',
  replicationcontrollers: '',
  replicasets: 'apps',
  deployments: 'apps',
  leases: 'coordination.k8s.io',
};

/**
 * Upstream's bootstrap policy for the replicaset-controller, replication-controller and
 * deployment-controller service accounts: kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go
 * (buildControllerRoles; eventsRule is create, update, patch on events in "" and events.k8s.io).
 * The finalizers rules matter on clusters with OwnerReferencesPermissionEnforcement: the pods the
 * controller creates and adopts carry blockOwnerDeletion: true, which needs update on the owner's
 * finalizers subresource.
 */
const UPSTREAM_POLICY: Rule[] = [
  // replicaset-controller
  { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch', 'update'] },
  { apiGroups: ['apps', 'extensions'], resources: ['replicasets/status'], verbs: ['update'] },
  { apiGroups: ['apps', 'extensions'], resources: ['replicasets/finalizers'], verbs: ['update'] },
  // replication-controller
  { apiGroups: [''], resources: ['replicationcontrollers'], verbs: ['get', 'list', 'watch', 'update'] },
  { apiGroups: [''], resources: ['replicationcontrollers/status'], verbs: ['update'] },
  { apiGroups: [''], resources: ['replicationcontrollers/finalizers'], verbs: ['update'] },
  // both
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'patch', 'create', 'delete'] },
  { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'update', 'patch'] },
  // deployment-controller
  { apiGroups: ['extensions', 'apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'update'] },
  { apiGroups: ['extensions', 'apps'], resources: ['deployments/status'], verbs: ['update'] },
  { apiGroups: ['extensions', 'apps'], resources: ['deployments/finalizers'], verbs: ['update'] },
  { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'update'] },
];

/** Every (group, resource, verb) a list of rules grants. */
function grants(rules: Rule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) for (const g of r.apiGroups) for (const res of r.resources) for (const v of r.verbs) out.add(`${g}|${res}|${v}`);
  return out;
}

function allowed(rules: Rule[], a: AuditEntry): Rule | undefined {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rules.find((r) => r.apiGroups.includes(groupOf[a.resource]) && r.resources.includes(resource) && r.verbs.includes(a.verb));
}

let sb: Sandbox | null = null;
afterAll(async () => sb?.close());

describe('deploy/ manifests', () => {
  it("the ClusterRole grants upstream's replicaset-, replication- and deployment-controller policy whole, finalizers included", () => {
    const granted = grants(clusterRules);
    const missing = [...grants(UPSTREAM_POLICY)].filter((g) => !granted.has(g));
    expect(missing).toEqual([]);
    for (const res of ['replicasets/finalizers', 'replicationcontrollers/finalizers', 'deployments/finalizers'])
      expect(
        [...granted].some((g) => g.endsWith(`|${res}|update`)),
        res,
      ).toBe(true);
  });

  it('the Deployment runs `run` with leader election, metrics and probes on real flags', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'));
    const runFlags = manifest.commands.run.flags;
    const c = deployment.spec.template.spec.containers[0];
    expect(c.args[0]).toBe('run');
    for (const arg of c.args.slice(1)) {
      const name = arg.replace(/^--/, '').split('=')[0];
      expect(runFlags[name] ?? Object.values(runFlags).find((f: any) => f.char === name), `flag ${arg}`).toBeTruthy();
    }
    expect(deployment.spec.replicas).toBe(2);
    expect(c.args).toContain('--leader-elect');
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(deployment.spec.template.spec.serviceAccountName).toBe(rbac.find((d) => d.kind === 'ServiceAccount').metadata.name);
  });

  it('every request the controller makes is allowed, and every grant beyond upstream is needed', async () => {
    const labels = { app: 'web' };
    const old = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    sb = await startSandbox({
      nodes: 2,
      kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 5 },
      gc: false,
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rs-reconcile' } },
        // 2 replicas, 3 pods: one orphan to adopt, one relabelled pod to release → creates and deletes
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'web', namespace: 'default', uid: 'rs-web' },
          spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
        },
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'x' }] } },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'a',
            namespace: 'default',
            labels,
            creationTimestamp: old,
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-web', controller: true }],
          },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'b',
            namespace: 'default',
            labels,
            creationTimestamp: old,
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-web', controller: true }],
          },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'relabelled',
            namespace: 'default',
            labels: { app: 'other' },
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-web', controller: true }],
          },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        },
        // a Deployment to roll out (creates, scales and the status), an orphan ReplicaSet it adopts
        // and then deletes (revisionHistoryLimit 0), one of its own relabelled to release
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'api', namespace: 'default', uid: 'deploy-api', generation: 1 },
          spec: {
            replicas: 2,
            revisionHistoryLimit: 0,
            selector: { matchLabels: { app: 'api' } },
            template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
          },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'api-old', namespace: 'default', labels: { app: 'api' }, creationTimestamp: old },
          spec: {
            replicas: 0,
            selector: { matchLabels: { app: 'api' } },
            template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'old' }] } },
          },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'api-relabelled',
            namespace: 'default',
            labels: { app: 'gone' },
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', uid: 'deploy-api', controller: true }],
          },
          spec: {
            replicas: 0,
            selector: { matchLabels: { app: 'gone' } },
            template: { metadata: { labels: { app: 'gone' } }, spec: { containers: [{ name: 'c', image: 'old' }] } },
          },
        },
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          metadata: { name: 'db', namespace: 'default' },
          spec: { replicas: 1, selector: { app: 'db' }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
        },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'rs-rbac-'));
    await sb.writeKubeconfig(join(dir, 'config'));
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const core = kc.makeApiClient(CoreV1Api);
    // a status write conflict makes the controller GET the object before retrying
    sb.faults.set({ verb: 'update', resource: 'replicasets/status', errorRate: 1, code: 409, count: 1 });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const code = await runForeground({
      connection: { kubeconfig: join(dir, 'config') },
      allNamespaces: true,
      kinds: ['ReplicaSet', 'ReplicationController'],
      deployment: true,
      workers: 2,
      burstReplicas: 500,
      qps: 1000,
      burst: 1000,
      resyncMs: 0,
      leaderElect: true,
      leaseName: 'rs-reconcile',
      leaseNamespace: 'rs-reconcile',
      leaseDurationMs: 2000,
      renewDeadlineMs: 1500,
      retryPeriodMs: 300,
      identity: 'rbac-test',
      force: false,
      logFormat: 'json',
      verbosity: 0,
      metricsBindAddress: '0',
      untilSynced: true,
      timeoutMs: 20_000,
      stream: sink,
    });
    expect(code).toBe(0);
    const pods = (await core.listNamespacedPod({ namespace: 'default' })).items;
    expect(pods.find((p) => p.metadata!.name === 'relabelled')!.metadata!.ownerReferences ?? []).toEqual([]);
    // the deployment controller rolled out, adopted, deleted and released as the scenario says
    const apps = kc.makeApiClient(AppsV1Api);
    const rss = (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
    expect(rss.find((r) => r.metadata!.name === 'api-old')).toBeUndefined();
    expect(rss.find((r) => r.metadata!.name === 'api-relabelled')!.metadata!.ownerReferences ?? []).toEqual([]);
    const api = rss.filter((r) => r.metadata!.ownerReferences?.[0]?.uid === 'deploy-api');
    expect(api.map((r) => r.status?.readyReplicas)).toEqual([2]);
    const verbs = new Set(
      sb
        .audit()
        .filter((a) => a.resource === 'replicasets' || a.resource === 'deployments')
        .map((a) => `${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''}`),
    );
    for (const v of ['create replicasets', 'patch replicasets', 'delete replicasets', 'update deployments/status', 'watch deployments'])
      expect(verbs, v).toContain(v);

    const ours = sb.audit().filter((a) => a.user === 'sandbox-admin' && a.code < 500);
    const used = new Set<Rule>();
    for (const a of ours) {
      const rules = a.resource === 'leases' ? nsRules : clusterRules;
      if (a.resource === 'leases') expect(a.namespace).toBe('rs-reconcile');
      const rule = allowed(rules, a);
      expect(rule, `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''} is not allowed by deploy/rbac.yaml`).toBeDefined();
      used.add(rule!);
    }
    // least privilege beyond upstream: each grant upstream does not make was exercised
    const upstream = grants(UPSTREAM_POLICY);
    for (const r of [...clusterRules, ...nsRules]) {
      for (const verb of r.verbs) {
        if (r.apiGroups.every((g) => r.resources.every((res) => upstream.has(`${g}|${res}|${verb}`)))) continue;
        const hit = ours.some((a) => allowed([{ ...r, verbs: [verb] }], a));
        expect(hit, `rule ${r.resources.join(',')} verb ${verb} is not upstream's and was never needed`).toBe(true);
      }
    }
  }, 60_000);
});
