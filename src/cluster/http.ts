// The HTTP side of a connection: a KubeConfig whose API clients send kubectl's impersonation
// headers and honour --request-timeout on every request, with client-go's transport limits even
// without it: 30s to connect (net.Dialer's Timeout) and 10s for the TLS handshake
// (TLSHandshakeTimeout), and a bound on the wait for the response headers (kubectl over HTTP/1.1
// would wait for ever; over HTTP/2 its health check closes a silent connection after 30s + 15s).
//
// client-node's default transport (node-fetch fed a plain header record) cannot send a header
// twice, and Impersonate-Group must be sent once per group: the API server reads each header
// line as one group, so "a,b" would impersonate a single group named "a,b". The transport below
// is node:http(s) with the agent client-node prepares (CA, client certificates, proxies).

import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import type net from 'node:net';
import zlib from 'node:zlib';
import { baseUserAgent } from '../core/user-agent.js';
import {
  KubeConfig,
  ResponseContext,
  ServerConfiguration,
  createConfiguration,
  wrapHttpLibrary,
  type ApiConstructor,
  type ApiType,
  type PromiseHttpLibrary,
  type RequestContext,
} from '@kubernetes/client-node';

type FetchInit = Awaited<ReturnType<KubeConfig['applyToFetchOptions']>>;

export interface RequestSettings {
  impersonateUser?: string;
  impersonateGroups: string[];
  impersonateUid?: string;
  /** --disable-compression (or the cluster's disable-compression): no Accept-Encoding: gzip. */
  disableCompression?: boolean;
  /** The server and the context, for the line said while waiting for an answer. */
  server?: string;
  contextName?: string;
  /** Where "waiting for the server" is said once, after limits.waitingNotice without an answer (a terminal's stderr); undefined: nowhere. */
  waitingNotice?: (line: string) => void;
  /** TRANSPORT_LIMITS unless a test shortens them. */
  limits?: TransportLimits;
  /** --request-timeout in milliseconds; null: no limit. */
  requestTimeoutMs: number | null;
  /** For messages: the context (or, without one, the user) whose credentials are used. */
  credentialsLabel: string;
  /** Called when the server answers 401 (an exec plugin's credential is then fetched again). */
  onUnauthorized?: () => void;
}

/** The request ran longer than --request-timeout. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly url: string,
  ) {
    super(`request to ${url} timed out after ${timeoutMs}ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** How long each phase of an exchange may take, in milliseconds (see the top of this file). */
export interface TransportLimits {
  dial: number;
  tlsHandshake: number;
  /** Without --request-timeout only: from the request sent to the response's headers. */
  responseHeaders: number;
  /** After this long without an answer, the waiting line is said. */
  waitingNotice: number;
}

/** client-go's dial and TLS handshake timeouts; the bound on the headers; 2s before the waiting line. */
export const TRANSPORT_LIMITS: TransportLimits = { dial: 30_000, tlsHandshake: 10_000, responseHeaders: 60_000, waitingNotice: 2_000 };

export type TransportPhase = 'dial' | 'tls-handshake' | 'response-headers';

/** No TCP connection, no TLS handshake, or no response headers within the transport's limit. */
export class TransportTimeoutError extends Error {
  constructor(
    readonly phase: TransportPhase,
    readonly timeoutMs: number,
    readonly url: string,
  ) {
    super(`${phase} timed out after ${timeoutMs}ms for ${url}`);
    this.name = 'TransportTimeoutError';
  }
}

/** The answer was an HTML page (a proxy's, a login page), not the API server's: only its status is kept. */
export class HtmlResponseError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`the server at ${url} answered ${status} with an HTML page`);
    this.name = 'HtmlResponseError';
  }
}

/** Whether a response is an HTML page: its Content-Type, or a body that opens as one. */
export function isHtmlResponse(contentType: string | undefined, body: string): boolean {
  if (/^\s*text\/html\b/i.test(contentType ?? '')) return true;
  return /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body.slice(0, 512));
}

/** Preparing credentials failed (exec plugin, unreadable certificate or token file, …). */
export class CredentialError extends Error {
  constructor(
    message: string,
    readonly credentialsLabel: string,
  ) {
    super(message);
    this.name = 'CredentialError';
  }
}

const IDLE_SOCKET_MS = 30_000;

/** rs-reconcile's version, from its package.json (the bundle inlines it). */
function packageVersion(): string {
  try {
    return String((createRequire(import.meta.url)('../../package.json') as { version?: unknown }).version ?? '');
  } catch {
    return '';
  }
}

