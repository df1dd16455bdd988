// Cheap name lists for shell completion: one page (at most 500 names) of namespaces, or of the
// ReplicaSets and ReplicationControllers of a namespace (null: all namespaces). Read-only.

import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import type { Connection } from './kubeconfig.js';

export interface ControllerName {
  kind: 'ReplicaSet' | 'ReplicationController';
  name: string;
  namespace: string;
}

const PAGE = 500;

export async function listNamespaceNames(conn: Connection): Promise<string[]> {
  const list = await conn.kc.makeApiClient(CoreV1Api).listNamespace({ limit: PAGE });
  return list.items.map((n) => n.metadata?.name ?? '').filter(Boolean).sort();
}

/** Both kinds; one failing (e.g. RBAC on replicationcontrollers) still gives the other. */
export async function listControllerNames(conn: Connection, namespace: string | null): Promise<ControllerName[]> {
  const apps = conn.kc.makeApiClient(AppsV1Api);
  const core = conn.kc.makeApiClient(CoreV1Api);
  const [rs, rc] = await Promise.allSettled([
    namespace === null ? apps.listReplicaSetForAllNamespaces({ limit: PAGE }) : apps.listNamespacedReplicaSet({ namespace, limit: PAGE }),
    namespace === null ? core.listReplicationControllerForAllNamespaces({ limit: PAGE }) : core.listNamespacedReplicationController({ namespace, limit: PAGE }),
  ]);
  if (rs.status === 'rejected' && rc.status === 'rejected') throw rs.reason;
  const meta = (o: { metadata?: { name?: string; namespace?: string } }) => ({ name: o.metadata?.name ?? '', namespace: o.metadata?.namespace ?? namespace ?? 'default' });
  return [
    ...(rs.status === 'fulfilled' ? rs.value.items.map((o) => ({ kind: 'ReplicaSet' as const, ...meta(o) })) : []),
    ...(rc.status === 'fulfilled' ? rc.value.items.map((o) => ({ kind: 'ReplicationController' as const, ...meta(o) })) : []),
  ].filter((c) => c.name);
}
