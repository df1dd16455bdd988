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

const HEADER_ROWS = 2;
const FOOTER_ROWS = 1;
const MIN_COLUMNS = 20;

const DEFAULT_SIZE: Size = { columns: 80, rows: 24 };

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

// ---------------------------------------------------------------------------------------------
// Widths. Every pane asks here how wide each column is at the terminal's width, so that no row is
// ever wider than the screen (a row that wraps would look like two rows). A table first narrows
// and drops columns in its stated order (what it says least goes first), and only then, as the
// last resort, cuts the names and reasons that still do not fit with "…". The orders are the
// constants below; docs/how-it-works.md ("watch at every width") says the same in words.

/** One table column as the layout sees it. */
export interface ColumnSpec {
  id: string;
  /** The widest of its cells and its header. */
  natural: number;
  /** Its abbreviated width (shorter cells that lose little: `yes` for `yes 3d`); absent: none. */
  narrow?: number;
  /** Every cell is the default (no cost set, no restart): dropping it hides nothing. */
  empty?: boolean;
  /** The narrowest a name or a reason may be cut to with "…" as the last resort; absent: never cut. */
  cut?: number;
}

/** One step of a table's priority: narrow a column, or drop it (only when `ifEmpty` says nothing is lost, if set). */
export type GiveWay = { narrow: string } | { drop: string; ifEmpty?: boolean };

export interface TableFit {
  /** Width of every column shown, by id; a dropped column is absent. */
  widths: Map<string, number>;
  /** Ids of the columns shown, in their order. */
  shown: string[];
}

/**
 * The columns of a table in `width` characters: `fixed` of them are taken (a cursor, an indent),
 * `gap` spaces go between two columns. The steps of `order` are taken one by one until the row
 * fits; then the columns that may be cut give way, the widest first, down to their floor.
 */
export function fitTable(columns: ColumnSpec[], order: readonly GiveWay[], width: number, o: { gap: number; fixed: number }): TableFit {
  const widths = new Map(columns.map((c) => [c.id, c.natural]));
  const byId = new Map(columns.map((c) => [c.id, c]));
  const total = () => o.fixed + [...widths.values()].reduce((n, w) => n + w, 0) + o.gap * Math.max(0, widths.size - 1);
  for (const step of order) {
    if (total() <= width) break;
    if ('narrow' in step) {
      const c = byId.get(step.narrow);
      if (c?.narrow !== undefined && widths.has(c.id)) widths.set(c.id, Math.min(widths.get(c.id) ?? 0, c.narrow));
    } else if (widths.has(step.drop) && (!step.ifEmpty || byId.get(step.drop)?.empty)) widths.delete(step.drop);
  }
  let over = total() - width;
  while (over > 0) {
    let pick: ColumnSpec | null = null;
    for (const c of columns) {
      const w = widths.get(c.id);
      if (w === undefined || c.cut === undefined || w <= c.cut) continue;
      if (!pick || w > (widths.get(pick.id) ?? 0)) pick = c;
    }
    if (!pick) break; // a terminal narrower than every floor: the line itself is cut
    widths.set(pick.id, (widths.get(pick.id) ?? 0) - 1);
    over--;
  }
  return { widths, shown: columns.filter((c) => widths.has(c.id)).map((c) => c.id) };
}

/**
 * The controllers list, least telling first: the numbers narrow to their widest cell, the ready
 * bar halves then goes, ADP/REL go when no row adopts or releases, then AVL, RDY, ADP/REL
 * and CUR. DES, CRT and DEL stay; the name is cut last.
 */
export const LIST_ORDER: readonly GiveWay[] = [
  ...['DES', 'CUR', 'RDY', 'AVL', 'ADP', 'REL', 'CRT', 'DEL'].map((id) => ({ narrow: id })),
  { narrow: 'BAR' },
  { drop: 'BAR' },
  { drop: 'ADP', ifEmpty: true },
  { drop: 'REL', ifEmpty: true },
  { drop: 'AVL' },
  { drop: 'RDY' },
  { drop: 'REL' },
  { drop: 'ADP' },
  { drop: 'CUR' },
];

