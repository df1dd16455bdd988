// The words a first hour with explain and diff reads (issue 26 item 9): explain's one-line verdict,
// "current" defined where it is printed, the status counted before the sync's creates and deletes,
// the --now hint for an old snapshot, and kubectl's rules for NAMESPACE and "No resources found".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeChalk } from '../../src/render/color.js';
import { namespaceColumnShown, noResourcesFound, renderDiffTable } from '../../src/render/diff-table.js';
import { renderExplain, verdictText } from '../../src/render/explain.js';
import { explainController } from '../../src/services/explain-service.js';
import { newestTimestamp, preparePlan, STALE_SNAPSHOT_MS, staleSnapshotHint, type SourceOptions } from '../../src/services/plan-service.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const NOW = '2026-01-01T00:00:00Z';
const io = (clock?: () => number) => ({ progress: { update() {}, done() {} }, clock });
const file = (name: string, more: Partial<SourceOptions> = {}): SourceOptions => ({ filename: [join(EXAMPLES, `${name}.yaml`)], connection: {}, ...more });
const plain = makeChalk(0);

async function story(example: string, name: string, now = NOW): Promise<string> {
  const s = await explainController(file(example), { now }, { kind: 'ReplicaSet', name }, io());
  return renderExplain(s.stories().models[0], { chalk: plain, width: 100 });
}

describe("explain's verdict, the meaning of current, and when the status is counted", () => {
  it('opens with what the sync would write, in the plan counts', async () => {
    const out = await story('drifted-replicaset', 'shop-web');
    expect(out.split('\n')[0]).toBe('ReplicaSet shop/shop-web: this sync would adopt 1, release 1, create 1 and write status');
  });

  it('an in-sync controller: "in sync: this sync would write nothing"', async () => {
    const out = await story('invalid-selector', 'frontend');
    expect(out.split('\n')[0]).toBe('ReplicaSet web/frontend: in sync: this sync would write nothing');
  });

  it('a skipped controller says so first', async () => {
    const out = await story('invalid-selector', 'broken');
    expect(out.split('\n')[0]).toBe('ReplicaSet web/broken: skipped (InvalidSelector): this sync would write nothing');
  });

  it('a deletion names its count; the verdict is the plan, whatever the width', async () => {
    const s = await explainController(file('scale-down-ranking'), { now: NOW }, { kind: 'ReplicaSet', name: 'search-5f7c9' }, io());
    const c = s.plan.controllers[0];
    expect(verdictText(c)).toBe('this sync would delete 6 and write status');
    const narrow = renderExplain(s.stories().models[0], { chalk: plain, width: 80 }).split('\n');
    expect(narrow[0]).toBe('ReplicaSet search/search-5f7c9: this sync would delete 6 and write status');
  });

  it('defines "current" where it is printed, and says the status is counted before the creates and deletes', async () => {
    const out = await story('drifted-replicaset', 'shop-web');
    expect(out).toContain('Replicas:           desired 5, current 4 (active pods it owns after adopt/release)');
    const status = out.slice(out.indexOf('Status (before → after)'));
    expect(status).toContain("after: counted before this sync's creates and deletes (the next sync counts them)");
  });
});

describe('plurals', () => {
  it('a burst limit of 1: "1 is deleted", "1 is created"', async () => {
    const story1 = async (example: string, name: string) => {
      const s = await explainController(file(example), { now: NOW, burstReplicas: 1 }, { kind: 'ReplicaSet', name }, io());
      return renderExplain(s.stories().models[0], { chalk: plain, width: 200 });
    };
    expect(await story1('scale-down-ranking', 'search-5f7c9')).toContain(
      'capped by the burst limit: 6 pods are too many, 1 is deleted in this sync, the rest in later syncs',
    );
    const s = await explainController(file('drifted-replicaset'), { now: NOW, burstReplicas: 1, replicas: 8 }, { kind: 'ReplicaSet', name: 'shop-web' }, io());
    const out = renderExplain(s.stories().models[0], { chalk: plain, width: 200 });
    expect(out).toContain('pods are missing, 1 is created in this sync, the rest in later syncs');
  });
});

