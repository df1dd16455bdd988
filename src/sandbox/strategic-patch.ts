// Strategic merge patch as kube-apiserver applies it: apimachinery's strategicpatch
// (StrategicMergeMapPatch, with the server's options MergeParallelList and IgnoreUnmatchedNulls),
// ported function by function (mergeMap, mergeSlice, mergeSliceWithSpecialElements,
// mergePatchIntoOriginal, applyRetainKeysDirective, normalizeElementOrder, removeDirectives), so
// every directive behaves as on a real server:
//   - `$patch: replace` on a map takes the patch map; `$patch: delete` on a map leaves `{}`;
//   - in a list with a merge key, `{key: v, $patch: delete}` deletes every element with that key
//     and nothing else, `{$patch: replace}` replaces the list with the patch's other elements;
//   - `$retainKeys`, `$setElementOrder/<list>` (validated against the patch list) and
//     `$deleteFromPrimitiveList/<list>` (any list of scalars, whatever its strategy);
//   - lists without a merge strategy, and fields with the `replace` strategy, are replaced.
// Errors carry the server's wording and status (the apiserver's interpretStrategicMergePatchError).

import { ApiError, badRequest, failure, internalError } from './errors.js';
import { isObj } from '../core/guards.js';
import type { Obj } from './util.js';

/** A field's patch metadata: its Go struct tags `patchStrategy` and `patchMergeKey`. */
export interface PatchMeta {
  strategy?: 'merge' | 'replace';
  mergeKey?: string;
}

/** The patch metadata of the field at `path` (list elements add no segment: spec.containers.env). */
export type PatchSchema = (path: readonly string[]) => PatchMeta;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList';

// mergepatch's errors, and the status the apiserver answers each with
const badJsonDoc = () => badRequest('invalid JSON document');
const badPrimitiveListFormat = () => badRequest('invalid patch format of primitive list');
const badRetainKeysFormat = () => badRequest('invalid patch format of retainKeys');
const badSetOrderFormat = () => badRequest('invalid patch format of setElementOrder list');
const noListOfLists = () => new ApiError(failure(422, 'Invalid', 'lists of lists are not supported', {}));
/** Any other error of strategicpatch reaches the client as a 500 with its text. */
const otherError = (message: string) => internalError(message);

/** Go's fmt %v of a JSON value, as the error texts print maps: map[k:v …] with sorted keys. */
function goValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isObj(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goValue(v[k])}`)
      .join(' ')}]`;
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}
const noMergeKey = (m: Obj, key: string) => otherError(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
const badPatchType = (t: unknown, m: Obj) => otherError(`unknown patch type: ${goValue(t)} in map: ${goValue(m)}`);

type Kind = 'map' | 'slice' | 'string' | 'number' | 'bool' | 'nil';
function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (isObj(v)) return 'map';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
}

/** Go's == on two JSON scalars (a merge key value, a list of scalars' element). */
const same = (a: unknown, b: unknown) => a === b;

export function strategicMergePatch(original: Obj, patch: unknown, schema: PatchSchema): Obj {
  if (!isObj(patch)) throw badJsonDoc();
  return mergeMap(original, patch, schema, []);
}

function mergeMap(original: Obj | undefined, patch: Obj, schema: PatchSchema, path: string[]): Obj {
  if (DIRECTIVE in patch) return directiveInMergeMap(patch[DIRECTIVE], patch);
  const out: Obj = original ?? {};
  const rest: Obj = { ...patch };
  applyRetainKeys(out, rest);
  mergePatchIntoOriginal(out, rest, schema, path);
  for (const [key, patchV] of Object.entries(rest)) {
    let k = key;
    let deleteList = false;
    if (key.startsWith(`${DELETE_PRIMITIVE}/`) || key === DELETE_PRIMITIVE) {
      k = extractKey(key, DELETE_PRIMITIVE);
      deleteList = true;
    }
    if (patchV === null) {
      delete out[k];
      continue;
    }
    const meta = schema([...path, k]);
    if (!(k in out) || kindOf(out[k]) !== kindOf(patchV)) {
      if (!deleteList) setWithoutDirectives(out, k, discardNulls(patchV));
      continue;
    }
    switch (kindOf(patchV)) {
      case 'map':
        out[k] = meta.strategy === 'replace' ? patchV : mergeMap(out[k] as Obj, patchV as Obj, schema, [...path, k]);
        break;
      case 'slice':
        out[k] =
          meta.strategy === 'merge' || deleteList
            ? mergeSlice(out[k] as unknown[], patchV as unknown[], schema, [...path, k], meta.mergeKey, deleteList)
            : patchV;
        break;
      default:
        setWithoutDirectives(out, k, patchV);
    }
  }
  return out;
}

