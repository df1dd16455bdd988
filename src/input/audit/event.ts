// What every format shares once it is unwrapped to an audit.k8s.io/v1 Event: the cheap test that
// skips an entry the caller certainly does not want (read from the first bytes, never parsed),
// objectRef from a requestURI and back, and a cut Event read as far as it goes.

import { TRUNCATED_ANNOTATION, type AuditFilter } from './filter.js';
import { isoOfUs } from './time.js';
import { isObj } from '../../core/guards.js';

// ---- skipping without parsing ---------------------------------------------------------------

// kube-apiserver writes the members of an Event in a fixed order (the Go struct's), so the stage,
// the URI and the verb are found at fixed places after a fixed prefix. Anything else (another
// order, an escape where none is expected, a prefix too long) is not skipped.
const PREFIX = Buffer.from('{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"');
const K_AUDIT_ID = Buffer.from('","auditID":"');
const K_STAGE = Buffer.from('","stage":"');
const K_URI = Buffer.from('","requestURI":"');
const K_VERB = Buffer.from('","verb":"');

function matchAt(b: Uint8Array, i: number, e: number, lit: Uint8Array): boolean {
  if (i + lit.length > e) return false;
  for (let k = 0; k < lit.length; k++) if (b[i + k] !== lit[k]) return false;
  return true;
}

/** The offset of the quote closing a string value with no escapes that starts at `i`, or -1. */
function plainEnd(b: Uint8Array, i: number, e: number): number {
  for (; i < e; i++) {
    const c = b[i];
    if (c === 0x22) return i;
    if (c === 0x5c) return -1;
  }
  return -1;
}

/**
 * The resource a request path names, as kube-apiserver's RequestInfoFactory reads it
 * (`/api/v1/namespaces/NS/pods/NAME/status` → pods), or null for any other path.
 */
export function resourceOfPath(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== '') return null;
  let rest: string[];
  if (parts[1] === 'api') rest = parts.slice(3);
  else if (parts[1] === 'apis') rest = parts.slice(4);
  else return null;
  if (rest[0] === 'watch') rest = rest.slice(1);
  if (rest.length === 0 || rest[0] === '') return null;
  if (rest[0] === 'namespaces' && rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize' && rest[2] !== '') return rest[2];
  return rest[0];
}

/** A filter's values as bytes, to compare with the raw text without making strings. */
interface ByteFilter {
  stages: Uint8Array[];
  verbs: Uint8Array[];
  resources: Uint8Array[];
}
const compiled = new WeakMap<AuditFilter, ByteFilter>();
function bytesOf(f: AuditFilter): ByteFilter {
  let c = compiled.get(f);
  if (c === undefined) {
    const enc = (xs: ReadonlySet<string>) => [...xs].map((x) => Buffer.from(x, 'latin1'));
    c = { stages: enc(f.stages), verbs: enc(f.verbs), resources: enc(f.resources) };
    compiled.set(f, c);
  }
  return c;
}

function oneOf(b: Uint8Array, s: number, e: number, set: Uint8Array[]): boolean {
  const n = e - s;
  for (const v of set) {
    if (v.length !== n) continue;
    let k = 0;
    while (k < n && b[s + k] === v[k]) k++;
    if (k === n) return true;
  }
  return false;
}

const SEG_API = Buffer.from('/api/');
const SEG_APIS = Buffer.from('/apis/');
const NAMESPACES = Buffer.from('namespaces');
const WATCH = Buffer.from('watch');
const STATUS = Buffer.from('status');
const FINALIZE = Buffer.from('finalize');
const segIs = (b: Uint8Array, s: number, e: number, lit: Uint8Array) => e - s === lit.length && matchAt(b, s, e, lit);

/**
 * resourceOfPath on raw bytes b[s, e) (the path, without its query): the offsets of the resource
 * segment, or null.
 */
