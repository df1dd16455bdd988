// The change a rollout starts from, made to the Deployment as kubectl makes it: `kubectl set image`,
// `kubectl scale`, a template label, `kubectl rollout undo`. What must stay true: the Deployment
// the prediction starts from is the object the API server would hold after that command (its
// generation bumped when its spec changed), or the command's own error.

import type { ReplicaSet, Deployment } from '../types.js';
import { labelSelectorAsSelector } from '../selector.js';
import { clone } from './sync-run.js';
import { compareRevisions, revision, semanticEqual, templateWithoutHash } from './util.js';

/** What the user changes; several may be given together, as one edit. */
export interface RolloutChange {
  /** Container name (or `*` for every container) → image, as `kubectl set image`. */
  image?: Record<string, string>;
  replicas?: number;
  /** Labels set on the pod template. */
  templateLabels?: Record<string, string>;
  /** `kubectl rollout undo [--to-revision N]`: 0 is the previous revision. */
  undo?: { toRevision: number };
}

export type ChangeResult = { ok: true; deployment: Deployment; notes: string[] } | { ok: false; error: string };

/** The Deployment after `change`, or the error kubectl (or the API server) gives for it. */
export function applyRolloutChange(d: Deployment, replicaSets: readonly ReplicaSet[], change: RolloutChange): ChangeResult {
  const next = clone(d);
  const notes: string[] = [];
  const template = (next.spec.template ??= {});
  if (change.undo) {
    const r = undoTemplate(d, replicaSets, change.undo.toRevision);
    if (!r.ok) return r;
    next.spec.template = r.template;
    notes.push(r.note);
  }
  if (change.image) {
    const containers = [...(next.spec.template?.spec?.initContainers ?? []), ...(next.spec.template?.spec?.containers ?? [])];
    for (const [name, image] of Object.entries(change.image)) {
      const targets = name === '*' ? containers : containers.filter((c) => c.name === name);
      if (targets.length === 0) return { ok: false, error: `unable to find container named "${name}"` };
      for (const c of targets) c.image = image;
    }
  }
  if (change.templateLabels) {
    const meta = (template.metadata ??= {});
    meta.labels = { ...(meta.labels ?? {}), ...change.templateLabels };
    const sel = labelSelectorAsSelector(next.spec.selector);
    if (sel.ok && !sel.selector.matches(meta.labels))
      return {
        ok: false,
        error: `The Deployment "${d.metadata.name}" is invalid: spec.template.metadata.labels: Invalid value: ${JSON.stringify(meta.labels)}: \`selector\` does not match template \`labels\``,
      };
  }
  if (change.replicas !== undefined) {
    if (!Number.isInteger(change.replicas) || change.replicas < 0)
      return { ok: false, error: `--replicas must be a whole number of 0 or more, not ${change.replicas}` };
    next.spec.replicas = change.replicas;
  }
  if (semanticEqual(next.spec, d.spec)) return { ok: false, error: `the change leaves Deployment ${d.metadata.name} as it is: there is no rollout to foresee` };
  next.metadata.generation = (d.metadata.generation ?? 1) + 1;
  return { ok: true, deployment: next, notes };
}

/** rollout undo: the template of the ReplicaSet of that revision, without its pod-template-hash label. */
function undoTemplate(
  d: Deployment,
  replicaSets: readonly ReplicaSet[],
  toRevision: number,
): { ok: true; template: NonNullable<Deployment['spec']['template']>; note: string } | { ok: false; error: string } {
  const owned = replicaSets
    .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid))
    .filter((rs) => revision(rs) !== null)
    .sort((a, b) => compareRevisions(revision(b), revision(a)));
  let target: ReplicaSet | undefined;
  if (toRevision === 0) {
    if (owned.length < 2) return { ok: false, error: `no rollout history found for deployment "${d.metadata.name}"` };
    target = owned[1];
  } else {
    target = owned.find((rs) => revision(rs) === BigInt(toRevision));
    if (!target) return { ok: false, error: `unable to find specified revision ${toRevision} in history` };
  }
  const template = templateWithoutHash(target.spec.template ?? {});
  if (semanticEqual(template, d.spec.template ?? {}))
    return { ok: false, error: `skipped rollback (current template already matches revision ${revision(target)})` };
  return { ok: true, template, note: `the template of revision ${revision(target)} (${target.metadata.name}) again, as kubectl rollout undo writes it` };
}
