// The controllers a command names (NAME, rs/NAME, rc/NAME, deploy/NAME…), as the services take
// them: the parsing of the command line's words is the cli's (src/cli/targets.ts).

import { controllerKindInfo, REPLICA_SET_KIND } from '../core/controller.js';
import { controllerRef } from '../core/pod.js';
import type { Controller, ControllerKind, OwnerReference } from '../core/types.js';

export interface Target {
  /**
   * null: either controller kind. 'Deployment': every ReplicaSet whose controller owner reference
   * names a Deployment NAME (the Deployment object itself is never read: snapshots rarely hold it,
   * and the ReplicaSet controller never looks at it).
   */
  kind: ControllerKind | 'Deployment' | null;
  name: string;
}

/** The target as kubectl names it in messages: `replicasets.apps "web"`. */
export function describeTarget(t: Target): string {
  if (t.kind === 'Deployment') return `deployments.apps "${t.name}"`;
  const info = controllerKindInfo(t.kind ?? REPLICA_SET_KIND.kind); // a kindless target names a ReplicaSet, as kubectl's default here
  return `${info.resource}${info.group ? `.${info.group}` : ''} "${t.name}"`;
}

/**
 * The name and uid of the Deployment controlling a ReplicaSet, from its controller owner reference
 * (apps/v1, or extensions/v1beta1 and apps/v1beta* of older clusters; a custom resource that happens
 * to be called Deployment is not one).
 */
export function deploymentOwner(c: Controller): { name: string; uid: string } | undefined {
  return c.kind === 'ReplicaSet' ? deploymentOf(controllerRef(c)) : undefined;
}

/** The Deployment a ReplicaSet's controller reference names, if it names one (see deploymentOwner). */
export function deploymentOf(ref: OwnerReference | undefined): { name: string; uid: string } | undefined {
  if (ref?.kind !== 'Deployment') return undefined;
  const group = ref.apiVersion?.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
  if (group !== 'apps' && group !== 'extensions') return undefined;
  return { name: ref.name, uid: ref.uid };
}

/** Whether a target names this controller (namespace and -l are the caller's). */
export function targetMatches(t: Target, c: Controller): boolean {
  if (t.kind === 'Deployment') return deploymentOwner(c)?.name === t.name;
  return c.metadata.name === t.name && (t.kind === null || c.kind === t.kind);
}
