// What the audit inputs could and could not tell, filled in by the reader as it goes: the format
// of each file, entries cut (truncated) or seen twice (duplicates), documents cut off, entries of
// other logs left out, and, in words, what a source cannot carry (`missing`). The history service
// copies it into the contract's `coverage` and its summary onto the first line of stderr.

import { AUDIT_EXPORTS, type AuditFormat } from './formats/index.js';
import type { FormatSeen } from './formats/format.js';
import { GKE_DATA_ACCESS } from './formats/gke.js';

export interface AuditFileReport {
  file: string;
  /** null: an empty file (nothing to read). */
  format: AuditFormat | null;
  /** Entries read as Events (before duplicates are dropped). */
  entries: number;
  /** Entries left unparsed because the filter certainly does not want them. */
  skipped: number;
  /** Entries of other logs in the same export (other categories, services or streams). */
  ignored: number;
  /** Entries whose bodies were cut, read without them. */
  truncated: number;
  /** Entries seen before (same auditID and stage), left out. */
  duplicates: number;
  /** Where the content stops short, when it does: `byte 1234` or `line 56`. */
  cutOff: string | null;
  /** Entries more than a minute earlier than one before them in a file read in its own order. */
  outOfOrder: number;
}

/** What the formats' facts in words are made of: per format, and noted by their readers. */
interface Seen {
  files: Map<AuditFormat, number>;
  noted: Set<string>;
  /** Formats a document of which held a multiple of its rowCap entries. */
  capped: Set<AuditFormat>;
  /** Writes (create/update/patch/delete of pods and controllers) logged without bodies, and with them, by format. */
  writesWithout: Map<AuditFormat, number>;
  writesWith: Map<AuditFormat, number>;
}

/** Facts a caller tells apart (the words are the format's own). */
export const FACTS = { gkeDataAccess: GKE_DATA_ACCESS } as const;

/** The broken entries of a file named one by one in the notices; the rest are counted in one line. */
const BROKEN_NAMED = 10;

export class AuditCoverage {
  readonly files: AuditFileReport[] = [];
  /** Entries read without their bodies because they were cut (after duplicates are dropped). */
  truncated = 0;
  /** Of the truncated entries, those whose object (resource and name) could not be recovered. */
  unrecovered = 0;
  duplicates = 0;
  skipped = 0;
  ignored = 0;
  /** `FILE: cut off at byte N: read the X entries before it`, one a document or file cut short. */
  readonly cutOff: string[] = [];
  /** Other lines worth a warning: files out of time order, other logs left out, empty files. */
  readonly notices: string[] = [];
  /** Per file, its entries broken in the middle and read as far as they go. */
  private readonly broken = new Map<string, number>();
  /** @internal */
  readonly seen: Seen = { files: new Map(), noted: new Set(), capped: new Set(), writesWithout: new Map(), writesWith: new Map() };

  /** @internal a new file's report */
  add(file: string, format: AuditFormat | null): AuditFileReport {
    const r: AuditFileReport = { file, format, entries: 0, skipped: 0, ignored: 0, truncated: 0, duplicates: 0, cutOff: null, outOfOrder: 0 };
    this.files.push(r);
    if (format !== null) this.seen.files.set(format, (this.seen.files.get(format) ?? 0) + 1);
    return r;
  }

  /** The formats found, in the order of the files. */
  get formats(): AuditFormat[] {
    return [...new Set(this.files.map((f) => f.format).filter((f): f is AuditFormat => f !== null))];
  }

  /** The format most entries came in (the contract's one `coverage.format`); null when nothing was read. */
  get format(): AuditFormat | null {
    const by = new Map<AuditFormat, number>();
    for (const f of this.files) if (f.format) by.set(f.format, (by.get(f.format) ?? 0) + f.entries + f.skipped + 1);
    let best: AuditFormat | null = null;
    for (const [k, v] of by) if (best === null || v > by.get(best)!) best = k;
    return best;
  }

