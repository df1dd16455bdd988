// The deployment controller's writes judged end to end: `run --controllers replicaset,deployment`
// on the sandbox rolls out `kubectl create deployment` and then `kubectl set image` (the real
// kubectl, the real client-node, real HTTPS); the sandbox's audit log, read back as
// `history deploy/web`, gives every write of a ReplicaSet by the deployment controller a verdict
// of its rules, predicted, with the arithmetic of the decision and a cause. Every wait polls for
// a condition with a generous deadline, never a fixed sleep.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/history/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { buildHistory } from '../../src/services/history-service.js';
import { runForeground } from '../../src/services/run-foreground.js';
import { foregroundOptions } from '../integration/env.js';
import { waitFor } from '../sandbox/helpers.js';

const exec = promisify(execFile);
let sb: Sandbox | null = null;
let dir = '';
const stop = new AbortController();
let running: Promise<number> | null = null;

afterAll(async () => {
  stop.abort();
  await running?.catch(() => undefined);
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The times of the writes of ReplicaSets that rs-reconcile's deployment controller sent and the server accepted, from the audit log itself. */
function deploymentControllerWrites(auditFile: string): string[] {
  return readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .filter(
      (e) =>
        e.stage === 'ResponseComplete' &&
        / deployment-controller\//.test(e.userAgent ?? '') &&
        e.objectRef?.resource === 'replicasets' &&
        e.objectRef?.subresource === undefined &&
        e.responseStatus?.code < 300,
    )
    .map((e) => e.requestReceivedTimestamp as string);
}

describe('history of a rollout by run --controllers replicaset,deployment', () => {
  let events: HistoryEvent[] = [];
  let auditFile = '';

  it('rolls out kubectl create deployment and kubectl set image, then reads the audit log back as history deploy/web', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rs-history-dc-'));
    auditFile = join(dir, 'audit.jsonl');
    sb = await startSandbox({ nodes: 2, auditLog: auditFile, kubelet: { scheduleDelayMs: 5, runDelayMs: 5, readyDelayMs: 10 } });
    const kubeconfig = join(dir, 'config');
    await sb.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const apps = kc.makeApiClient(AppsV1Api);
    const kubectl = async (...args: string[]) => (await exec('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 })).stdout;
    running = runForeground({
      ...foregroundOptions(kubeconfig, { namespace: 'default', qps: 1000, burst: 1000, deployment: true }),
      signal: stop.signal,
      stream: new Writable({ write: (_c, _e, cb) => cb() }),
    });
    const complete = (image: string) =>
      waitFor(
        async () => {
          const d = await apps.readNamespacedDeployment({ namespace: 'default', name: 'web' });
          const s = d.status;
          const rss = (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
          const others = rss.filter((rs) => rs.spec?.template?.spec?.containers[0].image !== image);
          return (
            s?.updatedReplicas === 4 &&
            s.availableReplicas === 4 &&
            s.replicas === 4 &&
            s.observedGeneration === d.metadata!.generation &&
            others.every((rs) => rs.spec?.replicas === 0 && (rs.status?.replicas ?? 0) === 0)
          );
        },
        `Deployment web rolled out to ${image}`,
        90_000,
      );
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=4');
    await complete('nginx:1.27');
    await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:1.28');
    await complete('nginx:1.28');
    stop.abort();
    expect(await running).toBe(0);
    running = null;
    await sb.close();
    sb = null;
    const r = await buildHistory({ auditLogs: [auditFile], namespace: 'default', target: { kind: 'Deployment', name: 'web' } });
    events = [...r.history.events];
    r.close();
  }, 240_000);

  it("predicts every write of a ReplicaSet by the deployment controller, with the decision's arithmetic", () => {
    const times = new Set(deploymentControllerWrites(auditFile));
    // the first ReplicaSet created, the second created, and the two scaled in turn
    expect(times.size).toBeGreaterThanOrEqual(4);
    const dc = events.filter((e) => e.verb !== 'status' && e.controller?.kind === 'ReplicaSet' && times.has(e.time) && !e.actor.controller);
    expect(dc.length).toBe(times.size);
    expect(dc.filter((e) => e.predicted !== true).map((e) => `${e.time} ${e.verb} ${e.controller?.name}: ${e.message}`)).toEqual([]);
    expect(dc.filter((e) => e.verb === 'create').map((e) => e.message)).toEqual([
      expect.stringContaining('created with 4 by the rolling sync of Deployment web'),
      expect.stringContaining('created with 1 by the rolling sync of Deployment web'),
    ]);
    expect(dc.some((e) => /scaled \d → \d by the rolling sync of Deployment web: .*maxUnavailable 25% of 4 = 1 \(rounded down\)/.test(e.message))).toBe(true);
    expect(dc.some((e) => /scaled \d → \d by the rolling sync of Deployment web: .*maxSurge 25% of 4 = 1 \(rounded up\)/.test(e.message))).toBe(true);
  });

  it("gives the deployment controller's writes their cause: the image change, or a pod turning ready", () => {
    const times = new Set(deploymentControllerWrites(auditFile));
    const dc = events.filter((e) => e.controller?.kind === 'ReplicaSet' && times.has(e.time) && !e.actor.controller);
    const second = dc.filter((e) => e.verb === 'create')[1];
    expect(second.cause).toMatchObject([{ object: { kind: 'Deployment', name: 'web' }, field: 'spec.template', change: 'image nginx:1.27 → nginx:1.28' }]);
    const later = dc.filter((e) => Date.parse(e.time) > Date.parse(second.time));
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.cause?.at(-1)?.object.kind === 'Deployment' || e.cause?.[0]?.field === 'a Ready condition').toBe(true);
    // a pod's first report (not ready yet) lets nothing go on: only turning ready, or ready no more
    for (const e of later) if (e.cause?.[0]?.field === 'a Ready condition') expect(e.cause[0].change).toMatch(/True/);
    expect(later.some((e) => e.cause?.[0]?.field === 'a Ready condition' && /→ True$/.test(e.cause[0].change))).toBe(true);
  });
});
