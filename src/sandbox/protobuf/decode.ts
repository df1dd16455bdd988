// Request bodies in application/vnd.kubernetes.protobuf (what kubectl's typed generators such as
// `create namespace` send), decoded into the plain JSON object a JSON client would have sent for
// the same Go object, so the JSON path (defaults, validation, storage) carries on unchanged.
//
// The wire format, as k8s.io/apimachinery/pkg/runtime/serializer/protobuf writes it: the 4 bytes
// `k8s\0`, then a runtime.Unknown whose typeMeta names the kind and whose raw is the object.
// Errors are the ones kube-apiserver answers (transformDecodeError in the REST handlers).
import protobuf from 'protobufjs/light.js';
import { ApiError, badRequest, failure } from '../errors.js';
import { isScalar, messageFields, protobufType, specialType, typeForKind, type FieldDef } from './schema.js';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** The media types a create or update body may have, in the server's order (its 415 lists them). */
const BODY_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF];

const PREFIX = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The apiVersion and kind a request body is decoded as when it does not say (the endpoint's). */
export interface BodyKind {
  apiVersion: string;
  kind: string;
}

type Msg = Record<string, unknown>;
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** errors.NewUnsupportedMediaType: the body's media type is not one the endpoint decodes. */
function unsupportedBodyMediaType(accepted: string[]): ApiError {
  return new ApiError(
    failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
  );
}

/** Whether the table can decode bodies of this kind (else protobuf is not offered for it). */
function decodesKind(k: BodyKind): boolean {
  return typeForKind(k.apiVersion, k.kind) !== undefined;
}

/** summarizeData(body, 30) of the REST handlers: hex of the first 30 bytes. */
function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > 30 ? `${text} ...` : text;
}

/** A protobufjs decode failure in the words gogo-protobuf's Unmarshal uses where they differ. */
function protoError(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  if (/index out of range/.test(m)) return 'unexpected EOF';
  if (e instanceof RangeError && /call stack/.test(m)) return 'proto: nesting too deep';
  return `proto: ${m}`;
}

/**
 * Decodes a protobuf request body into the JSON object (kind and apiVersion first) the JSON path
 * takes. `expected` is the endpoint's kind, used when the body's typeMeta leaves it out.
 * Throws a 400 ApiError for anything that is not a decodable object.
 */
