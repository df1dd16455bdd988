// fanOutSignal: the stop that many parts of a run listen on, without Node.js's leak warning.
import { getEventListeners, getMaxListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fanOutSignal } from '../../src/runtime/signal.js';

/** The MaxListenersExceededWarnings Node.js emits while `fn` adds listeners (it emits them on the next tick). */
async function leakWarnings(fn: () => void): Promise<string[]> {
  const seen: string[] = [];
  const onWarning = (w: Error) => {
    if (w.name === 'MaxListenersExceededWarning') seen.push(w.message);
  };
  process.on('warning', onWarning);
  try {
    fn();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', onWarning);
  }
  return seen;
}

describe('fanOutSignal', () => {
  it("aborts when the stop does, with the stop's reason; an aborted stop gives an aborted signal", () => {
    const stop = new AbortController();
    const signal = fanOutSignal(stop.signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('stopped by SIGINT');
    stop.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const done = new AbortController();
    done.abort('gone');
    const late = fanOutSignal(done.signal);
    expect(late.aborted).toBe(true);
    expect(late.reason).toBe('gone');
  });

  it('takes any number of listeners without a leak warning, and puts one on the stop', async () => {
    // a signal's own limit: Node.js warns on its 11th listener
    expect(getMaxListeners(new AbortController().signal)).toBe(10);
    const stop = new AbortController();
    const signal = fanOutSignal(stop.signal);
    let heard = 0;
    expect(
      await leakWarnings(() => {
        for (let i = 0; i < 50; i++) signal.addEventListener('abort', () => heard++, { once: true });
      }),
    ).toEqual([]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    expect(heard).toBe(50);
  });
});
