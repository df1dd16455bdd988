// `history --events` and `history --events-file FILE`: where there is no audit log, the history
// the cluster's Events tell (src/history/events.ts), read from the live cluster (a paginated list
// of core/v1 Events, read-only, within a time bound) or from files of `kubectl get events -o json`
// or `-o yaml` (core/v1 or events.k8s.io/v1, a List or single Events, several documents, plain or
// gzip, within --max-input-size). The result has the shape `buildHistory` returns.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { ConnectionFlags } from '../cluster/config-overrides.js';
import { fileParseError, fileReadError, UserError } from '../errors.js';
import { historyFromEvents, isEventObject, objectsOf, readEvent, EVENT_REASONS, type EventRecord, type EventsHistory } from '../history/events.js';
import { HISTORY_API_VERSION, type HistoryCounts, type HistoryEvent } from '../history/types.js';
import { skipValue, skipWhitespace } from '../input/json-scan.js';
import { DEFAULT_MAX_INPUT_BYTES, TEXT_CHECK_BYTES, firstBinaryByte, formatBytes } from '../input/read-input.js';
import { readYamlDocuments } from '../input/yaml-read.js';
import { EventSpool } from './event-spool.js';
import { describeTarget, type HistoryResult, type HistoryTarget } from './history-service.js';
import { chooseBehaviour } from './behaviour.js';

const gunzip = promisify(gunzipCallback);