function resourceAt(b: Uint8Array, s: number, e: number): [number, number] | null {
  let skip: number;
  if (matchAt(b, s, e, SEG_APIS)) skip = 3;
  else if (matchAt(b, s, e, SEG_API)) skip = 2;
  else return null;
  // the segments after /api/v1 or /apis/group/version
  const segs: number[] = [];
  let i = s + 1;
  for (let k = 0; k < skip + 4 && i <= e; k++) {
    let j = i;
    while (j < e && b[j] !== 0x2f) j++;
    if (k >= skip) segs.push(i, j);
    i = j + 1;
    if (j >= e) break;
  }
  let at = 0;
  if (segs.length >= 2 && segIs(b, segs[0], segs[1], WATCH)) at = 2;
  const n = (segs.length - at) / 2;
  if (n <= 0 || segs[at] === segs[at + 1]) return null;
  if (segIs(b, segs[at], segs[at + 1], NAMESPACES) && n > 2) {
    const r0 = segs[at + 4];
    const r1 = segs[at + 5];
    if (r0 !== r1 && !segIs(b, r0, r1, STATUS) && !segIs(b, r0, r1, FINALIZE)) return [r0, r1];
  }
  return [segs[at], segs[at + 1]];
}

/**
 * True when the kube-apiserver Event whose JSON text is `b[s, e)` is certainly outside `f`:
 * its stage or verb is not listed, or its URI names a resource that is not. False whenever unsure.
 */
export function eventOutside(b: Uint8Array, s: number, e: number, f: AuditFilter): boolean {
  if (!matchAt(b, s, e, PREFIX)) return false;
  const fb = bytesOf(f);
  let i = plainEnd(b, s + PREFIX.length, e);
  if (i < 0 || !matchAt(b, i, e, K_AUDIT_ID)) return false;
  i = plainEnd(b, i + K_AUDIT_ID.length, e);
  if (i < 0 || !matchAt(b, i, e, K_STAGE)) return false;
  const st = i + K_STAGE.length;
  i = plainEnd(b, st, e);
  if (i < 0) return false;
  if (!oneOf(b, st, i, fb.stages)) return true;
  if (!matchAt(b, i, e, K_URI)) return false;
  // the path, up to the query; an escape in it (never written by kube-apiserver for a path) means unsure
  const us = i + K_URI.length;
  let pathEnd = -1;
  let j = us;
  for (; j < e; j++) {
    const c = b[j];
    if (c === 0x22) break;
    if (c === 0x5c) {
      if (pathEnd < 0) pathEnd = -2;
      j++;
      continue;
    }
    if (c === 0x3f && pathEnd === -1) pathEnd = j;
  }
  if (j >= e) return false;
  if (pathEnd === -1) pathEnd = j;
  if (!matchAt(b, j, e, K_VERB)) return false;
  const vs = j + K_VERB.length;
  const ve = plainEnd(b, vs, e);
  if (ve < 0) return false;
  if (!oneOf(b, vs, ve, fb.verbs)) return true;
  if (pathEnd < 0) return false;
  const r = resourceAt(b, us, pathEnd);
  return r !== null && !oneOf(b, r[0], r[1], fb.resources);
}

const scratch = Buffer.alloc(4096);

/** Whether scratch[0, n) ends with K_VERB (its last byte, a quote, just written). */
function endsWithVerbKey(n: number): boolean {
  const k = n - K_VERB.length;
  return k >= 0 && scratch[n - 2] === 0x3a && matchAt(scratch, k, n, K_VERB);
}

/**
 * eventOutside for an Event written inside a JSON string (CloudWatch's `message`, AKS's
 * `properties.log`): `s` is just after the string's opening quote. The Event's own text is
 * unescaped from its start, at most a few KiB, and no further than the quote or backslash after
 * its first `","verb":"`: eventOutside reads nothing beyond the verb's value, and outside a string
 * value, whose quotes are escaped, that is where the verb member is (so the answer is the one the
 * whole text gives).
 */
