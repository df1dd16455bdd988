// Who wrote a logged write, as far as the history needs to know: the ReplicaSet and
// ReplicationController controllers (kube-controller-manager's service accounts, or rs-reconcile
// itself by its User-Agent), the deployment controller whose writes make them act, and which
// Kubernetes minor's rules a controller ran (its User-Agent names its version).

import type { ControllerKind } from '../core/types.js';
import { rsReconcileRules } from '../core/user-agent.js';

/** kube-controller-manager's service accounts for the two controllers the rules are about. */
export const CONTROLLER_USERS: Readonly<Record<string, ControllerKind>> = {
  'system:serviceaccount:kube-system:replicaset-controller': 'ReplicaSet',
  'system:serviceaccount:kube-system:replication-controller': 'ReplicationController',
};

/**
 * The Kubernetes minor (`1.32`) whose rules the writer ran, from its User-Agent:
 * kube-controller-manager names its own version (`kube-controller-manager/v1.32.13 (…)`, also
 * `v1.30.4-eks-a737599` and `v1.28.14-gke.1000`), rs-reconcile the rules it emulates (`rules/v1.32`).
 */
export function rulesVersionOf(userAgent: string): string | null {
  const kcm = /^kube-controller-manager\/v(1\.\d+)\./.exec(userAgent);
  if (kcm) return kcm[1];
  if (RS_RECONCILE_DEPLOYMENT_CONTROLLER.test(userAgent)) return / rules\/v(1\.\d+)\b/.exec(userAgent)?.[1] ?? null;
  return rsReconcileRules(userAgent);
}

const DEPLOYMENT_CONTROLLER = 'system:serviceaccount:kube-system:deployment-controller';

/** rs-reconcile's deployment controller client (`run --controllers …,deployment`), as it names itself. */
const RS_RECONCILE_DEPLOYMENT_CONTROLLER = /^rs-reconcile\/\S+ \([^)]*\) kubernetes\/\S+ deployment-controller\/\S+/;

/** Whether the deployment controller wrote it: kube-controller-manager's service account, or rs-reconcile's client. */
export function isDeploymentController(w: { user: string; userAgent: string }): boolean {
  return w.user === DEPLOYMENT_CONTROLLER || RS_RECONCILE_DEPLOYMENT_CONTROLLER.test(w.userAgent);
}
