// metadata.managedFields as kube-apiserver's field manager writes them for Update operations
// (k8s.io/apimachinery/pkg/util/managedfields/internal and sigs.k8s.io/structured-merge-diff/v6):
// each write compares the live object with the new one (typed.Compare), the fields it added or
// changed become the writer's, and are taken from every other manager, as are the fields it removed.
// The writer is `?fieldManager=` or the User-Agent up to its first "/" (managerOrUserAgent).
import { isObj } from '../core/guards.js';
import { deepEqual, rfc3339, type Obj } from './util.js';
import type { Kind as ResourceDef } from './kinds/kind.js';

/** Who writes, and through which endpoint (the entry's `subresource`). */
export interface FieldManager {
  manager: string;
  subresource?: string;
}

/** A field set as FieldsV1 holds it: a path element per key; `member` = the path itself is owned ("."). */
interface FieldSet {
  member: boolean;
  kids: Map<string, FieldSet>;
}

const newSet = (): FieldSet => ({ member: false, kids: new Map() });

/** validation.FieldManagerMaxLength. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** managerOrUserAgent/prefixFromUserAgent: the characters before the first "/", printable ones, at most 128 bytes. */
export function managerOf(fieldManager: string | null, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]) {
    if (/[\p{C}]/u.test(ch) || (/\s/.test(ch) && ch !== ' ')) continue;
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
  }
  return out;
}

// ---- the schema, as far as the compare needs it ------------------------------------------------

/** Lists that are maps keyed by these fields (+listType=map, +listMapKey) in the stored kinds; resizePolicy is +listType=atomic. */
const LIST_KEYS: Readonly<Record<string, readonly string[]>> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  volumes: ['name'],
  imagePullSecrets: ['name'],
  hostAliases: ['ip'],
  ports: ['containerPort', 'protocol'],
  conditions: ['type'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
  resourceClaims: ['name'],
  schedulingGates: ['name'],
  podIPs: ['ip'],
  hostIPs: ['ip'],
  ownerReferences: ['uid'],
};
/** +listType=set. */
const SET_LISTS = new Set(['finalizers']);
/** Structs and maps replaced whole (+structType=atomic, +mapType=atomic), and the atomic OwnerReference items. */
const ATOMIC_FIELDS = new Set(['selector', 'labelSelector', 'namespaceSelector', 'ownerReferences[]']);

type Shape = { t: 'leaf' } | { t: 'map' } | { t: 'list'; keys: readonly string[] } | { t: 'set' };

function shapeOf(field: string, v: unknown): Shape {
  if (Array.isArray(v)) {
    if (SET_LISTS.has(field)) return { t: 'set' };
    const keys = LIST_KEYS[field];
    return keys ? { t: 'list', keys } : { t: 'leaf' }; // lists without a listType are atomic
  }
  if (isObj(v) && !ATOMIC_FIELDS.has(field)) return { t: 'map' };
  return { t: 'leaf' };
}

/** The path element of a list item: k:{"name":"x"} (key fields sorted), v:"x" for a set. */
function itemElement(shape: Shape, item: unknown): string | null {
  if (shape.t === 'set') return `v:${JSON.stringify(item)}`;
  if (shape.t !== 'list' || !isObj(item)) return null;
  const key: Obj = {};
  for (const k of [...shape.keys].sort()) {
    if (item[k] === undefined) return null;
    key[k] = item[k];
  }
  return `k:${JSON.stringify(key)}`;
}

// ---- typed.Compare -------------------------------------------------------------------------

interface Comparison {
  changed: FieldSet; // Added ∪ Modified
  removed: FieldSet;
}

function insert(set: FieldSet, path: readonly string[]): void {
  let n = set;
  for (const pe of path) {
    let k = n.kids.get(pe);
    if (!k) n.kids.set(pe, (k = newSet()));
    n = k;
  }
  n.member = true;
}

const isEmpty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0);

/**
 * compareWalker: a leaf (scalar, atomic, or empty on both sides) is added, removed or modified as
 * a whole; a map or list is walked, and is itself added (".") when the live object had no value.
 */
