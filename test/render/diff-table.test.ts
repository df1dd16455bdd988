import { describe, expect, it } from 'vitest';
import type { PlanController } from '../../src/core/plan-types.js';
import { makeChalk } from '../../src/render/color.js';
import { renderDiffTable, renderOverlapWarnings, renderSummary } from '../../src/render/diff-table.js';
import { apiRs, brokenRs, cacheRs, dbRc, fullPlan, planOf, webRs } from './fixtures.js';

const plain = makeChalk(0);
const color = makeChalk(1);
const ESC = '\x1b';

function cells(line: string): string[] {
  return line.trim().split(/ {2,}/);
}

describe('renderDiffTable', () => {
  it('prints one kubectl-like row per controller (snapshot)', () => {
    expect(renderDiffTable(fullPlan, { wide: false, noHeaders: false, chalk: plain })).toBe(
      [
        'NAMESPACE   KIND   NAME        DESIRED   CURRENT   ADOPT   RELEASE   CREATE   DELETE   STATUS   SYNC',
        'batch       rs     leaving     3         1         0       0         0        0        update   skipped: ControllerDeleting',
        'batch       rs     worker      0         2         0       0         0        2        update   drift',
        'default     rc     db          2         1         0       0         1        0        -        drift',
        'shop        rs     api         4         0         0       0         4        0        update   drift',
        'shop        rs     broken      2         0         0       0         0        0        -        skipped: InvalidSelector',
        'shop        rs     cache       2         2         0       0         0        0        -        in sync',
        'shop        rs     web-7d4f8   3         4         1       1         0        1        update   drift',
        '',
      ].join('\n'),
    );
  });

  it('has no borders, box-drawing characters or trailing spaces', () => {
    const out = renderDiffTable(fullPlan, { wide: true, noHeaders: false, chalk: plain });
    expect(out).not.toMatch(/[─│┌┐└┘├┤┬┴┼]/);
    for (const line of out.split('\n')) expect(line).toBe(line.trimEnd());
  });

  it('drops the header with --no-headers', () => {
    const out = renderDiffTable(fullPlan, { wide: false, noHeaders: true, chalk: plain });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(fullPlan.controllers.length);
    expect(out).not.toContain('NAMESPACE');
    expect(cells(lines[0])).toEqual(['batch', 'rs', 'leaving', '3', '1', '0', '0', '0', '0', 'update', 'skipped: ControllerDeleting']);
    expect(renderDiffTable(planOf([]), { wide: false, noHeaders: true, chalk: plain })).toBe('');
  });

  it('adds READY, AVAILABLE, OBSERVED-GEN, BATCHES and FIRST-DELETE with -o wide', () => {
    const out = renderDiffTable(fullPlan, { wide: true, noHeaders: false, chalk: plain });
    const [header, ...rows] = out.trimEnd().split('\n');
    expect(cells(header)).toEqual([
      'NAMESPACE',
      'KIND',
      'NAME',
      'DESIRED',
      'CURRENT',
      'ADOPT',
      'RELEASE',
      'CREATE',
      'DELETE',
      'STATUS',
      'READY',
      'AVAILABLE',
      'OBSERVED-GEN',
      'BATCHES',
      'FIRST-DELETE',
      'SYNC',
    ]);
    const api = rows.find((r) => r.includes(' api '))!;
    expect(cells(api).slice(10)).toEqual(['0', '0', '2', '1,2,1', '-', 'drift']);
    const web = rows.find((r) => r.includes('web-7d4f8'))!;
    expect(cells(web).slice(10)).toEqual(['3', '2', '5', '-', 'web-7d4f8-z', 'drift']);
    const worker = rows.find((r) => r.includes('worker'))!;
    expect(cells(worker)).toContain('worker-1,worker-2');
  });

  it('shows the observed generation change when the caller knows the old value', () => {
    const out = renderDiffTable(planOf([webRs, cacheRs]), {
      wide: true,
      noHeaders: true,
      chalk: plain,
      observedGenerationBefore: (c) => (c.name === 'web-7d4f8' ? 4 : 3),
    });
    const [web, cache] = out.trimEnd().split('\n');
    expect(cells(web)).toContain('4→5');
    expect(cells(cache)[12]).toBe('3');
  });

  it('lists at most three victims in FIRST-DELETE', () => {
    const many: PlanController = {
      ...webRs,
      delete: ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `web-${n}`, uid: n, reason: 'Newer' as const, message: '' })),
    };
    const out = renderDiffTable(planOf([many]), { wide: true, noHeaders: true, chalk: plain });
    expect(out).toContain('web-a,web-b,web-c +2 more');
  });

  it('can leave out the NAMESPACE column', () => {
    const out = renderDiffTable(planOf([webRs]), { wide: false, noHeaders: false, chalk: plain, namespaceColumn: false });
    expect(out.split('\n')[0].startsWith('KIND   NAME')).toBe(true);
    expect(out).not.toContain('shop');
  });

  it('colours actions only when colour is on', () => {
    const off = renderDiffTable(fullPlan, { wide: true, noHeaders: false, chalk: plain });
    expect(off).not.toContain(ESC);
    const on = renderDiffTable(planOf([webRs, apiRs, brokenRs]), { wide: false, noHeaders: false, chalk: color });
    expect(on).toContain(ESC);
    expect(on).toContain(color.cyan('1')); // adopt
    expect(on).toContain(color.yellow('1')); // release
    expect(on).toContain(color.red('1')); // delete
    expect(on).toContain(color.green('4')); // create
    expect(on).toContain(color.dim('0')); // zero counts dimmed
    expect(on).toContain(color.bold.magenta('skipped: InvalidSelector'));
    // same layout once the escapes are removed
    // eslint-disable-next-line no-control-regex
    expect(on.replace(/\x1b\[[0-9;]*m/g, '')).toBe(renderDiffTable(planOf([webRs, apiRs, brokenRs]), { wide: false, noHeaders: false, chalk: plain }));
  });

  it('never cuts a name: to fit, drops all-zero ADOPT and RELEASE, then narrows the gap, then lets the terminal wrap', () => {
    const long: PlanController = { ...dbRc, kind: 'ReplicaSet', name: 'payments-gateway-frontend-7d4f8b9c5', namespace: 'team-payments-production' };
    const out = renderDiffTable(planOf([long]), { wide: false, noHeaders: false, chalk: plain, width: 100, namespaceColumn: true });
    expect(out).not.toContain('…');
    expect(out).toContain(' payments-gateway-frontend-7d4f8b9c5 ');
    expect(out).toMatch(/^team-payments-production /m);
    const [header] = out.split('\n');
    expect(cells(header)).toEqual(['NAMESPACE', 'KIND', 'NAME', 'DESIRED', 'CURRENT', 'CREATE', 'DELETE', 'STATUS', 'SYNC']);
    expect(header).toContain('NAME  '); // gap narrowed to 2 after the columns went
    // without a width (a pipe) every column stays, three spaces apart
    const piped = renderDiffTable(planOf([long]), { wide: false, noHeaders: false, chalk: plain, namespaceColumn: true });
    expect(cells(piped.split('\n')[0])).toContain('ADOPT');
  });

  it('keeps ADOPT and RELEASE when a row has one, even at 80 columns, and cuts no reason', () => {
    const long: PlanController = { ...dbRc, kind: 'ReplicaSet', name: 'payments-gateway-frontend-7d4f8b9c5' };
    const out = renderDiffTable(planOf([long, webRs, brokenRs]), { wide: false, noHeaders: false, chalk: plain, width: 80, namespaceColumn: false });
    expect(out).not.toContain('…');
    expect(cells(out.split('\n')[0])).toContain('ADOPT');
    expect(out).toContain('skipped: InvalidSelector');
    expect(out).toContain('payments-gateway-frontend-7d4f8b9c5');
  });

  it('marks rows whose selectors overlap with the other controllers in OVERLAPS, only when some do', () => {
    const overlap = (name: string) => ({ code: 'OverlappingSelectors' as const, message: 'm', pods: ['p'], controller: { kind: 'ReplicaSet' as const, name } });
    const a: PlanController = { ...cacheRs, name: 'api', warnings: [overlap('api-canary')] };
    const b: PlanController = { ...cacheRs, name: 'api-canary', warnings: [overlap('api')] };
    const out = renderDiffTable(planOf([a, b, webRs]), { wide: false, noHeaders: false, chalk: plain });
    const [header, ...rows] = out.trimEnd().split('\n');
    expect(cells(header).at(-2)).toBe('OVERLAPS');
    expect(cells(rows[0]).at(-2)).toBe('rs/api-canary');
    expect(cells(rows[1]).at(-2)).toBe('rs/api');
    expect(cells(rows[2]).at(-2)).toBe('-');
    expect(renderDiffTable(planOf([webRs]), { wide: false, noHeaders: false, chalk: plain })).not.toContain('OVERLAPS');
  });

  it('says "as if" in DESIRED under --replicas', () => {
    const out = renderDiffTable({ ...planOf([webRs]), whatIf: { replicas: 3 } }, { wide: false, noHeaders: true, chalk: plain });
    expect(cells(out)[3]).toBe('3 (as if)');
  });
});

