// `explain deploy/NAME --image … -o html`: a rollout foreseen (core/deployment/rollout.ts), drawn on
// history's timeline page as history would show it had it happened. Pure: the prediction's steps
// become the page's events (the deployment controller's ReplicaSet writes, the ReplicaSet
// controller's pod creates and deletes with their ranking reasons), each one's cause chain the
// writes that made it happen (the change itself, and the kubelet's Ready changes and final deletes
// the stated assumptions put in between). What must stay true: nothing here decides or reorders
// anything; every write and its words are the prediction's, only placed in time and named.

import type { RolloutPrediction, RolloutStep } from '../../core/deployment/rollout.js';
import { PLAN_API_VERSION } from '../../core/plan-types.js';
import type { CauseStep, HISTORY_API_VERSION, HistoryEvent, HistoryVerb } from '../../history/types.js';
import { assumptionWords, changeWords, endWords } from '../rollout.js';
import { plural } from '../text.js';

/** Who the prediction's writes are by, in the names an audit log gives them. */
const DEPLOYMENT_CONTROLLER_USER = 'system:serviceaccount:kube-system:deployment-controller';
const REPLICASET_CONTROLLER_USER = 'system:serviceaccount:kube-system:replicaset-controller';
/** The kubelet the assumptions stand for (the prediction places its new pods on no real node). */
export const PREDICTED_KUBELET = 'system:node:predicted-node';
/** The author of the change foreseen. */
const CHANGE_AUTHOR = 'you';

/** What the page says of the prediction in its header: the change, the assumptions, the end. */
interface PredictionNote {
  deployment: { namespace: string; name: string };
  /** The change in kubectl's words: `set image app=nginx:1.27`. */
  change: string;
  assumptions: RolloutPrediction['assumptions'];
  /** The assumptions in words (as the text output's Assumes line). */
  assumes: string;
  /** How it ends, in words (as the text output's Result line). */
  result: string;
  complete: boolean;
  /** When the change is made (the prediction's now): its second 0. */
  evaluatedAt: string;
  snapshot: 'file' | 'cluster';
}

/** The page's document of a prediction: history's events, and the note in place of a coverage. */
export interface PredictedHistory {
  apiVersion: typeof HISTORY_API_VERSION;
  kind: 'PredictedHistory';
  source: 'prediction';
  kubernetesVersion: string;
  from: string;
  to: string;
  prediction: PredictionNote;
  events: HistoryEvent[];
}

/**
 * The names of the pods each ReplicaSet-controller create step makes, in step order. The
 * prediction names a new pod NAME-newN, N counting every uid and name it made up so far (a
 * ReplicaSet created, then per pod its name and its uid), in the order of its steps.
 */
export function predictedPodNames(steps: readonly RolloutStep[]): Map<number, string[]> {
  const names = new Map<number, string[]>();
  let seq = 0;
  steps.forEach((s, i) => {
    if (s.controller === 'deployment' && s.verb === 'create') seq += 1;
    if (s.controller !== 'replicaset' || s.verb !== 'create') return;
    const made: string[] = [];
    for (let k = 0; k < s.pods; k++) {
      seq += 1;
      made.push(`${s.replicaSet}-new${seq}`);
      seq += 1;
    }
    names.set(i, made);
  });
  return names;
}

interface Kubelet {
  /** The kubelet's changes, in time order: a new pod turning ready, a deleted pod gone. */
  steps: CauseStep[];
  /** Final deletes of pods with a termination grace: [ms, pod, ReplicaSet]. */
  gone: { at: number; pod: string; replicaSet: string; message: string }[];
}

/** What the assumptions make the kubelet do within the prediction (up to its end). */
function kubeletOf(p: RolloutPrediction, names: Map<number, string[]>, timeOf: (at: number) => number): Kubelet {
  const ns = p.deployment.namespace;
  const end = timeOf(p.end.at);
  const deletedAt = new Map<string, number>();
  for (const s of p.steps) if (s.controller === 'replicaset' && s.verb === 'delete' && !deletedAt.has(s.pod)) deletedAt.set(s.pod, timeOf(s.at));
  const out: Kubelet = { steps: [], gone: [] };
  const ready = p.assumptions.podReadyAfterSeconds;
  p.steps.forEach((s, i) => {
    if (ready === null) return;
    for (const pod of names.get(i) ?? []) {
      const t = timeOf(s.at + ready);
      const deleted = deletedAt.get(pod);
      if (t > end || (deleted !== undefined && deleted <= t)) continue;
      out.steps.push(kubeletStep(t, 'status', ns, pod, 'a Ready condition', 'False → True'));
    }
  });
  const grace = p.assumptions.podGoneAfterSeconds;
  if (grace > 0)
    for (const s of p.steps) {
      if (s.controller !== 'replicaset' || s.verb !== 'delete' || deletedAt.get(s.pod) !== timeOf(s.at)) continue;
      const t = timeOf(s.at + grace);
      if (t > end) continue;
      out.gone.push({ at: t, pod: s.pod, replicaSet: s.replicaSet, message: `deleted pod ${s.pod}: gone ${grace}s after its delete (--pod-gone-after)` });
      out.steps.push(kubeletStep(t, 'delete', ns, s.pod, 'the object', 'deleted'));
    }
  out.steps.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return out;
}

