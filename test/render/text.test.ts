import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns, humanDuration, renderTable, sanitize, truncate, truncateMiddle, visibleLength, wrap } from '../../src/render/text.js';

describe('humanDuration (kubectl ages)', () => {
  const cases: [number | null, string][] = [
    [null, '<unknown>'],
    [-5, '<invalid>'],
    [-1, '0s'],
    [0, '0s'],
    [45, '45s'],
    [119, '119s'],
    [120, '2m'],
    [200, '3m20s'],
    [599, '9m59s'],
    [12 * 60, '12m'],
    [179 * 60, '179m'],
    [3 * 3600, '3h'],
    [3 * 3600 + 4 * 60, '3h4m'],
    [7 * 3600 + 59 * 60, '7h59m'],
    [10 * 3600, '10h'],
    [47 * 3600, '47h'],
    [2 * 86400, '2d'],
    [2 * 86400 + 5 * 3600, '2d5h'],
    [7 * 86400 + 23 * 3600, '7d23h'],
    [8 * 86400, '8d'],
    [120 * 86400, '120d'],
    [729 * 86400, '729d'],
    [730 * 86400, '2y'],
    [760 * 86400, '2y30d'],
    [9 * 365 * 86400, '9y'],
  ];
  it.each(cases)('%s s → %s', (seconds, expected) => {
    expect(humanDuration(seconds)).toBe(expected);
  });
});

describe('text helpers', () => {
  it('truncates with an ellipsis', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdefg', 6)).toBe('abcde…');
    expect(truncate('abc', 1)).toBe('…');
    expect(truncateMiddle('web-7d4f8b9c5-x2k9p', 12)).toBe('web-7d…x2k9p');
    expect(truncateMiddle('short', 12)).toBe('short');
  });

  it('removes control characters (no escape injection from object text)', () => {
    expect(sanitize('a\x1b[31mb\nc\td')).toBe('a [31mb c d');
  });

  it('wraps words with a hanging indent', () => {
    expect(wrap('one two three four five six', 14, '- ', '  ')).toEqual(['- one two', '  three four', '  five six']);
    const long = wrap('x'.repeat(30), 12);
    expect(long.every((l) => l.length <= 12)).toBe(true);
    expect(long.join('')).toBe('x'.repeat(30));
  });

  it('shrinks the widest shrinkable column first, tier by tier, never below the header', () => {
    const widths = fitColumns(
      [{ header: 'NAME', shrink: [10, 6] }, { header: 'X' }, { header: 'NODE', shrink: [8, 4] }],
      [['a'.repeat(20), 'x', 'n'.repeat(12)]],
      { width: 30, gap: 2 },
    );
    // natural 20+1+12+4 = 37: NAME (the widest) shrinks first, then both, until 30 fits
    expect(widths).toEqual([13, 1, 12]);
    const tight = fitColumns(
      [{ header: 'NAME', shrink: [10, 6] }, { header: 'X' }, { header: 'NODE', shrink: [8, 2] }],
      [['a'.repeat(20), 'x', 'n'.repeat(12)]],
      { width: 12, gap: 2 },
    );
    expect(tight).toEqual([6, 1, 4]);
  });

  it('renders a borderless table without trailing spaces', () => {
    const out = renderTable(
      [{ header: 'NAME' }, { header: 'AGE' }],
      [
        [{ text: 'web-a' }, { text: '3h' }],
        [{ text: 'b' }, { text: '45s' }],
      ],
    );
    expect(out).toBe('NAME    AGE\nweb-a   3h\nb       45s\n');
    expect(renderTable([{ header: 'NAME' }], [], { noHeaders: true })).toBe('');
    expect(renderTable([{ header: 'NAME' }], [])).toBe('NAME\n');
  });
});

describe('visibleLength', () => {
  it('counts code points as for…of does, lone surrogates included', () => {
    // UTF-16 units around and inside the surrogate range, so pairs, lone halves and reversed pairs all occur
    const unit = fc.oneof(fc.integer({ min: 0xd7fe, max: 0xe001 }), fc.integer({ min: 0x20, max: 0x7e })).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = units.join('');
        expect(visibleLength(text)).toBe([...text].length);
      }),
      { numRuns: 500 },
    );
    expect(visibleLength('👩‍💻 日本 é')).toBe([...'👩‍💻 日本 é'].length);
  });
});
