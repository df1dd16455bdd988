// The resources the sandbox serves (each kind's file under kinds/, listed in kinds/index.ts), and
// how the generic code finds them.
import { apiVersionOf, type Kind } from './kinds/kind.js';
import { RESOURCES } from './kinds/index.js';

export { apiVersionOf, RESOURCES };
/** A served resource: its kind's definition and strategy (kinds/kind.ts). */
export type ResourceDef = Kind;

export function findResource(group: string, version: string, name: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.name === name);
}

export function resourceByName(name: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.name === name);
}

/** The resource of an object's apiVersion and kind (`apps/v1` + `ReplicaSet`). */
export function resourceForKind(apiVersion: string | undefined, kind: string | undefined): ResourceDef | undefined {
  if (!kind) return undefined;
  return RESOURCES.find((r) => r.kind === kind && (apiVersion === undefined || apiVersionOf(r) === apiVersion));
}

export function groupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of RESOURCES) seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()];
}
