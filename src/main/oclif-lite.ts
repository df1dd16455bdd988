// What the commands use of @oclif/core, without oclif's start: scripts/bundle.mjs points
// '@oclif/core' here when it builds the single-file entry (dist/bundle/main.cjs). The flags, the
// arguments, the parser and the errors are oclif's own modules, so parsing and its errors are
// oclif's to the byte; Command is the part of oclif's Command that runs a command found in the
// manifest (no plugins, no hooks: this CLI has neither). Evaluating @oclif/core's index and its
// Config (plugins, manifest files, package.json reading) was a third of every start (issue 20).
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
  commands: Array<{ id: string } & Record<string, unknown>>;
  userAgent: string;
}

type Deprecation = true | { message?: string; to?: string; version?: string };
type FlagMap = Record<
  string,
  { name?: string; deprecated?: Deprecation | false; deprecateAliases?: boolean; char?: string; aliases?: string[]; charAliases?: string[] }
>;

interface CommandClass {
  id: string;
  flags?: FlagMap;
  baseFlags?: FlagMap;
  args?: Record<string, unknown>;
  strict?: boolean;
  enableJsonFlag?: boolean;
  new (argv: string[], config: LiteConfig): Command;
}

/** oclif's formatFlagDeprecationWarning (lib/help/util.js), which is not exported on its own. */
function deprecationWarning(flag: string, opts: Deprecation): string {
  let message = `The "${flag}" flag has been deprecated`;
  if (opts === true) return `${message}.`;
  if (opts.message) return opts.message;
  if (opts.version) message += ` and will be removed in version ${opts.version}`;
  return message + (opts.to ? `. Use "${opts.to}" instead.` : '.');
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
    this.warnIfFlagDeprecated((results.flags ?? {}) as Record<string, unknown>);
    this.parsed = true;
    return results;
  }

  private warnIfFlagDeprecated(flags: Record<string, unknown>): void {
    const all: FlagMap = { ...this.ctor.baseFlags, ...this.ctor.flags };
    for (const flag of Object.keys(flags)) {
      const def = all[flag];
      if (def?.deprecated) this.warn(deprecationWarning(flag, def.deprecated));
      if (!def?.deprecateAliases) continue;
      const aliases = [...new Set([...(def.aliases ?? []), ...(def.charAliases ?? [])])].map((a) => (a.length === 1 ? `-${a}` : `--${a}`));
      for (const alias of aliases.filter((a) => this.argv.includes(a)))
        this.warn(deprecationWarning(alias, { to: `--${def.name}${def.char ? ` | -${def.char}` : ''}` }));
    }
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
