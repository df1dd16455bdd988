// In a child process of its own: after abort, nothing the informers opened (sockets, timers,
// watches) keeps the process alive; and the heap that 100k cached pods take.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { namespace, pod, removeTempDirs, startEnv, type Env } from './informer-helpers.js';
import { removeChildScript, runChild, type ChildResult } from './informer-child-process.js';

const envs: Env[] = [];
afterEach(async () => {
  await Promise.all(envs.splice(0).map((e) => e.sb.close()));
  removeTempDirs();
});
afterAll(() => removeChildScript());

async function env(...args: Parameters<typeof startEnv>): Promise<Env> {
  const e = await startEnv(...args);
  envs.push(e);
  return e;
}

function report(r: ChildResult): Record<string, any> {
  expect(r.stderr).toBe('');
  expect(r.timedOut, 'the child did not exit by itself').toBe(false);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout.split('\n')[0]);
  // nothing holds the process after the abort (rather than a bound on how soon it exits)
  expect(out.leftOpen, 'timers, sockets or watches still open after the abort').toEqual([]);
  return out;
}

const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

describe('after abort the process exits by itself', () => {
  it('with three synced informers watching (and resyncing)', async () => {
    const e = await env({
      seed: [
        pod('a'),
        pod('b'),
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: 'rs', namespace: 'default' },
          spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template },
        },
      ],
    });
    const out = report(await runChild([e.kubeconfigPath, 'synced', '500'], 20_000));
    expect(out).toMatchObject({ cached: 2, adds: 2, watches: 3, lists: 3, waitForSyncAfterStop: 'resolved', errors: [] });
    expect(e.sb.audit().filter((a) => a.verb === 'watch')).toHaveLength(3);
  });

  it('while backing off from failing lists', async () => {
    const e = await env({ seed: [pod('a')] });
    e.sb.faults.set({ verb: 'list', errorRate: 1, code: 500 });
    const out = report(await runChild([e.kubeconfigPath, 'early', '400'], 20_000));
    expect(out.synced).toBe(false);
    expect(out.waitForSyncAfterStop).toBe('rejected');
    expect(out.errors.length).toBeGreaterThanOrEqual(3);
    expect(out.lists).toBe(0);
  });

  it('while waiting for the answer to a watch request', async () => {
    const e = await env({ seed: [pod('a')] });
    e.sb.faults.set({ verb: 'watch', errorRate: 0, code: 500, latencyMs: 5_000 });
    const out = report(await runChild([e.kubeconfigPath, 'early', '700'], 20_000));
    expect(out).toMatchObject({ synced: true, lists: 3, watches: 3, errors: [] });
  });
});

describe('memory', () => {
  it('holding 100k small pods (with two indexes) keeps the heap growth well under 1 GiB', async () => {
    const seed: unknown[] = Array.from({ length: 10 }, (_, i) => namespace(`ns-${i}`));
    for (let i = 0; i < 100_000; i++) {
      const rs = i % 100;
      seed.push(
        pod(`web-${rs}-${i}`, {
          namespace: `ns-${i % 10}`,
          labels: { app: `app-${rs}`, 'pod-template-hash': `h${rs}` },
          owner: { name: `web-${rs}`, uid: `00000000-0000-4000-8000-${String(rs).padStart(12, '0')}` },
          managedFields: true,
        }),
      );
    }
    const e = await env({ seed, gc: false });
    // Big pages: the sandbox serves each page in time proportional to the whole list.
    const out = report(await runChild([e.kubeconfigPath, 'synced', '10000'], 90_000, ['--expose-gc']));
    const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
    console.log(
      `informer memory: 100k pods → heap +${mib(out.heapGrowth)} MiB (${Math.round(out.heapGrowth / 100_000)} B/pod), RSS ${mib(out.rss)} MiB, synced in ${out.syncMs} ms`,
    );
    expect(out).toMatchObject({ cached: 100_000, adds: 100_000, namespaces: 10, controllers: 100, errors: [] });
    expect(out.sample.metadata.managedFields).toBeUndefined();
    expect(out.sample).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });
    expect(out.heapGrowth).toBeLessThan(400 * 2 ** 20);
    expect(out.rss).toBeLessThan(2 ** 30);
  }, 120_000);
});
