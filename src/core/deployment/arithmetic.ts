// The deployment controller's arithmetic in words, for the messages of its decisions:
// "maxSurge 25% of 4 = 1 (rounded up)". Read by every message, so they all say it alike.

import type { Deployment } from '../types.js';
import { deploymentReplicas, getScaledValueFromIntOrPercent, maxSurgeValue, maxUnavailableValue, resolveFenceposts } from './util.js';

function resolved(name: string, v: number | string, total: number, roundUp: boolean): string {
  const r = getScaledValueFromIntOrPercent(v, total, roundUp);
  if (!r.ok) return `${name} ${JSON.stringify(v)} (invalid)`;
  return typeof v === 'number' ? `${name} ${v}` : `${name} ${v} of ${total} = ${r.value} (rounded ${roundUp ? 'up' : 'down'})`;
}

/** "maxSurge 25% of 4 = 1 (rounded up)". */
export function surgeWords(d: Deployment): string {
  return resolved('maxSurge', maxSurgeValue(d), deploymentReplicas(d), true);
}

/** "maxUnavailable 25% of 4 = 1 (rounded down)", or the fencepost rule when both resolve to 0. */
export function unavailableWords(d: Deployment): string {
  const replicas = deploymentReplicas(d);
  const f = resolveFenceposts(maxSurgeValue(d), maxUnavailableValue(d), replicas);
  const words = resolved('maxUnavailable', maxUnavailableValue(d), replicas, false);
  if ('error' in f || !f.bumpedUnavailable) return words;
  return `${words}, and with maxSurge also 0 maxUnavailable is taken as 1`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
