// The base of every command: one-line errors (exit status 2, stack only with --debug), warnings
// on stderr, and the kubectl-diff exit status convention.

import { Command, Errors, Flags } from '@oclif/core';
import { oneLine, UserError } from '../errors.js';

export abstract class BaseCommand extends Command {
  static override baseFlags = {
    debug: Flags.boolean({ description: 'print stack traces of errors', default: false, hidden: true }),
  };

  protected warning(message: string): void {
    process.stderr.write(`warning: ${message}\n`);
  }

  protected print(text: string): void {
    process.stdout.write(text.endsWith('\n') || text === '' ? text : text + '\n');
  }

  /**
   * Writes a document given in pieces (a plan too large for one string), in writes of about a
   * MiB, waiting for the stream to drain so memory holds one write at a time. A reader that goes
   * away (`| head`) ends the writing quietly.
   */
  protected async printChunks(chunks: Iterable<string>): Promise<void> {
    const out = process.stdout;
    let closed = false;
    let wake: (() => void) | null = null;
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      closed = true;
      wake?.();
    };
    out.on('error', onError);
    let buffered: string[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0 || closed) return;
      const text = buffered.join('');
      buffered = [];
      size = 0;
      if (!out.write(text)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          out.once('drain', resolve);
        });
        wake = null;
      }
    };
    try {
      for (const chunk of chunks) {
        if (closed) break;
        buffered.push(chunk);
        size += chunk.length;
        if (size >= 1 << 20) await flush();
      }
      await flush();
    } finally {
      out.off('error', onError);
    }
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err;
    const debug = this.argv.includes('--debug');
    if (err instanceof UserError) {
      process.stderr.write(`error: ${err.message}\n`);
      if (debug && err.stack) process.stderr.write(err.stack + '\n');
      process.exitCode = err.exitCode;
      return;
    }
    // oclif's own parse errors (unknown flag, bad option, a value out of bounds): one line plus
    // its help hint. oclif puts the reason on a second line ("Parsing --workers\n\tExpected an
    // integer greater than or equal to 1…"): it is kept, joined to the first.
    if (err.oclif?.exit !== undefined) {
      process.stderr.write(`error: ${parseErrorLine(err.message)}\nSee '${this.config.bin} ${this.id ?? ''} --help'.\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`error: ${oneLine(err)}${debug ? '' : ' (run with --debug for details)'}\n`);
    if (debug && err.stack) process.stderr.write(err.stack + '\n');
    process.exitCode = 2;
    return;
  }
}

/** An oclif parse error's lines as one, without its own "See more help" line. */
export function parseErrorLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== 'See more help with --help');
  let out = (lines.shift() ?? '').replace(/^Error:\s*/, '');
  for (const l of lines) out += /[:]$/.test(out) ? ` ${l}` : `: ${l}`;
  return out || oneLine(message);
}
