// cli-table3 ships no types for its helpers; src/render/table.ts uses its width function so that
// the widths it gives cli-table3 are the ones cli-table3 would compute itself.
declare module 'cli-table3/src/utils.js' {
  /** Display width of the widest line of `str`, ANSI colour codes removed (string-width). */
  export function strlen(str: string): number;
  /** The lines of a cell, each with the colours left open by an earlier line re-opened and its own closed. */
  export function colorizeLines(lines: string[]): string[];
}