describe('a snapshot much older than now: one hint about --now', () => {
  it("finds the newest of the objects' timestamps", async () => {
    const ctx = await preparePlan(file('orphans-and-released'), { now: NOW }, [], io());
    expect(new Date(newestTimestamp(ctx.snapshot)!).toISOString()).toBe('2025-12-31T23:59:40.000Z');
    expect(newestTimestamp({ controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] })).toBeNull();
  });

  it('reads only the time fields, at any depth, as strings or dates; the zero time and other fields are no time', () => {
    const pod = (extra: Record<string, unknown>) => ({ metadata: { name: 'p', creationTimestamp: '2025-01-01T00:00:00Z' }, ...extra }) as never;
    const at = (pods: unknown[], rs: unknown[] = []) => {
      const ms = newestTimestamp({ controllers: { ReplicaSet: rs as never[], ReplicationController: [] }, pods: pods as never[] });
      return ms === null ? null : new Date(ms).toISOString();
    };
    expect(at([pod({})])).toBe('2025-01-01T00:00:00.000Z');
    // a condition in a list keeps its field's name; a container's state two levels down
    expect(at([pod({ status: { conditions: [{ lastTransitionTime: '2025-03-01T00:00:00Z' }] } })])).toBe('2025-03-01T00:00:00.000Z');
    expect(at([pod({ status: { containerStatuses: [{ state: { running: { startedAt: '2025-04-01T10:00:00Z' } } }] } })])).toBe('2025-04-01T10:00:00.000Z');
    // not a time field, a value that is not a time, Go's zero time: none counts
    expect(at([pod({ metadata: { name: '2030-01-01T00:00:00Z', annotations: { time: 'soon' }, deletionTimestamp: '0001-01-01T00:00:00Z' } })])).toBeNull();
    // a YAML reader's Date, and a controller's time
    expect(at([pod({ status: { startTime: new Date('2025-05-01T00:00:00Z') } })], [{ metadata: { creationTimestamp: '2025-06-01T00:00:00Z' } }])).toBe(
      '2025-06-01T00:00:00.000Z',
    );
    expect(at([pod({ status: { startTime: new Date(Number.NaN) } })])).toBe('2025-01-01T00:00:00.000Z');
  });

  it('read without --now a year later: a hint naming the --now to pass', async () => {
    const later = Date.parse('2026-12-01T00:00:00Z');
    const ctx = await preparePlan(
      file('orphans-and-released'),
      {},
      [],
      io(() => later),
    );
    expect(ctx.notices).toContain(
      "the snapshot's newest timestamp is 2025-12-31T23:59:40Z, 334d before now: it is planned as of now; to plan it as of when it was taken, pass --now 2025-12-31T23:59:40Z",
    );
  });

  it('no hint with --now, within a day, or for a snapshot without times', async () => {
    const later = Date.parse('2026-12-01T00:00:00Z');
    const withNow = await preparePlan(
      file('orphans-and-released'),
      { now: '2026-12-01T00:00:00Z' },
      [],
      io(() => later),
    );
    expect(withNow.notices.some((n) => n.includes('--now'))).toBe(false);
    const newest = Date.parse('2025-12-31T23:59:40Z');
    const fresh = await preparePlan(
      file('orphans-and-released'),
      {},
      [],
      io(() => newest + STALE_SNAPSHOT_MS),
    );
    expect(fresh.notices.some((n) => n.includes('--now'))).toBe(false);
    expect(staleSnapshotHint(fresh.snapshot, newest + STALE_SNAPSHOT_MS + 1000)).toMatch(
      /^the snapshot's newest timestamp is 2025-12-31T23:59:40Z, 24h before now/,
    );
    expect(staleSnapshotHint({ controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] }, later)).toBeNull();
  });
});

describe("kubectl get's rules for NAMESPACE and for an empty result", () => {
  it('the NAMESPACE column only with -A, however many namespaces the rows span', async () => {
    expect(namespaceColumnShown(true)).toBe(true);
    expect(namespaceColumnShown(false)).toBe(false);
    const ctx = await preparePlan({ filename: [EXAMPLES], connection: {} }, { now: NOW }, [], io());
    expect(new Set(ctx.plan.controllers.map((c) => c.namespace)).size).toBeGreaterThan(1);
    const table = renderDiffTable(ctx.plan, { wide: false, noHeaders: false, chalk: plain, namespaceColumn: namespaceColumnShown(false) });
    expect(table.split('\n')[0]).toMatch(/^KIND\s+NAME\s+DESIRED/);
    const all = renderDiffTable(ctx.plan, { wide: false, noHeaders: false, chalk: plain, namespaceColumn: namespaceColumnShown(true) });
    expect(all.split('\n')[0]).toMatch(/^NAMESPACE\s+KIND\s+NAME/);
  });

  it('"No resources found in default namespace." as kubectl names the namespace', () => {
    expect(noResourcesFound({ allNamespaces: false, namespace: 'default', snapshot: false })).toBe('No resources found in default namespace.\n');
    expect(noResourcesFound({ allNamespaces: true, namespace: 'default', snapshot: false })).toBe('No resources found\n');
    expect(noResourcesFound({ allNamespaces: false, namespace: null, snapshot: true })).toBe('No resources found in the snapshot.\n');
  });
});
