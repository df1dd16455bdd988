// The HTTP front: bearer-token authentication, discovery and OpenAPI, the /sandbox admin
// endpoints, and the resource paths handed to the REST handlers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import type { AuditLog } from './audit.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, openApiV3Doc, openApiV3Root, SERVER_VERSION } from './discovery.js';
import { ApiError, badRequest, failure, internalError, pathNotFound, unauthorized } from './errors.js';
import { type FaultRule, validateFaultRule, type Faults } from './faults.js';
import type { Kubelet } from './kubelet.js';
import { openApiV2Doc, openApiV2Protobuf, OPENAPI_V2_PROTOBUF_CONTENT_TYPE, wantsOpenApiV2Protobuf } from './openapi-v2.js';
import { parseResourcePath, type RestHandler, send, sendError } from './rest.js';
import type { WatchHub } from './watch.js';

const MAX_BODY = 3 * 1024 * 1024;
const ADMIN_USER = 'sandbox-admin';

export interface ServerDeps {
  token: string;
  /** PEM serving certificate and key. */
  cert: string;
  key: string;
  rest: RestHandler;
  hub: WatchHub;
  audit: AuditLog;
  faults: Faults;
  kubelet?: Kubelet;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new ApiError(failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728')));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class SandboxServer {
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  private address = '127.0.0.1:0';

  constructor(private readonly deps: ServerDeps) {
    this.server = createServer({ cert: deps.cert, key: deps.key }, (req, res) => {
      this.route(req, res).catch((e) => sendError(res, e instanceof ApiError ? e : internalError(String(e))));
    });
    this.server.keepAliveTimeout = 5000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        const a = this.server.address();
        const p = typeof a === 'object' && a ? a.port : port;
        this.address = `127.0.0.1:${p}`;
        resolve(p);
      });
    });
  }

  close(): Promise<void> {
    this.deps.hub.dropAll();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }

  private authenticated(req: IncomingMessage): boolean {
    const h = req.headers.authorization ?? '';
    return h === `Bearer ${this.deps.token}`;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    if (!this.authenticated(req)) {
      req.resume();
      sendError(res, unauthorized());
      return;
    }
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
    const seg = path.split('/').filter(Boolean);
    try {
      if (seg[0] === 'sandbox') return this.admin(method, seg.slice(1), url, body, res);
      if (path === '/version') return send(res, 200, SERVER_VERSION);
      if (path === '/api') return send(res, 200, apiVersions(this.address));
      if (path === '/apis') return send(res, 200, apiGroupList());
      if (path === '/openapi/v2') {
        if (!wantsOpenApiV2Protobuf(req.headers.accept)) return send(res, 200, openApiV2Doc());
        const pb = openApiV2Protobuf();
        res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE, 'Cache-Control': 'no-cache, private', 'Content-Length': pb.length });
        res.end(pb);
        return;
      }
      if (path === '/openapi/v3') return send(res, 200, openApiV3Root());
      if (seg[0] === 'openapi' && seg[1] === 'v3') {
        const doc = seg[2] === 'api' ? openApiV3Doc('', seg[3] ?? '') : seg[2] === 'apis' ? openApiV3Doc(seg[3] ?? '', seg[4] ?? '') : undefined;
        if (!doc) throw pathNotFound();
        return send(res, 200, doc);
      }
      let group: string | undefined;
      let version: string | undefined;
      let rest: string[] = [];
      if (seg[0] === 'api' && seg.length >= 2) {
        group = '';
        version = seg[1];
        rest = seg.slice(2);
      } else if (seg[0] === 'apis' && seg.length >= 2) {
        group = seg[1];
        if (seg.length === 2) {
          const g = apiGroup(group);
          if (!g) throw pathNotFound();
          return send(res, 200, g);
        }
        version = seg[2];
        rest = seg.slice(3);
      }
      if (group === undefined || version === undefined) throw pathNotFound();
      if (rest.length === 0) {
        const list = apiResourceList(group, version);
        if (!list) throw pathNotFound();
        return send(res, 200, list);
      }
      const p = parseResourcePath(rest, group, version);
      // kubectl --as: the admin (system:masters) may act as anyone; the audit names both, as kube-apiserver's does
      const as = req.headers['impersonate-user'];
      await this.deps.rest.handle({ req, url, body, user: ADMIN_USER, impersonatedUser: typeof as === 'string' && as !== '' ? as : undefined }, p, res);
    } catch (e) {
      sendError(res, e instanceof ApiError ? e : internalError(e instanceof Error ? e.message : String(e)));
    }
  }

  /**
   * Admin endpoints (token required):
   *   GET/POST/DELETE /sandbox/faults[/ID]      list, add ({FaultRule}) → {id}, clear one or all
   *   POST /sandbox/watches/drop                  close every open watch ({dropped})
   *   POST /sandbox/watches/gone?resource=pods    the next watch on pods gets 410
   *   POST /sandbox/pods/NS/NAME/restart[?container=C]   restart a container
   *   POST /sandbox/kubelet/tick | /sandbox/kubelet/advance?ms=N
   *   GET/DELETE /sandbox/audit               {entries, dropped}: the entries in memory and how many no longer fit
   */
  private admin(method: string, seg: string[], url: URL, body: Buffer, res: ServerResponse): void {
    const d = this.deps;
    const json = () => {
      try {
        return JSON.parse(body.toString('utf8') || '{}');
      } catch (e) {
        throw badRequest(`invalid JSON: ${(e as Error).message}`);
      }
    };
    const [a, b, c, e] = seg;
    if (a === 'faults') {
      if (method === 'GET' && !b) return send(res, 200, { rules: d.faults.list() });
      if (method === 'POST' && !b) {
        let rule: FaultRule;
        try {
          rule = validateFaultRule(json());
        } catch (err) {
          if (err instanceof ApiError) throw err;
          throw badRequest((err as Error).message);
        }
        return send(res, 201, { id: d.faults.set(rule) });
      }
      if (method === 'DELETE') {
        d.faults.clear(b);
        return send(res, 200, { cleared: b ?? 'all' });
      }
    }
    if (a === 'watches' && method === 'POST') {
      if (b === 'drop') return send(res, 200, { dropped: d.hub.dropAll(url.searchParams.get('abrupt') === 'true') });
      if (b === 'gone') {
        const r = url.searchParams.get('resource');
        if (!r) throw badRequest('resource is required');
        d.hub.forceGone(r);
        return send(res, 200, { resource: r });
      }
    }
    if (a === 'pods' && b && c && e === 'restart' && method === 'POST') {
      if (!d.kubelet) throw badRequest('the sandbox runs without a kubelet (nodes: 0)');
      return send(res, 200, d.kubelet.restartContainer(b, c, url.searchParams.get('container') ?? undefined));
    }
    if (a === 'kubelet' && method === 'POST') {
      if (!d.kubelet) throw badRequest('the sandbox runs without a kubelet (nodes: 0)');
      if (b === 'tick') {
        d.kubelet.tick();
        return send(res, 200, { ok: true });
      }
      if (b === 'advance') {
        const ms = Number(url.searchParams.get('ms') ?? json().ms ?? 0);
        if (!Number.isFinite(ms) || ms < 0) throw badRequest('ms must be a non-negative number');
        d.kubelet.advance(ms);
        return send(res, 200, { ok: true, advancedMs: ms });
      }
    }
    if (a === 'audit') {
      if (method === 'GET') return send(res, 200, { entries: d.audit.all(), dropped: d.audit.dropped() });
      if (method === 'DELETE') {
        d.audit.clear();
        return send(res, 200, { cleared: true });
      }
    }
    throw pathNotFound();
  }
}
