// processNextWorkItem, as every client-go controller runs it: take a key, sync it, Forget on
// success, a rate-limited requeue on error. What must stay true: a fenced write (the lease is
// lost) is no error to retry: the key is forgotten and the worker stops taking work, since whoever
// leads now syncs it; once stopping, a key taken is handed back undone.

import { isFenced } from './api.js';
import type { WorkQueue } from './workqueue.js';

/** What a controller's workers share: the keys being synced, and whether to take no more. */
export interface WorkerState {
  inFlight: number;
  stopping: boolean;
}

/** One worker until the queue shuts down or the state says stop. */
export async function runWorker(
  queue: WorkQueue<string>,
  state: WorkerState,
  syncKey: (key: string) => Promise<Error | null>,
  onError: (key: string, err: Error) => void,
): Promise<void> {
  for (;;) {
    const next = await queue.get();
    if (next.shutdown) return;
    const key = next.item;
    if (state.stopping) {
      // shutting down: take no new work (the key is synced again by whoever runs next)
      queue.done(key);
      return;
    }
    state.inFlight++;
    try {
      const err = await syncKey(key);
      if (err === null) queue.forget(key);
      else if (isFenced(err)) {
        // No longer leading: the write was refused, not failed. Nothing is retried here (whoever
        // leads now syncs the key) and nothing is logged per key: the lost lease is logged once.
        queue.forget(key);
        state.stopping = true;
      } else {
        onError(key, err);
        queue.addRateLimited(key);
      }
    } finally {
      state.inFlight--;
      queue.done(key);
    }
  }
}
