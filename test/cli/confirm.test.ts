// reconcile's [y/N] question (src/cli/confirm.ts): only y or yes is a yes, and no terminal means no question.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirm, NO_TERMINAL } from '../../src/cli/confirm.js';
import { onInterrupt, type SignalTarget } from '../../src/cli/interrupt.js';
import { UserError } from '../../src/errors.js';

const proc: SignalTarget = { on() {}, off() {}, exit() {} };

function terminal(): PassThrough & { isTTY: boolean } {
  return Object.assign(new PassThrough(), { isTTY: true });
}

async function answer(typed: string | null): Promise<{ yes: boolean; shown: string }> {
  const input = terminal();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d) => (shown += String(d)));
  const result = confirm('Delete 2 pods? [y/N] ', { input, output, interruption: onInterrupt({ proc }) });
  if (typed === null) input.end();
  else input.write(typed + '\n');
  return { yes: await result, shown };
}

describe('confirm', () => {
  it('y and yes, in any case and with spaces around, are a yes; the question is shown', async () => {
    for (const typed of ['y', 'yes', 'Y', ' YES ']) expect((await answer(typed)).yes, typed).toBe(true);
    expect((await answer('y')).shown).toContain('Delete 2 pods? [y/N] ');
  });

  it('anything else is a no: n, an empty line, a word that starts with y, the end of the input', async () => {
    for (const typed of ['n', 'no', '', 'yep', 'yes please', null]) expect((await answer(typed)).yes, String(typed)).toBe(false);
  });

  it('Ctrl-C at the question is a no', async () => {
    const listeners: (() => void)[] = [];
    const fake: SignalTarget = { on: (_s, l) => void listeners.push(l), off() {}, exit() {} };
    const interruption = onInterrupt({ proc: fake, atOnce: false });
    const result = confirm('go on? ', { input: terminal(), output: new PassThrough(), interruption });
    for (const l of listeners) l();
    expect(await result).toBe(false);
  });

  it('refuses without a terminal, or when stdin already carried the plan: never a silent yes', async () => {
    const notTty = Object.assign(new PassThrough(), { isTTY: false });
    await expect(confirm('go on? ', { input: notTty, output: new PassThrough(), interruption: onInterrupt({ proc }) })).rejects.toThrow(
      new UserError(NO_TERMINAL),
    );
    await expect(confirm('go on? ', { input: terminal(), output: new PassThrough(), interruption: onInterrupt({ proc }) }, true)).rejects.toThrow(NO_TERMINAL);
  });
});
