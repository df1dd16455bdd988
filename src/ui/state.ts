// The dashboard's state, independent of ink: a reducer over actions (a new plan, a key, a
// resize, a clock tick, a log line, queue metrics). The reducer does O(controllers) work when
// the plan, the filter or the sort changes, and O(1) work for everything else (moving, scrolling,
// pausing): nothing here ever walks pods. Rendering reads only the visible slice.

import { entryKey } from '../core/plan-compare.js';
import type { PlanController } from '../core/plan-types.js';
import type { AwaitedWrites, HistoryRow, LogEntry, PlanFrame, QueueInfo, WatchMeta, DeploymentView } from '../services/watch/contract.js';
import { humanDuration } from '../render/text.js';
import { computeLayout, detailLayout, listRows, scrollTo, type Size } from './layout.js';
import { deploymentKeyOf, listRowsOf, rowController, rowDeployment, rowKey, type ListRow, type SortKey } from './list-rows.js';
import { RingBuffer } from './ring.js';

// The feed's side of the dashboard (what a watch session hands the UI) is the services' contract.

const SORT_KEYS: readonly SortKey[] = ['name', 'drift', 'desired'];
export const SORT_LABELS: Record<SortKey, string> = { name: 'name', drift: 'drift first', desired: 'desired' };

export type View = 'list' | 'detail';

export interface KeyInput {
  input: string;
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
}

export type Action =
  | { type: 'snapshotChanged'; frame: PlanFrame }
  | { type: 'key'; key: KeyInput }
  | { type: 'resize'; size: Size }
  | { type: 'tick'; now: number }
  | { type: 'log'; entry: LogEntry }
  | { type: 'history'; key: string; row: HistoryRow }
  /** The timeline page asked for with `w` was written (or could not be): what to tell. */
  | { type: 'historyPage'; text: string; level: 'info' | 'error' }
  | { type: 'queue'; queue: QueueInfo };

export interface WatchState {
  meta: WatchMeta;
  size: Size;
  /** The plan on screen. */
  frame: PlanFrame | null;
  /** The newest plan received (differs from `frame` while paused). */
  latest: PlanFrame | null;
  /** Plans received while paused. */
  waiting: number;
  /** Indexes into frame.plan.controllers: filtered and sorted. */
  order: number[];
  /** The list's rows: the Deployments with their ReplicaSets, then the controllers of `order`; the cursor is an index here. */
  rows: ListRow[];
  cursor: number;
  top: number;
  /** The selected row's controller (or Deployment) key: what the history pane and `w` are about. */
  selectedKey: string | null;
  /** The selected row (list-rows.ts rowKey): kept under the cursor across plans. */
  selectedRow: string | null;
  view: View;
  podCursor: number;
  podTop: number;
  selectedPod: string | null;
  filter: string;
  filtering: boolean;
  sort: SortKey;
  paused: boolean;
  help: boolean;
  quit: boolean;
  /** The clock as the header shows it: moved on only when the shown age ("12s ago") changes. */
  now: number;
  /** Recent changes and events; mutable ring buffer, `logSeq` counts appends. */
  log: RingBuffer<LogEntry>;
  logSeq: number;
  /** Actions of the controller (reconcile mode), newest last. */
  actions: RingBuffer<LogEntry>;
  /** Log lines that arrived while paused, shown on resume. */
  held: RingBuffer<LogEntry>;
  queue: QueueInfo | null;
  /** `h`: the history pane (the selected controller's last writes explained) in place of the log. */
  historyPane: boolean;
  /** The last writes explained, per controller key; mutable rings, `historySeq` counts the ones shown. */
  history: Map<string, RingBuffer<HistoryRow>>;
  historySeq: number;
  /** History rows that arrived while paused, kept on resume. */
  heldHistory: RingBuffer<{ key: string; row: HistoryRow }>;
  /** `w` in the history pane: the controller whose timeline page to write; `seq` counts the asks. */
  pageRequest: { key: string; seq: number } | null;
  /** What the last `w` did (the page's path), shown in the pane's title. */
  historyNote: string | null;
}