describe('renderSummary', () => {
  it('counts controllers and actions (snapshot)', () => {
    expect(renderSummary(planOf([webRs, apiRs, cacheRs]), plain)).toBe(
      '3 controllers: 1 in sync, 2 drifted — adopt 1, release 1, create 4, delete 1, status updates 2\n',
    );
  });

  it('uses the singular where it must', () => {
    expect(renderSummary(planOf([webRs]), plain)).toBe('1 controller: 0 in sync, 1 drifted — adopt 1, release 1, create 0, delete 1, status update 1\n');
    expect(renderSummary(planOf([]), plain)).toBe('no controllers: nothing to reconcile\n');
  });

  it('marks skipped controllers, and does not count an invalid selector as in sync', () => {
    expect(renderSummary(planOf([cacheRs, brokenRs]), plain)).toBe(
      '2 controllers: 1 in sync, 0 drifted — adopt 0, release 0, create 0, delete 0, status updates 0; 1 skipped (InvalidSelector)\n',
    );
    expect(renderSummary(fullPlan, plain)).toContain('; 2 skipped (1 ControllerDeleting, 1 InvalidSelector)');
  });

  it('counts an orphan two controllers want once, and says so', () => {
    const orphan = { name: 'api-x', uid: 'u-x', decision: 'adopt' as const, reason: 'OrphanMatching' as const, message: '' };
    const contest = (name: string) => ({
      code: 'ContestedAdoption' as const,
      message: 'm',
      pods: ['api-x'],
      controller: { kind: 'ReplicaSet' as const, name },
    });
    const a: PlanController = { ...cacheRs, name: 'api', inSync: false, pods: [orphan], warnings: [contest('api-canary')] };
    const b: PlanController = { ...cacheRs, name: 'api-canary', inSync: false, pods: [orphan], warnings: [contest('api')] };
    expect(renderSummary(planOf([a, b]), plain)).toBe(
      '2 controllers: 0 in sync, 2 drifted — adopt 1 (1 of them is wanted by more than one controller: counted once), release 0, create 0, delete 0, status updates 0\n',
    );
  });

  it('starts with the what-if under one', () => {
    expect(renderSummary({ ...planOf([webRs]), whatIf: { replicas: 1 } }, plain)).toMatch(/^as if --replicas 1: 1 controller: /);
  });

  it('colours non-zero numbers only with colour on', () => {
    expect(renderSummary(fullPlan, plain)).not.toContain(ESC);
    const on = renderSummary(fullPlan, color);
    expect(on).toContain(color.cyan('1'));
    expect(on).toContain(color.red('3'));
  });
});

