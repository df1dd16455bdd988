// The confirmation of `reconcile` names the pods: the first ten of each action, then "and N more".
import { describe, expect, it } from 'vitest';
import type { PlanController } from '../../src/core/plan-types.js';
import { confirmationText, namedList, reconcileProblems, reconcileSummary, renderStaleness, stoppedSummary } from '../../src/render/reconcile-output.js';

function entry(ns: string, name: string, o: { adopt?: string[]; release?: string[]; del?: string[]; create?: number; status?: boolean }): PlanController {
  const pods = [
    ...(o.adopt ?? []).map((n) => ({ name: n, decision: 'adopt' })),
    ...(o.release ?? []).map((n) => ({ name: n, decision: 'release' })),
    { name: `${name}-kept`, decision: 'keep' },
  ];
  return {
    kind: 'ReplicaSet',
    namespace: ns,
    name,
    uid: `uid-${name}`,
    inSync: false,
    skip: null,
    replicas: { desired: 1, current: 1 },
    pods: pods.map((p) => ({ ...p, uid: `u-${p.name}`, reason: 'OwnedMatching', message: '' })),
    create: { count: o.create ?? 0, batches: [] },
    delete: (o.del ?? []).map((n) => ({ name: n, uid: `u-${n}`, reason: 'NotReady', message: '' })),
    status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1, conditions: [] },
    statusChanged: o.status ?? false,
    requeueAfterSeconds: null,
    warnings: [],
  } as PlanController;
}

describe('the confirmation', () => {
  it('names every pod up to ten, then says how many more', () => {
    const names = Array.from({ length: 13 }, (_, i) => `web-${String(i).padStart(2, '0')}`);
    expect(namedList(names.slice(0, 10))).toBe(names.slice(0, 10).join(', '));
    expect(namedList(names)).toBe(`${names.slice(0, 10).join(', ')} and 3 more`);
  });

  it('groups by controller: each delete with its ranking reason from the plan, then adopt, release, create and the status write', () => {
    const e = entry('shop', 'web', { adopt: ['a1'], release: ['r1', 'r2'], del: ['d1'], create: 2, status: true });
    e.delete[0].message = 'd1 is not ready, while web-kept (the first pod that stays) is ready: pods that are not ready go first';
    const text = confirmationText([e], ' on kind-dev');
    expect(text).toBe(
      [
        '  ReplicaSet shop/web:',
        '    delete 1 pod:',
        '      d1 (NotReady: d1 is not ready, while web-kept (the first pod that stays) is ready: pods that are not ready go first)',
        '    adopt 1 pod: a1',
        '    release 2 pods: r1, r2',
        '    create 2 pods',
        '    write its status',
        'Apply 1 controller sync on kind-dev? [y/N] ',
      ].join('\n'),
    );
    expect(text).not.toContain('web-kept,');
  });

  it('one group a controller, each with its own namespace; ten deletes named, then how many more', () => {
    const many = Array.from({ length: 12 }, (_, i) => `x${i}`);
    const text = confirmationText([entry('a', 'web', { del: many }), entry('b', 'api', { del: ['y'], create: 1 })], '');
    expect(text).toContain('  ReplicaSet a/web:\n    delete 12 pods:\n      x0 (NotReady: )\n');
    expect(text).toContain('      x9 (NotReady: )\n      and 2 more\n  ReplicaSet b/api:\n    delete 1 pod:\n      y (NotReady: )\n    create 1 pod\n');
    expect(text).not.toContain('x10');
    expect(text).toContain('Apply 2 controller syncs? [y/N] ');
  });
});

