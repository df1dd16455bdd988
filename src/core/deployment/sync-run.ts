// The deployment controller's client and informer caches, as one in-memory run of one sync: the
// API requests it sends (recorded, in order) and the objects the API server holds after each.
// What must stay true: an update sent with an object the cache held before that object was last
// written is a 409 Conflict (the Deployment controller's caches are not refreshed within a sync),
// and a status update of the Deployment after a first one is a conflict too (upstream keeps the
// object it held and drops the server's answer).

import { formatTime } from '../time.js';
import type { ReplicaSet, Deployment, DeploymentStatus } from '../types.js';
import type { Behaviour } from '../versions.js';
import type { DeploymentAction, DeploymentEvent, DeploymentWrite } from './types.js';
import { deploymentReplicas, maxSurge, replicasAnnotationsNeedUpdate, rsReplicas, setReplicasAnnotations } from './util.js';

/** An error that ends the sync (upstream's `return err`): the key is requeued rate-limited. */
export class SyncError extends Error {}

export class SyncRun {
  readonly writes: DeploymentWrite[] = [];
  readonly actions: DeploymentAction[] = [];
  /** The first status write that succeeded, null while none has. */
  firstStatus: DeploymentStatus | null = null;
  /** What the server holds per ReplicaSet name: an update with another object conflicts. */
  private readonly server = new Map<string, ReplicaSet>();
  private deploymentWritten = false;
  /** The name given to a ReplicaSet created without a computable hash (never sent as a name). */
  readonly unnamed = new Set<ReplicaSet>();
  readonly now: string;
  /** Writes that are not actions (annotations, minReadySeconds), in words, for explanations. */
  readonly notes: string[] = [];

  constructor(
    /** The Deployment copy the sync works on (mutated, as upstream mutates its DeepCopy). */
    readonly d: Deployment,
    cache: readonly ReplicaSet[],
    readonly nowMs: number,
    readonly behaviour: Behaviour,
  ) {
    for (const rs of cache) this.server.set(rs.metadata.name, rs);
    this.now = formatTime(nowMs);
  }

  /** The display name of a ReplicaSet: null for one created whose name (hash) is not known. */
  nameOf(rs: ReplicaSet): string | null {
    return this.unnamed.has(rs) ? null : rs.metadata.name;
  }

  adopt(rs: ReplicaSet): ReplicaSet {
    const adopted = clone(rs);
    this.server.set(rs.metadata.name, adopted);
    this.writes.push({ kind: 'adoptReplicaSet', name: rs.metadata.name });
    return rs; // the claim keeps the cached object
  }

  release(rs: ReplicaSet): void {
    this.server.set(rs.metadata.name, clone(rs));
    this.writes.push({ kind: 'releaseReplicaSet', name: rs.metadata.name });
  }

