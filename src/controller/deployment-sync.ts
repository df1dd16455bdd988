// What `run` does with one decision of the deployment controller (decideDeployment): its writes,
// in order, on the API server, stopping at the first error. The decision is made on the informer
// caches; what must stay true here:
// - nothing is decided: every request is one of decision.writes, in its order, with its body,
//   except upstream's answers to what only the server can say (a create refused: the
//   ReplicaSetCreateError condition; AlreadyExists by another's ReplicaSet: collisionCount + 1);
// - an update is sent with the resourceVersion the decision's object had (the cache's), unless
//   this sync already wrote that object: then the server's answer's (as upstream carries the
//   returned object on), so that only a write the decision calls a conflict meets a 409;
// - the created ReplicaSet is named here (<deployment>-<pod-template-hash>, core/deployment/hash.ts):
//   the decision leaves the name to the runtime, and later writes of it in the sync use that name.

import { controllerRef } from '../core/pod.js';
import { podTemplateHash, withPodTemplateHash } from '../core/deployment/hash.js';
import type { Deployment, DeploymentDecision, DeploymentWrite } from '../core/deployment/types.js';
import { equalIgnoreHash, hasProgressDeadline, newCondition, REASON, setCondition } from '../core/deployment/util.js';
import { formatTime } from '../core/time.js';
import type { ReplicaSet } from '../core/types.js';
import { ApiError, type DeploymentControllerAPI } from '../runtime/api.js';

/** One write carried out: what was sent, and the server's answer (null: the write failed). */
export interface DeploymentWriteOutcome {
  write: DeploymentWrite;
  /** The object the request names (the created ReplicaSet by its server name). */
  target: string;
  ok: boolean;
  code?: number;
  error?: string;
  note?: string;
}

export interface DeploymentSyncResult {
  outcomes: DeploymentWriteOutcome[];
  /** The first error: the sync ends there and the key is requeued rate-limited. */
  error: Error | null;
}

const placeholderName = (d: Deployment) => `${d.metadata.name}-<pod-template-hash>`;

