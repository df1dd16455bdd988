// The controllers a command names (NAME, rs/NAME, rc/NAME…), as the services take them: the
// parsing of the command line's words is the cli's (src/cli/targets.ts).

import type { ControllerKind } from '../core/types.js';

export interface Target {
  kind: ControllerKind | null; // null: either kind
  name: string;
}

/** The target as kubectl names it in messages: `replicasets.apps "web"`. */
export function describeTarget(t: Target): string {
  return t.kind === 'ReplicationController' ? `replicationcontrollers "${t.name}"` : `replicasets.apps "${t.name}"`;
}
