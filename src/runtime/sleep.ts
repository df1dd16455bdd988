// The one wait of the runtime and its adapters: Node's own timers/promises, which clears its timer
// when the signal aborts.
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves true after `ms`, or false as soon as `signal` aborts; never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return delay(ms, true, { signal }).catch(() => false);
}