  /**
   * What the sources cannot carry, in words (the contract's `coverage.missing`): the facts of the
   * formats read, most specific first (in the order recognition asks them); then what the writes
   * lack when none of the formats sharing a bodies fact logged a write with bodies (one fact: the
   * one the fewest formats share, the most specific).
   */
  get missing(): string[] {
    const out = new Set<string>();
    const s = this.seen;
    for (const x of [...AUDIT_EXPORTS].sort((a, b) => a.recognise.precedence - b.recognise.precedence)) {
      const files = s.files.get(x.name as AuditFormat) ?? 0;
      if (files === 0 || x.missing === undefined) continue;
      const seen: FormatSeen = { files, noted: (fact) => s.noted.has(fact), capped: s.capped.has(x.name as AuditFormat) };
      for (const fact of x.missing(seen)) out.add(fact);
    }
    const sharing = new Map<string, AuditFormat[]>();
    for (const x of AUDIT_EXPORTS)
      if (x.bodiesMissing !== undefined) sharing.set(x.bodiesMissing, [...(sharing.get(x.bodiesMissing) ?? []), x.name as AuditFormat]);
    for (const [fact, formats] of [...sharing].sort((a, b) => a[1].length - b[1].length)) {
      if (formats.some((f) => (s.writesWithout.get(f) ?? 0) > 0) && formats.every((f) => (s.writesWith.get(f) ?? 0) === 0)) {
        out.add(fact);
        break;
      }
    }
    return [...out];
  }

  /** One line: what was read, and what it lacks. */
  summary(): string {
    const formats = this.formats;
    const entries = this.files.reduce((n, f) => n + f.entries - f.duplicates, 0);
    const parts = [
      `${formats.length > 0 ? formats.join(', ') : 'no audit entries'}: ${entries} entr${entries === 1 ? 'y' : 'ies'} from ${this.files.length} file${this.files.length === 1 ? '' : 's'}`,
    ];
    if (this.truncated > 0)
      parts.push(`${this.truncated} truncated (read without bodies${this.unrecovered > 0 ? `, ${this.unrecovered} without their object` : ''})`);
    if (this.duplicates > 0) parts.push(`${this.duplicates} duplicate${this.duplicates === 1 ? '' : 's'} left out`);
    if (this.cutOff.length > 0) parts.push(`${this.cutOff.length} cut off`);
    const missing = this.missing;
    if (missing.length > 0) parts.push(`missing: ${missing.join('; ')}`);
    return parts.join('; ');
  }

  /** @internal a reader's observation a format's facts are made of (`FormatSeen.noted`) */
  note(fact: string): void {
    this.seen.noted.add(fact);
  }

  /** @internal */
  noted(fact: string): boolean {
    return this.seen.noted.has(fact);
  }

  /** @internal */
  noteWrite(format: AuditFormat, withBodies: boolean): void {
    const m = withBodies ? this.seen.writesWith : this.seen.writesWithout;
    m.set(format, (m.get(format) ?? 0) + 1);
  }

  /** One entry of `file` broken in the middle, read as far as it goes: named (the first BROKEN_NAMED of a file), else counted. */
  brokenEntry(file: string, where: string, why: string): void {
    const n = (this.broken.get(file) ?? 0) + 1;
    this.broken.set(file, n);
    if (n <= BROKEN_NAMED) this.notices.push(`${where}: ${why}: read as far as it goes, without its bodies`);
  }

  /** At the end of `file`: its broken entries not named one by one, in one line (notices stay few). */
  brokenEntriesEnd(file: string): void {
    const n = (this.broken.get(file) ?? 0) - BROKEN_NAMED;
    this.broken.delete(file);
    if (n > 0) this.notices.push(`${file}: ${n} more broken entr${n === 1 ? 'y' : 'ies'}, read as far as they go, without their bodies`);
  }
}