export function escapedEventOutside(b: Uint8Array, s: number, e: number, f: AuditFilter): boolean {
  const lim = Math.min(e, s + 4096);
  let n = 0;
  let verbValue = false;
  for (let i = s; i < lim; i++) {
    let c = b[i];
    if (c === 0x22) break;
    if (c === 0x5c) {
      if (++i >= lim) break;
      c = b[i];
      if (c === 0x75) {
        // \uXXXX: keep it escaped (a JSON string's escape, as the Event's own text may have it)
        if (n + 2 > scratch.length) break;
        scratch[n++] = 0x5c;
        scratch[n++] = c;
        if (verbValue) break;
        continue;
      }
      if (c === 0x6e || c === 0x74 || c === 0x72 || c === 0x62 || c === 0x66) break; // a raw control character: not kube-apiserver's layout
    }
    if (n >= scratch.length) break;
    scratch[n++] = c;
    if (verbValue) {
      if (c === 0x22 || c === 0x5c) break; // the verb's value ends (or holds an escape: unsure either way)
    } else if (c === 0x22 && endsWithVerbKey(n)) verbValue = true;
  }
  return eventOutside(scratch, 0, n, f);
}

/** GKE: a `methodName` (`io.k8s.core.v1.pods.status.patch`) certainly outside `f`. */
export function methodOutside(method: string, f: AuditFilter): boolean {
  const segs = method.split('.');
  if (segs.length < 3) return false;
  if (!f.verbs.has(segs[segs.length - 1])) return true;
  return !f.resources.has(segs[segs.length - 2]) && !f.resources.has(segs[segs.length - 3]);
}

// ---- objectRef and requestURI ----------------------------------------------------------------

export interface ObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

/** The objectRef kube-apiserver derives from a request URI (query left out), or null for a non-resource URI. */
function refOfURI(uri: string): ObjectRef | null {
  const q = uri.indexOf('?');
  const parts = (q >= 0 ? uri.slice(0, q) : uri).split('/');
  if (parts[0] !== '') return null;
  let group = '';
  let version: string;
  let rest: string[];
  if (parts[1] === 'api' && parts.length >= 3) {
    version = parts[2];
    rest = parts.slice(3);
  } else if (parts[1] === 'apis' && parts.length >= 4) {
    group = parts[2];
    version = parts[3];
    rest = parts.slice(4);
  } else return null;
  if (rest[0] === 'watch') rest = rest.slice(1);
  rest = rest.filter((p) => p !== '');
  if (rest.length === 0) return null;
  const ref: ObjectRef = {};
  if (rest[0] === 'namespaces' && rest.length > 1) {
    ref.namespace = decodeURIComponent(rest[1]);
    if (rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') rest = rest.slice(2);
  }
  ref.resource = rest[0];
  if (rest.length > 1) ref.name = decodeURIComponent(rest[1]);
  if (rest.length > 2) ref.subresource = rest[2];
  if (group !== '') ref.apiGroup = group;
  ref.apiVersion = version;
  return ref;
}

/** The request URI of a write to `ref` (a create goes to the collection), query left out. */
export function uriOfRef(ref: ObjectRef, verb: string): string {
  let p = ref.apiGroup ? `/apis/${ref.apiGroup}/${ref.apiVersion ?? 'v1'}` : `/api/${ref.apiVersion ?? 'v1'}`;
  if (ref.namespace !== undefined && ref.resource !== 'namespaces') p += `/namespaces/${ref.namespace}`;
  if (ref.resource !== undefined) p += `/${ref.resource}`;
  if (ref.name !== undefined && !(verb === 'create' && ref.subresource === undefined)) p += `/${ref.name}`;
  if (ref.subresource !== undefined) p += `/${ref.subresource}`;
  return p;
}

// ---- truncation ------------------------------------------------------------------------------

/** An Event read without its bodies: level Metadata, marked with the truncate backend's annotation. */
export function markTruncated(ev: Record<string, any>): Record<string, any> {
  delete ev.requestObject;
  delete ev.responseObject;
  ev.level = 'Metadata';
  ev.annotations = { ...(isObj(ev.annotations) ? ev.annotations : {}), [TRUNCATED_ANNOTATION]: 'true' };
  return ev;
}

/** Whether an Event carries the truncate backend's annotation. */
export function hasTruncatedMark(ev: Record<string, any>): boolean {
  const a = ev.annotations;
  return a !== undefined && isObj(a) && a[TRUNCATED_ANNOTATION] === 'true';
}

/** Whether the object of an Event is known: its resource, and its name (or it is a create, named by its response). */
export function objectKnown(ev: Record<string, any>): boolean {
  const r = ev.objectRef;
  return (
    isObj(r) &&
    typeof r.resource === 'string' &&
    typeof ev.verb === 'string' &&
    (typeof r.name === 'string' || ev.verb === 'create' || ev.verb === 'deletecollection')
  );
}

const ws = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipWsStr(s: string, i: number): number {
  while (i < s.length && ws(s.charCodeAt(i))) i++;
  return i;
}

/** The end of the string starting at `s[i]` (a quote), or -1 when it runs out. */
function stringEnd(s: string, i: number): number {
  for (i++; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c) i++;
  }
  return -1;
}