export interface EventsHistoryOptions {
  /**
   * Files of Events (`kubectl get events -o json|yaml`, also `events.k8s.io/v1` lists and the
   * output of `-w`; plain or gzip); "-" reads stdin. None: the live cluster's Events.
   */
  files?: string[];
  /** How to reach the live cluster (kubeconfig flags); used when no file is given. */
  connection?: ConnectionFlags;
  /** -n. Live: the context's namespace when absent; files: every namespace in them when absent. */
  namespace?: string;
  /** -A: every namespace of the live cluster (files: the same as no -n). */
  allNamespaces?: boolean;
  target?: HistoryTarget;
  kubeVersion?: string;
  featureGates?: string;
  /** Only events at or after / at or before this time (ms since the epoch). */
  sinceMs?: number;
  untilMs?: number;
  /** Only the controllers' writes (their causes stay in `cause`). */
  controllerWritesOnly?: boolean;
  /** Most bytes read from one file, decompressed (default 512Mi, --max-input-size). */
  maxInputBytes?: number;
  /** Live: Events per page of the list (default 500, kubectl's --chunk-size); 0 lists without pages. */
  pageSize?: number;
  /** Live: the whole read is given up after this long (default 120 s; 0: never), whatever --request-timeout says of each request. */
  timeoutMs?: number;
  /** Live: stops the read (it rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Where the events are kept while they are written out (default: the system's temporary directory). */
  spoolDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Read for the file "-" (default process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Progress in words ("reading Events: 3 pages"), for a spinner. */
  onProgress?: (text: string) => void;
}

/** A whole live read is given up after this long by default. */
const DEFAULT_EVENTS_TIMEOUT_MS = 120_000;

const EVENT_RESOURCE = { group: '', version: 'v1', resource: 'events', kind: 'Event' };

/** What was read: the Events of interest, and what could not be read of the rest. */
interface Read {
  records: EventRecord[];
  /** Events of a reason the history reads that name no object or carry no time. */
  unreadable: number;
  serverMinor: string | null;
  /** `the cluster's Events in namespace shop`, `the Events of events.json`: for messages. */
  where: string;
  /** The namespace the read was limited to (live), else the one asked for, else null. */
  namespace: string | null;
}

/** Reads the Events and tells the history they hold: the same result as buildHistory. */
export async function buildEventsHistory(opts: EventsHistoryOptions): Promise<HistoryResult> {
  const files = opts.files ?? [];
  if (files.length > 0 && opts.connection !== undefined)
    throw new UserError('read the Events from files (--events-file) or from the cluster (--events), not both');
  if (files.length === 0 && opts.connection === undefined)
    throw new UserError('no Events to read: give --events to read the cluster\'s, or --events-file FILE (the output of "kubectl get events -o json")');
  if (opts.namespace !== undefined && opts.allNamespaces) throw new UserError('-n and -A cannot be used together');
  const notices: string[] = [];
  const read = files.length > 0 ? await readFiles(files, opts, notices) : await readLive(opts);
  const behaviour = chooseBehaviour({ kubeVersion: opts.kubeVersion, featureGates: opts.featureGates }, read.serverMinor, notices);
  const h = historyFromEvents(read.records, {
    namespace: read.namespace ?? undefined,
    target: opts.target,
    sinceMs: opts.sinceMs,
    untilMs: opts.untilMs,
    controllerWritesOnly: opts.controllerWritesOnly,
  });
  const target = opts.target;
  const inNs = read.namespace !== null ? ` in namespace ${read.namespace}` : '';
  if (target) checkTargetFound(target, h, read.where, inNs);
  notices.push(...readNotices(h, read, inNs));
  const { spool, counts } = spoolEvents(h.events, opts.spoolDir);
  const namespaces = new Set(h.namespaces);
  return {
    history: {
      apiVersion: HISTORY_API_VERSION,
      kind: 'ReconcileHistory',
      // the contract's sources are "audit-log" | "recording": coverage.format "events" tells them apart
      source: 'recording',
      kubernetesVersion: behaviour.version,
      from: h.events[0]?.time ?? null,
      to: h.events.at(-1)?.time ?? null,
      events: spool,
      coverage: h.coverage,
    },
    counts,
    notPredicted: [],
    refused: h.refused,
    coverage: h.coverage,
    span: spanOf(h.events),
    notices,
    targetNamespace: target && namespaces.size === 1 ? [...namespaces][0] : read.namespace,
    close: () => spool.close(),
  };
}

/** A controller asked for must have written something, and in one namespace only (else -n chooses). */
function checkTargetFound(target: HistoryTarget, h: EventsHistory, where: string, inNs: string): void {
  const found = new Set([...h.namespaces, ...h.refused.map((r) => r.controller?.namespace ?? '')].filter((n) => n !== ''));
  if (h.events.length === 0 && h.refused.length === 0) {
    throw new UserError(
      `${describeTarget(target)} has no write in ${where}${inNs}: Events are kept about an hour (kube-apiserver --event-ttl); "kubectl rs-reconcile record" keeps what happens from now on`,
    );
  }
  if (found.size > 1) throw new UserError(`"${target.name}" is in several namespaces of ${where} (${[...found].sort().join(', ')}): choose one with -n`);
}

/** What the reader should know of the read: Events left out, none found, writes that failed. */
function readNotices(h: EventsHistory, read: Read, inNs: string): string[] {
  const notices: string[] = [];
  if (read.unreadable > 0)
    notices.push(
      `${read.unreadable} Event${read.unreadable === 1 ? '' : 's'} of ${read.where} name${read.unreadable === 1 ? 's' : ''} no object or carr${read.unreadable === 1 ? 'ies' : 'y'} no time: left out`,
    );
  if (h.read === 0) {
    notices.push(
      `no Event of the ReplicaSet, ReplicationController or Deployment controllers${inNs} in ${read.where}: Events are kept about an hour (kube-apiserver --event-ttl); "kubectl rs-reconcile record" keeps what happens from now on`,
    );
  }
  if (h.refused.length > 0) {
    const last = h.refused[h.refused.length - 1];
    notices.push(
      `${h.refused.length} Event${h.refused.length === 1 ? '' : 's'} of writes that failed (FailedCreate, FailedDelete); the last, at ${last.time}, of ${last.controller?.kind ?? ''} ${last.controller?.name ?? ''}: ${last.message}`,
    );
  }
  return notices;
}

/** The events kept in a spool while they are written out, and their counts (Events carry no state: no verdict). */
function spoolEvents(events: readonly HistoryEvent[], spoolDir: string | undefined): { spool: EventSpool<HistoryEvent>; counts: HistoryCounts } {
  const spool = new EventSpool<HistoryEvent>(spoolDir);
  const counts: HistoryCounts = { events: 0, controller: 0, predicted: 0, notPredicted: 0, unknown: 0 };
  try {
    for (const e of events) {
      spool.push(e);
      counts.events++;
      if (e.actor.controller) {
        counts.controller++;
        counts.unknown++;
      }
    }
  } catch (e) {
    spool.close();
    throw e;
  }
  return { spool, counts };
}

/** The times of the first and last Event shown (ms): what Events cover is what they say. */
function spanOf(events: readonly HistoryEvent[]): { from: number; to: number } | null {
  const from = Date.parse(events[0]?.time ?? '');
  const to = Date.parse(events.at(-1)?.time ?? '');
  return Number.isNaN(from) || Number.isNaN(to) ? null : { from, to };
}

// ---------------------------------------------------------------------------------------------
// The live cluster

/** Failures that every other request would meet as well (src/cluster/read.ts). */
const FATAL: ReadonlySet<string> = new Set(['unreachable', 'tls', 'timeout', 'credentials', 'unauthorized']);

async function readLive(opts: EventsHistoryOptions): Promise<Read> {
  const { connect, formatTimeout } = await import('../cluster/kubeconfig.js');
  const { ApiReader, DEFAULT_PAGE_SIZE, MAX_RETRIES } = await import('../cluster/list.js');
  const { getServerVersion } = await import('../cluster/read.js');
  const { ClusterError } = await import('../cluster/errors.js');
  const conn = connect({ ...opts.connection, namespace: opts.namespace }, opts.env ?? process.env);
  const namespace = opts.allNamespaces ? null : conn.namespace;
  const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 0) throw new UserError(`invalid page size ${pageSize}: use a whole number of items (0 lists without pages)`);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_EVENTS_TIMEOUT_MS;
  const where = "the cluster's Events";

