// The tables every human view prints, for a byte-for-byte comparison with a committed golden file
// (test/render/golden/tables.json) that was written by the renderer as it was before tables were
// laid out in chunks (issue 13). Each case is a name and the exact text the renderer printed.
//
// Inputs: every example in examples/, a generated snapshot (tools/gen-snapshot.mjs, fixed seed)
// and hand-made tables with colours, wide characters and truncation.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeChalk } from '../../src/render/color.js';
import { renderDiffTable } from '../../src/render/diff-table.js';
import { renderExplain } from '../../src/render/explain.js';
import { type Cell, type Column, renderTable } from '../../src/render/text.js';
import { explainModelOf, preparePlan } from '../../src/services/plan-service.js';
import type { Progress } from '../../src/services/progress.js';

const root = join(import.meta.dirname, '..', '..');
const NOW = '2026-01-01T00:00:00Z';
const plain = makeChalk(0);
const color = makeChalk(1);
const noProgress: Progress = { update: () => {}, done: () => {} };

async function plan(file: string, replicas?: number) {
  return preparePlan({ filename: [file], allNamespaces: true, connection: {} }, { now: NOW, replicas, keepDecisions: true }, [], { progress: noProgress });
}

/** The diff table in its variants: plain, colour, wide, no headers, cut to a terminal width. */
async function diffCases(name: string, file: string, out: Record<string, string>): Promise<void> {
  const ctx = await plan(file);
  const p = ctx.plan;
  const gens = new Map(p.controllers.map((c, i) => [`${c.namespace}/${c.name}`, i % 3 === 0 ? null : c.status.observedGeneration - (i % 2)]));
  out[`${name} diff default`] = renderDiffTable(p, { wide: false, noHeaders: false, chalk: plain });
  out[`${name} diff wide`] = renderDiffTable(p, { wide: true, noHeaders: false, chalk: plain });
  out[`${name} diff no-headers`] = renderDiffTable(p, { wide: false, noHeaders: true, chalk: plain });
  out[`${name} diff wide no-headers colour`] = renderDiffTable(p, { wide: true, noHeaders: true, chalk: color });
  out[`${name} diff colour`] = renderDiffTable(p, { wide: false, noHeaders: false, chalk: color });
  out[`${name} diff no namespace column`] = renderDiffTable(p, { wide: false, noHeaders: false, chalk: plain, namespaceColumn: false });
  for (const width of [60, 80, 100]) {
    out[`${name} diff width ${width}`] = renderDiffTable(p, { wide: false, noHeaders: false, chalk: plain, width });
    out[`${name} diff wide width ${width + 40} colour`] = renderDiffTable(p, {
      wide: true,
      noHeaders: false,
      chalk: color,
      width: width + 40,
      observedGenerationBefore: (c) => gens.get(`${c.namespace}/${c.name}`),
    });
  }
}

/** explain of every controller of the input (its pod and status tables), now and at 1 replica. */
async function explainCases(name: string, file: string, out: Record<string, string>, limit = Infinity): Promise<void> {
  for (const replicas of [undefined, 1]) {
    const ctx = await plan(file, replicas);
    for (const c of ctx.selected.slice(0, limit)) {
      const model = explainModelOf(ctx, c);
      const id = `${name} explain ${c.kind}/${c.metadata.namespace}/${c.metadata.name}${replicas === undefined ? '' : ` --replicas ${replicas}`}`;
      out[`${id} width 80`] = renderExplain(model, { chalk: plain, width: 80 });
      out[`${id} width 140 colour`] = renderExplain(model, { chalk: color, width: 140 });
    }
  }
}

/** Tables built by hand: colours, wide (East Asian) characters, indent, middle cuts, empty cells. */
function handCases(out: Record<string, string>): void {
  const columns: Column[] = [{ header: 'NAME', shrink: [12, 6], ellipsis: 'middle' }, { header: 'NOTE', shrink: [10, 4] }, { header: '' }, { header: 'N' }];
  const rows: Cell[][] = [
    [{ text: 'web-7d4f8-x2k9p', style: color.red }, { text: '日本語のメッセージ' }, { text: '' }, { text: '1', style: color.bold }],
    [{ text: 'a' }, { text: 'emoji 🚀 ok', style: color.green }, { text: 'changed', style: color.yellow }, { text: '' }],
    [{ text: 'tab\there' }, { text: 'esc\x1b[31mred' }, { text: '' }, { text: '22' }],
    [{ text: '' }, { text: '' }, { text: '' }, { text: '' }],
  ];
  for (const width of [undefined, 30, 40, 200]) {
    for (const gap of [2, 3]) {
      out[`hand width ${width} gap ${gap}`] = renderTable(columns, rows, { width, gap });
      out[`hand width ${width} gap ${gap} no-headers indent 2`] = renderTable(columns, rows, { width, gap, noHeaders: true, indent: 2 });
    }
  }
  out['hand no rows'] = renderTable(columns, []);
  out['hand no rows no-headers'] = renderTable(columns, [], { noHeaders: true });
  out['hand one column'] = renderTable([{ header: 'X' }], [[{ text: 'y' }]]);
  const many: Cell[][] = Array.from({ length: 1234 }, (_, i) => [
    { text: `pod-${i}`, style: i % 7 === 0 ? color.red : undefined },
    { text: 'x'.repeat(i % 23) },
    { text: i % 5 === 0 ? '' : 'ok' },
    { text: String(i) },
  ]);
  out['hand 1234 rows'] = renderTable(columns, many);
  out['hand 1234 rows width 30 no-headers'] = renderTable(columns, many, { width: 30, noHeaders: true });
}

/** A generated snapshot: 300 ReplicaSets of 3 pods in 4 namespaces, 20% drifting. */
function generatedSnapshot(dir: string): string {
  const r = spawnSync(
    process.execPath,
    [join(root, 'tools', 'gen-snapshot.mjs'), '--rs', '300', '--pods-per-rs', '3', '--namespaces', '4', '--nodes', '7', '--drift', '0.2', '--seed', '13'],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  if (r.status !== 0) throw new Error(`gen-snapshot failed: ${r.stderr}`);
  const file = join(dir, 'generated.json');
  writeFileSync(file, r.stdout);
  return file;
}

export async function tableGoldenCases(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const examples = join(root, 'examples');
  for (const f of readdirSync(examples)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    await diffCases(f, join(examples, f), out);
    await explainCases(f, join(examples, f), out);
  }
  const dir = mkdtempSync(join(tmpdir(), 'rs-tables-'));
  try {
    const file = generatedSnapshot(dir);
    await diffCases('generated', file, out);
    await explainCases('generated', file, out, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  handCases(out);
  return out;
}
