// Who scaled what, read from managedFields: `record` against the embedded API server while the
// installed kubectl scales a ReplicaSet, then `history --recording`. The sandbox writes
// managedFields as kube-apiserver does, so the recording names kubectl's scale (an entry of the
// scale subresource) and the history shows it as kubectl's.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { buildHistory } from '../../src/services/history-service.js';
import { record } from '../../src/services/record-service.js';
import { kubectlFor, type Kubectl } from '../sandbox/kubectl-runner.js';

let sb: Sandbox | null = null;
let kubectl: Kubectl | null = null;
afterAll(async () => {
  await kubectl?.close();
  await sb?.close();
});

const labels = { app: 'web' };

async function until<T>(what: string, fn: () => T | false | undefined | null, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('record, then history --recording, of a kubectl scale', () => {
  it('names kubectl as the writer of the scale, from the entry of the scale subresource', async () => {
    sb = await startSandbox({
      seed: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'web', namespace: 'default', labels },
          spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
          status: { replicas: 0 },
        },
      ],
    });
    kubectl = await kubectlFor(sb);
    const dir = mkdtempSync(join(tmpdir(), 'rs-rec-mf-'));
    const kubeconfig = join(dir, 'config');
    await sb.writeKubeconfig(kubeconfig);
    const file = join(dir, 'rec.jsonl');
    const stop = new AbortController();
    let synced!: () => void;
    const ready = new Promise<void>((r) => (synced = r));
    const recording = record(
      { connection: { kubeconfig }, namespace: 'default', allNamespaces: false, output: file },
      { signal: stop.signal, onNotice: () => undefined, onSynced: () => synced() },
    );
    await ready;

    expect((await kubectl.run('scale', 'rs', 'web', '--replicas', '4')).code).toBe(0);
    expect((await kubectl.run('label', 'rs', 'web', 'tier=front')).code).toBe(0);
    const lines = () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    await until('the label in the recording', () => lines().some((l) => l.object?.metadata?.labels?.tier === 'front'));
    stop.abort();
    await recording;

    const changes = lines().filter((l) => l.kind === 'Change' && l.resource === 'replicasets' && !l.listed);
    expect(changes.map((l) => [l.type, l.object.spec.replicas, l.manager, l.operation, l.subresource])).toEqual([
      ['MODIFIED', 4, 'kubectl', 'Update', 'scale'],
      ['MODIFIED', 4, 'kubectl-label', 'Update', null],
    ]);

    const r = await buildHistory({ auditLogs: [], recordings: [file], namespace: 'default', target: { kind: 'ReplicaSet', name: 'web' } });
    try {
      const writes = [...r.history.events].filter((e) => !e.actor.controller);
      expect(writes.map((e) => [e.actor.user, e.verb, e.message])).toEqual([
        ['kubectl', 'scale', 'kubectl scaled ReplicaSet web from 1 to 4'],
        ['kubectl-label', 'update', 'kubectl-label updated ReplicaSet web'],
      ]);
    } finally {
      r.close();
    }
  }, 60_000);
});
