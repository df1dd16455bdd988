// Writes made by the simulated control plane (scheduler, kubelet, garbage collector, namespace
// controller, serviceaccount controller) go through the registry like any client's and are
// audited under their own user, with the bodies a real one would send and get back.
import type { AuditLog, AuditVerb } from './audit.js';
import { ApiError } from './errors.js';
import type { FieldManager } from './managed-fields.js';
import { withType, type DeleteResult } from './registry.js';
import { resourceByName } from './resources.js';
import type { Obj } from './util.js';

export const USERS = {
  scheduler: 'system:kube-scheduler',
  gc: 'system:serviceaccount:kube-system:generic-garbage-collector',
  namespaceController: 'system:serviceaccount:kube-system:namespace-controller',
  node: (name: string) => `system:node:${name}`,
};

/**
 * The managers the simulated components' writes are recorded under: the User-Agent of each up to
 * its first "/" (kubelet/v1.32.0 …, kube-controller-manager/v1.32.0 …), as for any client.
 */
export const KUBELET: FieldManager = { manager: 'kubelet' };
export const KUBELET_STATUS: FieldManager = { manager: 'kubelet', subresource: 'status' };
export const CONTROLLER_MANAGER: FieldManager = { manager: 'kube-controller-manager' };

export interface Act {
  verb: AuditVerb;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** The body the component sends (a patch as a patch); a delete without one sends empty DeleteOptions. */
  request?: unknown;
}

const SUCCESS = (code: number): Obj => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code });

/** What the server answers an internal write, from what the registry returned (as rest.ts answers). */
function answerOf(a: Act, r: unknown, code: number): Obj {
  const res = resourceByName(a.resource);
  if (r === undefined || r === null || !res) return SUCCESS(code); // a binding
  const d = r as Partial<DeleteResult>;
  if (a.verb === 'delete' && d.object) {
    if (d.deleted && !res.gracefulDelete)
      return {
        ...SUCCESS(code),
        details: { name: d.object.metadata.name, ...(res.group ? { group: res.group } : {}), kind: res.name, uid: d.object.metadata.uid },
      };
    return withType(res, d.object);
  }
  return withType(res, r as Obj);
}

/** Runs one internal write; API errors are recorded and swallowed (controllers retry on their own). */
export function act<T>(audit: AuditLog, user: string, a: Act, fn: () => T, okCode = 200): T | undefined {
  const { request, ...where } = a;
  const entry = { ...where, dryRun: false, user, userAgent: 'rs-reconcile-sandbox' };
  const body = request ?? (a.verb === 'delete' ? { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal' } : undefined);
  try {
    const r = fn();
    const answer = answerOf(a, r, okCode);
    audit.record({ ...entry, code: okCode, status: answer.kind === 'Status' ? answer : undefined }, () => ({ request: body, response: answer }));
    return r;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    audit.record({ ...entry, code: e.code, status: e.status as Obj }, () => ({ request: body, response: e.status }));
    return undefined;
  }
}
