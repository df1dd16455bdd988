// Turning whatever a request to the API server threw into one line a user can act on.

import { STATUS_CODES } from 'node:http';
import { ApiException } from '@kubernetes/client-node';
import { UserError, oneLine } from '../errors.js';
import { ClusterKubeConfig, CredentialError, HtmlResponseError, RequestTimeoutError, TransportTimeoutError, isHtmlResponse } from './http.js';
import { formatTimeout, type Connection } from './kubeconfig.js';

/** What was being done, for messages: `list` `pods` in API group `` in namespace `shop`. */
export interface Operation {
  verb: string;
  resource: string;
  group: string;
  /** null: cluster-wide. */
  namespace: string | null;
  /** For non-resource URLs such as /version. */
  path?: string;
}

export type ClusterErrorReason =
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'credentials'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'bad-request'
  | 'too-many-requests'
  | 'server-error'
  | 'unexpected';

/** A failed exchange with the cluster, already worded for the user (exit status 2). */
export class ClusterError extends UserError {
  constructor(
    message: string,
    readonly reason: ClusterErrorReason,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ClusterError';
  }
}

/**
 * The resourceVersion (or continue token) asked for is no longer served: 410 Gone, reason Expired
 * (client-go's IsResourceExpired / IsGone). A list pager then lists at once, a reflector relists.
 */
export class ResourceExpiredError extends ClusterError {
  constructor(message: string, reason: ClusterErrorReason = 'unexpected') {
    super(message, reason, 410);
  }
}

/**
 * A failure whose answer carried Retry-After (client-go's SuggestsClientDelay): whoever retries
 * waits at least retryAfterMs. Its message and reason are the failure's own.
 */
export class RetryAfterError extends ClusterError {
  constructor(
    failure: ClusterError,
    readonly retryAfterMs: number,
  ) {
    super(failure.message, failure.reason, failure.status);
  }
}

/** How long a failure asks its retrier to wait (Retry-After), in ms; 0 when it does not say. */
export function suggestedDelayMs(err: unknown): number {
  return err instanceof RetryAfterError ? err.retryAfterMs : 0;
}

/** The response of a failed request, when the caller captured it (client-node drops some bodies). */
export interface FailedResponse {
  status: number;
  body?: string;
}

interface Status {
  message?: string;
  reason?: string;
  code?: number;
}

/** A Status from a response body: JSON text (client-node 1.4 often leaves it raw) or an object. */
export function parseStatus(body: unknown): Status | null {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null) return null;
  const s = value as Record<string, unknown>;
  if (s.kind !== 'Status' && typeof s.message !== 'string') return null;
  return {
    message: typeof s.message === 'string' ? s.message : undefined,
    reason: typeof s.reason === 'string' ? s.reason : undefined,
    code: typeof s.code === 'number' ? s.code : undefined,
  };
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ETIMEDOUT',
  'EPIPE',
  'EADDRNOTAVAIL',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

const UNKNOWN_AUTHORITY = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

function isTls(code: string, message: string): boolean {
  return (
    UNKNOWN_AUTHORITY.has(code) ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('CERT_') ||
    code === 'EPROTO' ||
    /certificate|SSL routines|TLS/i.test(message)
  );
}

/** A plain HTTP server answered the TLS ClientHello (OpenSSL reads its "HTTP/1.1 …" as a record header). */
function isPlainHttpAnswer(code: string, message: string): boolean {
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST' || /wrong version number|packet length too long/i.test(message);
}

/** Go's names for the host names and addresses a certificate is valid for ("DNS:a, IP Address:1.2.3.4" → "a, 1.2.3.4"). */
function certificateNames(err: unknown): string | null {
  const alt = (err as { cert?: { subjectaltname?: unknown } }).cert?.subjectaltname;
  if (typeof alt !== 'string' || alt === '') return null;
  return alt
    .split(/,\s*/)
    .map((n) => n.replace(/^(DNS|IP Address):/, ''))
    .join(', ');
}

