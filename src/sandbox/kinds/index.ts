// The kinds the sandbox serves, in discovery order. Adding a kind: its file under kinds/ and one
// line here (see docs/how-it-works.md, "Where to change what").
import { configmaps } from './configmaps.js';
import { deployments } from './deployments.js';
import { events } from './events.js';
import type { Kind } from './kind.js';
import { leases } from './leases.js';
import { namespaces } from './namespaces.js';
import { nodes } from './nodes.js';
import { pods } from './pods.js';
import { replicasets } from './replicasets.js';
import { replicationcontrollers } from './replicationcontrollers.js';
import { secrets } from './secrets.js';
import { serviceaccounts } from './serviceaccounts.js';

export const RESOURCES: Kind[] = [
  namespaces,
  pods,
  nodes,
  events,
  configmaps,
  secrets,
  serviceaccounts,
  replicationcontrollers,
  deployments,
  replicasets,
  leases,
];
