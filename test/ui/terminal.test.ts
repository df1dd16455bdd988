import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CLEAR_HOME, ENTER_ALT_SCREEN, enterFullScreen, LEAVE_ALT_SCREEN, SHOW_CURSOR } from '../../src/ui/terminal.js';

class FakeProcess extends EventEmitter {
  exits: (number | undefined)[] = [];
  exit(code?: number) {
    this.exits.push(code);
  }
}

function setup(onSignal?: (s: string) => void) {
  const out: string[] = [];
  const err: string[] = [];
  const raw: boolean[] = [];
  const proc = new FakeProcess();
  const guard = enterFullScreen(
    { write: (t: string) => out.push(t) },
    { proc, stderr: { write: (t: string) => err.push(t) }, stdin: { isTTY: true, setRawMode: (r: boolean) => raw.push(r) }, onSignal },
  );
  return { out, err, raw, proc, guard };
}

describe('terminal guard (alternate screen)', () => {
  it('enters the alternate screen, and restores once: main screen, cursor, cooked mode', () => {
    const { out, raw, guard } = setup();
    expect(out).toEqual([ENTER_ALT_SCREEN + CLEAR_HOME]);
    guard.restore();
    guard.restore();
    expect(out).toEqual([ENTER_ALT_SCREEN + CLEAR_HOME, SHOW_CURSOR + LEAVE_ALT_SCREEN]);
    expect(raw).toEqual([false]);
    expect(guard.restored).toBe(true);
  });

  it('restores on an uncaught exception or an unhandled rejection, prints one line, exits 2', () => {
    for (const event of ['uncaughtException', 'unhandledRejection']) {
      const { out, err, proc } = setup();
      proc.emit(event, new Error('boom\nsecond line'));
      expect(out[out.length - 1]).toBe(SHOW_CURSOR + LEAVE_ALT_SCREEN);
      expect(err).toEqual(['error: boom\n']);
      expect(proc.exits).toEqual([2]);
    }
  });

  it('restores on SIGTERM / SIGHUP / SIGINT (then the caller stops), and at process exit', () => {
    const seen: string[] = [];
    const { out, proc } = setup((s) => seen.push(s));
    proc.emit('SIGTERM');
    expect(out[out.length - 1]).toBe(SHOW_CURSOR + LEAVE_ALT_SCREEN);
    expect(seen).toEqual(['SIGTERM']);
    const b = setup();
    b.proc.emit('SIGHUP');
    expect(b.proc.exits).toEqual([129]);
    const c = setup();
    c.proc.emit('exit');
    expect(c.out[c.out.length - 1]).toBe(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  });

  it('dispose removes every handler', () => {
    const { proc, guard } = setup();
    expect(proc.listenerCount('uncaughtException')).toBe(1);
    guard.restore();
    guard.dispose();
    for (const e of ['exit', 'uncaughtException', 'unhandledRejection', 'SIGTERM', 'SIGHUP', 'SIGINT']) expect(proc.listenerCount(e)).toBe(0);
  });
});