const LOG_CAPACITY = 500;
const ACTIONS_CAPACITY = 50;
/** Writes kept per controller for the history pane. */
export const HISTORY_CAPACITY = 50;

export function initialState(meta: WatchMeta, size: Size, now: number, logCapacity = LOG_CAPACITY): WatchState {
  return {
    meta,
    size,
    frame: null,
    latest: null,
    waiting: 0,
    order: [],
    rows: [],
    cursor: 0,
    top: 0,
    selectedKey: null,
    selectedRow: null,
    view: 'list',
    podCursor: 0,
    podTop: 0,
    selectedPod: null,
    filter: '',
    filtering: false,
    sort: 'name',
    paused: false,
    help: false,
    quit: false,
    now,
    log: new RingBuffer<LogEntry>(logCapacity),
    logSeq: 0,
    actions: new RingBuffer<LogEntry>(ACTIONS_CAPACITY),
    held: new RingBuffer<LogEntry>(logCapacity),
    queue: null,
    historyPane: false,
    history: new Map(),
    historySeq: 0,
    heldHistory: new RingBuffer<{ key: string; row: HistoryRow }>(logCapacity),
    pageRequest: null,
    historyNote: null,
  };
}

/** What a controller skipped with ExpectationsPending waits for (null: not waiting). */
export function awaitedBy(frame: PlanFrame | null, c: PlanController): AwaitedWrites | null {
  if (c.skip?.reason !== 'ExpectationsPending') return null;
  return frame?.waiting?.get(entryKey(c)) ?? 'creates';
}

/** The words for a controller that does not manage its replicas now: waiting for its creates, or skipped and why. */
export function skipLabel(frame: PlanFrame | null, c: PlanController): string | null {
  if (c.skip === null) return null;
  const awaited = awaitedBy(frame, c);
  return awaited ? `waiting for its ${awaited}` : `skipped: ${c.skip.reason}`;
}

/**
 * "12s ago", "5m ago", "3h ago", "2d ago": seconds only for the first minute, so an idle
 * dashboard changes its header (and is redrawn) once a minute, not every second.
 */
export function agoText(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** The queue pane's text of a sample: equal samples are not redrawn. */
function queueText(q: QueueInfo | null): string {
  if (!q) return '';
  const queues = q.queues.map((x) => `${x.name} ${x.depth} ${x.inFlight} ${x.retries} ${x.adds}`).join(';');
  const exp = q.expectations.map((e) => `${e.kind}/${e.key} ${e.add} ${e.del} ${humanDuration(e.ageMs / 1000)}`).join(';');
  return `${queues}|${exp}`;
}

/** Drifted: the controller would act or write its status (skipped ones are not drift). */
export function isDrifted(c: PlanController): boolean {
  return !c.inSync && c.skip === null;
}

const claimCache = new WeakMap<PlanController, { adopt: number; release: number }>();

/** Adoptions and releases of a plan entry, counted once per plan (not per render). */
export function claimCounts(c: PlanController): { adopt: number; release: number } {
  let v = claimCache.get(c);
  if (!v) {
    let adopt = 0;
    let release = 0;
    for (const p of c.pods) {
      if (p.decision === 'adopt') adopt++;
      else if (p.decision === 'release') release++;
    }
    v = { adopt, release };
    claimCache.set(c, v);
  }
  return v;
}

function compareName(a: PlanController, b: PlanController): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;
}

function driftRank(c: PlanController): number {
  if (isDrifted(c)) return 0;
  if (c.skip !== null) return 1;
  return 2;
}

/** The controllers shown, in order: those whose namespace/name contains the filter. */
export function orderControllers(controllers: readonly PlanController[], filter: string, sort: SortKey): number[] {
  const needle = filter.trim().toLowerCase();
  const idx: number[] = [];
  for (let i = 0; i < controllers.length; i++) {
    const c = controllers[i];
    if (needle === '' || `${c.namespace}/${c.name}`.toLowerCase().includes(needle)) idx.push(i);
  }
  const cmp =
    sort === 'name'
      ? compareName
      : sort === 'drift'
        ? (a: PlanController, b: PlanController) => driftRank(a) - driftRank(b) || compareName(a, b)
        : (a: PlanController, b: PlanController) => b.replicas.desired - a.replicas.desired || compareName(a, b);
  idx.sort((i, j) => cmp(controllers[i], controllers[j]));
  return idx;
}

