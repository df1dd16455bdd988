// Label selectors as upstream converts and matches them (apimachinery LabelSelectorAsSelector,
// labels.NewRequirement, Requirement.Matches). An invalid selector is an error value, never
// silently "match all" or "match nothing": the sync skips that controller (§2 step 4).

import type { LabelSelector, Labels } from './types.js';

export type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[]; // sorted, as upstream stores them
}

export interface Selector {
  /** Matches nothing at all (a nil selector). */
  readonly nothing: boolean;
  /** No requirement: matches every pod (an empty, non-nil selector). */
  readonly everything: boolean;
  readonly requirements: readonly Requirement[];
  matches(labels: Labels | null | undefined): boolean;
  /** The first requirement a label set fails, in words; null when it matches. */
  explainMismatch(labels: Labels | null | undefined): string | null;
  toString(): string;
}

export type SelectorResult = { ok: true; selector: Selector } | { ok: false; error: string };

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Errors of validation.IsQualifiedName (empty list when valid). */
export function qualifiedNameErrors(key: string): string[] {
  const parts = key.split('/');
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
    else if (!DNS1123_SUBDOMAIN_RE.test(prefix))
      errs.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character");
  } else {
    return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character with an optional DNS subdomain prefix and '/'"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  else if (!NAME_RE.test(name))
    errs.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  return errs;
}

/** Errors of validation.IsValidLabelValue (empty list when valid). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE_RE.test(value))
    errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  return errs;
}

function newRequirement(key: string, operator: Operator, values: string[]): Requirement | string {
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) return `key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`;
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) return "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty";
      break;
    case '=':
    case '!=':
      if (values.length !== 1) return 'values: Invalid value: exact-match compatibility requires one single value';
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1 || !/^-?\d+$/.test(values[0])) return `values: Invalid value: ${JSON.stringify(values)}: for 'Gt', 'Lt' operators, exactly one integer value is required`;
      return { key, operator, values: [...values] };
    case 'exists':
    case '!':
      if (values.length !== 0) return 'values: Invalid value: values set must be empty for exists and does not exist';
      break;
  }
  for (const v of values) {
    const errs = labelValueErrors(v);
    if (errs.length) return `values[]: Invalid value: ${JSON.stringify(v)}: ${errs.join('; ')}`;
  }
  return { key, operator, values: [...values].sort() };
}

function has(labels: Labels | null | undefined, key: string): boolean {
  return labels != null && Object.prototype.hasOwnProperty.call(labels, key) && typeof labels[key] === 'string';
}

function requirementMatches(r: Requirement, labels: Labels | null | undefined): boolean {
  switch (r.operator) {
    case '=':
    case 'in':
      return has(labels, r.key) && r.values.includes(labels![r.key]);
    case 'notin':
    case '!=':
      // NotIn is true when the key is absent (pitfall 6).
      return !has(labels, r.key) || !r.values.includes(labels![r.key]);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || !/^-?\d+$/.test(labels![r.key])) return false;
      const v = Number(labels![r.key]);
      return r.operator === 'gt' ? v > Number(r.values[0]) : v < Number(r.values[0]);
    }
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
  }
}

function requirementString(r: Requirement): string {
  switch (r.operator) {
    case '=':
      return `${r.key}=${r.values[0]}`;
    case '!=':
      return `${r.key}!=${r.values[0]}`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
    case 'in':
      return `${r.key} in (${r.values.join(',')})`;
    case 'notin':
      return `${r.key} notin (${r.values.join(',')})`;
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
  }
}

function describeMismatch(r: Requirement, labels: Labels | null | undefined): string {
  const present = has(labels, r.key);
  const shown = present ? JSON.stringify(labels![r.key]) : '';
  switch (r.operator) {
    case '=':
      return present ? `label ${r.key} is ${shown}, not ${JSON.stringify(r.values[0])}` : `label ${r.key} is missing`;
    case 'in':
      return present ? `label ${r.key} is ${shown}, not one of (${r.values.join(', ')})` : `label ${r.key} is missing`;
    case 'notin':
    case '!=':
      return `label ${r.key} is ${shown}, which the selector excludes`;
    case 'gt':
    case 'lt':
      return present ? `label ${r.key} is ${shown}, not ${r.operator === 'gt' ? 'greater' : 'less'} than ${r.values[0]}` : `label ${r.key} is missing`;
    case 'exists':
      return `label ${r.key} is missing`;
    case '!':
      return `label ${r.key} is present (${shown}) but the selector requires it absent`;
  }
}

class RequirementsSelector implements Selector {
  readonly nothing = false;
  constructor(readonly requirements: readonly Requirement[]) {}
  get everything(): boolean {
    return this.requirements.length === 0;
  }
  matches(labels: Labels | null | undefined): boolean {
    for (const r of this.requirements) if (!requirementMatches(r, labels)) return false;
    return true;
  }
  explainMismatch(labels: Labels | null | undefined): string | null {
    for (const r of this.requirements) if (!requirementMatches(r, labels)) return describeMismatch(r, labels);
    return null;
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

const NOTHING: Selector = {
  nothing: true,
  everything: false,
  requirements: [],
  matches: () => false,
  explainMismatch: () => 'the ReplicaSet has no selector, which matches nothing',
  toString: () => '<nothing>',
};

function sortRequirements(reqs: Requirement[]): Requirement[] {
  // upstream's internalSelector keeps requirements sorted by key (stable for equal keys)
  return reqs.map((r, i) => [r, i] as const).sort((a, b) => (a[0].key < b[0].key ? -1 : a[0].key > b[0].key ? 1 : a[1] - b[1])).map(([r]) => r);
}

// A Map, not an object literal: "toString" or "__proto__" must not pass for an operator.
const OPERATORS = new Map<string, Operator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/** metav1.LabelSelectorAsSelector. */
export function labelSelectorAsSelector(ls: LabelSelector | null | undefined): SelectorResult {
  if (ls === null || ls === undefined) return { ok: true, selector: NOTHING };
  const matchLabels = ls.matchLabels ?? {};
  const exprs = ls.matchExpressions ?? [];
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(matchLabels)) {
    const r = newRequirement(k, '=', [String(v)]);
    if (typeof r === 'string') return { ok: false, error: r };
    reqs.push(r);
  }
  for (const e of exprs) {
    const op = OPERATORS.get(e?.operator as string);
    if (!op) return { ok: false, error: `${JSON.stringify(e?.operator ?? '')} is not a valid label selector operator` };
    const r = newRequirement(String(e.key ?? ''), op, (e.values ?? []).map(String));
    if (typeof r === 'string') return { ok: false, error: r };
    reqs.push(r);
  }
  return { ok: true, selector: new RequirementsSelector(sortRequirements(reqs)) };
}

