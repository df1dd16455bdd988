// Go's time.ParseDuration (no sign), as kubectl and kube-controller-manager flags take it:
// "30s", "1m30s", "500ms", "1.5h". A bare whole number is read in `bareUnit` (kubectl's
// --request-timeout reads it as seconds). Returns milliseconds, or null when unparseable.

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

export function parseDurationMs(text: string, bareUnit: 's' | null = null): number | null {
  const v = text.trim();
  if (v === '') return null;
  let ns = 0;
  if (/^\d+$/.test(v)) {
    if (bareUnit === null) return v === '0' ? 0 : null;
    ns = Number(v) * UNIT_NS[bareUnit];
  } else {
    const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
    let at = 0;
    while (at < v.length) {
      part.lastIndex = at;
      const m = part.exec(v);
      if (!m) return null;
      ns += Number(m[1]) * UNIT_NS[m[2]];
      at = part.lastIndex;
    }
  }
  if (!Number.isFinite(ns)) return null;
  return ns === 0 ? 0 : Math.max(1, Math.ceil(ns / 1e6));
}