function walk(l: unknown, r: unknown, field: string, path: string[], out: Comparison): void {
  // null is a value (a Go zero object's nil slice): the node exists, empty; null on both sides is no change
  if ((l === undefined || l === null) && (r === undefined || r === null)) return;
  const shape = shapeOf(field, r ?? l);
  if (shape.t === 'leaf' || (isEmpty(l) && isEmpty(r))) {
    if (l === undefined) insert(out.changed, path);
    else if (r === undefined) insert(out.removed, path);
    else if (!deepEqual(l, r)) insert(out.changed, path);
    return;
  }
  if (shape.t === 'map') {
    const lm = isObj(l) ? l : {};
    const rm = isObj(r) ? r : {};
    for (const k of new Set([...Object.keys(lm), ...Object.keys(rm)])) {
      if (lm[k] === undefined && rm[k] === undefined) continue;
      walk(lm[k], rm[k], k, [...path, `f:${k}`], out);
    }
  } else if (!walkList(l, r, field, shape, path, out)) {
    if (!deepEqual(l, r)) insert(out.changed, path); // items without their keys: the list as a whole
    return;
  }
  if (l === undefined) insert(out.changed, path);
  else if (r === undefined) insert(out.removed, path);
}

/** visitListItems: items matched by key; false when an item has no key (the list is then compared whole). */
function walkList(l: unknown, r: unknown, field: string, shape: Shape, path: string[], out: Comparison): boolean {
  const index = (v: unknown): Map<string, unknown[]> | null => {
    const m = new Map<string, unknown[]>();
    for (const item of Array.isArray(v) ? v : []) {
      const pe = itemElement(shape, item);
      if (pe === null) return null;
      m.set(pe, [...(m.get(pe) ?? []), item]);
    }
    return m;
  };
  const lItems = index(l);
  const rItems = index(r);
  if (!lItems || !rItems) return false;
  const itemField = `${field}[]`;
  for (const pe of new Set([...lItems.keys(), ...rItems.keys()])) {
    const ls = lItems.get(pe) ?? [];
    const rs = rItems.get(pe) ?? [];
    if (ls.length <= 1 && rs.length <= 1) {
      if (shape.t === 'set') walkLeafItem(ls[0], rs[0], [...path, pe], out);
      else walk(ls[0], rs[0], itemField, [...path, pe], out);
    } else if (!deepEqual(ls, rs)) {
      // duplicated keys: the items are owned together (listEqual in visitListItems)
      insert(ls.length === 0 ? out.changed : rs.length === 0 ? out.removed : out.changed, [...path, pe]);
    }
  }
  return true;
}

function walkLeafItem(l: unknown, r: unknown, path: string[], out: Comparison): void {
  if (l === undefined) insert(out.changed, path);
  else if (r === undefined) insert(out.removed, path);
}

// ---- sets ------------------------------------------------------------------------------------

/** Set.Difference: the members of `b` are no longer members of `a`; empty branches go. */
function difference(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member && !b.member, kids: new Map() };
  for (const [pe, kid] of a.kids) {
    const other = b.kids.get(pe);
    const d = other ? difference(kid, other) : kid;
    if (d.member || d.kids.size > 0) out.kids.set(pe, d);
  }
  return out;
}

function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member || b.member, kids: new Map(a.kids) };
  for (const [pe, kid] of b.kids) {
    const mine = out.kids.get(pe);
    out.kids.set(pe, mine ? union(mine, kid) : kid);
  }
  return out;
}

const empty = (s: FieldSet) => !s.member && s.kids.size === 0;

/** Only the subtree under `pe` (the reset fields of a subresource keep the rest out). */
function only(s: FieldSet, pe: string): FieldSet {
  const kid = s.kids.get(pe);
  return kid ? { member: false, kids: new Map([[pe, kid]]) } : newSet();
}

function without(s: FieldSet, pe: string): FieldSet {
  const kids = new Map(s.kids);
  kids.delete(pe);
  return { member: s.member, kids };
}

/** PathElement order: field names, then keys, then values, then indexes; "." first. */
function peRank(pe: string): number {
  return pe.startsWith('f:') ? 0 : pe.startsWith('k:') ? 1 : pe.startsWith('v:') ? 2 : 3;
}

function toFieldsV1(s: FieldSet): Obj {
  const out: Obj = {};
  if (s.member && s.kids.size > 0) out['.'] = {};
  const pes = [...s.kids.keys()].sort((a, b) => peRank(a) - peRank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const pe of pes) out[pe] = toFieldsV1(s.kids.get(pe)!);
  return out;
}