/** The end of the JSON value starting at `s[i]`, or -1 when it runs out. */
function valueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (; i < s.length; i++) {
      const d = s.charCodeAt(i);
      if (d === 0x22) {
        i = stringEnd(s, i) - 1;
        if (i < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
    }
    return -1;
  }
  let j = i;
  while (j < s.length && !ws(s.charCodeAt(j)) && s[j] !== ',' && s[j] !== '}' && s[j] !== ']') j++;
  return j === s.length ? -1 : j;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The string starting at `s[i]` (a quote) as far as it reads: up to its closing quote, the end of `s`, or an escape that is none. */
function stringAsFarAsItGoes(s: string, i: number): string {
  let out = '';
  let from = i + 1;
  let j = from;
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x22) break;
    if (c !== 0x5c) continue;
    const e = s[j + 1];
    let ch: string | undefined = ESCAPES[e];
    let n = 2;
    if (e === 'u') {
      const hex = s.slice(j + 2, j + 6);
      ch = /^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : undefined;
      n = 6;
    }
    if (ch === undefined) break;
    out += s.slice(from, j) + ch;
    j += n - 1;
    from = j + 1;
  }
  return out + s.slice(from, j);
}

/** What the text of a broken JSON object still holds (readAsFarAsItGoes). */
export interface BrokenObject {
  /** Its members before the break, each whole; the object member the break is in, with its own whole members. */
  members: Record<string, unknown>;
  /** The names down to the member the break is in (`['properties', 'log']`); empty when the break is between members. */
  cut: string[];
  /** That member's text as far as it goes, when the break is in a string (CloudWatch's `message`, AKS's `log`). */
  text: string | null;
}

/** The members of the object starting at `s[i]` that are whole, and one level into the object member that is not. */
function partialObject(s: string, i: number, depth: number): BrokenObject {
  const members: Record<string, unknown> = {};
  const done = (cut: string[] = [], text: string | null = null): BrokenObject => ({ members, cut, text });
  i++;
  for (;;) {
    i = skipWsStr(s, i);
    if (i >= s.length) return done();
    if (s[i] === '}') return done();
    if (s[i] === ',') {
      i++;
      continue;
    }
    if (s[i] !== '"') return done();
    const ke = stringEnd(s, i);
    if (ke < 0) return done();
    let key: string;
    try {
      key = JSON.parse(s.slice(i, ke)) as string;
    } catch {
      return done();
    }
    i = skipWsStr(s, ke);
    if (s[i] !== ':') return done([key]);
    i = skipWsStr(s, i + 1);
    if (i >= s.length) return done([key]);
    const ve = valueEnd(s, i);
    let value: unknown;
    try {
      if (ve < 0) throw new Error('cut');
      value = JSON.parse(s.slice(i, ve));
    } catch {
      // the break is in this member: cut, or not JSON
      if (s[i] === '"') return done([key], stringAsFarAsItGoes(s, i));
      if (s[i] !== '{' || depth > 0) return done([key]);
      const inner = partialObject(s, i, depth + 1);
      members[key] = inner.members;
      return done([key, ...inner.cut], inner.text);
    }
    members[key] = value;
    i = ve;
  }
}

