// Small helpers shared by the sandbox modules. Objects are plain JSON values.
import { randomBytes } from 'node:crypto';
import { humanDuration as coreHumanDuration } from '../core/time.js';

export type Obj = Record<string, any>;

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    return a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Obj;
  const bo = b as Obj;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

/** RFC 3339 with second precision, as metav1.Time marshals. */
export function rfc3339(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

// k8s.io/apiserver/pkg/storage/names: 5 characters from an alphabet without vowels and confusables.
/** @public bench/gen-audit-log.mjs reads it from the build, where knip does not look. */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_PREFIX = 63 - 5;

export function generateName(base: string): string {
  const prefix = base.length > MAX_GENERATED_NAME_PREFIX ? base.slice(0, MAX_GENERATED_NAME_PREFIX) : base;
  const bytes = randomBytes(5);
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[bytes[i] % NAME_ALPHABET.length];
  return prefix + suffix;
}

/** Deterministic PRNG (mulberry32) for faults and the simulated kubelet. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration, used by the Age columns. */
export function humanDuration(ms: number): string {
  return coreHumanDuration(ms / 1000);
}

export function sinceAge(ts: string | null | undefined, now = Date.now()): string {
  if (!ts) return '<unknown>';
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

/** A wait on the global setTimeout, which tests fake to move the clock (the runtime's sleep is out of the sandbox's reach). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
