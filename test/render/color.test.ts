import { describe, expect, it } from 'vitest';
import { colorLevel, makeChalk } from '../../src/render/color.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('colorLevel', () => {
  it('is 0 when NO_COLOR has any non-empty value, even on a TTY or with FORCE_COLOR', () => {
    expect(colorLevel(tty, { NO_COLOR: '1', TERM: 'xterm-256color' })).toBe(0);
    expect(colorLevel(tty, { NO_COLOR: 'yes', FORCE_COLOR: '3' })).toBe(0);
  });

  it('ignores an empty NO_COLOR', () => {
    expect(colorLevel(tty, { NO_COLOR: '', TERM: 'xterm' })).toBe(1);
  });

  it('follows FORCE_COLOR, also on a pipe', () => {
    expect(colorLevel(pipe, { FORCE_COLOR: '0' })).toBe(0);
    expect(colorLevel(tty, { FORCE_COLOR: '0', TERM: 'xterm-256color' })).toBe(0);
    expect(colorLevel(pipe, { FORCE_COLOR: 'false' })).toBe(0);
    expect(colorLevel(pipe, { FORCE_COLOR: '1' })).toBe(1);
    expect(colorLevel(pipe, { FORCE_COLOR: '2' })).toBe(2);
    expect(colorLevel(pipe, { FORCE_COLOR: '3' })).toBe(3);
    expect(colorLevel(pipe, { FORCE_COLOR: '7' })).toBe(3);
    expect(colorLevel(pipe, { FORCE_COLOR: '' })).toBe(1);
    expect(colorLevel(pipe, { FORCE_COLOR: 'true' })).toBe(1);
    expect(colorLevel({}, { FORCE_COLOR: '2', TERM: 'dumb' })).toBe(2);
  });

  it('is 0 when the stream is not a TTY', () => {
    expect(colorLevel(pipe, { TERM: 'xterm-256color', COLORTERM: 'truecolor' })).toBe(0);
    expect(colorLevel({}, { TERM: 'xterm-256color' })).toBe(0);
  });

  it('is 0 on TERM=dumb', () => {
    expect(colorLevel(tty, { TERM: 'dumb' })).toBe(0);
    expect(colorLevel(tty, { TERM: 'dumb', COLORTERM: 'truecolor' })).toBe(0);
  });

  it('picks 16, 256 or truecolor from TERM and COLORTERM', () => {
    expect(colorLevel(tty, { TERM: 'xterm' })).toBe(1);
    expect(colorLevel(tty, {})).toBe(1);
    expect(colorLevel(tty, { TERM: 'xterm-256color' })).toBe(2);
    expect(colorLevel(tty, { TERM: 'screen-256color' })).toBe(2);
    expect(colorLevel(tty, { TERM: 'xterm', COLORTERM: 'truecolor' })).toBe(3);
    expect(colorLevel(tty, { TERM: 'xterm-256color', COLORTERM: '24bit' })).toBe(3);
    expect(colorLevel(tty, { TERM: 'xterm-direct' })).toBe(3);
  });
});

describe('makeChalk', () => {
  it('emits no escape codes at level 0, whatever the environment says', () => {
    const c = makeChalk(0);
    expect(c.red.bold('x')).toBe('x');
    expect(c.level).toBe(0);
  });

  it('emits escape codes at the requested level', () => {
    expect(makeChalk(1).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(makeChalk(2).level).toBe(2);
    expect(makeChalk(3).rgb(1, 2, 3)('x')).toContain('\x1b[38;2;1;2;3m');
  });
});
