// Is a saved plan still the plan? (../shared/plan-format.md, "Applying a saved plan".) A saved
// plan is carried out only if planning again on fresh state gives, for every controller it names,
// the same controller (uid), the same pods to adopt, release and delete, the same create count and
// the same status write. Times and messages may differ: they are explanations, not actions.

import { firstNames } from './messages.js';
import { kindKey, metaNamespaceKey } from './object-key.js';
import type { Plan, PlanController, PlanStatus } from './plan-types.js';

/** One line per difference, empty when the saved plan can be applied as it is. */
export function staleness(saved: Plan, fresh: Plan): string[] {
  if (saved.kubernetesVersion !== fresh.kubernetesVersion) {
    return [`the plan was made for Kubernetes ${saved.kubernetesVersion}; the controller of this cluster behaves as ${fresh.kubernetesVersion}`];
  }
  const byKey = new Map(fresh.controllers.map((e) => [entryKey(e), e]));
  const out: string[] = [];
  for (const s of saved.controllers) {
    const f = byKey.get(entryKey(s));
    const who = `${s.kind} ${s.namespace}/${s.name}`;
    if (!f) {
      out.push(`${who}: not found any more`);
      continue;
    }
    if (f.uid !== s.uid) {
      out.push(`${who}: re-created (uid ${s.uid} in the plan, ${f.uid} now)`);
      continue;
    }
    for (const d of entryDifferences(s, f)) out.push(`${who}: ${d}`);
  }
  return out;
}

/** A controller's identity across plans and fresh reads: kind, namespace, name (`Kind/namespace/name`). */
export const entryKey = (e: { kind: string; namespace: string; name: string }): string => kindKey(e.kind, metaNamespaceKey(e.namespace, e.name));

function entryDifferences(s: PlanController, f: PlanController): string[] {
  const out: string[] = [];
  if ((s.skip?.reason ?? null) !== (f.skip?.reason ?? null)) out.push(`skipped: ${s.skip?.reason ?? 'no'} in the plan, ${f.skip?.reason ?? 'no'} now`);
  for (const decision of ['adopt', 'release'] as const) {
    const a = podSet(s.pods.filter((p) => p.decision === decision));
    const b = podSet(f.pods.filter((p) => p.decision === decision));
    if (!sameSet(a, b)) out.push(`${decision}: ${listOf(a)} in the plan, ${listOf(b)} now`);
  }
  if (s.create.count !== f.create.count) out.push(`create: ${s.create.count} in the plan, ${f.create.count} now`);
  const da = podSet(s.delete);
  const db = podSet(f.delete);
  if (!sameSet(da, db)) out.push(`delete: ${listOf(da)} in the plan, ${listOf(db)} now`);
  if (s.statusChanged !== f.statusChanged) out.push(`status write: ${s.statusChanged ? 'yes' : 'no'} in the plan, ${f.statusChanged ? 'yes' : 'no'} now`);
  else if (s.statusChanged) {
    const d = statusDifference(s.status, f.status);
    if (d) out.push(`status to write: ${d}`);
  }
  return out;
}

/** name → uid (a pod re-created under the same name is another pod). */
function podSet(pods: { name: string; uid: string }[]): Map<string, string> {
  return new Map(pods.map((p) => [p.name, p.uid]));
}

function sameSet(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, uid] of a) if (b.get(name) !== uid) return false;
  return true;
}

function listOf(m: Map<string, string>): string {
  if (m.size === 0) return 'none';
  const names = [...m.keys()].sort();
  return firstNames(names, 10);
}

const COUNTERS = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration'] as const;

/** The first field of the status to write that differs (conditions by type, status, reason, message). */
function statusDifference(a: PlanStatus, b: PlanStatus): string | null {
  for (const f of COUNTERS) if (a[f] !== b[f]) return `${f} ${a[f] ?? 'unset'} in the plan, ${b[f] ?? 'unset'} now`;
  const cond = (s: PlanStatus) => (s.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`).join('; ');
  if (cond(a) !== cond(b)) return `conditions ${cond(a) || 'none'} in the plan, ${cond(b) || 'none'} now`;
  return null;
}
