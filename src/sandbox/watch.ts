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
    const encode = (type: string, object: Obj): string => {
      let obj = object;
      if (p.table && type !== 'ERROR' && type !== 'BOOKMARK') obj = toTable(p.res, [object], { resourceVersion: object.metadata?.resourceVersion }, p.table);
      return `${JSON.stringify({ type, object: obj })}\n`;
    };
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    response.flushHeaders();

    const expired = (msg: string) => {
      const st: Status = failure(410, 'Expired', msg);
      response.end(encode('ERROR', st as unknown as Obj));
    };
    if (this.gone.delete(p.res.name)) {
      expired(`too old resource version: ${rvNum ?? 0} (${this.store.currentRV()})`);
      return;
    }

    const inScope = (o: Obj) => !p.namespace || o.metadata?.namespace === p.namespace;
    const matchesSel = (o: Obj | undefined) => !!o && inScope(o) && matches(p.sel, p.res, o);
    const translate = (ev: StoreEvent): [string, Obj] | null => {
      const now = matchesSel(ev.object);
      if (ev.type === 'ADDED') return now ? ['ADDED', ev.object] : null;
      const before = matchesSel(ev.prev);
      if (ev.type === 'DELETED') return before ? ['DELETED', ev.object] : null;
      if (now && before) return ['MODIFIED', ev.object];
      if (now) return ['ADDED', ev.object];
      if (before) return ['DELETED', ev.object];
      return null;
    };

    let initial: Obj[] = [];
    let replay: StoreEvent[] = [];
    const startFromState = rvNum === undefined || rvNum === 0 || p.sendInitialEvents === true;
    if (startFromState) {
      initial = this.store.list(p.res.name, p.namespace).filter((o) => matches(p.sel, p.res, o));
    } else {
      const since = this.store.eventsSince(p.res.name, rvNum!);
      if (!since) {
        expired(`too old resource version: ${rvNum} (${this.store.oldestServable(p.res.name)})`);
        return;
      }
      replay = since;
    }

    let closed = false;
    const write = (s: string) => {
      if (!closed) response.write(s);
    };
    const bookmark = (annotations?: Record<string, string>) => {
      const metadata: Obj = { resourceVersion: String(this.store.currentRV()) };
      if (annotations) metadata.annotations = annotations;
      write(encode('BOOKMARK', { kind: p.res.kind, apiVersion: apiVersionOf(p.res), metadata }));
    };

    for (const o of initial) write(encode('ADDED', withType(p.res, o)));
    if (p.sendInitialEvents && p.allowBookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
    for (const ev of replay) {
      const t = translate(ev);
      if (t) write(encode(t[0], t[1]));
    }
    const unsubscribe = this.store.subscribe((ev) => {
      if (ev.resource !== p.res.name) return;
      const t = translate(ev);
      if (t) write(encode(t[0], t[1]));
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
