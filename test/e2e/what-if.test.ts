// End to end: a what-if is labelled as one everywhere (the plan's whatIf, the table, explain's
// headers) and a what-if plan is refused by reconcile --plan as what it is; explain names the
// kinds it explains when given another.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, example, NOW } from './cli.js';

beforeAll(() => ensureBuilt(), 180_000);

const ROLLOUT = ['-f', example('deployment-rollout'), '--now', NOW];

describe('--replicas is a what-if', () => {
  it('the plan says so in whatIf; without it whatIf is null', () => {
    const w = JSON.parse(cli(['diff', 'rs/checkout-6b8d', '--replicas', '1', ...ROLLOUT, '-o', 'json']).stdout);
    expect(w.whatIf).toEqual({ replicas: 1 });
    expect(w.controllers[0].replicas.desired).toBe(1);
    const e = JSON.parse(cli(['explain', 'rs/checkout-6b8d', '--replicas', '1', ...ROLLOUT, '-o', 'json']).stdout);
    expect(e.whatIf).toEqual({ replicas: 1 });
    // a snapshot's --now is the time it was taken, not a what-if
    expect(JSON.parse(cli(['diff', ...ROLLOUT, '-o', 'json']).stdout).whatIf).toBeNull();
  });

  it('the table and the summary say "as if"', () => {
    const r = cli(['diff', 'rs/checkout-6b8d', '--replicas', '1', ...ROLLOUT]);
    expect(r.stdout).toMatch(/^rs +checkout-6b8d +1 \(as if\) +4 /m);
    expect(r.stdout).toMatch(/^as if --replicas 1: 1 controller: /m);
  });

  it("explain's header says it, and the replicas and generation the object really has", () => {
    const r = cli(['explain', 'rs/checkout-6b8d', '--replicas', '1', ...ROLLOUT]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('What-if:            as if scaled to 1 (--replicas 1)');
    expect(r.stdout).toContain('Replicas:           desired 1 as if scaled from 2, current 4');
    expect(r.stdout).toContain('Generation:         6 as if scaled (the object has 5: a scale bumps it)');
  });

  it('reconcile --plan refuses a what-if plan as a what-if, before reading any cluster', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-whatif-'));
    const file = join(dir, 'plan.json');
    writeFileSync(file, cli(['diff', 'rs/checkout-6b8d', '--replicas', '1', ...ROLLOUT, '-o', 'json']).stdout);
    const r = cli(['reconcile', '--plan', file, '--yes']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      `error: ${file}: this plan is a what-if (--replicas 1): it cannot be applied; plan again without those flags ("diff -o json") to get a plan to apply`,
    );
    expect(r.stderr).not.toMatch(/stale/);
  });
});

describe('explain TYPE/NAME of a kind it does not explain', () => {
  it('says which kinds it explains, not that the server lacks the type', () => {
    const r = cli(['explain', 'statefulset/foo', ...ROLLOUT]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'error: rs-reconcile explains ReplicaSets (rs/NAME), ReplicationControllers (rc/NAME) and Deployments (deploy/NAME, through their ReplicaSets), and "statefulset" is not one of them',
    );
    expect(r.stderr).not.toContain("server doesn't have");
  });
});
