// The label selector grammar and matching, the field selector parser, and Go-style durations.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/sandbox/errors.js';
import { labelSelectorString, matchLabels, parseFieldSelector, parseLabelSelector } from '../../src/sandbox/selectors.js';
import { humanDuration } from '../../src/sandbox/util.js';

describe('label selectors', () => {
  it('parses every operator', () => {
    expect(parseLabelSelector('a=1, b==2,c!=3,d in (x, y),e notin (z),f,!g,h>4,i<5')).toEqual([
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
    expect(parseLabelSelector('example.com/app=web')[0].key).toBe('example.com/app');
    expect(parseLabelSelector('a=')).toEqual([{ key: 'a', op: '=', values: [''] }]);
  });

  it('matches like labels.Requirement.Matches: notin and != hold when the key is absent', () => {
    const m = (s: string, l: Record<string, string>) => matchLabels(parseLabelSelector(s), l);
    expect(m('app notin (a)', {})).toBe(true);
    expect(m('app!=a', {})).toBe(true);
    expect(m('app in (a)', {})).toBe(false);
    expect(m('app', { app: '' })).toBe(true);
    expect(m('!app', { app: '' })).toBe(false);
    expect(m('n>3', { n: '10' })).toBe(true);
    expect(m('n>3', { n: 'x' })).toBe(false);
    expect(m('', { anything: 'x' })).toBe(true);
  });

  it.each(['app in a', 'app in ()', '=x', 'app=a b', 'a/b/c=1', 'app=bad value!', 'app,'])('rejects %s with 400', (s) => {
    let err: unknown;
    try {
      parseLabelSelector(s);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
  });

  it('prints a LabelSelector as the Scale subresource does', () => {
    expect(
      labelSelectorString({ matchLabels: { tier: 'fe', app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['b', 'a'] }, { key: 'x', operator: 'DoesNotExist' }] }),
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
