// What a format's reader gets for one entry, and the errors it throws (the caller names the file
// and line or byte). It imports nothing, so that the formats, the coverage that lists them and the
// sources that read them all stand on it.

/** One entry that cannot be read (broken JSON, not an object): read as far as it goes (EntryOps.recover), and the rest of the file read. */
export class EntryError extends Error {}

/** What one entry shows of the whole file (a query's results without the column every entry is read from): the file is refused. */
export class FileError extends Error {}

/** The facts a reader notes of its input (`AuditCoverage` keeps them for the whole read). */
interface FactNotes {
  note(fact: string): void;
  noted(fact: string): boolean;
}

export interface EntryContext {
  coverage: FactNotes;
  /** The entry's time as the export gives it (µs; NaN when it has none): the times of a cut entry. */
  fallbackUs: number;
  /** Set by the reader when the entry's bodies were cut. */
  truncated: boolean;
}

/** Reads one entry's text to an audit.k8s.io/v1 Event, or null for an entry of another log. */
export type EntryReader = (text: string, ctx: EntryContext) => Record<string, any> | null;