function kubeletStep(ms: number, verb: HistoryVerb, namespace: string, pod: string, field: string, change: string): CauseStep {
  return { time: iso(ms), user: PREDICTED_KUBELET, verb, object: { kind: 'Pod', namespace, name: pod }, field, change };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The change foreseen, as the write on the Deployment that starts the rollout. */
function changeStep(p: RolloutPrediction, time: string): CauseStep {
  const object = { kind: 'Deployment', namespace: p.deployment.namespace, name: p.deployment.name };
  const c = p.change;
  if (c.image === undefined && c.templateLabels === undefined && c.undo === undefined)
    return { time, user: CHANGE_AUTHOR, verb: 'scale', object, field: 'spec.replicas', change: `→ ${c.replicas}` };
  const parts: string[] = [];
  if (c.image)
    parts.push(
      `image ${Object.entries(c.image)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
  if (c.templateLabels)
    parts.push(
      `labels ${Object.entries(c.templateLabels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
    );
  if (c.undo) parts.push(c.undo.toRevision === 0 ? 'rollout undo' : `rollout undo --to-revision ${c.undo.toRevision}`);
  if (c.replicas !== undefined) parts.push(`replicas → ${c.replicas}`);
  return { time, user: CHANGE_AUTHOR, verb: 'patch', object, field: 'spec.template', change: parts.join(', ') };
}

/** The deployment controller's write of one step, as history tells a write on a ReplicaSet. */
function deploymentWrite(s: Extract<RolloutStep, { controller: 'deployment' }>): { verb: HistoryVerb; message: string; field: string; change: string } {
  const why = s.message ? `: ${s.message}` : '';
  // upstream creates, updates (spec.replicas) and deletes the ReplicaSet object itself
  if (s.verb === 'create')
    return {
      verb: 'create',
      message: `created ReplicaSet ${s.replicaSet} with ${plural(s.replicas, 'replica')}${why}`,
      field: 'the object',
      change: `created with ${plural(s.replicas, 'replica')}`,
    };
  if (s.verb === 'scale') return { verb: 'update', message: `replicas ${s.from} → ${s.to}${why}`, field: 'spec.replicas', change: `${s.from} → ${s.to}` };
  return { verb: 'delete', message: `deleted ReplicaSet ${s.replicaSet}${why}`, field: 'the object', change: 'deleted' };
}

/** The prediction as the timeline page's document. */
export function predictedHistory(p: RolloutPrediction): PredictedHistory {
  const t0 = Date.parse(p.now);
  const timeOf = (at: number) => t0 + Math.round(at * 1000);
  const ns = p.deployment.namespace;
  const names = predictedPodNames(p.steps);
  const kubelet = kubeletOf(p, names, timeOf);
  const start = changeStep(p, iso(t0));
  const events: HistoryEvent[] = [];
  // per ReplicaSet, the deployment controller's last write on it and that write's cause
  const lastWrite = new Map<string, CauseStep[]>();
  // the deployment controller's instants of writes: this one and the one before (its sync sees what changed in between)
  let instant = -Infinity;
  let before = -Infinity;
  let gone = 0;
  const rsRef = (name: string) => ({ kind: 'ReplicaSet' as const, namespace: ns, name });
  const goneEvent = (g: Kubelet['gone'][number]) => event(g.at, PREDICTED_KUBELET, false, 'delete', rsRef(g.replicaSet), g.pod, null, g.message, null, null);
  p.steps.forEach((s, i) => {
    const t = timeOf(s.at);
    // the kubelet's final deletes due by now come first, as they came first
    for (; gone < kubelet.gone.length && kubelet.gone[gone].at <= t; gone++) events.push(goneEvent(kubelet.gone[gone]));
    if (s.controller === 'deployment') {
      // why it acted: what the kubelet changed since its last instant of writes, nearest first, then the change
      if (t > instant) [before, instant] = [instant, t];
      const seen = kubelet.steps.filter((k) => Date.parse(k.time) > before && Date.parse(k.time) <= t).reverse();
      const cause = [...seen, start];
      const w = deploymentWrite(s);
      events.push(event(t, DEPLOYMENT_CONTROLLER_USER, false, w.verb, rsRef(s.replicaSet), null, null, w.message, null, cause));
      const step: CauseStep = { time: iso(t), user: DEPLOYMENT_CONTROLLER_USER, verb: w.verb, object: rsRef(s.replicaSet), field: w.field, change: w.change };
      lastWrite.set(s.replicaSet, [step, ...cause]);
      return;
    }
    const cause = lastWrite.get(s.replicaSet) ?? [start];
    if (s.verb === 'delete') {
      events.push(event(t, REPLICASET_CONTROLLER_USER, true, 'delete', rsRef(s.replicaSet), s.pod, s.reason, s.message, true, cause));
      return;
    }
    for (const pod of names.get(i) ?? [])
      events.push(event(t, REPLICASET_CONTROLLER_USER, true, 'create', rsRef(s.replicaSet), pod, 'TooFewReplicas', `created pod ${pod}`, true, cause));
  });
  for (; gone < kubelet.gone.length; gone++) events.push(goneEvent(kubelet.gone[gone]));
  return {
    // the project's one API version: the plan's and the history's
    apiVersion: PLAN_API_VERSION,
    kind: 'PredictedHistory',
    source: 'prediction',
    kubernetesVersion: p.kubernetesVersion,
    from: iso(t0),
    to: iso(Math.max(timeOf(p.end.at), ...events.map((e) => Date.parse(e.time)))),
    prediction: {
      deployment: p.deployment,
      change: changeWords(p.change),
      assumptions: p.assumptions,
      assumes: assumptionWords(p),
      result: endWords(p),
      complete: p.complete,
      evaluatedAt: p.now,
      snapshot: p.source,
    },
    events,
  };
}

function event(
  ms: number,
  user: string,
  controller: boolean,
  verb: HistoryVerb,
  rs: HistoryEvent['controller'],
  pod: string | null,
  reason: string | null,
  message: string,
  predicted: boolean | null,
  cause: CauseStep[] | null,
): HistoryEvent {
  return { time: iso(ms), actor: { user, controller }, verb, controller: rs, pod, reason, message, predicted, cause };
}
