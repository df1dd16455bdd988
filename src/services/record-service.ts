// `record` (and `watch --record`): every change the informers see of ReplicaSets,
// ReplicationControllers and pods, and the controllers' Events, written as one JSON line each
// (docs/recording-format.md) for `history --recording` on clusters without audit logs. Read-only:
// lists and watches, never a write.

import { createWriteStream, type WriteStream } from 'node:fs';
import { createGzip, type Gzip } from 'node:zlib';
import type { InformerMetric } from '../cluster/informer.js';
import type { Connection } from '../cluster/kubeconfig.js';
import type { ConnectionFlags } from '../cluster/config-overrides.js';
import { CONTROLLER_KINDS } from '../core/controller.js';
import { UserError, oneLine } from '../errors.js';
import { changeLine, isControllerEvent, type ChangeType, type RecordedResource, type RecordingLine } from '../history/recording.js';
import { headerLine, type RecordedServerVersion } from '../history/recording-header.js';
import { chooseBehaviour } from './behaviour.js';

/** The part of an informer the recorder reads (src/cluster/informer.ts; the dashboard's fakes too). */
export interface RecordableInformer {
  addHandlers(h: { add?(o: any): void; update?(a: any, b: any): void; delete?(o: any): void }): void;
  hasSynced(): boolean;
}

export const EVENT_RESOURCE = { group: '', version: 'v1', resource: 'events', kind: 'Event' } as const;

/**
 * Turns informer changes into recording lines. Attach it before the informers run, and pass
 * metric(resource) as their onMetric: a relist (410 Gone) becomes a Gap line and the changes of
 * its list are marked `listed`, as are those of the first list.
 */
export class Recorder {
  private readonly relisting = new Set<string>();
  changes = 0;

  constructor(private readonly o: { now: () => number; write: (line: RecordingLine) => void }) {}

  header(namespace: string | null, context: string, versions?: { serverVersion: RecordedServerVersion | null; rulesVersion: string | null }): void {
    this.o.write(headerLine(this.time(), namespace, context, versions));
  }

  metric(resource: RecordedResource): (m: InformerMetric) => void {
    return (m) => {
      if (m.event === 'relist') {
        this.relisting.add(resource);
        this.o.write({ kind: 'Gap', time: this.time(), resource, reason: m.detail ?? 'relist' });
      } else if (m.event === 'watch') this.relisting.delete(resource);
    };
  }

  attach(resource: RecordedResource, inf: RecordableInformer): void {
    const keep = resource === 'events' ? isControllerEvent : () => true;
    // An informer that has listed already replays its cache to new handlers: state, not changes.
    let replaying = true;
    const put = (type: ChangeType, o: any, before?: any) => {
      if (!o?.metadata || !keep(o)) return;
      this.changes++;
      this.o.write(changeLine(type, resource, o, this.time(), replaying || !inf.hasSynced() || this.relisting.has(resource), before));
    };
    inf.addHandlers({
      add: (o) => put('ADDED', o),
      update: (a, b) => {
        // a resync: nothing changed
        if (a === b || a?.metadata?.resourceVersion === b?.metadata?.resourceVersion) return;
        put('MODIFIED', b, a);
      },
      // An Event that expires (its TTL) is no change of anything the history follows.
      delete: (o) => (resource === 'events' ? undefined : put('DELETED', 'tombstone' in o ? o.obj : o)),
    });
    replaying = false;
  }

  private time(): string {
    return new Date(this.o.now()).toISOString();
  }
}

/**
 * The server's /version for the header, or null when it does not answer it: a recording is worth
 * having without it (the informers' own errors say what is wrong with the server).
 */
async function askServerVersion(conn: Connection): Promise<RecordedServerVersion | null> {
  const { getServerVersion } = await import('../cluster/read.js');
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => (ac.abort(), resolve(null)), conn.requestTimeoutMs || VERSION_WAIT_MS);
    });
    const v = await Promise.race([getServerVersion(conn, { signal: ac.signal }), timeout]);
    return v ? { gitVersion: v.gitVersion, major: v.major, minor: v.minor } : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** How long the header waits for /version when no --request-timeout says otherwise. */
const VERSION_WAIT_MS = 10_000;