/** Every request's User-Agent, unless a client is named (controller-api.ts userAgentFor). */
export const USER_AGENT = baseUserAgent({ version: packageVersion(), platform: process.platform, arch: process.arch });

export class ClusterKubeConfig extends KubeConfig {
  constructor(readonly settings: RequestSettings) {
    super();
  }

  private readonly agents = new Map<string, http.Agent>();
  /** One transport for every API client of the connection (it says "waiting" once for all). */
  private library: NodeHttpLibrary | undefined;

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    try {
      await super.applySecurityAuthentication(context);
    } catch (err) {
      throw new CredentialError(err instanceof Error ? err.message : String(err), this.settings.credentialsLabel);
    }
    const agent = context.getAgent();
    if (agent) context.setAgent(this.keepAliveAgent(agent));
  }

  /**
   * client-node builds a new agent, without keep-alive, for every request: each one pays a new
   * TCP and TLS handshake. Agents with the same TLS material are shared here, with keep-alive
   * (idle sockets are unref'd: they do not hold the process open). Proxy agents are left alone.
   */
  private keepAliveAgent(agent: http.Agent): http.Agent {
    const Ctor = agent.constructor;
    if (Ctor !== https.Agent && Ctor !== http.Agent) return agent;
    // biome-ignore lint/plugin/double-assertion: Node keeps an Agent's options in a field @types/node does not declare
    const options = (agent as unknown as { options: Record<string, unknown> }).options;
    const key = createHash('sha256')
      .update(String(Ctor === https.Agent))
      .update(JSON.stringify(options, (_k, v: unknown) => (typeof v === 'function' ? undefined : v)))
      .digest('hex');
    let shared = this.agents.get(key);
    if (!shared) {
      if (this.agents.size >= 8) this.agents.clear();
      // An idle socket is closed after 30s, before a server or load balancer drops it under us.
      shared = new (Ctor as typeof http.Agent)({ ...options, keepAlive: true, timeout: IDLE_SOCKET_MS });
      this.agents.set(key, shared);
    }
    return shared;
  }

  /** Used by Watch and other fetch-based helpers: same impersonation as the API clients. */
  override async applyToFetchOptions(opts: https.RequestOptions): Promise<FetchInit> {
    let init: FetchInit;
    try {
      init = await super.applyToFetchOptions(opts);
    } catch (err) {
      throw new CredentialError(err instanceof Error ? err.message : String(err), this.settings.credentialsLabel);
    }
    const headers = init.headers as { set(k: string, v: string): void; append(k: string, v: string): void } | undefined;
    if (headers) {
      if (this.settings.impersonateUser !== undefined) headers.set('Impersonate-User', this.settings.impersonateUser);
      for (const group of this.settings.impersonateGroups) headers.append('Impersonate-Group', group);
      if (this.settings.impersonateUid !== undefined) headers.set('Impersonate-Uid', this.settings.impersonateUid);
    }
    return init;
  }

  override makeApiClient<T extends ApiType>(apiClientType: ApiConstructor<T>): T {
    const cluster = this.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    const config = createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: this },
      httpApi: wrapHttpLibrary((this.library ??= new NodeHttpLibrary(this.settings))),
    });
    return new apiClientType(config);
  }
}

function outgoingHeaders(request: RequestContext, settings: RequestSettings): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { 'User-Agent': USER_AGENT };
  if (!settings.disableCompression) headers['Accept-Encoding'] = 'gzip';
  for (const [key, value] of Object.entries(request.getHeaders())) headers[key] = value;
  const drop = (name: string) => {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  };
  if (settings.impersonateUser !== undefined) {
    drop('impersonate-user');
    headers['Impersonate-User'] = settings.impersonateUser;
  }
  if (settings.impersonateGroups.length > 0) {
    drop('impersonate-group');
    headers['Impersonate-Group'] = [...settings.impersonateGroups];
  }
  if (settings.impersonateUid !== undefined) {
    drop('impersonate-uid');
    headers['Impersonate-Uid'] = settings.impersonateUid;
  }
  return headers;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('the request was aborted');
  err.name = 'AbortError';
  return err;
}

type Finish = (err: Error | null, value?: ResponseContext) => void;
type Phase = (name: TransportPhase | null, ms?: number) => void;

/**
 * The response read whole, gunzipped when the server compressed it; an HTML page where the API's
 * answer should be is refused; a connection closed mid-response is an ECONNRESET.
 */
