// `history --events` against the embedded API server, over real HTTPS and the real client: the
// controller (`run`) creates and deletes pods so that real Events exist, then the history is read
// from the live cluster (paginated, read-only) and from what `kubectl get events` (v1.32) prints of
// them, and both tell the same story. Then the one-line errors: an unreachable cluster, a 403
// from RBAC, and a server that never answers (the read is bounded).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/history/types.js';
import { WRITE_VERBS } from '../../src/sandbox/audit.js';
import { buildEventsHistory, type EventsHistoryOptions } from '../../src/services/events-history.js';
import type { HistoryResult } from '../../src/services/history-service.js';
import { kubeconfigFileFor, removeTempDirs } from '../cluster/helpers.js';
import { startRecordedServer, type RecordedServer } from '../cluster/recorded-server.js';
import { itUnless } from '../skips.js';
import { foregroundOptions, REAL, sandboxOnlyReason, sandboxTests, until, type SandboxEnv } from './env.js';

const NS = 'shop';
const DEPLOY_USER = 'system:serviceaccount:kube-system:deployment-controller';

function replicaSet(name: string, app: string, replicas: number, hash?: string): object {
  const labels = hash ? { app, 'pod-template-hash': hash } : { app };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: NS, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: `registry.example/${app}:1` }] } },
    },
  };
}

const waitFor = <T>(what: string, fn: () => Promise<T | false | null | undefined>) => until(what, fn, 30_000, 20);

/** The document and the events, read once, the spool closed. */
async function take(p: Promise<HistoryResult>) {
  const r = await p;
  try {
    return { ...r, events: [...r.history.events] as HistoryEvent[], document: { ...r.history, events: [...r.history.events] } };
  } finally {
    r.close();
  }
}

afterAll(() => removeTempDirs());

