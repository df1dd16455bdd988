// What the audit inputs could and could not tell, filled in by the reader as it goes: the format
// of each file, entries cut (truncated) or seen twice (duplicates), documents cut off, entries of
// other logs left out, and, in words, what a source cannot carry (`missing`). The history service
// copies it into the contract's `coverage` and its summary onto the first line of stderr.

import type { AuditFormat } from './formats.js';

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

/** Per-format observations the facts in words are made of. */
interface Seen {
  gkeFiles: number;
  gkeDataAccess: boolean;
  aksAuditRows: number;
  insightsCapped: boolean;
  /** Writes (create/update/patch/delete of pods and controllers) logged without bodies, and with them, by format. */
  writesWithout: Map<AuditFormat, number>;
  writesWith: Map<AuditFormat, number>;
}

export const FACTS = {
  gkeDataAccess: 'status writes (pods/status, replicasets/status): GKE logs them in Data Access audit logs, which are off by default',
  gkeCodes: 'HTTP status codes: GKE logs gRPC codes, read as HTTP codes (0 as 200, or 201 for a create; 5 as 404; 6 and 10 as 409; 7 as 403; 3, 9 and 11 as 400)',
  aksImpersonation: 'impersonated users: AKSAudit and AKSAuditAdmin rows have no impersonatedUser column',
  openshiftBodies: "request and response bodies (OpenShift's Default audit profile; WriteRequestBodies logs them)",
  metadataBodies: 'request and response bodies: the audit policy logged these writes at level Metadata (RequestResponse logs them)',
  insightsCap: 'entries after the first 10,000 of a query: Logs Insights returns at most 10,000 rows',
} as const;

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
  /** @internal */
  readonly seen: Seen = { gkeFiles: 0, gkeDataAccess: false, aksAuditRows: 0, insightsCapped: false, writesWithout: new Map(), writesWith: new Map() };

  /** @internal a new file's report */
  add(file: string, format: AuditFormat | null): AuditFileReport {
    const r: AuditFileReport = { file, format, entries: 0, skipped: 0, ignored: 0, truncated: 0, duplicates: 0, cutOff: null, outOfOrder: 0 };
    this.files.push(r);
    if (format === 'gke-cloud-logging' || format === 'gke-bigquery') this.seen.gkeFiles++;
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

  /** What the sources cannot carry, in words (the contract's `coverage.missing`). */
  get missing(): string[] {
    const out: string[] = [];
    const s = this.seen;
    if (s.gkeFiles > 0) {
      if (!s.gkeDataAccess) out.push(FACTS.gkeDataAccess);
      out.push(FACTS.gkeCodes);
    }
    if (s.aksAuditRows > 0) out.push(FACTS.aksImpersonation);
    if (s.insightsCapped) out.push(FACTS.insightsCap);
    const bodiesMissing = (formats: AuditFormat[]) => formats.some((f) => (s.writesWithout.get(f) ?? 0) > 0) && formats.every((f) => (s.writesWith.get(f) ?? 0) === 0);
    if (bodiesMissing(['openshift-node-logs', 'openshift-must-gather'])) out.push(FACTS.openshiftBodies);
    else if (bodiesMissing(['kube-apiserver', 'eks-cloudwatch', 'eks-s3-export', 'eks-logs-insights', 'aks-storage', 'aks-event-hub', 'aks-log-analytics'])) out.push(FACTS.metadataBodies);
    return out;
  }

  /** One line: what was read, and what it lacks. */
  summary(): string {
    const formats = this.formats;
    const entries = this.files.reduce((n, f) => n + f.entries - f.duplicates, 0);
    const parts = [`${formats.length > 0 ? formats.join(', ') : 'no audit entries'}: ${entries} entr${entries === 1 ? 'y' : 'ies'} from ${this.files.length} file${this.files.length === 1 ? '' : 's'}`];
    if (this.truncated > 0) parts.push(`${this.truncated} truncated (read without bodies${this.unrecovered > 0 ? `, ${this.unrecovered} without their object` : ''})`);
    if (this.duplicates > 0) parts.push(`${this.duplicates} duplicate${this.duplicates === 1 ? '' : 's'} left out`);
    if (this.cutOff.length > 0) parts.push(`${this.cutOff.length} cut off`);
    const missing = this.missing;
    if (missing.length > 0) parts.push(`missing: ${missing.join('; ')}`);
    return parts.join('; ');
  }

  /** @internal */
  noteWrite(format: AuditFormat, withBodies: boolean): void {
    const m = withBodies ? this.seen.writesWith : this.seen.writesWithout;
    m.set(format, (m.get(format) ?? 0) + 1);
  }
}