export function decodeProtobufBody(body: Buffer, expected: BodyKind): Record<string, Json> {
  const unrecognized = (why: string) => badRequest(`the object provided is unrecognized (must be of type ${expected.kind}): ${why} (${summarize(body)})`);
  if (body.length === 0) throw unrecognized('empty data');
  if (body.length < PREFIX.length || !body.subarray(0, PREFIX.length).equals(PREFIX)) {
    throw unrecognized('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (body.length === PREFIX.length) throw unrecognized('empty body');
  let unknown: Msg;
  try {
    unknown = protobufType('runtime.Unknown').decode(body.subarray(PREFIX.length)) as Msg;
  } catch (e) {
    throw unrecognized(protoError(e));
  }
  const typeMeta = (own(unknown, 'typeMeta') ? unknown.typeMeta : {}) as Msg;
  // copyKindDefaults: the endpoint's kind and group-version fill what the body leaves out
  const kind = (typeMeta.kind as string | undefined) || expected.kind;
  let apiVersion = (typeMeta.apiVersion as string | undefined) ?? '';
  if (versionOf(apiVersion) === '') apiVersion = expected.apiVersion;
  const cannot = (why: string) => badRequest(`${kind} in version "${versionOf(apiVersion)}" cannot be handled as a ${expected.kind}: ${why}`);
  const type = typeForKind(apiVersion, kind);
  if (!type) {
    throw cannot(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  const raw = own(unknown, 'raw') ? (unknown.raw as Uint8Array) : new Uint8Array(0);
  try {
    countValues(type, raw, { left: MAX_VALUES });
    const msg = protobufType(type).decode(raw) as Msg;
    return { kind, apiVersion, ...objectJson(type, msg) };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw cannot(e instanceof ObjectError ? e.message : protoError(e));
  }
}

function versionOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

/** A failure with its own message (no protobufjs wording to translate). */
class ObjectError extends Error {}

/**
 * How many nested messages and list or map entries one body may hold. kube-apiserver has no such
 * limit (its 3 MiB body limit and etcd's 1.5 MiB object limit bound it), but a 3 MiB body of
 * 2-byte empty messages would cost seconds and half a gigabyte decoded here; no real object
 * comes near this.
 */
export const MAX_VALUES = 100_000;

const byNumber = new Map<string, Map<number, FieldDef>>();

function fieldsByNumber(type: string): Map<number, FieldDef> {
  let m = byNumber.get(type);
  if (!m) {
    m = new Map(messageFields(type)!.map((f) => [f.number, f]));
    byNumber.set(type, m);
  }
  return m;
}

/**
 * Walks the wire bytes once without building anything and fails past MAX_VALUES nested messages
 * and list or map entries, so that decoding stays bounded in time and memory.
 */
function countValues(type: string, buf: Uint8Array, budget: { left: number }): void {
  const fields = fieldsByNumber(type);
  const r = protobuf.Reader.create(buf);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const f = fields.get(tag >>> 3);
    const wireType = tag & 7;
    if (!f || !(f.repeated || f.map || !isScalar(f.type))) {
      r.skipType(wireType);
      continue;
    }
    if (--budget.left < 0) throw new ObjectError(`proto: more than ${MAX_VALUES} nested messages and list or map entries`);
    if (wireType !== 2 || (isScalar(f.type) && !f.map)) {
      r.skipType(wireType);
      continue;
    }
    const end = r.uint32() + r.pos;
    if (end > r.len) throw new RangeError('index out of range');
    const inner = buf.subarray(r.pos, end);
    if (f.map) countMapValue(f.type, inner, budget);
    else countValues(f.type, inner, budget);
    r.pos = end;
  }
}

/** A map entry is a message of key = 1 and value = 2; only a message value has more inside. */
function countMapValue(type: string, entry: Uint8Array, budget: { left: number }): void {
  if (isScalar(type)) return;
  const r = protobuf.Reader.create(entry);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 2 && (tag & 7) === 2) {
      const end = r.uint32() + r.pos;
      if (end > r.len) throw new RangeError('index out of range');
      countValues(type, entry.subarray(r.pos, end), budget);
      r.pos = end;
    } else r.skipType(tag & 7);
  }
}

function own(m: unknown, k: string): boolean {
  return m !== null && typeof m === 'object' && Object.hasOwn(m, k);
}

/**
 * A decoded message as encoding/json writes the Go struct: fields in struct order; absent
 * pointers, slices and maps are null (or left out with omitempty); zero scalars are left out only
 * with omitempty; structs are always written (omitempty does not apply to them).
 */
function objectJson(type: string, msg: Msg | undefined, out: Record<string, Json> = {}): Record<string, Json> {
  for (const f of messageFields(type)!) {
    const present = own(msg, f.proto);
    const v = present ? msg![f.proto] : undefined;
    if (f.inline) {
      objectJson(f.type, v as Msg | undefined, out);
      continue;
    }
    if (f.repeated) {
      const list = (v as unknown[] | undefined) ?? [];
      if (list.length > 0) out[f.json] = list.map((x) => valueJson(f.type, x, true));
      else if (!f.omitEmpty) out[f.json] = null;
    } else if (f.map) {
      // encoding/json writes map keys sorted
      const keys = v ? Object.keys(v as object).sort() : [];
      if (keys.length > 0) {
        const o: Record<string, Json> = {};
        for (const k of keys) o[k] = valueJson(f.type, (v as Msg)[k], true);
        out[f.json] = o;
      } else if (!f.omitEmpty) out[f.json] = null;
    } else if (f.pointer) {
      if (present) out[f.json] = valueJson(f.type, v, true);
      else if (!f.omitEmpty) out[f.json] = null;
    } else if (f.type === 'bytes') {
      // a []byte is nil when absent
      const b = v as Uint8Array | undefined;
      if (b && b.length > 0) out[f.json] = Buffer.from(b).toString('base64');
      else if (!f.omitEmpty) out[f.json] = b ? '' : null;
    } else if (isScalar(f.type)) {
      const j = valueJson(f.type, v, present);
      if (!(f.omitEmpty && (j === '' || j === 0 || j === false))) out[f.json] = j;
    } else {
      out[f.json] = valueJson(f.type, v, present);
    }
  }
  return out;
}

function valueJson(type: string, v: unknown, present: boolean): Json {
  switch (type) {
    case 'string':
      return present ? (v as string) : '';
    case 'bool':
      return present ? (v as boolean) : false;
    case 'int32':
      return present ? (v as number) : 0;
    case 'int64':
      return present ? int64(v) : 0;
    case 'bytes':
      return Buffer.from((v as Uint8Array | undefined) ?? []).toString('base64');
  }
  const m = (present ? v : undefined) as Msg | undefined;
  switch (specialType(type)) {
    case 'Time':
      return timeJson(m, false);
    case 'MicroTime':
      return timeJson(m, true);
    case 'Quantity':
      // a zero Quantity is written as "0"
      return own(m, 'string') ? (m!.string as string) : '0';
    case 'IntOrString':
      return own(m, 'type') && int64(m!.type) === 1 ? ((m!.strVal as string | undefined) ?? '') : ((m?.intVal as number | undefined) ?? 0);
    case 'FieldsV1':
      return rawJson(m, 'Raw');
    case 'RawExtension':
      return rawJson(m, 'raw');
    case undefined:
      return objectJson(type, m);
  }
}

function int64(v: unknown): number {
  if (typeof v === 'number') return v;
  // a Long when protobufjs has long.js; JSON numbers past 2^53 lose precision, as in any JS client
  return (v as { toNumber(): number }).toNumber();
}

/**
 * metav1.Time (seconds; its protobuf nanos are dropped on decode) or metav1.MicroTime (RFC 3339
 * with 6 fractional digits), UTC. An empty message is the zero time, written as null.
 */
function timeJson(m: Msg | undefined, micro: boolean): Json {
  if (!own(m, 'seconds') && !own(m, 'nanos')) return null;
  let seconds = own(m, 'seconds') ? int64(m!.seconds) : 0;
  let nanos = micro && own(m, 'nanos') ? (m!.nanos as number) : 0;
  // time.Unix normalizes nanoseconds outside [0, 1e9)
  seconds += Math.floor(nanos / 1e9);
  nanos = ((nanos % 1e9) + 1e9) % 1e9;
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(d.getTime()) || year < 0 || year > 9999) throw new ObjectError('Time.MarshalJSON: year outside of range [0,9999]');
  const base = d.toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** FieldsV1 and RawExtension carry JSON; nil is null. */
function rawJson(m: Msg | undefined, field: string): Json {
  if (!own(m, field)) return null;
  const text = Buffer.from(m![field] as Uint8Array).toString('utf8');
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    throw new ObjectError(`json: error calling MarshalJSON: ${(e as Error).message}`);
  }
}

/**
 * The body of a create, update or delete as the JSON path takes it, for the media types other
 * than JSON and YAML: protobuf is decoded, anything else is the server's 415. Returns undefined
 * for JSON and YAML (and no Content-Type, which the server takes as JSON).
 */
export function decodeOtherBody(body: Buffer, mediaType: string, expected: BodyKind): Record<string, Json> | undefined {
  if (mediaType === '' || mediaType === 'application/json' || mediaType === 'application/yaml') return undefined;
  const decodable = decodesKind(expected);
  if (mediaType === PROTOBUF && decodable) return decodeProtobufBody(body, expected);
  throw unsupportedBodyMediaType(decodable ? BODY_MEDIA_TYPES : BODY_MEDIA_TYPES.filter((t) => t !== PROTOBUF));
}
