// Label and field selectors as k8s.io/apimachinery/pkg/labels and pkg/fields parse and match them.
import { badRequest } from './errors.js';
import type { Obj } from './util.js';

export type LabelOp = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';
export interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function labelKeyError(key: string): string | null {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const [prefix, n] = parts;
    if (prefix.length === 0) return 'prefix part must be non-empty';
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return 'prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character';
    name = n;
  } else if (parts.length > 2) {
    return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!QUALIFIED_NAME.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  }
  return null;
}

export function labelValueError(v: string): string | null {
  if (v === '') return null;
  if (v.length > 63) return 'must be no more than 63 characters';
  if (!QUALIFIED_NAME.test(v)) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  }
  return null;
}

type Tok = { t: 'id' | 'op' | '(' | ')' | ',' | 'end'; v: string };

function lexLabels(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const special = new Set([' ', '\t', '\n', '\r', ',', '=', '!', '(', ')', '<', '>']);
  while (i < s.length) {
    const c = s[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if (c === ',') { out.push({ t: ',', v: c }); i++; continue; }
    if (c === '(') { out.push({ t: '(', v: c }); i++; continue; }
    if (c === ')') { out.push({ t: ')', v: c }); i++; continue; }
    if (c === '=' && s[i + 1] === '=') { out.push({ t: 'op', v: '==' }); i += 2; continue; }
    if (c === '!' && s[i + 1] === '=') { out.push({ t: 'op', v: '!=' }); i += 2; continue; }
    if (c === '=' || c === '!' || c === '<' || c === '>') { out.push({ t: 'op', v: c }); i++; continue; }
    let j = i;
    while (j < s.length && !special.has(s[j])) j++;
    out.push({ t: 'id', v: s.slice(i, j) });
    i = j;
  }
  out.push({ t: 'end', v: '' });
  return out;
}

function parseErr(msg: string): never {
  throw badRequest(`unable to parse requirement: ${msg}`);
}

/** labels.Parse: the full string syntax (`=`, `==`, `!=`, `in`, `notin`, `key`, `!key`, `>`, `<`). */
export function parseLabelSelector(s: string | undefined | null): LabelRequirement[] {
  if (!s || s.trim() === '') return [];
  const toks = lexLabels(s);
  let p = 0;
  const reqs: LabelRequirement[] = [];
  const peek = () => toks[p];
  const next = () => toks[p++];
  for (;;) {
    let negate = false;
    if (peek().t === 'op' && peek().v === '!') { negate = true; next(); }
    const keyTok = next();
    if (keyTok.t !== 'id') throw badRequest(`found '${keyTok.v}', expected: identifier`);
    const key = keyTok.v;
    const kerr = labelKeyError(key);
    if (kerr) parseErr(`key: Invalid value: "${key}": ${kerr}`);
    if (negate) {
      reqs.push({ key, op: '!', values: [] });
    } else {
      const t = peek();
      if (t.t === ',' || t.t === 'end') {
        reqs.push({ key, op: 'exists', values: [] });
      } else if (t.t === 'op' || (t.t === 'id' && (t.v === 'in' || t.v === 'notin'))) {
        next();
        if (t.v === 'in' || t.v === 'notin') {
          if (next().t !== '(') throw badRequest(`found '${toks[p - 1].v}', expected: '('`);
          const values: string[] = [];
          if (peek().t === ')') {
            next();
            parseErr(`values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`);
          }
          for (;;) {
            values.push(peek().t === 'id' ? next().v : '');
            const sep = next();
            if (sep.t === ')') break;
            if (sep.t !== ',') throw badRequest(`found '${sep.v}', expected: ',' or ')'`);
          }
          for (const v of values) { const e = labelValueError(v); if (e) parseErr(`values[0][${key}]: Invalid value: "${v}": ${e}`); }
          reqs.push({ key, op: t.v as LabelOp, values: [...new Set(values)].sort() });
        } else {
          const vt = peek();
          let value = '';
          if (vt.t === 'id') { value = vt.v; next(); } else if (vt.t !== ',' && vt.t !== 'end') throw badRequest(`found '${vt.v}', expected: identifier`);
          if (t.v === '>' || t.v === '<') {
            if (!/^-?\d+$/.test(value)) parseErr(`for 'Gt', 'Lt' operators, the value must be an integer`);
            reqs.push({ key, op: t.v === '>' ? 'gt' : 'lt', values: [value] });
          } else {
            const e = labelValueError(value);
            if (e) parseErr(`values[0][${key}]: Invalid value: "${value}": ${e}`);
            reqs.push({ key, op: t.v === '!=' ? '!=' : '=', values: [value] });
          }
        }
      } else {
        throw badRequest(`found '${t.v}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    const sep = next();
    if (sep.t === 'end') break;
    if (sep.t !== ',') throw badRequest(`found '${sep.v}', expected: ',' or 'end of string'`);
  }
  return reqs;
}

export function matchLabels(reqs: LabelRequirement[], labels: Record<string, string> | null | undefined): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case '=': case 'in': if (!has || !r.values.includes(v)) return false; break;
      case '!=': case 'notin': if (has && r.values.includes(v)) return false; break;
      case 'exists': if (!has) return false; break;
      case '!': if (has) return false; break;
      case 'gt': case 'lt': {
        if (!has || !/^-?\d+$/.test(v)) return false;
        const a = Number(v), b = Number(r.values[0]);
        if (r.op === 'gt' ? !(a > b) : !(a < b)) return false;
        break;
      }
    }
  }
  return true;
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

/** Whether a metav1.LabelSelector object (matchLabels/matchExpressions) matches a label map. */
export function matchLabelSelectorObject(sel: Obj | null | undefined, labels: Record<string, string> | null | undefined): boolean {
  if (!sel) return false;
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries((sel.matchLabels ?? {}) as Record<string, string>)) reqs.push({ key: k, op: '=', values: [v] });
  for (const e of (sel.matchExpressions ?? []) as Obj[]) {
    const op = e.operator === 'In' ? 'in' : e.operator === 'NotIn' ? 'notin' : e.operator === 'Exists' ? 'exists' : e.operator === 'DoesNotExist' ? '!' : null;
    if (!op) return false;
    reqs.push({ key: e.key, op, values: (e.values ?? []) as string[] });
  }
  return matchLabels(reqs, labels);
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
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

export function matches(sel: Selector, resource: string, o: Obj): boolean {
  return matchLabels(sel.labels, o.metadata?.labels) && matchFields(sel.fields, resource, o);
}

export function selectorIsEmpty(sel: Selector): boolean {
  return sel.labels.length === 0 && sel.fields.length === 0;
}
