// The audit log: one entry per request that reached a resource handler (and per write the
// simulated controllers make). Memory keeps the newest entries in a ring of fixed size, so a
// long-running sandbox does not grow without bound; the optional JSON-lines file gets every entry.
import { appendFileSync, createWriteStream, writeFileSync, type WriteStream } from 'node:fs';

export type AuditVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface AuditEntry {
  time: string;
  verb: AuditVerb;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  code: number;
  dryRun: boolean;
  /** The authenticated user: `sandbox-admin` for kubeconfig clients, `system:…` for the simulated controllers. */
  user?: string;
  userAgent?: string;
  /** Set when the answer was produced by an injected fault (the id of the rule). */
  fault?: string;
}

export const WRITE_VERBS: ReadonlySet<AuditVerb> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Entries kept in memory unless the sandbox is told otherwise. */
export const DEFAULT_AUDIT_MAX_ENTRIES = 100_000;

export interface AuditLogOptions {
  /** JSON-lines file that receives every entry (truncated at start). */
  file?: string;
  /** Newest entries kept in memory; older ones are dropped (and counted). */
  maxEntries?: number;
}

export function validateAuditMaxEntries(n: unknown): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`auditMaxEntries must be a non-negative integer, got ${String(n)}`);
  return n;
}

export class AuditLog {
  private readonly ring: (AuditEntry | undefined)[];
  /** Index of the oldest entry in the ring. */
  private head = 0;
  private size = 0;
  private droppedCount = 0;
  private readonly file?: string;
  private stream?: WriteStream;
  private writeError?: Error;

  constructor(opts: AuditLogOptions = {}) {
    const max = validateAuditMaxEntries(opts.maxEntries ?? DEFAULT_AUDIT_MAX_ENTRIES);
    this.ring = new Array(max);
    this.file = opts.file;
    if (this.file) {
      // Truncate synchronously so a bad path fails startSandbox; then one stream keeps the
      // lines in order without a synchronous write per request.
      writeFileSync(this.file, '');
      this.stream = createWriteStream(this.file, { flags: 'a' });
      this.stream.on('error', (e) => (this.writeError ??= e));
    }
  }

  get maxEntries(): number {
    return this.ring.length;
  }

  record(e: Omit<AuditEntry, 'time'> & { time?: string }): void {
    const entry: AuditEntry = { time: e.time ?? new Date().toISOString(), ...e } as AuditEntry;
    this.remember(entry);
    if (!this.file || this.writeError) return;
    const line = `${JSON.stringify(entry)}\n`;
    // After close (a request that finished while the server shut down) the stream is gone.
    if (this.stream) this.stream.write(line);
    else {
      try {
        appendFileSync(this.file, line);
      } catch (err) {
        this.writeError = err as Error;
      }
    }
  }

  private remember(entry: AuditEntry): void {
    const cap = this.ring.length;
    if (cap === 0) {
      this.droppedCount++;
      return;
    }
    if (this.size < cap) {
      this.ring[(this.head + this.size) % cap] = entry;
      this.size++;
      return;
    }
    this.ring[this.head] = entry;
    this.head = (this.head + 1) % cap;
    this.droppedCount++;
  }

  /** The entries in memory, oldest first. */
  all(): AuditEntry[] {
    const cap = this.ring.length;
    const out: AuditEntry[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = { ...this.ring[(this.head + i) % cap]! };
    return out;
  }

  /** Entries recorded since the last clear that memory no longer holds (the file still has them). */
  dropped(): number {
    return this.droppedCount;
  }

  /** Forgets the entries in memory; the file keeps them. */
  clear(): void {
    this.ring.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.droppedCount = 0;
  }

  /** Flushes the file; every entry recorded so far is in it when this resolves. */
  async close(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    if (s) await new Promise<void>((resolve) => s.end(() => resolve()));
    if (this.writeError) throw new Error(`cannot write the audit log ${this.file}: ${this.writeError.message}`);
  }
}