function selectedRowOf(s: WatchState): ListRow | null {
  if (!s.frame || s.rows.length === 0) return null;
  return s.rows[Math.min(s.cursor, s.rows.length - 1)] ?? null;
}

/** The controller under the cursor: a controller's row, or a Deployment's ReplicaSet in scope; null on a Deployment. */
export function selectedController(s: WatchState): PlanController | null {
  const row = selectedRowOf(s);
  return row && s.frame ? rowController(s.frame, row) : null;
}

/** The Deployment whose detail Enter opens: its own row, or one of its ReplicaSets that is not in scope as a controller. */
export function selectedDeployment(s: WatchState): DeploymentView | null {
  const row = selectedRowOf(s);
  if (!row || !s.frame || row.type === 'controller') return null;
  if (row.type === 'replicaSet' && rowController(s.frame, row)) return null;
  return rowDeployment(s.frame, row);
}

/** The controllers on screen (the window of the list), with their positions in the rows. */
export function visibleControllers(s: WatchState): { index: number; controller: PlanController }[] {
  if (!s.frame) return [];
  const rows = listRows(computeLayout(s.size, s.meta.mode));
  const out: { index: number; controller: PlanController }[] = [];
  const end = Math.min(s.rows.length, s.top + rows);
  for (let i = s.top; i < end; i++) {
    const c = rowController(s.frame, s.rows[i]);
    if (c) out.push({ index: i, controller: c });
  }
  return out;
}

function podRowsFor(s: WatchState, c: PlanController): number {
  return detailLayout(computeLayout(s.size, s.meta.mode).main, c.delete.length).pods;
}

/** Re-derive order, cursor and scroll positions after the plan, filter, sort or size changed. */
function relayout(s: WatchState): WatchState {
  const frame = s.frame;
  if (!frame) return s;
  const order = orderControllers(frame.plan.controllers, s.filter, s.sort);
  const rows = listRowsOf(frame, order, s.filter, s.sort);
  let cursor = Math.min(s.cursor, Math.max(0, rows.length - 1));
  if (s.selectedRow !== null) {
    for (let i = 0; i < rows.length; i++) {
      if (rowKey(frame, rows[i]) === s.selectedRow) {
        cursor = i;
        break;
      }
    }
  }
  return fixDetail(moveCursor({ ...s, order, rows }, cursor));
}

function moveCursor(s: WatchState, to: number): WatchState {
  const n = s.rows.length;
  const cursor = n === 0 ? 0 : Math.min(Math.max(0, to), n - 1);
  const visible = listRows(computeLayout(s.size, s.meta.mode));
  const top = scrollTo(s.top, cursor, visible, n);
  const row = n === 0 || !s.frame ? null : s.rows[cursor];
  if (!row || !s.frame) return { ...s, cursor, top, selectedKey: null, selectedRow: null };
  const c = rowController(s.frame, row);
  const d = c ? null : rowDeployment(s.frame, row);
  const selectedKey = c ? entryKey(c) : d ? deploymentKeyOf(d) : null;
  return { ...s, cursor, top, selectedKey, selectedRow: rowKey(s.frame, row) };
}

/** Keep the detail view on the same pod (by name) and on screen; back to the list if gone. */
function fixDetail(s: WatchState): WatchState {
  if (s.view !== 'detail') return s;
  const c = selectedController(s);
  if (!c) return selectedDeployment(s) ? s : { ...s, view: 'list' };
  let podCursor = Math.min(s.podCursor, Math.max(0, c.pods.length - 1));
  if (s.selectedPod !== null && c.pods[podCursor]?.name !== s.selectedPod) {
    const i = c.pods.findIndex((p) => p.name === s.selectedPod);
    if (i >= 0) podCursor = i;
  }
  return movePod(s, c, podCursor);
}

