// Screen geometry, shared by the reducer (to keep the cursor on screen) and the components (to
// draw exactly that many lines). Everything is a pure function of the terminal size.

import type { Mode } from '../services/watch/contract.js';

export interface Size {
  columns: number;
  rows: number;
}

export interface Layout {
  width: number;
  /** Lines drawn: one less than the terminal, so the frame never scrolls the screen. */
  height: number;
  header: number;
  main: number;
  /** The queue pane (reconcile mode only), title included; 0 when hidden. */
  queue: number;
  /** The log pane, title included; 0 when hidden. */
  log: number;
  footer: number;
}

export const HEADER_ROWS = 2;
export const FOOTER_ROWS = 1;
export const MIN_COLUMNS = 20;

export const DEFAULT_SIZE: Size = { columns: 80, rows: 24 };

/** A usable size from what a stream reports (0 or undefined when it is not a terminal). */
export function sizeOf(stream: { columns?: number; rows?: number }, fallback: Size = DEFAULT_SIZE): Size {
  const columns = stream.columns && stream.columns > 0 ? stream.columns : fallback.columns;
  const rows = stream.rows && stream.rows > 0 ? stream.rows : fallback.rows;
  return { columns, rows };
}

export function computeLayout(size: Size, mode: Mode): Layout {
  const width = Math.max(MIN_COLUMNS, Math.floor(size.columns));
  const height = Math.max(4, Math.floor(size.rows) - 1);
  const log = height >= 34 ? 7 : height >= 20 ? 4 : height >= 14 ? 3 : 0;
  const queue = mode === 'reconcile' ? (height >= 34 ? 6 : height >= 20 ? 4 : height >= 14 ? 2 : 0) : 0;
  const main = Math.max(1, height - HEADER_ROWS - FOOTER_ROWS - log - queue);
  return { width, height, header: HEADER_ROWS, main, queue, log, footer: FOOTER_ROWS };
}

/** Controller rows visible in the list (the main area minus its column header). */
export function listRows(layout: Layout): number {
  return Math.max(1, layout.main - 1);
}

export interface DetailLayout {
  /** Title lines (controller, selector, counts). */
  title: number;
  /** Pod rows visible (below one column-header line). */
  pods: number;
  /** The deletion-order section, title included; 0 when nothing is deleted or no room. */
  deletion: number;
  /** The "why" box for the selected pod, title included; 0 when no room. */
  why: number;
}

export function detailLayout(main: number, deleteCount: number): DetailLayout {
  const title = Math.min(2, Math.max(0, main - 2));
  const rest = Math.max(1, main - title - 1);
  const why = rest >= 20 ? 4 : rest >= 6 ? 3 : 0;
  const deletionRoom = rest >= 20 ? 7 : rest >= 12 ? 4 : rest >= 8 ? 2 : 0;
  const deletion = deleteCount === 0 ? 0 : Math.min(deleteCount + 1, deletionRoom);
  const pods = Math.max(1, rest - why - deletion);
  return { title, pods, deletion, why };
}

/** The first visible index so that `cursor` is on screen, moving the window as little as possible. */
export function scrollTo(top: number, cursor: number, visible: number, total: number): number {
  const maxTop = Math.max(0, total - visible);
  let t = Math.min(Math.max(0, top), maxTop);
  if (cursor < t) t = cursor;
  else if (cursor >= t + visible) t = cursor - visible + 1;
  return Math.min(Math.max(0, t), maxTop);
}

/**
 * The rows [start, end) to draw in `room` lines when a row may take several lines (a name that is
 * wider than its column wraps): from `top`, moved down as little as needed to show all of the
 * cursor's row, then as many whole rows after it as fit.
 */
export function wrappedWindow(top: number, cursor: number, total: number, heightOf: (i: number) => number, room: number): { start: number; end: number } {
  if (total === 0 || room <= 0) return { start: 0, end: 0 };
  const c = Math.min(Math.max(0, cursor), total - 1);
  let start = Math.min(Math.max(0, top), c);
  let used = 0;
  for (let i = start; i <= c; i++) used += heightOf(i);
  while (used > room && start < c) used -= heightOf(start++);
  let end = c + 1;
  while (end < total && used + heightOf(end) <= room) used += heightOf(end++);
  return { start, end };
}
