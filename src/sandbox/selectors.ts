// Label and field selectors as k8s.io/apimachinery/pkg/labels and pkg/fields parse and match them.
// The label grammar is core's (src/core/selector.ts): kubectl's -l and a request's labelSelector
// are the same labels.Parse, so one port of it, with upstream's messages word for word, serves
// both. It is checked against upstream's words (test/sandbox/selectors.test.ts), not against a
// second copy of itself.
import { labelValueErrors, parseLabelSelector as parseLabels, qualifiedNameErrors, type Selector as LabelSelector } from '../core/selector.js';
import { badRequest } from './errors.js';
import type { Obj } from './util.js';

/** The first of validation.IsQualifiedName's messages, or null. */
export function labelKeyError(key: string): string | null {
  return qualifiedNameErrors(key)[0] ?? null;
}

/** The first of validation.IsValidLabelValue's messages, or null. */
export function labelValueError(v: string): string | null {
  return labelValueErrors(v)[0] ?? null;
}

/** labels.Parse of a request's labelSelector; a bad one is a 400 with the parser's message. */
export function parseLabelSelector(s: string | undefined | null): LabelSelector {
  const r = parseLabels(s ?? '');
  if (!r.ok) throw badRequest(r.error);
  return r.selector;
}

/** metav1.LabelSelectorAsSelector(sel).String(), as the Scale subresource reports it. */
export function labelSelectorString(sel: Obj | null | undefined): string {
  if (!sel) return '';
  const parts: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries((sel.matchLabels ?? {}) as Record<string, string>)) parts.push({ key: k, text: `${k}=${v}` });
  for (const e of (sel.matchExpressions ?? []) as Obj[]) {
    const vals = [...new Set((e.values ?? []) as string[])].sort().join(',');
    if (e.operator === 'In') parts.push({ key: e.key, text: `${e.key} in (${vals})` });
    else if (e.operator === 'NotIn') parts.push({ key: e.key, text: `${e.key} notin (${vals})` });
    else if (e.operator === 'Exists') parts.push({ key: e.key, text: e.key });
    else if (e.operator === 'DoesNotExist') parts.push({ key: e.key, text: `!${e.key}` });
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return parts.map((p) => p.text).join(',');
}

// ---- field selectors ----

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

function get(o: Obj, path: string): unknown {
  let cur: unknown = o;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[p];
  }
  return cur;
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The selectable fields per resource (the registries' ToSelectableFields). */
const FIELDS: Record<string, Record<string, (o: Obj) => string>> = {
  pods: {
    'spec.nodeName': (o) => str(get(o, 'spec.nodeName')),
    'spec.restartPolicy': (o) => str(get(o, 'spec.restartPolicy')),
    'spec.schedulerName': (o) => str(get(o, 'spec.schedulerName')),
    'spec.serviceAccountName': (o) => str(get(o, 'spec.serviceAccountName')),
    'spec.hostNetwork': (o) => String(Boolean(get(o, 'spec.hostNetwork'))),
    'status.phase': (o) => str(get(o, 'status.phase')),
    'status.podIP': (o) => str(get(o, 'status.podIP')),
    'status.nominatedNodeName': (o) => str(get(o, 'status.nominatedNodeName')),
  },
  events: {
    'involvedObject.kind': (o) => str(get(o, 'involvedObject.kind')),
    'involvedObject.namespace': (o) => str(get(o, 'involvedObject.namespace')),
    'involvedObject.name': (o) => str(get(o, 'involvedObject.name')),
    'involvedObject.uid': (o) => str(get(o, 'involvedObject.uid')),
    'involvedObject.apiVersion': (o) => str(get(o, 'involvedObject.apiVersion')),
    'involvedObject.resourceVersion': (o) => str(get(o, 'involvedObject.resourceVersion')),
    'involvedObject.fieldPath': (o) => str(get(o, 'involvedObject.fieldPath')),
    reason: (o) => str(o.reason),
    reportingComponent: (o) => str(o.reportingComponent),
    source: (o) => str(get(o, 'source.component')),
    type: (o) => str(o.type),
  },
  namespaces: { 'status.phase': (o) => str(get(o, 'status.phase')) },
  nodes: { 'spec.unschedulable': (o) => String(Boolean(get(o, 'spec.unschedulable'))) },
  replicasets: { 'status.replicas': (o) => String(get(o, 'status.replicas') ?? 0) },
  replicationcontrollers: { 'status.replicas': (o) => String(get(o, 'status.replicas') ?? 0) },
  leases: {},
};

function unescapeField(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** fields.ParseSelector plus the per-resource field label check. */
export function parseFieldSelector(s: string | undefined | null, resource: string): FieldRequirement[] {
  if (!s || s.trim() === '') return [];
  const out: FieldRequirement[] = [];
  // Split on unescaped commas.
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) { cur += s[i] + s[i + 1]; i++; continue; }
    if (s[i] === ',') { terms.push(cur); cur = ''; continue; }
    cur += s[i];
  }
  terms.push(cur);
  for (const term of terms) {
    const m = /^([^=!]*?)(==|!=|=)(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const field = m[1].trim();
    const op = m[2] === '!=' ? '!=' : '=';
    const value = unescapeField(m[3]);
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !(FIELDS[resource] ?? {})[field]) {
      throw badRequest(`field label not supported: ${field}`);
    }
    out.push({ field, op, value });
  }
  return out;
}

export function fieldValue(resource: string, o: Obj, field: string): string {
  if (field === 'metadata.name') return str(o.metadata?.name);
  if (field === 'metadata.namespace') return str(o.metadata?.namespace);
  const f = (FIELDS[resource] ?? {})[field];
  return f ? f(o) : '';
}

export function matchFields(reqs: FieldRequirement[], resource: string, o: Obj): boolean {
  for (const r of reqs) {
    const v = fieldValue(resource, o, r.field);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

export interface Selector {
  labels: LabelSelector;
  fields: FieldRequirement[];
}

export function matches(sel: Selector, resource: string, o: Obj): boolean {
  return sel.labels.matches(o.metadata?.labels) && matchFields(sel.fields, resource, o);
}

export function selectorIsEmpty(sel: Selector): boolean {
  return sel.labels.everything && sel.fields.length === 0;
}
