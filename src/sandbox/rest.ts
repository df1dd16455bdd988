// HTTP handlers for resource paths: parse the request, run faults and the registry, encode the
// answer (object, list, Table, Status, watch stream), record the audit entry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { auditTime, type AuditLog, type AuditRecord, type AuditVerb } from './audit.js';
import { ApiError, badRequest, type FieldError, expired, internalError, invalid, methodNotAllowed, pathNotFound, tooLargeResourceVersion } from './errors.js';
import type { Faults } from './faults.js';
import { FIELD_MANAGER_MAX_LENGTH, managerOf, type FieldManager } from './managed-fields.js';
import { decodeOtherBody, type BodyKind } from './protobuf/decode.js';
import { APPLY_PATCH, JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from './patch.js';
import { withType, type DeleteOptions, type FieldValidation, type Registry, type WriteCtx } from './registry.js';
import { apiVersionOf, findResource, type ResourceDef } from './resources.js';
import { matches, parseFieldSelector, parseLabelSelector, selectorIsEmpty, type Selector } from './selectors.js';
import { keyOf } from './store.js';
import { toTable, wantsTable, type IncludeObject } from './table.js';
import { isObj } from '../core/guards.js';
import { sleep, type Obj } from './util.js';
import type { WatchHub } from './watch.js';

export interface ResourcePath {
  res: ResourceDef;
  namespace?: string;
  name?: string;
  sub?: string;
  watchPrefix: boolean;
}

/** Parses `/api/v1/...` and `/apis/<group>/<version>/...` below the group-version prefix. */
export function parseResourcePath(segments: string[], group: string, version: string): ResourcePath {
  let rest = segments;
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const r = findResource(group, version, rest[2]);
    if (r?.namespaced) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
  }
  const res = findResource(group, version, rest[0] ?? '');
  if (!res || rest.length > 3) throw pathNotFound();
  if (namespace === undefined && res.namespaced && rest.length > 1) throw pathNotFound();
  const name = rest[1];
  const sub = rest[2];
  if (sub !== undefined && !(sub in res.subresources)) throw pathNotFound();
  if (name === '') throw pathNotFound();
  return { res, namespace, name, sub, watchPrefix };
}

export interface RequestInfo {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  user: string;
  /** The user the request acts as (the Impersonate-User header), when it names one. */
  impersonatedUser?: string;
  /** What a body that does not say its kind is decoded as (set by RestHandler.handle). */
  bodyKind?: BodyKind;
}

