// The audit log: one entry per request that reached a resource handler (and per write the
// simulated controllers make), kept in memory and optionally appended to a JSON-lines file.
import { appendFileSync, writeFileSync } from 'node:fs';

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

export class AuditLog {
  private entries: AuditEntry[] = [];

  constructor(private readonly file?: string) {
    if (file) writeFileSync(file, '');
  }

  record(e: Omit<AuditEntry, 'time'> & { time?: string }): void {
    const entry: AuditEntry = { time: e.time ?? new Date().toISOString(), ...e } as AuditEntry;
    this.entries.push(entry);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  all(): AuditEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
