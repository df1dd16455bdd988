// Validation as k8s.io/kubernetes/pkg/apis/*/validation does it, for the fields the sandbox serves.
import { GoRepr, type FieldError } from './errors.js';
import { jsonFields } from './protobuf/schema.js';
import type { Kind as ResourceDef } from './kinds/kind.js';
import { labelKeyError, labelValueError } from './labels.js';
import { deepEqual, isPlainObject, type Obj } from './util.js';

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

function labelSelectorRepr(sel: Obj): GoRepr {
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

function labelsRepr(m: Record<string, string> | null | undefined): string {
  if (!m) return 'map[string]string(nil)';
  const entries = Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`;
}

function validateLabels(labels: unknown, field: string, errs: FieldError[]): void {
  if (labels === undefined || labels === null) return;
  if (!isPlainObject(labels)) {
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
  if (!isPlainObject(ann)) {
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

function nonNegative(v: unknown, field: string, errs: FieldError[]): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) errs.push({ type: 'Invalid', field, value: v, detail: 'must be an integer' });
  else if (v < 0) errs.push({ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' });
}

function validateContainers(list: unknown, field: string, errs: FieldError[], required: boolean): void {
  if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) {
    if (required) errs.push({ type: 'Required', field });
    return;
  }
  if (!Array.isArray(list)) {
    errs.push({ type: 'Invalid', field, value: list, detail: 'must be a list' });
    return;
  }
  const seen = new Set<string>();
  list.forEach((c: Obj, i) => {
    const f = `${field}[${i}]`;
    if (!isPlainObject(c)) {
      errs.push({ type: 'Invalid', field: f, value: c, detail: 'must be an object' });
      return;
    }
    if (!c.name) errs.push({ type: 'Required', field: `${f}.name` });
    else {
      for (const e of dnsLabelErrors(c.name)) errs.push({ type: 'Invalid', field: `${f}.name`, value: c.name, detail: e });
      if (seen.has(c.name)) errs.push({ type: 'Duplicate', field: `${f}.name`, value: c.name });
      seen.add(c.name);
    }
    if (!c.image) errs.push({ type: 'Required', field: `${f}.image` });
  });
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

export function validatePodSpec(spec: unknown, field: string, errs: FieldError[]): void {
  if (!isPlainObject(spec)) {
    errs.push({ type: 'Required', field: `${field}.containers` });
    return;
  }
  validateContainers(spec.containers, `${field}.containers`, errs, true);
  validateContainers(spec.initContainers, `${field}.initContainers`, errs, false);
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    errs.push({ type: 'NotSupported', field: `${field}.restartPolicy`, value: spec.restartPolicy, detail: 'supported values: "Always", "OnFailure", "Never"' });
  }
  nonNegative(spec.terminationGracePeriodSeconds, `${field}.terminationGracePeriodSeconds`, errs);
  if (spec.nodeName)
    for (const e of dnsSubdomainErrors(spec.nodeName)) errs.push({ type: 'Invalid', field: `${field}.nodeName`, value: spec.nodeName, detail: e });
}

function selectorMatchesLabels(sel: Obj, labels: Record<string, string>): boolean {
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

function validateLabelSelector(sel: Obj, field: string, errs: FieldError[]): boolean {
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

export function validateReplicaSetSpec(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  nonNegative(spec.replicas, 'spec.replicas', errs);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  const tmplLabels = (spec.template?.metadata?.labels ?? {}) as Record<string, string>;
  if (!isPlainObject(spec.selector)) {
    errs.push({ type: 'Required', field: 'spec.selector' });
  } else {
    const ok = validateLabelSelector(spec.selector, 'spec.selector', errs);
    const n = Object.keys(spec.selector.matchLabels ?? {}).length + ((spec.selector.matchExpressions ?? []) as unknown[]).length;
    if (n === 0)
      errs.push({ type: 'Invalid', field: 'spec.selector', value: labelSelectorRepr(spec.selector), detail: 'empty selector is invalid for deployment' });
    if (ok && !selectorMatchesLabels(spec.selector, tmplLabels)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: new GoRepr(labelsRepr(spec.template?.metadata?.labels)),
        detail: '`selector` does not match template `labels`',
      });
    }
  }
  validateTemplate(spec, errs);
}

function validateTemplate(spec: Obj, errs: FieldError[]): void {
  if (!isPlainObject(spec.template)) {
    errs.push({ type: 'Required', field: 'spec.template' });
    return;
  }
  validateLabels(spec.template.metadata?.labels, 'spec.template.metadata.labels', errs);
  validatePodSpec(spec.template.spec, 'spec.template.spec', errs);
  const rp = spec.template.spec?.restartPolicy;
  if (rp !== undefined && rp !== 'Always') {
    errs.push({ type: 'NotSupported', field: 'spec.template.spec.restartPolicy', value: rp, detail: 'supported values: "Always"' });
  }
}

export function validateRCSpec(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  nonNegative(spec.replicas, 'spec.replicas', errs);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  const sel = (spec.selector ?? {}) as Record<string, string>;
  if (Object.keys(sel).length === 0) errs.push({ type: 'Required', field: 'spec.selector' });
  else validateLabels(sel, 'spec.selector', errs);
  if (isPlainObject(spec.template)) {
    const labels = (spec.template.metadata?.labels ?? {}) as Record<string, string>;
    if (Object.keys(sel).length > 0 && !Object.entries(sel).every(([k, v]) => labels[k] === v)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: new GoRepr(labelsRepr(spec.template.metadata?.labels)),
        detail: '`selector` does not match template `labels`',
      });
    }
  }
  validateTemplate(spec, errs);
}

export function validateReplicaStatus(o: Obj, errs: FieldError[]): void {
  const st = (o.status ?? {}) as Obj;
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration', 'terminatingReplicas']) {
    nonNegative(st[f], `status.${f}`, errs);
  }
  const r = st.replicas ?? 0;
  if ((st.fullyLabeledReplicas ?? 0) > r)
    errs.push({ type: 'Invalid', field: 'status.fullyLabeledReplicas', value: st.fullyLabeledReplicas, detail: 'cannot be greater than status.replicas' });
  if ((st.readyReplicas ?? 0) > r)
    errs.push({ type: 'Invalid', field: 'status.readyReplicas', value: st.readyReplicas, detail: 'cannot be greater than status.replicas' });
  if ((st.availableReplicas ?? 0) > r)
    errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: 'cannot be greater than status.replicas' });
  if ((st.availableReplicas ?? 0) > (st.readyReplicas ?? 0))
    errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: 'cannot be greater than readyReplicas' });
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
/** 1 MiB: the most bytes of data a ConfigMap or Secret holds (MaxSecretSize). */
const MAX_DATA_BYTES = 1024 * 1024;

/** validation.IsConfigMapKey, used for ConfigMap and Secret keys. */
export function configMapKeyErrors(key: string): string[] {
  const out: string[] = [];
  if (key.length > 253) out.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) out.push(CONFIG_KEY_MSG);
  if (key === '.') out.push("must not be '.'");
  else if (key === '..') out.push("must not be '..'");
  else if (key.startsWith('..')) out.push("must not start with '..'");
  return out;
}

function dataKeys(m: unknown, field: string, errs: FieldError[]): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) for (const e of configMapKeyErrors(k)) errs.push({ type: 'Invalid', field: `${field}[${k}]`, value: k, detail: e });
}

export function validateConfigMap(o: Obj, errs: FieldError[]): void {
  const data = (isPlainObject(o.data) ? o.data : {}) as Record<string, string>;
  const binary = (isPlainObject(o.binaryData) ? o.binaryData : {}) as Record<string, string>;
  let total = 0;
  dataKeys(data, 'data', errs);
  for (const [k, v] of Object.entries(data)) {
    if (k in binary) errs.push({ type: 'Invalid', field: `data[${k}]`, value: k, detail: 'duplicate of key present in binaryData' });
    total += Buffer.byteLength(String(v ?? ''), 'utf8');
  }
  dataKeys(binary, 'binaryData', errs);
  for (const [k, v] of Object.entries(binary)) {
    if (k in data) errs.push({ type: 'Invalid', field: `binaryData[${k}]`, value: k, detail: 'duplicate of key present in data' });
    total += Buffer.from(String(v ?? ''), 'base64').length;
  }
  if (total > MAX_DATA_BYTES) errs.push({ type: 'TooLong', field: '', detail: `may not be more than ${MAX_DATA_BYTES} bytes` });
}

export function validateSecret(o: Obj, errs: FieldError[]): void {
  const data = (isPlainObject(o.data) ? o.data : {}) as Record<string, string>;
  dataKeys(data, 'data', errs);
  const total = Object.values(data).reduce((n, v) => n + Buffer.from(String(v ?? ''), 'base64').length, 0);
  if (total > MAX_DATA_BYTES) errs.push({ type: 'TooLong', field: 'data', detail: `may not be more than ${MAX_DATA_BYTES} bytes` });
  const has = (k: string) => Object.hasOwn(data, k);
  switch (o.type) {
    case 'kubernetes.io/service-account-token':
      if (!o.metadata?.annotations?.['kubernetes.io/service-account.name'])
        errs.push({ type: 'Required', field: 'metadata.annotations[kubernetes.io/service-account.name]' });
      break;
    case 'kubernetes.io/dockercfg':
      if (!data['.dockercfg']) errs.push({ type: 'Required', field: 'data[.dockercfg]' });
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!data['.dockerconfigjson']) errs.push({ type: 'Required', field: 'data[.dockerconfigjson]' });
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errs.push({ type: 'Required', field: 'data[username]' }, { type: 'Required', field: 'data[password]' });
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data['ssh-privatekey']) errs.push({ type: 'Required', field: 'data[ssh-privatekey]' });
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push({ type: 'Required', field: 'data[tls.crt]' });
      if (!has('tls.key')) errs.push({ type: 'Required', field: 'data[tls.key]' });
      break;
    default:
      break;
  }
}

/** ConfigMaps and Secrets with `immutable: true` keep their data (and stay immutable). */
export function validateImmutableData(o: Obj, old: Obj, fields: string[], errs: FieldError[]): void {
  if (old.immutable !== true) return;
  if (o.immutable !== true) errs.push({ type: 'Forbidden', field: 'immutable', detail: 'field is immutable when `immutable` is set' });
  for (const f of fields)
    if (!deepEqual(o[f] ?? null, old[f] ?? null)) errs.push({ type: 'Forbidden', field: f, detail: 'field is immutable when `immutable` is set' });
}

/** IsValidPercent / a non-negative int, for maxUnavailable and maxSurge. */
function intOrPercent(v: unknown, field: string, errs: FieldError[]): number | undefined {
  if (typeof v === 'number') {
    nonNegative(v, field, errs);
    return undefined;
  }
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) {
    errs.push({
      type: 'Invalid',
      field,
      value: v,
      detail: "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    });
    return undefined;
  }
  return Number(v.slice(0, -1));
}

function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

export function validateDeploymentSpec(o: Obj, errs: FieldError[]): void {
  const spec = (o.spec ?? {}) as Obj;
  validateReplicaSetSpec(o, errs);
  nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errs);
  const strategy = (spec.strategy ?? {}) as Obj;
  if (strategy.type !== 'Recreate' && strategy.type !== 'RollingUpdate') {
    errs.push({ type: 'NotSupported', field: 'spec.strategy.type', value: strategy.type ?? '', detail: 'supported values: "Recreate", "RollingUpdate"' });
  } else if (strategy.type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      errs.push({ type: 'Forbidden', field: 'spec.strategy.rollingUpdate', detail: "may not be specified when strategy `type` is 'Recreate'" });
    }
  } else if (isPlainObject(strategy.rollingUpdate)) {
    const ru = strategy.rollingUpdate;
    const unavailable = intOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
    intOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge', errs);
    if (isZero(ru.maxUnavailable) && isZero(ru.maxSurge)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.strategy.rollingUpdate.maxUnavailable',
        value: ru.maxUnavailable,
        detail: 'may not be 0 when `maxSurge` is 0',
      });
    }
    if (unavailable !== undefined && unavailable > 100) {
      errs.push({ type: 'Invalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: ru.maxUnavailable, detail: 'must not be greater than 100%' });
    }
  }
  if (spec.progressDeadlineSeconds !== undefined && spec.progressDeadlineSeconds !== null) {
    nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds', errs);
    if (typeof spec.progressDeadlineSeconds === 'number' && spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.progressDeadlineSeconds',
        value: spec.progressDeadlineSeconds,
        detail: 'must be greater than minReadySeconds',
      });
    }
  }
}

export function validateDeploymentStatus(o: Obj, errs: FieldError[]): void {
  const st = (o.status ?? {}) as Obj;
  for (const f of [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'terminatingReplicas',
    'collisionCount',
  ]) {
    nonNegative(st[f], `status.${f}`, errs);
  }
  const r = st.replicas ?? 0;
  const msg = 'cannot be greater than status.replicas';
  if ((st.updatedReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.updatedReplicas', value: st.updatedReplicas, detail: msg });
  if ((st.readyReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.readyReplicas', value: st.readyReplicas, detail: msg });
  if ((st.availableReplicas ?? 0) > r) errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: msg });
  if ((st.availableReplicas ?? 0) > (st.readyReplicas ?? 0))
    errs.push({ type: 'Invalid', field: 'status.availableReplicas', value: st.availableReplicas, detail: 'cannot be greater than readyReplicas' });
}

export function validateEvent(o: Obj, errs: FieldError[]): void {
  const ns = o.metadata?.namespace ?? '';
  const inv = (o.involvedObject ?? {}) as Obj;
  if (!o.eventTime) {
    if (!inv.namespace) {
      if (ns !== '' && ns !== 'default')
        errs.push({ type: 'Invalid', field: 'involvedObject.namespace', value: inv.namespace ?? '', detail: 'does not match event.namespace' });
    } else if (ns !== inv.namespace) {
      errs.push({ type: 'Invalid', field: 'involvedObject.namespace', value: inv.namespace, detail: 'does not match event.namespace' });
    }
  } else {
    if (!inv.namespace && ns !== 'default' && ns !== 'kube-system')
      errs.push({ type: 'Invalid', field: 'involvedObject.namespace', value: inv.namespace ?? '', detail: 'does not match event.namespace' });
    if (!o.reportingComponent) errs.push({ type: 'Required', field: 'reportingController' });
    else {
      const e = labelKeyError(o.reportingComponent);
      if (e) errs.push({ type: 'Invalid', field: 'reportingController', value: o.reportingComponent, detail: e });
    }
    if (!o.reportingInstance) errs.push({ type: 'Required', field: 'reportingInstance' });
    else if (o.reportingInstance.length > 128) errs.push({ type: 'Invalid', field: 'reportingInstance', value: '', detail: 'can have at most 128 characters' });
    if (!o.action) errs.push({ type: 'Required', field: 'action' });
    else if (o.action.length > 128) errs.push({ type: 'Invalid', field: 'action', value: '', detail: 'can have at most 128 characters' });
    if (!o.reason) errs.push({ type: 'Required', field: 'reason' });
    else if (o.reason.length > 128) errs.push({ type: 'Invalid', field: 'reason', value: '', detail: 'can have at most 128 characters' });
    if (o.message && o.message.length > 1024) errs.push({ type: 'Invalid', field: 'message', value: '', detail: 'can have at most 1024 characters' });
  }
  if (o.type && o.type !== 'Normal' && o.type !== 'Warning') {
    errs.push({ type: 'NotSupported', field: 'type', value: o.type, detail: 'supported values: "Normal", "Warning"' });
  }
}

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

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodUpdate: only images, activeDeadlineSeconds, tolerations and the grace period may change. */
export function validatePodUpdate(o: Obj, old: Obj, errs: FieldError[]): void {
  const mask = (spec: Obj | undefined): Obj => {
    const s = { ...(spec ?? {}) };
    const strip = (l: unknown) => (Array.isArray(l) ? l.map((c: Obj) => ({ ...c, image: undefined })) : l);
    s.containers = strip(s.containers);
    s.initContainers = strip(s.initContainers);
    delete s.activeDeadlineSeconds;
    delete s.tolerations;
    delete s.terminationGracePeriodSeconds;
    return s;
  };
  if (!deepEqual(mask(o.spec), mask(old.spec))) errs.push({ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN });
}

/** apps/v1 ValidateReplicaSetUpdate / ValidateDeploymentUpdate: spec.selector is immutable. */
export function validateSelectorImmutable(o: Obj, old: Obj, errs: FieldError[]): void {
  if (isPlainObject(o.spec?.selector) && !deepEqual(o.spec.selector, old.spec?.selector)) {
    errs.push({ type: 'Invalid', field: 'spec.selector', value: labelSelectorRepr(o.spec.selector), detail: 'field is immutable' });
  }
}

/** ValidateSecretUpdate: type is immutable, and data when `immutable: true`. */
export function validateSecretUpdate(o: Obj, old: Obj, errs: FieldError[]): void {
  if ((o.type ?? '') !== (old.type ?? '')) errs.push({ type: 'Invalid', field: 'type', value: o.type ?? '', detail: 'field is immutable' });
  validateImmutableData(o, old, ['data'], errs);
}

/** Resource-specific update rules (immutable fields). */
export function validateUpdate(res: ResourceDef, o: Obj, old: Obj, errs: FieldError[]): void {
  res.validateUpdate?.(o, old, errs);
}

/** ValidatePodStatusUpdate: the phase is one of the known ones. */
export function validatePodStatus(o: Obj, errs: FieldError[]): void {
  const phase = o.status?.phase;
  if (phase !== undefined && !['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'].includes(phase)) {
    errs.push({
      type: 'NotSupported',
      field: 'status.phase',
      value: phase,
      detail: 'supported values: "Failed", "Pending", "Running", "Succeeded", "Unknown"',
    });
  }
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
  if (!isPlainObject(o)) return;
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
      if (isPlainObject(v)) for (const [key, item] of Object.entries(v)) unknownIn(item, inner, `${prefix}${k}[${key}].`, out);
    } else unknownIn(v, inner, `${prefix}${k}.`, out);
  }
}
