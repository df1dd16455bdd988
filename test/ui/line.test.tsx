import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ColorContext, fitSegs, Line, mergeSegs, padSegs, plainText, titleSegs } from '../../src/ui/line.js';
import { width } from './fixtures.js';

describe('line fitting', () => {
  it('cuts segments to the width with an ellipsis and drops control characters', () => {
    expect(plainText(fitSegs([{ text: 'abc' }, { text: 'def' }], 4))).toBe('abc…');
    expect(plainText(fitSegs([{ text: 'abc' }, { text: 'def' }], 6))).toBe('abcdef');
    expect(plainText(fitSegs([{ text: 'a\x1b[2Jb' }], 10))).toBe('a [2Jb');
    expect(plainText(fitSegs([{ text: 'abc' }], 0))).toBe('');
  });

  it('pads to the width, merges neighbours of one style, draws section titles across', () => {
    expect(plainText(padSegs([{ text: 'ab' }], 5))).toBe('ab   ');
    expect(mergeSegs([{ text: 'a' }, { text: 'b' }, { text: 'c', bold: true }, { text: '' }, { text: 'd', bold: true }])).toEqual([
      { text: 'ab' },
      { text: 'cd', bold: true },
    ]);
    expect(width(plainText(titleSegs('Log', 40)))).toBe(40);
  });

  it('Line renders one line, never wider than its width, with or without colour', () => {
    for (const colour of [true, false]) {
      const { lastFrame } = render(
        <ColorContext.Provider value={colour}>
          <Line segs={[{ text: 'x'.repeat(50), color: 'red' }, { text: 'tail' }]} width={20} />
        </ColorContext.Provider>,
      );
      expect(lastFrame()).toBe('x'.repeat(19) + '…');
    }
  });
});