function fromFieldsV1(v: unknown): FieldSet | null {
  if (!isObj(v)) return null;
  const s = newSet();
  const keys = Object.keys(v);
  if (keys.length === 0) s.member = true;
  for (const k of keys) {
    if (k === '.') {
      s.member = true;
      continue;
    }
    if (!/^[fkvi]:/.test(k)) return null;
    const kid = fromFieldsV1(v[k]);
    if (!kid) return null;
    s.kids.set(k, kid);
  }
  return s;
}

// ---- entries ---------------------------------------------------------------------------------

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  subresource?: string;
  fields: FieldSet;
}

/** BuildManagerIdentifier: manager, operation, subresource, and the apiVersion of an Update. */
const keyOf = (e: Pick<Entry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>) =>
  JSON.stringify([e.manager, e.operation, e.operation === 'Apply' ? '' : e.apiVersion, e.subresource ?? '']);

/** DecodeManagedFields; null when an entry cannot be read (the server then starts from none). */
function decode(list: unknown): Map<string, Entry> | null {
  if (!Array.isArray(list)) return new Map();
  const out = new Map<string, Entry>();
  for (const e of list) {
    if (!isObj(e) || (e.fieldsType !== undefined && e.fieldsType !== 'FieldsV1')) return null;
    const fields = e.fieldsV1 === undefined ? newSet() : fromFieldsV1(e.fieldsV1);
    if (!fields) return null;
    const entry: Entry = {
      manager: String(e.manager ?? ''),
      operation: String(e.operation ?? ''),
      apiVersion: String(e.apiVersion ?? ''),
      time: typeof e.time === 'string' ? e.time : undefined,
      subresource: typeof e.subresource === 'string' && e.subresource !== '' ? e.subresource : undefined,
      fields,
    };
    out.set(keyOf(entry), entry);
  }
  return out;
}

const seconds = (t: string | undefined) => (t ? Math.floor(Date.parse(t) / 1000) : 0);

/** encodeManagedFields and sortEncodedManagedFields: by operation, time (seconds), manager, apiVersion, subresource. */
function encode(entries: Map<string, Entry>): Obj[] | undefined {
  const list = [...entries.values()].filter((e) => !empty(e.fields));
  if (list.length === 0) return undefined;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  list.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
  return list.map((e) => {
    const o: Obj = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) o.time = e.time;
    o.fieldsType = 'FieldsV1';
    o.fieldsV1 = toFieldsV1(e.fields);
    if (e.subresource) o.subresource = e.subresource;
    return o;
  });
}

/**
 * isResetManagedFields: `managedFields: []` (or a single entry with no manager, operation or
 * fields) asks the server to forget every owner.
 */
function isReset(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  if (list.length === 0) return true;
  if (list.length !== 1 || !isObj(list[0])) return false;
  const e = list[0];
  return (
    !e.manager &&
    !e.operation &&
    !e.apiVersion &&
    !e.time &&
    !e.fieldsType &&
    (e.fieldsV1 === undefined || (isObj(e.fieldsV1) && Object.keys(e.fieldsV1).length === 0))
  );
}

// ---- the field manager -----------------------------------------------------------------------

/** The fields the field manager never tracks (stripMetaManager) and a Go zero object's structs. */
const STRIPPED_META = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];

function stripped(o: Obj): Obj {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = o;
  const meta: Obj = { ...(isObj(metadata) ? metadata : {}) };
  for (const k of STRIPPED_META) delete meta[k];
  return { metadata: meta, ...rest };
}

/**
 * The live object of a create: the kind's Go zero value (scope.Creater.New), whose non-pointer
 * structs exist empty, so a create owns their fields but not the structs themselves.
 */
function zeroObject(res: ResourceDef): Obj {
  if (res.zero) return res.zero();
  // The usual shape: non-pointer Spec and Status structs (ObjectMeta always).
  return 'status' in res.subresources ? { metadata: {}, spec: {}, status: {} } : { metadata: {}, spec: {} };
}