  /** A PUT of a ReplicaSet: the updated object, or a SyncError when `sent` is stale. `event`: recorded once it succeeded. */
  updateReplicaSet(original: ReplicaSet, sent: ReplicaSet, message: string | null, event: DeploymentEvent | null = null): ReplicaSet {
    const from = rsReplicas(original);
    const to = rsReplicas(sent);
    const conflict = this.server.get(original.metadata.name) !== original && !this.unnamed.has(original);
    this.writes.push({ kind: 'updateReplicaSet', replicaSet: sent, from, to, conflict, event });
    if (conflict)
      throw new SyncError(
        `Operation cannot be fulfilled on replicasets.apps "${original.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    this.server.set(original.metadata.name, sent);
    if (this.unnamed.has(original)) this.unnamed.add(sent);
    if (from !== to && message !== null) {
      // a ReplicaSet created in this sync already has its size: only named ones are scaled
      const name = this.nameOf(sent);
      if (name !== null) this.actions.push({ verb: 'scale', replicaSet: name, from, to, message });
    }
    return sent;
  }

  createReplicaSet(rs: ReplicaSet, hashKnown: boolean, message: string): ReplicaSet {
    const replicas = rsReplicas(rs);
    // getNewReplicaSet: "Scaled up" only for a create with replicas (not for one found to exist)
    const from = this.behaviour.scalingEventWording === 'from-to' ? ' from 0' : '';
    const event: DeploymentEvent | null =
      replicas > 0 ? { type: 'Normal', reason: 'ScalingReplicaSet', message: `Scaled up replica set ${rs.metadata.name}${from} to ${replicas}` } : null;
    this.writes.push({ kind: 'createReplicaSet', replicaSet: rs, hashKnown, truncateName: this.behaviour.replicaSetNameTruncated, event });
    if (!hashKnown) this.unnamed.add(rs);
    else this.server.set(rs.metadata.name, rs);
    this.actions.push({ verb: 'create', replicaSet: hashKnown ? rs.metadata.name : null, replicas, message });
    return rs;
  }

  deleteReplicaSet(rs: ReplicaSet, message: string): void {
    this.server.delete(rs.metadata.name);
    this.writes.push({ kind: 'deleteReplicaSet', name: rs.metadata.name });
    this.actions.push({ verb: 'delete', replicaSet: rs.metadata.name, message });
  }

  /** UpdateStatus of the Deployment copy: the first succeeds, any later one conflicts. */
  updateStatus(status: DeploymentStatus): void {
    const conflict = this.deploymentWritten;
    this.writes.push({ kind: 'updateDeploymentStatus', status: clone(status), annotations: { ...(this.d.metadata.annotations ?? {}) }, conflict });
    if (conflict)
      throw new SyncError(
        `Operation cannot be fulfilled on deployments.apps "${this.d.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    this.deploymentWritten = true;
    this.firstStatus = clone(status);
  }

  /**
   * Update of the Deployment copy (rollback's): it conflicts after a status write of this sync, as
   * upstream sends the object it held before that write.
   */
  updateDeployment(warning: DeploymentEvent | null, event: DeploymentEvent | null): void {
    const conflict = this.deploymentWritten;
    this.writes.push({ kind: 'updateDeployment', deployment: clone(this.d), conflict, warning, event });
    if (conflict)
      throw new SyncError(
        `Operation cannot be fulfilled on deployments.apps "${this.d.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    this.deploymentWritten = true;
  }

  /**
   * scaleReplicaSet: a write when the size or the replicas annotations (desired, max = replicas +
   * maxSurge) differ; the updated object (or `rs` when nothing was written) and whether it scaled.
   */
  scaleReplicaSet(rs: ReplicaSet, newScale: number, message: string): { scaled: boolean; rs: ReplicaSet } {
    const desired = deploymentReplicas(this.d);
    const max = desired + maxSurge(this.d);
    const sizeNeedsUpdate = rsReplicas(rs) !== newScale;
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return { scaled: false, rs };
    const copy = clone(rs);
    copy.spec.replicas = newScale;
    const annotations = { ...(copy.metadata.annotations ?? {}) };
    setReplicasAnnotations(annotations, desired, max);
    copy.metadata.annotations = annotations;
    const updated = this.updateReplicaSet(rs, copy, message, sizeNeedsUpdate ? this.scalingEvent(rs.metadata.name, rsReplicas(rs), newScale) : null);
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  /** scaleReplicaSet's ScalingReplicaSet Event, in the emulated minor's words. */
  private scalingEvent(name: string, from: number, to: number): DeploymentEvent {
    const op = from < to ? 'up' : 'down';
    const wording = this.behaviour.scalingEventWording;
    const message =
      wording === 'from-to'
        ? `Scaled ${op} replica set ${name} from ${from} to ${to}`
        : wording === 'to-from'
          ? `Scaled ${op} replica set ${name} to ${to} from ${from}`
          : `Scaled ${op} replica set ${name} to ${to}`;
    return { type: 'Normal', reason: 'ScalingReplicaSet', message };
  }

  /** scaleReplicaSetAndRecordEvent: nothing at all when the size is already `newScale`. */
  scaleReplicaSetAndRecordEvent(rs: ReplicaSet, newScale: number, message: string): { scaled: boolean; rs: ReplicaSet } {
    if (rsReplicas(rs) === newScale) return { scaled: false, rs };
    return this.scaleReplicaSet(rs, newScale, message);
  }
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}
