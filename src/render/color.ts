// Colour decisions for every human view. chalk 5 does not read NO_COLOR by itself and its
// auto-detection looks at the process, not at the stream we print to, so the level is decided
// here from the stream and the environment, and a chalk instance is built for that level.

import { Chalk, type ChalkInstance } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

export type { ChalkInstance };

/**
 * The colour level for output written to `stream`, in this order:
 * NO_COLOR (any non-empty value) → 0; FORCE_COLOR (0/false → 0, 1/2/3 → that level, higher
 * numbers → 3, empty/true/other → 1); a stream that is not a TTY → 0; TERM=dumb → 0;
 * COLORTERM=truecolor|24bit → 3; TERM containing 256color (or a -direct terminfo) → 2 or 3;
 * otherwise 1.
 */
export function colorLevel(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): ColorLevel {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;

  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    const value = force.trim().toLowerCase();
    if (value === '0' || value === 'false') return 0;
    if (/^\d+$/.test(value)) {
      const n = Number.parseInt(value, 10);
      return Math.min(n, 3) as ColorLevel;
    }
    return 1; // '', 'true', 'yes', …: forced on, basic colours
  }

  if (stream.isTTY !== true) return 0;
  const term = (env.TERM ?? '').toLowerCase();
  if (term === 'dumb') return 0;

  const colorterm = (env.COLORTERM ?? '').toLowerCase();
  if (colorterm === 'truecolor' || colorterm === '24bit') return 3;
  if (term.endsWith('-direct') || term.includes('truecolor')) return 3;
  if (term.includes('256color') || term.includes('256colour')) return 2;
  return 1;
}

/** A chalk instance fixed at `level` (level 0 emits no escape codes at all). */
export function makeChalk(level: ColorLevel): ChalkInstance {
  return new Chalk({ level });
}
