// §4 Label selectors: LabelSelectorAsSelector, requirement validation and matching; RC map
// selectors (§13). Expectations come from the reference, not from the implementation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector, rcSelectorAsLabelSelector, type Selector } from '../../../src/core/selector.js';
import type { LabelSelector, LabelSelectorRequirement, Labels } from '../../../src/core/types.js';

function sel(ls: LabelSelector | null | undefined): Selector {
  const r = labelSelectorAsSelector(ls);
  if (!r.ok) throw new Error(`expected a valid selector, got error ${r.error}`);
  return r.selector;
}
const invalid = (ls: LabelSelector) => labelSelectorAsSelector(ls).ok === false;
const expr = (key: string, operator: string, values?: string[] | null): LabelSelector => ({ matchExpressions: [{ key, operator, values }] });

describe('§4 LabelSelectorAsSelector: nil and empty', () => {
  it('nil (absent) selector matches nothing, without error', () => {
    for (const ls of [null, undefined]) {
      const s = sel(ls);
      expect(s.matches({})).toBe(false);
      expect(s.matches({ app: 'web' })).toBe(false);
      expect(s.matches(null)).toBe(false);
    }
  });
  it('{} (no matchLabels, no matchExpressions) matches everything, including pods without labels', () => {
    for (const ls of [
      {},
      { matchLabels: {} },
      { matchExpressions: [] },
      { matchLabels: {}, matchExpressions: [] },
      { matchLabels: null, matchExpressions: null },
    ] as LabelSelector[]) {
      const s = sel(ls);
      expect(s.matches({})).toBe(true);
      expect(s.matches(null)).toBe(true);
      expect(s.matches({ anything: 'x' })).toBe(true);
    }
  });
});

describe('§4 matchLabels', () => {
  it('each entry is an equality requirement; all are ANDed; extra pod labels allowed', () => {
    const s = sel({ matchLabels: { app: 'web', tier: 'fe' } });
    expect(s.matches({ app: 'web', tier: 'fe' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'fe', extra: 'x' })).toBe(true);
    expect(s.matches({ app: 'web' })).toBe(false);
    expect(s.matches({ app: 'web', tier: 'be' })).toBe(false);
    expect(s.matches({})).toBe(false);
  });
  it('an empty value is a valid label value and matches only the empty value', () => {
    const s = sel({ matchLabels: { app: '' } });
    expect(s.matches({ app: '' })).toBe(true);
    expect(s.matches({ app: 'x' })).toBe(false);
    expect(s.matches({})).toBe(false);
  });
  it('an invalid key or value makes the whole selector invalid', () => {
    expect(invalid({ matchLabels: { 'bad key': 'x' } })).toBe(true);
    expect(invalid({ matchLabels: { app: 'bad value' } })).toBe(true);
    expect(invalid({ matchLabels: { app: 'web', '-x': 'y' } })).toBe(true);
  });
});

describe('§4 matchExpressions operators', () => {
  it('In: key present with a value in the set', () => {
    const s = sel(expr('env', 'In', ['prod', 'staging']));
    expect(s.matches({ env: 'prod' })).toBe(true);
    expect(s.matches({ env: 'staging' })).toBe(true);
    expect(s.matches({ env: 'dev' })).toBe(false);
    expect(s.matches({})).toBe(false);
  });
  it('NotIn: true when the key is absent (pitfall 6), else value not in the set', () => {
    const s = sel(expr('env', 'NotIn', ['prod']));
    expect(s.matches({})).toBe(true);
    expect(s.matches(null)).toBe(true);
    expect(s.matches({ other: 'prod' })).toBe(true);
    expect(s.matches({ env: 'dev' })).toBe(true);
    expect(s.matches({ env: 'prod' })).toBe(false);
  });
  it('Exists: key present with any value, including ""', () => {
    const s = sel(expr('tier', 'Exists'));
    expect(s.matches({ tier: '' })).toBe(true);
    expect(s.matches({ tier: 'x' })).toBe(true);
    expect(s.matches({})).toBe(false);
  });
  it('DoesNotExist: key absent', () => {
    const s = sel(expr('tier', 'DoesNotExist'));
    expect(s.matches({})).toBe(true);
    expect(s.matches({ tier: '' })).toBe(false);
    expect(s.matches({ tier: 'x' })).toBe(false);
  });
  it('matchLabels and matchExpressions are ANDed', () => {
    const s = sel({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'track', operator: 'NotIn', values: ['canary'] }] });
    expect(s.matches({ app: 'web' })).toBe(true);
    expect(s.matches({ app: 'web', track: 'stable' })).toBe(true);
    expect(s.matches({ app: 'web', track: 'canary' })).toBe(false);
    expect(s.matches({ track: 'stable' })).toBe(false);
  });
  it.each(['Equals', 'in', 'notin', 'exists', '', '=', '==', '!=', 'Gt', 'Lt', 'IN', ' In'])('operator %j is invalid (an error, not "false")', (op) => {
    expect(invalid(expr('app', op, ['web']))).toBe(true);
    expect(invalid(expr('app', op, []))).toBe(true);
  });
  it("an invalid requirement is reported as NewRequirement does: every failure, aggregated, in the API server's words", () => {
    const r = labelSelectorAsSelector({ matchExpressions: [{ key: 'bad key!', operator: 'In', values: [] }] });
    expect(r).toEqual({
      ok: false,
      error:
        "[key: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty]",
    });
    const one = labelSelectorAsSelector({ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] });
    expect(one).toEqual({ ok: false, error: 'values: Invalid value: []string{"web"}: values set must be empty for exists and does not exist' });
  });
  it('an error message names the operator', () => {
    const r = labelSelectorAsSelector(expr('app', 'Equals', ['web']));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('"Equals" is not a valid label selector operator');
  });
  // Object.prototype member names are "any other operator string" too.
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])('operator %j (an Object.prototype name) is invalid', (op) => {
    expect(invalid(expr('app', op, ['web']))).toBe(true);
  });
});