describe('history --events on a live cluster', () => {
  // one sandbox for the whole describe: its Events are made once, then only read
  const t = sandboxTests('rs-history-events-', { per: 'suite' });
  // the audit log proves the read is read-only; the simulated kubelet turns the pods that make the Events ready
  const withEvents = itUnless(sandboxOnlyReason('the audit log and the simulated kubelet'));
  let env: SandboxEnv;
  let kubeconfig: string;
  let dir: string;
  let created: string[] = [];
  let deleted: string[] = [];

  /** The controller (`run`) in the foreground until it has synced every controller of the namespace. */
  async function runController(): Promise<void> {
    const r = t.run(
      foregroundOptions(kubeconfig, { namespace: NS, kinds: ['ReplicaSet'], identity: 'history-events', force: true, untilSynced: true, timeoutMs: 60_000 }),
    );
    expect(await r.done, r.logs.join('')).toBe(0);
  }

  beforeAll(async () => {
    // a kubelet: `run --until-synced` waits for the pods it creates to turn ready, and deleted pods to go
    env = await t.start({
      gc: false,
      nodes: 1,
      seed: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, replicaSet('web-7d9c5', 'web', 12, '7d9c5'), replicaSet('api', 'api', 1)],
    });
    ({ kubeconfig, dir } = env);
    if (REAL) return; // no Events made: only the tests that need none run
    const { core, apps } = env;
    const listed = async () => (await core.listNamespacedEvent({ namespace: NS })).items;
    /** The pods the Events of `verb` name, and how many writes they count (a combined Event counts several). */
    const named = async (verb: 'Created' | 'Deleted') => {
      const re = new RegExp(`^(?:\\(combined from similar events\\): )?${verb} pod: (\\S+)$`);
      const mine = (await listed()).map((e) => ({ m: re.exec(e.message ?? ''), count: e.count ?? 1 })).filter((x) => x.m);
      return { pods: mine.map((x) => x.m![1]), writes: mine.reduce((n, x) => n + x.count, 0) };
    };

    // 12 pods for web-7d9c5 (10 Events: the 10th combines the last 3), 1 for api
    await runController();
    created = (await waitFor('13 creates in the Events', async () => ((await named('Created')).writes === 13 ? named('Created') : null))).pods;

    // the deployment controller scales web-7d9c5 down (its Event as it writes it), and the controller deletes 11
    const now = new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    // biome-ignore lint/plugin/double-assertion: client-node types the field Date; the test sends the second-precision string the deployment controller writes
    const stamp = now as unknown as Date;
    await core.createNamespacedEvent({
      namespace: NS,
      body: {
        metadata: { name: `web.${Date.now().toString(16)}`, namespace: NS },
        involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: NS, uid: 'deploy-uid' },
        reason: 'ScalingReplicaSet',
        message: 'Scaled down replica set web-7d9c5 from 12 to 1',
        type: 'Normal',
        count: 1,
        firstTimestamp: stamp,
        lastTimestamp: stamp,
        source: { component: 'deployment-controller' },
        reportingComponent: 'deployment-controller',
        reportingInstance: '',
      },
    });
    await apps.patchNamespacedReplicaSet({ namespace: NS, name: 'web-7d9c5', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await runController();
    deleted = (await waitFor('11 deletes in the Events', async () => ((await named('Deleted')).writes === 11 ? named('Deleted') : null))).pods;
    // the kubelet has removed the deleted pods: nothing writes while the tests read
    await waitFor('the deleted pods gone', async () => ((await core.listNamespacedPod({ namespace: NS })).items.length === 2 ? true : null));
  }, 180_000);

  withEvents('tells the controller’s creates and deletes, the scale that caused the deletes, in time order, reading only', async () => {
    env.sandbox.clearAudit();
    const live = await take(buildEventsHistory({ connection: { kubeconfig }, namespace: NS, pageSize: 2 }));
    // read-only, and paginated: several list requests of 2 Events
    const audit = env.sandbox.audit();
    expect(audit.filter((a) => WRITE_VERBS.has(a.verb))).toEqual([]);
    expect(audit.filter((a) => a.resource === 'events' && a.verb === 'list').length).toBeGreaterThanOrEqual(4);

    expect(live.document).toMatchObject({
      apiVersion: 'rs-reconcile/v1alpha1',
      kind: 'ReconcileHistory',
      source: 'recording',
      kubernetesVersion: '1.32',
      coverage: { format: 'events', truncated: 0, duplicates: 0 },
    });
    const e = live.events;
    const creates = e.filter((x) => x.verb === 'create');
    const deletes = e.filter((x) => x.verb === 'delete');
    expect(e.filter((x) => x.verb === 'scale')).toHaveLength(1);
    expect(creates.map((x) => x.pod).sort()).toEqual([...created].sort());
    expect(deletes.map((x) => x.pod).sort()).toEqual([...deleted].sort());
    expect([creates.length, deletes.length]).toEqual([11, 10]);
    // the Events the recorder combined: N writes at the last one's time, only the last pod named
    expect(creates.filter((x) => /^created pods 3 times (at|between) /.test(x.message))).toHaveLength(1);
    expect(deletes.filter((x) => /^deleted pods 2 times (at|between) /.test(x.message))).toHaveLength(1);
    for (const x of [...creates, ...deletes]) {
      expect(x).toMatchObject({ actor: { user: 'rs-reconcile', controller: true }, predicted: null });
      expect(x.message).toContain('Events name the pods a controller created or deleted, not the state it decided on');
    }
    const scale = e.find((x) => x.verb === 'scale')!;
    expect(scale).toMatchObject({ actor: { user: DEPLOY_USER, controller: false }, controller: { kind: 'ReplicaSet', namespace: NS, name: 'web-7d9c5' } });
    // the scale comes before the deletes it caused (all 11 of them), each of which names it
    const at = (x: HistoryEvent) => e.indexOf(x);
    for (const d of deletes) {
      expect(at(d)).toBeGreaterThan(at(scale));
      expect(d.cause).toEqual([
        {
          time: scale.time,
          user: DEPLOY_USER,
          verb: 'scale',
          object: { kind: 'ReplicaSet', namespace: NS, name: 'web-7d9c5' },
          field: 'spec.replicas',
          change: '12 → 1',
        },
      ]);
    }
    const ms = e.map((x) => Date.parse(x.time));
    expect(ms).toEqual([...ms].sort((a, b) => a - b));
    expect(live.counts).toEqual({ events: 22, controller: 21, predicted: 0, notPredicted: 0, unknown: 21 });
  });

  withEvents('the same history from `kubectl get events -o json`, -o yaml, gzip, and the whole cluster (-A) read in one page', async () => {
    const live = await take(buildEventsHistory({ connection: { kubeconfig }, namespace: NS }));
    const json = join(dir, 'events.json');
    writeFileSync(json, await env.kubectl('get', 'events', '-n', NS, '-o', 'json'));
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    const yaml = join(dir, 'events.yaml');
    writeFileSync(yaml, await env.kubectl('get', 'events', '-n', NS, '-o', 'yaml'));
    const gz = join(dir, 'events.json.gz');
    writeFileSync(gz, gzipSync(readFileSync(json)));
    for (const f of [json, yaml, gz]) {
      const fromFile = await take(buildEventsHistory({ files: [f], kubeVersion: '1.32' }));
      expect(fromFile.document, f).toEqual(live.document);
    }
    const all = await take(buildEventsHistory({ connection: { kubeconfig }, allNamespaces: true, pageSize: 0 }));
    expect(all.document).toEqual(live.document);
  });

  withEvents('targets: deploy/NAME (its ReplicaSets), rs/NAME, pod/NAME, from the cluster as from the file', async () => {
    const json = join(dir, 'targets.json');
    writeFileSync(json, await env.kubectl('get', 'events', '-n', NS, '-o', 'json'));
    const both = async (o: Partial<EventsHistoryOptions>) => {
      const live = await take(buildEventsHistory({ connection: { kubeconfig }, namespace: NS, ...o }));
      const file = await take(buildEventsHistory({ files: [json], kubeVersion: '1.32', ...o }));
      expect(file.document).toEqual(live.document);
      return live;
    };
    const deploy = await both({ target: { kind: 'Deployment', name: 'web' } });
    expect(deploy.events.map((x) => x.controller?.name)).toEqual(Array(21).fill('web-7d9c5'));
    const api = await both({ target: { kind: 'ReplicaSet', name: 'api' } });
    expect(api.events.map((x) => `${x.verb} ${x.pod}`)).toEqual([`create ${created.find((p) => p.startsWith('api-'))}`]);
    // a pod whose create and delete both have an Event naming it
    const pod = await both({ target: { kind: 'Pod', name: deleted.find((p) => created.includes(p))! } });
    expect(pod.events.map((x) => x.verb)).toEqual(['create', 'delete']);
    expect(pod.targetNamespace).toBe(NS);
    await expect(buildEventsHistory({ connection: { kubeconfig }, namespace: NS, target: { kind: 'ReplicaSet', name: 'nope' } })).rejects.toThrow(
      "ReplicaSet nope has no write in the cluster's Events in namespace shop: Events are kept about an hour",
    );
  });

  it('a namespace without Events is no error: the notice says why', async () => {
    const r = await take(buildEventsHistory({ connection: { kubeconfig }, namespace: 'default' }));
    expect(r.events).toEqual([]);
    expect(r.notices.join('\n')).toContain(
      "no Event of the ReplicaSet, ReplicationController or Deployment controllers in namespace default in the cluster's Events",
    );
  });
});

