// Writes made by the simulated control plane (scheduler, kubelet, garbage collector, namespace
// controller) go through the registry like any client's and are audited under their own user.
import type { AuditLog, AuditVerb } from './audit.js';
import { ApiError } from './errors.js';

export const USERS = {
  scheduler: 'system:kube-scheduler',
  gc: 'system:serviceaccount:kube-system:generic-garbage-collector',
  namespaceController: 'system:serviceaccount:kube-system:namespace-controller',
  node: (name: string) => `system:node:${name}`,
};

export interface Act {
  verb: AuditVerb;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** Runs one internal write; API errors are recorded and swallowed (controllers retry on their own). */
export function act<T>(audit: AuditLog, user: string, a: Act, fn: () => T, okCode = 200): T | undefined {
  const entry = { ...a, dryRun: false, user, userAgent: 'rs-reconcile-sandbox' };
  for (const k of Object.keys(entry) as (keyof typeof entry)[]) if (entry[k] === undefined) delete entry[k];
  try {
    const r = fn();
    audit.record({ ...entry, code: okCode });
    return r;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    audit.record({ ...entry, code: e.code });
    return undefined;
  }
}
