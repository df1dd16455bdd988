// The verdict on one write of a ReplicaSet by the deployment controller (a create, a scale, an
// update of its annotations, an adoption, a release, a delete) against the writes the rules of
// core/deployment (decideDeployment) make in that sync. The words of the arithmetic are the
// decision's own (its actions' messages): this file only says which write they are about.
// Pure, as the replay that asks for it.

import type { DeploymentDecision, DeploymentWrite } from '../core/deployment/types.js';
import { equalIgnoreHash, rsReplicas } from '../core/deployment/util.js';
import type { ReplicaSet } from '../core/types.js';
import type { Verdict } from './verdicts.js';

/** A logged write of a ReplicaSet, as the deployment controller's rules name their writes. */
export type LoggedReplicaSetWrite =
  | { kind: 'create'; name: string | null; replicas: number; template: unknown }
  | { kind: 'update'; name: string; from: number; to: number; annotations: string[] }
  | { kind: 'adopt' | 'release' | 'delete'; name: string };

/** The verdict, and which of the decision's writes it is (null: none). */
export interface WriteMatch {
  verdict: Verdict;
  index: number | null;
}

/** The logged write of `before` (the ReplicaSet as the log showed it, absent for a create) into `after`. */
export function loggedWrite(
  verb: string,
  subresource: string | null,
  name: string | null,
  before: ReplicaSet | undefined,
  after: ReplicaSet | undefined,
  scaleTo: number | undefined,
): LoggedReplicaSetWrite | null {
  if (verb === 'create' && subresource === null) return after ? { kind: 'create', name, replicas: rsReplicas(after), template: after.spec.template } : null;
  if (name === null) return null;
  if (verb === 'delete') return { kind: 'delete', name };
  if (!before) return null;
  if (subresource === 'scale') return typeof scaleTo === 'number' ? { kind: 'update', name, from: rsReplicas(before), to: scaleTo, annotations: [] } : null;
  if (subresource !== null || !after) return null;
  const owner = (rs: ReplicaSet) => rs.metadata.ownerReferences?.find((r) => r.controller)?.uid;
  if (!owner(before) && owner(after)) return { kind: 'adopt', name };
  if (owner(before) && !owner(after)) return { kind: 'release', name };
  const a0 = before.metadata.annotations ?? {};
  const a1 = after.metadata.annotations ?? {};
  const annotations = [...new Set([...Object.keys(a0), ...Object.keys(a1)])].filter((k) => a0[k] !== a1[k]).sort();
  return { kind: 'update', name, from: rsReplicas(before), to: rsReplicas(after), annotations };
}

/** The decision's writes in words: "scale web-7d9c5 3 → 2, then write the Deployment's status". */
function writesText(d: DeploymentDecision): string {
  const words = d.writes.map((w) => {
    switch (w.kind) {
      case 'createReplicaSet':
        return `create a ReplicaSet with ${rsReplicas(w.replicaSet)} replicas`;
      case 'updateReplicaSet':
        return w.from === w.to ? `update ReplicaSet ${w.replicaSet.metadata.name}'s annotations` : `scale ${w.replicaSet.metadata.name} ${w.from} → ${w.to}`;
      case 'deleteReplicaSet':
        return `delete ${w.name}`;
      case 'adoptReplicaSet':
        return `adopt ${w.name}`;
      case 'releaseReplicaSet':
        return `release ${w.name}`;
      default:
        return "write the Deployment's status";
    }
  });
  const skip = d.skip ? ` (${d.skip.message})` : d.error ? ` (the sync ends with: ${d.error})` : '';
  return `${words.length === 0 ? 'write nothing' : words.join(', then ')}${skip}`;
}

function sameWrite(w: DeploymentWrite, l: LoggedReplicaSetWrite): boolean {
  switch (l.kind) {
    case 'create':
      return w.kind === 'createReplicaSet';
    case 'update':
      return w.kind === 'updateReplicaSet' && w.replicaSet.metadata.name === l.name;
    case 'delete':
      return w.kind === 'deleteReplicaSet' && w.name === l.name;
    case 'adopt':
      return w.kind === 'adoptReplicaSet' && w.name === l.name;
    case 'release':
      return w.kind === 'releaseReplicaSet' && w.name === l.name;
  }
}

/** The decision's explanation of the write about `name` (its action's message), else ''. */
function actionText(d: DeploymentDecision, verb: 'create' | 'scale' | 'delete', name: string | null): string {
  const a = d.actions.find((x) => x.verb === verb && (verb === 'create' || x.replicaSet === name));
  return a ? a.message : '';
}

/**
 * The logged write `l` against the writes of `d` not yet seen (`done`): the first of them that
 * writes the same ReplicaSet the same way. `what` is the write in words ("… scaled ReplicaSet
 * web-5f6b4 from 4 to 3"), which the message begins with.
 */
export function matchWrite(d: DeploymentDecision, done: ReadonlySet<number>, l: LoggedReplicaSetWrite, what: string): WriteMatch {
  const by = `by the ${d.path} sync of Deployment ${d.name}`;
  let near: { i: number; w: DeploymentWrite } | null = null;
  for (let i = 0; i < d.writes.length; i++) {
    const w = d.writes[i];
    if (done.has(i) || !sameWrite(w, l)) continue;
    if (w.kind === 'createReplicaSet' && l.kind === 'create') {
      if (!equalIgnoreHash(w.replicaSet.spec.template, l.template)) continue;
      if (rsReplicas(w.replicaSet) !== l.replicas) {
        near ??= { i, w };
        continue;
      }
      const why = actionText(d, 'create', null);
      return { index: i, verdict: { ok: true, reason: null, message: `${what}: created with ${l.replicas} ${by}${why ? `: ${why}` : ''}` } };
    }
    if (w.kind === 'updateReplicaSet' && l.kind === 'update') {
      if (w.to !== l.to) {
        near ??= { i, w };
        continue;
      }
      if (w.from === w.to)
        return {
          index: i,
          verdict: { ok: true, reason: null, message: `${what}: its annotations${l.annotations.length ? ` (${l.annotations.join(', ')})` : ''} written ${by}` },
        };
      const why = actionText(d, 'scale', l.name);
      return { index: i, verdict: { ok: true, reason: null, message: `${what}: ${l.name} scaled ${w.from} → ${w.to} ${by}${why ? `: ${why}` : ''}` } };
    }
    const why = l.kind === 'delete' ? actionText(d, 'delete', l.name) : '';
    const did = { delete: 'deleted', adopt: 'adopted', release: 'released' }[l.kind as 'delete' | 'adopt' | 'release'];
    return { index: i, verdict: { ok: true, reason: null, message: `${what}: ${did} ${by}${why ? `: ${why}` : ''}` } };
  }
  if (near?.w.kind === 'createReplicaSet')
    return {
      index: null,
      verdict: {
        ok: false,
        reason: null,
        message: `${what}: spec.replicas ${(l as { replicas: number }).replicas} where the rules create it with ${rsReplicas(near.w.replicaSet)} (${actionText(d, 'create', null) || writesText(d)})`,
      },
    };
  if (near?.w.kind === 'updateReplicaSet') {
    const why = actionText(d, 'scale', near.w.replicaSet.metadata.name);
    return {
      index: null,
      verdict: {
        ok: false,
        reason: null,
        message: `${what}: spec.replicas ${(l as { to: number }).to} where the rules scale it to ${near.w.to}${why ? ` (${why})` : ''}`,
      },
    };
  }
  return { index: null, verdict: { ok: false, reason: null, message: `${what}, which the rules do not do: they ${writesText(d)}` } };
}
