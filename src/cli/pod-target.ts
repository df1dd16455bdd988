// Pod targets of explain: pod/NAME, po/NAME, pods/NAME (the type case-insensitive, as kubectl
// takes it). Anything else is left to the controller targets (targets.ts).

import { UserError } from '../errors.js';

const POD_TYPES = new Set(['po', 'pod', 'pods']);

/** The pod name of `pod/NAME` (po/, pods/), or undefined when the argument names no pod. */
export function parsePodTarget(arg: string): string | undefined {
  const slash = arg.indexOf('/');
  if (slash < 0 || !POD_TYPES.has(arg.slice(0, slash).toLowerCase())) return undefined;
  const name = arg.slice(slash + 1);
  if (!name || name.includes('/')) throw new UserError(`invalid pod name ${JSON.stringify(arg)}: expected pod/NAME`);
  return name;
}
