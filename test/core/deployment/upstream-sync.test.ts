// upstream's pkg/controller/deployment/sync_test.go, as table tests: each row names the upstream
// test function and case, with its inputs and expected outputs (facts, not code). Read at kube
// v1.36.3 (openshift/microshift release-5.0 ab25d11482f8); the scale and cleanup rules are the same
// from 1.24 on, so every row runs at each supported minor.
import { describe, expect, it } from 'vitest';
import { generateReplicaSetName } from '../../../src/core/deployment/hash.js';
import { SyncRun } from '../../../src/core/deployment/sync-run.js';
import { cleanupDeployment, scale } from '../../../src/core/deployment/sync.js';
import type { Deployment, ReplicaSet } from '../../../src/core/types.js';
import { maxSurge, REVISION_ANNOTATION, setReplicasAnnotations } from '../../../src/core/deployment/util.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { bh, deploy, NOW, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);

/** sync_test.go's newDeployment: RollingUpdate with maxSurge and maxUnavailable 0 unless given. */
function newDeployment(replicas: number, surge = 0, unavailable = 0, revisionHistoryLimit: number | null = null): Deployment {
  const d = deploy({ replicas, maxSurge: surge, maxUnavailable: unavailable, revisionHistoryLimit });
  d.status = {};
  return d;
}

/** [name, spec.replicas, creation: 0 newest … 2 oldest] */
type RSRow = [string, number, number];
const mkRS = ([name, replicas, age]: RSRow): ReplicaSet => rs({ name, replicas, ageSeconds: 3600 * (age + 1) });

interface ScaleRow {
  name: string;
  replicas: number;
  surge?: number;
  unavailable?: number;
  /** the Deployment before: its replicas and maxSurge are the ReplicaSets' annotations */
  oldReplicas: number;
  oldSurge?: number;
  newRS: RSRow | null;
  oldRSs: RSRow[];
  /** expected sizes by name (new and old) */
  expected: Record<string, number>;
  desiredAnnotations?: Record<string, number>;
}

