// No import circle in src/: every module can be read after the ones it imports. Type-only imports
// count too (a circle of types still ties the modules together); the shared type or function
// moves down instead. Circles are the strongly connected components of the import graph.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './imports.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

type Graph = Map<string, string[]>;

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`), or null for a package. */
function targetOf(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(file), specifier).replace(/\.js$/, '');
  return ['.ts', '.tsx'].map((ext) => base + ext).find((p) => existsSync(p)) ?? null;
}

function importGraph(files: string[]): Graph {
  const g: Graph = new Map();
  for (const f of files) {
    const targets = importsOf(f, readFileSync(f, 'utf8')).map((r) => targetOf(f, r.specifier));
    g.set(f, [...new Set(targets.filter((t): t is string => t !== null))]);
  }
  return g;
}

/** The circles of `g`: its strongly connected components of more than one module, or a self-import (Tarjan). */
function circles(g: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (g.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import circles', () => {
  it('src/ has none', () => {
    const g = importGraph(sourceFiles(SRC));
    expect(g.size).toBeGreaterThan(100);
    expect([...g.values()].flat().length).toBeGreaterThan(500);
    expect(circles(g).map((c) => c.map((f) => relative(ROOT, f)).join(' → '))).toEqual([]);
  });

  it('finds a circle through type-only imports and a self-import, and none in a chain', () => {
    const g: Graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(circles(g)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads type-only imports as edges', () => {
    const refs = importsOf('x.ts', "import type { A } from './a.js';\nexport type { B } from './b.js';\ntype C = import('./c.js').C;\n");
    expect(refs.map((r) => r.specifier)).toEqual(['./a.js', './b.js', './c.js']);
  });
});
