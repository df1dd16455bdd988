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

const RESERVED = /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;

/** A string as a flow scalar: plain when it is a simple word, else double-quoted and escaped. */
function flowString(s: string): string {
  if (/^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(s) && !RESERVED.test(s)) return s;
  // JSON escapes are YAML escapes; characters YAML does not print raw are escaped too.
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `v` (a JSON value) as one line of flow-style YAML: `{apiVersion: v1, kind: Pod, …}`. */
export function flowYaml(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(flowYaml).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${flowString(k)}: ${flowYaml(x)}`)
      .join(', ')}}`;
  if (typeof v === 'string') return flowString(v);
  return JSON.stringify(v);
}