const SCALE: ScaleRow[] = [
  { name: 'normal scaling event: 10 -> 12', replicas: 12, oldReplicas: 10, newRS: ['foo-v1', 10, 0], oldRSs: [], expected: { 'foo-v1': 12 } },
  { name: 'normal scaling event: 10 -> 5', replicas: 5, oldReplicas: 10, newRS: ['foo-v1', 10, 0], oldRSs: [], expected: { 'foo-v1': 5 } },
  {
    name: 'proportional scaling: 5 -> 10',
    replicas: 10,
    oldReplicas: 5,
    newRS: ['foo-v2', 2, 0],
    oldRSs: [['foo-v1', 3, 1]],
    expected: { 'foo-v2': 4, 'foo-v1': 6 },
  },
  {
    name: 'proportional scaling: 5 -> 3',
    replicas: 3,
    oldReplicas: 5,
    newRS: ['foo-v2', 2, 0],
    oldRSs: [['foo-v1', 3, 1]],
    expected: { 'foo-v2': 1, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 9 -> 4',
    replicas: 4,
    oldReplicas: 9,
    newRS: ['foo-v2', 8, 0],
    oldRSs: [['foo-v1', 1, 1]],
    expected: { 'foo-v2': 4, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 7 -> 10',
    replicas: 10,
    oldReplicas: 7,
    newRS: ['foo-v3', 2, 0],
    oldRSs: [
      ['foo-v2', 3, 1],
      ['foo-v1', 2, 2],
    ],
    expected: { 'foo-v3': 3, 'foo-v2': 4, 'foo-v1': 3 },
  },
  {
    name: 'proportional scaling: 13 -> 8',
    replicas: 8,
    oldReplicas: 13,
    newRS: ['foo-v3', 2, 0],
    oldRSs: [
      ['foo-v2', 8, 1],
      ['foo-v1', 3, 2],
    ],
    expected: { 'foo-v3': 1, 'foo-v2': 5, 'foo-v1': 2 },
  },
  {
    name: 'leftover distribution: 3 -> 4',
    replicas: 4,
    oldReplicas: 3,
    newRS: ['foo-v3', 1, 0],
    oldRSs: [
      ['foo-v2', 1, 1],
      ['foo-v1', 1, 2],
    ],
    expected: { 'foo-v3': 2, 'foo-v2': 1, 'foo-v1': 1 },
  },
  {
    name: 'leftover distribution: 3 -> 2',
    replicas: 2,
    oldReplicas: 3,
    newRS: ['foo-v3', 1, 0],
    oldRSs: [
      ['foo-v2', 1, 1],
      ['foo-v1', 1, 2],
    ],
    expected: { 'foo-v3': 1, 'foo-v2': 1, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling (no new rs): 4 -> 5',
    replicas: 5,
    oldReplicas: 4,
    newRS: null,
    oldRSs: [
      ['foo-v2', 2, 1],
      ['foo-v1', 2, 2],
    ],
    expected: { 'foo-v2': 3, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 6 -> 0',
    replicas: 0,
    oldReplicas: 6,
    newRS: ['foo-v3', 3, 0],
    oldRSs: [
      ['foo-v2', 2, 1],
      ['foo-v1', 1, 2],
    ],
    expected: { 'foo-v3': 0, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 0 -> 6',
    replicas: 6,
    oldReplicas: 6,
    newRS: ['foo-v3', 0, 0],
    oldRSs: [
      ['foo-v2', 0, 1],
      ['foo-v1', 0, 2],
    ],
    expected: { 'foo-v3': 6, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'failed rs update',
    replicas: 5,
    oldReplicas: 5,
    newRS: ['foo-v3', 2, 0],
    oldRSs: [
      ['foo-v2', 1, 1],
      ['foo-v1', 1, 2],
    ],
    expected: { 'foo-v3': 2, 'foo-v2': 2, 'foo-v1': 1 },
    desiredAnnotations: { 'foo-v2': 3 },
  },
  {
    name: 'deployment with surge pods',
    replicas: 20,
    surge: 2,
    oldReplicas: 10,
    oldSurge: 2,
    newRS: ['foo-v2', 6, 0],
    oldRSs: [['foo-v1', 6, 1]],
    expected: { 'foo-v2': 11, 'foo-v1': 11 },
  },
  {
    name: 'change both surge and size',
    replicas: 50,
    surge: 6,
    oldReplicas: 10,
    oldSurge: 3,
    newRS: ['foo-v2', 5, 0],
    oldRSs: [['foo-v1', 8, 1]],
    expected: { 'foo-v2': 22, 'foo-v1': 34 },
  },
  {
    name: 'change both size and template',
    replicas: 14,
    oldReplicas: 10,
    newRS: null,
    oldRSs: [
      ['foo-v2', 7, 0],
      ['foo-v1', 3, 1],
    ],
    expected: { 'foo-v2': 10, 'foo-v1': 4 },
  },
];

function runScale(row: ScaleRow, minor: number): Record<string, number> {
  const d = newDeployment(row.replicas, row.surge, row.unavailable);
  const old = newDeployment(row.oldReplicas, row.oldSurge);
  const annotate = (r: ReplicaSet) => {
    const desired = row.desiredAnnotations?.[r.metadata.name] ?? row.oldReplicas;
    const annotations = { ...(r.metadata.annotations ?? {}) };
    setReplicasAnnotations(annotations, desired, desired + maxSurge(old));
    r.metadata.annotations = annotations;
    return r;
  };
  const newRS = row.newRS ? annotate(mkRS(row.newRS)) : null;
  const oldRSs = row.oldRSs.map((r) => annotate(mkRS(r)));
  const run = new SyncRun(d, [...oldRSs, ...(newRS ? [newRS] : [])], NOW, bh(minor));
  scale(run, newRS, oldRSs);
  const sizes: Record<string, number> = {};
  for (const r of [...(newRS ? [newRS] : []), ...oldRSs]) sizes[r.metadata.name] = r.spec.replicas ?? 1;
  for (const w of run.writes) if (w.kind === 'updateReplicaSet') sizes[w.replicaSet.metadata.name] = w.replicaSet.spec.replicas ?? 1;
  return sizes;
}

describe('TestScale', () => {
  it.each(SCALE.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    for (const minor of MINORS) expect(runScale(row, minor), `1.${minor}`).toEqual(row.expected);
  });

  it('saturated but broken new replica set does not affect old pods', () => {
    const d = newDeployment(2, 1, 1);
    const old = newDeployment(2, 1, 1);
    const newRS = rs({ name: 'foo-v2', replicas: 2, available: 0, ageSeconds: 3600 });
    const oldRS = rs({ name: 'foo-v1', replicas: 1, ageSeconds: 7200 });
    for (const r of [newRS, oldRS]) {
      const a = { ...(r.metadata.annotations ?? {}) };
      setReplicasAnnotations(a, 2, 2 + maxSurge(old));
      r.metadata.annotations = a;
    }
    const run = new SyncRun(d, [newRS, oldRS], NOW, bh());
    scale(run, newRS, [oldRS]);
    expect(run.writes.filter((w) => w.kind === 'updateReplicaSet')).toEqual([]);
  });
});

describe('TestDeploymentController_cleanupDeployment', () => {
  /** newRSWithStatus: [name, spec.replicas, status.replicas] */
  const withStatus = ([name, spec, actual]: [string, number, number], deleted = false) =>
    rs({ name, replicas: spec, actual, deletionTimestamp: deleted ? new Date(NOW).toISOString() : undefined });
  const rows: [string, [string, number, number][], number, number, boolean][] = [
    [
      'three empty, limit 1 → 2 deleted',
      [
        ['foo-1', 0, 0],
        ['foo-2', 0, 0],
        ['foo-3', 0, 0],
      ],
      1,
      2,
      false,
    ],
    [
      'only the one with spec.replicas = status.replicas = 0, limit 0',
      [
        ['foo-1', 0, 0],
        ['foo-2', 0, 1],
        ['foo-3', 1, 0],
        ['foo-4', 1, 1],
      ],
      0,
      1,
      false,
    ],
    [
      'two empty, limit 0 → 2 deleted',
      [
        ['foo-1', 0, 0],
        ['foo-2', 0, 0],
      ],
      0,
      2,
      false,
    ],
    [
      'two with pods, limit 0 → none',
      [
        ['foo-1', 1, 1],
        ['foo-2', 1, 1],
      ],
      0,
      0,
      false,
    ],
    ['already being deleted, limit 0 → none', [['foo-1', 0, 0]], 0, 0, true],
    [
      'with unlimited revisionHistoryLimit',
      [
        ['foo-1', 0, 0],
        ['foo-2', 0, 0],
        ['foo-3', 0, 0],
      ],
      2147483647,
      0,
      false,
    ],
  ];
  it.each(rows)('%s', (_name, sets, limit, deletions, deleted) => {
    for (const minor of MINORS) {
      const oldRSs = sets.map((s) => withStatus(s, deleted));
      const run = new SyncRun(newDeployment(1, 0, 0, limit), oldRSs, NOW, bh(minor));
      cleanupDeployment(run, oldRSs);
      expect(run.writes.filter((w) => w.kind === 'deleteReplicaSet').length, `1.${minor}`).toBe(deletions);
    }
  });
});

describe('TestDeploymentController_cleanupDeploymentOrder (creation: foo-1 < foo-2 < foo-3 < foo-4)', () => {
  /** [name, replicas, revision ('' for none)] */
  const rows: [string, [string, number, string][], number, string[]][] = [
    [
      'revision order: rs1 < rs2, delete rs1',
      [
        ['foo-1', 0, '1'],
        ['foo-2', 0, '2'],
      ],
      1,
      ['foo-1'],
    ],
    [
      'revision order: rs2 < rs1, delete rs2',
      [
        ['foo-1', 0, '2'],
        ['foo-2', 0, '1'],
      ],
      1,
      ['foo-2'],
    ],
    [
      "rs1 has revision but rs2 doesn't have revision, delete rs2",
      [
        ['foo-1', 0, '1'],
        ['foo-2', 0, ''],
      ],
      1,
      ['foo-2'],
    ],
    [
      "rs1 doesn't have revision while rs2 has revision, delete rs1",
      [
        ['foo-1', 0, ''],
        ['foo-2', 0, '2'],
      ],
      1,
      ['foo-1'],
    ],
    [
      'revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2',
      [
        ['foo-1', 1, '1'],
        ['foo-2', 0, '2'],
        ['foo-3', 0, '3'],
      ],
      1,
      ['foo-2'],
    ],
    [
      "revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete",
      [
        ['foo-1', 1, '1'],
        ['foo-2', 1, '2'],
        ['foo-3', 0, '3'],
      ],
      1,
      [],
    ],
    [
      'revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4',
      [
        ['foo-1', 0, '3'],
        ['foo-2', 0, '1'],
        ['foo-3', 0, '4'],
        ['foo-4', 0, '2'],
      ],
      2,
      ['foo-2', 'foo-4'],
    ],
    // not upstream's case: a revision that does not parse compares by creation (ReplicaSetsByRevision)
    [
      'an unparseable revision sorts by creation: foo-1 (revision "x") goes before foo-2 (revision 1)',
      [
        ['foo-1', 0, 'x'],
        ['foo-2', 0, '1'],
      ],
      1,
      ['foo-1'],
    ],
    [
      'an unparseable revision sorts by creation: foo-1 (revision 5) goes before foo-2 (revision "x")',
      [
        ['foo-1', 0, '5'],
        ['foo-2', 0, 'x'],
      ],
      1,
      ['foo-1'],
    ],
  ];
  it.each(rows)('%s', (_name, sets, limit, deleted) => {
    for (const minor of MINORS) {
      const oldRSs = sets.map(([name, replicas, revision], i) => {
        const r = rs({ name, replicas, ageSeconds: 600 - 60 * i });
        r.metadata.annotations = revision === '' ? {} : { [REVISION_ANNOTATION]: revision };
        return r;
      });
      const run = new SyncRun(newDeployment(1, 0, 0, limit), oldRSs, NOW, bh(minor));
      cleanupDeployment(run, oldRSs);
      const names = run.writes.flatMap((w) => (w.kind === 'deleteReplicaSet' ? [w.name] : [])).sort();
      expect(names, `1.${minor}`).toEqual(deleted);
    }
  });
});

describe('TestGenerateReplicaSetName / TestDeploymentController_generateReplicaSetName (1.34 and later; before, never cut)', () => {
  const rows: [string, string, string, string][] = [
    ['short name', 'my-deployment', 'abcde12345', 'my-deployment-abcde12345'],
    ['maximum length without truncating', 'a'.repeat(242), 'abcde12345', `${'a'.repeat(242)}-abcde12345`],
    ['very long deployment name is truncated', 'b'.repeat(250), 'abcde12345', `${'b'.repeat(242)}-abcde12345`],
    ['very long hash is not truncated', 'd'.repeat(252), 'h'.repeat(252), `${'d'.repeat(252)}-${'h'.repeat(252)}`],
  ];
  it.each(rows)('%s', (_name, deployment, hash, want) => {
    expect(generateReplicaSetName(deployment, hash, true)).toBe(want);
    expect(generateReplicaSetName(deployment, hash, false)).toBe(`${deployment}-${hash}`);
  });
  it('the behaviour cuts names from 1.34', () => {
    expect(MINORS.filter((m) => bh(m).replicaSetNameTruncated)).toEqual(MINORS.filter((m) => m >= 34));
  });
});
