// explain under a what-if (every line it changes says "as if"), a pod the sync deletes, and
// explain deploy/NAME as a Deployment header and tree: on the bundled examples, through the
// planner, as the command builds them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeChalk } from '../../src/render/color.js';
import { renderDeploymentTree } from '../../src/render/deployment-tree.js';
import { renderExplain } from '../../src/render/explain.js';
import { explainModelOf, explainModels, preparePlan } from '../../src/services/plan-service.js';

const plain = makeChalk(0);
const examples = join(import.meta.dirname, '..', '..', 'examples');
const noProgress = { update: () => {}, done: () => {} };

async function explainOf(file: string, target: { kind: 'ReplicaSet' | 'Deployment' | null; name: string }, replicas?: number) {
  const ctx = await preparePlan(
    { filename: [join(examples, file)], allNamespaces: true, connection: {} },
    { now: '2026-01-01T00:00:00Z', replicas, keepDecisions: true },
    [target],
    { progress: noProgress },
  );
  const models = ctx.selected.map((c) => explainModelOf(ctx, c));
  return { ctx, models };
}

describe('explain --replicas: a what-if, labelled as one', () => {
  it('says "as if" in the header, the replicas, the generation, and every section it changes', async () => {
    const { ctx, models } = await explainOf('deployment-rollout.yaml', { kind: 'ReplicaSet', name: 'checkout-6b8d' }, 1);
    expect(ctx.plan.whatIf).toEqual({ replicas: 1 });
    const out = renderExplain(models[0], { chalk: plain, width: 100 });
    expect(out).toContain('What-if:            as if scaled to 1 (--replicas 1): no object says so, and nothing is written');
    expect(out).toContain('Replicas:           desired 1 as if scaled from 2, current 4');
    expect(out).toContain('Generation:         6 as if scaled (the object has 5: a scale bumps it)');
    expect(out).toContain('Pods (4), as if scaled to 1');
    expect(out).toContain('Deletion order (delete 3 of 4 active pods), as if scaled to 1');
    expect(out).toContain('Status (before → after), as if scaled to 1');
  });

  it('says nothing of the kind without one', async () => {
    const { ctx, models } = await explainOf('deployment-rollout.yaml', { kind: 'ReplicaSet', name: 'checkout-6b8d' });
    expect(ctx.plan.whatIf).toBeNull();
    const out = renderExplain(models[0], { chalk: plain, width: 100 });
    expect(out).not.toContain('as if');
    expect(out).toContain('Replicas:           desired 2, current 4');
    expect(out).toContain('Generation:         5\n');
  });

  it('a pod the sync deletes reads "delete" beside its order', async () => {
    const { models } = await explainOf('deployment-rollout.yaml', { kind: 'ReplicaSet', name: 'checkout-6b8d' }, 1);
    const out = renderExplain(models[0], { chalk: plain, width: 100 });
    expect(out).toMatch(/checkout-6b8d-aaa11 +delete +OwnedMatching +#1/);
    expect(out).toMatch(/checkout-6b8d-ddd44 +keep +OwnedMatching +-/);
    expect(out).not.toMatch(/ keep +\S+ +#\d/);
  });
});

describe('explain deploy/NAME: a Deployment header and a tree', () => {
  it('draws Deployment → ReplicaSets (new first) → pods with decision, order and reason', async () => {
    const { ctx } = await explainOf('deployment-rollout.yaml', { kind: 'Deployment', name: 'checkout' });
    const { models, trees } = explainModels(ctx, { kind: 'Deployment', name: 'checkout' });
    expect(trees).toHaveLength(1);
    // the stories follow the tree: the new ReplicaSet first
    expect(models.map((m) => m.name)).toEqual(['checkout-9c2f', 'checkout-6b8d']);
    const out = renderDeploymentTree(trees[0], { chalk: plain, width: 100 });
    const lines = out.split('\n');
    expect(lines[0]).toBe('Deployment shop/checkout');
    expect(out).toContain('New ReplicaSet:     checkout-9c2f');
    expect(out).toContain('Old ReplicaSets:    checkout-6b8d');
    const table = lines.slice(lines.findIndex((l) => l.startsWith('NAME'))).filter((l) => l !== '');
    expect(table[0].split(/ {2,}/)).toEqual(['NAME', 'REVISION', 'DESIRED', 'CURRENT', 'SYNC', 'ORDER', 'REASON']);
    expect(table[1]).toBe('Deployment/checkout');
    expect(table[2]).toMatch(/^├─ReplicaSet\/checkout-9c2f +4 \(new\) +3 +2 +create 1, status update$/);
    const oldAt = table.findIndex((l) => l.startsWith('└─ReplicaSet/checkout-6b8d'));
    expect(table[oldAt]).toMatch(/3 \(old\) +2 +4 +delete 2, status update$/);
    // pods of the new ReplicaSet hang under it with │, those of the last one with spaces
    for (const l of table.slice(3, oldAt)) expect(l).toMatch(/^│ [├└]─Pod\/checkout-9c2f-\S+ +keep +- +OwnedMatching$/);
    const deleted = table.slice(oldAt + 1).filter((l) => / delete /.test(l));
    expect(deleted).toHaveLength(2);
    expect(deleted[0]).toMatch(/^ {2}[├└]─Pod\/checkout-6b8d-\S+ +delete +#\d +\w+$/);
    expect(table.at(-1)).toMatch(/^ {2}└─Pod\//);
  });
});

describe('explain tells the decision the plan shows', () => {
  it('the story holds the plan’s own entry (one decision, projected once), and the decisions must be kept', async () => {
    const { ctx, models } = await explainOf('deployment-rollout.yaml', { kind: 'ReplicaSet', name: 'checkout-6b8d' }, 1);
    expect(ctx.plan.controllers).toHaveLength(1);
    expect(models[0].plan).toBe(ctx.plan.controllers[0]);
    const bare = await preparePlan(
      { filename: [join(examples, 'deployment-rollout.yaml')], allNamespaces: true, connection: {} },
      { now: '2026-01-01T00:00:00Z' },
      [{ kind: 'ReplicaSet', name: 'checkout-6b8d' }],
      { progress: noProgress },
    );
    expect(() => explainModelOf(bare, bare.selected[0])).toThrow(/prepared without its decision \(keepDecisions\)/);
  });
});
