// The sandbox runs no kube-controller-manager Deployment controller: a Deployment is stored and
// served, and nothing ever makes its ReplicaSet. A create says so the way kube-apiserver's own
// advice reaches kubectl, a `Warning: 299 - "…"` header (kubectl prints `Warning: …`), so a
// first `kubectl create deployment` does not wait for pods that never come.
import type { Admission } from './registry.js';

function noControllerWarning(name: string | undefined, kind: string): string {
  const what = name ? `${kind} ${name}` : `this ${kind}`;
  return (
    `no ${kind} controller runs in this sandbox: ${what} gets no ReplicaSet and no pods. ` +
    `Create its ReplicaSet yourself (kubectl create -f rs.yaml) and run kubectl rs-reconcile run, which manages ReplicaSets, ` +
    `or try it on a cluster with kube-controller-manager`
  );
}

/** An admission step that only warns, on every create of a kind nothing here acts on. */
export const noControllerAdmission: Admission = (res, o, ctx) => {
  // Kinds stored here whose controller does not run in the sandbox say so (kinds/<resource>.ts
  // noController); ReplicaSets and RCs are rs-reconcile's.
  if (!res.noController) return;
  (ctx.warnings ??= []).push(noControllerWarning(typeof o.metadata?.name === 'string' ? o.metadata.name : undefined, res.kind));
};