function movePod(s: WatchState, c: PlanController, to: number): WatchState {
  const n = c.pods.length;
  const podCursor = n === 0 ? 0 : Math.min(Math.max(0, to), n - 1);
  const podTop = scrollTo(s.podTop, podCursor, podRowsFor(s, c), n);
  return { ...s, podCursor, podTop, selectedPod: n === 0 ? null : c.pods[podCursor].name };
}

function showFrame(s: WatchState, frame: PlanFrame): WatchState {
  return relayout({ ...s, frame, latest: frame, waiting: 0, now: Math.max(s.now, frame.at) });
}

function appendLog(s: WatchState, entry: LogEntry): WatchState {
  if (s.paused) {
    s.held.push(entry);
    return s;
  }
  s.log.push(entry);
  if (entry.level === 'action') s.actions.push(entry);
  return { ...s, logSeq: s.logSeq + 1 };
}

/**
 * Keeps the row in its controller's ring; a new state (a redraw) only when the pane shows that
 * controller. Paused, the screen stays as it is: rows are held and kept on resume.
 */
function appendHistory(s: WatchState, key: string, row: HistoryRow): WatchState {
  if (s.paused) {
    s.heldHistory.push({ key, row });
    return s;
  }
  keepHistory(s, key, row);
  if (!s.historyPane || key !== s.selectedKey) return s;
  return { ...s, historySeq: s.historySeq + 1 };
}

function keepHistory(s: WatchState, key: string, row: HistoryRow): void {
  let ring = s.history.get(key);
  if (!ring) s.history.set(key, (ring = new RingBuffer<HistoryRow>(HISTORY_CAPACITY)));
  ring.push(row);
}

/** The selected controller's newest `n` writes explained, oldest first. */
export function historyRows(s: WatchState, n: number): HistoryRow[] {
  return s.selectedKey === null ? [] : (s.history.get(s.selectedKey)?.last(n) ?? []);
}

function togglePause(s: WatchState): WatchState {
  if (!s.paused) return { ...s, paused: true };
  const resumed: WatchState = { ...s, paused: false };
  const held = s.held.toArray();
  s.held.clear();
  for (const e of held) {
    resumed.log.push(e);
    if (e.level === 'action') resumed.actions.push(e);
  }
  resumed.logSeq = s.logSeq + held.length;
  const heldHistory = s.heldHistory.toArray();
  s.heldHistory.clear();
  for (const h of heldHistory) keepHistory(resumed, h.key, h.row);
  resumed.historySeq = s.historySeq + heldHistory.length;
  return resumed.latest && resumed.latest !== resumed.frame ? showFrame(resumed, resumed.latest) : { ...resumed, waiting: 0 };
}

function isPrintable(k: KeyInput): boolean {
  if (k.ctrl || k.meta || k.escape || k.return || k.tab || k.backspace || k.delete) return false;
  if (k.upArrow || k.downArrow || k.leftArrow || k.rightArrow || k.pageUp || k.pageDown || k.home || k.end) return false;
  // eslint-disable-next-line no-control-regex
  return k.input !== '' && !/[\u0000-\u001f\u007f]/.test(k.input);
}

function onFilterKey(s: WatchState, k: KeyInput): WatchState {
  if (k.escape) return relayout({ ...s, filtering: false, filter: '' });
  if (k.return) return { ...s, filtering: false };
  if (k.backspace || k.delete) return s.filter === '' ? s : relayout({ ...s, filter: [...s.filter].slice(0, -1).join('') });
  if (k.upArrow || k.downArrow) return onMove(s, k);
  if (isPrintable(k)) return relayout({ ...s, filter: (s.filter + k.input).slice(0, 200) });
  return s;
}

/**
 * Where a movement key takes a cursor at `at` in `count` rows, a page being `page` rows: ↑/k and
 * ↓/j by one, PgUp/PgDn by a page, Home/g and End/G to the ends; any other key leaves it (the
 * callers clamp it).
 */
