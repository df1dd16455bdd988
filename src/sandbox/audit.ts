// The audit log: one entry per request that reached a resource handler (and per write the
// simulated controllers make; in the file only, a create per seeded object). Memory keeps the newest entries, without bodies, in a ring of fixed
// size, so a long-running sandbox does not grow without bound (GET /sandbox/audit). The optional
// file gets every request as kube-apiserver writes it with `--audit-log-format=json`: one
// `audit.k8s.io/v1` Event a line, stage ResponseComplete, under this policy (what managed
// clusters commonly run, and what `history` reads):
//   - writes (create, update, patch, delete, deletecollection) of pods, ReplicaSets,
//     ReplicationControllers and Deployments, subresources included: RequestResponse, with
//     requestObject (a patch's body as sent; DeleteOptions for deletes) and responseObject;
//   - everything else (reads, watches, Events, leases, namespaces, …): Metadata, no bodies.
//     Reads are logged too (a real policy often drops them) so the file and memory hold the same
//     requests: bench/audit-count.mjs counts from the file.
// A watch is logged once, when it starts (kube-apiserver logs it when it ends).
import { randomUUID } from 'node:crypto';
import { appendFileSync, createWriteStream, writeFileSync, type WriteStream } from 'node:fs';
import { resourceByName } from './resources.js';
import { isObj } from '../core/guards.js';

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
  /** The user the request acted as (kubectl --as), besides the authenticated one. */
  impersonatedUser?: string;
  userAgent?: string;
  /** Set when the answer was produced by an injected fault (the id of the rule). */
  fault?: string;
}

export const WRITE_VERBS: ReadonlySet<AuditVerb> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** What record() takes: the entry kept in memory, and what only the file's Event needs. */
export interface AuditRecord extends Omit<AuditEntry, 'time'> {
  /** When the answer was complete (the Event's stageTimestamp; default: now). */
  time?: string;
  /** When the request arrived (requestReceivedTimestamp; default: the stage time). */
  received?: string;
  /** The path and query as sent (default: built from the resource and names). */
  requestURI?: string;
  sourceIP?: string;
  /** The answer when it was a Status (a failure, a binding, …): its fields go to responseStatus, as upstream copies them. */
  status?: Record<string, unknown>;
}

/** The bodies of a write; asked for only when the file logs them (see auditLevel). */
export interface AuditBodies {
  request?: unknown;
  response?: unknown;
}

type AuditLevel = 'Metadata' | 'RequestResponse';

const BODY_RESOURCES = new Set(['pods', 'replicasets', 'replicationcontrollers', 'deployments']);

/** The level the file's policy logs a request at (see the top of this file). */
function auditLevel(resource: string, verb: AuditVerb): AuditLevel {
  return WRITE_VERBS.has(verb) && BODY_RESOURCES.has(resource) ? 'RequestResponse' : 'Metadata';
}

let lastMicros = 0;

/**
 * Now, with microseconds as kube-apiserver writes its audit times (`…T02:52:48.861969Z`): the
 * wall clock's milliseconds (the same clock as the objects' timestamps) and a sub-millisecond
 * part, never going back, so the file's times order its lines.
 */
export function auditTime(): string {
  const sub = Math.floor((performance.now() % 1) * 1000);
  lastMicros = Math.max(lastMicros + 1, Date.now() * 1000 + sub);
  const ms = Math.floor(lastMicros / 1000);
  return `${new Date(ms).toISOString().slice(0, -1)}${String(lastMicros % 1000).padStart(3, '0')}Z`;
}

