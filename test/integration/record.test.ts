// `record` against the embedded API server while `run` (in-process) and a user change things, then
// `history --recording` explains them: the controller's creates and deletes are named by its own
// Events ("Created pod: X", "Deleted pod: X") and predicted by the rules; the user's delete is not
// the controller's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../src/services/history-service.js';
import { record } from '../../src/services/record-service.js';
import { prepareWatch } from '../../src/services/watch/prepare.js';
import { newsEntry } from '../../src/ui/news.js';
import { foregroundOptions, sandboxTests, until as untilIn } from './env.js';

/** The history with its events read back from disk (and the file removed). */
async function collected(opts: Parameters<typeof buildHistory>[0]) {
  const r = await buildHistory(opts);
  try {
    return { ...r.history, events: [...r.history.events] };
  } finally {
    r.close();
  }
}

const t = sandboxTests('rs-rec-');

const labels = { app: 'web' };
const rs = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'default', labels },
  spec: {
    replicas,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1' }] } },
  },
});

const until = <T>(what: string, fn: () => Promise<T | false | undefined | null>, ms = 15_000) => untilIn(what, fn, ms, 50);

/** The sandbox with its simulated scheduler and kubelet, a kubeconfig file for it, and clients. */
const sandbox = (seed: object[]) => t.start({ nodes: 2, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 }, seed });

