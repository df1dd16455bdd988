// Ctrl-C, one way for every command: the command ends with the status a shell expects of a
// process stopped by Ctrl-C, 130 (128 + SIGINT), so `cmd && next` and `set -e` stop there, as
// they do after kubectl.
//
// Two kinds of work:
// - graceful (run, watch, record, sandbox): the first signal aborts `signal`, the work winds down
//   (finishes syncs in flight, flushes files, restores the terminal), then the command exits 130;
//   a second Ctrl-C does not wait. SIGTERM stops the work the same way but keeps the work's own
//   status: it is how a service is stopped (a pod deleted, systemd), and kube-controller-manager
//   exits 0 after it;
// - at once (a prompt, a history being read): the signal exits 130 (143 for SIGTERM) there and then.
// A Ctrl-C read as a key (a terminal in raw mode: a prompt, the dashboard) is no signal: the code
// that reads it calls interrupt().

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** What the mechanism needs of `process` (a fake in tests). */
export interface SignalTarget {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
  exit(code: number): void;
}

export interface Interruption {
  /** Aborted by the first stop signal (or interrupt()). */
  readonly signal: AbortSignal;
  /** The signal that stopped the work, if one did. */
  readonly received: StopSignal | undefined;
  /** The exit status for the work's end: 130 when Ctrl-C stopped it, else `normal`. */
  exitCode(normal: number): number;
  /** A Ctrl-C that arrived as a key (raw-mode terminal): as if SIGINT had been sent. */
  interrupt(sig?: StopSignal): void;
  /** From here the work stops on `signal` (returned) instead of the process exiting at once: an apply that says what it wrote. */
  graceful(): AbortSignal;
  /** Removes the handlers (the command's end). */
  dispose(): void;
}

export interface InterruptOptions {
  /** Exit at once on the signal, instead of aborting `signal` and letting the work wind down. */
  atOnce?: boolean;
  /** Called before an exit at once (a newline after a prompt, say). */
  beforeExit?: (sig: StopSignal) => void;
  proc?: SignalTarget;
}

export function onInterrupt(o: InterruptOptions = {}): Interruption {
  const proc = o.proc ?? (process as SignalTarget);
  const ac = new AbortController();
  let atOnce = o.atOnce === true;
  let received: StopSignal | undefined;
  const exitNow = (sig: StopSignal) => {
    o.beforeExit?.(sig);
    proc.exit(SIGNAL_EXIT_CODES[sig]);
  };
  const stop = (sig: StopSignal) => {
    // a second Ctrl-C while the work winds down: the user does not want to wait
    if (received !== undefined) return exitNow(sig);
    received = sig;
    if (atOnce) return exitNow(sig);
    ac.abort(new Error(`stopped by ${sig}`));
  };
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]).map((sig) => [sig, () => stop(sig)] as const);
  for (const [sig, h] of handlers) proc.on(sig, h);
  return {
    signal: ac.signal,
    get received() {
      return received;
    },
    exitCode: (normal) => (received === 'SIGINT' ? SIGNAL_EXIT_CODES.SIGINT : normal),
    interrupt: (sig = 'SIGINT') => stop(sig),
    graceful() {
      atOnce = false;
      return ac.signal;
    },
    dispose() {
      for (const [sig, h] of handlers) proc.off(sig, h);
    },
  };
}

/**
 * Asks one question on a terminal. Ctrl-C there is a key, not a signal (readline reads raw):
 * it interrupts, as SIGINT would. Resolves to the answer, or null when interrupted or at the end
 * of the input (Ctrl-D: no answer, which a [y/N] question takes as no).
 */
export async function ask(
  question: string,
  interruption: Interruption,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<string | null> {
  // loaded here: every command imports this module (BaseCommand), few ask anything
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: io.input, output: io.output });
  rl.on('SIGINT', () => {
    io.output.write('\n');
    interruption.interrupt('SIGINT');
  });
  // readline's question never settles when the input ends first
  const ended = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  try {
    return await Promise.race([rl.question(question, { signal: interruption.signal }), ended]);
  } catch (e) {
    if (interruption.signal.aborted) return null;
    throw e;
  } finally {
    rl.close();
  }
}