  const stop = new AbortController();
  let pages = 0;
  let items = 0;
  if (!(timeoutMs >= 0)) throw new UserError(`invalid time limit ${timeoutMs}: use a number of milliseconds (0: none)`);
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          const done = pages > 0 ? ` (${pages} page${pages === 1 ? '' : 's'} read)` : '';
          stop.abort(new ClusterError(`timed out after ${formatTimeout(timeoutMs)} reading the Events of the cluster at ${conn.server}${done}`, 'timeout'));
        }, timeoutMs)
      : undefined;
  const onAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let serverMinor: string | null = null;
    if (opts.kubeVersion === undefined) {
      try {
        serverMinor = (await getServerVersion(conn, { signal: stop.signal })).minor || null;
      } catch (err) {
        // /version is only informative; a server that hides it may still list Events
        if (!(err instanceof ClusterError) || FATAL.has(err.reason)) throw err;
      }
    }
    const reader = new ApiReader(conn, { signal: stop.signal, retries: MAX_RETRIES });
    let unreadable = 0;
    const { items: records } = await reader.list<EventRecord>({
      resource: EVENT_RESOURCE,
      namespace,
      pageSize,
      accept: (item) => {
        items++;
        const r = readEvent(item);
        if (!r && isUnreadable(item)) unreadable++;
        return r;
      },
      onPage: (p) => {
        pages = p.pages;
        opts.onProgress?.(`reading Events: ${items} in ${p.pages} page${p.pages === 1 ? '' : 's'}`);
      },
    });
    return { records, unreadable, serverMinor, where, namespace };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** An Event of a reason the history reads that it cannot read (no object named, no time). */
function isUnreadable(v: unknown): boolean {
  return isEventObject(v) && EVENT_REASONS.has(String((v as { reason?: unknown }).reason)) && readEvent(v) === null;
}

// ---------------------------------------------------------------------------------------------
// Files

async function readFiles(files: string[], opts: EventsHistoryOptions, notices: string[]): Promise<Read> {
  const limit = opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const records: EventRecord[] = [];
  let unreadable = 0;
  let stdinSeen = false;
  for (const file of files) {
    if (file === '-') {
      if (stdinSeen) throw new UserError('"-" (stdin) can be given only once');
      stdinSeen = true;
    }
    const label = file === '-' ? '<stdin>' : file;
    const text = await readText(file, label, limit, opts.stdin ?? process.stdin);
    const objects = parseDocuments(text, label).flatMap(objectsOf);
    let events = 0;
    const others = new Map<string, number>();
    for (const o of objects) {
      if (!isEventObject(o)) {
        const kind =
          typeof (o as { kind?: unknown })?.kind === 'string' ? (o as { kind: string }).kind : typeof o === 'object' ? 'object without kind' : typeof o;
        others.set(kind, (others.get(kind) ?? 0) + 1);
        continue;
      }
      events++;
      const r = readEvent(o);
      if (r) records.push(r);
      else if (isUnreadable(o)) unreadable++;
    }
    if (events === 0 && others.size > 0) {
      const found = [...others].map(([k, n]) => `${n} ${k}`).join(', ');
      throw fileParseError(label, `no Event in it (found ${found}): expected the output of "kubectl get events -o json" (or -o yaml)`);
    }
    if (events === 0) notices.push(`${label}: no Events in it`);
    else if (others.size > 0) notices.push(`${label}: ${[...others].map(([k, n]) => `${n} ${k}`).join(', ')} left out: not Events`);
  }
  const where = files.length === 1 ? `the Events of ${files[0] === '-' ? '<stdin>' : files[0]}` : `the Events of ${files.length} files`;
  return { records, unreadable, serverMinor: null, where, namespace: opts.namespace ?? null };
}

