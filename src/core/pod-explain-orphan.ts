// `explain pod/NAME`'s orphan evidence: how a pod no controller counts lost (or is losing) its
// controller, read from its controller reference, its generateName and the controllers of its
// namespace. Garbage collection and `delete --cascade=orphan` leave no record, so most reasons
// are likely, not certain (PodOrphan.likely).

import { isControllerKind, namespaceOf } from './controller.js';
import type { ClusterPlanner } from './plan.js';
import type { PodOrphan } from './pod-explain-types.js';
import { controllerRef } from './pod.js';
import { parseTime } from './time.js';
import type { Controller, OwnerReference, Pod } from './types.js';

/** Why the pod is an orphan (or about to be one); null when a controller of the input owns it, or another kind of controller does. */
export function orphanOf(planner: ClusterPlanner, pod: Pod, source: 'file' | 'cluster'): PodOrphan | null {
  const ns = namespaceOf(pod);
  const inNs = planner.controllers.filter((c) => namespaceOf(c) === ns);
  const ref = controllerRef(pod);
  if (ref) return ownerGone(inNs, pod, ref, source);
  return ownerReferenceRemoved(planner, inNs, pod, source);
}

/** A pod with a controller reference: unless its owner is in the namespace (or is not a ReplicaSet or ReplicationController), the owner was re-created under a new uid, or is gone. */
function ownerGone(inNs: Controller[], pod: Pod, ref: OwnerReference, source: 'file' | 'cluster'): PodOrphan | null {
  const ns = namespaceOf(pod);
  const missing = source === 'cluster' ? 'does not exist' : 'is not in the input';
  if (!isControllerKind(ref.kind)) return null; // another controller's pod
  if (inNs.some((c) => c.kind === ref.kind && c.metadata.uid === ref.uid)) return null;
  const sameName = inNs.find((c) => c.kind === ref.kind && c.metadata.name === ref.name);
  if (sameName) {
    const evidence = [
      `its controller reference names ${ref.kind} ${ref.name} with uid ${ref.uid}`,
      `${ref.kind} ${ref.name} exists with uid ${sameName.metadata.uid}`,
    ];
    const podCreated = parseTime(pod.metadata.creationTimestamp);
    const ownerCreated = parseTime(sameName.metadata.creationTimestamp);
    if (podCreated !== null && ownerCreated !== null && ownerCreated > podCreated) {
      evidence.push(`${ref.kind} ${ref.name} was created (${sameName.metadata.creationTimestamp}) after the pod (${pod.metadata.creationTimestamp})`);
    }
    return {
      reason: 'OwnerRecreated',
      likely: false,
      message: `its owner ${ref.kind} ${ref.name} was re-created under a new uid: ownership is by uid, so the new ${ref.name} neither keeps nor adopts it, and garbage collection deletes the pod once it sees that the uid it names is gone`,
      evidence,
    };
  }
  return {
    reason: 'OwnerNotFound',
    likely: true,
    message: `its owner ${ref.kind} ${ref.name} (uid ${ref.uid}) ${missing}: likely deleted with a background or foreground cascade, and garbage collection deletes this pod soon${source === 'file' ? '; or the snapshot was taken without it' : ''}`,
    evidence: [
      `its controller reference names ${ref.kind} ${ref.name} with uid ${ref.uid}`,
      `no ${ref.kind} of that uid in namespace ${ns}`,
      `no ${ref.kind} named ${ref.name} in namespace ${ns}`,
    ],
  };
}

/**
 * A pod without a controller reference: the controller its generateName names tells whether its
 * owner was deleted with --cascade=orphan or released it, or the input does not show which.
 */
function ownerReferenceRemoved(planner: ClusterPlanner, inNs: Controller[], pod: Pod, source: 'file' | 'cluster'): PodOrphan {
  const ns = namespaceOf(pod);
  const generateName = pod.metadata.generateName;
  const prefix = generateName?.endsWith('-') ? generateName.slice(0, -1) : generateName;
  if (!prefix) {
    return {
      reason: 'Unknown',
      likely: true,
      message:
        'it has no controller reference and no generateName to tell which controller made it: likely created by hand (or its owner references were removed by hand)',
      evidence: ['no controller reference', 'no generateName'],
    };
  }
  const named = inNs.filter((c) => c.metadata.name === prefix);
  if (named.length === 0) {
    return {
      reason: 'OwnerDeletedOrphaned',
      likely: true,
      message: `its owner was likely deleted with --cascade=orphan: that removes the owner references of its pods and then the owner, leaving the pods running`,
      evidence: [
        'no controller reference',
        `its generateName "${generateName}" points to ${prefix}, and no ReplicaSet or ReplicationController named ${prefix} ${source === 'cluster' ? 'exists' : 'is in the input'} in namespace ${ns}`,
      ],
    };
  }
  const c = named[0];
  const sel = planner.selectorOf(c);
  if (sel.ok && !sel.selector.matches(pod.metadata.labels)) {
    return {
      reason: 'Released',
      likely: true,
      message: `its labels likely stopped matching ${c.kind} ${c.metadata.name}, which released it: a release removes the pod's owner reference and leaves the pod running`,
      evidence: [
        'no controller reference',
        `its generateName "${generateName}" names ${c.kind} ${c.metadata.name}, which exists`,
        `the selector ${sel.selector.toString()} of ${c.metadata.name} does not match the pod: ${sel.selector.explainMismatch(pod.metadata.labels)}`,
      ],
    };
  }
  return {
    reason: 'Unknown',
    likely: true,
    message: sel.ok
      ? `its generateName names ${c.kind} ${c.metadata.name}, whose selector matches it again: how it lost its owner reference is not recorded (an earlier ${c.metadata.name} deleted with --cascade=orphan, or a release whose labels were restored)`
      : `its generateName names ${c.kind} ${c.metadata.name}, whose selector is invalid: how it lost its owner reference is not recorded`,
    evidence: [
      'no controller reference',
      `its generateName "${generateName}" names ${c.kind} ${c.metadata.name}, which exists${sel.ok ? ' and selects the pod' : ' with an invalid selector'}`,
    ],
  };
}