/**
 * A ReplicationController's map selector, converted the way upstream turns an RC into a
 * ReplicaSet: absent → matches nothing; a map (also empty) → matchLabels.
 */
export function rcSelectorAsLabelSelector(sel: Labels | null | undefined): LabelSelector | null {
  return sel === null || sel === undefined ? null : { matchLabels: { ...sel } };
}

/** labels.SelectorFromSet for template labels (pre-validated: never fails). */
export function selectorFromSet(set: Labels | null | undefined): Selector {
  const reqs = Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [String(v)] }));
  return new RequirementsSelector(sortRequirements(reqs));
}

/**
 * Requirements an index can answer: a pod matching the selector must carry `key` with one of
 * `values` (=, in), or carry `key` at all (exists, values null). Used to pick a small candidate
 * set; the selector is still checked on every candidate.
 */
export function indexableTerms(sel: Selector): { key: string; values: readonly string[] | null }[] {
  const out: { key: string; values: readonly string[] | null }[] = [];
  for (const r of sel.requirements) {
    if (r.operator === '=' || r.operator === 'in') out.push({ key: r.key, values: r.values });
    else if (r.operator === 'exists' || r.operator === 'gt' || r.operator === 'lt') out.push({ key: r.key, values: null });
  }
  return out;
}

/**
 * Parses kubectl's `-l` syntax (labels.Parse): `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`, comma-separated and ANDed. "" selects everything.
 */
export function parseSelectorString(text: string): SelectorResult {
  const reqs: Requirement[] = [];
  let i = 0;
  const src = text;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i])) i++;
  };
  const ident = (): string => {
    const start = i;
    while (i < src.length && !/[\s,=!<>()]/.test(src[i])) i++;
    return src.slice(start, i);
  };
  const fail = (why: string): SelectorResult => ({ ok: false, error: `unable to parse requirement: ${why} in selector ${JSON.stringify(text)}` });
  ws();
  if (i >= src.length) return { ok: true, selector: new RequirementsSelector([]) };
  for (;;) {
    ws();
    let req: Requirement | string;
    if (src[i] === '!') {
      i++;
      ws();
      const key = ident();
      if (!key) return fail('expected a key after "!"');
      req = newRequirement(key, '!', []);
    } else {
      const key = ident();
      if (!key) return fail(`expected a key at position ${i}`);
      ws();
      const rest = src.slice(i);
      let op: Operator | null = null;
      if (rest.startsWith('==')) (op = '='), (i += 2);
      else if (rest.startsWith('!=')) (op = '!='), (i += 2);
      else if (rest.startsWith('=')) (op = '='), (i += 1);
      else if (rest.startsWith('>')) (op = 'gt'), (i += 1);
      else if (rest.startsWith('<')) (op = 'lt'), (i += 1);
      else if (/^in\s*\(/.test(rest)) (op = 'in'), (i += 2);
      else if (/^notin\s*\(/.test(rest)) (op = 'notin'), (i += 5);
      if (op === null) {
        req = newRequirement(key, 'exists', []);
      } else if (op === 'in' || op === 'notin') {
        ws();
        if (src[i] !== '(') return fail(`expected "(" after ${op}`);
        const close = src.indexOf(')', i);
        if (close < 0) return fail('missing ")"');
        const values = src.slice(i + 1, close).split(',').map((v) => v.trim());
        i = close + 1;
        req = newRequirement(key, op, values.length === 1 && values[0] === '' ? [] : values);
      } else {
        ws();
        const value = ident();
        req = newRequirement(key, op, [value]);
      }
    }
    if (typeof req === 'string') return { ok: false, error: `invalid selector ${JSON.stringify(text)}: ${req}` };
    reqs.push(req);
    ws();
    if (i >= src.length) break;
    if (src[i] !== ',') return fail(`unexpected ${JSON.stringify(src[i])} at position ${i}`);
    i++;
  }
  return { ok: true, selector: new RequirementsSelector(sortRequirements(reqs)) };
}