/** The kind a write to this path takes: the resource's, a subresource's own (Scale, Binding), or DeleteOptions. */
function bodyKindOf(p: ResourcePath, method: string | undefined): BodyKind {
  if (method === 'DELETE') return { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' };
  const s = p.sub ? p.res.subresources[p.sub] : undefined;
  if (s?.kind) return { apiVersion: s.group ? `${s.group}/${s.version}` : 'v1', kind: s.kind };
  return { apiVersion: apiVersionOf(p.res), kind: p.res.kind };
}

const LIST_EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

interface ContinueToken {
  v: 'meta.k8s.io/v1';
  rv: number;
  start: string;
}

function encodeContinue(rv: number, lastKey: string): string {
  const t: ContinueToken = { v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` };
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeContinue(s: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as ContinueToken;
    if (t.v !== 'meta.k8s.io/v1' || typeof t.rv !== 'number' || typeof t.start !== 'string') throw new Error('bad');
    return t;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

function optionsError(kind: string, field: string, value: string, supported: string[]): ApiError {
  return invalid(kind, 'meta.k8s.io', '', [{ type: 'NotSupported', field, value, detail: `supported values: ${supported.map((s) => `"${s}"`).join(', ')}` }]);
}

export class RestHandler {
  /** Each stored object's JSON as a list item (without kind and apiVersion), encoded. */
  private readonly itemJson = new WeakMap<Obj, Buffer>();

  constructor(
    private readonly registry: Registry,
    private readonly hub: WatchHub,
    private readonly audit: AuditLog,
    private readonly faults: Faults,
  ) {}

  private verbOf(method: string, p: ResourcePath, url: URL): AuditVerb {
    const watch = p.watchPrefix || ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    switch (method) {
      case 'GET':
        if (watch) return 'watch';
        return p.name ? 'get' : 'list';
      case 'POST':
        return 'create';
      case 'PUT':
        return 'update';
      case 'PATCH':
        return 'patch';
      case 'DELETE':
        return p.name ? 'delete' : 'deletecollection';
      default:
        throw methodNotAllowed();
    }
  }

  /** The verbs discovery lists for the resource or subresource are the only ones served. */
  private allowed(verb: AuditVerb, p: ResourcePath): boolean {
    if (p.sub) {
      const v = verb === 'watch' || verb === 'list' ? 'get' : verb;
      return p.res.subresources[p.sub].verbs.includes(v);
    }
    return p.res.verbs.includes(verb);
  }

  async handle(info: RequestInfo, p: ResourcePath, response: ServerResponse): Promise<void> {
    const received = auditTime();
    info.bodyKind = bodyKindOf(p, info.req.method);
    const { req, url } = info;
    let verb: AuditVerb;
    try {
      verb = this.verbOf(req.method ?? 'GET', p, url);
      if (!this.allowed(verb, p)) throw methodNotAllowed();
    } catch (e) {
      sendError(response, e instanceof ApiError ? e : internalError(String(e)));
      return;
    }
    const dryRunValues = dryRunOf(info, verb);
    const dryRun = dryRunValues.includes('All');
    const entry = {
      verb,
      resource: p.res.name,
      subresource: p.sub,
      namespace: p.namespace,
      name: p.name,
      dryRun,
      user: info.user,
      ...(info.impersonatedUser !== undefined ? { impersonatedUser: info.impersonatedUser } : {}),
      userAgent: req.headers['user-agent'],
    };
    let code = 500;
    let fault: string | undefined;
    let answer: unknown; // the body sent, for the audit file
    try {
      const decision = this.faults.decide({ verb, resource: p.res.name, subresource: p.sub, namespace: p.namespace, name: p.name, group: p.res.group });
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      if (decision.error) {
        fault = decision.ruleId;
        throw decision.error;
      }
      if (verb === 'watch') {
        this.watch(info, p, response);
        code = 200;
        return;
      }
      const out = this.dispatch(verb, info, p, dryRunValues);
      code = out.code;
      answer = out.body;
      send(response, out.code, out.body, out.headers);
    } catch (e) {
      const err = e instanceof ApiError ? e : internalError(e instanceof Error ? e.message : String(e));
      code = err.code;
      answer = err.status;
      sendError(response, err);
    } finally {
      const status = isObj(answer) && answer.kind === 'Status' ? answer : undefined;
      const rec: AuditRecord = {
        ...entry,
        code,
        fault,
        received,
        requestURI: info.req.url,
        sourceIP: info.req.socket.remoteAddress?.replace(/^::ffff:/, ''),
        status,
      };
      // The request as the server read it: not for an injected fault (the handler never decoded it).
      this.audit.record(rec, () => ({ request: fault ? undefined : this.requestObject(info, verb), response: answer }));
    }
  }

  /** A write's request body for the audit file: a patch as sent, DeleteOptions as kube-apiserver logs them. */
  private requestObject(info: RequestInfo, verb: AuditVerb): unknown {
    if (verb === 'patch') return parseJson(info.body);
    if (verb === 'delete' || verb === 'deletecollection') {
      const { kind: _k, apiVersion: _a, ...opts } = this.deleteOptions(info) as DeleteOptions & { kind?: unknown; apiVersion?: unknown };
      return { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal', ...opts };
    }
    return info.body.length > 0 ? parseBody(info) : undefined;
  }

  /** `managed`: the write is the field manager's, through this subresource if any (not a binding or delete). */
  private writeCtx(info: RequestInfo, dryRunValues: string[], kind: string, managed?: { sub?: string }): WriteCtx {
    for (const v of dryRunValues) if (v !== 'All') throw optionsError(kind, 'dryRun', v, ['All']);
    const fv = info.url.searchParams.get('fieldValidation');
    if (fv !== null && fv !== '' && !['Ignore', 'Warn', 'Strict'].includes(fv)) throw optionsError(kind, 'fieldValidation', fv, ['Ignore', 'Strict', 'Warn']);
    return {
      dryRun: dryRunValues.includes('All'),
      user: info.impersonatedUser ?? info.user,
      fieldValidation: (fv || undefined) as FieldValidation | undefined,
      warnings: [],
      fieldManager: managed ? this.fieldManager(info, kind, managed.sub) : undefined,
    };
  }

  /** The request's manager (managerOrUserAgent); ValidateFieldManager refuses a long or unprintable ?fieldManager=. */
  private fieldManager(info: RequestInfo, kind: string, sub: string | undefined): FieldManager {
    const asked = info.url.searchParams.get('fieldManager');
    if (asked !== null && Buffer.byteLength(asked) > FIELD_MANAGER_MAX_LENGTH) {
      throw invalid(kind, 'meta.k8s.io', '', [{ type: 'TooLong', field: 'fieldManager', detail: `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes` }]);
    }
    const unprintable: FieldError[] = [];
    let at = 0;
    for (const ch of asked ?? '') {
      const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      if (/\p{C}/u.test(ch))
        unprintable.push({ type: 'Invalid', field: 'fieldManager', value: asked, detail: `invalid character U+${hex} (at position ${at})` });
      at += Buffer.byteLength(ch);
    }
    if (unprintable.length) throw invalid(kind, 'meta.k8s.io', '', unprintable);
    const ua = info.req.headers['user-agent'];
    return { manager: managerOf(asked, Array.isArray(ua) ? ua[0] : ua), ...(sub ? { subresource: sub } : {}) };
  }

  private dispatch(verb: AuditVerb, info: RequestInfo, p: ResourcePath, dryRunValues: string[]): Reply {
    const accept = info.req.headers.accept;
    const table = wantsTable(accept) ? includeObjectParam(info.url) : undefined;
    const objReply: ObjectReply = (code, o, ctx) => ({
      code,
      body: table && !p.sub ? toTable(p.res, [o], { resourceVersion: o.metadata?.resourceVersion }, table) : o,
      headers: warningHeaders(ctx),
    });
    switch (verb) {
      case 'get':
        return this.get(p, objReply);
      case 'list':
        return this.list(info, p, table);
      case 'create':
        return this.create(info, p, dryRunValues, objReply);
      case 'update':
        return this.update(info, p, dryRunValues, objReply);
      case 'patch':
        return this.patch(info, p, dryRunValues, objReply);
      case 'delete':
        return this.delete(info, p, dryRunValues, objReply);
      case 'deletecollection':
        return this.deleteCollection(info, p, dryRunValues);
      default:
        throw methodNotAllowed();
    }
  }

  private get({ res, namespace, name, sub }: ResourcePath, objReply: ObjectReply): Reply {
    if (sub === 'scale') return { code: 200, body: this.registry.getScale(res, namespace, name!) };
    if (sub && sub !== 'status') throw methodNotAllowed();
    return objReply(200, withType(res, this.registry.get(res, namespace, name!)));
  }

  private create(info: RequestInfo, { res, namespace, name, sub }: ResourcePath, dryRunValues: string[], objReply: ObjectReply): Reply {
    if (name && sub === 'binding') {
      const ctx = this.writeCtx(info, dryRunValues, 'CreateOptions');
      this.registry.bind(namespace!, name, parseBody(info), ctx);
      return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
    }
    if (name) throw methodNotAllowed();
    const ctx = this.writeCtx(info, dryRunValues, 'CreateOptions', {});
    return objReply(201, this.registry.create(res, namespace, parseBody(info), ctx), ctx);
  }

  private update(info: RequestInfo, { res, namespace, name, sub }: ResourcePath, dryRunValues: string[], objReply: ObjectReply): Reply {
    if (!name) throw methodNotAllowed();
    const ctx = this.writeCtx(info, dryRunValues, 'UpdateOptions', { sub });
    if (sub === 'scale') return { code: 200, body: this.registry.updateScale(res, namespace, name, parseBody(info), ctx), headers: warningHeaders(ctx) };
    if (sub === 'finalize') return objReply(200, this.registry.finalizeNamespace(name, parseBody(info), ctx), ctx);
    if (sub && sub !== 'status') throw methodNotAllowed();
    const r = this.registry.update(res, namespace, name, parseBody(info), ctx, sub as 'status' | undefined);
    return objReply(r.created ? 201 : 200, r.object, ctx);
  }

  private patch(info: RequestInfo, { res, namespace, name, sub }: ResourcePath, dryRunValues: string[], objReply: ObjectReply): Reply {
    if (!name) throw methodNotAllowed();
    const ctx = this.writeCtx(info, dryRunValues, 'PatchOptions', { sub });
    const ct = (info.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (ct === APPLY_PATCH || ![JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH].includes(ct)) {
      throw new ApiError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        code: 415,
        reason: 'UnsupportedMediaType',
        message: `the body of the request was in an unknown format - accepted media types include: ${JSON_PATCH}, ${MERGE_PATCH}, ${STRATEGIC_MERGE_PATCH}`,
      });
    }
    const patch = parseJson(info.body);
    if (sub === 'scale') return { code: 200, body: this.registry.patchScale(res, namespace, name, ct, patch, ctx), headers: warningHeaders(ctx) };
    if (sub && sub !== 'status') throw methodNotAllowed();
    return objReply(200, this.registry.patch(res, namespace, name, ct, patch, ctx, sub as 'status' | undefined), ctx);
  }

  private delete(info: RequestInfo, { res, namespace, name, sub }: ResourcePath, dryRunValues: string[], objReply: ObjectReply): Reply {
    if (sub) throw methodNotAllowed();
    const ctx = this.writeCtx(info, dryRunValues, 'DeleteOptions');
    const opts = this.deleteOptions(info);
    const r = this.registry.delete(res, namespace, name!, opts, ctx);
    if (!r.deleted || res.gracefulDelete) return objReply(200, withType(res, r.object), ctx);
    const details: Obj = { name: r.object.metadata.name };
    if (res.group) details.group = res.group;
    details.kind = res.name;
    details.uid = r.object.metadata.uid;
    return { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }, headers: warningHeaders(ctx) };
  }

  /** Deletes what the selector matches; an object already gone in between is skipped, as upstream does. */
  private deleteCollection(info: RequestInfo, { res, namespace }: ResourcePath, dryRunValues: string[]): Reply {
    const ctx = this.writeCtx(info, dryRunValues, 'DeleteOptions');
    const opts = this.deleteOptions(info);
    const sel = this.selector(info.url, res);
    const victims = this.registry.store.list(res.name, namespace).filter((o) => matches(sel, res, o));
    const items: Obj[] = [];
    for (const v of victims) {
      try {
        items.push(this.registry.delete(res, v.metadata.namespace, v.metadata.name, opts, ctx).object);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    return {
      code: 200,
      body: {
        kind: res.listKind,
        apiVersion: apiVersionOf(res),
        metadata: { resourceVersion: String(this.registry.store.currentRV()) },
        items: items.map(stripType),
      },
    };
  }

  private deleteOptions(info: RequestInfo): DeleteOptions {
    const q = info.url.searchParams;
    let opts: DeleteOptions = {};
    if (info.body.length > 0) {
      const b = parseBody(info);
      if (isObj(b)) opts = { ...(b as DeleteOptions) };
    }
    const g = q.get('gracePeriodSeconds');
    if (g !== null) {
      if (!/^-?\d+$/.test(g)) throw badRequest(`strconv.ParseInt: parsing "${g}": invalid syntax`);
      opts.gracePeriodSeconds = Number(g);
    }
    const pp = q.get('propagationPolicy');
    if (pp !== null) opts.propagationPolicy = pp as DeleteOptions['propagationPolicy'];
    const od = q.get('orphanDependents');
    if (od !== null) opts.orphanDependents = od === 'true';
    if (opts.propagationPolicy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
      throw optionsError('DeleteOptions', 'propagationPolicy', String(opts.propagationPolicy), ['Foreground', 'Background', 'Orphan']);
    }
    if (opts.propagationPolicy !== undefined && opts.orphanDependents !== undefined) {
      throw invalid('DeleteOptions', 'meta.k8s.io', '', [
        { type: 'Invalid', field: 'propagationPolicy', value: opts.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' },
      ]);
    }
    return opts;
  }

  private selector(url: URL, res: ResourceDef): Selector {
    return {
      labels: parseLabelSelector(url.searchParams.get('labelSelector')),
      fields: parseFieldSelector(url.searchParams.get('fieldSelector'), res),
    };
  }

  private list(info: RequestInfo, p: ResourcePath, table: IncludeObject | undefined): Reply {
    const q = info.url.searchParams;
    const { res, namespace } = p;
    const store = this.registry.store;
    const sel = this.selector(info.url, res);
    const limitText = q.get('limit');
    const limit = limitText && /^\d+$/.test(limitText) ? Number(limitText) : 0;
    const cont = q.get('continue') || undefined;
    const rvText = q.get('resourceVersion') || undefined;
    const match = q.get('resourceVersionMatch') || undefined;
    if (match && !['Exact', 'NotOlderThan'].includes(match)) throw optionsError('ListOptions', 'resourceVersionMatch', match, ['Exact', 'NotOlderThan']);
    if (match && !rvText)
      throw invalid('ListOptions', 'meta.k8s.io', '', [
        { type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' },
      ]);
    if (rvText !== undefined && !/^\d+$/.test(rvText))
      throw badRequest(`resourceVersion: Invalid value: "${rvText}": strconv.ParseUint: parsing "${rvText}": invalid syntax`);
    let items: Obj[] | undefined;
    let listRV = store.currentRV();
    let start = '';
    if (cont) {
      if (rvText !== undefined && rvText !== '0') throw badRequest('specifying resource version is not allowed when using continue');
      const t = decodeContinue(cont);
      const since = store.eventsSince(res.name, t.rv);
      if (!since) throw expired(LIST_EXPIRED_CONTINUE);
      // unchanged since the first page: page through the current state directly
      if (since.length > 0) items = store.snapshotAt(res.name, t.rv, namespace);
      listRV = t.rv;
      start = t.start;
    } else if (rvText !== undefined && rvText !== '0') {
      const rv = Number(rvText);
      if (match === 'Exact') {
        items = store.snapshotAt(res.name, rv, namespace);
        if (!items) throw expired(`too old resource version: ${rv} (${store.oldestServable(res.name)})`);
        listRV = rv;
      } else if (rv > store.currentRV()) {
        throw tooLargeResourceVersion(rv, store.currentRV());
      }
    }
    const accept = (o: Obj) => selectorIsEmpty(sel) || matches(sel, res, o);
    if (!items && limit > 0) {
      // the current state, one page: a binary search, not a scan of the whole resource
      const page = store.pageFrom(res.name, namespace, start, limit, accept);
      const meta: Obj = { resourceVersion: String(listRV) };
      if (page.more) {
        meta.continue = encodeContinue(listRV, keyOf(page.items[page.items.length - 1]));
        if (selectorIsEmpty(sel)) meta.remainingItemCount = page.remaining;
      }
      if (table) return { code: 200, body: toTable(res, page.items, meta, table) };
      return { code: 200, body: this.listBody(res, meta, page.items) };
    }
    items ??= store.list(res.name, namespace);
    let filtered = selectorIsEmpty(sel) ? items : items.filter(accept);
    if (start) filtered = filtered.filter((o) => keyOf(o) >= start);
    const meta: Obj = { resourceVersion: String(listRV) };
    if (limit > 0 && filtered.length > limit) {
      const page = filtered.slice(0, limit);
      meta.continue = encodeContinue(listRV, keyOf(page[page.length - 1]));
      if (selectorIsEmpty(sel)) meta.remainingItemCount = filtered.length - limit;
      filtered = page;
    }
    if (table) return { code: 200, body: toTable(res, filtered, meta, table) };
    return { code: 200, body: this.listBody(res, meta, filtered) };
  }

  /**
   * A list response, encoded, from each item's encoded JSON cached on the stored object (stored
   * objects are never mutated, see Store.put): listing 10k unchanged pods serializes none again.
   */
  private listBody(res: ResourceDef, meta: Obj, items: Obj[]): EncodedJson {
    const parts: Buffer[] = [
      Buffer.from(`{"kind":${JSON.stringify(res.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(res))},"metadata":${JSON.stringify(meta)},"items":[`),
    ];
    for (const o of items) {
      let b = this.itemJson.get(o);
      if (b === undefined) {
        b = Buffer.from(JSON.stringify(stripType(o)));
        this.itemJson.set(o, b);
      }
      if (parts.length > 1) parts.push(COMMA);
      parts.push(b);
    }
    parts.push(CLOSE_LIST);
    return new EncodedJson(Buffer.concat(parts));
  }

  private watch(info: RequestInfo, p: ResourcePath, response: ServerResponse): void {
    const q = info.url.searchParams;
    const sel = this.selector(info.url, p.res);
    if (p.name) sel.fields.push({ field: 'metadata.name', op: '=', value: p.name });
    const timeout = q.get('timeoutSeconds');
    const table = wantsTable(info.req.headers.accept) ? includeObjectParam(info.url) : undefined;
    this.hub.serve(
      {
        res: p.res,
        namespace: p.namespace,
        sel,
        resourceVersion: q.get('resourceVersion') ?? undefined,
        allowBookmarks: q.get('allowWatchBookmarks') === 'true',
        sendInitialEvents: q.get('sendInitialEvents') === 'true',
        timeoutSeconds: timeout && /^\d+$/.test(timeout) ? Number(timeout) : undefined,
        table,
      },
      response,
    );
  }
}

/** A verb's answer for one object: a Table when kubectl asked for one, with the write's warnings. */
type ObjectReply = (code: number, o: Obj, ctx?: WriteCtx) => Reply;

interface Reply {
  code: number;
  body: unknown;
  headers?: Record<string, string | string[]>;
}

/**
 * The dryRun values of a request. DELETE reads its DeleteOptions from the body when there is one
 * (kubectl sends `{"dryRun":["All"]}` there for `delete --dry-run=server`; a client-go typed
 * client may send it as protobuf), from the query
 * otherwise, as the apiserver's DeleteResource does; every other verb reads the query.
 */
function dryRunOf(info: RequestInfo, verb: AuditVerb): string[] {
  if ((verb === 'delete' || verb === 'deletecollection') && info.body.length > 0) {
    let b: unknown;
    try {
      b = parseBody(info); // JSON, YAML or protobuf DeleteOptions
    } catch {
      return []; // the handler answers the undecodable body
    }
    const v = isObj(b) ? b.dryRun : undefined;
    return Array.isArray(v) ? v.map(String) : [];
  }
  return info.url.searchParams.getAll('dryRun');
}

function stripType(o: Obj): Obj {
  const { kind: _k, apiVersion: _a, ...rest } = o;
  return rest;
}

function includeObjectParam(url: URL): IncludeObject {
  const v = url.searchParams.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function warningHeaders(ctx?: WriteCtx): Record<string, string | string[]> | undefined {
  if (!ctx?.warnings?.length) return undefined;
  return { Warning: ctx.warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}

function parseJson(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request is empty');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding patch: ${(e as Error).message}`);
  }
}

function parseBody(info: RequestInfo): unknown {
  const ct = (info.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const decoded = decodeOtherBody(info.body, ct, info.bodyKind ?? { apiVersion: '', kind: '' });
  if (decoded) return decoded;
  const text = info.body.toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request is empty');
  try {
    if (ct === 'application/yaml') return loadYaml(text, { schema: CORE_SCHEMA });
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

/** A response body that is JSON already, encoded. */
export class EncodedJson {
  constructor(readonly bytes: Buffer) {}
}

const COMMA = Buffer.from(',');
const CLOSE_LIST = Buffer.from(']}');

export function send(response: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const bytes = body instanceof EncodedJson ? body.bytes : Buffer.from(JSON.stringify(body));
  response.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': bytes.length,
    ...headers,
  });
  response.end(bytes);
}

export function sendError(response: ServerResponse, err: ApiError): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  send(response, err.code, err.status, err.headers);
}
