// The table layout's work grows linearly with the rows (issue 13). cli-table3's layout checks,
// for every cell position, the cells of the earlier rows for a row span reaching into it, reading
// each one's `rowSpan`; one table of all rows does R² × C² / 2 of those reads. The reads are
// counted through an accessor on cli-table3's Cell prototype: an operation count, not a time.
// One-line cells are drawn without cli-table3 (src/render/table.ts); a cell with a line break
// goes through it, so every row here has one.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_ROWS, drawTable } from '../../src/render/table.js';

const require = createRequire(import.meta.url);
// the module instance cli-table3's own table.js and layout-manager.js use
const CellClass = require('cli-table3/src/cell.js') as { prototype: object };

let reads = 0;
const stored = Symbol('rowSpan');

beforeAll(() => {
  Object.defineProperty(CellClass.prototype, 'rowSpan', {
    configurable: true,
    get(this: Record<symbol, number>) {
      reads++;
      return this[stored];
    },
    set(this: Record<symbol, number>, v: number) {
      this[stored] = v;
    },
  });
});
afterAll(() => {
  delete (CellClass.prototype as Record<string, unknown>).rowSpan;
});

const head = ['NAME', 'DECISION', 'NODE'];

function layoutReads(rows: number): { reads: number; lines: string[] } {
  const cells = Array.from({ length: rows }, (_, i) => [`pod-${i}`, 'keep\nnow', `node-${i % 7}`]);
  reads = 0;
  const lines = drawTable(head, cells, 3);
  return { reads, lines };
}

describe('table layout work', () => {
  it('is counted: cli-table3 still lays the rows out', () => {
    const { reads: n, lines } = layoutReads(10);
    expect(lines.slice(1, 3)).toEqual(['pod-0   keep       node-0   ', '        now                 ']);
    expect(n).toBeGreaterThan(10 * head.length);
  });

  it('grows linearly with the rows: the same work per row for 10 times the rows', () => {
    const small = 5 * CHUNK_ROWS; // whole chunks, so no partial chunk tilts the comparison
    const a = layoutReads(small).reads / small;
    const b = layoutReads(10 * small).reads / (10 * small);
    // one table of all rows would do about 10 times the work per row here
    expect(b).toBeLessThan(a * 1.05);
    expect(b).toBeGreaterThan(a * 0.95);
  });
});
