// processNextWorkItem (src/runtime/worker.ts): Forget on success, a rate-limited requeue on error,
// and a fenced write that stops the worker without a retry; on a fake clock, no sleeps.
import { describe, expect, it } from 'vitest';
import { FencedError } from '../../src/runtime/api.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { runWorker, type WorkerState } from '../../src/runtime/worker.js';
import { WorkQueue } from '../../src/runtime/workqueue.js';

describe('runWorker', () => {
  it('forgets a key that synced, requeues a failed one rate-limited, and reports the error', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock(1_000_000) });
    const state: WorkerState = { inFlight: 0, stopping: false };
    const errors: string[] = [];
    const synced: string[] = [];
    q.add('ns/ok');
    q.add('ns/bad');
    const worker = runWorker(
      q,
      state,
      async (key) => {
        synced.push(key);
        if (key === 'ns/bad' && synced.length === 2) {
          q.shutDown();
          return new Error('boom');
        }
        return null;
      },
      (key, err) => errors.push(`${key}: ${err.message}`),
    );
    await worker;
    expect(synced).toEqual(['ns/ok', 'ns/bad']);
    expect(errors).toEqual(['ns/bad: boom']);
    expect(q.numRequeues('ns/ok')).toBe(0);
    expect(q.numRequeues('ns/bad')).toBe(1);
    expect(state.inFlight).toBe(0);
  });

  it('a fenced write is no error: the key is forgotten, nothing is reported, the worker stops taking work', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock(1_000_000) });
    const state: WorkerState = { inFlight: 0, stopping: false };
    const errors: string[] = [];
    const synced: string[] = [];
    q.add('ns/a');
    q.add('ns/b');
    await runWorker(
      q,
      state,
      async (key) => {
        synced.push(key);
        return new FencedError('lease lost');
      },
      (key) => errors.push(key),
    );
    expect(synced).toEqual(['ns/a']);
    expect(errors).toEqual([]);
    expect(state.stopping).toBe(true);
    expect(q.numRequeues('ns/a')).toBe(0);
  });
});
