// metav1.Time as the API server reads and writes it: RFC 3339 with an offset, validated field by
// field (the calendar included), and Dates from YAML parsers written back in its own form.

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The number written by the `count` ASCII digits of `s` at `i`, or -1. */
function digits(s: string, i: number, count: number): number {
  let v = 0;
  for (let k = i; k < i + count; k++) {
    const c = s.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

const DASH = 45;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const T = 84;
const Z = 90;

/**
 * Whether Go's `time.Parse(time.RFC3339, s)` (what metav1.Time uses) accepts `s`:
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, with a real date and time. Hand-written because it
 * runs for every timestamp of every pod.
 */
export function isRfc3339(s: string): boolean {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH || s.charCodeAt(10) !== T || s.charCodeAt(13) !== COLON || s.charCodeAt(16) !== COLON) {
    return false;
  }
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s.charCodeAt(i) === DOT) {
    i++;
    const from = i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === from) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === Z) return i + 1 === n;
  if ((zone === PLUS || zone === DASH) && i + 6 === n && s.charCodeAt(i + 3) === COLON) {
    const offsetHours = digits(s, i + 1, 2);
    const offsetMinutes = digits(s, i + 4, 2);
    return offsetHours >= 0 && offsetHours <= 23 && offsetMinutes >= 0 && offsetMinutes <= 59;
  }
  return false;
}

/** A Date (as @kubernetes/client-node deserializes times) written the way the API server does. */
export function formatTime(d: Date): string {
  const s = d.toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s;
}

/** A timestamp field as read: a YAML parser's Date back to its RFC 3339 text, anything else as it is. */
export function timeValue(v: unknown): string | null | undefined {
  if (v instanceof Date) return formatTime(v);
  return v as string | null | undefined;
}

/** `v` with every Date replaced by its RFC3339 string; unchanged (same object) when it has none. */
export function withoutDates<T>(v: T): T {
  if (v instanceof Date) return formatTime(v) as T;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const e = withoutDates(v[i]);
      if (e !== v[i]) (out ??= v.slice())[i] = e;
    }
    return (out ?? v) as T;
  }
  if (typeof v === 'object' && v !== null) {
    let out: Record<string, unknown> | undefined;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const e = withoutDates(o[k]);
      if (e !== o[k]) (out ??= { ...o })[k] = e;
    }
    return (out ?? v) as T;
  }
  return v;
}
