// Fault injection: per verb/resource/namespace error rates (500, 429 with Retry-After, 409),
// added latency, all drawn from a seeded generator so a run can be replayed.
import { type ApiError, conflict, internalError, tooManyRequests } from './errors.js';
import type { AuditVerb } from './audit.js';
import { prng } from './util.js';

export interface FaultRule {
  /** Audit verb to match (get, list, watch, create, update, patch, delete, deletecollection); any when absent. */
  verb?: string;
  /** Resource to match: `pods` matches every pods request, `pods/status` only the subresource. */
  resource?: string;
  namespace?: string;
  /** Share of matching requests that fail, 0..1. */
  errorRate: number;
  code: 500 | 429 | 409;
  retryAfterSeconds?: number;
  /** Delay added to every matching request. */
  latencyMs?: number;
  /** The rule is removed after it fired this many times. */
  count?: number;
}

export interface FaultRequest {
  verb: AuditVerb;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  group: string;
}

export interface FaultDecision {
  latencyMs: number;
  error?: ApiError;
  ruleId?: string;
}

interface Active extends FaultRule {
  id: string;
  fired: number;
}

export function validateFaultRule(r: unknown): FaultRule {
  const o = (r ?? {}) as Record<string, unknown>;
  const rate = o.errorRate;
  if (typeof rate !== 'number' || rate < 0 || rate > 1) throw new Error('errorRate must be a number between 0 and 1');
  if (o.code !== 500 && o.code !== 429 && o.code !== 409) throw new Error('code must be 500, 429 or 409');
  for (const k of ['retryAfterSeconds', 'latencyMs', 'count'] as const) {
    if (o[k] !== undefined && (typeof o[k] !== 'number' || (o[k] as number) < 0)) throw new Error(`${k} must be a non-negative number`);
  }
  for (const k of ['verb', 'resource', 'namespace'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'string') throw new Error(`${k} must be a string`);
  }
  // biome-ignore lint/plugin/double-assertion: every field of FaultRule was checked above
  return o as unknown as FaultRule;
}

export class Faults {
  private rules: Active[] = [];
  private next = 1;
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = prng(seed);
  }

  set(rule: FaultRule): string {
    const r = validateFaultRule(rule);
    const id = `fault-${this.next++}`;
    this.rules.push({ ...r, id, fired: 0 });
    return id;
  }

  clear(id?: string): void {
    this.rules = id === undefined ? [] : this.rules.filter((r) => r.id !== id);
  }

  list(): (FaultRule & { id: string; fired: number })[] {
    return this.rules.map((r) => ({ ...r }));
  }

  private matches(r: Active, q: FaultRequest): boolean {
    if (r.verb && r.verb !== q.verb) return false;
    if (r.namespace && r.namespace !== q.namespace) return false;
    if (r.resource) {
      const [res, sub] = r.resource.split('/');
      if (res !== q.resource) return false;
      if (sub !== undefined && sub !== q.subresource) return false;
    }
    return true;
  }

  decide(q: FaultRequest): FaultDecision {
    let latencyMs = 0;
    for (const r of [...this.rules]) {
      if (!this.matches(r, q)) continue;
      latencyMs = Math.max(latencyMs, r.latencyMs ?? 0);
      if (r.errorRate > 0 && this.random() < r.errorRate) {
        r.fired++;
        if (r.count !== undefined && r.fired >= r.count) this.clear(r.id);
        return { latencyMs, error: this.errorFor(r, q), ruleId: r.id };
      }
      if (r.errorRate === 0 && r.count !== undefined) {
        r.fired++;
        if (r.fired >= r.count) this.clear(r.id);
      }
    }
    return { latencyMs };
  }

  private errorFor(r: Active, q: FaultRequest): ApiError {
    if (r.code === 429) return tooManyRequests(r.retryAfterSeconds ?? 1);
    if (r.code === 409) return conflict({ group: q.group, resource: q.resource }, q.name ?? '');
    return internalError(`injected fault ${r.id}`);
  }
}