describe('record on the sandbox, then history --recording', () => {
  it("explains the creates, the scale-down deletes and a replacement, each predicted; a user delete stays the user's", async () => {
    const { dir, kubeconfig, core, apps } = await sandbox([]);
    const livePods = async () => (await core.listNamespacedPod({ namespace: 'default' })).items.filter((p) => !p.metadata!.deletionTimestamp);

    const file = join(dir, 'rec.jsonl');
    const recStop = t.stopper(() => recording);
    let synced!: () => void;
    const ready = new Promise<void>((r) => (synced = r));
    const notices: string[] = [];
    const recording = record(
      { connection: { kubeconfig }, namespace: 'default', allNamespaces: false, output: file },
      { signal: recStop.signal, onNotice: (n) => notices.push(n), onSynced: () => synced() },
    );
    await ready;

    const { stop: runStop, done: running } = t.run(foregroundOptions(kubeconfig, { namespace: 'default', qps: 1000, burst: 1000 }));

    await apps.createNamespacedReplicaSet({ namespace: 'default', body: rs(3) });
    await until('3 pods', async () => (await livePods()).length === 3);
    // Deletion costs make the scale-down's choice one the rules can predict (equal pods tie: upstream picks any).
    const pods = await livePods();
    for (const [i, p] of pods.entries()) {
      await core.patchNamespacedPod(
        { namespace: 'default', name: p.metadata!.name!, body: { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(i) } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    }
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'default', name: 'web', body: { spec: { replicas: 1 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('scaled to 1', async () => (await livePods()).length === 1);
    const victim = (await livePods())[0].metadata!.name!;
    await core.deleteNamespacedPod({ namespace: 'default', name: victim });
    await until('replaced', async () => {
      const pods = await livePods();
      return pods.length === 1 && pods[0].metadata!.name !== victim;
    });
    // The controller's Events are sent after its writes: wait until the recording has the last one.
    await until("the replacement's Event recorded", async () => (readFileSync(file, 'utf8').match(/SuccessfulCreate/g) ?? []).length >= 4);
    runStop.abort();
    expect(await running).toBe(0);
    recStop.abort();
    const result = await recording;
    expect(result.stopped).toBe('signal');
    expect(notices).toEqual([]);

    // Every line is one JSON object; the first is the header; nothing but our scope is in it.
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ apiVersion: 'rs-reconcile/v1alpha1', kind: 'Recording', version: 1, namespace: 'default' });
    expect(lines.slice(1).every((l) => l.kind === 'Change' && (l.object.metadata.namespace ?? 'default') === 'default')).toBe(true);
    expect(lines.filter((l) => l.resource === 'events').every((l) => l.object.reportingComponent === 'rs-reconcile')).toBe(true);

    const history = await collected({ auditLogs: [], recordings: [file], namespace: 'default', target: { kind: 'ReplicaSet', name: 'web' } });
    expect(history.source).toBe('recording');
    const ours = history.events.filter((e) => e.actor.controller);
    const creates = ours.filter((e) => e.verb === 'create');
    const deletes = ours.filter((e) => e.verb === 'delete');
    expect(creates).toHaveLength(4);
    expect(deletes).toHaveLength(2);
    for (const e of [...creates, ...deletes]) expect(e, e.message).toMatchObject({ actor: { user: 'rs-reconcile', controller: true }, predicted: true });
    expect(creates.every((e) => e.reason === 'TooFewReplicas')).toBe(true);
    expect(deletes.every((e) => e.reason !== null)).toBe(true);
    // The user's delete: no Event names it, so it is nobody's guess, and not the controller's.
    const userDelete = history.events.find((e) => e.verb === 'delete' && e.pod === victim)!;
    expect(userDelete).toMatchObject({ actor: { user: '<unknown user>', controller: false }, predicted: null });
    // In time order: the replacement comes after the user's delete.
    expect(history.events.indexOf(creates.at(-1)!)).toBeGreaterThan(history.events.indexOf(userDelete));
  }, 60_000);

  it("watch --record writes the same lines from the session's own informers, flushed when it stops", async () => {
    const { dir, kubeconfig, apps } = await sandbox([{ ...rs(1), status: { replicas: 0 } }]);
    const file = join(dir, 'watch.jsonl');
    const feed = await prepareWatch(
      { source: { namespace: 'default', allNamespaces: false, targets: [], connection: { kubeconfig } }, model: { kubeVersion: '1.32' }, record: file },
      { progress: { update() {}, done() {} } },
    );
    const stop = t.stopper(() => feed.stopped());
    const logs: string[] = [];
    await feed.start(
      {
        frame: () => {},
        log: (e) => logs.push(e.text),
        news: (at, n) => {
          const e = newsEntry(at, n);
          if (e) logs.push(e.text);
        },
      },
      stop.signal,
    );
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'default', name: 'web', body: { spec: { replicas: 4 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await until('the scale in the log pane', async () => logs.some((l) => /scaled 1→4/.test(l)));
    stop.abort();
    await feed.stopped();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ kind: 'Recording', version: 1, namespace: 'default' });
    expect(lines[1]).toMatchObject({ kind: 'Change', type: 'ADDED', resource: 'replicasets', listed: true, object: { metadata: { name: 'web' } } });
    expect(lines.find((l) => l.type === 'MODIFIED' && l.resource === 'replicasets')).toMatchObject({ listed: false, object: { spec: { replicas: 4 } } });
    const history = await collected({ auditLogs: [], recordings: [file] });
    // client-node sends node-fetch's User-Agent: the API server names the scale's writer by its first segment
    expect(history.events.map((e) => e.message)).toEqual(['node-fetch scaled ReplicaSet web from 1 to 4']);
    await expect(
      prepareWatch(
        {
          source: { namespace: 'default', allNamespaces: false, targets: [], connection: { kubeconfig } },
          model: { kubeVersion: '1.32' },
          record: join(dir, 'no/such/dir/x.jsonl'),
        },
        { progress: { update() {}, done() {} } },
      ),
    ).rejects.toThrow(/^cannot write recording .*x\.jsonl: no such directory$/);
  }, 30_000);

  it("watch --reconcile --record: the recording lists and watches on its own; history predicts the controller's creates", async () => {
    const { dir, kubeconfig, core } = await sandbox([{ ...rs(2), status: { replicas: 0 } }]);
    const file = join(dir, 'reconcile.jsonl.gz');
    const feed = await prepareWatch(
      {
        source: { namespace: 'default', allNamespaces: false, targets: [], connection: { kubeconfig } },
        model: { kubeVersion: '1.32' },
        record: file,
        reconcile: { workers: 2, qps: 1000, burst: 1000, force: false },
      },
      { progress: { update() {}, done() {} } },
    );
    const stop = t.stopper(() => feed.stopped());
    const rows: string[] = [];
    await feed.start({ frame: () => {}, log: () => {}, news: () => {}, history: (k, r) => rows.push(`${k} ${r.who} ${r.verb} ${r.predicted}`) }, stop.signal);
    await until('2 pods', async () => (await core.listNamespacedPod({ namespace: 'default' })).items.length === 2);
    // the controller's Events name its creates: the live history pane gets them predicted
    await until('the history pane rows', async () => rows.filter((r) => r === 'ReplicaSet/default/web rs-reconcile create true').length === 2);
    stop.abort();
    await feed.stopped();
    const history = await collected({ auditLogs: [], recordings: [file] });
    expect(history.events.filter((e) => e.verb === 'create' && e.pod !== null).map((e) => [e.actor.user, e.predicted, e.reason])).toEqual([
      ['rs-reconcile', true, 'TooFewReplicas'],
      ['rs-reconcile', true, 'TooFewReplicas'],
    ]);
  }, 30_000);
});
