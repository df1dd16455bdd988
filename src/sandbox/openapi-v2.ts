// GET /openapi/v2: the Swagger 2.0 document, as JSON or as the protobuf kubectl asks for.
//
// kubectl reads it when the OpenAPI v3 check cannot vouch for server-side field validation: a
// `kind: List` file (every bundled example) always goes through kubectl's client-side schema
// validation, which downloads /openapi/v2 with `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`
// (discovery's OpenAPISchema, no JSON fallback) and fails the command on a 404. The document
// carries the same paths and operations as the v3 documents (so the v2 QueryParamVerifier finds
// `fieldValidation` on every served kind's PATCH) and no definitions: kubectl skips client-side
// validation of a kind it finds no schema for, and the server's fieldValidation=Strict check then
// refuses unknown fields, as it does for single objects.
import { openApiV3Doc, SERVER_VERSION } from './discovery.js';
import { groupVersions } from './resources.js';
import { isObj } from '../core/guards.js';
import type { Obj } from './util.js';

const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The Content-Type kube-openapi answers the protobuf with (`@` is not allowed there). */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

let jsonCache: Obj | undefined;
let protoCache: Buffer | undefined;

/** The Swagger 2.0 document, built from the v3 documents (so from RESOURCES). */
export function openApiV2Doc(): Obj {
  if (jsonCache) return jsonCache;
  const paths: Obj = {};
  for (const gv of groupVersions()) {
    const v3 = openApiV3Doc(gv.group, gv.version);
    if (!v3) continue;
    for (const [path, item] of Object.entries(v3.paths as Obj)) {
      const out: Obj = {};
      for (const m of METHODS) {
        const op = (item as Obj)[m];
        if (!isObj(op)) continue;
        out[m] = {
          description: op.description,
          consumes: m === 'patch' ? ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'] : ['*/*'],
          produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
          operationId: op.operationId,
          parameters: (op.parameters as Obj[]).map((p) => ({ uniqueItems: true, type: 'string', description: p.description, name: p.name, in: p.in })),
          responses: { '200': { description: 'OK' }, '401': { description: 'Unauthorized' } },
          'x-kubernetes-action': op['x-kubernetes-action'],
          'x-kubernetes-group-version-kind': op['x-kubernetes-group-version-kind'],
        };
      }
      paths[path] = out;
    }
  }
  jsonCache = { swagger: '2.0', info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion }, paths, definitions: {} };
  return jsonCache;
}

// ---------------- protobuf (gnostic openapi_v2.Document) ----------------

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n >>> 0;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}

function bytesField(field: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

function str(field: number, s: string | undefined): Buffer {
  return s === undefined || s === '' ? Buffer.alloc(0) : bytesField(field, Buffer.from(s, 'utf8'));
}

function bool(field: number, b: boolean | undefined): Buffer {
  return b ? Buffer.concat([varint(field << 3), varint(1)]) : Buffer.alloc(0);
}

function msg(field: number, ...parts: Buffer[]): Buffer {
  return bytesField(field, Buffer.concat(parts));
}

/** A vendor extension (NamedAny): its value as the YAML gnostic keeps. */
function extension(field: number, name: string, value: unknown): Buffer {
  return msg(field, str(1, name), msg(2, str(2, yamlOf(value))));
}

function yamlOf(v: unknown): string {
  if (isObj(v))
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${JSON.stringify(x)}\n`)
      .join('');
  return `${JSON.stringify(v)}\n`;
}

function operation(field: number, op: Obj): Buffer {
  const params = (op.parameters as Obj[]).map((p) =>
    // ParametersItem.parameter → Parameter.non_body_parameter → NonBodyParameter.query_parameter_sub_schema
    msg(8, msg(1, msg(2, msg(3, str(2, p.in), str(3, p.description), str(4, p.name), str(6, p.type), bool(20, p.uniqueItems))))),
  );
  const responses = Object.entries(op.responses as Obj).map(([code, r]) => msg(1, str(1, code), msg(2, msg(1, str(1, (r as Obj).description)))));
  return msg(
    field,
    str(3, op.description),
    str(5, op.operationId),
    ...(op.produces as string[]).map((s) => str(6, s)),
    ...(op.consumes as string[]).map((s) => str(7, s)),
    ...params,
    msg(9, ...responses),
    extension(13, 'x-kubernetes-action', op['x-kubernetes-action']),
    extension(13, 'x-kubernetes-group-version-kind', op['x-kubernetes-group-version-kind']),
  );
}

const PATH_ITEM_FIELD: Record<(typeof METHODS)[number], number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

/** The document as gnostic's openapi_v2.Document protobuf, which kubectl unmarshals. */
export function openApiV2Protobuf(): Buffer {
  if (protoCache) return protoCache;
  const doc = openApiV2Doc();
  const paths = Object.entries(doc.paths as Obj).map(([p, item]) =>
    msg(2, str(1, p), msg(2, ...METHODS.filter((m) => (item as Obj)[m]).map((m) => operation(PATH_ITEM_FIELD[m], (item as Obj)[m])))),
  );
  protoCache = Buffer.concat([str(1, doc.swagger), msg(2, str(1, doc.info.title), str(2, doc.info.version)), msg(8, ...paths)]);
  return protoCache;
}

/** Whether an Accept header asks for the protobuf (kubectl) rather than JSON. */
export function wantsOpenApiV2Protobuf(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  const pb = types.indexOf(OPENAPI_V2_PROTOBUF);
  const json = types.findIndex((t) => t === 'application/json' || t === '*/*' || t === 'application/*');
  return pb >= 0 && (json < 0 || pb < json);
}
