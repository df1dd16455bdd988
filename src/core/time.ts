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
 * Upstream's logarithmic bucket of a time (LogarithmicScaleDown): floor(log2(now − t)) with the
 * difference in nanoseconds, and −1 when t is at or after now. Computed exactly (BigInt bit
 * length) so times on a power-of-two boundary land in the same bucket as in Go.
 */
export function logBucket(tMs: number, nowMs: number): number {
  const dMs = nowMs - tMs;
  if (dMs <= 0) return -1;
  const ns = BigInt(Math.round(dMs * 1000)) * 1000n; // µs precision is all a JS time carries
  return ns.toString(2).length - 1;
}

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
