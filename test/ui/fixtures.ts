// Plans for the dashboard tests: the bundled examples planned by the real core, and synthetic
// clusters of any size (thousands of pods) built the way the API server would hold them.

import { fileURLToPath } from 'node:url';
import { behaviourFor, NEWEST_MINOR } from '../../src/core/versions.js';
import type { Pod, ReplicaSet, Snapshot } from '../../src/core/types.js';
import { loadSnapshotFiles } from '../../src/input/snapshot-files.js';
import { planFrame } from '../../src/services/watch/frame.js';
import type { WatchScope } from '../../src/services/watch/scope.js';
import { initialState, reduce, type Action, type WatchState } from '../../src/ui/state.js';
import type { ListRow } from '../../src/ui/list-rows.js';
import type { PlanFrame, WatchMeta } from '../../src/services/watch/contract.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const NOW = '2026-01-01T00:00:00Z';
export const NOW_MS = Date.parse(NOW);
export const behaviour = behaviourFor(NEWEST_MINOR).behaviour;

export async function loadExamples(...names: string[]): Promise<Snapshot> {
  const r = await loadSnapshotFiles(names.map((n) => `${ROOT}examples/${n}.yaml`));
  return r.snapshot;
}

export function frameOf(snapshot: Snapshot, o: { scope?: Partial<WatchScope>; at?: number; nowMs?: number } = {}): PlanFrame {
  return planFrame(snapshot, {
    behaviour,
    nowMs: o.nowMs ?? NOW_MS,
    at: o.at ?? NOW_MS,
    source: 'file',
    scope: { namespace: null, targets: [], ...o.scope },
  });
}

export const META: WatchMeta = { context: 'kind-dev', scope: 'all namespaces', mode: 'snapshot' };

export function stateWith(frame: PlanFrame | null, size = { columns: 100, rows: 30 }, meta: WatchMeta = META): WatchState {
  const s = initialState(meta, size, NOW_MS);
  return frame ? reduce(s, { type: 'snapshotChanged', frame }) : s;
}

export function apply(s: WatchState, ...actions: Action[]): WatchState {
  return actions.reduce(reduce, s);
}

export const key = (input: string, flags: Partial<Omit<import('../../src/ui/state.js').KeyInput, 'input'>> = {}): Action => ({
  type: 'key',
  key: { input, ...flags },
});

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A synthetic cluster: `controllers` ReplicaSets in `namespaces` namespaces, `podsPer` pods each,
 * all owned and ready. Every 7th ReplicaSet is scaled down by 2 (drift: deletes), every 11th
 * scaled up by 1 (drift: a create).
 */
export function syntheticSnapshot(controllers: number, podsPer: number, namespaces = 4): Snapshot {
  const replicaSets: ReplicaSet[] = [];
  const pods: Pod[] = [];
  const created = NOW_MS - 86_400_000;
  for (let i = 0; i < controllers; i++) {
    const ns = `ns-${i % namespaces}`;
    const name = `app-${String(i).padStart(4, '0')}`;
    const uid = `rs-uid-${i}`;
    const desired = i % 7 === 0 ? podsPer - 2 : i % 11 === 0 ? podsPer + 1 : podsPer;
    const labels = { app: name };
    replicaSets.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: ns, uid, generation: 1, creationTimestamp: iso(created), labels },
      spec: {
        replicas: desired,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      },
      status: {
        replicas: podsPer,
        fullyLabeledReplicas: podsPer,
        readyReplicas: podsPer,
        availableReplicas: podsPer,
        terminatingReplicas: 0,
        observedGeneration: 1,
      },
    });
    for (let j = 0; j < podsPer; j++) {
      const t = iso(created + j * 1000);
      pods.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${name}-${String(j).padStart(5, '0')}`,
          namespace: ns,
          uid: `pod-uid-${i}-${j}`,
          creationTimestamp: t,
          labels,
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid, controller: true, blockOwnerDeletion: true }],
        },
        spec: { nodeName: `node-${j % 13}`, containers: [{ name: 'app' }] },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }],
          containerStatuses: [{ name: 'app', ready: true, restartCount: j % 3 }],
        },
      });
    }
  }
  return { controllers: { ReplicaSet: replicaSets, ReplicationController: [] }, pods };
}

/** Visible width of a screen line (code points, no escape codes). */
export function width(line: string): number {
  // eslint-disable-next-line no-control-regex
  return [...line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')].length;
}

export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** Gives an ink-testing-library stdout a terminal size (it has 100 columns and no rows) and tells ink. */
export function resize(stdout: { emit(event: string): unknown }, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/** The list rows of controllers alone (no Deployments), in the order given. */
export function controllerRows(order: readonly number[]): ListRow[] {
  return order.map((index) => ({ type: 'controller', index }));
}
