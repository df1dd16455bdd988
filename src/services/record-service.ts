// `record` (and `watch --record`): every change the informers see of ReplicaSets,
// ReplicationControllers and pods, and the controllers' Events, written as one JSON line each
// (docs/recording-format.md) for `history --recording` on clusters without audit logs. Read-only:
// lists and watches, never a write.

import { createWriteStream, type WriteStream } from 'node:fs';
import { createGzip, type Gzip } from 'node:zlib';
import type { InformerMetric } from '../cluster/informer.js';
import type { Connection, ConnectionFlags } from '../cluster/kubeconfig.js';
import { CONTROLLER_KINDS } from '../core/controller.js';
import { UserError, oneLine } from '../errors.js';
import { changeLine, headerLine, isControllerEvent, type ChangeType, type RecordedResource, type RecordingLine } from '../history/recording.js';

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

  header(namespace: string | null, context: string): void {
    this.o.write(headerLine(this.time(), namespace, context));
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
    const put = (type: ChangeType, o: any, before?: any) => {
      if (!o?.metadata || !keep(o)) return;
      this.changes++;
      this.o.write(changeLine(type, resource, o, this.time(), !inf.hasSynced() || this.relisting.has(resource), before));
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
  }

  private time(): string {
    return new Date(this.o.now()).toISOString();
  }
}

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
    file.once('error', (e: NodeJS.ErrnoException) => reject(new UserError(`cannot write recording ${path}: ${e.code === 'ENOENT' ? 'no such directory' : e.code === 'EACCES' ? 'permission denied' : e.message}`)));
  });
  let failed: Error | null = null;
  file.on('error', (e) => (failed ??= e));
  const gzip: Gzip | null = path.endsWith('.gz') ? createGzip() : null;
  if (gzip) gzip.pipe(file);
  const out: NodeJS.WritableStream = gzip ?? file;
  return {
    write: (l) => {
      if (!failed) out.write(JSON.stringify(l) + '\n');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        const done = () => (failed ? reject(new UserError(`cannot write recording ${path}: ${failed.message}`)) : resolve());
        (file as WriteStream).once('close', done);
        out.end();
      }),
  };
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

/**
 * Records until the signal aborts or the timeout passes. A failure before every informer has
 * listed (unreachable cluster, 403 on list or watch) ends it with that one-line error; a 403 on
 * events only warns (deletes then show as "<unknown user>"). The file is flushed either way.
 */
export async function record(o: RecordOptions, io: RecordIO): Promise<RecordResult> {
  const { connect } = await import('../cluster/kubeconfig.js');
  const { Informer } = await import('../cluster/informer.js');
  const conn: Connection = connect({ ...o.connection, namespace: o.namespace }, o.env ?? process.env);
  const namespace = o.allNamespaces ? null : conn.namespace;
  const now = io.now ?? Date.now;
  const file = await openLineFile(o.output, io.stdout);
  const recorder = new Recorder({ now, write: (l) => file.write(l) });
  recorder.header(namespace, conn.contextName || conn.server);

  const stop = new AbortController();
  const events = new AbortController();
  const onAbort = () => stop.abort();
  io.signal.addEventListener('abort', onAbort, { once: true });
  let stopped: RecordResult['stopped'] = 'signal';
  const timer = o.timeoutMs !== undefined ? setTimeout(() => ((stopped = 'timeout'), stop.abort()), o.timeoutMs) : undefined;
  stop.signal.addEventListener('abort', () => events.abort(), { once: true });
  let fatal: Error | null = null;
  let synced = false;

  const make = (resource: RecordedResource) => {
    const def = resource === 'events' ? EVENT_RESOURCE : resource === 'pods' ? 'pods' : CONTROLLER_KINDS.find((k) => k.resource === resource)!;
    const inf = new Informer({
      conn,
      resource: def,
      namespace,
      keepManagedFields: resource !== 'events',
      onMetric: recorder.metric(resource),
      onError: (e) => {
        if (resource === 'events' && !inf.hasSynced()) {
          // Evidence only: record without it rather than not at all.
          io.onNotice(`cannot read the controllers' Events (${oneLine(e)}): who deleted a pod will show as <unknown user>`);
          events.abort();
          return;
        }
        if (!synced) {
          fatal ??= e;
          stop.abort();
        } else io.onNotice(oneLine(e));
      },
    });
    recorder.attach(resource, inf);
    return inf;
  };
  const names = ['replicasets', 'replicationcontrollers', 'pods'] as const;
  const core = names.map(make);
  const ev = make('events');
  const running = [...core.map((inf) => inf.run(stop.signal)), ev.run(events.signal)];
  try {
    await Promise.all(core.map((inf) => inf.waitForSync(stop.signal)));
    synced = true;
    io.onSynced?.(`recording ${namespace === null ? 'all namespaces' : `namespace ${namespace}`} to ${o.output} (${core.map((inf, i) => `${inf.cache.list().length} ${names[i]}`).join(', ')})`);
  } catch {
    // stopped (or failed) before the lists: handled below
  }
  if (!stop.signal.aborted) await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  clearTimeout(timer);
  io.signal.removeEventListener('abort', onAbort);
  events.abort();
  await Promise.allSettled(running);
  await file.close();
  const failed = fatal as Error | null; // set by the informers' callbacks
  if (failed) throw failed instanceof UserError ? failed : new UserError(oneLine(failed));
  return { file: o.output, changes: recorder.changes, stopped };
}