function setWithoutDirectives(out: Obj, k: string, v: unknown): void {
  const [value, keep] = removeDirectives(v);
  if (keep) out[k] = value;
  else delete out[k];
}

/** handleDirectiveInMergeMap: replace takes the patch map (less the marker), delete leaves an empty map. */
function directiveInMergeMap(directive: unknown, patch: Obj): Obj {
  if (directive === 'replace') {
    const { [DIRECTIVE]: _, ...rest } = patch;
    return rest;
  }
  if (directive === 'delete') return {};
  throw badPatchType(directive, patch);
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) throw prefix === DELETE_PRIMITIVE ? badPrimitiveListFormat() : badSetOrderFormat();
  return s.slice(slash + 1);
}

/** applyRetainKeysDirective: every key the patch sets must be retained; the others are cleared. */
function applyRetainKeys(original: Obj, patch: Obj): void {
  if (!(RETAIN_KEYS in patch)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badRetainKeysFormat();
  const retained = (k: unknown) => list.some((x) => same(x, k));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(`${DELETE_PRIMITIVE}/`) || k.startsWith(`${SET_ORDER}/`)) continue;
    if (!retained(k)) throw badRetainKeysFormat();
  }
  for (const k of Object.keys(original)) if (!retained(k)) delete original[k];
}

/** mergePatchIntoOriginal: each `$setElementOrder/<list>` with its list, merged and put in that order. */
function mergePatchIntoOriginal(original: Obj, patch: Obj, schema: PatchSchema, path: string[]): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw otherError(`expected a []interface {}, but received a ${goType(order)}`);
    const field = extractKey(key, SET_ORDER);
    const originalList = original[field];
    const patchList = patch[field];
    if (field in original && !Array.isArray(originalList)) throw otherError(`expected a []interface {}, but received a ${goType(originalList)}`);
    if (field in patch && !Array.isArray(patchList)) throw otherError(`expected a []interface {}, but received a ${goType(patchList)}`);
    const meta = schema([...path, field]);
    validateSetOrder((patchList as unknown[] | undefined) ?? [], order, meta.mergeKey);
    let merged: unknown[];
    if (field in original && !(field in patch)) merged = originalList as unknown[];
    else if (!(field in original) && field in patch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (field in original && field in patch) {
      merged =
        meta.strategy === 'merge'
          ? mergeSlice(originalList as unknown[], patchList as unknown[], schema, [...path, field], meta.mergeKey, false)
          : (patchList as unknown[]);
    } else continue;
    const kind = elementKind((originalList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []);
    const [inOrder, serverOnly] = partition(merged, order, meta.mergeKey);
    original[field] = normalizeElementOrder(inOrder, serverOnly, order, (originalList as unknown[] | undefined) ?? [], meta.mergeKey, kind);
    delete patch[field];
  }
}

function goType(v: unknown): string {
  const k = kindOf(v);
  return k === 'map' ? 'map[string]interface {}' : k === 'slice' ? '[]interface {}' : k === 'number' ? 'float64' : k === 'nil' ? '%!s(<nil>)' : k;
}

