// Cheap name lists for shell completion: one page (at most 500 names) of namespaces, or of the
// controllers of every kind (CONTROLLER_KINDS) of a namespace (null: all namespaces). Read-only.

import { CoreV1Api } from '@kubernetes/client-node';
import { CONTROLLER_KINDS } from '../core/controller.js';
import { controllerRef } from '../core/pod.js';
import type { ControllerKind, OwnerReference } from '../core/types.js';
import type { Connection } from './kubeconfig.js';
import { ApiReader } from './list.js';

export interface ControllerName {
  kind: ControllerKind;
  name: string;
  namespace: string;
  /** Its controller owner reference (a ReplicaSet's Deployment), for deploy/NAME. */
  controllerRef?: OwnerReference;
}

const PAGE = 500;

export async function listNamespaceNames(conn: Connection): Promise<string[]> {
  const list = await conn.kc.makeApiClient(CoreV1Api).listNamespace({ limit: PAGE });
  return list.items
    .map((n) => n.metadata?.name ?? '')
    .filter(Boolean)
    .sort();
}

/** Every kind; one failing (e.g. RBAC on replicationcontrollers) still gives the others. */
export async function listControllerNames(conn: Connection, namespace: string | null): Promise<ControllerName[]> {
  const reader = new ApiReader(conn);
  const settled = await Promise.allSettled(
    CONTROLLER_KINDS.map(async (k) => {
      const { items } = await reader.list<ControllerName>({
        resource: k,
        namespace,
        pageSize: PAGE,
        maxPages: 1,
        accept: (o) => {
          const meta = (o as { metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerReference[] } } | null)?.metadata;
          return {
            kind: k.kind,
            name: meta?.name ?? '',
            namespace: meta?.namespace ?? namespace ?? 'default',
            controllerRef: meta ? controllerRef({ metadata: meta }) : undefined,
          };
        },
      });
      return items;
    }),
  );
  if (settled.every((s) => s.status === 'rejected')) throw (settled[0] as PromiseRejectedResult).reason;
  return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : [])).filter((c) => c.name);
}
