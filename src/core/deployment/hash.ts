// The pod-template-hash of a Deployment's new ReplicaSet (controller.ComputeHash): FNV-32a over
// the template, then the collisionCount if set (8 bytes, the low 4 little-endian), the sum's
// decimal digits mapped onto rand.SafeEncodeString's alphabet. What must stay true: the same
// template and collisionCount always give the same hash (the next sync finds its ReplicaSet by
// name on AlreadyExists). It is NOT kube-controller-manager's value: kcm hashes Go's spew printing
// of the template; here the bytes are a canonical JSON (keys sorted), so a Deployment rolled out
// by kcm gets other ReplicaSet names than one rolled out by rs-reconcile.

import type { PodTemplateSpec, ReplicaSet } from '../types.js';
import { POD_TEMPLATE_HASH_LABEL } from './util.js';

/** rand.SafeEncodeString's alphabet: no vowels, no 0/1/3 (no words, no look-alikes). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with every object's keys sorted: one text per value, whatever the keys' order. */
export function canonicalJSON(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJSON(x))).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
}

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each character of `s` mapped onto the safe alphabet. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHABET[ch.codePointAt(0)! % SAFE_ALPHABET.length];
  return out;
}

/** ComputeHash(template, collisionCount). */
export function podTemplateHash(template: PodTemplateSpec | undefined, collisionCount: number | null | undefined): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJSON(template ?? {})));
  if (collisionCount !== null && collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}

/** validation.DNS1123SubdomainMaxLength: the longest name an object can have. */
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/**
 * generateReplicaSetName: `<deployment>-<hash>`; with `truncate` (1.34+) the Deployment's name is
 * cut so the whole fits 253 characters (never when the hash alone leaves no room).
 */
export function generateReplicaSetName(deploymentName: string, hash: string, truncate: boolean): string {
  const maxDeploymentNameLength = DNS1123_SUBDOMAIN_MAX_LENGTH - 1 - hash.length;
  if (truncate && deploymentName.length > maxDeploymentNameLength && maxDeploymentNameLength > 0)
    return `${deploymentName.slice(0, maxDeploymentNameLength)}-${hash}`;
  return `${deploymentName}-${hash}`;
}

/**
 * getNewReplicaSet's naming: generateReplicaSetName, and the hash label on the ReplicaSet, its
 * selector and its template (a copy; `rs` is left as it is). `truncate`: Behaviour.replicaSetNameTruncated.
 */
export function withPodTemplateHash(rs: ReplicaSet, deploymentName: string, hash: string, truncate = true): ReplicaSet {
  const out = structuredClone(rs);
  out.metadata.name = generateReplicaSetName(deploymentName, hash, truncate);
  out.metadata.labels = { ...(out.metadata.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  out.spec.selector = { ...(out.spec.selector ?? {}), matchLabels: { ...(out.spec.selector?.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
  const template = (out.spec.template ??= {});
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
  return out;
}
