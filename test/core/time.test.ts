// Times as Kubernetes writes them: formatTime, and formatParsedTime, which keeps a time as it was
// written when that is already formatTime's text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatParsedTime, formatTime, parseTime } from '../../src/core/time.js';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('formatTime', () => {
  it('second precision without a fraction, milliseconds when there are some, always UTC', () => {
    expect(formatTime(Date.parse('2025-12-31T23:59:40Z'))).toBe('2025-12-31T23:59:40Z');
    expect(formatTime(Date.parse('2025-12-31T23:59:40.250Z'))).toBe('2025-12-31T23:59:40.250Z');
    expect(formatTime(Date.parse('2026-01-01T01:00:00+02:00'))).toBe('2025-12-31T23:00:00Z');
  });
});

describe('formatParsedTime ≡ formatTime of the parsed time', () => {
  const check = (written: string) => {
    const ms = parseTime(written);
    if (ms === null) return true;
    return formatParsedTime(written, ms) === formatTime(ms);
  };

  it('keeps the written text only where it is formatTime’s own', () => {
    expect(formatParsedTime('2025-12-31T23:59:40Z', Date.parse('2025-12-31T23:59:40Z'))).toBe('2025-12-31T23:59:40Z');
    // Date.parse carries these into the next unit: the text is made again
    expect(formatParsedTime('2025-02-30T00:00:00Z', Date.parse('2025-02-30T00:00:00Z'))).toBe('2025-03-02T00:00:00Z');
    expect(formatParsedTime('2025-01-01T24:00:00Z', Date.parse('2025-01-01T24:00:00Z'))).toBe('2025-01-02T00:00:00Z');
    expect(formatParsedTime('2025-01-01T10:00:00+01:00', Date.parse('2025-01-01T10:00:00+01:00'))).toBe('2025-01-01T09:00:00Z');
    expect(formatParsedTime('2025-01-01T10:00:00.000Z', Date.parse('2025-01-01T10:00:00Z'))).toBe('2025-01-01T10:00:00Z');
    expect(formatParsedTime(new Date('2025-01-01T10:00:00Z'), Date.parse('2025-01-01T10:00:00Z'))).toBe('2025-01-01T10:00:00Z');
  });

  it('on any date and time of the API form, days 29 to 31 and hour 24 included', () => {
    const written = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
      )
      .map(([y, mo, d, h, mi, s]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`);
    fc.assert(fc.property(written, check), { numRuns: 20_000 });
  });

  it('on other forms: fractions, offsets, lower case, arbitrary text', () => {
    const other = fc.oneof(
      fc
        .tuple(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom('.000Z', '.5Z', '.123456789Z', '+00:00', '-07:30', 'z'))
        .map(([ms, tail]) => new Date(ms).toISOString().slice(0, 19) + tail),
      fc.string(),
    );
    fc.assert(fc.property(other, check), { numRuns: 5_000 });
  });
});
