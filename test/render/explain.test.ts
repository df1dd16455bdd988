import { describe, expect, it } from 'vitest';
import type { ExplainModel, ExplainPodRow } from '../../src/core/explain-types.js';
import { makeChalk } from '../../src/render/color.js';
import { formatDeletionCost } from '../../src/render/explain-pods.js';
import { renderExplain, renderWarnings } from '../../src/render/explain.js';
import { brokenModel, burstModel, dbModel, fullPlan, leavingModel, planOf, webModel, webRs, workerModel } from './fixtures.js';

const plain = makeChalk(0);
const color = makeChalk(1);
const ESC = '\x1b';

function explain(model: ExplainModel, width = 100): string {
  return renderExplain(model, { chalk: plain, width });
}

/** The lines of one section, from its heading to the next blank line before a heading. */
function section(out: string, heading: string): string {
  const start = out.indexOf(`\n${heading}`);
  if (start === -1) throw new Error(`no section ${heading}`);
  const rest = out.slice(start + 1);
  const end = rest.search(/\n\n(?=[A-Z])/);
  return end === -1 ? rest : rest.slice(0, end + 1);
}

function rowOf(out: string, name: string): string[] {
  const line = out.split('\n').find((l) => l.trimStart().startsWith(name + ' '));
  if (!line) throw new Error(`no row ${name}`);
  return line.trim().split(/ {2,}/);
}

describe('renderExplain: a ReplicationController (snapshot)', () => {
  it('renders the whole story as plain text', () => {
    expect(explain(dbModel)).toBe(
      [
        'ReplicationController default/db: this sync would create 1',
        '  Owner:              standalone (no controller owner)',
        '  Replicas:           desired 2, current 1 (active pods it owns after adopt/release)',
        '  Selector:           app=db',
        '  Template labels:    app=db',
        '  Min ready seconds:  0',
        '  Generation:         1',
        '  Kubernetes:         1.35 (behaviour emulated)',
        '  Evaluated at:       2026-01-01T00:00:00Z',
        '',
        'Pods (1)',
        '  NAME    DECISION  REASON         NODE    PHASE    READY   RESTARTS  AGE   DELETION-COST  ORDER',
        '  db-abc  keep      OwnedMatching  node-1  Running  yes 3h  0         3h4m  -              -',
        '',
        'Creation',
        '  create 1 pod in one batch',
        '',
        'Status (before → after)',
        '  FIELD                 BEFORE  AFTER',
        '  replicas              1       1',
        '  fullyLabeledReplicas  1       1',
        '  readyReplicas         1       1',
        '  availableReplicas     1       1',
        '  observedGeneration    1       1',
        '  conditions            <none>  <none>',
        "  after: counted before this sync's creates and deletes (the next sync counts them)",
        '  no status write: nothing changed',
        '',
      ].join('\n'),
    );
  });
});