function movedTo(k: KeyInput, at: number, page: number, count: number): number {
  if (k.upArrow || k.input === 'k') return at - 1;
  if (k.downArrow || k.input === 'j') return at + 1;
  if (k.pageUp) return at - page;
  if (k.pageDown) return at + page;
  if (k.home || k.input === 'g') return 0;
  if (k.end || k.input === 'G') return count - 1;
  return at;
}

function onMove(s: WatchState, k: KeyInput): WatchState {
  if (s.view === 'detail') {
    const c = selectedController(s);
    if (!c) return s;
    return movePod(s, c, movedTo(k, s.podCursor, podRowsFor(s, c), c.pods.length));
  }
  return moveCursor(s, movedTo(k, s.cursor, listRows(computeLayout(s.size, s.meta.mode)), s.rows.length));
}

function isMove(k: KeyInput): boolean {
  return !!(k.upArrow || k.downArrow || k.pageUp || k.pageDown || k.home || k.end) || (!k.ctrl && !k.meta && ['j', 'k', 'g', 'G'].includes(k.input));
}

function onKey(s: WatchState, k: KeyInput): WatchState {
  if (k.ctrl && k.input === 'c') return { ...s, quit: true };
  if (s.filtering) return onFilterKey(s, k);
  if (s.help) {
    if (k.input === 'q') return { ...s, quit: true };
    if (k.escape || k.input === '?' || k.return) return { ...s, help: false };
    return s;
  }
  // ink reports Esc with meta set: look at it before ignoring modified keys
  if (k.escape) {
    if (s.view === 'detail') return { ...s, view: 'list' };
    if (s.filter !== '') return relayout({ ...s, filter: '' });
    return s;
  }
  if (k.ctrl || k.meta) return s;
  if (isMove(k)) return onMove(s, k);
  if (k.return) {
    if (s.view === 'list' && (selectedController(s) || selectedDeployment(s)))
      return fixDetail({ ...s, view: 'detail', podCursor: 0, podTop: 0, selectedPod: null });
    return s;
  }
  switch (k.input) {
    case 'q':
      return { ...s, quit: true };
    case '?':
      return { ...s, help: true };
    case 'p':
      return togglePause(s);
    case 'h':
      return { ...s, historyPane: !s.historyPane };
    case 'w':
      // the pane's controller, as a timeline page (the dashboard writes it: run.tsx)
      if (!s.historyPane || s.selectedKey === null) return s;
      return { ...s, pageRequest: { key: s.selectedKey, seq: (s.pageRequest?.seq ?? 0) + 1 }, historyNote: 'writing the timeline page…' };
    case 's':
      return relayout({ ...s, sort: SORT_KEYS[(SORT_KEYS.indexOf(s.sort) + 1) % SORT_KEYS.length] });
    case '/':
      return { ...s, view: 'list', filtering: true };
    default:
      return s;
  }
}

export function reduce(s: WatchState, a: Action): WatchState {
  switch (a.type) {
    case 'snapshotChanged':
      if (s.paused) return { ...s, latest: a.frame, waiting: s.waiting + 1 };
      return showFrame(s, a.frame);
    case 'key':
      return onKey(s, a.key);
    case 'resize': {
      const size = { columns: Math.max(1, Math.floor(a.size.columns)), rows: Math.max(1, Math.floor(a.size.rows)) };
      if (size.columns === s.size.columns && size.rows === s.size.rows) return s;
      return fixDetail(moveCursor({ ...s, size }, s.cursor));
    }
    case 'tick':
      // only when the age on screen changes: nothing else reads the clock
      if (!s.frame || s.meta.mode === 'snapshot' || agoText(a.now - s.frame.at) === agoText(s.now - s.frame.at)) return s;
      return { ...s, now: a.now };
    case 'log':
      return appendLog(s, a.entry);
    case 'history':
      return appendHistory(s, a.key, a.row);
    case 'historyPage':
      return appendLog({ ...s, historyNote: a.text }, { at: s.now, level: a.level === 'error' ? 'error' : 'info', text: a.text });
    case 'queue':
      return queueText(a.queue) === queueText(s.queue) ? s : { ...s, queue: a.queue };
  }
}
