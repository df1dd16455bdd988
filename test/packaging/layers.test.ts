// The floors of the house: every import in src/ points down the layers (commands → services →
// cluster/controller/sandbox/ui/render/input → runtime → core), never up or sideways. Imports are
// read with the TypeScript parser (multi-line imports, `export … from`, `import()` and
// `import('…').T` types included), so none slips past a regular expression.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportRef, importsOf, sourceFiles } from './imports.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

type Layer =
  | 'main'
  | 'commands'
  | 'cli'
  | 'completion'
  | 'services'
  | 'ui'
  | 'render'
  | 'cluster'
  | 'controller'
  | 'sandbox'
  | 'history'
  | 'input'
  | 'runtime'
  | 'core'
  | 'errors';

/**
 * What each layer may import besides itself: 'all', or 'types' (type-only imports, erased at
 * run time). Everything not listed is refused. `errors` is src/errors.ts, the UserError every
 * layer above core may throw.
 */
const ALLOWED: Record<Layer, Partial<Record<Layer, 'all' | 'types'>>> = {
  // the entry of the single file (direct dispatch, the single executable): runs the commands
  main: { commands: 'all', cli: 'all', completion: 'all', errors: 'all' },
  // oclif commands: parse flags (cli), call a service, render. completion calls its engine
  // (src/completion: bounded, read-only lookups); sandbox starts the server.
  commands: {
    cli: 'all',
    completion: 'all',
    services: 'all',
    render: 'all',
    ui: 'all',
    sandbox: 'all',
    cluster: 'all',
    input: 'all',
    core: 'all',
    errors: 'all',
  },
  // the commands' helpers (flags, targets, progress on the terminal): below commands; they fill
  // in the services' types but call none, and -o's options come from render's format table
  cli: { services: 'types', render: 'all', input: 'all', core: 'all', errors: 'all' },
  // shell completion: candidates from the manifest, names from the cluster or the files, the scripts
  completion: { cluster: 'all', input: 'all', core: 'all', errors: 'all' },
  services: { cluster: 'all', controller: 'all', history: 'all', input: 'all', runtime: 'all', core: 'all', errors: 'all' },
  // the dashboard draws what a watch session feeds it: the feed's contract is the services' types
  ui: { services: 'types', render: 'all', runtime: 'all', core: 'all', errors: 'all' },
  cluster: { runtime: 'all', core: 'all', errors: 'all' },
  controller: { runtime: 'all', core: 'all', errors: 'all' },
  sandbox: { core: 'all', errors: 'all' },
  // the human views of what the services computed: a history is drawn from its contract's types
  render: { history: 'types', core: 'all', errors: 'all' },
  // the past: writes replayed on rebuilt state and explained by the rules (pure, like core; it
  // projects the logged bodies with input's object projection)
  history: { input: 'all', core: 'all', errors: 'all' },
  input: { core: 'all', errors: 'all' },
  // the machinery a running controller needs (clocks, workqueue, rate limiter, expectations,
  // metrics, logs, the API contract, the event correlator): below everything that runs, above the rules
  runtime: { core: 'all', errors: 'all' },
  core: {},
  errors: {},
};

/** Layers whose files never import one another: a command is not another command's helper. */
const NO_SELF_IMPORT = new Set<Layer>(['commands']);

function layerOf(file: string): Layer | null {
  const rel = relative(SRC, file).split(/[\\/]/);
  if (rel[0] === '..') return null;
  const name = rel.length === 1 ? rel[0].replace(/\.(tsx?|jsx?)$/, '') : rel[0];
  return Object.hasOwn(ALLOWED, name) ? (name as Layer) : null;
}

/** Why `file` may not import `ref`, or null when it may. */
function violation(file: string, ref: ImportRef): string | null {
  const from = layerOf(file);
  const where = `${relative(ROOT, file)}:${ref.line} imports '${ref.specifier}'`;
  if (from === null) return `${where}: ${relative(ROOT, file)} is in no layer of the table (add its folder to ALLOWED)`;
  if (!ref.specifier.startsWith('.')) {
    // the rules layer is pure: no node: builtins, no packages (no I/O, no clock, no globals)
    return from === 'core' ? `${where}: src/core imports nothing outside src/core` : null;
  }
  const target = resolve(dirname(file), ref.specifier);
  const to = layerOf(target);
  if (to === null) return `${where}: ${relative(ROOT, target)} is outside the layers of src/`;
  if (to === from) return NO_SELF_IMPORT.has(from) ? `${where}: one ${from} file imports another (move what they share down)` : null;
  const rule = ALLOWED[from][to];
  if (rule === 'all' || (rule === 'types' && ref.typeOnly)) return null;
  if (rule === 'types') return `${where}: ${from} may import only types from ${to}`;
  return `${where}: ${from} may not import ${to} (it points ${ALLOWED[to][from] ? 'up' : 'sideways'})`;
}

