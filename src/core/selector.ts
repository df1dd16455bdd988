// Label selectors as upstream converts and matches them (apimachinery LabelSelectorAsSelector,
// labels.NewRequirement, Requirement.Matches). An invalid selector is an error value, never
// silently "match all" or "match nothing": the sync skips that controller (syncReplicaSet: LabelSelectorAsSelector failed).

import type { LabelSelector, Labels } from './types.js';

type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

interface Requirement {
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

// validation.IsQualifiedName and IsValidLabelValue, with their messages (RegexError's examples
// and regex included: these are the words the API server answers with).
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** Go's len(): bytes of the UTF-8 encoding. */
function byteLength(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

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
    else {
      if (byteLength(prefix) > 253) errs.push('prefix part must be no more than 253 characters');
      if (!DNS1123_SUBDOMAIN_RE.test(prefix))
        errs.push(
          `prefix part ${regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, 'example.com')}`,
        );
    }
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** Errors of validation.IsValidLabelValue (empty list when valid). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE_RE.test(value))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

// field.Invalid(path, value, detail).Error(): strings as %q, string lists as %#v (a nil list, as
// LabelSelectorAsSelector passes for no values, prints as []string(nil)).
const goString = (v: string) => JSON.stringify(v);
const goStrings = (vs: readonly string[]) => (vs.length === 0 ? '[]string(nil)' : `[]string{${vs.map(goString).join(', ')}}`);
const invalid = (path: string, value: string, detail: string) => `${path}: Invalid value: ${value}: ${detail}`;

/** errors.NewAggregate(…).Error(): one error as is, several (deduplicated) in brackets. */
function aggregate(errs: string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** strconv.ParseInt(s, 10, 64) succeeds. */
function isInt64(s: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(s)) return false;
  const v = BigInt(s);
  return v >= -(2n ** 63n) && v < 2n ** 63n;
}

/** labels.NewRequirement: every rule checked, the failures aggregated as upstream does. */
function newRequirement(key: string, operator: Operator, values: string[]): Requirement | string {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length) errs.push(invalid('key', goString(key), keyErrs.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalid('values', goStrings(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '!=':
      if (values.length !== 1) errs.push(invalid('values', goStrings(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalid('values', goStrings(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalid('values', goStrings(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (!isInt64(v)) errs.push(invalid(`values[${i}]`, goString(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  values.forEach((v, i) => {
    const valueErrs = labelValueErrors(v);
    if (valueErrs.length) errs.push(invalid(`values[${i}][${key}]`, goString(v), valueErrs.join('; ')));
  });
  if (errs.length) return aggregate(errs);
  return { key, operator, values: [...values].sort() };
}

function has(labels: Labels | null | undefined, key: string): boolean {
  return labels != null && Object.hasOwn(labels, key) && typeof labels[key] === 'string';
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
      if (!has(labels, r.key) || !isInt64(labels![r.key])) return false;
      const v = BigInt(labels![r.key]);
      return r.operator === 'gt' ? v > BigInt(r.values[0]) : v < BigInt(r.values[0]);
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
  if (reqs.every((r, i) => i === 0 || reqs[i - 1].key <= r.key)) return reqs;
  return reqs
    .map((r, i) => [r, i] as const)
    .sort((a, b) => (a[0].key < b[0].key ? -1 : a[0].key > b[0].key ? 1 : a[1] - b[1]))
    .map(([r]) => r);
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

// labels.Parse, the string form (`-l`, and the labelSelector of a list or watch request): its
// lexer and recursive-descent parser, with upstream's messages word for word, so the sandbox
// answers a bad labelSelector exactly as an API server does, and -l rejects what it rejects.

type Token = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

interface ScannedItem {
  tok: Token;
  lit: string;
}

// A Map, not an object literal: an identifier named "toString" is no keyword.
const LITERAL_TOKENS = new Map<string, Token>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

/** The Lexer: `read` gives '\0' at the end (and for a NUL, which Go's lexer takes for the end too). */
function scan(text: string): ScannedItem[] {
  let pos = 0;
  const read = () => (pos < text.length ? text[pos++] : '\0');
  const unread = () => void pos--;
  const items: ScannedItem[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    let item: ScannedItem;
    if (ch === '\0') item = { tok: 'end', lit: '' };
    else if (isSpecialSymbol(ch)) {
      // the longest run of symbols that is still a token: "!=" but "=" then "!"
      unread();
      let buffer = '';
      let last: ScannedItem | null = null;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecialSymbol(c)) {
          unread();
          break;
        }
        buffer += c;
        const t = LITERAL_TOKENS.get(buffer);
        if (t) last = { tok: t, lit: buffer };
        else if (last) {
          unread();
          break;
        }
      }
      item = last ?? { tok: 'error', lit: `error expected: keyword found '${buffer}'` };
    } else {
      unread();
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          unread();
          break;
        }
        buffer += c;
      }
      item = { tok: LITERAL_TOKENS.get(buffer) ?? 'id', lit: buffer };
    }
    items.push(item);
    if (item.tok === 'end') return items;
  }
}

class ParseError extends Error {}

const failParse = (message: string): never => {
  throw new ParseError(message);
};

/** In the Values context the keywords in and notin are plain identifiers. */
const asValue = (t: Token): Token => (t === 'in' || t === 'notin' ? 'id' : t);

/** The Parser, its methods upstream's: a position in the scanned items, one requirement at a time. */
class Parser {
  private position = 0;

  constructor(private readonly items: ScannedItem[]) {}

  private lookahead(values: boolean): ScannedItem {
    const { tok, lit } = this.items[this.position];
    return { tok: values ? asValue(tok) : tok, lit };
  }

  private consume(values: boolean): ScannedItem {
    const item = this.lookahead(values);
    this.position++;
    return item;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      if (tok === 'end') return requirements;
      if (tok !== 'id' && tok !== '!') failParse(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(this.parseRequirement());
      } catch (e) {
        throw e instanceof ParseError ? new ParseError(`unable to parse requirement: ${e.message}`) : e;
      }
      const sep = this.consume(true);
      if (sep.tok === 'end') return requirements;
      if (sep.tok !== ',') failParse(`found '${sep.lit}', expected: ',' or 'end of string'`);
      const next = this.lookahead(true);
      if (next.tok !== 'id' && next.tok !== '!') failParse(`found '${next.lit}', expected: identifier after ','`);
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator: inferred } = this.parseKeyAndInferOperator();
    let operator = inferred;
    let values: string[] = [];
    if (operator !== 'exists' && operator !== '!') {
      operator = this.parseOperator();
      values = [...(operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue())].sort();
    }
    const r = newRequirement(key, operator, values);
    return typeof r === 'string' ? failParse(r) : r;
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | null } {
    let operator: Operator | null = null;
    let t = this.consume(true);
    if (t.tok === '!') {
      operator = '!';
      t = this.consume(true);
    }
    if (t.tok !== 'id') failParse(`found '${t.lit}', expected: identifier`);
    const keyErrs = qualifiedNameErrors(t.lit);
    // validated with the parser's path, which labels.Parse leaves nil
    if (keyErrs.length) failParse(invalid('<nil>', goString(t.lit), keyErrs.join('; ')));
    const next = this.lookahead(true).tok;
    if ((next === 'end' || next === ',') && operator !== '!') operator = 'exists';
    return { key: t.lit, operator };
  }

  private parseOperator(): Operator {
    const { tok, lit } = this.consume(false);
    const ops: Partial<Record<Token, Operator>> = { in: 'in', '=': '=', '==': '=', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    return Object.hasOwn(ops, tok) ? ops[tok]! : failParse(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`);
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== '(') failParse(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    if (tok === 'id' || tok === ',') {
      const set = this.parseIdentifiersList();
      if (this.consume(true).tok !== ')') failParse(`found '${lit}', expected: ')'`);
      return set;
    }
    if (tok === ')') {
      this.consume(true);
      return new Set(['']); // "()" is the empty value, not an empty set
    }
    return failParse(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === 'id') {
        set.add(lit);
        const next = this.lookahead(true);
        if (next.tok === ',') continue;
        if (next.tok === ')') return set;
        failParse(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        // "(," and ",)" and ",," hold the empty value
        if (set.size === 0) set.add('');
        const next = this.lookahead(true).tok;
        if (next === ')') {
          set.add('');
          return set;
        }
        if (next === ',') {
          this.consume(true);
          set.add('');
        }
      } else failParse(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(true).tok;
    if (next === 'end' || next === ',') return new Set(['']);
    const { tok, lit } = this.consume(true);
    return tok === 'id' ? new Set([lit]) : failParse(`found '${lit}', expected: identifier`);
  }
}

function parseRequirements(text: string): Requirement[] {
  return new Parser(scan(text)).parse();
}

/**
 * labels.Parse: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`,
 * comma-separated and ANDed; "" selects everything. The error is the API server's message.
 */
export function parseLabelSelector(text: string): SelectorResult {
  try {
    return { ok: true, selector: new RequirementsSelector(sortRequirements(parseRequirements(text))) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message };
    throw e;
  }
}

/** kubectl's `-l`: labels.Parse, its error naming the selector given. */
export function parseSelectorString(text: string): SelectorResult {
  const r = parseLabelSelector(text);
  return r.ok ? r : { ok: false, error: `invalid label selector ${JSON.stringify(text)}: ${r.error}` };
}
