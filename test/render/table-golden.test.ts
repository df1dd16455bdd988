// Tables are laid out in chunks with column widths computed once (src/render/text.ts, issue 13);
// what they print must not change by a byte. test/render/golden/tables.json holds the output of
// the renderer from before that change, for every case of table-golden-cases.ts.
//
// The golden file is only ever rewritten on purpose, when a table is meant to look different:
//   WRITE_TABLE_GOLDEN=1 npx vitest run test/render/table-golden.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableGoldenCases } from './table-golden-cases.js';

const golden = join(import.meta.dirname, 'golden', 'tables.json');

describe('tables print byte for byte what they printed before the chunked layout', async () => {
  const cases = await tableGoldenCases();
  if (process.env.WRITE_TABLE_GOLDEN === '1') writeFileSync(golden, JSON.stringify(cases, null, 1) + '\n');
  const expected = existsSync(golden) ? (JSON.parse(readFileSync(golden, 'utf8')) as Record<string, string>) : {};

  it('covers the same cases as the golden file', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys(cases).length).toBeGreaterThan(150);
  });

  it.each(Object.keys(cases))('%s', (name) => {
    expect(cases[name]).toBe(expected[name]);
  });
});