/** A file of JSON lines (gzip when its name ends in .gz), or stdout for "-". */
export interface LineFile {
  write(line: RecordingLine): void;
  /** Flushes and closes; resolves once everything is on disk. */
  close(): Promise<void>;
}

export async function openLineFile(path: string, stdout: NodeJS.WritableStream = process.stdout): Promise<LineFile> {
  if (path === '-') {
    return {
      write: (l) => void stdout.write(JSON.stringify(l) + '\n'),
      close: async () => {},
    };
  }
  const file = createWriteStream(path, { flags: 'w' });
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new UserError(`cannot write recording ${path}: ${e.code === 'ENOENT' ? 'no such directory' : e.code === 'EACCES' ? 'permission denied' : e.message}`),
      ),
    );
  });
  let failed: Error | null = null;
  let closed = false;
  file.on('error', (e) => (failed ??= e));
  const gzip: Gzip | null = path.endsWith('.gz') ? createGzip() : null;
  if (gzip) gzip.pipe(file);
  const out: NodeJS.WritableStream = gzip ?? file;
  return {
    write: (l) => {
      // a change an informer delivers while stopping, after close(), is dropped
      if (!failed && !closed) out.write(JSON.stringify(l) + '\n');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        closed = true;
        const done = () => (failed ? reject(new UserError(`cannot write recording ${path}: ${failed.message}`)) : resolve());
        (file as WriteStream).once('close', done);
        out.end();
      }),
  };
}

/** What a recording's informers report: every error, and whether the informer had listed yet. */
export type RecordingErrorHandler = (e: Error, resource: RecordedResource, synced: boolean) => void;

/**
 * One recording to one file: the header written on open, a Recorder attached to the informers of
 * ReplicaSets, ReplicationControllers and pods (its own, or the ones a `watch` session runs), and
 * an informer of the controllers' Events of its own. close() flushes.
 */
export class RecordingSession {
  readonly recorder: Recorder;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly conn: Connection,
    private readonly namespace: string | null,
    private readonly file: LineFile,
    now: () => number,
    versions: { serverVersion: RecordedServerVersion | null; rulesVersion: string | null },
  ) {
    this.recorder = new Recorder({ now, write: (l) => file.write(l) });
    this.recorder.header(namespace, conn.contextName || conn.server, versions);
  }

  /**
   * Opens the file and writes the header, with the server's version (asked now) and the rules
   * rs-reconcile applies to it: `rulesVersion` where the caller chose them (watch), else those of
   * the server's minor, so that `history --recording` judges the writes by the rules that made them.
   */
  static async open(
    conn: Connection,
    namespace: string | null,
    output: string,
    o: { now?: () => number; stdout?: NodeJS.WritableStream; rulesVersion?: string } = {},
  ): Promise<RecordingSession> {
    const serverVersion = await askServerVersion(conn);
    let rulesVersion = o.rulesVersion ?? null;
    if (rulesVersion === null && serverVersion?.minor) rulesVersion = chooseBehaviour({}, serverVersion.minor, []).version;
    return new RecordingSession(conn, namespace, await openLineFile(output, o.stdout), o.now ?? Date.now, { serverVersion, rulesVersion });
  }

  /** What the informers of `resource` need for the recording: managedFields kept, relists reported. */
  informerOptions(resource: RecordedResource): { keepManagedFields: boolean; onMetric: (m: InformerMetric) => void } {
    return { keepManagedFields: resource !== 'events', onMetric: this.recorder.metric(resource) };
  }

  /** Starts informers of its own: ReplicaSets, ReplicationControllers, pods and the controllers' Events. */
  async start(
    signals: { core: AbortSignal; events: AbortSignal },
    onError: RecordingErrorHandler,
  ): Promise<{ resource: RecordedResource; informer: InstanceType<typeof import('../cluster/informer.js').Informer>; running: Promise<void> }[]> {
    const { Informer } = await import('../cluster/informer.js');
    const resources: RecordedResource[] = ['replicasets', 'replicationcontrollers', 'pods', 'events'];
    const started = resources.map((resource) => {
      const def = resource === 'events' ? EVENT_RESOURCE : resource === 'pods' ? 'pods' : CONTROLLER_KINDS.find((k) => k.resource === resource)!;
      const informer: InstanceType<typeof Informer> = new Informer({
        conn: this.conn,
        resource: def,
        namespace: this.namespace,
        ...this.informerOptions(resource),
        onError: (e) => onError(e, resource, informer.hasSynced()),
      });
      this.recorder.attach(resource, informer);
      return informer;
    });
    return started.map((informer, i) => ({
      resource: resources[i],
      informer,
      running: informer.run(resources[i] === 'events' ? signals.events : signals.core),
    }));
  }

  close(): Promise<void> {
    return (this.closing ??= this.file.close());
  }
}

