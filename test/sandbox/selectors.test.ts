// The label selector grammar and matching, the field selector parser, and Go-style durations.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/sandbox/errors.js';
import { parseSelectorString } from '../../src/core/selector.js';
import { parseFieldSelector, parseLabelSelector } from '../../src/sandbox/selectors.js';
import { labelSelectorString } from '../../src/sandbox/labels.js';
import { humanDuration } from '../../src/sandbox/util.js';

describe('label selectors', () => {
  const parsed = (s: string) => parseLabelSelector(s).requirements.map((r) => ({ key: r.key, op: r.operator, values: r.values }));
  const rejection = (s: string): string => {
    try {
      parseLabelSelector(s);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe(400);
      return (e as ApiError).message;
    }
    throw new Error(`${s} was accepted`);
  };

  it('parses every operator (requirements sorted by key, values as a sorted set)', () => {
    expect(parsed('i<5, b==2,c!=3,d in (y, x, y),e notin (z),f,!g,h>4,a=1')).toEqual([
      { key: 'a', op: '=', values: ['1'] },
      { key: 'b', op: '=', values: ['2'] },
      { key: 'c', op: '!=', values: ['3'] },
      { key: 'd', op: 'in', values: ['x', 'y'] },
      { key: 'e', op: 'notin', values: ['z'] },
      { key: 'f', op: 'exists', values: [] },
      { key: 'g', op: '!', values: [] },
      { key: 'h', op: 'gt', values: ['4'] },
      { key: 'i', op: 'lt', values: ['5'] },
    ]);
    expect(parsed('example.com/app=web')[0].key).toBe('example.com/app');
    expect(parsed('a=')).toEqual([{ key: 'a', op: '=', values: [''] }]);
    expect(parseLabelSelector('  ').everything).toBe(true);
  });

  it('reads what labels.Parse reads: () and empty list items are the empty value, in and notin are keys before an operator', () => {
    expect(parsed('app in ()')).toEqual([{ key: 'app', op: 'in', values: [''] }]);
    expect(parsed('x in (a,,b)')).toEqual([{ key: 'x', op: 'in', values: ['', 'a', 'b'] }]);
    expect(parsed('x notin (,a)')).toEqual([{ key: 'x', op: 'notin', values: ['', 'a'] }]);
    expect(parsed('in=1,notin in (in)')).toEqual([
      { key: 'in', op: '=', values: ['1'] },
      { key: 'notin', op: 'in', values: ['in'] },
    ]);
  });

  it('matches like labels.Requirement.Matches: notin and != hold when the key is absent', () => {
    const m = (s: string, l: Record<string, string>) => parseLabelSelector(s).matches(l);
    expect(m('app notin (a)', {})).toBe(true);
    expect(m('app!=a', {})).toBe(true);
    expect(m('app in (a)', {})).toBe(false);
    expect(m('app in ()', { app: '' })).toBe(true);
    expect(m('app in ()', { app: 'x' })).toBe(false);
    expect(m('app', { app: '' })).toBe(true);
    expect(m('!app', { app: '' })).toBe(false);
    expect(m('n>3', { n: '10' })).toBe(true);
    expect(m('n>3', { n: 'x' })).toBe(false);
    expect(m('n<9223372036854775807', { n: '9223372036854775806' })).toBe(true); // int64, not a float
    expect(m('', { anything: 'x' })).toBe(true);
  });

  // The API server's words: labels.Parse's messages, and those of validation.IsQualifiedName and
  // IsValidLabelValue with their examples (as real servers answer, e.g. "<nil>: Invalid value"
  // for a bad key, whose path the parser leaves nil).
  const NAME_PART =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const LABEL_VALUE =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  it.each([
    ['app in a', "unable to parse requirement: found 'a' expected: '('"],
    ['app in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['app in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['app foo', "unable to parse requirement: found 'foo', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=!b', "unable to parse requirement: found '!', expected: identifier"],
    ['=x', "found '=', expected: !, identifier, or 'end of string'"],
    ['app=a b', "found 'b', expected: ',' or 'end of string'"],
    ['app=bad value!', "found 'value', expected: ',' or 'end of string'"],
    ['app,', "found '', expected: identifier after ','"],
    ['app:monolith', `unable to parse requirement: <nil>: Invalid value: "app:monolith": ${NAME_PART}`],
    [
      'app.kubernetes_io/name=x',
      `unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
    [
      'a/b/c=1',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['app=-x', `unable to parse requirement: values[0][app]: Invalid value: "-x": ${LABEL_VALUE}`],
    ['n>abc', `unable to parse requirement: values[0]: Invalid value: "abc": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['n>-1', `unable to parse requirement: values[0][n]: Invalid value: "-1": ${LABEL_VALUE}`],
  ])("rejects %j with 400 and the API server's message", (s, message) => {
    expect(rejection(s)).toBe(message);
  });

  it('is the grammar of -l too (one parser): the CLI names the selector and says the same', () => {
    const r = parseSelectorString('app in a');
    expect(r).toEqual({ ok: false, error: `invalid label selector "app in a": unable to parse requirement: found 'a' expected: '('` });
  });

  it('prints a LabelSelector as the Scale subresource does', () => {
    expect(
      labelSelectorString({
        matchLabels: { tier: 'fe', app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['b', 'a'] },
          { key: 'x', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=web,env in (a,b),tier=fe,!x');
  });
});

describe('field selectors', () => {
  it('parses =, == and != with escapes and checks the field label', () => {
    expect(parseFieldSelector('metadata.name==a\\,b,status.phase!=Running', 'pods')).toEqual([
      { field: 'metadata.name', op: '=', value: 'a,b' },
      { field: 'status.phase', op: '!=', value: 'Running' },
    ]);
    expect(() => parseFieldSelector('spec.nodeName=x', 'replicasets')).toThrow('field label not supported: spec.nodeName');
  });
});

describe('durations', () => {
  it.each([
    [0, '0s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [30 * 3600_000, '30h'],
    [50 * 3600_000, '2d2h'],
    [400 * 24 * 3600_000, '400d'],
  ])('%i ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
