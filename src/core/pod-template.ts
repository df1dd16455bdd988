// GetPodFromTemplate and the owner reference of created pods (CreatePodsWithGenerateName): what upstream sends
// in each create. No name and no uid: the API server generates them from generateName.

import { ownerGroupVersion, namespaceOf } from './controller.js';
import type { Controller, OwnerReference, Pod } from './types.js';

const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** getPodsPrefix: "<name>-" when valid as a generateName prefix (trailing dash masked), else "<name>". */
function podsPrefix(controllerName: string): string {
  const masked = controllerName + 'a'; // ValidatePodName(prefix, true) masks the trailing dash
  return masked.length <= 253 && DNS1123_SUBDOMAIN_RE.test(masked) ? `${controllerName}-` : controllerName;
}

/** metav1.NewControllerRef(rs, kind). */
function newControllerRef(c: Controller): OwnerReference {
  const gv = ownerGroupVersion(c.kind);
  return { apiVersion: gv.apiVersion, kind: gv.kind, name: c.metadata.name, uid: c.metadata.uid, controller: true, blockOwnerDeletion: true };
}

export type TemplateResult = { ok: true; pod: Pod } | { ok: false; error: string };

/** The pod a create sends, or the local refusal upstream gives before any request. */
export function podFromTemplate(c: Controller): TemplateResult {
  const meta = c.spec.template?.metadata ?? {};
  const labels = { ...(meta.labels ?? {}) };
  if (Object.keys(labels).length === 0) return { ok: false, error: 'unable to create pods, no labels' };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '',
      uid: '',
      generateName: podsPrefix(c.metadata.name),
      namespace: namespaceOf(c),
      labels,
      ownerReferences: [newControllerRef(c)],
    },
    spec: structuredClone(c.spec.template?.spec ?? { containers: [] }),
  };
  if (meta.annotations && Object.keys(meta.annotations).length) pod.metadata.annotations = { ...meta.annotations };
  if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
  // name and uid are the server's to choose: drop the placeholders from the wire shape
  delete (pod.metadata as Partial<Pod['metadata']>).name;
  delete (pod.metadata as Partial<Pod['metadata']>).uid;
  return { ok: true, pod };
}

/** The adopt patch of ControllerRefManager's AdoptPod, field order as upstream marshals it. */
export function adoptPatch(c: Controller, podUid: string): object {
  const gv = ownerGroupVersion(c.kind);
  return {
    metadata: {
      ownerReferences: [{ apiVersion: gv.apiVersion, kind: gv.kind, name: c.metadata.name, uid: c.metadata.uid, controller: true, blockOwnerDeletion: true }],
      uid: podUid,
    },
  };
}

/** The release patch of ControllerRefManager's ReleasePod: deletes only this controller's owner reference. */
export function releasePatch(c: Controller, podUid: string): object {
  return { metadata: { uid: podUid, ownerReferences: [{ $patch: 'delete', uid: c.metadata.uid }] } };
}
