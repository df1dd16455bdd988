// A deposed leader writes nothing: two `run --leader-elect` processes (the built CLI) on the
// sandbox; the leader is frozen with SIGSTOP in the middle of a slow scale-up (a long GC pause, a
// frozen VM), the standby takes the lease over and the ReplicaSet is scaled down; then the old
// leader is resumed with SIGCONT. From that moment the sandbox's audit log must show no write
// from it (its requests carry its lease identity in the User-Agent), and it must exit with
// kube-controller-manager's status for a lost lease (1).
//
// Every wait polls the audit log or the process output with a generous timeout: the outcome
// does not depend on how fast the machine is.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { AuditEntry } from '../../src/sandbox/audit.js';
import { WRITE_VERBS } from '../../src/sandbox/audit.js';
import { ensureBuilt, ROOT, RUN_JS } from '../e2e/cli.js';

beforeAll(() => ensureBuilt(), 180_000);

interface Instance {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  stderr: string[];
  exit: Promise<number | null>;
}

let sb: Sandbox | null = null;
let dir: string | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGCONT');
      c.kill('SIGKILL');
    }
  }
  await sb?.close();
  sb = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function start(kubeconfig: string): Instance {
  const child = spawn(
    process.execPath,
    [
      RUN_JS,
      'run',
      '--kubeconfig',
      kubeconfig,
      '-n',
      'default',
      '--controllers',
      'replicaset',
      '--leader-elect',
      // Short durations, so that the test takes seconds; renew deadline > 1.2 × retry period.
      '--leader-elect-lease-duration',
      '3s',
      '--leader-elect-renew-deadline',
      '2s',
      '--leader-elect-retry-period',
      '400ms',
      // A slow client: every create waits for a token, so a scale-up is still under way when the
      // leader is frozen, with creates queued behind the rate limiter.
      '--kube-api-qps',
      '3',
      '--kube-api-burst',
      '1',
      '--log-format',
      'json',
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  children.push(child);
  const inst: Instance = { child, lines: [], stderr: [], exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  let rest = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      inst.stderr.push(line);
      try {
        inst.lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        /* not a log line */
      }
    }
  });
  return inst;
}

async function until<T>(what: string, fn: () => T | false | null | undefined | Promise<T | false | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const identityOf = (inst: Instance): string | undefined => inst.lines.find((l) => l.msg === 'Became the leader')?.identity as string | undefined;
const writesBy = (entries: AuditEntry[], identity: string) => entries.filter((e) => WRITE_VERBS.has(e.verb) && (e.userAgent ?? '').includes(identity));
const podCreates = (entries: AuditEntry[]) => entries.filter((e) => e.verb === 'create' && e.resource === 'pods' && !e.subresource && e.code === 201);

describe('a leader frozen past its lease', () => {
  it('writes nothing once resumed after a standby took over, and exits 1', async () => {
    const labels = { app: 'web' };
    sb = await startSandbox({
      seed: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'web', namespace: 'default', labels },
          spec: {
            replicas: 30,
            selector: { matchLabels: labels },
            template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/web:1' }] } },
          },
        },
      ],
    });
    dir = mkdtempSync(join(tmpdir(), 'rs-fence-'));
    const kubeconfig = join(dir, 'config');
    await sb.writeKubeconfig(kubeconfig);
    const kc = new KubeConfig();
    kc.loadFromString(sb.kubeconfig());
    const apps = kc.makeApiClient(AppsV1Api);

    const a = start(kubeconfig);
    const idA = await until('the first instance to lead', () => identityOf(a));
    // Mid scale-up: a few pods created by the leader, many still to come.
    await until('the leader to create 3 pods', () => podCreates(writesBy(sb!.audit(), idA)).length >= 3);
    const b = start(kubeconfig);
    await until('the standby to see the leader', () => b.lines.some((l) => l.msg === 'Another instance leads'));

    a.child.kill('SIGSTOP');
    const createdByA = podCreates(writesBy(sb.audit(), idA)).length;
    expect(createdByA).toBeLessThan(30); // frozen with creates still to send

    // Scaled down while the leader is frozen; the standby takes over and deletes the surplus.
    await apps.patchNamespacedReplicaSetScale(
      { namespace: 'default', name: 'web', body: { spec: { replicas: 2 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const idB = await until('the standby to take the lease over', () => identityOf(b), 60_000);
    expect(idB).not.toBe(idA);
    await until(
      'the new leader to scale down to 2',
      async () => (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status?.replicas === 2,
      60_000,
    );

    const mark = sb.audit().length;
    a.child.kill('SIGCONT');
    const code = await Promise.race([a.exit, new Promise<string>((r) => setTimeout(() => r('still running'), 60_000))]);
    expect(code).toBe(1);

    const after = sb.audit().slice(mark);
    expect(writesBy(after, idA)).toEqual([]);
    // One line about the lost lease; no per-pod failures for the refused writes.
    const errors = a.lines.filter((l) => l.level === 'error').map((l) => String(l.msg));
    expect(errors.filter((m) => m === 'Leader election lost: stopping at once')).toHaveLength(1);
    expect(errors.filter((m) => / failed$|^error syncing/.test(m))).toEqual([]);

    // The new leader keeps the ReplicaSet at 2: nothing for it to clean up after the old one.
    await new Promise((r) => setTimeout(r, 300));
    const live = (await apps.readNamespacedReplicaSet({ namespace: 'default', name: 'web' })).status?.replicas;
    expect(live).toBe(2);
    expect(writesBy(after, idB).filter((e) => e.resource === 'pods' && e.verb === 'delete')).toEqual([]);
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
  }, 180_000);
});