/** What the write changed that counts for its manager (the reset fields of its endpoint left out). */
function changes(res: ResourceDef, live: Obj, next: Obj, fm: FieldManager): Comparison {
  const out: Comparison = { changed: newSet(), removed: newSet() };
  walk(stripped(live), stripped(next), '', [], out);
  const scope = (s: FieldSet): FieldSet => {
    const hasStatus = 'status' in res.subresources;
    if (fm.subresource === 'status') return only(s, 'f:status');
    if (fm.subresource === 'scale') {
      const replicas = s.kids.get('f:spec')?.kids.get('f:replicas');
      return replicas ? { member: false, kids: new Map([['f:spec', { member: false, kids: new Map([['f:replicas', replicas]]) }]]) } : newSet();
    }
    const top = hasStatus ? without(s, 'f:status') : s;
    const meta = top.kids.get('f:metadata');
    return meta ? { member: top.member, kids: new Map([...top.kids, ['f:metadata', { ...meta, member: false }]]) } : top;
  };
  return { changed: scope(out.changed), removed: scope(out.removed) };
}

export interface ManagedWrite {
  res: ResourceDef;
  apiVersion: string;
  /** The stored object; undefined for a create. */
  live?: Obj;
  /** The object as the field manager sees it: decoded and defaulted, before admission. */
  next: Obj;
  /** metadata.managedFields as the request (or the patched object) carried them. */
  requested: unknown;
  fm: FieldManager;
  now?: number;
}

/**
 * FieldManager.UpdateNoErrors: the managedFields the written object gets. Its owners start from
 * the request's entries when it sent some (a client may set them; `[]` forgets them all), else
 * from the live object's (always, through a subresource); then managedFieldsUpdater gives the
 * writer what it changed, with the time of the write.
 */
export function managedFieldsAfter(w: ManagedWrite): Obj[] | undefined {
  const liveEntries = w.live?.metadata?.managedFields;
  let owners: Map<string, Entry> | null;
  let fromLive = false;
  if (w.fm.subresource) {
    owners = decode(liveEntries);
    fromLive = true;
  } else if (isReset(w.requested)) owners = new Map();
  else {
    owners = decode(w.requested);
    if (!owners || ![...owners.values()].some((e) => !empty(e.fields))) {
      owners = decode(liveEntries);
      fromLive = true;
    }
  }
  owners ??= new Map(); // entries that cannot be decoded are dropped (emptyManagedFieldsOnErr)
  const { changed, removed } = changes(w.res, w.live ?? zeroObject(w.res), w.next, w.fm);
  // Nothing changed hands: the stored entries stay as they are (IgnoreManagedFieldsTimestampsTransformer).
  if (fromLive && empty(changed) && empty(removed)) return Array.isArray(liveEntries) && liveEntries.length > 0 ? liveEntries : undefined;
  for (const e of owners.values()) e.fields = difference(difference(e.fields, changed), removed);
  if (!empty(changed)) {
    const id = { manager: w.fm.manager, operation: 'Update', apiVersion: w.apiVersion, subresource: w.fm.subresource };
    const prev = owners.get(keyOf(id));
    const fields = prev ? union(prev.fields, changed) : changed;
    // ScaleHandler.ToParent keeps for a scale entry the time the parent had under the entry's
    // autoscaling/v1 identity, which an Update never has there: scale entries carry no time.
    const time = w.fm.subresource === 'scale' ? undefined : rfc3339(w.now);
    owners.set(keyOf(id), { ...id, time, fields });
  }
  capUpdateManagers(owners);
  return encode(owners);
}

/** DefaultMaxUpdateManagers: past it the oldest Update owners are merged into "ancient-changes". */
const MAX_UPDATE_MANAGERS = 10;

/** capManagersManager.capUpdateManagers: oldest first (by time, then identity), per apiVersion. */
function capUpdateManagers(owners: Map<string, Entry>): void {
  const updaters = [...owners.keys()].filter((k) => owners.get(k)!.operation !== 'Apply');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort((a, b) => seconds(owners.get(a)!.time) - seconds(owners.get(b)!.time) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (const key of updaters) {
    if (length <= MAX_UPDATE_MANAGERS) break;
    const e = owners.get(key)!;
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, key);
      continue;
    }
    const id = { manager: 'ancient-changes', operation: 'Update', apiVersion: e.apiVersion };
    let bucket = owners.get(keyOf(id));
    if (!bucket) {
      bucket = { ...id, fields: owners.get(first)!.fields };
      owners.delete(first);
      owners.set(keyOf(id), bucket);
    }
    bucket.fields = union(e.fields, bucket.fields);
    bucket.time = e.time;
    owners.delete(key);
    length--;
  }
}