/** The groups kube-apiserver's authenticators give these users. */
function groupsOf(user: string): string[] {
  if (user === 'sandbox-admin') return ['system:masters', 'system:authenticated'];
  const sa = /^system:serviceaccount:([^:]+):/.exec(user);
  if (sa) return ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`, 'system:authenticated'];
  if (user.startsWith('system:node:')) return ['system:nodes', 'system:authenticated'];
  return ['system:authenticated'];
}

/** The request path of a request the sandbox makes itself (a create's name is in its body, not its path). */
function requestURIOf(e: Pick<AuditRecord, 'verb' | 'resource' | 'subresource' | 'namespace' | 'name' | 'dryRun'>): string {
  const res = resourceByName(e.resource);
  let uri = res?.group ? `/apis/${res.group}/${res.version}` : '/api/v1';
  if (e.namespace !== undefined) uri += `/namespaces/${e.namespace}`;
  uri += `/${e.resource}`;
  if (e.name !== undefined && (e.verb !== 'create' || e.subresource)) uri += `/${e.name}`;
  if (e.subresource) uri += `/${e.subresource}`;
  if (e.dryRun) uri += '?dryRun=All';
  return uri;
}

/** One `audit.k8s.io/v1` Event, its keys in the order kube-apiserver writes them. */
function auditEvent(r: AuditRecord & { time: string }, bodies?: AuditBodies): Record<string, unknown> {
  const level = auditLevel(r.resource, r.verb);
  const res = resourceByName(r.resource);
  // kube-apiserver completes objectRef from the request object's metadata (LogRequestObject):
  // a create's name (none with generateName), the uid and resourceVersion an update sends.
  const meta = isObj(bodies?.request) && r.verb !== 'patch' && isObj(bodies.request.metadata) ? bodies.request.metadata : {};
  const objectRef: Record<string, unknown> = { resource: r.resource };
  if (r.namespace !== undefined) objectRef.namespace = r.namespace;
  const name = r.name ?? (typeof meta.name === 'string' && meta.name !== '' ? meta.name : undefined);
  if (name !== undefined) objectRef.name = name;
  if (typeof meta.uid === 'string' && meta.uid !== '') objectRef.uid = meta.uid;
  if (res?.group) objectRef.apiGroup = res.group;
  objectRef.apiVersion = res?.version ?? 'v1';
  if (typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '') objectRef.resourceVersion = meta.resourceVersion;
  if (r.subresource) objectRef.subresource = r.subresource;
  const responseStatus: Record<string, unknown> = { metadata: {} };
  if (r.status) for (const k of ['status', 'message', 'reason', 'details'] as const) if (r.status[k] !== undefined) responseStatus[k] = r.status[k];
  responseStatus.code = r.code;
  const e: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: randomUUID(),
    stage: 'ResponseComplete',
    requestURI: r.requestURI ?? requestURIOf(r),
    verb: r.verb,
    user: { username: r.user ?? 'system:anonymous', groups: groupsOf(r.user ?? '') },
  };
  if (r.impersonatedUser !== undefined) e.impersonatedUser = { username: r.impersonatedUser, groups: groupsOf(r.impersonatedUser) };
  e.sourceIPs = [r.sourceIP ?? '127.0.0.1'];
  if (r.userAgent !== undefined) e.userAgent = r.userAgent;
  e.objectRef = objectRef;
  e.responseStatus = responseStatus;
  if (level === 'RequestResponse') {
    if (bodies?.request !== undefined) e.requestObject = bodies.request;
    if (bodies?.response !== undefined) e.responseObject = bodies.response;
  }
  e.requestReceivedTimestamp = r.received ?? r.time;
  e.stageTimestamp = r.time;
  const annotations: Record<string, string> = { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' };
  if (r.fault) annotations['sandbox.rs-reconcile.io/fault'] = r.fault;
  e.annotations = annotations;
  return e;
}

/** Entries kept in memory unless the sandbox is told otherwise. */
const DEFAULT_AUDIT_MAX_ENTRIES = 100_000;

export interface AuditLogOptions {
  /** JSON-lines file that receives every entry (truncated at start). */
  file?: string;
  /** Newest entries kept in memory; older ones are dropped (and counted). */
  maxEntries?: number;
}

function validateAuditMaxEntries(n: unknown): number {
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

  /**
   * Records one request. `bodies` is called only when the file logs bodies or needs the request
   * object's metadata (writes), so reads and a sandbox without a file pay nothing for them.
   */
  record(r: AuditRecord, bodies?: () => AuditBodies): void {
    const time = r.time ?? auditTime();
    const entry: AuditEntry = { time, verb: r.verb, resource: r.resource } as AuditEntry;
    for (const k of ['subresource', 'namespace', 'name', 'code', 'dryRun', 'user', 'userAgent', 'fault'] as const) {
      // biome-ignore lint/plugin/double-assertion: copies the optional fields by name, each of the same type in AuditRecord and AuditEntry
      if (r[k] !== undefined) (entry as unknown as Record<string, unknown>)[k] = r[k];
    }
    this.remember(entry);
    this.writeEvent(r, time, bodies);
  }

  /**
   * Writes one Event to the file only: the seed's creates, which were never requests (memory and
   * GET /sandbox/audit hold what clients and the simulated components asked), but which the file
   * must hold for `history` to know the state every later write starts from.
   */
  recordInFile(r: AuditRecord, bodies?: () => AuditBodies): void {
    this.writeEvent(r, r.time ?? auditTime(), bodies);
  }

  private writeEvent(r: AuditRecord, time: string, bodies?: () => AuditBodies): void {
    if (!this.file || this.writeError) return;
    let b: AuditBodies | undefined;
    try {
      b = bodies && WRITE_VERBS.has(r.verb) ? bodies() : undefined;
    } catch {
      b = undefined; // an undecodable body: the answer said so; the Event goes without it
    }
    const line = `${JSON.stringify(auditEvent({ ...r, time }, b))}\n`;
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