describe('renderExplain: a drifted ReplicaSet', () => {
  const out = explain(webModel, 120);

  it('has a header with owner, siblings, replicas, selector, template labels and versions', () => {
    expect(out.startsWith('ReplicaSet shop/web-7d4f8: this sync would adopt 1, release 1, delete 1 and write status\n')).toBe(true);
    expect(out).toContain('Owner:              controlled by Deployment shop/web (uid 0b6f3c1e-8a7d-4e2f-b1c0-9d8e7f6a5b4c)');
    expect(out).toContain('Siblings:           web-6c9f1');
    expect(out).toContain('Replicas:           desired 3, current 4 (active pods it owns after adopt/release)');
    expect(out).toContain('Selector:           app=web,pod-template-hash=7d4f8');
    expect(out).toContain('Template labels:    app=web,pod-template-hash=7d4f8');
    expect(out).toContain('Min ready seconds:  10');
    expect(out).toContain('Kubernetes:         1.35');
    expect(out).toContain('Evaluated at:       2026-01-01T00:00:00Z');
  });

  it('lists every pod with decision, reason, node, phase, readiness, restarts, age, cost and order', () => {
    const pods = section(out, 'Pods (6)');
    expect(pods.split('\n')[1].trim().split(/ {2,}/)).toEqual([
      'NAME',
      'DECISION',
      'REASON',
      'NODE',
      'PHASE',
      'READY',
      'RESTARTS',
      'AGE',
      'DELETION-COST',
      'ORDER',
    ]);
    expect(rowOf(pods, 'old-job-1')).toEqual(['old-job-1', 'ignore', 'Inactive', 'node-1', 'Succeeded', 'no', '0', '120d', '-', '-']);
    expect(rowOf(pods, 'web-7d4f8-a')).toEqual(['web-7d4f8-a', 'keep', 'OwnedMatching', 'node-1', 'Running', 'yes 3h', '0', '3h4m', '-007 (= -7)', '-']);
    expect(rowOf(pods, 'web-7d4f8-b')).toEqual([
      'web-7d4f8-b',
      'keep',
      'OwnedMatching',
      'node-2',
      'Running',
      'yes 0s',
      '2 (+1)',
      '45s',
      '+5 (invalid → 0)',
      '-',
    ]);
    expect(rowOf(pods, 'web-7d4f8-q')).toEqual(['web-7d4f8-q', 'release', 'OwnedNotMatching', 'node-3', 'Running', 'yes 11m', '0', '12m', '-', '-']);
    expect(rowOf(pods, 'web-7d4f8-x')).toEqual(['web-7d4f8-x', 'adopt', 'OrphanMatching', 'node-1', 'Running', 'yes 2d', '0', '2d5h', '-', '-']);
    // deleted by this sync: its DECISION says so beside its ORDER, not "keep"
    expect(rowOf(pods, 'web-7d4f8-z')).toEqual(['web-7d4f8-z', 'delete', 'OwnedMatching', '<none>', 'Pending', 'no', '0', '30s', '-', '#1']);
    expect(pods).toContain('RESTARTS (+n): n restarts of sidecar init containers');
  });

  it('explains every pod that is not simply kept', () => {
    const pods = section(out, 'Pods (6)');
    expect(pods).toContain('  web-7d4f8-x adopt: has no controller owner and matches app=web: an owner reference to this ReplicaSet is added');
    expect(pods).toContain('  web-7d4f8-q release: owned by this ReplicaSet but its labels (app=web-debug)');
    expect(pods).toContain('  old-job-1 ignore: phase Succeeded');
    expect(pods).not.toContain('web-7d4f8-a keep:');
  });

  it("gives the deletion order with the planner's sentence and the pods that stay", () => {
    expect(section(out, 'Deletion order')).toBe(
      [
        'Deletion order (delete 1 of 4 active pods)',
        '  1. web-7d4f8-z — Unscheduled: it has no node, while web-7d4f8-a (the first pod that stays) runs on node-1',
        '  stays: web-7d4f8-a, web-7d4f8-b, web-7d4f8-x (3 pods)',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('\nCreation');
  });

  it('compares the status before and after, and names the write and the re-check', () => {
    const status = section(out, 'Status (before → after)');
    expect(rowOf(status, 'replicas')).toEqual(['replicas', '3', '4', 'changed']);
    expect(rowOf(status, 'readyReplicas')).toEqual(['readyReplicas', '3', '3']);
    expect(rowOf(status, 'availableReplicas')).toEqual(['availableReplicas', '3', '2', 'changed']);
    expect(rowOf(status, 'observedGeneration')).toEqual(['observedGeneration', '4', '5', 'changed']);
    expect(rowOf(status, 'terminatingReplicas')).toEqual(['terminatingReplicas', '0', '0']);
    expect(status).toContain('  status write: PUT /apis/apps/v1/namespaces/shop/replicasets/web-7d4f8/status\n');
    expect(status).toContain('  re-checked in 10s, when web-7d4f8-b has been ready for minReadySeconds (10s)');
  });

  it('lists the warnings', () => {
    expect(section(out, 'Warnings (1)')).toBe(
      ['Warnings (1)', '  ! selector app=web overlaps with ReplicaSet shop/web-legacy: both try to adopt the same orphans', '    pods: web-7d4f8-x', ''].join(
        '\n',
      ),
    );
  });

  it('falls back to minReadySeconds when no pod explains the requeue', () => {
    const model = { ...webModel, plan: { ...webRs, requeueAfterSeconds: 7.25 } };
    expect(explain(model)).toContain('re-checked in 7.3s (minReadySeconds)');
  });
});

describe('renderExplain: other situations', () => {
  it('puts an invalid selector up front and says upstream does nothing for it', () => {
    const out = explain(brokenModel);
    expect(out).toContain('  Invalid selector:   values: must be non-empty for operator NotIn');
    expect(out).toContain('Skipped: InvalidSelector');
    expect(out.replace(/\n +/g, ' ')).toContain(
      'Upstream does nothing at all for this ReplicaSet: no pod is claimed (nothing adopted or released), nothing is created or deleted, no status is written',
    );
    expect(out).toContain('nothing is created or deleted: skipped (InvalidSelector)');
    expect(out).toContain('no status write: upstream skips a controller whose selector is invalid');
    expect(out).not.toContain('status write: PUT');
    expect(out.indexOf('Skipped: InvalidSelector')).toBeLessThan(out.indexOf('Pods (0)'));
  });

  it('says an owner does not exist, and that a scale to zero has no order', () => {
    const out = explain(workerModel);
    expect(out.replace(/\n +/g, ' ')).toContain('controlled by Deployment batch/worker (uid d-worker) — this Deployment does not exist');
    const del = section(out, 'Deletion order');
    expect(del.replace(/\n +/g, ' ')).toContain('scale to zero: all 2 active pods go. Upstream deletes them all at once, without ranking them');
    expect(del).toContain('  - worker-1 — ScaleToZero: every active pod is deleted: no pod is kept');
    expect(del).not.toMatch(/\n {2}1\. /);
    expect(del).not.toContain('stays:');
    expect(rowOf(section(out, 'Pods (2)'), 'worker-2').at(-1)).toBe('#2');
  });

  it('explains a controller being deleted: no actions, status still written', () => {
    const out = explain(leavingModel);
    expect(out).toContain('Skipped: ControllerDeleting');
    expect(out).toContain('the ReplicaSet has a deletionTimestamp (2025-12-31T23:59:00Z)');
    expect(out.replace(/\n +/g, ' ')).toContain(
      'The ReplicaSet is being deleted: nothing is created, deleted, adopted or released. Pods it owns that still match are counted, and the status is still written.',
    );
    const status = section(out, 'Status (before → after)');
    expect(rowOf(status, 'conditions')).toEqual(['conditions', 'ReplicaFailure=True (FailedCreate)', '<none>', 'changed']);
    expect(status).toContain('  condition ReplicaFailure removed');
    expect(status).toContain('status write: PUT /apis/apps/v1/namespaces/batch/replicasets/leaving/status');
    expect(out).toContain('  stray ignore: an orphan that matches, but a controller being deleted adopts nothing');
  });

  it('says nothing about existence when the owner kind is not read', () => {
    const out = explain({ ...workerModel, owner: { kind: 'Deployment', name: 'worker', uid: 'd-worker', found: null } });
    expect(out).toContain('  Owner:              controlled by Deployment batch/worker (uid d-worker)\n');
    expect(out).not.toContain('does not exist');
  });

  it('explains pending expectations', () => {
    const plan = {
      ...dbModel.plan,
      create: { count: 0, batches: [] },
      skip: { reason: 'ExpectationsPending' as const, message: 'waiting for 1 create to be observed' },
    };
    const out = explain({ ...dbModel, plan }).replace(/\n +/g, ' ');
    expect(out).toContain('Skipped: ExpectationsPending waiting for 1 create to be observed');
    expect(out).toContain('pods are claimed and the status is written, but nothing is created or deleted in this sync');
    expect(out).toContain('nothing is created or deleted: skipped (ExpectationsPending)');
  });

  it('describes slow-start batches and the burst cap', () => {
    const out = explain(burstModel());
    expect(section(out, 'Creation').replace(/\n +/g, ' ')).toBe(
      'Creation create 500 pods in slow-start batches 1, 2, 4, 8, 16, 32, 64, 128, 245 (a batch starts only when every create of the previous one succeeded) ' +
        'capped by the burst limit: 1200 pods are missing, 500 are created in this sync, the rest in later syncs\n',
    );
    expect(out).toContain('  ! 1200 pods are missing; at most 500 are created per sync');
  });

  it('writes RC status to the core API path and hides terminatingReplicas it does not have', () => {
    const out = explain({ ...dbModel, plan: { ...dbModel.plan, statusChanged: true } });
    expect(out).toContain('status write: PUT /api/v1/namespaces/default/replicationcontrollers/db/status');
    expect(out).not.toContain('terminatingReplicas');
  });
});

describe('renderExplain: width and colour', () => {
  const longPods: ExplainPodRow[] = webModel.pods.map((p) => ({
    ...p,
    name: p.name.replace('web-7d4f8', 'payments-gateway-frontend-7d4f8b9c5'),
    node: p.node === null ? null : `ip-10-0-1-23.eu-west-1.compute.internal-${p.node}`,
  }));
  const wide: ExplainModel = { ...webModel, pods: longPods };

  it.each([80, 100, 132])('never cuts a name or a reason at %i columns: a row too wide is left to the terminal to wrap', (width) => {
    const out = explain(wide, width);
    expect(out).not.toContain('…');
    for (const p of longPods) {
      expect(out).toContain(` ${p.name} `);
      if (p.node !== null) expect(out).toContain(` ${p.node} `);
    }
    // prose still wraps to the width; only table rows may be longer
    for (const line of out.split('\n')) if (!/^ {2}\S+ {2}/.test(line)) expect(line.length, line).toBeLessThanOrEqual(width);
  });

  it('never goes below 80 columns and defaults to 100', () => {
    expect(explain(wide, 40)).toBe(explain(wide, 80));
    expect(renderExplain(wide, { chalk: plain })).toBe(explain(wide, 100));
    expect(explain(wide, Number.NaN)).toBe(explain(wide, 100));
  });

  it('splits the pods table in two when one does not fit, each keeping its columns', () => {
    const out = explain(webModel, 80);
    const pods = section(out, 'Pods (6)');
    expect(pods).toContain('  NAME         DECISION  REASON            ORDER\n');
    expect(pods).toContain('  NAME         NODE    PHASE      READY    RESTARTS  AGE   DELETION-COST\n');
    expect(rowOf(pods.split('\n\n')[1], 'web-7d4f8-b')).toEqual(['web-7d4f8-b', 'node-2', 'Running', 'yes 0s', '2 (+1)', '45s', '+5 (invalid → 0)']);
  });

  it('is plain text without colour and coloured with it', () => {
    for (const m of [webModel, brokenModel, workerModel, leavingModel, dbModel, burstModel()]) {
      expect(explain(m)).not.toContain(ESC);
      const on = renderExplain(m, { chalk: color, width: 100 });
      expect(on).toContain(ESC);
      // eslint-disable-next-line no-control-regex
      expect(on.replace(/\x1b\[[0-9;]*m/g, '')).toBe(explain(m));
    }
    const on = renderExplain(webModel, { chalk: color, width: 100 });
    expect(on).toContain(color.bold('Deletion order (delete 1 of 4 active pods)'));
    expect(on).toContain(color.bold.red('#1'));
    expect(on).toContain(color.yellow('+5 (invalid → 0)'));
  });

  it('never lets text from objects inject escape codes', () => {
    const evil: ExplainModel = {
      ...webModel,
      pods: webModel.pods.map((p) => ({ ...p, name: `${p.name}\x1b[2J`, message: 'x\x1b]0;pwned\x07' })),
      plan: { ...webRs, warnings: [{ code: 'NoTemplateLabels', message: 'evil \x1b[31m' }] },
    };
    expect(explain(evil)).not.toContain(ESC);
  });
});

describe('formatDeletionCost', () => {
  const cases: [string | null, number, string][] = [
    [null, 0, '-'],
    ['0', 0, '0'],
    ['100', 100, '100'],
    ['-5', -5, '-5'],
    ['-007', -7, '-007 (= -7)'],
    ['-2147483648', -2147483648, '-2147483648'],
    ['+5', 0, '+5 (invalid → 0)'],
    ['007', 0, '007 (invalid → 0)'],
    ['1.5', 0, '1.5 (invalid → 0)'],
    ['1e3', 0, '1e3 (invalid → 0)'],
    [' 5', 0, ' 5 (invalid → 0)'],
    ['', 0, '"" (invalid → 0)'],
    ['-', 0, '- (invalid → 0)'],
    ['2147483648', 0, '2147483648 (invalid → 0)'],
    ['a-very-long-garbage-value', 0, 'a-very-long… (invalid → 0)'],
  ];
  it.each(cases)('%j (cost %i) → %s', (annotation, cost, expected) => {
    expect(formatDeletionCost({ deletionCostAnnotation: annotation, deletionCost: cost })).toBe(expected);
  });
});

describe('renderWarnings', () => {
  it('prints one kubectl-style line per warning, pods included', () => {
    expect(renderWarnings(planOf([webRs]), plain)).toBe(
      'Warning: ReplicaSet shop/web-7d4f8: selector app=web overlaps with ReplicaSet shop/web-legacy: both try to adopt the same orphans (pods: web-7d4f8-x)\n',
    );
  });

  it('always warns about a skipped invalid selector, once', () => {
    const out = renderWarnings(fullPlan, plain);
    expect(out.match(/InvalidSelector|invalid selector/g)).toHaveLength(1);
    const noWarning = { ...brokenModel.plan, warnings: [] };
    expect(renderWarnings(planOf([noWarning]), plain)).toBe(
      'Warning: ReplicaSet shop/broken: selector tier notin (): values: must be non-empty for operator NotIn\n',
    );
    expect(renderWarnings(planOf([]), plain)).toBe('');
    expect(renderWarnings(planOf([webRs]), color)).toContain(color.bold.yellow('Warning:'));
  });
});
