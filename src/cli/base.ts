// The base of every command: one-line errors (exit status 2, stack only with --debug), warnings
// on stderr, the kubectl-diff exit status convention, and Ctrl-C (exit 130, src/cli/interrupt.ts).

import { createWriteStream } from 'node:fs';
import { Command, Errors, Flags } from '@oclif/core';
import { NoObjectsError, oneLine, UserError } from '../errors.js';
import { onInterrupt, type InterruptOptions, type Interruption } from './interrupt.js';
import { displayName } from './program-name.js';
import { isPlainFd, writeFd } from './stdio.js';

export abstract class BaseCommand extends Command {
  static override baseFlags = {
    // every error's one line ends "(run with --debug for details)": say in --help what it is
    debug: Flags.boolean({ description: 'print the stack trace and details of an error', default: false, helpGroup: 'GLOBAL' }),
  };

  private interruption: Interruption | undefined;

  /**
   * The command's Ctrl-C (and SIGTERM): see src/cli/interrupt.ts. Graceful by default: the work
   * stops on `signal`; after Ctrl-C the command then exits 130, whatever it set.
   */
  protected interruptible(o: Omit<InterruptOptions, 'proc'> = {}): Interruption {
    this.interruption ??= onInterrupt(o);
    return this.interruption;
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    const i = this.interruption;
    if (i) {
      i.dispose();
      process.exitCode = i.exitCode(Number(process.exitCode ?? 0));
    }
    return super.finally(err);
  }

  protected warning(message: string): void {
    writeFd(2, `Warning: ${message}\n`);
  }

  protected print(text: string): void {
    writeFd(1, text.endsWith('\n') || text === '' ? text : text + '\n');
  }

  /**
   * Writes a document given in pieces (a plan too large for one string), in writes of about a
   * MiB, waiting for the stream to drain so memory holds one write at a time. A reader that goes
   * away (`| head`) ends the writing quietly. `file`: written there instead (created or
   * replaced), and closed before this returns.
   */
  protected async printChunks(chunks: Iterable<string>, file?: string): Promise<void> {
    if (file !== undefined) {
      const stream = createWriteStream(file);
      const opened = new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
      try {
        await opened;
      } catch (err) {
        throw new UserError(`cannot write ${file}: ${(err as Error).message}`);
      }
      await this.writeChunks(chunks, stream);
      await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
      return;
    }
    if (isPlainFd(1)) {
      // a file, a pipe, /dev/null: written in the same writes, synchronously (src/cli/stdio.ts)
      let buffered: string[] = [];
      let size = 0;
      for (const chunk of chunks) {
        buffered.push(chunk);
        size += chunk.length;
        if (size < 1 << 20) continue;
        if (!writeFd(1, buffered.join(''))) return; // the reader went away
        buffered = [];
        size = 0;
      }
      writeFd(1, buffered.join(''));
      return;
    }
    await this.writeChunks(chunks, process.stdout);
  }

