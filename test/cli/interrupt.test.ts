// The one Ctrl-C mechanism (src/cli/interrupt.ts), on a fake process.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ask, onInterrupt, type SignalTarget, type StopSignal } from '../../src/cli/interrupt.js';

class FakeProcess implements SignalTarget {
  readonly listeners = new Map<StopSignal, Set<() => void>>();
  readonly exits: number[] = [];
  on(event: StopSignal, l: () => void) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(l);
  }
  off(event: StopSignal, l: () => void) {
    this.listeners.get(event)?.delete(l);
  }
  exit(code: number) {
    this.exits.push(code);
  }
  send(sig: StopSignal) {
    for (const l of [...(this.listeners.get(sig) ?? [])]) l();
  }
  count(): number {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }
}

describe('onInterrupt', () => {
  it('graceful: the first Ctrl-C aborts the work and makes the exit status 130; a second one exits at once', () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc });
    expect(i.exitCode(0)).toBe(0);
    proc.send('SIGINT');
    expect(i.signal.aborted).toBe(true);
    expect(i.received).toBe('SIGINT');
    expect(proc.exits).toEqual([]);
    expect(i.exitCode(0)).toBe(130);
    expect(i.exitCode(1)).toBe(130);
    proc.send('SIGINT');
    expect(proc.exits).toEqual([130]);
    i.dispose();
    expect(proc.count()).toBe(0);
  });

  it('graceful: SIGTERM stops the work but keeps its own status (a service stop, as kube-controller-manager)', () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc });
    proc.send('SIGTERM');
    expect(i.signal.aborted).toBe(true);
    expect(i.exitCode(0)).toBe(0);
    expect(i.exitCode(1)).toBe(1);
  });

  it('at once: the signal exits 130 (143 for SIGTERM) there and then, after beforeExit', () => {
    const proc = new FakeProcess();
    const seen: string[] = [];
    onInterrupt({ proc, atOnce: true, beforeExit: (s) => seen.push(s) });
    proc.send('SIGINT');
    expect(seen).toEqual(['SIGINT']);
    expect(proc.exits).toEqual([130]);
    const other = new FakeProcess();
    onInterrupt({ proc: other, atOnce: true });
    other.send('SIGTERM');
    expect(other.exits).toEqual([143]);
  });

  it('graceful(): at once while reading and asking, then the work (an apply) stops on the signal and says what it wrote', () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc, atOnce: true });
    const signal = i.graceful();
    proc.send('SIGINT');
    expect(proc.exits).toEqual([]);
    expect(signal.aborted).toBe(true);
    expect(i.exitCode(2)).toBe(130);
    proc.send('SIGINT'); // a second Ctrl-C does not wait
    expect(proc.exits).toEqual([130]);
  });

  it('interrupt(): a Ctrl-C read as a key counts as SIGINT', () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc });
    i.interrupt();
    expect(i.signal.aborted).toBe(true);
    expect(i.exitCode(0)).toBe(130);
  });
});

describe('ask', () => {
  it('resolves to the answer typed', async () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc });
    const input = new PassThrough();
    const output = new PassThrough();
    const answer = ask('go on? ', i, { input, output });
    input.write('yes\n');
    expect(await answer).toBe('yes');
  });

  it('resolves to null at the end of the input (Ctrl-D): no answer', async () => {
    const i = onInterrupt({ proc: new FakeProcess() });
    const input = new PassThrough();
    const answer = ask('go on? ', i, { input, output: new PassThrough() });
    input.end();
    expect(await answer).toBe(null);
    expect(i.exitCode(0)).toBe(0);
  });

  it('resolves to null when interrupted while waiting (the prompt then exits 130)', async () => {
    const proc = new FakeProcess();
    const i = onInterrupt({ proc });
    const answer = ask('go on? ', i, { input: new PassThrough(), output: new PassThrough() });
    proc.send('SIGINT');
    expect(await answer).toBe(null);
    expect(i.exitCode(0)).toBe(130);
  });
});