function readResponse(res: http.IncomingMessage, origin: string, finish: Finish): void {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const stream = encoding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('error', (err) => finish(err));
  res.on('close', () => {
    if (!res.complete) finish(Object.assign(new Error('the server closed the connection mid-response'), { code: 'ECONNRESET' }));
  });
  stream.on('end', () => {
    const data = Buffer.concat(chunks);
    if (isHtmlResponse(res.headers['content-type'], data.toString('utf8', 0, Math.min(data.length, 512)))) {
      finish(new HtmlResponseError(res.statusCode ?? 0, origin));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    finish(
      null,
      new ResponseContext(res.statusCode ?? 0, headers, {
        text: async () => data.toString('utf8'),
        binary: async () => data,
      }),
    );
  });
}

/**
 * A new socket: dial, then (https) the TLS handshake, then the response headers, each bounded.
 * A kept-alive socket is connected and secure already: only the response headers are awaited.
 * --request-timeout, when given, is the user's own bound on the whole exchange, and then the
 * response headers have no bound of their own.
 */
function boundPhases(req: http.ClientRequest, secure: boolean, limits: TransportLimits, boundHeaders: boolean, phase: Phase): void {
  const awaitHeaders = () => phase(boundHeaders ? 'response-headers' : null, limits.responseHeaders);
  req.on('socket', (socket: net.Socket) => {
    if (!socket.connecting) return awaitHeaders();
    phase('dial', limits.dial);
    socket.once('connect', () => {
      if (!secure) return awaitHeaders();
      phase('tls-handshake', limits.tlsHandshake);
      socket.once('secureConnect', awaitHeaders);
    });
  });
}

/** One HTTP exchange; the body is read completely (and may be read again by middleware). */
export class NodeHttpLibrary implements PromiseHttpLibrary {
  /**
   * The waiting line is for the first answer of a connection: said at most once, and never once
   * the server has answered (a slow request later is no news of which server is awaited).
   */
  private waitingSaid = false;

  constructor(private readonly settings: RequestSettings) {}

  private sayWaiting(): void {
    const notice = this.settings.waitingNotice;
    if (!notice || this.waitingSaid) return;
    this.waitingSaid = true;
    const context = this.settings.contextName ? ` (context "${this.settings.contextName}")` : '';
    notice(`Waiting for the API server at ${this.settings.server ?? 'the cluster'}${context}…`);
  }

  send(request: RequestContext): Promise<ResponseContext> {
    const url = new URL(request.getUrl());
    const body = request.getBody();
    if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
      return Promise.reject(new Error('rs-reconcile sends only string request bodies'));
    }
    const callerSignal = request.getSignal();
    if (callerSignal?.aborted) return Promise.reject(abortError(callerSignal));
    const timeoutMs = this.settings.requestTimeoutMs;
    const client = url.protocol === 'https:' ? https : http;

    return new Promise<ResponseContext>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      // one timer per phase of the transport; the waiting line once the answer is slow
      let phaseTimer: NodeJS.Timeout | undefined;
      const limits = this.settings.limits ?? TRANSPORT_LIMITS;
      const waitingTimer = this.settings.waitingNotice ? setTimeout(() => this.sayWaiting(), limits.waitingNotice) : undefined;
      const phase: Phase = (name, ms = 0) => {
        if (phaseTimer) clearTimeout(phaseTimer);
        phaseTimer = name ? setTimeout(() => finish(new TransportTimeoutError(name, ms, url.origin)), ms) : undefined;
      };
      const finish: Finish = (err, value) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        phase(null);
        if (waitingTimer) clearTimeout(waitingTimer);
        callerSignal?.removeEventListener('abort', onAbort);
        if (err) {
          req.destroy();
          reject(err);
        } else resolve(value as ResponseContext);
      };
      const onAbort = () => finish(abortError(callerSignal as AbortSignal));

      const req = client.request(
        url,
        {
          method: request.getHttpMethod(),
          headers: outgoingHeaders(request, this.settings),
          agent: request.getAgent() as http.Agent | undefined,
        },
        (res) => {
          phase(null);
          if (waitingTimer) clearTimeout(waitingTimer);
          this.waitingSaid = true;
          if (res.statusCode === 401) this.settings.onUnauthorized?.();
          readResponse(res, url.origin, finish);
        },
      );
      req.on('error', (err) => finish(err));
      boundPhases(req, url.protocol === 'https:', limits, timeoutMs === null, phase);
      if (timeoutMs !== null) timer = setTimeout(() => finish(new RequestTimeoutError(timeoutMs, url.origin)), timeoutMs);
      callerSignal?.addEventListener('abort', onAbort, { once: true });
      req.end(body);
    });
  }
}