export interface RecordOptions {
  connection: ConnectionFlags;
  namespace?: string;
  allNamespaces: boolean;
  output: string;
  /** Stop after this long (ms); undefined: until the signal aborts. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface RecordIO {
  signal: AbortSignal;
  /** Notices after the start (a watch that broke off and reconnects): the command shows them on a terminal. */
  onNotice(text: string): void;
  /** Once every informer has listed. */
  onSynced?(summary: string): void;
  now?: () => number;
  stdout?: NodeJS.WritableStream;
}

export interface RecordResult {
  file: string;
  changes: number;
  /** Why it stopped: the signal (Ctrl-C) or --timeout. */
  stopped: 'signal' | 'timeout';
}

/** A 403 on the Events only warns: they are evidence, the recording is worth having without them. */
export function eventsUnreadable(e: Error): string {
  return `cannot read the controllers' Events (${oneLine(e)}): who deleted a pod will show as <unknown user>`;
}

/**
 * Records until the signal aborts or the timeout passes. A failure before every informer has
 * listed (unreachable cluster, 403 on list or watch) ends it with that one-line error; a failure
 * on Events only warns (deletes then show as "<unknown user>"). The file is flushed either way.
 */
export async function record(o: RecordOptions, io: RecordIO): Promise<RecordResult> {
  const { connect } = await import('../cluster/kubeconfig.js');
  const conn: Connection = connect({ ...o.connection, namespace: o.namespace }, o.env ?? process.env);
  const namespace = o.allNamespaces ? null : conn.namespace;
  const session = await RecordingSession.open(conn, namespace, o.output, { now: io.now, stdout: io.stdout });

  const stop = new AbortController();
  const events = new AbortController();
  const onAbort = () => stop.abort();
  io.signal.addEventListener('abort', onAbort, { once: true });
  let stopped: RecordResult['stopped'] = 'signal';
  const timer = o.timeoutMs !== undefined ? setTimeout(() => ((stopped = 'timeout'), stop.abort()), o.timeoutMs) : undefined;
  stop.signal.addEventListener('abort', () => events.abort(), { once: true });
  let fatal: Error | null = null;
  let synced = false;
  const onError: RecordingErrorHandler = (e, resource, listed) => {
    if (resource === 'events' && !listed) {
      io.onNotice(eventsUnreadable(e));
      events.abort();
    } else if (!synced) {
      fatal ??= e;
      stop.abort();
    } else io.onNotice(oneLine(e));
  };
  // The Events informer runs on its own signal: a refusal of Events stops it alone.
  const started = await session.start({ core: stop.signal, events: events.signal }, onError);
  const core = started.filter((s) => s.resource !== 'events');
  try {
    await Promise.all(core.map((s) => s.informer.waitForSync(stop.signal)));
    synced = true;
    io.onSynced?.(
      `recording ${namespace === null ? 'all namespaces' : `namespace ${namespace}`} to ${o.output} (${core.map((s) => `${s.informer.cache.list().length} ${s.resource}`).join(', ')})`,
    );
  } catch {
    // stopped (or failed) before the lists: said below
  }
  if (!stop.signal.aborted) await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  clearTimeout(timer);
  io.signal.removeEventListener('abort', onAbort);
  events.abort();
  await Promise.allSettled(started.map((s) => s.running));
  await session.close();
  const failed = fatal as Error | null; // set by the informers' callbacks
  if (failed) throw failed instanceof UserError ? failed : new UserError(oneLine(failed));
  return { file: o.output, changes: session.recorder.changes, stopped };
}