function cannotRead(label: string, e: unknown): UserError {
  return fileReadError(label, e);
}

/** As read-input.ts says it: the size when it is known, else where reading stopped. */
const tooLarge = (label: string, limit: number, size?: number, decompressed = false): UserError =>
  fileReadError(
    label,
    `too large${decompressed ? ' once decompressed' : ''}: ${size !== undefined ? `${formatBytes(size)}, over the input limit of ${formatBytes(limit)}` : `stopped reading at the input limit of ${formatBytes(limit)}`} (raise it with --max-input-size)`,
  );

/** The bytes of a file or stdin, at most `limit` of them. */
async function readBytes(file: string, label: string, limit: number, stdin: NodeJS.ReadableStream): Promise<Buffer> {
  let stream: NodeJS.ReadableStream;
  if (file === '-') stream = stdin;
  else {
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      if (st.isFile() && st.size > limit) throw tooLarge(label, limit, st.size);
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw cannotRead(label, e);
    }
    stream = createReadStream(file);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      total += b.length;
      if (total > limit) throw tooLarge(label, limit);
      chunks.push(b);
    }
  } catch (e) {
    (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    if (e instanceof UserError) throw e;
    throw cannotRead(label, e);
  }
  return Buffer.concat(chunks, total);
}

/** The text of a file of Events: gunzipped when it is gzip, refused when it is not text. */
async function readText(file: string, label: string, limit: number, stdin: NodeJS.ReadableStream): Promise<string> {
  let b = await readBytes(file, label, limit, stdin);
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) {
    try {
      b = await gunzip(b, { maxOutputLength: limit });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (e instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(label, limit, undefined, true);
      throw fileParseError(label, `not a valid gzip file (${(e as Error).message})`);
    }
  }
  const at = firstBinaryByte(b.subarray(0, TEXT_CHECK_BYTES), b.length <= TEXT_CHECK_BYTES);
  if (at >= 0) throw fileParseError(label, `not a text file (binary data at byte ${at}): expected the JSON or YAML of "kubectl get events"`);
  // UTF-16 with a byte-order mark (a redirect in PowerShell), or UTF-8 with one
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return b.toString('utf16le', 2);
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
    const swapped = Buffer.from(b.subarray(2, b.length - (b.length % 2)));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  const text = b.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The documents of a file: one JSON value, several one after another (`kubectl get events -w -o
 * json`, JSON lines), or YAML documents (`---`).
 */
function parseDocuments(text: string, label: string): unknown[] {
  const start = text.search(/\S/);
  if (start < 0) return [];
  const c = text[start];
  if ((c === '{' || c === '[') && !text.includes('\n---')) {
    try {
      return [JSON.parse(text)];
    } catch (e) {
      const values = jsonValues(text);
      if (values) return values;
      throw fileParseError(label, `invalid JSON: ${(e as Error).message}`);
    }
  }
  return readYamlDocuments(text, label).filter((d) => d !== null && d !== undefined);
}

/** JSON values one after another, or null when the text is not that. */
function jsonValues(text: string): unknown[] | null {
  const b = Buffer.from(text, 'utf8');
  const out: unknown[] = [];
  try {
    for (let i = skipWhitespace(b, 0, b.length); i < b.length; i = skipWhitespace(b, i, b.length)) {
      const end = skipValue(b, i, b.length);
      out.push(JSON.parse(b.toString('utf8', i, end)));
      i = end;
    }
  } catch {
    return null;
  }
  return out.length > 1 ? out : null;
}
