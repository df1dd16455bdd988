// The words of a replayed history: what a write did, what changed in a pod or a controller.

import { controllerKindInfo, desiredReplicas, isControllerKind } from '../core/controller.js';
import { controllerRef } from '../core/pod.js';
import type { Controller, ControllerKind, OwnerReference, Pod } from '../core/types.js';
import type { Controllerish } from './journal-state.js';
import type { HistoryControllerRef, HistoryVerb } from './types.js';

function resourceOfKind(kind: string): string {
  return isControllerKind(kind) ? controllerKindInfo(kind).resource : '';
}

export function ownerOf(
  o: { metadata?: { ownerReferences?: readonly OwnerReference[] | null } | null } | null | undefined,
  namespace: string,
): HistoryControllerRef | null {
  const ref = o ? controllerRef(o) : undefined;
  if (!ref || !resourceOfKind(ref.kind)) return null;
  return { kind: ref.kind as ControllerKind, namespace, name: ref.name };
}

/** A delete answered with an object: gone unless it waits for finalizers or a grace period (a kubelet). */
export function gone(o: Record<string, any>): boolean {
  const m = o.metadata ?? {};
  if (Array.isArray(m.finalizers) && m.finalizers.length > 0) return false;
  return !m.deletionTimestamp || (m.deletionGracePeriodSeconds ?? 0) === 0;
}

/** spec.replicas as the controller reads it: every registered kind defaults it to 1 (desiredReplicas). */
export function desiredOf(c: Controllerish): number {
  return desiredReplicas({ spec: c.spec ?? {} } as Controller);
}

export function conditionTypes(v: unknown): string {
  return Array.isArray(v)
    ? v
        .map((c: { type?: string }) => c?.type ?? '')
        .sort()
        .join(',')
    : '';
}

export function describeWrite(verb: HistoryVerb, c: HistoryControllerRef, pod: string | null): string {
  switch (verb) {
    case 'create':
      return `created pod ${pod ?? '(name not logged)'}`;
    case 'delete':
      return `deleted pod ${pod}`;
    case 'adopt':
      return `adopted pod ${pod}`;
    case 'release':
      return `released pod ${pod}`;
    case 'status':
      return `wrote the status of ${c.kind} ${c.name}`;
    default:
      return `${verb} ${pod ?? c.name}`;
  }
}

export function selectorText(sel: unknown): string {
  if (sel && typeof sel === 'object') {
    const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
    const labels = s.matchLabels ?? (!('matchExpressions' in s) ? (sel as Record<string, string>) : {});
    const parts = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
    if (Array.isArray(s.matchExpressions) && s.matchExpressions.length)
      parts.push(`${s.matchExpressions.length} expression${s.matchExpressions.length === 1 ? '' : 's'}`);
    return parts.join(',') || '(everything)';
  }
  return '(none)';
}

function labelDiff(a: Record<string, string> | null | undefined, b: Record<string, string> | null | undefined): string[] {
  const out: string[] = [];
  const x = a ?? {};
  const y = b ?? {};
  for (const k of Object.keys(y)) if (x[k] !== y[k]) out.push(k in x ? `label ${k} ${x[k]} → ${y[k]}` : `label ${k}=${y[k]} added`);
  for (const k of Object.keys(x)) if (!(k in y)) out.push(`label ${k} removed`);
  return out;
}

export function podChanges(before: Pod, after: Record<string, any>): string {
  const out = labelDiff(before.metadata.labels, after.metadata?.labels);
  const was = controllerRef(before);
  const now = controllerRef(after as Pod);
  if (was?.uid !== now?.uid)
    out.push(
      now ? `controller owner ${now.kind} ${now.name}${was ? ` (was ${was.kind} ${was.name})` : ''}` : `controller owner ${was!.kind} ${was!.name} removed`,
    );
  const cost = 'controller.kubernetes.io/pod-deletion-cost';
  const c0 = before.metadata.annotations?.[cost];
  const c1 = after.metadata?.annotations?.[cost];
  if (c0 !== c1) out.push(c1 === undefined ? 'pod-deletion-cost removed' : `pod-deletion-cost ${c1}`);
  return out.join(', ');
}

export function controllerChanges(before: Controllerish, after: Record<string, any>): string {
  const out: string[] = [];
  const r0 = desiredOf(before);
  const r1 = after.spec?.replicas ?? 1;
  if (r0 !== r1) out.push(`replicas ${r0} → ${r1}`);
  if (JSON.stringify(before.spec?.selector ?? null) !== JSON.stringify(after.spec?.selector ?? null))
    out.push(`selector ${selectorText(after.spec?.selector)}`);
  out.push(...labelDiff(before.spec?.template?.metadata?.labels, after.spec?.template?.metadata?.labels).map((s) => `template ${s}`));
  return out.join(', ');
}
