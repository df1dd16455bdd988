// The klog-style logger: text and JSON lines, verbosity, quoting, colour.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/runtime/clock.js';
import { createLogger, type LoggerOptions } from '../../src/runtime/log.js';

const T = Date.parse('2026-11-22T21:04:05.123Z');

function capture(opts: Omit<LoggerOptions, 'stream' | 'clock'> = {}) {
  const lines: string[] = [];
  const clock = new FakeClock(T);
  const log = createLogger({ utc: true, ...opts, clock, stream: { write: (s: string) => lines.push(s) } });
  return { log, lines, clock };
}

describe('text format', () => {
  it('writes klog headers, the message and key=value fields, quoting only when needed', () => {
    const { log, lines, clock } = capture();
    log.info('replicaset sync "shop/web"', { duration: '12ms' });
    clock.advance(0.5); // sub-millisecond time shows in the microseconds
    log.info('fields', { key: 'shop/web', n: 3, ok: true, none: null, empty: '', spaced: 'a b', eq: 'a=b', quote: 'say "hi"', nl: 'x\ny' });
    log.warn('slow', { err: new Error('timeout after 5s') });
    log.error('failed', { pods: ['a', 'b'], obj: { kind: 'Pod' } });
    expect(lines).toEqual([
      'I1122 21:04:05.123000 replicaset sync "shop/web" duration=12ms\n',
      'I1122 21:04:05.123500 fields key=shop/web n=3 ok=true none=null empty="" spaced="a b" eq="a=b" quote="say \\"hi\\"" nl="x\\ny"\n',
      'W1122 21:04:05.123500 slow err="timeout after 5s"\n',
      'E1122 21:04:05.123500 failed pods=["a","b"] obj={"kind":"Pod"}\n',
    ]);
  });

  it('prints local time by default, as klog does', () => {
    const lines: string[] = [];
    createLogger({ clock: { now: () => T }, stream: { write: (s: string) => lines.push(s) } }).info('x');
    const d = new Date(T);
    const p = (n: number) => String(n).padStart(2, '0');
    expect(lines[0]).toBe(`I${p(d.getMonth() + 1)}${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.123000 x\n`);
  });

  it('colours the header only when asked', () => {
    const plain = capture();
    plain.log.error('boom');
    expect(plain.lines[0]).not.toContain('\x1b[');
    const coloured = capture({ color: true });
    coloured.log.error('boom', { key: 'v' });
    coloured.log.info('fine');
    expect(coloured.lines[0]).toBe('\x1b[31mE1122 21:04:05.123000\x1b[39m \x1b[31mboom\x1b[39m \x1b[36mkey\x1b[39m=v\n');
    expect(coloured.lines[1]).toBe('\x1b[2mI1122 21:04:05.123000\x1b[22m fine\n');
  });
});

describe('verbosity', () => {
  it('prints v(n) messages only when verbosity >= n; info and errors always', () => {
    const { log, lines } = capture({ verbosity: 2 });
    log.v(1).info('one');
    log.v(2).info('two');
    log.v(3).info('three');
    log.info('zero');
    log.error('err');
    expect(lines.map((l) => l.split(' ').slice(2).join(' ').trim())).toEqual(['one', 'two', 'zero', 'err']);
    expect(log.v(2).enabled).toBe(true);
    expect(log.v(3).enabled).toBe(false);
  });

  it('at verbosity 0 only v(0)', () => {
    const { log, lines } = capture();
    log.v(1).info('hidden');
    log.v(0).info('shown');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('shown');
  });

  it('rejects a negative or fractional verbosity', () => {
    expect(() => createLogger({ verbosity: -1 })).toThrow(RangeError);
    expect(() => createLogger({ verbosity: 1.5 })).toThrow(RangeError);
  });
});

describe('json format', () => {
  it('writes one object per line with ts, level, v, msg and the fields', () => {
    const { log, lines } = capture({ format: 'json', verbosity: 4 });
    log.v(2).info('replicaset sync', { key: 'shop/web', duration: '12ms', adds: 3 });
    log.error('sync failed', { key: 'shop/web', err: new Error('conflict'), when: new Date(T) });
    log.warn('upstream controller detected');
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    expect(lines[0]).toBe(`{"ts":${T / 1000},"level":"info","v":2,"msg":"replicaset sync","key":"shop/web","duration":"12ms","adds":3}\n`);
    expect(JSON.parse(lines[1])).toEqual({
      ts: T / 1000,
      level: 'error',
      msg: 'sync failed',
      key: 'shop/web',
      err: 'conflict',
      when: '2026-11-22T21:04:05.123Z',
    });
    expect(JSON.parse(lines[2])).toEqual({ ts: T / 1000, level: 'warning', v: 0, msg: 'upstream controller detected' });
  });

  it('never lets a field override ts, level, v or msg, and survives circular values', () => {
    const { log, lines } = capture({ format: 'json' });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    log.info('real', { msg: 'fake', level: 'error', _msg: 'kept', loop, big: 10n, u: undefined });
    const o = JSON.parse(lines[0]);
    expect(o.msg).toBe('real');
    expect(o.level).toBe('info');
    expect(o._msg).toBe('kept');
    expect(o.__msg).toBe('fake');
    expect(o._level).toBe('error');
    expect(o.loop).toBe('[object Object]');
    expect(o.big).toBe('10');
    expect(o.u).toBeNull();
  });
});

describe('with', () => {
  it('adds fields to every line of the child logger, the parent unchanged', () => {
    const { log, lines } = capture();
    const child = log.with({ controller: 'replicaset' });
    child.info('sync', { key: 'shop/web' });
    child.v(1).info('hidden');
    log.info('parent');
    expect(lines.map((l) => l.slice(22))).toEqual(['sync controller=replicaset key=shop/web\n', 'parent\n']);
  });
});
