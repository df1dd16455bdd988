// Borderless tables drawn by cli-table3 in time linear in the number of rows.
//
// cli-table3 (0.6) lays a table out before it draws it: for every cell position it checks
// whether an earlier row's cell spans into it (layout-manager.js, fillInTable → conflictExists),
// and that check walks every earlier row. A table of R rows and C columns costs about
// R² × C² / 2 such checks, quadratic in the rows (docs/dependencies.md, "cli-table3 on big
// tables", has what that cost a 10k-row table). No option turns that step off: `colWidths` and
// `rowHeights` only replace the widths and heights computed after it, and it runs in every
// `toString()`. So the rows are drawn in chunks of CHUNK_ROWS rows, each its own cli-table3
// table, all with the same `colWidths`, computed here in one pass with cli-table3's own width
// function (`utils.strlen`: string-width of the text without colour codes, plus the padding,
// at least 1), so every chunk draws every column exactly as one table of all the rows would.
// Our tables have no spans and no borders, so the chunks' lines joined are that table's lines.
//
// Most tables are drawn without cli-table3: when every cell is one line of text, cli-table3's
// line for a row is each cell as cli-table3 colours it (`colorizeLines`: it closes a colour left
// open), padded with spaces to its column's width, the cells joined with no border. That is
// drawn here directly (cli-table3's per-cell set-up is a start-up cost of every small table,
// docs/startup.md); anything else (a cell with a line break, a row of another length) goes
// through cli-table3. test/render/table.test.ts checks the two draw alike.

import Table from 'cli-table3';
import { colorizeLines, strlen } from 'cli-table3/src/utils.js';

/**
 * Rows per cli-table3 table: its layout costs CHUNK_ROWS × C² / 2 checks per row, and each table
 * its own set-up. What remains is cli-table3's own work per cell (options merged per cell, the
 * width measured about eight times), linear. Small enough that the quadratic layout does not
 * show, large enough that the set-ups do not (the measurement: docs/dependencies.md).
 */
export const CHUNK_ROWS = 32;

const BLANK_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
} as const;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * cli-table3's width of a cell. Printable ASCII is one column a character for string-width too
 * (no escape code, control, combining, emoji or wide character), and is most cells: those skip
 * string-width, which compiles its ANSI pattern again on every call.
 */
function cellWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : strlen(text);
}

/**
 * The lines of a borderless, left-aligned table: every column as wide as its widest cell (as
 * cli-table3 measures it) plus `gap` spaces, lines not trimmed. `head` undefined: no header line.
 * Cells are drawn as they are (already cut to width, possibly coloured).
 */
export function drawTable(head: string[] | undefined, rows: string[][], gap: number, floor?: number[]): string[] {
  const columns = head?.length ?? rows[0]?.length ?? 0;
  if (columns === 0 || (head === undefined && rows.length === 0)) return [];
  const colWidths = columnWidths(head, rows, gap, floor);
  if (isOneLineGrid(head, rows, columns)) return drawOneLineCells(head, rows, colWidths);
  return drawWithCliTable3(head, rows, gap, colWidths);
}

/**
 * Every column's width as drawn: its widest cell (as cli-table3 measures it) plus `gap`, at least
 * `floor` plus `gap` (a table drawn in parts lays every part out alike), at least 1.
 */
export function columnWidths(head: string[] | undefined, rows: string[][], gap: number, floor?: number[]): number[] {
  const columns = head?.length ?? rows[0]?.length ?? 0;
  const colWidths = Array.from({ length: columns }, (_, i) => Math.max(1, (floor?.[i] ?? 0) + (floor ? gap : 0)));
  const widen = (row: string[]): void => {
    for (let i = 0; i < columns; i++) colWidths[i] = Math.max(colWidths[i], cellWidth(row[i] ?? '') + gap);
  };
  if (head) widen(head);
  for (const row of rows) widen(row);
  return colWidths;
}

/** Whether every cell is one line of text and every row has `columns` cells. */
function isOneLineGrid(head: string[] | undefined, rows: string[][], columns: number): boolean {
  const oneLine = (row: string[]): boolean => row.length === columns && row.every((cell) => typeof cell === 'string' && !cell.includes('\n'));
  return (head === undefined || oneLine(head)) && rows.every(oneLine);
}

/**
 * cli-table3's lines for one-line cells, `colWidths` at least each cell's width: each cell as it
 * colours it, padded to its column's width (exported for the test).
 */
export function drawOneLineCells(head: string[] | undefined, rows: string[][], colWidths: number[]): string[] {
  const line = (row: string[]): string => {
    let out = '';
    for (let i = 0; i < row.length; i++) {
      const text = row[i].includes('\x1b') ? colorizeLines([row[i]])[0] : row[i];
      out += text + ' '.repeat(colWidths[i] - cellWidth(text));
    }
    return out;
  };
  const lines = head ? [line(head)] : [];
  for (const row of rows) lines.push(line(row));
  return lines;
}

/** The lines as cli-table3 draws them, in chunks of CHUNK_ROWS rows (exported for the test). */
export function drawWithCliTable3(head: string[] | undefined, rows: string[][], gap: number, colWidths: number[]): string[] {
  const lines: string[] = [];
  const draw = (chunk: string[][], withHead: boolean): void => {
    const table = new Table({
      chars: BLANK_CHARS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': gap, compact: true },
      wordWrap: false,
      colWidths: [...colWidths], // cli-table3 writes its computed widths back into this array
      ...(withHead && head ? { head } : {}),
    });
    table.push(...chunk);
    const text = table.toString();
    if (text !== '') lines.push(...text.split('\n'));
  };
  if (rows.length === 0) draw([], true);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) draw(rows.slice(start, start + CHUNK_ROWS), start === 0);
  return lines;
}
