// Validation as k8s.io/kubernetes/pkg/apis/*/validation does it, for the fields the sandbox serves.
// This file holds what every kind shares (apimachinery's api/validation and meta/v1/validation:
// names, object meta, labels, label selectors), the per-kind dispatch and the strict field check;
// the kinds' own rules are in validation-core.ts (core/v1) and validation-apps.ts (apps/v1).
import { GoRepr, type FieldError } from './errors.js';
import { jsonFields } from './protobuf/schema.js';
import type { Kind as ResourceDef } from './kinds/kind.js';
import { labelKeyError, labelValueError } from './labels.js';
import { isObj } from '../core/guards.js';
import type { Obj } from './util.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

export function dnsLabelErrors(v: string): string[] {
  const out: string[] = [];
  if (v.length > 63) out.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(v)) out.push(LABEL_MSG);
  return out;
}

export function dnsSubdomainErrors(v: string): string[] {
  const out: string[] = [];
  if (v.length > 253) out.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(v)) out.push(SUBDOMAIN_MSG);
  return out;
}

function nameErrors(res: ResourceDef, name: string): string[] {
  return res.nameErrors ? res.nameErrors(name) : dnsSubdomainErrors(name);
}

/** path.ValidatePathSegmentName (Events): anything but "." / ".." and names containing "/" or "%". */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  if (name.includes('/')) return ["may not contain '/'"];
  if (name.includes('%')) return ["may not contain '%'"];
  return [];
}

let fakeAddr = 0xc000120000;
/** How Go's %#v prints a *bool: a pointer address (the value is not shown). */
function boolPtr(v: unknown): string {
  if (v === undefined || v === null) return '(*bool)(nil)';
  fakeAddr += 0x18;
  return `(*bool)(0x${fakeAddr.toString(16)})`;
}

function ownerRefsRepr(refs: Obj[]): GoRepr {
  const items = refs.map(
    (r) =>
      `v1.OwnerReference{APIVersion:${JSON.stringify(r.apiVersion ?? '')}, Kind:${JSON.stringify(r.kind ?? '')}, Name:${JSON.stringify(r.name ?? '')}, UID:${JSON.stringify(r.uid ?? '')}, Controller:${boolPtr(r.controller)}, BlockOwnerDeletion:${boolPtr(r.blockOwnerDeletion)}}`,
  );
  return new GoRepr(`[]v1.OwnerReference{${items.join(', ')}}`);
}

export function labelSelectorRepr(sel: Obj): GoRepr {
  const ml = sel.matchLabels ? labelsRepr(sel.matchLabels) : 'map[string]string(nil)';
  const exprs = (sel.matchExpressions ?? []) as Obj[];
  const me = exprs.length
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map(
          (e) =>
            `v1.LabelSelectorRequirement{Key:${JSON.stringify(e.key ?? '')}, Operator:${JSON.stringify(e.operator ?? '')}, Values:${e.values ? `[]string{${(e.values as string[]).map((x) => JSON.stringify(x)).join(', ')}}` : '[]string(nil)'}}`,
        )
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoRepr(`v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`);
}