describe('history --events: one-line errors', () => {
  // a sandbox started and closed: its address answers no more
  const gone = sandboxTests('rs-history-gone-');
  let server: RecordedServer | null = null;
  afterAll(async () => server?.close());

  it('an unreachable cluster', async () => {
    const { kubeconfig: config } = await gone.start({ gc: false });
    await gone.close();
    await expect(buildEventsHistory({ connection: { kubeconfig: config }, namespace: NS })).rejects.toThrow(
      /^cannot reach the cluster at https:\/\/127\.0\.0\.1:\d+: /,
    );
  });

  it('403 from RBAC names the verb, the resource and the namespace', async () => {
    const message = 'events is forbidden: User "jane" cannot list resource "events" in API group "" in the namespace "shop"';
    server = await startRecordedServer({
      failures: [
        {
          match: (r) => r.path === '/api/v1/namespaces/shop/events',
          status: 403,
          body: JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message,
            reason: 'Forbidden',
            details: { kind: 'events' },
            code: 403,
          }),
          headers: { 'Content-Type': 'application/json' },
        },
      ],
    });
    const config = kubeconfigFileFor(server, { namespace: NS });
    const err = await buildEventsHistory({ connection: { kubeconfig: config } }).catch((e: Error) => e);
    expect((err as Error).message).toBe('forbidden: User "jane" cannot list resource "events" in API group "" in the namespace "shop"');
    expect((err as Error).message).not.toContain('\n');
  });

  it('a server that never answers: the read is given up after its time bound', async () => {
    const hung = await startRecordedServer({ hang: true });
    try {
      const config = kubeconfigFileFor(hung, { namespace: NS });
      await expect(buildEventsHistory({ connection: { kubeconfig: config }, timeoutMs: 300 })).rejects.toThrow(
        /^timed out after 300ms reading the Events of the cluster at https:\/\/127\.0\.0\.1:\d+$/,
      );
    } finally {
      await hung.close();
    }
  });
});
