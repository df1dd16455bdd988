// JSON patch (RFC 6902), JSON merge patch (RFC 7386) and strategic merge patch (strategic-patch.ts,
// with the list strategies each kind declares, kinds/<resource>.ts), applied to plain JSON.
import { ApiError, badRequest, failure } from './errors.js';
import type { Kind, ListStrategy } from './kinds/kind.js';
import { resourceForKind } from './resources.js';
import { strategicMergePatch, type PatchSchema } from './strategic-patch.js';
import { isObj } from '../core/guards.js';
import { clone, deepEqual, type Obj } from './util.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * What the server answers when a JSON patch does not apply (a failed `test`, a missing path, a bad
 * index, an unknown op): the apiserver's jsonPatcher wraps every error of evanphx/json-patch's
 * Apply in errors.NewGenericServerResponse(422, "", GroupResource{}, "", err.Error(), 0, false),
 * which keeps only the generic 422 text: reason Invalid, empty details, no causes, and the
 * json-patch error (`_detail`, e.g. "testing value /metadata/labels/app failed: test failed") is
 * not sent.
 */
function patchRejected(_detail: string): ApiError {
  return new ApiError(failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {}));
}

// ---------------- JSON patch ----------------

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw patchRejected(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

interface Container {
  parent: any;
  key: string;
}

function locate(doc: any, parts: string[], op: string, path: string): Container {
  let cur = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const p = parts[i];
    if (Array.isArray(cur)) {
      const idx = Number(p);
      if (!/^\d+$/.test(p) || idx >= cur.length) throw patchRejected(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
      cur = cur[idx];
    } else if (isObj(cur) && p in cur && cur[p] !== null) {
      cur = cur[p];
    } else {
      throw patchRejected(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    }
  }
  if (!Array.isArray(cur) && !isObj(cur)) throw patchRejected(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return { parent: cur, key: parts[parts.length - 1] };
}

function getAt(doc: any, path: string, op: string): any {
  const parts = pointer(path);
  if (parts.length === 0) return doc;
  const { parent, key } = locate(doc, parts, op, path);
  if (Array.isArray(parent)) {
    const idx = Number(key);
    if (!/^\d+$/.test(key) || idx >= parent.length) throw patchRejected(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    return parent[idx];
  }
  if (!(key in parent)) throw patchRejected(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return parent[key];
}

function addAt(doc: any, path: string, value: any, op = 'add'): any {
  const parts = pointer(path);
  if (parts.length === 0) return value;
  const { parent, key } = locate(doc, parts, op, path);
  if (Array.isArray(parent)) {
    if (key === '-') parent.push(value);
    else {
      const idx = Number(key);
      if (!/^\d+$/.test(key) || idx > parent.length) throw patchRejected(`Unable to access invalid index: ${key}: invalid index referenced`);
      parent.splice(idx, 0, value);
    }
  } else parent[key] = value;
  return doc;
}

function removeAt(doc: any, path: string, op = 'remove'): any {
  const parts = pointer(path);
  const { parent, key } = locate(doc, parts, op, path);
  if (Array.isArray(parent)) {
    const idx = Number(key);
    if (!/^\d+$/.test(key) || idx >= parent.length) throw patchRejected(`Unable to remove nonexistent key: ${key}: missing value`);
    parent.splice(idx, 1);
  } else {
    if (!(key in parent)) throw patchRejected(`Unable to remove nonexistent key: ${key}: missing value`);
    delete parent[key];
  }
  return doc;
}

export function applyJsonPatch(target: Obj, patch: unknown): Obj {
  if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc: any = clone(target);
  for (const raw of patch) {
    if (!isObj(raw)) throw badRequest('json: cannot unmarshal into Go value of type jsonpatch.Operation');
    const op = raw.op;
    const path = raw.path;
    if (typeof path !== 'string') throw patchRejected(`${op} operation does not apply: doc is missing path: "": missing value`);
    switch (op) {
      case 'add':
        doc = addAt(doc, path, clone(raw.value));
        break;
      case 'remove':
        doc = removeAt(doc, path);
        break;
      case 'replace': {
        const parts = pointer(path);
        if (parts.length === 0) {
          doc = clone(raw.value);
          break;
        }
        const { parent, key } = locate(doc, parts, 'replace', path);
        if (Array.isArray(parent)) {
          const idx = Number(key);
          if (!/^\d+$/.test(key) || idx >= parent.length) throw patchRejected(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          parent[idx] = clone(raw.value);
        } else {
          if (!(key in parent)) throw patchRejected(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          parent[key] = clone(raw.value);
        }
        break;
      }
      case 'move': {
        const v = getAt(doc, raw.from, 'move');
        doc = removeAt(doc, raw.from, 'move');
        doc = addAt(doc, path, v, 'move');
        break;
      }
      case 'copy':
        doc = addAt(doc, path, clone(getAt(doc, raw.from, 'copy')), 'copy');
        break;
      case 'test': {
        let v: unknown;
        try {
          v = getAt(doc, path, 'test');
        } catch {
          v = undefined;
        }
        if (!deepEqual(v, raw.value === undefined ? null : raw.value) && !(v === undefined && raw.value === null)) {
          throw patchRejected(`testing value ${path} failed: test failed`);
        }
        break;
      }
      default:
        throw patchRejected(`Unexpected kind: ${String(op)}`);
    }
  }
  if (!isObj(doc)) throw badRequest('the patch result is not a JSON object');
  return doc;
}

// ---------------- JSON merge patch ----------------

function mergeValue(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return clone(patch);
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeValue(out[k], v);
  }
  return out;
}

export function applyMergePatch(target: Obj, patch: unknown): Obj {
  if (!isObj(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  return mergeValue(clone(target), patch) as Obj;
}

// ---------------- strategic merge patch ----------------

/** A kind by its Kind name ('Pod'), or the kind itself; undefined (e.g. Scale): only the generic lists. */
function kindOf(kind: string | Kind | undefined): Kind | undefined {
  return typeof kind === 'string' ? resourceForKind(undefined, kind) : kind;
}

/**
 * The patch strategy of a list field, from the Go struct tags of the built-in types: ObjectMeta's
 * and conditions' are known to every kind, the rest the kind says (its listStrategy).
 */
function listStrategy(kind: string | Kind | undefined, path: string[]): ListStrategy {
  const p = path.join('.');
  if (p === 'metadata.ownerReferences') return { merge: true, mergeKey: 'uid' };
  if (p === 'metadata.finalizers') return { merge: true };
  if (p === 'status.conditions') return { merge: true, mergeKey: 'type' };
  return kindOf(kind)?.listStrategy?.(path) ?? { merge: false };
}

/** The patch schema of a built-in kind: its lists' strategies and merge keys (maps merge by default). */
function schemaOf(kind: string | Kind | undefined): PatchSchema {
  const k = kindOf(kind);
  return (path) => {
    const l = listStrategy(k, [...path]);
    return l.merge ? { strategy: 'merge', mergeKey: l.mergeKey } : {};
  };
}

export function applyStrategicMergePatch(kind: string | Kind | undefined, target: Obj, patch: unknown): Obj {
  return strategicMergePatch(clone(target), patch, schemaOf(kind));
}

export function applyPatch(contentType: string, kind: string | Kind | undefined, target: Obj, patch: unknown): Obj {
  switch (contentType) {
    case JSON_PATCH:
      return applyJsonPatch(target, patch);
    case MERGE_PATCH:
      return applyMergePatch(target, patch);
    case STRATEGIC_MERGE_PATCH:
      return applyStrategicMergePatch(kind, target, patch);
    default:
      throw new ApiError(
        failure(
          415,
          'UnsupportedMediaType',
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
        ),
      );
  }
}
