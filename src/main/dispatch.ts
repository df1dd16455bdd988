// Direct dispatch: the commands and their --help run from the oclif manifest
// without oclif's start (Config.load: package.json, the manifest file, plugins, hooks; @oclif/core's
// whole index). scripts/bundle.mjs builds this into one CommonJS file (dist/bundle/main.cjs) with
// '@oclif/core' pointed at src/main/oclif-lite.ts, and the krew single executable runs the same
// file, and each hot command's own file (main-<command>.cjs) runs it with that command only. What it does not recognise is left to oclif (the caller runs oclif when this returns
// false): other help forms, --version, unknown commands and their suggestions.
import { commandHelp, liteConfig, rootHelp, type Manifest, type PackageInfo } from './light.js';
import { whenStdoutMade } from '../cli/stdio.js';
import type { LiteConfig } from './oclif-lite.js';

type CommandModule = { default: { id: string; run(argv: string[], config: LiteConfig): Promise<unknown> } };

/** Each command's module, loaded on demand: src/main/commands.ts's COMMANDS, or one command's. */
export type CommandLoaders = Record<string, () => Promise<unknown>>;

/** What the words ask for: a command's help, the root help, a command run, or oclif's to decide. */
export function route(argv: string[], manifest: Manifest, commands: CommandLoaders): { kind: 'root-help' } | { kind: 'help' | 'run'; id: string } | null {
  if (argv.length === 1 && argv[0] === '--help') return { kind: 'root-help' };
  const id = argv[0];
  if (id === undefined || !Object.hasOwn(manifest.commands, id) || !Object.hasOwn(commands, id)) return null;
  const end = argv.indexOf('--');
  const words = end < 0 ? argv.slice(1) : argv.slice(1, end);
  if (words.includes('--help')) return words.length === 1 ? { kind: 'help', id } : null; // oclif finds the subject of anything longer
  if (words.includes('-h')) return null; // kubectl's -h: oclif's path (bin/run.js, src/cli) decides what it means
  return { kind: 'run', id };
}

/** Runs what `argv` asks for; false when it is oclif's to handle. */
export async function dispatch(argv: string[], manifest: Manifest, pkg: PackageInfo, commands: CommandLoaders): Promise<boolean> {
  const r = route(argv, manifest, commands);
  if (r === null) return false;
  // as oclif's Command module does: a reader that goes away (`| head`) is not an error. Put on
  // process.stdout when something makes it: diff and explain write a file or a pipe without it
  // (src/cli/stdio.ts)
  whenStdoutMade((s) =>
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    }),
  );
  // (the help is src/main/light.ts's, which answers these first when boot.cjs runs it)
  if (r.kind === 'root-help') {
    process.stdout.write(rootHelp(manifest, pkg));
    return true;
  }
  if (r.kind === 'help') {
    process.stdout.write(commandHelp(manifest, r.id));
    return true;
  }
  const config = liteConfig(manifest, pkg);
  try {
    const Cmd = ((await commands[r.id]()) as CommandModule).default;
    Cmd.id = r.id; // oclif sets it from the manifest when it loads the class
    await Cmd.run(argv.slice(1), config);
  } catch (err) {
    await handleError(err as Error & { oclif?: { exit?: number } });
  }
  return true;
}

/** oclif's execute: its error handler prints what a command threw and sets the exit status. */
async function handleError(err: Error & { oclif?: { exit?: number } }): Promise<void> {
  const { handle } = await import('@oclif/core/handle');
  await handle(err);
}
