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
  return level === 0 ? colourless() : new Chalk({ level });
}

/** chalk's style names (modifiers, colours, background colours); test/render/color.test.ts compares them with chalk's. */
export const STYLE_NAMES: ReadonlySet<string> = new Set(
  (
    'reset bold dim italic underline overline inverse hidden strikethrough ' +
    'black red green yellow blue magenta cyan white blackBright gray grey redBright greenBright yellowBright blueBright ' +
    'magentaBright cyanBright whiteBright bgBlack bgRed bgGreen bgYellow bgBlue bgMagenta bgCyan bgWhite bgBlackBright bgGray ' +
    'bgGrey bgRedBright bgGreenBright bgYellowBright bgBlueBright bgMagentaBright bgCyanBright bgWhiteBright'
  ).split(' '),
);

/** chalk's methods that take a colour and give a style. */
const MODEL_NAMES: ReadonlySet<string> = new Set(['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']);

let plain: ChalkInstance | undefined;

/**
 * What chalk answers at level 0, without chalk: evaluating chalk (its styles, their getters, its
 * two instances) is about 1 ms of a `diff` or `explain` start that prints no colour (NO_COLOR, a
 * file, a pipe; docs/startup.md), and the bundle requires chalk on the first coloured instance
 * (scripts/single-file.mjs). As chalk: a style joins its arguments with spaces (one argument as
 * `'' + value`) and returns them as they are; `visible` returns ''; the instance itself joins its
 * arguments; a colour method (`rgb`, `hex`…) gives a style. test/render/color.test.ts compares
 * the two on every style.
 */
function colourless(): ChalkInstance {
  const styled = new Map<boolean, unknown>();
  const make = (empty: boolean, root: boolean): unknown => {
    const apply = root
      ? (...strings: unknown[]): string => strings.join(' ')
      : (...args: unknown[]): string => {
          const text = args.length === 1 ? '' + args[0] : args.join(' ');
          return empty ? '' : text;
        };
    return new Proxy(apply, {
      get(target, key) {
        if (key === 'level') return 0;
        if (typeof key === 'string') {
          if (key === 'visible') return style(true);
          if (STYLE_NAMES.has(key)) return style(empty);
          if (MODEL_NAMES.has(key)) return () => style(empty);
        }
        return Reflect.get(target, key);
      },
    });
  };
  // a style is the same whatever styles came before it, at level 0: one of each
  const style = (empty: boolean): unknown => {
    let s = styled.get(empty);
    if (s === undefined) styled.set(empty, (s = make(empty, false)));
    return s;
  };
  plain ??= make(false, true) as ChalkInstance;
  return plain;
}
