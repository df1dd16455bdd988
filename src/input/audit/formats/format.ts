// What rs-reconcile knows of one audit export, in one place, as the sandbox keeps a resource kind
// in src/sandbox/kinds/<resource>.ts: its name (the contract's `coverage.format`), how a file of
// it is recognised from its first bytes, how one of its entries is read to an audit.k8s.io/v1
// Event, and what it cannot carry. Each family of exports is a module under formats/ exporting
// an `AuditExport` per format, listed in formats/index.ts; recognition (detect.ts), reading
// (sources.ts) and coverage (coverage.ts) ask the export, never its name.

import type { AuditFilter } from '../filter.js';
import type { EntryContext, EntryReader } from '../entry.js';

/** How one entry (a JSON value: a line, an array element, a member of a document) is read. */
export interface EntryOps {
  read: EntryReader;
  /**
   * An entry `read` refused with an EntryError: what it still holds (event.ts's readAsFarAsItGoes
   * and cutEvent: the Event cut there, without its bodies, its object unknown when nothing names
   * it), or null when it shows it is of another log.
   */
  recover(text: string, ctx: EntryContext): Record<string, any> | null;
  /** The entry's time from its raw bytes b[s, e) (µs), NaN when not found that way. */
  rawTime(b: Buffer, s: number, e: number): number;
  /** Whether the raw entry is certainly outside the filter (skipped unparsed); false when unsure. */
  outside(b: Buffer, s: number, e: number, f: AuditFilter, ctx: EntryContext): boolean;
}

/** How the records of an export printed as CSV (a header line, then one record a line) are read. */
export interface CsvOps {
  read(fields: string[], header: string[], ctx: EntryContext): Record<string, any> | null;
  /** What is wrong with a header this export cannot be read from, or null. */
  headerProblem(header: string[]): string | null;
  /** The record's time (µs) from its fields, NaN when it has none. */
  time(fields: string[], header: string[]): number;
}

/** The members of the first object of a file, as far as the head holds them: name → raw JSON text (null when cut). */
export type Members = ReadonlyMap<string, string | null>;

/** A member's string value, from its raw JSON text (undefined when it is no string). */
export function memberString(m: Members, name: string): string | undefined {
  const raw = m.get(name);
  if (raw === null || raw === undefined || raw[0] !== '"') return undefined;
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

/** How a file of an export is told from its first bytes (never from its name). */
interface Recognition {
  /**
   * The exports' tests are asked in this order, lowest first: a test that another export's
   * entries pass too comes after that export's (kube-apiserver's Event, which every wrapper
   * holds in some form, comes last).
   */
  precedence: number;
  /** The members of the first entry: an array's first element, the first JSON line, a pretty-printed document. */
  entry?(m: Members): boolean;
  /** Members of a top-level document that hold the entries as an array (`{"records": [...]}`). */
  wrappers?: readonly string[];
  /** Whether a document with one of `wrappers` is this export (default: yes). */
  wrapperAccepts?(m: Members): boolean;
  /** A document told by other members: the members that hold its entries (null: not this export). */
  document?(m: Members): readonly string[] | null;
  /** An array of arrays: rows of `{field, value}`. */
  rows?: boolean;
  /** Text lines (not JSON), told by their first line. */
  firstLine?(line: string): boolean;
  /** A file under a must-gather's `audit_logs/` read as this export is the named one instead. */
  inMustGather?: string;
}

/** What an export cannot carry, from what its readers noted: facts in words (the contract's `coverage.missing`). */
export interface FormatSeen {
  /** Files of this export read. */
  files: number;
  /** Whether a reader noted `fact` (`ctx.coverage.note(fact)`) in any file. */
  noted(fact: string): boolean;
  /** A document of this export held a multiple of `rowCap` entries: the query's limit, most likely. */
  capped: boolean;
}

export interface AuditExport<N extends string = string> {
  /** The contract's `coverage.format` (docs/history-format.md) and `--audit-log-format`'s value. */
  name: N;
  /** What it is, in the words of the command that made it (for messages and --help). */
  description: string;
  recognise: Recognition;
  /** How one entry is read (JSON lines, array elements, a wrapper's members). */
  entries: EntryOps;
  /** Plain kube-apiserver Events, in lines without a prefix: read in the order the server wrote them. */
  serverOrder?: boolean;
  /** Text lines: what comes before the JSON on each line (`<ISO 8601> {…}`, `<node> {…}`). */
  prefix?: 'time' | 'node';
  /** A line the exporter cut ends with this mark: an entry still, not content cut short. */
  cutMark?: string;
  /** Its CSV form, when it has one. */
  csv?: CsvOps;
  /** The most entries one document holds (a query's limit). */
  rowCap?: number;
  /** One time an entry (both of the converted Event's times): when a write was received is not known. */
  oneTimeAnEntry?: boolean;
  /** What every file of it lacks, in words. */
  missing?(seen: FormatSeen): string[];
  /** What its writes lack when none of its writes (nor those of exports with the same fact) has bodies. */
  bodiesMissing?: string;
}

/** An export, its name kept as a literal type (the list's names make `AuditFormat`). */
export const auditExport = <const N extends string>(x: AuditExport<N>): AuditExport<N> => x;
