// The terminal around the full-screen dashboard: ink 6 has no alternate-screen option, so we
// switch to the alternate screen ourselves and make sure the user gets their terminal back (main
// screen, cursor shown, cooked mode) on quit, Ctrl-C, SIGTERM/SIGHUP, an error, and even on an
// uncaught exception or an unhandled rejection.

import { oneLine } from '../errors.js';

export const ENTER_ALT_SCREEN = '\x1b[?1049h';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const CLEAR_HOME = '\x1b[2J\x1b[H';
export const SHOW_CURSOR = '\x1b[?25h';

export interface Writable {
  write(text: string): unknown;
}

interface ProcessLike {
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  exit(code?: number): never | void;
}

export interface GuardOptions {
  stdin?: { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stderr?: Writable;
  proc?: ProcessLike;
  /** Called on SIGTERM/SIGHUP/SIGINT after the terminal is restored (default: exit 130/143). */
  onSignal?: (signal: string) => void;
}

export interface TerminalGuard {
  /** Back to the main screen; safe to call any number of times. */
  restore(): void;
  /** Removes the process handlers (after restore, on a normal exit). */
  dispose(): void;
  readonly restored: boolean;
}

const SIGNAL_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export function enterFullScreen(stdout: Writable, o: GuardOptions = {}): TerminalGuard {
  const proc = o.proc ?? process;
  const stderr = o.stderr ?? process.stderr;
  let restored = false;
  stdout.write(ENTER_ALT_SCREEN + CLEAR_HOME);
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (o.stdin?.isTTY && o.stdin.setRawMode) o.stdin.setRawMode(false);
    } catch {
      // the terminal may already be gone
    }
    stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  const fatal = (err: unknown) => {
    restore();
    stderr.write(`error: ${oneLine(err)}\n`);
    if (err instanceof Error && err.stack && process.argv.includes('--debug')) stderr.write(err.stack + '\n');
    proc.exit(2);
  };
  const onExit = () => restore();
  const onSignal = (signal: string) => {
    restore();
    if (o.onSignal) o.onSignal(signal);
    else proc.exit(SIGNAL_CODES[signal] ?? 1);
  };
  const handlers: [string, (...a: any[]) => void][] = [
    ['exit', onExit],
    ['uncaughtException', fatal],
    ['unhandledRejection', fatal],
    ['SIGTERM', () => onSignal('SIGTERM')],
    ['SIGHUP', () => onSignal('SIGHUP')],
    ['SIGINT', () => onSignal('SIGINT')],
  ];
  for (const [event, h] of handlers) proc.on(event, h);
  return {
    restore,
    dispose() {
      for (const [event, h] of handlers) proc.off(event, h);
    },
    get restored() {
      return restored;
    },
  };
}