/**
 * A controller's pods, least telling first: COST and RST when they say nothing, READY without
 * its duration, PHASE abbreviated, then AGE, COST, RST, NODE, PHASE and READY. NAME, DECISION,
 * REASON and DEL (the place in the deletion order) stay; the name and the reason are cut last.
 */
export const POD_ORDER: readonly GiveWay[] = [
  { drop: 'COST', ifEmpty: true },
  { drop: 'RST', ifEmpty: true },
  { narrow: 'READY' },
  { narrow: 'PHASE' },
  { drop: 'AGE' },
  { drop: 'COST' },
  { drop: 'RST' },
  { drop: 'NODE' },
  { drop: 'PHASE' },
  { drop: 'READY' },
];

/**
 * A Deployment's row: its name and the next step stay (the step is cut at its end, down to
 * STEP_FLOOR, before anything else goes); the strategy goes first, then the available count, then
 * the updated one. Keep ranks for fitItems: the lowest goes first.
 */
export const DEPLOYMENT_ROW_KEEP = { strategy: 1, available: 2, updated: 3 } as const;
/** The width the next step counts for when the row's items are fitted: it is cut with "…" beyond. */
export const STEP_FLOOR = 24;

/**
 * A Deployment's ReplicaSet row: its name and its sizes (`2/2 → 3`) stay, the name cut first; the
 * image goes first, then the revision and role, then the ready and available counts.
 */
export const DEPLOYMENT_RS_ROW_KEEP = { image: 1, revision: 2, counts: 3 } as const;

/**
 * A Deployment's ReplicaSets in its detail: the image goes first, then the role, the revision, the
 * available and the ready counts. NAME, DES, CUR and NEXT stay; the name is cut last.
 */
export const DEPLOYMENT_RS_ORDER: readonly GiveWay[] = [{ drop: 'IMAGE' }, { drop: 'ROLE' }, { drop: 'REV' }, { drop: 'AVL' }, { drop: 'RDY' }];

/**
 * A Deployment's detail in `main` lines: the title (two lines, one when short), the next step's
 * first lines, then the ReplicaSets, then the strategy's arithmetic, then the rest of the step.
 * A section that gets fewer than two lines (its title and one) is not shown.
 */
export function deploymentDetailLayout(
  main: number,
  need: { step: number; replicaSets: number; arithmetic: number },
): {
  title: number;
  step: number;
  replicaSets: number;
  arithmetic: number;
} {
  const title = main >= 8 ? 2 : Math.min(1, main);
  let left = Math.max(0, main - title);
  const take = (n: number) => {
    const got = Math.min(n, left);
    if (got < 2) return 0;
    left -= got;
    return got;
  };
  let step = take(1 + Math.min(need.step, 2));
  const replicaSets = take(2 + need.replicaSets);
  const arithmetic = take(1 + need.arithmetic);
  if (step > 0) {
    const more = Math.min(left, 1 + need.step - step);
    step += more;
  }
  return { title, step, replicaSets, arithmetic };
}

/** The history pane: the time goes first; then who, the pod and the reason are cut, the widest first. */
export const HISTORY_ORDER: readonly GiveWay[] = [{ drop: 'TIME' }];

/** A line made of items (a header, a title, the key line): the items of lowest `keep` go first, the last of equals first. */
export interface LineItem<T> {
  segs: T[];
  /** Higher stays longer; Infinity is never dropped (it may still be cut as the last resort). */
  keep: number;
}

/** The items of a line that fit `width`, in their order (each item's width is measured by `widthOf`). */
export function fitItems<T>(items: LineItem<T>[], width: number, widthOf: (segs: T[]) => number): T[] {
  const kept = items.map(() => true);
  let total = items.reduce((n, it) => n + widthOf(it.segs), 0);
  const ranks = items.map((it, i) => ({ keep: it.keep, i })).sort((a, b) => a.keep - b.keep || b.i - a.i);
  for (const { keep, i } of ranks) {
    if (total <= width || keep === Number.POSITIVE_INFINITY) break;
    kept[i] = false;
    total -= widthOf(items[i].segs);
  }
  return items.filter((_, i) => kept[i]).flatMap((it) => it.segs);
}
