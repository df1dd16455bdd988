// Label and field selectors as k8s.io/apimachinery/pkg/labels and pkg/fields parse and match them.
// The label grammar is core's (src/core/selector.ts): kubectl's -l and a request's labelSelector
// are the same labels.Parse, so one port of it, with upstream's messages word for word, serves
// both. It is checked against upstream's words (test/sandbox/selectors.test.ts), not against a
// second copy of itself.
import { parseLabelSelector as parseLabels, type Selector as LabelSelector } from '../core/selector.js';
import { badRequest } from './errors.js';
import type { Kind } from './kinds/kind.js';
import { resourceByName } from './resources.js';
import type { Obj } from './util.js';

/** labels.Parse of a request's labelSelector; a bad one is a 400 with the parser's message. */
export function parseLabelSelector(s: string | undefined | null): LabelSelector {
  const r = parseLabels(s ?? '');
  if (!r.ok) throw badRequest(r.error);
  return r.selector;
}

// ---- field selectors ----

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** A resource's selectable fields (its kind's, kinds/<resource>.ts), by resource name or by kind. */
type FieldsOf = string | Pick<Kind, 'selectableFields'>;

function fieldsOf(resource: FieldsOf): Readonly<Record<string, (o: Obj) => string>> {
  const kind = typeof resource === 'string' ? resourceByName(resource) : resource;
  return kind?.selectableFields ?? {};
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function unescapeField(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** fields.ParseSelector plus the per-resource field label check. */
export function parseFieldSelector(s: string | undefined | null, resource: FieldsOf): FieldRequirement[] {
  if (!s || s.trim() === '') return [];
  const out: FieldRequirement[] = [];
  // Split on unescaped commas.
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i] + s[i + 1];
      i++;
      continue;
    }
    if (s[i] === ',') {
      terms.push(cur);
      cur = '';
      continue;
    }
    cur += s[i];
  }
  terms.push(cur);
  for (const term of terms) {
    const m = /^([^=!]*?)(==|!=|=)(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const field = m[1].trim();
    const op = m[2] === '!=' ? '!=' : '=';
    const value = unescapeField(m[3]);
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !fieldsOf(resource)[field]) {
      throw badRequest(`field label not supported: ${field}`);
    }
    out.push({ field, op, value });
  }
  return out;
}

function fieldValue(resource: FieldsOf, o: Obj, field: string): string {
  if (field === 'metadata.name') return str(o.metadata?.name);
  if (field === 'metadata.namespace') return str(o.metadata?.namespace);
  const f = fieldsOf(resource)[field];
  return f ? f(o) : '';
}

function matchFields(reqs: FieldRequirement[], resource: FieldsOf, o: Obj): boolean {
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

export function matches(sel: Selector, resource: FieldsOf, o: Obj): boolean {
  return sel.labels.matches(o.metadata?.labels) && matchFields(sel.fields, resource, o);
}

export function selectorIsEmpty(sel: Selector): boolean {
  return sel.labels.everything && sel.fields.length === 0;
}