describe('the closing line and stderr', () => {
  const report = (o: { dryRun?: 'none' | 'client' | 'server'; converged?: boolean | null; syncs?: number; ok?: boolean; notice?: string | null }) => ({
    dryRun: o.dryRun ?? 'none',
    converged: o.converged ?? true,
    controllers: [
      {
        kind: 'ReplicaSet',
        namespace: 'shop',
        name: 'web',
        outcome: {
          actions: [
            { action: 'create' as const, pod: 'web-x', ok: o.ok ?? true, error: o.ok === false ? 'quota' : undefined },
            { action: 'status' as const, ok: true },
          ],
          syncs: o.syncs ?? 1,
          error: null,
          notice: o.notice ?? null,
        },
      },
    ],
  });

  it('counts what was done, and the follow-up syncs when it converged', () => {
    expect(reconcileSummary(report({}), 1)).toBe('reconciled 1 controller: adopted 0, released 0, created 1, deleted 0, status written 1, failed 0');
    expect(reconcileSummary(report({ syncs: 2 }), 1)).toMatch(/; in sync after 2 syncs$/);
    expect(reconcileSummary(report({ syncs: 2, converged: false }), 1)).not.toMatch(/in sync after/);
    expect(reconcileSummary(report({ dryRun: 'client' }), 1)).toBe('would sync 1 controller (dry run: nothing sent)');
    expect(reconcileSummary(report({}), 0)).toBe('nothing to do: every controller is in sync');
  });

  it('puts each failure and each notice on a line of its own', () => {
    expect(reconcileProblems(report({ ok: false, notice: 'not in sync after 5m (--timeout): write its status' }))).toBe(
      'error: ReplicaSet shop/web: create web-x failed: quota\nWarning: ReplicaSet shop/web: not in sync after 5m (--timeout): write its status\n',
    );
    expect(reconcileProblems(report({}))).toBe('');
    expect(renderStaleness(['a', 'b'])).toBe(
      'error: the saved plan is stale, nothing was written: planning again on fresh state gives another plan:\n  a\n  b\n',
    );
  });
});

describe('what an interrupted apply had written', () => {
  const ctl = (
    name: string,
    planned: { adopt: number; release: number; create: number; delete: number; status: number },
    actions: { action: 'adopt' | 'release' | 'create' | 'delete' | 'status'; ok: boolean }[],
  ) => ({
    kind: 'ReplicaSet',
    namespace: 'shop',
    name,
    outcome: { actions, syncs: 0, error: null, notice: null, planned, statusWritten: false },
  });
  const creates = (n: number) => Array.from({ length: n }, () => ({ action: 'create' as const, ok: true }));

  it('one line a controller it started on, with done of planned; nothing when it ran to its end', () => {
    const controllers = [
      ctl('web', { adopt: 0, release: 0, create: 254, delete: 0, status: 1 }, [...creates(148), { action: 'create', ok: false }]),
      ctl('api', { adopt: 1, release: 0, create: 0, delete: 2, status: 1 }, [
        { action: 'adopt', ok: true },
        { action: 'delete', ok: true },
        { action: 'status', ok: true },
      ]),
      ctl('idle', { adopt: 0, release: 0, create: 0, delete: 0, status: 0 }, []),
    ];
    const interrupted = { dryRun: 'none' as const, converged: false, stopped: { reason: 'interrupted' as const }, controllers };
    expect(stoppedSummary(interrupted)).toBe(
      'interrupted: ReplicaSet shop/web: created 148 of 254 pods, deleted 0 of 0, status not written\n' +
        'interrupted: ReplicaSet shop/api: created 0 of 0 pods, deleted 1 of 2, adopted 1 of 1, status written\n',
    );
    expect(stoppedSummary({ ...interrupted, stopped: { reason: 'error', message: 'connection reset' } })).toMatch(
      /^error: connection reset\nstopped by an error: ReplicaSet shop\/web: created 148 of 254 pods/,
    );
    // not interrupted: the controllers whose sync failed midway (web's create failed), only
    expect(reconcileSummary(interrupted, 3)).toBe(
      'interrupted while reconciling 3 controllers: adopted 1, released 0, created 148, deleted 1, status written 1, failed 1',
    );
    expect(stoppedSummary({ ...interrupted, stopped: null })).toBe(
      'failed: ReplicaSet shop/web: created 148 of 254 pods, deleted 0 of 0, status not written\n',
    );
    expect(stoppedSummary({ ...interrupted, stopped: null, controllers: controllers.slice(1) })).toBe('');
  });
});
