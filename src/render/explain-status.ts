// explain's status section: the status before and after the sync, field by field, the
// conditions set or removed, whether the status is written, and the minReadySeconds re-check.

import type { ChalkInstance } from 'chalk';
import type { ExplainModel } from '../core/explain-types.js';
import { INDENT, asIfTitle, para } from './explain-text.js';
import { type Cell, type Column, renderTable, shortSeconds, statusPath } from './text.js';

type Condition = ExplainModel['statusBefore']['conditions'][number];

function conditionsText(conditions: Condition[]): string {
  if (conditions.length === 0) return '<none>';
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join('; ');
}

function sameConditions(a: Condition[], b: Condition[]): boolean {
  if (a.length !== b.length) return false;
  return a.every(
    (c, i) => c.type === b[i].type && c.status === b[i].status && (c.reason ?? '') === (b[i].reason ?? '') && (c.message ?? '') === (b[i].message ?? ''),
  );
}

function requeueText(model: ExplainModel): string | null {
  const after = model.plan.requeueAfterSeconds;
  if (after === null) return null;
  const min = model.minReadySeconds;
  // Name the pod whose availability the re-check waits for: a claimed, ready pod that has not
  // yet been ready for minReadySeconds, and whose remaining time is the requeue delay.
  let best: { name: string; remaining: number } | null = null;
  for (const p of model.pods) {
    if (p.decision !== 'keep' && p.decision !== 'adopt') continue;
    if (!p.ready || p.readySeconds === null || p.readySeconds >= min) continue;
    const remaining = min - p.readySeconds;
    if (best === null || remaining < best.remaining) best = { name: p.name, remaining };
  }
  if (best !== null && Math.abs(best.remaining - after) < 1) {
    return `re-checked in ${shortSeconds(after)}, when ${best.name} has been ready for minReadySeconds (${min}s)`;
  }
  return `re-checked in ${shortSeconds(after)} (minReadySeconds), to count ready pods that have become available`;
}

export function statusSection(model: ExplainModel, width: number, chalk: ChalkInstance): string[] {
  const plan = model.plan;
  const before = model.statusBefore;
  const after = plan.status;
  const out = [chalk.bold(`Status (before → after)${asIfTitle(model)}`)];
  const unset = '<unset>';
  const rows: { field: string; before: string; after: string; changed: boolean }[] = [];
  const num = (field: string, b: number | null | undefined, a: number | null | undefined): void => {
    const bs = b === null || b === undefined ? unset : String(b);
    const as = a === null || a === undefined ? unset : String(a);
    rows.push({ field, before: bs, after: as, changed: bs !== as });
  };
  num('replicas', before.replicas, after.replicas);
  num('fullyLabeledReplicas', before.fullyLabeledReplicas, after.fullyLabeledReplicas);
  num('readyReplicas', before.readyReplicas, after.readyReplicas);
  num('availableReplicas', before.availableReplicas, after.availableReplicas);
  num('observedGeneration', before.observedGeneration, after.observedGeneration);
  if (before.terminatingReplicas !== null || after.terminatingReplicas !== undefined) {
    num('terminatingReplicas', before.terminatingReplicas, after.terminatingReplicas);
  }
  const condChanged = !sameConditions(before.conditions, after.conditions);
  rows.push({
    field: 'conditions',
    before: conditionsText(before.conditions),
    after: conditionsText(after.conditions),
    changed: condChanged,
  });

  const columns: Column[] = [{ header: 'FIELD' }, { header: 'BEFORE' }, { header: 'AFTER' }, { header: '' }];
  const cells: Cell[][] = rows.map((r) => [
    { text: r.field },
    { text: r.before, style: r.changed ? chalk.dim : undefined },
    { text: r.after, style: r.changed ? chalk.bold.yellow : undefined },
    r.changed ? { text: 'changed', style: chalk.yellow } : { text: '' },
  ]);
  out.push(...renderTable(columns, cells, { gap: 2, indent: INDENT.length }).trimEnd().split('\n'));
  // upstream's calculateStatus counts the pods it claimed, before manageReplicas acts on them
  out.push(...para("after: counted before this sync's creates and deletes (the next sync counts them)", width, chalk.dim));

  if (condChanged) {
    for (const c of after.conditions) {
      const same = before.conditions.find((b) => b.type === c.type);
      if (same && sameConditions([same], [c])) continue;
      const text = `condition ${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''} set${c.message ? `: ${c.message}` : ''}`;
      out.push(...para(text, width));
    }
    for (const b of before.conditions) {
      if (!after.conditions.some((c) => c.type === b.type)) out.push(...para(`condition ${b.type} removed`, width));
    }
  }

  if (plan.skip?.reason === 'InvalidSelector') {
    out.push(...para('no status write: upstream skips a controller whose selector is invalid', width, chalk.dim));
  } else if (plan.statusChanged) {
    const line = `status write: PUT ${statusPath(plan.kind, plan.namespace, plan.name)}`;
    out.push(...para(line, width).map((l) => l.replace('status write:', chalk.blue('status write:'))));
  } else {
    out.push(...para('no status write: nothing changed', width, chalk.dim));
  }
  const requeue = requeueText(model);
  if (requeue !== null) out.push(...para(requeue, width));
  return out;
}
