// Times as microseconds since the epoch (a float64 holds them exactly until the year 2255), read
// from the spellings the exports use: RFC 3339 (`2026-11-25T02:52:48.864809Z`, any fraction,
// `Z` or an offset), BigQuery's `2026-11-25 02:52:48.864809 UTC`, and Logs Insights'
// `2026-11-25 02:52:48.864` (UTC). Read byte by byte: this runs once per entry.

let lastDay = -1;
let lastDayMs = 0;

function dayMs(y: number, mo: number, d: number): number {
  const key = y * 10000 + mo * 100 + d;
  if (key !== lastDay) {
    lastDay = key;
    lastDayMs = Date.UTC(y, mo - 1, d);
  }
  return lastDayMs;
}

const digit = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : -1000);

/** Microseconds since the epoch of `s`, or NaN. */
export function timeUs(s: string): number {
  const n = s.length;
  if (n < 19) return fallback(s);
  const y = digit(s.charCodeAt(0)) * 1000 + digit(s.charCodeAt(1)) * 100 + digit(s.charCodeAt(2)) * 10 + digit(s.charCodeAt(3));
  const mo = digit(s.charCodeAt(5)) * 10 + digit(s.charCodeAt(6));
  const d = digit(s.charCodeAt(8)) * 10 + digit(s.charCodeAt(9));
  const h = digit(s.charCodeAt(11)) * 10 + digit(s.charCodeAt(12));
  const mi = digit(s.charCodeAt(14)) * 10 + digit(s.charCodeAt(15));
  const se = digit(s.charCodeAt(17)) * 10 + digit(s.charCodeAt(18));
  const sep = s.charCodeAt(10);
  if (
    y < 0 ||
    mo < 1 ||
    mo > 12 ||
    d < 1 ||
    d > 31 ||
    h < 0 ||
    h > 23 ||
    mi < 0 ||
    mi > 59 ||
    se < 0 ||
    se > 60 ||
    s.charCodeAt(4) !== 0x2d ||
    s.charCodeAt(7) !== 0x2d ||
    (sep !== 0x54 && sep !== 0x20 && sep !== 0x74) ||
    s.charCodeAt(13) !== 0x3a ||
    s.charCodeAt(16) !== 0x3a
  ) {
    return fallback(s);
  }
  let i = 19;
  let frac = 0;
  if (i < n && s.charCodeAt(i) === 0x2e) {
    i++;
    let scale = 100000;
    for (; i < n; i++) {
      const v = digit(s.charCodeAt(i));
      if (v < 0) break;
      frac += v * scale;
      scale = scale / 10;
    }
    frac = Math.floor(frac);
  }
  let offsetMin = 0;
  if (i < n) {
    const z = s.charCodeAt(i);
    if ((z === 0x5a || z === 0x7a) && i + 1 === n) {
      // Z
    } else if ((z === 0x2b || z === 0x2d) && n - i === 6 && s.charCodeAt(i + 3) === 0x3a) {
      const oh = digit(s.charCodeAt(i + 1)) * 10 + digit(s.charCodeAt(i + 2));
      const om = digit(s.charCodeAt(i + 4)) * 10 + digit(s.charCodeAt(i + 5));
      if (oh < 0 || om < 0) return fallback(s);
      offsetMin = (z === 0x2b ? 1 : -1) * (oh * 60 + om);
    } else if (s.slice(i) === ' UTC') {
      // BigQuery
    } else {
      return fallback(s);
    }
  }
  return (dayMs(y, mo, d) + ((h * 60 + mi - offsetMin) * 60 + se) * 1000) * 1000 + frac;
}

function fallback(s: string): number {
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? NaN : ms * 1000;
}

/**
 * Microseconds since the epoch of the time written at `b[i…]` (a JSON string's content, no
 * quotes), or NaN. Reads up to the closing quote or `end`.
 */
export function timeUsAt(b: Uint8Array, i: number, end: number): number {
  let j = i;
  const lim = Math.min(end, i + 40);
  while (j < lim && b[j] !== 0x22 && b[j] !== 0x5c) j++;
  if (j === lim && j < end) return NaN;
  return timeUs(Buffer.from(b.buffer, b.byteOffset + i, j - i).toString('latin1'));
}

/** `2026-11-25T02:52:48.864809Z` (microseconds, as kube-apiserver writes times). */
export function isoOfUs(us: number): string {
  const ms = Math.floor(us / 1000);
  const micro = Math.floor(us - ms * 1000);
  const iso = new Date(ms).toISOString(); // …SS.mmmZ
  return `${iso.slice(0, 23)}${String(micro).padStart(3, '0')}Z`;
}

/** `s` as kube-apiserver spells times (RFC 3339, UTC, microseconds), or `s` as is when it is already so or unreadable. */
export function normalizeTime(s: unknown): unknown {
  if (typeof s !== 'string') return s;
  if (s.length >= 20 && s.charCodeAt(10) === 0x54 && s.charCodeAt(s.length - 1) === 0x5a) return s;
  const us = timeUs(s);
  return Number.isNaN(us) ? s : isoOfUs(us);
}