/**
 * A TLS failure as Go's crypto/tls and crypto/x509 word it (kubectl's words), never OpenSSL's
 * internals (error codes, function names, source paths).
 */
function describeTls(code: string, message: string, err: unknown): string {
  const verify = 'tls: failed to verify certificate: x509:';
  if (UNKNOWN_AUTHORITY.has(code)) return `${verify} certificate signed by unknown authority`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `${verify} certificate has expired or is not yet valid`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = certificateNames(err);
    const host = (err as { host?: unknown }).host;
    return names && typeof host === 'string'
      ? `${verify} certificate is valid for ${names}, not ${host}`
      : `${verify} certificate is not valid for the server's name`;
  }
  if (code.startsWith('CERT_') || code === 'UNABLE_TO_DECRYPT_CERT_SIGNATURE' || code === 'CERT_SIGNATURE_FAILURE') {
    return `${verify} the server's certificate is not valid (${code.toLowerCase().replace(/_/g, ' ')})`;
  }
  // "…:error:0A000410:SSL routines:ssl3_read_bytes:sslv3 alert handshake failure:../deps/…" → its reason
  const reason = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1]?.trim();
  const alert = reason ? /alert (.+)$/.exec(reason)?.[1] : undefined;
  if (alert) return `remote error: tls: ${alert}`;
  if (reason) return `tls: ${reason}`;
  return message.replace(/^[0-9A-F]+:error:[0-9A-F]+:/i, '');
}

function scope(op: Operation): string {
  return op.namespace === null ? 'at the cluster scope' : `in the namespace "${op.namespace}"`;
}

function what(op: Operation): string {
  return op.path ?? (op.group ? `${op.resource}.${op.group}` : op.resource);
}

function credentials(conn: Connection): string {
  return conn.contextName ? `context "${conn.contextName}"` : 'the current credentials';
}

/** An HTML page where the API's JSON was expected: the status and the server, never the page. */
function htmlPage(conn: Connection, status: number): ClusterError {
  const text = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
  const reason: ClusterErrorReason = status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status >= 500 ? 'server-error' : 'unexpected';
  return new ClusterError(
    `the server at ${conn.server} answered ${status}${text} with an HTML page, not the Kubernetes API (a proxy or a login page in front of it?)`,
    reason,
    status,
  );
}

function fromStatus(conn: Connection, op: Operation | undefined, status: number, body: unknown): ClusterError {
  if (typeof body === 'string' && isHtmlResponse(undefined, body)) return htmlPage(conn, status);
  const parsed = parseStatus(body);
  const text = typeof body === 'string' && !parsed ? oneLine(body).slice(0, 200) : '';
  const message = parsed?.message || text;
  const doing = op ? ` (${op.verb} ${what(op)})` : '';
  switch (true) {
    case status === 401 && conn.server.startsWith('http:'):
      // connect() sends no credentials over plain http (as kubectl): none were rejected.
      return new ClusterError(
        `unauthorized: ${conn.server} asks for credentials, and those of ${credentials(conn)} are sent over https only (as kubectl does)`,
        'unauthorized',
        401,
      );
    case status === 401:
      return new ClusterError(`unauthorized: the server rejected the credentials of ${credentials(conn)}`, 'unauthorized', 401);
    case status === 403: {
      if (message) {
        // "pods is forbidden: User …" — the resource is said again in the rest of the sentence.
        return new ClusterError(`forbidden: ${message.replace(/^\S+ is forbidden: /, '')}`, 'forbidden', 403);
      }
      const as = conn.kc instanceof ClusterKubeConfig ? conn.kc.settings.impersonateUser : undefined;
      const who = as ? `User "${as}"` : `the credentials of ${credentials(conn)}`;
      const target = !op
        ? 'do this'
        : op.path
          ? `${op.verb} path "${op.path}"`
          : `${op.verb} resource "${op.resource}" in API group "${op.group}" ${scope(op)}`;
      return new ClusterError(`forbidden: ${who} cannot ${target}`, 'forbidden', 403);
    }
    case status === 404: {
      const m = message || 'the server could not find the requested resource';
      const generic = m === 'the server could not find the requested resource';
      return new ClusterError(`not found: ${m}${generic ? doing : ''}`, 'not-found', 404);
    }
    case status === 400:
      return new ClusterError(`bad request: ${message || 'the server rejected the request'}${doing}`, 'bad-request', 400);
    case status === 429:
      return new ClusterError(`too many requests: ${message || 'the server is throttling requests'}${doing}`, 'too-many-requests', 429);
    case status >= 500: {
      const reason = parsed?.reason ? ` ${parsed.reason}` : '';
      return new ClusterError(`server error (${status}${reason}) from ${conn.server}${doing}: ${message || 'no details'}`, 'server-error', status);
    }
    default: {
      const reason = parsed?.reason ? ` ${parsed.reason}` : '';
      return new ClusterError(`the server answered ${status}${reason}${doing}: ${message || 'no details'}`, 'unexpected', status);
    }
  }
}