describe('renderOverlapWarnings', () => {
  const overlap = (name: string, pods: string[]) => ({
    code: 'OverlappingSelectors' as const,
    message: 'm',
    pods,
    controller: { kind: 'ReplicaSet' as const, name },
  });
  const contest = (name: string) => ({ code: 'ContestedAdoption' as const, message: 'm', pods: ['api-x'], controller: { kind: 'ReplicaSet' as const, name } });
  it('prints one kubectl-style Warning: line per overlapping pair, with the orphans both would adopt', () => {
    const a: PlanController = { ...cacheRs, name: 'api', warnings: [overlap('api-canary', ['api-x', 'api-y']), contest('api-canary')] };
    const b: PlanController = { ...cacheRs, name: 'api-canary', warnings: [overlap('api', ['api-x', 'api-y']), contest('api')] };
    expect(renderOverlapWarnings(planOf([a, b]), plain)).toBe(
      'Warning: ReplicaSet shop/api and ReplicaSet shop/api-canary select the same 2 pods (api-x, api-y): overlapping selectors are a user error upstream, ' +
        "and the controllers may fight over them; both would adopt the orphan api-x: only the first to patch it adopts it, the other's sync fails and is retried\n",
    );
    // the other controller need not be in the plan
    expect(renderOverlapWarnings(planOf([b]), plain).split('\n')).toHaveLength(2);
    expect(renderOverlapWarnings(planOf([webRs]), plain)).toBe('');
  });
});