describe('§4 value-count rules', () => {
  it('In/NotIn need at least one value', () => {
    expect(invalid(expr('a', 'In', []))).toBe(true);
    expect(invalid(expr('a', 'In', null))).toBe(true);
    expect(invalid(expr('a', 'In'))).toBe(true);
    expect(invalid(expr('a', 'NotIn', []))).toBe(true);
    expect(invalid(expr('a', 'NotIn'))).toBe(true);
  });
  it('Exists/DoesNotExist must have no values at all', () => {
    expect(invalid(expr('a', 'Exists', ['x']))).toBe(true);
    expect(invalid(expr('a', 'Exists', ['']))).toBe(true);
    expect(invalid(expr('a', 'DoesNotExist', ['x']))).toBe(true);
    expect(invalid(expr('a', 'Exists', []))).toBe(false);
    expect(invalid(expr('a', 'DoesNotExist', null))).toBe(false);
  });
  it('every In/NotIn value must be a valid label value', () => {
    expect(invalid(expr('a', 'In', ['ok', 'not ok']))).toBe(true);
    expect(invalid(expr('a', 'NotIn', ['-bad']))).toBe(true);
    expect(invalid(expr('a', 'In', ['']))).toBe(false);
  });
});

describe('§4 key validation (qualified name)', () => {
  const keyOk = (key: string) => !invalid({ matchLabels: { [key]: 'v' } }) && !invalid(expr(key, 'Exists'));
  const keyBad = (key: string) => invalid({ matchLabels: { [key]: 'v' } }) && invalid(expr(key, 'Exists'));
  it('valid names: 1–63 chars, alphanumeric ends, [-_.] inside, either case', () => {
    for (const k of ['a', 'A', '0', 'app', 'App_Name-1.x', 'a'.repeat(63), 'a-b', 'a_b', 'a.b', 'Z9']) expect(keyOk(k), k).toBe(true);
  });
  it('invalid names', () => {
    for (const k of ['', 'a'.repeat(64), '-a', 'a-', '_a', 'a_', '.a', 'a.', 'a b', 'a$b', 'a:b', 'é']) expect(keyBad(k), JSON.stringify(k)).toBe(true);
  });
  it('optional DNS-subdomain prefix (lowercase, ≤ 253) and "/"', () => {
    for (const k of ['example.com/app', 'a/b', 'k8s.io/App', 'a-b.c-d/x', `${'a'.repeat(253)}/x`, `${'a.'.repeat(126)}a/x`]) expect(keyOk(k), k).toBe(true);
    for (const k of [
      'Example.com/app', // uppercase prefix
      'example_com/app', // underscore in prefix
      '-example.com/app',
      'example.com-/app',
      'example..com/app',
      `${'a'.repeat(254)}/x`, // prefix too long
      '/app', // empty prefix
      'example.com/', // empty name
      'a/b/c', // two slashes
      `example.com/${'a'.repeat(64)}`,
    ])
      expect(keyBad(k), k).toBe(true);
  });
});

describe('§4 value validation', () => {
  const valueOk = (v: string) => !invalid({ matchLabels: { k: v } });
  it('empty, or ≤ 63 chars with alphanumeric ends and [-_.] inside', () => {
    for (const v of ['', 'a', 'A1', 'a-b_c.d', 'a'.repeat(63)]) expect(valueOk(v), v).toBe(true);
    for (const v of ['a'.repeat(64), '-a', 'a-', '.a', 'a b', 'a/b', 'a:b']) expect(valueOk(v), v).toBe(false);
  });
});

