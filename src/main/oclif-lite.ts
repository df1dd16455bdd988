// What the commands use of @oclif/core, without oclif's start: scripts/bundle.mjs points
// '@oclif/core' here when it builds the single-file entry (dist/bundle/main.cjs). The flags, the
// arguments, the parser and the errors are oclif's own modules, so parsing and its errors are
// oclif's to the byte; Command is the part of oclif's Command (lib/command.js) that runs a command
// found in the manifest: no Config, no plugins, no hooks (this CLI has neither), no flag
// deprecations (no flag of the manifest has one: scripts/single-file.mjs stops the build if one
// does). oclif's own Command needs its Config module and ux: docs/startup.md has what that costs.
import type { Command as OclifCommand } from '@oclif/core';
import * as Args from '@oclif/core/args';
import * as Errors from '@oclif/core/errors';
import * as Flags from '@oclif/core/flags';
import * as Parser from '@oclif/core/parser';
import { format } from 'node:util';

export { Args, Errors, Flags, Parser };

/** The part of oclif's Config the commands read, built from the manifest (src/main/dispatch.ts). */
export interface LiteConfig {
  bin: string;
  name: string;
  version: string;
  pjson: { name: string; version: string; description?: string; oclif: Record<string, unknown> };
  commands: OclifCommand.Cached[];
  userAgent: string;
}

type FlagMap = Record<string, unknown>;

interface CommandClass {
  id: string;
  flags?: FlagMap;
  baseFlags?: FlagMap;
  args?: Record<string, unknown>;
  strict?: boolean;
  enableJsonFlag?: boolean;
  new (argv: string[], config: LiteConfig): Command;
}

const isProd = () => !['development', 'test'].includes(process.env.NODE_ENV ?? '');

export abstract class Command {
  static id: string;
  static args = {};
  static baseFlags: FlagMap | undefined;
  static flags: FlagMap | undefined;
  static strict = true;
  static enableJsonFlag = false;
  static hidden?: boolean;
  static summary?: string;
  static description?: string;
  static examples?: unknown;

  id: string | undefined;
  parsed = false;

  constructor(
    public argv: string[],
    public config: LiteConfig,
  ) {
    this.id = this.ctor.id;
  }

  /** oclif's Command.run: a new instance, then its _run. */
  static async run(this: CommandClass, argv: string[], config: LiteConfig): Promise<unknown> {
    const cmd = new this(argv, config);
    return cmd._run();
  }

  get ctor(): CommandClass {
    return this.constructor as CommandClass;
  }

  abstract run(): Promise<unknown>;

  async _run(): Promise<unknown> {
    let err: unknown;
    let result: unknown;
    try {
      await this.init();
      result = await this.run();
    } catch (error) {
      err = error;
      await this.catch(error as Error);
    } finally {
      await this.finally(err as Error | undefined);
    }
    if (!this.parsed && !isProd()) {
      process.emitWarning(`Command ${this.id} did not parse its arguments. Did you forget to call 'this.parse'?`, { code: 'UnparsedCommand' });
    }
    return result;
  }

  async init(): Promise<void> {}

  async finally(_err: Error | undefined): Promise<void> {}

  protected async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    process.exitCode = process.exitCode ?? err.exitCode ?? 1;
    throw err;
  }

  protected async parse(options: CommandClass = this.ctor, argv: string[] = this.argv): Promise<any> {
    const opts = { context: this, ...options, flags: { ...options.baseFlags, ...options.flags } };
    this.argv = [...argv];
    // biome-ignore lint/plugin/double-assertion: the flags map is oclif-lite's own shape; Parser.parse reads only the fields it holds
    const results = await Parser.parse(argv, opts as unknown as Parameters<typeof Parser.parse>[1]);
    this.parsed = true;
    return results;
  }

  log(message = '', ...args: unknown[]): void {
    process.stdout.write(format(message, ...args) + '\n');
  }

  warn(input: string | Error): string | Error {
    Errors.warn(input);
    return input;
  }

  error(input: string | Error, options: { code?: string; exit?: number } = {}): never {
    return Errors.error(input, options as { exit: number });
  }

  exit(code = 0): never {
    return Errors.exit(code);
  }
}
