// Time on the page's x axis: the window shown (zoom and pan), where a time is drawn, the axis
// ticks at round UTC steps, and which of a row's marks fall in the window (binary search: the
// page draws only what is visible). Pure, no DOM.

export interface TimeWindow {
  from: number;
  to: number;
}

export interface Scale extends TimeWindow {
  /** The plot's left and right edges in px. */
  x0: number;
  x1: number;
}

export const xOf = (s: Scale, t: number): number => s.x0 + ((t - s.from) / (s.to - s.from)) * (s.x1 - s.x0);
export const tOf = (s: Scale, x: number): number => s.from + ((x - s.x0) / (s.x1 - s.x0)) * (s.to - s.from);

/** The narrowest window: a millisecond is the logs' own resolution. */
const MIN_SPAN_MS = 1;

/**
 * The window zoomed by `factor` (< 1: in) around time `at`, kept within `bounds` (padded by a
 * twentieth, so marks at the edges are whole) and never narrower than a millisecond.
 */
export function zoom(w: TimeWindow, factor: number, at: number, bounds: TimeWindow): TimeWindow {
  const pad = (bounds.to - bounds.from) / 20;
  const maxSpan = bounds.to - bounds.from + 2 * pad;
  const span = Math.min(maxSpan, Math.max(MIN_SPAN_MS, (w.to - w.from) * factor));
  const ratio = (at - w.from) / (w.to - w.from);
  return clamp({ from: at - ratio * span, to: at - ratio * span + span }, bounds);
}

/** The window moved by `ms` (positive: later), kept within the padded bounds. */
export function pan(w: TimeWindow, ms: number, bounds: TimeWindow): TimeWindow {
  return clamp({ from: w.from + ms, to: w.to + ms }, bounds);
}

/** The whole history, with a twentieth of it free on each side. */
export function fit(bounds: TimeWindow): TimeWindow {
  const pad = (bounds.to - bounds.from) / 20;
  return { from: bounds.from - pad, to: bounds.to + pad };
}

function clamp(w: TimeWindow, bounds: TimeWindow): TimeWindow {
  const all = fit(bounds);
  const span = w.to - w.from;
  if (span >= all.to - all.from) return all;
  if (w.from < all.from) return { from: all.from, to: all.from + span };
  if (w.to > all.to) return { from: all.to - span, to: all.to };
  return w;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

export interface Tick {
  t: number;
  label: string;
}

/** Ticks at the smallest round UTC step at least `minPx` apart, labelled to that step's precision. */
export function ticks(s: Scale, minPx = 90): Tick[] {
  const pxPerMs = (s.x1 - s.x0) / (s.to - s.from);
  const step = STEPS.find((st) => st * pxPerMs >= minPx) ?? STEPS[STEPS.length - 1];
  const out: Tick[] = [];
  let lastDay = '';
  for (let t = Math.ceil(s.from / step) * step; t <= s.to; t += step) {
    const iso = new Date(t).toISOString();
    const day = iso.slice(0, 10);
    const clock = step < SECOND ? iso.slice(11, 23) : step < MINUTE ? iso.slice(11, 19) : iso.slice(11, 16);
    // the date on the first tick and where the day changes; every time is UTC
    out.push({ t, label: `${day !== lastDay ? `${day} ` : ''}${clock}Z` });
    lastDay = day;
  }
  return out;
}

/** The first position in `idx` (ascending by `timeOf`) whose time is at or after `t` (`after`: after `t`). */
function lowerBound(idx: readonly number[], timeOf: (i: number) => number, t: number, after = false): number {
  let lo = 0;
  let hi = idx.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = timeOf(idx[mid]);
    if (v < t || (after && v === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries of `idx` whose times are within the window, as a [start, end) range of `idx`. */
export function visibleRange(idx: readonly number[], timeOf: (i: number) => number, w: TimeWindow): [number, number] {
  return [lowerBound(idx, timeOf, w.from), lowerBound(idx, timeOf, w.to, true)];
}