/** validatePatchWithSetOrderList: the patch list's items appear in the order list, in its order. */
function validateSetOrder(patchList: unknown[], order: unknown[], mergeKey: string | undefined): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? patchList.filter((x) => !(isObj(x) && x[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isObj(item) && DIRECTIVE in item) {
      p++;
      continue;
    }
    if (mergeKeyEqual(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw otherError(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ORDER} list:\n${goValue(order)}\n`);
  }
}

function mergeKeyEqual(left: unknown, right: unknown, mergeKey: string | undefined): boolean {
  if (!mergeKey) return same(left, right);
  if (!isObj(left)) throw otherError(`expected a map[string]interface {}, but received a ${goType(left)}`);
  if (!isObj(right)) throw otherError(`expected a map[string]interface {}, but received a ${goType(right)}`);
  if (!(mergeKey in left)) throw noMergeKey(left, mergeKey);
  if (!(mergeKey in right)) throw noMergeKey(right, mergeKey);
  return same(left[mergeKey], right[mergeKey]);
}

/** removeDirectives: a map holding `$patch` goes (keep = false), everywhere inside the value. */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (isObj(v)) {
    if (DIRECTIVE in v) return [undefined, false];
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const [value, keep] = removeDirectives(x);
      if (keep) out[k] = value;
    }
    return [out, true];
  }
  if (Array.isArray(v))
    return [
      v.flatMap((x) => {
        const [value, keep] = removeDirectives(x);
        return keep ? [value] : [];
      }),
      true,
    ];
  return [v, true];
}

/** discardNullValuesFromPatch: a value new to the object keeps none of the patch's nulls. */
function discardNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(discardNulls);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = discardNulls(x);
  return out;
}

function elementKind(...lists: unknown[][]): Kind | undefined {
  let kind: Kind | undefined;
  for (const l of lists) {
    for (const v of l) {
      const k = kindOf(v);
      if (kind === undefined) {
        if (k === 'slice') throw noListOfLists();
        kind = k;
      } else if (k !== kind) throw otherError(`list element types are not identical: ${goValue(lists)}`);
    }
  }
  return kind;
}

function mergeSlice(original: unknown[], patch: unknown[], schema: PatchSchema, path: string[], mergeKey: string | undefined, deleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  let merged: unknown[];
  let server = original;
  let patchItems = patch;
  if (kind !== 'map') {
    if (deleteList) return original.filter((x) => !patch.some((d) => same(d, x)));
    merged = [];
    for (const v of [...original, ...patch]) if (!merged.some((x) => same(x, v))) merged.push(v);
  } else {
    if (!mergeKey) throw otherError(`cannot merge lists without merge key for ${path[path.length - 1] ?? ''}`);
    [server, patchItems] = withSpecialElements(original, patch, mergeKey);
    merged = withoutSpecialElements(server, patchItems, mergeKey, schema, path);
  }
  const [inPatch, serverOnly] = partition(merged, patchItems, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patchItems, server, mergeKey, kind);
}

/** mergeSliceWithSpecialElements: `$patch: delete` items delete by key; `$patch: replace` takes the patch. */
function withSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let server = original;
  for (const v of patch) {
    const item = v as Obj;
    if (!(DIRECTIVE in item)) {
      plain.push(v);
      continue;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
      server = server.filter((x) => !same((x as Obj)[mergeKey], item[mergeKey]));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw otherError('merging lists cannot yet be specified in the patch');
    else throw badPatchType(directive, item);
  }
  return replace ? [plain, []] : [server, plain];
}

/** mergeSliceWithoutSpecialElements: an item with a known key merges into it, a new one is appended. */
function withoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: PatchSchema, path: string[]): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const item = v as Obj;
    if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
    const at = out.findIndex((x, i) => {
      if (!isObj(x)) throw otherError(`value for key ${i} is not a map`);
      return same(x[mergeKey], item[mergeKey]);
    });
    if (at >= 0) out[at] = mergeMap(out[at] as Obj, item, schema, path);
    else out.push(v);
  }
  return out;
}

const keyOf = (x: unknown, mergeKey: string | undefined) => (mergeKey ? (isObj(x) ? x[mergeKey] : undefined) : x);
const indexIn = (list: unknown[], x: unknown, mergeKey: string | undefined) => {
  const k = keyOf(x, mergeKey);
  return list.findIndex((y) => same(keyOf(y, mergeKey), k));
};

/** partitionMapsByPresentInList / partitionPrimitivesByPresentInList. */
function partition(list: unknown[], by: unknown[], mergeKey: string | undefined): [unknown[], unknown[]] {
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) {
    if (mergeKey && !(isObj(v) && mergeKey in v))
      throw isObj(v) ? noMergeKey(v, mergeKey) : otherError(`expected a map[string]interface {}, but received a ${goType(v)}`);
    (indexIn(by, v, mergeKey) >= 0 ? inBy : rest).push(v);
  }
  return [inBy, rest];
}

/**
 * normalizeElementOrder: the patch's items in the patch's order, the server-only items in the live
 * order, interleaved (mergeSortedSlice) by taking a server-only item first only when both it and
 * the patch item stand in the live list and it stands before.
 */
function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string | undefined,
  kind: Kind | undefined,
): unknown[] {
  const key = kind === 'map' ? mergeKey : undefined;
  const sortBy = (items: unknown[], order: unknown[]) => {
    const at = (x: unknown) => indexIn(order, x, key);
    const kept = kind === 'map' ? items.filter((x) => !(isObj(x) && x[DIRECTIVE] === 'delete')) : items;
    const deleted = kind === 'map' ? items.filter((x) => isObj(x) && x[DIRECTIVE] === 'delete') : [];
    return [
      ...kept
        .map((x, i) => ({ x, i, o: at(x) }))
        .sort((a, b) => (a.o >= 0 && b.o >= 0 ? a.o - b.o : 0) || a.i - b.i)
        .map((e) => e.x),
      ...deleted,
    ];
  };
  const right = sortBy(patch, patchOrder);
  const left = sortBy(serverOnly, serverOrder);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], key);
      const ri = indexIn(serverOrder, right[j], key);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
