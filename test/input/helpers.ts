import fc from 'fast-check';

// Helpers shared by the input tests.

/** A source of whitespace between tokens: compact, regular, or anything JSON allows. */
export function whitespaceArb(): fc.Arbitrary<() => string> {
  return fc.oneof(
    fc.constant(() => ''),
    fc.integer().map((seed) => {
      let s = seed | 0;
      const choices = ['', '', ' ', '\n', '\t', '\r\n', '\n  ', '\n    ', '  '];
      return () => {
        s = (Math.imul(s, 1103515245) + 12345) | 0;
        return choices[(s >>> 16) % choices.length];
      };
    }),
  );
}

/** JSON text of `v` with `ws()` between every pair of tokens. */
export function serialize(v: unknown, ws: () => string): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((e) => `${serialize(e, ws)}${ws()}`).join(`,${ws()}`)}]`;
  const members = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${serialize(x, ws)}${ws()}`);
  return `{${ws()}${members.join(`,${ws()}`)}}`;
}
