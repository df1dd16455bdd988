// Claiming (ClaimPods): the controller-ref manager's keep / adopt / release / ignore decision for every
// pod that is in the controller's namespace and either matches its selector or names it as
// controller, after the active-pod filter (FilterActivePods) (inactive pods are never claimed). Ownership is
// the controller reference's uid, as ClaimObject compares it; from 1.34 a pod carrying the uid
// under another kind or name never gets here (the planner's candidates leave it out).

import { isBeingDeleted } from './controller.js';
import type { PodDecision, PodReason } from './plan-types.js';
import { controllerRef, isPodTerminal } from './pod.js';
import type { Selector } from './selector.js';
import type { Controller, OwnerReference, Pod } from './types.js';

export interface ClaimDecision {
  pod: Pod;
  decision: PodDecision;
  reason: PodReason;
  message: string;
  /** The pod counts as the controller's after this sync's claim (syncReplicaSet's filteredPods after ClaimPods). */
  claimed: boolean;
}

/**
 * The claim sentences of one planner, each built once per distinct wording: a big plan repeats a
 * few sentences millions of times (every kept pod says the same), and each would otherwise be a
 * string of its own. Keys are the reason and the sentence's variable parts, which are short.
 */
export class ClaimSentences {
  private readonly known = new Map<string, string>();

  say(key: string, build: () => string): string {
    let s = this.known.get(key);
    if (s === undefined) {
      s = build();
      this.known.set(key, s);
    }
    return s;
  }
}

/**
 * One pod's decision, in upstream's order: the active filter first, then the claim table
 * (ClaimObject: owned by someone else, owned by us, an orphan).
 * Returns null for a pod that is not part of the plan (an orphan that does not match).
 */
export function claimPod(c: Controller, selector: Selector, pod: Pod, sentences: ClaimSentences = new ClaimSentences()): ClaimDecision | null {
  const matches = selector.matches(pod.metadata.labels);
  const ref = controllerRef(pod);
  const ours = ref !== undefined && ref.uid === c.metadata.uid;
  if (!matches && !ours) return null;

  const inactive = filterInactive(pod, sentences);
  if (inactive) return inactive;
  if (ref && !ours) return ownedBySomeoneElse(c, pod, ref, sentences);
  if (ours) return claimOwned(c, selector, pod, matches, sentences);
  return adoptOrphan(c, selector, pod, sentences);
}

/** FilterActivePods: a terminal or terminating pod is ignored before any claim. */
function filterInactive(pod: Pod, sentences: ClaimSentences): ClaimDecision | null {
  if (isPodTerminal(pod)) {
    const phase = pod.status?.phase;
    return ignore(
      pod,
      'Inactive',
      sentences.say(
        `Inactive\0${phase}`,
        () => `its phase is ${phase}: terminal pods are never counted, adopted, released or deleted (pod garbage collection removes them)`,
      ),
    );
  }
  if (pod.metadata.deletionTimestamp) {
    return ignore(
      pod,
      'Terminating',
      `it is being deleted (since ${pod.metadata.deletionTimestamp}): a terminating pod no longer counts, so its replacement is created right away`,
    );
  }
  return null;
}

/** ClaimObject, a controller reference with another uid: owned by someone else, ignored. */
function ownedBySomeoneElse(c: Controller, pod: Pod, ref: OwnerReference, sentences: ClaimSentences): ClaimDecision {
  const kind = c.kind;
  const sameName = ref.kind === kind && ref.name === c.metadata.name;
  const who = `${ref.kind} ${ref.name}`;
  return ignore(
    pod,
    'OwnedByOther',
    sentences.say(`OwnedByOther\0${kind}\0${who}\0${ref.uid}\0${sameName}`, () =>
      sameName
        ? `its controller reference names ${who} but with uid ${ref.uid}, an earlier object of the same name; ownership is by uid, so it belongs to someone else and is never adopted`
        : `it matches the selector but is controlled by ${who} (uid ${ref.uid}); a pod has one controller, so this ${kind} leaves it alone`,
    ),
  );
}

/** ClaimObject, owned by us: kept while the selector matches, else released unless the controller is being deleted (ReleasePod). */
function claimOwned(c: Controller, selector: Selector, pod: Pod, matches: boolean, sentences: ClaimSentences): ClaimDecision {
  const kind = c.kind;
  if (matches) {
    return {
      pod,
      decision: 'keep',
      reason: 'OwnedMatching',
      claimed: true,
      message: sentences.say(kind, () => `owned by this ${kind} and matches its selector`),
    };
  }
  const why = selector.explainMismatch(pod.metadata.labels);
  if (isBeingDeleted(c)) {
    return ignore(
      pod,
      'ControllerDeleting',
      sentences.say(
        `ControllerDeleting\0${kind}\0${why}`,
        () => `owned by this ${kind} but no longer matches its selector (${why}); the ${kind} is being deleted, so it is not released`,
      ),
    );
  }
  return {
    pod,
    decision: 'release',
    reason: 'OwnedNotMatching',
    claimed: false,
    message: sentences.say(
      `OwnedNotMatching\0${kind}\0${why}`,
      () =>
        `owned by this ${kind} but no longer matches its selector (${why}): the ${kind} removes its owner reference and the pod keeps running as an orphan, no longer counted`,
    ),
  };
}

/** ClaimObject, an orphan that matches: adopted (AdoptPod) unless the controller is being deleted. */
function adoptOrphan(c: Controller, selector: Selector, pod: Pod, sentences: ClaimSentences): ClaimDecision {
  const kind = c.kind;
  if (isBeingDeleted(c)) {
    return ignore(
      pod,
      'ControllerDeleting',
      sentences.say(`ControllerDeletingOrphan\0${kind}`, () => `an orphan that matches the selector, but the ${kind} is being deleted, so it adopts nothing`),
    );
  }
  const shown = selector.toString() || '(empty: matches every pod)';
  return {
    pod,
    decision: 'adopt',
    reason: 'OrphanMatching',
    claimed: true,
    message: sentences.say(
      `OrphanMatching\0${kind}\0${shown}`,
      () => `it has no controller and its labels match the selector ${shown}: the ${kind} adopts it (adds itself as controller owner) and counts it`,
    ),
  };
}

function ignore(pod: Pod, reason: PodReason, message: string): ClaimDecision {
  return { pod, decision: 'ignore', reason, message, claimed: false };
}
