// Turning whatever a request to the API server threw into one line a user can act on.

import { ApiException } from '@kubernetes/client-node';
import { UserError, oneLine } from '../errors.js';
import { ClusterKubeConfig, CredentialError, RequestTimeoutError } from './http.js';
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

function describeTls(code: string, message: string): string {
  if (UNKNOWN_AUTHORITY.has(code)) return `certificate signed by unknown authority (${message})`;
  if (code === 'CERT_HAS_EXPIRED') return `the server's certificate has expired (${message})`;
  return code ? `${message} (${code})` : message;
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

function fromStatus(conn: Connection, op: Operation | undefined, status: number, body: unknown): ClusterError {
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
  if (err instanceof CredentialError) {
    return new ClusterError(`cannot load the credentials of ${err.credentialsLabel}: ${oneLine(err)}`, 'credentials');
  }
  if (!(err instanceof Error)) return new Error(String(err));
  if (err.name === 'AbortError') return err;
  const code = String((err as NodeJS.ErrnoException).code ?? '');
  const message = oneLine(err);
  if (code && isTls(code, message)) {
    return new ClusterError(`TLS error talking to ${conn.server}: ${describeTls(code, message)}`, 'tls');
  }
  if (NETWORK_CODES.has(code) || (err as NodeJS.ErrnoException).syscall !== undefined) {
    return new ClusterError(`cannot reach the cluster at ${conn.server}: ${message}`, 'unreachable');
  }
  return err;
}