export function labelsRepr(m: Record<string, string> | null | undefined): string {
  if (!m) return 'map[string]string(nil)';
  const entries = Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`;
}

export function validateLabels(labels: unknown, field: string, errs: FieldError[]): void {
  if (labels === undefined || labels === null) return;
  if (!isObj(labels)) {
    errs.push({ type: 'Invalid', field, value: labels, detail: 'must be a map of strings' });
    return;
  }
  for (const [k, v] of Object.entries(labels)) {
    const ke = labelKeyError(k);
    if (ke) errs.push({ type: 'Invalid', field, value: k, detail: ke });
    if (typeof v !== 'string') errs.push({ type: 'Invalid', field, value: v, detail: 'must be a string' });
    else {
      const ve = labelValueError(v);
      if (ve) errs.push({ type: 'Invalid', field, value: v, detail: ve });
    }
  }
}

function validateAnnotations(ann: unknown, field: string, errs: FieldError[]): void {
  if (ann === undefined || ann === null) return;
  if (!isObj(ann)) {
    errs.push({ type: 'Invalid', field, value: ann, detail: 'must be a map of strings' });
    return;
  }
  let total = 0;
  for (const [k, v] of Object.entries(ann)) {
    const ke = labelKeyError(k.toLowerCase());
    if (ke) errs.push({ type: 'Invalid', field, value: k, detail: ke });
    total += k.length + String(v).length;
  }
  if (total > 256 * 1024) errs.push({ type: 'TooLong', field, detail: 'must have at most 262144 bytes' });
}

function validateOwnerRefs(refs: unknown, errs: FieldError[]): void {
  if (refs === undefined || refs === null) return;
  const field = 'metadata.ownerReferences';
  if (!Array.isArray(refs)) {
    errs.push({ type: 'Invalid', field, value: refs, detail: 'must be a list' });
    return;
  }
  let controller: string | null = null;
  for (const r of refs as Obj[]) {
    if (!r.apiVersion) errs.push({ type: 'Invalid', field: `${field}.apiVersion`, value: r.apiVersion ?? '', detail: 'version must not be empty' });
    if (!r.kind) errs.push({ type: 'Invalid', field: `${field}.kind`, value: r.kind ?? '', detail: 'kind must not be empty' });
    if (!r.name) errs.push({ type: 'Invalid', field: `${field}.name`, value: r.name ?? '', detail: 'name must not be empty' });
    if (!r.uid) errs.push({ type: 'Invalid', field: `${field}.uid`, value: r.uid ?? '', detail: 'uid must not be empty' });
    if (r.controller === true) {
      const id = `${r.kind}/${r.name}`;
      if (controller !== null) {
        errs.push({
          type: 'Invalid',
          field,
          value: ownerRefsRepr(refs as Obj[]),
          detail: `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${id}`,
        });
      } else controller = id;
    }
  }
}

function validateFinalizers(fin: unknown, errs: FieldError[]): void {
  if (fin === undefined || fin === null) return;
  if (!Array.isArray(fin)) {
    errs.push({ type: 'Invalid', field: 'metadata.finalizers', value: fin, detail: 'must be a list of strings' });
    return;
  }
  fin.forEach((f, i) => {
    const e = typeof f === 'string' ? labelKeyError(f) : 'must be a string';
    if (e) errs.push({ type: 'Invalid', field: `metadata.finalizers[${i}]`, value: f, detail: e });
  });
}

/** ValidateObjectMeta: name, namespace, labels, annotations, ownerReferences, finalizers. */
export function validateObjectMeta(res: ResourceDef, meta: Obj, errs: FieldError[]): void {
  const name = meta.name ?? '';
  if (!name) errs.push({ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' });
  else for (const e of nameErrors(res, name)) errs.push({ type: 'Invalid', field: 'metadata.name', value: name, detail: e });
  if (res.namespaced) {
    if (!meta.namespace) errs.push({ type: 'Required', field: 'metadata.namespace' });
    else for (const e of dnsLabelErrors(meta.namespace)) errs.push({ type: 'Invalid', field: 'metadata.namespace', value: meta.namespace, detail: e });
  } else if (meta.namespace) {
    errs.push({ type: 'Forbidden', field: 'metadata.namespace', detail: 'not allowed on this type' });
  }
  validateLabels(meta.labels, 'metadata.labels', errs);
  validateAnnotations(meta.annotations, 'metadata.annotations', errs);
  validateOwnerRefs(meta.ownerReferences, errs);
  validateFinalizers(meta.finalizers, errs);
}

/** ValidateObjectMetaUpdate: identity fields cannot change. */
export function validateObjectMetaUpdate(res: ResourceDef, meta: Obj, old: Obj, errs: FieldError[]): void {
  validateObjectMeta(res, meta, errs);
  if (meta.uid !== old.uid) errs.push({ type: 'Invalid', field: 'metadata.uid', value: meta.uid ?? '', detail: 'field is immutable' });
  if ((meta.name ?? '') !== old.name) errs.push({ type: 'Invalid', field: 'metadata.name', value: meta.name ?? '', detail: 'field is immutable' });
  if ((meta.namespace ?? '') !== (old.namespace ?? ''))
    errs.push({ type: 'Invalid', field: 'metadata.namespace', value: meta.namespace ?? '', detail: 'field is immutable' });
}

export function nonNegative(v: unknown, field: string, errs: FieldError[]): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) errs.push({ type: 'Invalid', field, value: v, detail: 'must be an integer' });
  else if (v < 0) errs.push({ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' });
}

export function selectorMatchesLabels(sel: Obj, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries((sel.matchLabels ?? {}) as Record<string, string>)) if (labels[k] !== v) return false;
  for (const e of (sel.matchExpressions ?? []) as Obj[]) {
    const has = Object.hasOwn(labels, e.key);
    const vals = (e.values ?? []) as string[];
    if (e.operator === 'In' && !(has && vals.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && vals.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

export function validateLabelSelector(sel: Obj, field: string, errs: FieldError[]): boolean {
  let ok = true;
  validateLabels(sel.matchLabels, `${field}.matchLabels`, errs);
  ((sel.matchExpressions ?? []) as Obj[]).forEach((e, i) => {
    const f = `${field}.matchExpressions[${i}]`;
    const vals = (e.values ?? []) as string[];
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (vals.length === 0) {
        errs.push({ type: 'Required', field: `${f}.values`, detail: "must be specified when `operator` is 'In' or 'NotIn'" });
        ok = false;
      }
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (vals.length > 0) {
        errs.push({ type: 'Forbidden', field: `${f}.values`, detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
        ok = false;
      }
    } else {
      errs.push({ type: 'Invalid', field: `${f}.operator`, value: e.operator ?? '', detail: 'not a valid selector operator' });
      ok = false;
    }
    const ke = labelKeyError(String(e.key ?? ''));
    if (ke) {
      errs.push({ type: 'Invalid', field: `${f}.key`, value: e.key ?? '', detail: ke });
      ok = false;
    }
  });
  return ok;
}

/** coordination.k8s.io/v1 ValidateLeaseSpec: the one rule of a kind too small for a file of its own. */
export function validateLease(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds !== null && !(spec.leaseDurationSeconds > 0)) {
    errs.push({ type: 'Invalid', field: 'spec.leaseDurationSeconds', value: spec.leaseDurationSeconds, detail: 'must be greater than 0' });
  }
  nonNegative(spec.leaseTransitions, 'spec.leaseTransitions', errs);
}

/** Resource-specific validation of a whole object (create, or update of the main resource). */
export function validateObject(res: ResourceDef, o: Obj, errs: FieldError[]): void {
  res.validate?.(o, errs);
}

/** Resource-specific update rules (immutable fields). */
export function validateUpdate(res: ResourceDef, o: Obj, old: Obj, errs: FieldError[]): void {
  res.validateUpdate?.(o, old, errs);
}

/** Status-subresource validation (only status is checked, the rest was copied from the stored object). */
export function validateStatus(res: ResourceDef, o: Obj, errs: FieldError[]): void {
  res.validateStatus?.(o, errs);
}

// ---- fieldValidation=Strict: unknown fields ----

/**
 * The unknown fields of a request body, named as the strict decoder names them
 * (`spec.template.spec.containers[0].foo`), at every depth: the field tables of the API types
 * (./protobuf/schema.ts, from upstream's generated.proto) say which fields each type has.
 */
export function unknownFields(res: ResourceDef, o: Obj): string[] {
  const type = res.protobuf;
  const out: string[] = [];
  if (type) unknownIn(o, type, '', out, true);
  return out;
}

function unknownIn(o: unknown, type: string, prefix: string, out: string[], top = false): void {
  if (!isObj(o)) return;
  const fields = jsonFields(type);
  if (!fields) return; // a special type (Time, Quantity, RawExtension…): no fields of its own
  for (const [k, v] of Object.entries(o)) {
    if (top && (k === 'apiVersion' || k === 'kind')) continue;
    const f = fields.get(k);
    if (!f) {
      out.push(`${prefix}${k}`);
      continue;
    }
    if (f.value.kind !== 'object') continue;
    const inner = f.value.type;
    if (f.list) {
      if (Array.isArray(v)) {
        v.forEach((item, i) => {
          unknownIn(item, inner, `${prefix}${k}[${i}].`, out);
        });
      }
    } else if (f.map) {
      if (isObj(v)) for (const [key, item] of Object.entries(v)) unknownIn(item, inner, `${prefix}${k}[${key}].`, out);
    } else unknownIn(v, inner, `${prefix}${k}.`, out);
  }
}
