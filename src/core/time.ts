// Kubernetes timestamps (RFC 3339) as epoch milliseconds. Go's zero time (serialised as null,
// absent, or 0001-01-01T00:00:00Z) is `null`: several rules treat "zero" specially.

/** Epoch ms of a Kubernetes timestamp, or null for a missing / zero time. */
export function parseTime(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  // Go's zero time, 0001-01-01T00:00:00Z, marshals like any other instant: treat it as zero.
  if (value.startsWith('0001-01-01T00:00:00')) return null;
  return ms;
}

/** Formats epoch ms as Kubernetes prints times (second precision, UTC, `Z`). */
export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso;
}

/**
 * formatTime(`ms`) where `ms` was parsed from `written`: `written` itself when it is already in
 * that form, which the API server's times are. Only forms that Date.parse reads without carrying
 * into the next unit qualify (day 29 to 31 and hour 24 may roll over), so the text is exactly what
 * formatTime would make, without a Date.
 */
export function formatParsedTime(written: unknown, ms: number): string {
  return typeof written === 'string' && PLAIN_TIME.test(written) ? written : formatTime(ms);
}

const PLAIN_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/**
 * Upstream's logarithmic bucket of a time (LogarithmicScaleDown): `int64(math.Log2(float64(d)))`
 * with d = now − t in nanoseconds, and −1 when t is at or after now. For d up to 2^53 µs that is
 * d's bit length − 1, computed exactly (two 32-bit halves, each product exact in a double), so
 * times on a power-of-two boundary land in the same bucket as in Go; Log2's rounding would differ
 * only within about 2.5e-15 of d below a power of two, which no whole millisecond under 2^63 ns
 * reaches. A difference past Go's Duration (about 292 years) is its maximum, whose Log2 is 63.
 */
export function logBucket(tMs: number, nowMs: number): number {
  const dMs = nowMs - tMs;
  if (dMs <= 0) return -1;
  const us = Math.round(dMs * 1000); // µs precision is all a JS time carries
  if (us > Number.MAX_SAFE_INTEGER) return us * 1000 >= 2 ** 63 ? 63 : 62; // over 285 years: 2^62 ns < d
  const low = (us % TWO_32) * 1000; // < 2^42
  const high = Math.floor(us / TWO_32) * 1000 + Math.floor(low / TWO_32); // < 2^32
  if (high > 0) return 63 - Math.clz32(high);
  return us === 0 ? 0 : 31 - Math.clz32(low); // high is 0: low < 2^32
}

const TWO_32 = 2 ** 32;

/** The span of durations a bucket covers, for explanations: [2^b ns, 2^(b+1) ns). */
export function bucketSpanSeconds(bucket: number): [number, number] {
  if (bucket < 0) return [0, 0];
  return [2 ** bucket / 1e9, 2 ** (bucket + 1) / 1e9];
}

/**
 * kubectl's age format (apimachinery `duration.HumanDuration`): `45s`, `3m20s`, `12m`, `3h4m`,
 * `10h`, `2d5h`, `120d`, `2y30d`, `9y`; `<invalid>` for more than a second in the future.
 * The one implementation: explanations, tables, the dashboard and the sandbox all use it.
 */
export function humanDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '<unknown>';
  const s = Math.trunc(seconds);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 10) return s % 60 === 0 ? `${minutes}m` : `${minutes}m${s % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(s / 3600);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