describe('§13 RC map selectors', () => {
  it('absent map matches nothing; empty map matches everything; entries are equalities', () => {
    const none = sel(rcSelectorAsLabelSelector(undefined));
    const none2 = sel(rcSelectorAsLabelSelector(null));
    expect(none.matches({ app: 'web' })).toBe(false);
    expect(none2.matches({})).toBe(false);
    const all = sel(rcSelectorAsLabelSelector({}));
    expect(all.matches({})).toBe(true);
    expect(all.matches({ x: 'y' })).toBe(true);
    const eq = sel(rcSelectorAsLabelSelector({ app: 'web', tier: 'fe' }));
    expect(eq.matches({ app: 'web', tier: 'fe', z: '1' })).toBe(true);
    expect(eq.matches({ app: 'web' })).toBe(false);
  });
});

describe('selector string form', () => {
  it('names every requirement (equality, set, existence)', () => {
    const s = sel({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['b', 'a'] },
        { key: 'gone', operator: 'DoesNotExist' },
        { key: 'tier', operator: 'Exists' },
      ],
    });
    const text = s.toString();
    expect(text).toContain('app=web');
    expect(text).toMatch(/env in \((a,b|b,a)\)/);
    expect(text).toContain('!gone');
    expect(text).toMatch(/(^|,)tier(,|$)/);
  });
  it('empty selector renders as the empty string (labels.Everything)', () => {
    expect(sel({}).toString()).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const keyArb = fc.constantFrom('app', 'tier', 'env', 'track', 'example.com/team');
const valArb = fc.constantFrom('', 'a', 'b', 'c', 'web');
const labelsArb: fc.Arbitrary<Labels> = fc.dictionary(keyArb, valArb, { maxKeys: 5 });

describe('§4 properties', () => {
  it('a matchLabels-only selector matches exactly the label maps that contain all its pairs', () => {
    fc.assert(
      fc.property(labelsArb, labelsArb, (want, podLabels) => {
        const s = sel({ matchLabels: want });
        const contains = Object.entries(want).every(([k, v]) => Object.hasOwn(podLabels, k) && podLabels[k] === v);
        expect(s.matches(podLabels)).toBe(contains);
      }),
    );
  });

  it('NotIn(k, vs) = not In(k, vs) when k is present; when k is absent NotIn is true and In is false', () => {
    fc.assert(
      fc.property(keyArb, fc.uniqueArray(valArb, { minLength: 1, maxLength: 3 }), labelsArb, (k, vs, podLabels) => {
        const inSel = sel(expr(k, 'In', vs));
        const notInSel = sel(expr(k, 'NotIn', vs));
        if (Object.hasOwn(podLabels, k)) {
          expect(notInSel.matches(podLabels)).toBe(!inSel.matches(podLabels));
        } else {
          expect(inSel.matches(podLabels)).toBe(false);
          expect(notInSel.matches(podLabels)).toBe(true);
        }
      }),
    );
  });

  it('Exists ≡ not DoesNotExist, for every label map', () => {
    fc.assert(
      fc.property(keyArb, labelsArb, (k, podLabels) => {
        expect(sel(expr(k, 'Exists')).matches(podLabels)).toBe(!sel(expr(k, 'DoesNotExist')).matches(podLabels));
      }),
    );
  });

  const reqArb: fc.Arbitrary<LabelSelectorRequirement> = fc.oneof(
    fc.record({ key: keyArb, operator: fc.constantFrom('In', 'NotIn'), values: fc.uniqueArray(valArb, { minLength: 1, maxLength: 3 }) }),
    fc.record({ key: keyArb, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
  );

  it('requirement order does not change matching; the result is the AND of each requirement alone', () => {
    fc.assert(
      fc.property(fc.array(reqArb, { minLength: 1, maxLength: 5 }), labelsArb, fc.integer(), (reqs, podLabels, seed) => {
        const shuffled = [...reqs].sort((a, b) => ((JSON.stringify(a).length * 31 + seed) % 7) - ((JSON.stringify(b).length * 31 + seed) % 7));
        const reversed = [...reqs].reverse();
        const whole = sel({ matchExpressions: reqs }).matches(podLabels);
        expect(sel({ matchExpressions: shuffled }).matches(podLabels)).toBe(whole);
        expect(sel({ matchExpressions: reversed }).matches(podLabels)).toBe(whole);
        expect(whole).toBe(reqs.every((r) => sel({ matchExpressions: [r] }).matches(podLabels)));
      }),
    );
  });
});