/** Carries out `decision.writes` for `d` (the cached Deployment the decision read) and `cached` (its namespace's ReplicaSets). */
export async function carryOutDeploymentWrites(
  api: DeploymentControllerAPI,
  d: Deployment,
  cached: readonly ReplicaSet[],
  decision: DeploymentDecision,
  onWrite?: (o: DeploymentWriteOutcome) => void,
  nowMs: number = Date.now(),
): Promise<DeploymentSyncResult> {
  const ns = d.metadata.namespace ?? 'default';
  const byName = new Map(cached.map((rs) => [rs.metadata.name, rs]));
  /** The resourceVersion of each ReplicaSet this sync wrote, as the server answered. */
  const written = new Map<string, string | undefined>();
  let created: ReplicaSet | null = null;
  const outcomes: DeploymentWriteOutcome[] = [];
  const report = (o: DeploymentWriteOutcome) => {
    outcomes.push(o);
    onWrite?.(o);
  };
  const realName = (name: string) => (created && name === placeholderName(d) ? created.metadata.name : name);

  for (const w of decision.writes) {
    let target = '';
    try {
      switch (w.kind) {
        case 'adoptReplicaSet': {
          target = w.name;
          const rs = byName.get(w.name);
          const patch = {
            metadata: {
              ownerReferences: [
                { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
              ],
              uid: rs?.metadata.uid,
            },
          };
          const out = await api.patchReplicaSet(ns, w.name, patch);
          written.set(w.name, out.metadata.resourceVersion);
          report({ write: w, target, ok: true });
          break;
        }
        case 'releaseReplicaSet': {
          target = w.name;
          const rs = byName.get(w.name);
          const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: d.metadata.uid }], uid: rs?.metadata.uid } };
          try {
            const out = await api.patchReplicaSet(ns, w.name, patch);
            written.set(w.name, out.metadata.resourceVersion);
            report({ write: w, target, ok: true });
          } catch (e) {
            // ReleaseReplicaSet: a ReplicaSet gone or no longer ours is released already
            if (e instanceof ApiError && (e.notFound || e.invalid)) report({ write: w, target, ok: true, note: 'already released' });
            else throw e;
          }
          break;
        }
        case 'createReplicaSet': {
          const hash = podTemplateHash(w.replicaSet.spec.template, d.status?.collisionCount);
          const body = w.hashKnown ? structuredClone(w.replicaSet) : withPodTemplateHash(w.replicaSet, d.metadata.name, hash);
          target = body.metadata.name;
          // uid, creationTimestamp and resourceVersion are the server's to set
          const { uid: _uid, creationTimestamp: _ct, resourceVersion: _rv, ...metadata } = body.metadata;
          try {
            created = await api.createReplicaSet(ns, { ...body, metadata } as ReplicaSet);
            report({ write: w, target, ok: true });
          } catch (e) {
            if (e instanceof ApiError && e.code >= 100 && !(e.code === 409 && e.reason === 'AlreadyExists') && hasProgressDeadline(d)) {
              // getNewReplicaSet: a create the server refused is said in the Progressing condition
              // (False, ReplicaSetCreateError), written on the status as the sync read it; that
              // write's own failure is not the sync's error. A fenced or unanswered create writes nothing more.
              const failed = structuredClone(d);
              failed.status ??= {};
              const msg = `Failed to create new replica set "${target}": ${e.message}`;
              setCondition(failed.status, newCondition('Progressing', 'False', REASON.FailedRSCreate, msg, formatTime(nowMs)));
              await api.updateDeploymentStatus(ns, failed).catch(() => undefined);
            }
            if (!(e instanceof ApiError) || e.code !== 409 || e.reason !== 'AlreadyExists') throw e;
            // getNewReplicaSet: ours, with this template, is the new ReplicaSet (the cache was behind);
            // anyone else's is a hash collision: collisionCount++ and try again with another name
            const existing = await api.getReplicaSet(ns, target);
            if (controllerRef(existing)?.uid === d.metadata.uid && equalIgnoreHash(existing.spec.template, d.spec.template)) {
              created = existing;
              report({ write: w, target, ok: true, note: 'already exists with this template' });
              break;
            }
            const bumped = structuredClone(d);
            bumped.status = { ...(bumped.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
            await api.updateDeploymentStatus(ns, bumped);
            throw new ApiError(
              `hash collision: ${target} exists with another template; collisionCount is now ${bumped.status.collisionCount}`,
              409,
              'AlreadyExists',
            );
          }
          written.set(created.metadata.name, created.metadata.resourceVersion);
          break;
        }
        case 'updateReplicaSet': {
          let body: ReplicaSet;
          if (created && w.replicaSet.metadata.name === placeholderName(d)) {
            // the ReplicaSet this sync created: its server object, with the decision's size and annotations
            body = { ...structuredClone(created), spec: { ...structuredClone(created.spec), replicas: w.replicaSet.spec.replicas } };
            body.metadata.annotations = { ...(w.replicaSet.metadata.annotations ?? {}) };
          } else body = structuredClone(w.replicaSet);
          target = body.metadata.name;
          if (!w.conflict && written.has(target)) body.metadata.resourceVersion = written.get(target);
          const out = await api.updateReplicaSet(ns, body);
          written.set(target, out.metadata.resourceVersion);
          if (created && created.metadata.name === target) created = out;
          report({ write: w, target, ok: true });
          break;
        }
        case 'deleteReplicaSet': {
          target = w.name;
          try {
            await api.deleteReplicaSet(ns, w.name);
            report({ write: w, target, ok: true });
          } catch (e) {
            if (e instanceof ApiError && e.notFound) report({ write: w, target, ok: true, note: 'already gone' });
            else throw e;
          }
          break;
        }
        case 'updateDeploymentStatus': {
          target = d.metadata.name;
          const status = structuredClone(w.status);
          if (created) {
            // the conditions name the created ReplicaSet as the decision could not
            for (const c of status.conditions ?? []) if (c.message) c.message = c.message.split(placeholderName(d)).join(created.metadata.name);
          }
          const body: Deployment = { ...structuredClone(d), status };
          body.metadata.annotations = { ...w.annotations };
          await api.updateDeploymentStatus(ns, body);
          report({ write: w, target, ok: true });
          break;
        }
      }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      report({ write: w, target: target ? realName(target) : '', ok: false, code: e instanceof ApiError ? e.code : undefined, error: err.message });
      return { outcomes, error: err };
    }
  }
  return { outcomes, error: decision.error === null ? null : new Error(decision.error) };
}
