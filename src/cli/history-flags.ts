// `history`'s own flags: the window of time shown (--since / --until, as kubectl's --since takes
// a duration, or an RFC 3339 time), the format an audit log is read as, and the controllers'
// writes alone. Parsed here so the command stays flags → service → render.

import { Flags } from '@oclif/core';
import { parseDurationMs } from '../core/duration.js';
import { formatTime } from '../core/time.js';
import { UserError } from '../errors.js';
import type { HistoryResult } from '../services/history-service.js';
import { AUDIT_FORMATS } from '../input/audit/formats/index.js';

/** The contract's names of a history's inputs (history-format.md, coverage.format). */
type CoverageFormat = HistoryResult['coverage']['format'];

/**
 * What --audit-log-format forces: every format of the contract an audit log can be, in the
 * contract's order: the reader's own list (src/input/audit/formats.ts). The other two (events,
 * recording) come from their own flags.
 */
export const AUDIT_LOG_FORMATS = AUDIT_FORMATS satisfies readonly CoverageFormat[];

type AuditLogFormat = (typeof AUDIT_LOG_FORMATS)[number];

// the list above names every audit-log format of the contract: a format added there and not
// here is a type error
type Unlisted = Exclude<CoverageFormat, AuditLogFormat | 'events' | 'recording'>;
const _everyFormatListed: [Unlisted] extends [never] ? true : Unlisted = true;
void _everyFormatListed;

export const historyFlags = {
  'audit-log-format': Flags.option({
    description: 'read every --audit-log input as this format, instead of recognising it from its content',
    options: AUDIT_LOG_FORMATS,
  })(),
  since: Flags.string({
    description:
      'only writes received at or after this time: a duration back from now (5s, 2m, 3h, 1h30m) or an RFC 3339 time (2026-11-25T02:52:00Z). The state is still rebuilt from the whole log',
  }),
  until: Flags.string({
    description: 'only writes received at or before this time: a duration back from now (5s, 2m, 3h, 1h30m) or an RFC 3339 time (2026-11-25T03:00:00Z)',
  }),
  'controller-writes-only': Flags.boolean({
    description:
      "only the controllers' writes and the writes that made them act (their cause chains): leaves out the rest, such as the kubelet's final deletes of terminated pods",
    default: false,
  }),
};

const EXPECTED = 'expected a duration (5s, 2m, 3h, 1h30m) or an RFC 3339 time (2026-11-25T02:52:00Z)';

/** `invalid argument "x" for "--since" flag: …`, kubectl's words for a bad value. */
function invalid(flag: string, text: string, why: string): UserError {
  return new UserError(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: ${why}`);
}

// RFC 3339, with a space for the T as well (the times `history` prints read back), the seconds
// optional; the zone is captured apart so that a time without one gets its own message
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * A bound of --since / --until in ms since the epoch: a duration (Go's, as kubectl's --since
 * takes it: 90s, 1h30m, 1.5h) counts back from `nowMs`; an RFC 3339 time is that instant. A
 * time without a zone is refused: read in local time it would silently depend on the machine.
 */
export function parseTimeBound(flag: string, text: string, nowMs: number): number {
  const v = text.trim();
  const m = DATE_TIME.exec(v);
  if (m) {
    const [, y, mo, d, h, mi, s = '0', frac = '', z, sign, oh, om] = m;
    if (z === undefined && sign === undefined)
      throw invalid(flag, text, 'the time has no zone: add Z for UTC (2026-11-25T02:52:00Z) or an offset (2026-11-25T03:52:00+01:00)');
    const local = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
    const back = new Date(local);
    // Date.UTC rolls 02-30 over to 03-02: a date that does not exist is refused
    if (
      back.getUTCFullYear() !== +y ||
      back.getUTCMonth() !== +mo - 1 ||
      back.getUTCDate() !== +d ||
      +h > 23 ||
      +mi > 59 ||
      +s > 59 ||
      (oh !== undefined && (+oh > 23 || +om > 59))
    ) {
      throw invalid(flag, text, 'no such date or time');
    }
    const ms = frac === '' ? 0 : Math.floor(Number(`0${frac}`) * 1000);
    const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (+oh * 60 + +om) * 60_000;
    return local + ms - offset;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalid(flag, text, `a date alone is not a time: give one with its zone, such as ${v}T00:00:00Z`);
  if (/^\d+(\.\d+)?d$/.test(v))
    throw invalid(flag, text, `durations have no days (as kubectl's): use hours, such as ${Math.round(Number(v.slice(0, -1)) * 24)}h`);
  if (/^\d+$/.test(v) && v !== '0') throw invalid(flag, text, `a duration needs its unit, such as ${v}s or ${v}m`);
  const ms = parseDurationMs(v);
  if (ms === null) throw invalid(flag, text, EXPECTED);
  if (ms === 0) throw invalid(flag, text, 'a duration of 0 is now: give a longer one, such as 5m');
  return nowMs - ms;
}

export interface TimeWindow {
  sinceMs?: number;
  untilMs?: number;
}

/** --since and --until as ms since the epoch; an --until before --since is refused. */
export function timeWindow(flags: { since?: string; until?: string }, nowMs: number): TimeWindow {
  const sinceMs = flags.since === undefined ? undefined : parseTimeBound('--since', flags.since, nowMs);
  const untilMs = flags.until === undefined ? undefined : parseTimeBound('--until', flags.until, nowMs);
  if (sinceMs !== undefined && untilMs !== undefined && untilMs < sinceMs) {
    throw new UserError(`--until ${formatTime(untilMs)} is before --since ${formatTime(sinceMs)}: nothing is between them`);
  }
  return { sinceMs, untilMs };
}
