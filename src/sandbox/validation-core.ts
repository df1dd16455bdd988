// core/v1 validation as k8s.io/kubernetes/pkg/apis/core/validation does it, for the fields the
// sandbox serves: pods (spec, containers, updates, status), pod templates, ReplicationControllers,
// ConfigMaps, Secrets and Events.
import { GoRepr, type FieldError } from './errors.js';
import { labelKeyError } from './labels.js';
import { isObj } from '../core/guards.js';
import { deepEqual, type Obj } from './util.js';
import { dnsLabelErrors, dnsSubdomainErrors, labelsRepr, nonNegative, validateLabels } from './validation.js';

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
    if (!isObj(c)) {
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
  if (!isObj(spec)) {
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

export function validateTemplate(spec: Obj, errs: FieldError[]): void {
  if (!isObj(spec.template)) {
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
  if (isObj(spec.template)) {
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

/** Also apps/v1 ValidateReplicaSetStatus: the same counts and bounds. */
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
function configMapKeyErrors(key: string): string[] {
  const out: string[] = [];
  if (key.length > 253) out.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) out.push(CONFIG_KEY_MSG);
  if (key === '.') out.push("must not be '.'");
  else if (key === '..') out.push("must not be '..'");
  else if (key.startsWith('..')) out.push("must not start with '..'");
  return out;
}

function dataKeys(m: unknown, field: string, errs: FieldError[]): void {
  if (!isObj(m)) return;
  for (const k of Object.keys(m)) for (const e of configMapKeyErrors(k)) errs.push({ type: 'Invalid', field: `${field}[${k}]`, value: k, detail: e });
}

export function validateConfigMap(o: Obj, errs: FieldError[]): void {
  const data = (isObj(o.data) ? o.data : {}) as Record<string, string>;
  const binary = (isObj(o.binaryData) ? o.binaryData : {}) as Record<string, string>;
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
  const data = (isObj(o.data) ? o.data : {}) as Record<string, string>;
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

/** ValidateSecretUpdate: type is immutable, and data when `immutable: true`. */
export function validateSecretUpdate(o: Obj, old: Obj, errs: FieldError[]): void {
  if ((o.type ?? '') !== (old.type ?? '')) errs.push({ type: 'Invalid', field: 'type', value: o.type ?? '', detail: 'field is immutable' });
  validateImmutableData(o, old, ['data'], errs);
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
