// The [y/N] question before a command writes to a cluster. Only a person at a terminal can answer
// it: anywhere else the command is refused (a script says --yes), never taken as a yes.

import { UserError } from '../errors.js';
import { ask, type Interruption } from './interrupt.js';

export interface ConfirmIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  interruption: Interruption;
}

/** What a refused confirmation says: why no one can answer, and what to pass instead. */
export const NO_TERMINAL = 'refusing to write to the cluster without confirmation: stdin is not a terminal, pass --yes (or --dry-run=client|server)';

/**
 * Asks `question`; true only for y or yes (any case, spaces around). No, anything else, an empty
 * line, the end of the input (Ctrl-D) and Ctrl-C are all a no. `inputTaken`: stdin already read
 * for something else (a plan from -): no answer can come from it.
 */
export async function confirm(question: string, io: ConfirmIO, inputTaken = false): Promise<boolean> {
  if (!io.input.isTTY || inputTaken) throw new UserError(NO_TERMINAL);
  const answer = (await ask(question, io.interruption, { input: io.input, output: io.output }))?.trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}
