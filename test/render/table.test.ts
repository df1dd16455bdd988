// One-line cells are drawn by src/render/table.ts itself, anything else by cli-table3: both must
// give the lines cli-table3 gives for the same cells and widths, byte for byte (colours, wide and
// combining characters, emoji, control characters, padding).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnWidths, drawOneLineCells, drawTable, drawWithCliTable3 } from '../../src/render/table.js';

const ESC = '\x1b';
// what cells are made of: ASCII, wide and combining characters, emoji, control characters, and
// colour codes opened and closed as chalk writes them, or left open
const piece = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('日本', 'é', 'e\u0301', '🙂', '👩‍💻', '\t', '\r', '→', '…', '\u200b', ' '),
  fc.constantFrom(`${ESC}[31m`, `${ESC}[39m`, `${ESC}[1m`, `${ESC}[22m`, `${ESC}[2m`, `${ESC}[4m`, `${ESC}[24m`, `${ESC}[42m`, `${ESC}[49m`, `${ESC}[0m`),
  fc.constantFrom(`${ESC}[32mkeep${ESC}[39m`, `${ESC}[1m${ESC}[33mdrift${ESC}[39m${ESC}[22m`, `${ESC}[38;5;208mold${ESC}[39m`, `${ESC}[90m-${ESC}[39m`),
);
const cellOf = (pieces: fc.Arbitrary<string>) => fc.array(pieces, { maxLength: 4 }).map((p) => p.join(''));
const oneLine = cellOf(piece).map((c) => c.replace(/\n/g, ' '));
const anyCell = cellOf(fc.oneof(piece, fc.constant('\n')));

const table = (cell: fc.Arbitrary<string>) =>
  fc.integer({ min: 1, max: 5 }).chain((columns) =>
    fc.record({
      head: fc.option(fc.array(cell, { minLength: columns, maxLength: columns }), { nil: undefined }),
      rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 40 }),
      gap: fc.integer({ min: 0, max: 3 }),
      floor: fc.option(fc.array(fc.nat(12), { minLength: columns, maxLength: columns }), { nil: undefined }),
    }),
  );

describe('drawTable', () => {
  it('draws one-line cells as cli-table3 does', () => {
    fc.assert(
      fc.property(table(oneLine), ({ head, rows, gap, floor }) => {
        if (head === undefined && rows.length === 0) return;
        const widths = columnWidths(head, rows, gap, floor);
        expect(drawOneLineCells(head, rows, widths)).toEqual(drawWithCliTable3(head, rows, gap, widths));
      }),
      { numRuns: 400 },
    );
  });

  it('gives cli-table3 the cells it does not draw itself, with the same lines', () => {
    fc.assert(
      fc.property(table(anyCell), ({ head, rows, gap, floor }) => {
        if (head === undefined && rows.length === 0) return;
        expect(drawTable(head, rows, gap, floor)).toEqual(drawWithCliTable3(head, rows, gap, columnWidths(head, rows, gap, floor)));
      }),
      { numRuns: 200 },
    );
  });

  it('draws a kubectl-like table, coloured cells padded by their visible width', () => {
    const green = (s: string) => `${ESC}[32m${s}${ESC}[39m`;
    expect(
      drawTable(
        ['NAME', 'DECISION'],
        [
          ['shop-web-7xk2p', green('keep')],
          ['日本', `${ESC}[31mopen`],
        ],
        2,
      ),
    ).toEqual(['NAME            DECISION  ', 'shop-web-7xk2p  \x1b[32mkeep\x1b[39m      ', '日本            \x1b[31mopen\x1b[39m      ']);
  });

  it('leaves rows of another length to cli-table3', () => {
    const rows = [['a', 'b'], ['c']];
    expect(drawTable(undefined, rows, 1)).toEqual(drawWithCliTable3(undefined, rows, 1, columnWidths(undefined, rows, 1)));
  });
});
