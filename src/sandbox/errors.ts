// metav1.Status errors exactly as k8s.io/apimachinery/pkg/api/errors builds them.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A group and a resource, e.g. {group: 'apps', resource: 'replicasets'}. */
export interface GroupResource {
  group: string;
  resource: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: Status,
    readonly headers: Record<string, string> = {},
  ) {
    super(status.message ?? status.reason ?? 'error');
    this.name = 'ApiError';
  }
  get code(): number {
    return this.status.code;
  }
}

export function failure(code: number, reason: string, message: string, details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

/** `replicasets.apps` for a group, `pods` for the core group (schema.GroupResource.String). */
function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function details(gr: GroupResource, name: string, extra: Partial<StatusDetails> = {}): StatusDetails {
  const d: StatusDetails = { name };
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return { ...d, ...extra };
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError(failure(404, 'NotFound', `${qualified(gr)} "${name}" not found`, details(gr, name)));
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError(failure(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, details(gr, name)));
}

const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(gr: GroupResource, name: string, why: string = OBJECT_MODIFIED): ApiError {
  return new ApiError(failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, details(gr, name)));
}

export function forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): ApiError {
  return new ApiError(failure(403, 'Forbidden', `${qualified(gr)} "${name}" is forbidden: ${why}`, details(gr, name, causes ? { causes } : {})));
}

export function badRequest(message: string): ApiError {
  return new ApiError(failure(400, 'BadRequest', message));
}

export function methodNotAllowed(): ApiError {
  return new ApiError(failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
}

export function pathNotFound(): ApiError {
  return new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
}

export function unauthorized(): ApiError {
  return new ApiError(failure(401, 'Unauthorized', 'Unauthorized'));
}

export function expired(message: string): ApiError {
  return new ApiError(failure(410, 'Expired', message));
}

export function internalError(message: string): ApiError {
  return new ApiError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }));
}

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError(failure(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds }), {
    'Retry-After': String(retryAfterSeconds),
  });
}

export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError(
    failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),
    { 'Retry-After': '1' },
  );
}

// ---- field errors (k8s.io/apimachinery/pkg/util/validation/field) ----

type FieldErrorType = 'Invalid' | 'Required' | 'Forbidden' | 'Duplicate' | 'NotSupported' | 'TooLong' | 'TooMany';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  NotSupported: 'Unsupported value',
  TooLong: 'Too long',
  TooMany: 'Too many',
};

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The bad value, already formatted as Go would print it (see goValue), or a JS value. */
  value?: unknown;
  detail?: string;
}

/** A value rendered with Go's %#v / %q rules (what field.Error.ErrorBody prints). */
export class GoRepr {
  constructor(readonly text: string) {}
}

function goValue(v: unknown): string {
  if (v instanceof GoRepr) return v.text;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  if (typeof v === 'object' && Object.values(v as object).every((x) => typeof x === 'string')) {
    const entries = Object.entries(v as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

function fieldErrorBody(e: FieldError): string {
  let s: string;
  if (e.type === 'Required' || e.type === 'Forbidden' || e.type === 'TooLong' || e.value === undefined) s = TYPE_TEXT[e.type];
  else s = `${TYPE_TEXT[e.type]}: ${goValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

const CAUSE_REASON: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  NotSupported: 'FieldValueNotSupported',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
};

/** errors.NewInvalid: `Kind.group "name" is invalid: <aggregate>` with one cause per field error. */
export function invalid(kind: string, group: string, name: string, errs: FieldError[]): ApiError {
  const qkind = group ? `${kind}.${group}` : kind;
  const texts = errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  const d: StatusDetails = { name };
  if (group) d.group = group;
  d.kind = kind;
  d.causes = errs.map((e) => ({ reason: CAUSE_REASON[e.type], message: fieldErrorBody(e), field: e.field }));
  return new ApiError(failure(422, 'Invalid', texts.length ? `${qkind} "${name}" is invalid: ${agg}` : `${qkind} "${name}" is invalid`, d));
}