const at = (path: string) => join(SRC, path);
const ref = (specifier: string, typeOnly = false): ImportRef => ({ specifier, typeOnly, line: 1 });

describe('layers', () => {
  it('every import in src/ points down the table (or stays in its layer)', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let count = 0;
    for (const f of files) {
      for (const r of importsOf(f, readFileSync(f, 'utf8'))) {
        count++;
        const v = violation(f, r);
        if (v) problems.push(v);
      }
    }
    expect(count).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('src/core and src/history hold rules only: no clock read, no timer, no randomness, no process state, no I/O', () => {
    const impure = /\b(Date\.now|new Date\(\)|setTimeout|setInterval|setImmediate|performance\.|process\.|Math\.random)|from 'node:/;
    const found: string[] = [];
    for (const file of [...sourceFiles(join(SRC, 'core')), ...sourceFiles(join(SRC, 'history'))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (!/^\s*(\/\/|\*)/.test(line) && impure.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the table is a strict order: no two layers may import each other', () => {
    for (const [from, targets] of Object.entries(ALLOWED)) {
      for (const to of Object.keys(targets)) expect(ALLOWED[to as Layer][from as Layer], `${from} ⇄ ${to}`).toBeUndefined();
    }
  });

  it.each([
    ['cluster/lease.ts', '../controller/api.js', 'cluster may not import controller (it points sideways)'],
    ['cluster/lease.ts', '../controller/real-clock.js', 'cluster may not import controller'],
    ['controller/sync.ts', '../cluster/controller-api.js', 'controller may not import cluster'],
    ['services/plan-service.ts', '../cli/targets.js', 'services may not import cli (it points up)'],
    ['services/watch/prepare.ts', '../../cli/progress.js', 'services may not import cli'],
    ['services/watch/session.ts', '../../ui/throttle.js', 'services may not import ui (it points up)'],
    ['ui/run.tsx', '../controller/real-clock.js', 'ui may not import controller'],
    ['ui/store.ts', '../services/watch/prepare.js', 'ui may import only types from services'],
    ['cli/flags.ts', '../services/plan-service.js', 'cli may import only types from services'],
    ['commands/reconcile.ts', './diff.js', 'one commands file imports another'],
    ['core/plan.ts', '../runtime/clock.js', 'core may not import runtime (it points up)'],
    ['core/plan.ts', 'node:perf_hooks', 'src/core imports nothing outside src/core'],
    ['core/status.ts', '../runtime/workqueue.js', 'core may not import runtime (it points up)'],
    ['render/text.ts', '../ui/line.js', 'render may not import ui (it points up)'],
  ])('refuses %s → %s', (file, spec, message) => {
    expect(violation(at(file), ref(spec))).toContain(message);
  });

  it.each([
    ['ui/state.ts', '../services/watch/contract.js', true],
    ['cli/targets.ts', '../services/targets.js', true],
    ['cluster/lease.ts', '../runtime/api.js', false],
    ['controller/sync.ts', '../runtime/api.js', false],
    ['ui/run.tsx', '../runtime/clock.js', false],
    ['commands/diff.ts', '../cli/flags.js', false],
    ['sandbox/cli.ts', '../errors.js', false],
    ['sandbox/rest.ts', 'node:http', false],
  ] as const)('allows %s → %s', (file, spec, typeOnly) => {
    expect(violation(at(file), ref(spec, typeOnly))).toBeNull();
  });

  it('reads every form of import, and which of them are erased (type-only)', () => {
    const text = [
      'import {',
      '  a,',
      '  b,',
      "} from './multi.js';",
      "import type { T } from './type-only.js';",
      "import { type U, type V } from './all-types.js';",
      "import { type W, x } from './mixed.js';",
      "import './side-effect.js';",
      "export { y } from './reexport.js';",
      "export type { Z } from './reexport-type.js';",
      "export * from './star.js';",
      "const m = await import('./dynamic.js');",
      "let t: import('./import-type.js').T;",
      'const s = \'import x from "./in-a-string.js"\';',
      "// import z from './in-a-comment.js';",
    ].join('\n');
    expect(importsOf('x.ts', text).map((r) => [r.specifier, r.typeOnly, r.line])).toEqual([
      ['./multi.js', false, 1],
      ['./type-only.js', true, 5],
      ['./all-types.js', true, 6],
      ['./mixed.js', false, 7],
      ['./side-effect.js', false, 8],
      ['./reexport.js', false, 9],
      ['./reexport-type.js', true, 10],
      ['./star.js', false, 11],
      ['./dynamic.js', false, 12],
      ['./import-type.js', true, 13],
    ]);
  });

  it('knows the layer of every file, and says so for a folder it does not', () => {
    expect(layerOf(at('errors.ts'))).toBe('errors');
    expect(layerOf(at('runtime/clock.ts'))).toBe('runtime');
    expect(violation(at('attic/old.ts'), ref('../core/types.js'))).toContain('is in no layer of the table');
  });
});
