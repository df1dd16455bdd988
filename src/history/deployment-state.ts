// The Deployments of one namespace as a replayed audit log has shown them, beside the pods and
// ReplicaSets of its NamespaceState: the objects that exist, a short journal of their changes so
// that a sync of the deployment controller can be planned on the state a moment before its first
// write, and the deployment controller's syncs in progress.

import type { DeploymentDecision } from '../core/deployment/types.js';
import type { Deployment } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import { JOURNAL_MS } from './journal-state.js';
import type { CauseStep } from './types.js';

/**
 * One sync of the deployment controller for one Deployment: its writes of ReplicaSets from the
 * first one the decision explains, on the state just before it, to its status write of the
 * Deployment (or the first write the decision does not explain).
 */
export interface DeploymentSync {
  deployment: string;
  decision: DeploymentDecision | null;
  /** Why no decision could be taken (what the log lacks), else null. */
  unknown: string | null;
  /** The decision's writes (indexes into decision.writes) the log has shown already. */
  done: Set<number>;
  /** When its last write was received (ms). */
  last: number;
  /** Its status write ended it. */
  ended: boolean;
  behaviour: Behaviour;
  cause: CauseStep[] | null;
  /** The same state planned with the rules of other candidate minors (the writer's version unknown). */
  alternatives: { versions: string; decision: DeploymentDecision }[];
}

/** What one namespace holds of Deployments, as far as the log has shown them. */
export class DeploymentsState {
  readonly deployments = new Map<string, Deployment>();
  /** Deployments whose spec the log lost, or whose ReplicaSets it may not have shown, with why. */
  readonly unknown = new Map<string, string>();
  /** The deployment controller's sync of each Deployment (the last one, ended or not). */
  readonly syncs = new Map<string, DeploymentSync>();
  /** Per Deployment: the last change of a pod of its ReplicaSets that may let its rollout go on. */
  readonly podSteps = new Map<string, CauseStep>();
  private readonly journal: { at: number; name: string; prev: Deployment | undefined }[] = [];

  set(name: string, d: Deployment, at: number): void {
    this.note(at, name);
    this.deployments.set(name, d);
  }

  remove(name: string, at: number): void {
    if (this.deployments.has(name)) this.note(at, name);
    this.deployments.delete(name);
    this.unknown.delete(name);
  }

  /** The distinct times of the journal's changes after `since` (ms), newest first. */
  changeTimes(since: number): number[] {
    const out: number[] = [];
    for (let i = this.journal.length - 1; i >= 0 && this.journal[i].at > since; i--) if (out.at(-1) !== this.journal[i].at) out.push(this.journal[i].at);
    return out;
  }

  /** The Deployments as they were just before the changes made at `at` (ms) and after. */
  stateAt(at: number): Map<string, Deployment> {
    const out = new Map(this.deployments);
    for (let i = this.journal.length - 1; i >= 0 && this.journal[i].at >= at; i--) {
      const j = this.journal[i];
      if (j.prev === undefined) out.delete(j.name);
      else out.set(j.name, j.prev);
    }
    return out;
  }

  private note(at: number, name: string): void {
    this.journal.push({ at, name, prev: this.deployments.get(name) });
    let old = 0;
    while (old < this.journal.length && this.journal[old].at < at - JOURNAL_MS) old++;
    if (old > 0) this.journal.splice(0, old);
  }
}
