// The question `reconcile` asks before writing: what it will do, naming the pods it adopts,
// releases and deletes (the first ten of each, then "and N more"), so a yes is a yes to these pods.

import type { PlanController } from '../core/plan-types.js';

export const NAMED_PODS = 10;

/** "a, b, c" or "a, …, j and 5 more". */
export function namedList(names: string[], max = NAMED_PODS): string {
  return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lines above the prompt, and the prompt itself. */
export function confirmationText(work: PlanController[], where: string): string {
  const manyNamespaces = new Set(work.map((c) => c.namespace)).size > 1;
  const podName = (c: PlanController, name: string) => (manyNamespaces ? `${c.namespace}/${name}` : name);
  const adopt: string[] = [];
  const release: string[] = [];
  const del: string[] = [];
  let create = 0;
  let status = 0;
  for (const c of work) {
    for (const p of c.pods) {
      if (p.decision === 'adopt') adopt.push(podName(c, p.name));
      else if (p.decision === 'release') release.push(podName(c, p.name));
    }
    for (const d of c.delete) del.push(podName(c, d.name));
    create += c.create.count;
    if (c.statusChanged) status++;
  }
  const lines: string[] = [];
  if (adopt.length) lines.push(`  adopt ${plural(adopt.length, 'pod')}: ${namedList(adopt)}`);
  if (release.length) lines.push(`  release ${plural(release.length, 'pod')}: ${namedList(release)}`);
  if (del.length) lines.push(`  delete ${plural(del.length, 'pod')}: ${namedList(del)}`);
  if (create) lines.push(`  create ${plural(create, 'pod')}`);
  if (status) lines.push(`  write the status of ${plural(status, 'controller')}`);
  return `${lines.join('\n')}\nApply ${plural(work.length, 'controller sync')}${where}? [y/N] `;
}