  private async writeChunks(chunks: Iterable<string>, out: NodeJS.WritableStream): Promise<void> {
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
    // what a stopped piece of work throws on its way out is no error of its own
    if (this.interruption?.received && !debug) return;
    if (err instanceof UserError) {
      writeFd(2, `error: ${err instanceof NoObjectsError ? err.forCommand(this.id ?? displayName()) : err.message}\n`);
      if (debug && err.stack) writeFd(2, err.stack + '\n');
      process.exitCode = err.exitCode;
      return;
    }
    // oclif's own parse errors (unknown flag, bad value, missing argument): one line in kubectl's
    // words, naming the flag, the value and what is accepted, then kubectl's usage hint under the
    // name the user ran.
    if (err.oclif?.exit !== undefined) {
      this.parsed = true; // the parse ran and failed: no "did not parse its arguments" warning
      const ctor = this.ctor as { flags?: Record<string, FlagDef>; baseFlags?: Record<string, FlagDef>; args?: Record<string, ArgDef> };
      const line = flagErrorLine(err, { ...ctor.baseFlags, ...ctor.flags }, ctor.args ?? {});
      writeFd(2, `error: ${line}\nSee '${displayName()}${this.id ? ` ${this.id.replace(/:/g, ' ')}` : ''} --help' for usage.\n`);
      process.exitCode = 2;
      return;
    }
    writeFd(2, `error: ${oneLine(err)}${debug ? '' : ' (run with --debug for details)'}\n`);
    if (debug && err.stack) writeFd(2, err.stack + '\n');
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

/**
 * For a flag's `parse`: a value refused with a reason of the flag's own, which the parse error
 * reads as `invalid argument "VALUE" for "-o, --output" flag: REASON`.
 */
export function invalidFlagValue(value: string, reason: string): Error {
  return Object.assign(new Errors.CLIError(reason, { exit: 2 }), { value });
}

/** What a parse error needs of a flag or argument declaration. */
export interface FlagDef {
  name?: string;
  char?: string;
  type?: string;
  options?: readonly string[];
  min?: number;
  max?: number;
}
export interface ArgDef {
  name?: string;
  description?: string;
  options?: readonly string[];
}

/** kubectl's name of a flag in errors: "-o, --output" or "--replicas". */
function flagTitle(name: string, def: FlagDef | undefined): string {
  return def?.char ? `-${def.char}, --${name}` : `--${name}`;
}

/** What a flag accepts, in words: "one of json, yaml", "a whole number ≥ 0". */
export function acceptedValues(def: FlagDef | undefined): string | undefined {
  if (!def) return undefined;
  if (def.options?.length) return `one of ${def.options.join(', ')}`;
  // Flags.integer keeps its bounds on the declaration (min, max)
  const { min, max } = def;
  if (typeof min === 'number' && typeof max === 'number') return `a whole number from ${min} to ${max}`;
  if (typeof min === 'number') return `a whole number ≥ ${min}`;
  if (typeof max === 'number') return `a whole number ≤ ${max}`;
  return undefined;
}

/** The flag a token names: `--output`, `-o`, `--output=x`. */
function lookupFlag(token: string, flags: Record<string, FlagDef>): [string, FlagDef | undefined] {
  const bare = token.replace(/=.*$/, '');
  if (bare.startsWith('--')) return [bare.slice(2), flags[bare.slice(2)]];
  const entry = Object.entries(flags).find(([, f]) => f.char === bare.slice(1, 2));
  return entry ? [entry[0], entry[1]] : [bare.replace(/^-+/, ''), undefined];
}

/**
 * One line for an oclif parse error, in kubectl's words:
 *   invalid argument "abc" for "--replicas" flag: expected a whole number ≥ 0
 *   invalid argument "xml" for "-o, --output" flag: expected one of json, yaml, wide, name
 *   unknown flag: --foo          unknown shorthand flag: 'x' in -x
 *   flag needs an argument: --replicas
 *   missing argument NAME (the controller: NAME, rs/NAME, …)
 *   required flag(s) "output-file" not set
 * Anything else: oclif's own lines joined (parseErrorLine).
 */
export function flagErrorLine(
  err: Error & { flags?: string[]; args?: ArgDef[]; value?: string },
  flags: Record<string, FlagDef>,
  args: Record<string, ArgDef> = {},
): string {
  const message = err.message.replace(/\nSee more help with --help\s*$/, '');
  if (err.name === 'NonExistentFlagsError' || /^Nonexistent flags?:/.test(message)) {
    const list = err.flags ?? message.replace(/^Nonexistent flags?:\s*/, '').split(/,\s*/);
    const first = list[0] ?? '';
    const more = list.length > 1 ? ` (and ${list.slice(1).join(', ')})` : '';
    if (/^-[^-]/.test(first)) return `unknown shorthand flag: '${first.slice(1, 2)}' in ${first}${more}`;
    return `unknown flag: ${first.replace(/=.*$/, '')}${more}`;
  }
  let m = /^Flag (--?\S+) expects a value/.exec(message);
  if (m) {
    const [name, def] = lookupFlag(m[1], flags);
    return def?.char && m[1] === `-${def.char}` ? `flag needs an argument: '${def.char}' in -${def.char}` : `flag needs an argument: --${name}`;
  }
  m = /^Expected --([^=\s]+)=([\s\S]*) to be one of: (.*)$/.exec(message);
  if (m) {
    const def = flags[m[1]];
    return `invalid argument ${JSON.stringify(m[2])} for "${flagTitle(m[1], def)}" flag: expected ${acceptedValues(def) ?? `one of ${m[3]}`}`;
  }
  m = /^Parsing --(\S+)\s*\n\s*([\s\S]*)$/.exec(message);
  if (m) {
    const name = m[1];
    const def = flags[name];
    const reason = m[2].trim();
    const received = err.value ?? /received: ([\s\S]*)$/.exec(reason)?.[1];
    const value = received !== undefined ? ` ${JSON.stringify(received)}` : '';
    const integer = /^Expected an integer/.test(reason);
    const accepted = integer ? (acceptedValues(def) ?? 'a whole number') : undefined;
    const why = accepted ? `expected ${accepted}` : reason.replace(/^Error:\s*/, '').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
    return `invalid argument${value} for "${flagTitle(name, def)}" flag: ${why}`;
  }
  if (err.name === 'RequiredArgsError' || /^Missing \d+ required args?/.test(message)) {
    const missing = (err.args?.length ? err.args : Object.values(args).slice(-Number(/^Missing (\d+)/.exec(message)?.[1] ?? 1))).filter((a) => a.name);
    const words = missing.map((a) => {
      const what = a.options?.length ? `one of ${a.options.join(', ')}` : a.description;
      return `${(a.name ?? '').toUpperCase()}${what ? ` (${what})` : ''}`;
    });
    if (words.length) return `missing argument${words.length > 1 ? 's' : ''} ${words.join(', ')}`;
  }
  // cobra: required flag(s) "output-file" not set
  m = /Missing required flags? ([^\n]+)/.exec(message);
  if (m)
    return `required flag(s) ${m[1]
      .split(/,\s*/)
      .map((f) => JSON.stringify(f.replace(/^-+/, '')))
      .join(', ')} not set`;
  m = /^Unexpected arguments?: (.*)$/.exec(message);
  if (m) return `unexpected argument${m[1].includes(', ') ? 's' : ''}: ${m[1]}`;
  m = /^Expected ([\s\S]*) to be one of: (.*)$/.exec(message);
  if (m) {
    const arg = Object.values(args).find((a) => a.options?.join(', ') === m![2]);
    return `invalid argument ${JSON.stringify(m[1])}${arg?.name ? ` for ${arg.name.toUpperCase()}` : ''}: expected one of ${m[2]}`;
  }
  return parseErrorLine(message);
}
