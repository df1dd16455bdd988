// `history --since / --until` as kubectl's --since reads a duration, or an RFC 3339 time; one-line
// errors for what is neither; and --audit-log-format's list, the contract's formats.
import { Parser } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { AUDIT_LOG_FORMATS, historyFlags, parseTimeBound, timeWindow } from '../../src/cli/history-flags.js';
import { flagErrorLine } from '../../src/cli/base.js';
import { UserError } from '../../src/errors.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const at = (flag: string, text: string) => new Date(parseTimeBound(flag, text, NOW)).toISOString();

/** The UserError a call throws: its message, and that it exits 2. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).exitCode).toBe(2);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error('not refused');
}

describe('--since / --until values', () => {
  it('durations as kubectl takes them count back from now', () => {
    expect(at('--since', '5s')).toBe('2026-11-25T11:59:55.000Z');
    expect(at('--since', '90s')).toBe('2026-11-25T11:58:30.000Z');
    expect(at('--since', '2m')).toBe('2026-11-25T11:58:00.000Z');
    expect(at('--since', '3h')).toBe('2026-11-25T09:00:00.000Z');
    expect(at('--since', '1h30m')).toBe('2026-11-25T10:30:00.000Z');
    expect(at('--since', '1.5h')).toBe('2026-11-25T10:30:00.000Z');
    expect(at('--until', '500ms')).toBe('2026-11-25T11:59:59.500Z');
  });

  it('RFC 3339 times, with Z or an offset, fractions, a space for the T (as history prints times)', () => {
    expect(at('--since', '2026-11-25T02:52:00Z')).toBe('2026-11-25T02:52:00.000Z');
    expect(at('--since', '2026-11-25t02:52:00z')).toBe('2026-11-25T02:52:00.000Z');
    expect(at('--since', '2026-11-25T03:52:00+01:00')).toBe('2026-11-25T02:52:00.000Z');
    expect(at('--since', '2026-11-24T21:52:00-05:00')).toBe('2026-11-25T02:52:00.000Z');
    expect(at('--since', '2026-11-25T02:52:55.4409Z')).toBe('2026-11-25T02:52:55.440Z');
    expect(at('--since', '2026-11-25 02:52:48Z')).toBe('2026-11-25T02:52:48.000Z');
    expect(at('--since', '2026-11-25T02:52Z')).toBe('2026-11-25T02:52:00.000Z');
  });

  it('refuses a time without a zone, saying to add Z or an offset', () => {
    expect(refusal(() => parseTimeBound('--since', '2026-11-25T02:52:00', NOW))).toBe(
      'invalid argument "2026-11-25T02:52:00" for "--since" flag: the time has no zone: add Z for UTC (2026-11-25T02:52:00Z) or an offset (2026-11-25T03:52:00+01:00)',
    );
  });

  it('refuses anything else in one line, naming the flag and the value', () => {
    expect(refusal(() => parseTimeBound('--since', 'yesterday', NOW))).toBe(
      'invalid argument "yesterday" for "--since" flag: expected a duration (5s, 2m, 3h, 1h30m) or an RFC 3339 time (2026-11-25T02:52:00Z)',
    );
    expect(refusal(() => parseTimeBound('--until', '-5m', NOW))).toMatch(/^invalid argument "-5m" for "--until" flag: expected a duration/);
    expect(refusal(() => parseTimeBound('--since', '5', NOW))).toBe('invalid argument "5" for "--since" flag: a duration needs its unit, such as 5s or 5m');
    expect(refusal(() => parseTimeBound('--since', '2d', NOW))).toBe(
      'invalid argument "2d" for "--since" flag: durations have no days (as kubectl\'s): use hours, such as 48h',
    );
    expect(refusal(() => parseTimeBound('--since', '0', NOW))).toMatch(/a duration of 0 is now/);
    expect(refusal(() => parseTimeBound('--since', '0s', NOW))).toMatch(/a duration of 0 is now/);
    expect(refusal(() => parseTimeBound('--since', '2026-11-25', NOW))).toBe(
      'invalid argument "2026-11-25" for "--since" flag: a date alone is not a time: give one with its zone, such as 2026-11-25T00:00:00Z',
    );
    expect(refusal(() => parseTimeBound('--since', '2026-02-30T00:00:00Z', NOW))).toMatch(/no such date or time$/);
    expect(refusal(() => parseTimeBound('--since', '2026-11-25T24:00:00Z', NOW))).toMatch(/no such date or time$/);
    expect(refusal(() => parseTimeBound('--since', '', NOW))).toMatch(/expected a duration/);
  });
});

describe('timeWindow', () => {
  it('gives both bounds, or either, or neither', () => {
    expect(timeWindow({}, NOW)).toEqual({ sinceMs: undefined, untilMs: undefined });
    expect(timeWindow({ since: '1h', until: '30m' }, NOW)).toEqual({ sinceMs: NOW - 3_600_000, untilMs: NOW - 1_800_000 });
    expect(timeWindow({ until: '2026-11-25T02:52:58Z' }, NOW)).toEqual({ sinceMs: undefined, untilMs: Date.parse('2026-11-25T02:52:58Z') });
    expect(timeWindow({ since: '2026-11-25T02:52:58Z', until: '2026-11-25T02:52:58Z' }, NOW).sinceMs).toBe(Date.parse('2026-11-25T02:52:58Z'));
  });

  it('refuses --until before --since, with both times in UTC', () => {
    expect(refusal(() => timeWindow({ since: '30m', until: '1h' }, NOW))).toBe(
      '--until 2026-11-25T11:00:00Z is before --since 2026-11-25T11:30:00Z: nothing is between them',
    );
    expect(refusal(() => timeWindow({ since: '2026-11-25T03:00:00Z', until: '2026-11-25T02:00:00Z' }, NOW))).toMatch(
      /^--until 2026-11-25T02:00:00Z is before --since 2026-11-25T03:00:00Z/,
    );
  });
});

describe('--audit-log-format', () => {
  it("offers the contract's audit-log formats (not events or recording, which have their own flags)", () => {
    expect(AUDIT_LOG_FORMATS).toContain('gke-cloud-logging');
    expect(AUDIT_LOG_FORMATS).toContain('openshift-must-gather');
    expect(AUDIT_LOG_FORMATS).not.toContain('events');
    expect(AUDIT_LOG_FORMATS).not.toContain('recording');
    expect(AUDIT_LOG_FORMATS.length).toBe(11);
  });

  it('a value not in the list is one line naming what is accepted', async () => {
    const flags = { 'audit-log-format': historyFlags['audit-log-format'] };
    const err = await Parser.parse(['--audit-log-format', 'gke'], { flags, strict: true }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(flagErrorLine(err!, flags as never)).toBe(`invalid argument "gke" for "--audit-log-format" flag: expected one of ${AUDIT_LOG_FORMATS.join(', ')}`);
    await expect(Parser.parse(['--audit-log-format', 'eks-s3-export'], { flags, strict: true })).resolves.toMatchObject({
      flags: { 'audit-log-format': 'eks-s3-export' },
    });
  });
});