/**
 * What the text of a JSON object that is cut or broken (not JSON) still holds: its members before
 * the break, and where the break is. Nothing for a text that is no object.
 */
export function readAsFarAsItGoes(text: string): BrokenObject {
  const start = skipWsStr(text, 0);
  return text[start] === '{' ? partialObject(text, start, 0) : { members: {}, cut: [], text: null };
}

/**
 * An Event read from what a cut or broken entry still holds, as every such entry is read: its
 * objectRef completed from the requestURI when it is lost (or `refCut`), the times from
 * `fallbackUs` (the export's own time of the entry) when they are lost, its stage
 * ResponseComplete when lost; bodies dropped and the entry marked truncated. `ev` holds only what
 * was read whole: without a responseStatus, whether the server accepted the write stays unknown.
 */
export function cutEvent(ev: Record<string, any>, fallbackUs: number, refCut = false): Record<string, any> {
  if (ev.kind !== 'Event') ev.kind = 'Event';
  if (typeof ev.apiVersion !== 'string' || !ev.apiVersion.startsWith('audit.k8s.io/')) ev.apiVersion = 'audit.k8s.io/v1';
  const ref = isObj(ev.objectRef) ? ev.objectRef : undefined;
  if (ref === undefined || refCut) {
    const fromUri = typeof ev.requestURI === 'string' ? refOfURI(ev.requestURI) : null;
    if (fromUri) ev.objectRef = { ...fromUri, ...(ref ?? {}) };
  }
  if (Number.isFinite(fallbackUs)) {
    const t = isoOfUs(fallbackUs);
    if (typeof ev.requestReceivedTimestamp !== 'string') ev.requestReceivedTimestamp = t;
    if (typeof ev.stageTimestamp !== 'string') ev.stageTimestamp = t;
  }
  if (typeof ev.stage !== 'string') ev.stage = 'ResponseComplete';
  return markTruncated(ev);
}

/**
 * An Event from the text of one that was cut (CloudWatch's `[Truncated...]`, AKS's 16 KiB
 * `properties.log`, a trimmed `log_s`) or broken: every member before the break, read by cutEvent.
 */
export function recoverCutEvent(text: string, fallbackUs: number): Record<string, any> {
  const { members, cut } = readAsFarAsItGoes(text);
  return cutEvent({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', ...members }, fallbackUs, cut[0] === 'objectRef');
}

/**
 * The Event in an Event's JSON text that an export may have cut (CloudWatch, AKS's 16 KiB): parsed
 * whole, or, cut, read as far as it goes (recoverCutEvent, truncated); null when the text is no
 * audit Event (another component's log line).
 */
export function eventOfEventText(text: string, ctx: { truncated: boolean; fallbackUs: number }): Record<string, any> | null {
  if (text.charCodeAt(0) !== 0x7b) return null;
  let ev: unknown;
  try {
    ev = JSON.parse(text);
  } catch {
    // JSON cut without a marker: an audit Event if it says so
    if (/^\{\s*"kind"\s*:\s*"Event"/.test(text) || /"auditID"\s*:/.test(text.slice(0, 400))) {
      ctx.truncated = true;
      return recoverCutEvent(text, ctx.fallbackUs);
    }
    return null;
  }
  if (!isObj(ev) || ev.kind !== 'Event') return null;
  if (hasTruncatedMark(ev)) {
    ctx.truncated = true;
    markTruncated(ev);
  }
  return ev;
}
