// What the API types look like: their protobuf fields (for decoding request bodies) and their JSON
// fields (for anyone who needs to know which fields type T has and what they hold, e.g. strict
// field validation or OpenAPI schemas). The facts live in types.generated.ts (made by
// scripts/gen-protobuf-types.mjs from upstream's generated.proto); this module reads them.
import protobuf from 'protobufjs/light.js';
import { MESSAGES, ROOT_KINDS } from './types.generated.js';

export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'bytes';

/**
 * Messages whose JSON is not their protobuf shape (each has its own MarshalJSON upstream):
 * Time is an RFC 3339 string in seconds, MicroTime in microseconds, Quantity its string,
 * IntOrString a number or a string, FieldsV1 and RawExtension the JSON they carry.
 */
export type SpecialType = 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'FieldsV1' | 'RawExtension';

const SPECIAL: Record<string, SpecialType> = {
  'meta.v1.Time': 'Time',
  'meta.v1.MicroTime': 'MicroTime',
  'resource.Quantity': 'Quantity',
  'intstr.IntOrString': 'IntOrString',
  'meta.v1.FieldsV1': 'FieldsV1',
  'runtime.RawExtension': 'RawExtension',
};

const SCALARS = new Set<string>(['string', 'bool', 'int32', 'int64', 'bytes']);

export interface FieldDef {
  /** The JSON name; '' for an inlined struct. */
  json: string;
  /** The protobuf field name. */
  proto: string;
  number: number;
  /** A scalar, or a message name of this table (`core.v1.PodSpec`). */
  type: string;
  repeated: boolean;
  /** map<string, type>: a JSON object. */
  map: boolean;
  /** A Go pointer: absent means nil (null or omitted), not the zero value. */
  pointer: boolean;
  omitEmpty: boolean;
  /** The struct's fields sit in the parent's JSON object (e.g. Volume's VolumeSource). */
  inline: boolean;
}

/** What one JSON value of a field holds (one element for lists and maps). */
type JsonValueType =
  | { kind: 'string' }
  | { kind: 'boolean' }
  | { kind: 'integer'; format: 'int32' | 'int64' }
  /** base64 in JSON ([]byte) */
  | { kind: 'bytes' }
  | { kind: 'special'; special: SpecialType }
  | { kind: 'object'; type: string };

export interface JsonField {
  name: string;
  value: JsonValueType;
  /** A JSON array of `value`. */
  list: boolean;
  /** A JSON object from strings to `value`. */
  map: boolean;
  /** May be null (a nil pointer, slice or map without omitempty). */
  nullable: boolean;
  omitEmpty: boolean;
}

// ROOT_KINDS (apiVersion/kind → message) is generated with the table, from each kind's
// `protobuf:` (src/sandbox/kinds/<resource>.ts) and the subresource bodies (Binding, Scale).
export { ROOT_KINDS };

/** The message of an object's apiVersion and kind, or undefined when the table has none. */
export function typeForKind(apiVersion: string, kind: string): string | undefined {
  if (kind === 'DeleteOptions' && apiVersion !== '') return 'meta.v1.DeleteOptions';
  return ROOT_KINDS[`${apiVersion}/${kind}`];
}

const fieldCache = new Map<string, FieldDef[]>();

/** A message's fields in Go struct order (JSON order), or undefined for an unknown message. */
export function messageFields(type: string): readonly FieldDef[] | undefined {
  let defs = fieldCache.get(type);
  if (defs) return defs;
  const rows = MESSAGES[type];
  if (!rows) return undefined;
  defs = rows.map(([json, number, t, flags = '', proto]) => ({
    json,
    proto: proto ?? json,
    number,
    type: t,
    repeated: flags.includes('r'),
    map: flags.includes('m'),
    pointer: flags.includes('p'),
    omitEmpty: flags.includes('o'),
    inline: flags.includes('i'),
  }));
  fieldCache.set(type, defs);
  return defs;
}

export function specialType(type: string): SpecialType | undefined {
  return SPECIAL[type];
}

export function isScalar(type: string): type is ScalarType {
  return SCALARS.has(type);
}

function valueType(type: string): JsonValueType {
  switch (type) {
    case 'string':
      return { kind: 'string' };
    case 'bool':
      return { kind: 'boolean' };
    case 'int32':
    case 'int64':
      return { kind: 'integer', format: type };
    case 'bytes':
      return { kind: 'bytes' };
  }
  const special = SPECIAL[type];
  return special ? { kind: 'special', special } : { kind: 'object', type };
}

/**
 * The JSON fields of a message by name, inlined structs flattened into it, or undefined for an
 * unknown or special message. kind and apiVersion (TypeMeta) are not fields of the table.
 */
export function jsonFields(type: string): ReadonlyMap<string, JsonField> | undefined {
  const defs = messageFields(type);
  if (!defs || SPECIAL[type]) return undefined;
  const out = new Map<string, JsonField>();
  for (const f of defs) {
    if (f.inline) {
      for (const [k, v] of jsonFields(f.type) ?? []) out.set(k, v);
      continue;
    }
    if (f.json === '-') continue;
    const v = valueType(f.type);
    out.set(f.json, {
      name: f.json,
      value: v,
      list: f.repeated,
      map: f.map,
      nullable: f.pointer || f.repeated || f.map || f.type === 'bytes' || (v.kind === 'special' && (v.special === 'Time' || v.special === 'MicroTime')),
      omitEmpty: f.omitEmpty,
    });
  }
  return out;
}

/** Every message of the table. */
export function messageNames(): string[] {
  return Object.keys(MESSAGES);
}

const OPENAPI_PREFIX: Record<string, string> = {
  meta: 'io.k8s.apimachinery.pkg.apis.meta',
  runtime: 'io.k8s.apimachinery.pkg.runtime',
  intstr: 'io.k8s.apimachinery.pkg.util.intstr',
  resource: 'io.k8s.apimachinery.pkg.api.resource',
};

/** The OpenAPI definition name of a message: `core.v1.Pod` → `io.k8s.api.core.v1.Pod`. */
export function openApiName(type: string): string {
  const dot = type.indexOf('.');
  const head = type.slice(0, dot);
  return `${OPENAPI_PREFIX[head] ?? `io.k8s.api.${head}`}${type.slice(dot)}`;
}

let root: protobuf.Root | undefined;

/** The protobufjs type of a message, built once from the table with protobufjs' reflection API. */
export function protobufType(type: string): protobuf.Type {
  if (!root) root = buildRoot();
  return root.lookupType(type);
}

function buildRoot(): protobuf.Root {
  const r = new protobuf.Root();
  for (const name of Object.keys(MESSAGES)) {
    const dot = name.lastIndexOf('.');
    const t = new protobuf.Type(name.slice(dot + 1));
    for (const f of messageFields(name)!) {
      const ref = isScalar(f.type) ? f.type : `.${f.type}`;
      if (f.map) t.add(new protobuf.MapField(f.proto, f.number, 'string', ref));
      else t.add(new protobuf.Field(f.proto, f.number, ref, f.repeated ? 'repeated' : 'optional'));
    }
    r.define(name.slice(0, dot)).add(t);
  }
  r.resolveAll();
  return r;
}
