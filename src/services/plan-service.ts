// From flags to a plan: read the snapshot (files or the live cluster, read-only), choose the
// emulated upstream version, select controllers, and run the core planner.

import type { Connection, ConnectionFlags } from '../cluster/kubeconfig.js';
import { namespaceOf } from '../core/controller.js';
import { ClusterPlanner, type SyncDecision } from '../core/plan.js';
import type { Plan } from '../core/plan-types.js';
import { parseSelectorString } from '../core/selector.js';
import type { Controller, Snapshot } from '../core/types.js';
import { behaviourFor, minorFromServer, NEWEST_MINOR, parseFeatureGates, parseKubeVersion, type Behaviour } from '../core/versions.js';
import { UserError } from '../errors.js';
import { parseByteQuantity } from '../input/read-input.js';
import type { Progress } from './progress.js';
import { describeTarget, type Target } from './targets.js';

export interface SourceOptions {
  filename?: string[];
  namespace?: string;
  allNamespaces?: boolean;
  selector?: string;
  /** With filename: the most bytes read from one source, a quantity such as 512Mi. */
  maxInputSize?: string;
  connection: ConnectionFlags;
}

export interface ModelOptions {
  now?: string;
  replicas?: number;
  kubeVersion?: string;
  featureGates?: string;
  burstReplicas?: number;
  /** Keep the decisions behind the plan, for a sync that carries them out (reconcile). */
  keepDecisions?: boolean;
}

export interface PlanContext {
  planner: ClusterPlanner;
  plan: Plan;
  /** The decisions the plan shows, one per planned controller (empty unless kept). */
  decisions: SyncDecision[];
  behaviour: Behaviour;
  nowMs: number;
  source: 'file' | 'cluster';
  selected: Controller[];
  notices: string[]; // warnings for stderr
  connection: Connection | null;
  snapshot: Snapshot;
  /** The namespace a live read was scoped to (null = all namespaces or files). */
  namespace: string | null;
}

export interface PlanIO {
  stdin?: NodeJS.ReadableStream;
  progress: Progress;
  env?: NodeJS.ProcessEnv;
  clock?: () => number;
}

export function parseNow(text: string | undefined, clock: () => number): number {
  if (text === undefined) return clock();
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UserError(`invalid --now ${JSON.stringify(text)}: expected an RFC 3339 time such as 2026-01-01T00:00:00Z`);
  return ms;
}

/** The snapshot: from files, or a paginated read of the live cluster. */
export async function readSnapshot(
  src: SourceOptions,
  io: PlanIO,
): Promise<{ snapshot: Snapshot; source: 'file' | 'cluster'; notices: string[]; serverMinor: string | null; connection: Connection | null; namespace: string | null }> {
  const notices: string[] = [];
  const maxInputBytes = src.maxInputSize === undefined ? undefined : parseByteQuantity(src.maxInputSize);
  if (src.filename && src.filename.length) {
    const { loadSnapshotFiles } = await import('../input/snapshot-files.js');
    const loaded = await loadSnapshotFiles(src.filename, {
      stdin: io.stdin,
      maxInputBytes,
      onProgress: (done: number, total: number) => io.progress.update(`reading snapshot: ${Math.round((100 * done) / Math.max(total, 1))}%`),
    });
    io.progress.done();
    const skipped = Object.entries(loaded.skippedKinds);
    if (skipped.length) {
      const n = skipped.reduce((a, [, k]) => a + k, 0);
      notices.push(`skipped ${n} object${n === 1 ? '' : 's'} of other kinds (${skipped.map(([k, c]) => `${k}: ${c}`).join(', ')})`);
    }
    return { snapshot: loaded.snapshot, source: 'file', notices, serverMinor: null, connection: null, namespace: null };
  }
  const { connect } = await import('../cluster/kubeconfig.js');
  const { readCluster } = await import('../cluster/read.js');
  const connection = connect({ ...src.connection, namespace: src.namespace }, io.env ?? process.env);
  const namespace = src.allNamespaces ? null : connection.namespace;
  const read = await readCluster(connection, { namespace }, { onProgress: (p) => io.progress.update(`reading ${p.resource}: ${p.items.toLocaleString('en-US')} (page ${p.pages})`) });
  io.progress.done();
  return { snapshot: read.snapshot, source: 'cluster', notices, serverMinor: read.serverVersion?.minor ?? null, connection, namespace };
}

