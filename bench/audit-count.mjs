// Counting a client's API writes in the sandbox's audit log (bench/controller.mjs, the `scale`
// row). Pure: entries in, counts out; the bench reads the entries, this only sorts them.

/** The CLI's User-Agent, every client of it: `rs-reconcile/v0.1.0 (linux/amd64) kubernetes/… [client/identity]`. */
export const CLI_USER_AGENT = /^rs-reconcile\/\S+ \(/;

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** A predicate on audit entries: sent with a User-Agent that matches `re`. */
export function byUserAgent(re) {
  return (e) => typeof e.userAgent === 'string' && re.test(e.userAgent);
}

/**
 * The kind of one audited write, in the words of the bench's row, or undefined for a read.
 * Status writes are those of a controller's status subresource (ReplicaSet or
 * ReplicationController); anything a controller is not expected to write is `other`.
 */
export function writeKind(e) {
  if (!WRITE_VERBS.has(e.verb)) return undefined;
  const { verb, resource, subresource } = e;
  if (resource === 'pods' && !subresource) {
    if (verb === 'create') return 'podCreates';
    if (verb === 'delete') return 'podDeletes';
    if (verb === 'patch') return 'podPatches';
  }
  if ((resource === 'replicasets' || resource === 'replicationcontrollers') && subresource === 'status' && (verb === 'update' || verb === 'patch'))
    return 'statusUpdates';
  if (resource === 'events' && !subresource) {
    if (verb === 'create') return 'eventCreates';
    if (verb === 'patch') return 'eventPatches';
  }
  if (resource === 'leases') return 'leaseWrites';
  return 'other';
}

/** Every counter countWrites returns, in the order the bench prints them. */
export const WRITE_KINDS = ['podCreates', 'podDeletes', 'podPatches', 'statusUpdates', 'eventCreates', 'eventPatches', 'leaseWrites', 'other'];

/**
 * The writes among `entries` for which `isOurs` holds, by kind. Every request sent counts,
 * answered or not: `failed` says how many of them got an answer outside 2xx (a conflict, a
 * refused write), `failures` which (`update replicasets/status 409` → how many), `dryRun` how
 * many were sent with dryRun=All.
 */
export function countWrites(entries, isOurs = byUserAgent(CLI_USER_AGENT)) {
  const out = Object.fromEntries(WRITE_KINDS.map((k) => [k, 0]));
  out.total = 0;
  out.failed = 0;
  out.dryRun = 0;
  out.failures = {};
  for (const e of entries) {
    if (!isOurs(e)) continue;
    const kind = writeKind(e);
    if (!kind) continue;
    out[kind]++;
    out.total++;
    if (!(e.code >= 200 && e.code < 300)) {
      out.failed++;
      const what = `${e.verb} ${e.resource}${e.subresource ? `/${e.subresource}` : ''} ${e.code}`;
      out.failures[what] = (out.failures[what] ?? 0) + 1;
    }
    if (e.dryRun) out.dryRun++;
  }
  return out;
}

/**
 * One line of the sandbox's audit file (an `audit.k8s.io/v1` Event, as kube-apiserver writes
 * them) as the entry GET /sandbox/audit returns for the same request.
 */
export function entryOfAuditEvent(e) {
  const ref = e.objectRef ?? {};
  const entry = { time: e.stageTimestamp, verb: e.verb, resource: ref.resource };
  if (ref.subresource) entry.subresource = ref.subresource;
  if (ref.namespace) entry.namespace = ref.namespace;
  if (ref.name) entry.name = ref.name;
  entry.code = e.responseStatus?.code;
  // dryRun=All in the query, or (a DELETE) in the DeleteOptions body
  const dry = e.requestObject?.kind === 'DeleteOptions' && Array.isArray(e.requestObject.dryRun) && e.requestObject.dryRun.includes('All');
  entry.dryRun = dry || /[?&]dryRun=All(&|$)/.test(e.requestURI ?? '');
  if (e.user?.username) entry.user = e.user.username;
  if (e.userAgent !== undefined) entry.userAgent = e.userAgent;
  return entry;
}

/** Entries of a JSON-lines audit file (the sandbox's `auditLog`), in the order they were written. */
export function parseAuditLines(text) {
  const entries = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let v;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`audit log line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    entries.push(v?.kind === 'Event' && typeof v.apiVersion === 'string' && v.apiVersion.startsWith('audit.k8s.io/') ? entryOfAuditEvent(v) : v);
  }
  return entries;
}
