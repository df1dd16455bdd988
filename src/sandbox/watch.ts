// Watch streams: JSON lines of {type, object}, resumable from a resourceVersion kept in the
// store's history, with bookmarks, selector transitions and the watch cache's 410 answer.
import type { ServerResponse } from 'node:http';
import { badRequest, failure, type Status } from './errors.js';
import { withType } from './registry.js';
import type { ResourceDef } from './resources.js';
import { apiVersionOf } from './resources.js';
import { matches, type Selector } from './selectors.js';
import type { Store, StoreEvent } from './store.js';
import { toTable, type IncludeObject } from './table.js';
import type { Obj } from './util.js';

export interface WatchParams {
  res: ResourceDef;
  namespace?: string;
  sel: Selector;
  resourceVersion?: string;
  allowBookmarks: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  /** Encode objects as Tables (kubectl get -w) with this includeObject policy. */
  table?: IncludeObject;
}

interface Active {
  res: ResourceDef;
  response: ServerResponse;
  close: () => void;
}

export class WatchHub {
  private readonly active = new Set<Active>();
  private readonly gone = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly bookmarkIntervalMs: number,
  ) {}

  /** The next watch on this resource is answered with 410 Expired, whatever its resourceVersion. */
  forceGone(resource: string): void {
    this.gone.add(resource);
  }

  /** Closes every open watch stream (clients see the stream end and must re-watch). */
  dropAll(abrupt = false): number {
    const all = [...this.active];
    for (const a of all) {
      if (abrupt) a.response.socket?.destroy();
      a.close();
    }
    return all.length;
  }

  openCount(): number {
    return this.active.size;
  }

  /** Validates the request before any byte is written (errors become normal HTTP errors). */
  private parseRV(rv: string | undefined): number | undefined {
    if (rv === undefined || rv === '') return undefined;
    if (!/^\d+$/.test(rv)) throw badRequest(`resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": invalid syntax`);
    return Number(rv);
  }

  serve(p: WatchParams, response: ServerResponse): void {
    const rvNum = this.parseRV(p.resourceVersion);
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    response.flushHeaders();

    const start = this.gone.delete(p.res.name)
      ? { expired: `too old resource version: ${rvNum ?? 0} (${this.store.currentRV()})` }
      : this.startingPoint(p, rvNum);
    if ('expired' in start) {
      const st: Status = failure(410, 'Expired', start.expired);
      response.end(encodeEvent(p, 'ERROR', st as Obj));
      return;
    }
    this.stream(p, response, start);
  }

  /**
   * Where the watch starts: from the current state (no resourceVersion, "0", or sendInitialEvents)
   * as ADDED objects, else from the events after its resourceVersion, or 410 when those are gone.
   */
  private startingPoint(p: WatchParams, rvNum: number | undefined): { initial: Obj[]; replay: StoreEvent[] } | { expired: string } {
    if (rvNum === undefined || rvNum === 0 || p.sendInitialEvents === true) {
      return { initial: this.store.list(p.res.name, p.namespace).filter((o) => matches(p.sel, p.res, o)), replay: [] };
    }
    const since = this.store.eventsSince(p.res.name, rvNum);
    if (!since) return { expired: `too old resource version: ${rvNum} (${this.store.oldestServable(p.res.name)})` };
    return { initial: [], replay: since };
  }

  /** Writes the starting events, then every store event the watcher sees, with bookmarks, until closed. */
  private stream(p: WatchParams, response: ServerResponse, start: { initial: Obj[]; replay: StoreEvent[] }): void {
    let closed = false;
    const write = (s: string) => {
      if (!closed) response.write(s);
    };
    const bookmark = (annotations?: Record<string, string>) => {
      const metadata: Obj = { resourceVersion: String(this.store.currentRV()) };
      if (annotations) metadata.annotations = annotations;
      write(encodeEvent(p, 'BOOKMARK', { kind: p.res.kind, apiVersion: apiVersionOf(p.res), metadata }));
    };
    const send = (ev: StoreEvent) => {
      const t = translate(p, ev);
      if (t) write(encodeEvent(p, t[0], t[1]));
    };

    for (const o of start.initial) write(encodeEvent(p, 'ADDED', withType(p.res, o)));
    if (p.sendInitialEvents && p.allowBookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
    for (const ev of start.replay) send(ev);
    const unsubscribe = this.store.subscribe((ev) => {
      if (ev.resource === p.res.name) send(ev);
    });
    const timers: NodeJS.Timeout[] = [];
    if (p.allowBookmarks && this.bookmarkIntervalMs > 0) timers.push(setInterval(() => bookmark(), this.bookmarkIntervalMs));
    const entry: Active = {
      res: p.res,
      response,
      close: () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        for (const t of timers) clearInterval(t);
        this.active.delete(entry);
        if (!response.writableEnded) response.end();
      },
    };
    if (p.timeoutSeconds !== undefined && p.timeoutSeconds > 0) timers.push(setTimeout(entry.close, p.timeoutSeconds * 1000));
    this.active.add(entry);
    response.on('close', entry.close);
  }
}

/** One JSON line; a Table watch (kubectl get -w) wraps each object, but not ERROR or BOOKMARK, in a Table. */
function encodeEvent(p: WatchParams, type: string, object: Obj): string {
  let obj = object;
  if (p.table && type !== 'ERROR' && type !== 'BOOKMARK') obj = toTable(p.res, [object], { resourceVersion: object.metadata?.resourceVersion }, p.table);
  return `${JSON.stringify({ type, object: obj })}\n`;
}

/**
 * The event this watcher sees, by its namespace and selector: an object moving into its scope is
 * ADDED, moving out of it DELETED, staying out of it nothing.
 */
function translate(p: WatchParams, ev: StoreEvent): [string, Obj] | null {
  const inScope = (o: Obj | undefined) => !!o && (!p.namespace || o.metadata?.namespace === p.namespace) && matches(p.sel, p.res, o);
  const now = inScope(ev.object);
  if (ev.type === 'ADDED') return now ? ['ADDED', ev.object] : null;
  const before = inScope(ev.prev);
  if (ev.type === 'DELETED') return before ? ['DELETED', ev.object] : null;
  if (now && before) return ['MODIFIED', ev.object];
  if (now) return ['ADDED', ev.object];
  if (before) return ['DELETED', ev.object];
  return null;
}
