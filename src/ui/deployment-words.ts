// A Deployment's decision in the dashboard's words: the next step of the deployment controller
// (its first action with the arithmetic, or why there is none), and a ReplicaSet's sizes
// (`2/2 → 3`: status.replicas / spec.replicas, then the spec.replicas the next sync writes).
// Only words: every fact comes from the decision the feed made once per plan.

import { actionWords } from '../render/deployment-diff.js';
import type { DeploymentReplicaSetView, DeploymentView } from '../services/watch/contract.js';

export type StepTone = 'in-sync' | 'acts' | 'paused' | 'stuck';

export interface NextStep {
  text: string;
  tone: StepTone;
}

/**
 * The next sync in words: skipped and why; else paused and a passed progress deadline said first,
 * then the first action with its arithmetic ("scale web-7d9c5 3 → 4: maxSurge 25% of 4 = 1 …"),
 * the error the sync ends with, a status or annotation write, or "in sync".
 */
export function nextStep(v: DeploymentView): NextStep {
  const d = v.decision;
  if (d.skip) return { text: `skipped (${d.skip.reason}): ${d.skip.message}`, tone: 'stuck' };
  const lead: string[] = [];
  if (d.paused) lead.push('paused');
  if (v.deadlineExceeded) lead.push('progress deadline exceeded');
  let main: string | null = null;
  if (d.actions.length > 0) {
    const a = d.actions[0];
    main = `${actionWords(a)}: ${a.message}${d.actions.length > 1 ? ` (and ${d.actions.length - 1} more)` : ''}`;
  } else if (d.error) main = `the sync ends: ${d.error}`;
  else if (!d.inSync) main = d.statusChanged ? 'status update only' : 'annotations only';
  else if (lead.length === 0) main = 'in sync';
  const text = [...lead, ...(main ? [main] : [])].join('; ');
  const tone: StepTone = d.error || v.deadlineExceeded ? 'stuck' : d.actions.length > 0 || !d.inSync ? 'acts' : d.paused ? 'paused' : 'in-sync';
  return { text, tone };
}

export const TONE_COLOR: Record<StepTone, string> = { 'in-sync': 'green', acts: 'yellow', paused: 'cyan', stuck: 'red' };

/** `3/3 → 4`, `3/3 → delete`, `3/3`; a ReplicaSet not created yet: `– → 1`. */
export function sizesText(rs: DeploymentReplicaSetView): string {
  const now = rs.desired === null ? '–' : `${rs.current}/${rs.desired}`;
  if (rs.next === null || rs.next === rs.desired) return now;
  return `${now} → ${rs.next}`;
}

/** The ReplicaSet's name, or what stands for the one the next sync creates without a computed name. */
export function replicaSetName(rs: DeploymentReplicaSetView): string {
  return rs.name ?? '(new ReplicaSet)';
}

/** `deploy/web`, `deploy/shop/web`: the Deployment as kubectl names it, with its namespace when several are shown. */
export function deploymentName(v: DeploymentView, showNamespace: boolean): string {
  return `deploy/${showNamespace ? `${v.decision.namespace}/` : ''}${v.decision.name}`;
}

/** The Deployment's own counts: `2/4 updated · 4 available`. */
export function deploymentCounts(v: DeploymentView): { updated: string; available: string } {
  const s = v.decision.status;
  return { updated: `${s.updatedReplicas}/${v.replicas} updated`, available: `${s.availableReplicas} available` };
}
