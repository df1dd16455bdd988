// Controller names as kubectl accepts them: NAME, rs/NAME, replicaset/NAME, replicasets.apps/NAME,
// rc/NAME, replicationcontroller/NAME …, and deploy/NAME for the ReplicaSets a Deployment controls.

import { CONTROLLER_KINDS } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { UserError } from '../errors.js';
import type { Target } from '../services/targets.js';

/**
 * The resource types kubectl accepts for each registered kind, as in TYPE/NAME: its short name,
 * singular and plural, each also qualified by the group (rs, replicaset, replicasets.apps, rc…).
 */
const CONTROLLER_TYPES: Readonly<Record<string, ControllerKind>> = Object.fromEntries(
  CONTROLLER_KINDS.flatMap((k) => {
    const names = [k.kind.toLowerCase(), k.resource];
    return [k.shortName, ...names, ...(k.group ? names.map((n) => `${n}.${k.group}`) : [])].map((n) => [n, k.kind]);
  }),
);

/** The Deployment's spellings: TYPE/NAME with one of these names every ReplicaSet it controls. */
const DEPLOYMENT_TYPES = new Set(['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.apps']);

/** Whether TYPE (of TYPE/NAME) names Deployments. */
export function isDeploymentType(type: string): boolean {
  return DEPLOYMENT_TYPES.has(type.toLowerCase());
}

/** The kind a TYPE of TYPE/NAME names (rs, replicasets.apps, rc…), or undefined. */
export function controllerType(type: string): ControllerKind | undefined {
  const t = type.toLowerCase();
  return Object.hasOwn(CONTROLLER_TYPES, t) ? CONTROLLER_TYPES[t] : undefined;
}

export function parseTarget(arg: string): Target {
  const slash = arg.indexOf('/');
  if (slash < 0) {
    if (!arg) throw new UserError('a controller name must not be empty');
    return { kind: null, name: arg };
  }
  const type = arg.slice(0, slash).toLowerCase();
  const name = arg.slice(slash + 1);
  const kind = isDeploymentType(type) ? 'Deployment' : controllerType(type);
  if (!kind)
    throw new UserError(
      `rs-reconcile explains ReplicaSets (rs/NAME), ReplicationControllers (rc/NAME) and Deployments (deploy/NAME, through their ReplicaSets), and "${arg.slice(0, slash)}" is not one of them`,
    );
  if (!name || name.includes('/')) throw new UserError(`invalid controller name ${JSON.stringify(arg)}: expected TYPE/NAME`);
  return { kind, name };
}