/** No connection, no TLS handshake or no response headers in time: net/http's words, and the limit. */
function transportTimeout(conn: Connection, err: TransportTimeoutError): ClusterError {
  const host = new URL(conn.server).host;
  const limit = formatTimeout(err.timeoutMs);
  const why =
    err.phase === 'dial'
      ? `dial tcp ${host}: i/o timeout (no connection within ${limit})`
      : err.phase === 'tls-handshake'
        ? `net/http: TLS handshake timeout (the server accepted the connection but completed no TLS handshake within ${limit})`
        : `net/http: timeout awaiting response headers (no answer within ${limit}; --request-timeout sets another limit)`;
  return new ClusterError(`cannot reach the cluster at ${conn.server}: ${why}`, 'timeout');
}

/**
 * The one-line error for a failed request. An abort by the caller's signal is returned as is
 * (not a user error); errors that are not about the exchange (bugs) are returned unchanged.
 */
export function clusterError(conn: Connection, err: unknown, op?: Operation, response?: FailedResponse): Error {
  if (err instanceof ClusterError) return err;
  if (response && response.status >= 300) return fromStatus(conn, op, response.status, response.body);
  if (err instanceof ApiException) return fromStatus(conn, op, err.code, err.body);
  if (err instanceof RequestTimeoutError) {
    return new ClusterError(
      `timed out after ${formatTimeout(err.timeoutMs)} waiting for the cluster at ${conn.server} (--request-timeout=${formatTimeout(err.timeoutMs)})`,
      'timeout',
    );
  }
  if (err instanceof HtmlResponseError) return htmlPage(conn, err.status);
  if (err instanceof TransportTimeoutError) return transportTimeout(conn, err);
  if (err instanceof CredentialError) {
    return new ClusterError(`cannot load the credentials of ${err.credentialsLabel}: ${oneLine(err)}`, 'credentials');
  }
  if (!(err instanceof Error)) return new Error(String(err));
  if (err.name === 'AbortError') return err;
  const code = String((err as NodeJS.ErrnoException).code ?? '');
  const message = oneLine(err);
  if (conn.server.startsWith('https:') && isPlainHttpAnswer(code, message)) {
    return new ClusterError(`cannot reach the cluster at ${conn.server}: http: server gave HTTP response to HTTPS client`, 'tls');
  }
  if (code && isTls(code, message)) {
    return new ClusterError(`TLS error talking to ${conn.server}: ${describeTls(code, message, err)}`, 'tls');
  }
  if (NETWORK_CODES.has(code) || (err as NodeJS.ErrnoException).syscall !== undefined) {
    return new ClusterError(`cannot reach the cluster at ${conn.server}: ${message}`, 'unreachable');
  }
  return err;
}