export function chooseBehaviour(model: ModelOptions, serverMinor: string | null, notices: string[]): Behaviour {
  let minor = NEWEST_MINOR;
  if (model.kubeVersion !== undefined) {
    const v = parseKubeVersion(model.kubeVersion);
    if (!v.ok) throw new UserError(v.error);
    minor = v.minor;
  } else if (serverMinor !== null) {
    const m = minorFromServer(serverMinor);
    if (m.note) notices.push(m.note);
    minor = m.minor;
  }
  const gates = parseFeatureGates(model.featureGates);
  if (!gates.ok) throw new UserError(gates.error);
  const b = behaviourFor(minor, gates.gates);
  if (b.error) throw new UserError(b.error);
  notices.push(...b.warnings);
  return b.behaviour;
}

/** Controllers in scope: namespace, -l, and names (each name must exist). */
export function selectControllers(planner: ClusterPlanner, src: SourceOptions, targets: Target[], liveNamespace: string | null, source: 'file' | 'cluster'): Controller[] {
  const nsFilter = source === 'file' ? (src.allNamespaces ? null : (src.namespace ?? null)) : liveNamespace;
  let pool = planner.controllers.filter((c) => nsFilter === null || namespaceOf(c) === nsFilter);
  if (src.selector !== undefined) {
    const sel = parseSelectorString(src.selector);
    if (!sel.ok) throw new UserError(sel.error);
    pool = pool.filter((c) => sel.selector.matches(c.metadata.labels));
  }
  if (targets.length === 0) return pool;
  const chosen = new Set<Controller>();
  for (const t of targets) {
    const found = pool.filter((c) => c.metadata.name === t.name && (t.kind === null || c.kind === t.kind));
    if (found.length === 0) {
      const where = nsFilter === null ? (source === 'file' ? ' in the snapshot' : '') : ` in namespace "${nsFilter}"`;
      throw new UserError(`${describeTarget(t)} not found${where}`);
    }
    const kinds = new Set(found.map((c) => c.kind));
    if (t.kind === null && kinds.size > 1) throw new UserError(`"${t.name}" names both a ReplicaSet and a ReplicationController: say rs/${t.name} or rc/${t.name}`);
    for (const c of found) chosen.add(c);
  }
  return [...chosen];
}

/**
 * Reads, chooses the behaviour, selects and plans. `restrict`, when given, narrows the selected
 * controllers further (a follow-up read of the controllers a sync wrote to, a saved plan's).
 */
export async function preparePlan(src: SourceOptions, model: ModelOptions, targets: Target[], io: PlanIO, restrict?: (c: Controller) => boolean): Promise<PlanContext> {
  const nowMs = parseNow(model.now, io.clock ?? Date.now);
  const read = await readSnapshot(src, io);
  const notices = [...read.notices];
  const behaviour = chooseBehaviour(model, read.serverMinor, notices);
  // The planner reports only the selected controllers (what-if applied to them), but reads all.
  const chosen = new Set<string>();
  const isChosen = (c: Controller) => chosen.has(c.metadata.uid + '/' + c.kind);
  const planner = new ClusterPlanner(read.snapshot, {
    now: nowMs,
    behaviour,
    source: read.source,
    burstReplicas: model.burstReplicas,
    include: isChosen,
    replicasOverride: model.replicas === undefined ? undefined : (c) => (isChosen(c) ? model.replicas : undefined),
  });
  const selected = selectControllers(planner, src, targets, read.namespace, read.source).filter((c) => !restrict || restrict(c));
  for (const c of selected) chosen.add(c.metadata.uid + '/' + c.kind);
  const { plan, decisions } = planner.decideAll(model.keepDecisions === true);
  for (const c of plan.controllers) {
    if (c.skip?.reason === 'InvalidSelector') notices.push(`${c.kind} ${c.namespace}/${c.name}: ${c.skip.message}`);
  }
  return { planner, plan, decisions, behaviour, nowMs, source: read.source, selected, notices, connection: read.connection, snapshot: read.snapshot, namespace: read.namespace };
}
