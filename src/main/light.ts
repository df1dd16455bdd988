// The light entry: the answers that need nothing but the manifest — the root
// help and a command's `--help`, the completion scripts, and TAB on commands, flags and fixed flag
// values (`completion __complete`) — from a file of their own (dist/bundle/light.cjs, about a
// twentieth of main.cjs), so these starts neither read nor evaluate the commands. boot.cjs asks it
// first; null sends the words on to main.cjs (src/main/dispatch.ts), which prints the same bytes
// through the commands (test/packaging/startup.test.ts compares every form answered here).
import type { Command } from '@oclif/core';
import { displayName, formatCommandHelp, formatRootHelp, helpWidth } from '../cli/help.js';
import { RESOLVE_SCRIPT_DIR } from '../cli/shell.js';
import { formatCobra } from '../completion/cobra.js';
import { bashScript, fishScript, kubectlHelperScript, zshScript } from '../completion/scripts.js';
import { analyze, staticCandidates, type CommandSpec } from '../completion/words.js';
import type { LiteConfig } from './oclif-lite.js';

/** The oclif manifest (oclif.manifest.json) as the build embeds it. */
export interface Manifest {
  version: string;
  commands: Record<string, Command.Cached>;
}

/** The fields of package.json the CLI shows. */
export interface PackageInfo {
  name: string;
  version: string;
  description?: string;
  oclif: Record<string, unknown> & { bin?: string };
}

/** oclif's Config, as far as the commands and the help read it. */
export function liteConfig(manifest: Manifest, pkg: PackageInfo): LiteConfig {
  const bin = pkg.oclif.bin ?? pkg.name;
  return {
    bin,
    name: pkg.name,
    version: pkg.version,
    pjson: pkg,
    commands: Object.values(manifest.commands),
    userAgent: `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`,
  };
}

/** The root help as `--help` prints it (oclif's console.log: one newline at the end). */
export function rootHelp(manifest: Manifest, pkg: PackageInfo): string {
  const config = liteConfig(manifest, pkg);
  return `${formatRootHelp(config, config.commands, displayName(), helpWidth()).trimEnd()}\n`;
}

/** A command's help as `COMMAND --help` prints it. */
export function commandHelp(manifest: Manifest, id: string): string {
  return `${formatCommandHelp(manifest.commands[id], displayName(), helpWidth()).trimEnd()}\n`;
}

/** `completion SHELL`'s scripts (the command prints each with one newline at the end, which each has). */
const SCRIPTS: Record<string, () => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
  kubectl: () => kubectlHelperScript(RESOLVE_SCRIPT_DIR),
};

/**
 * What stdout gets for `argv` when the manifest alone answers it, or null (main.cjs then runs it).
 * Only forms that src/main/dispatch.ts would run itself (never oclif's: -h, help after other
 * words) and that can neither fail nor depend on anything but the words.
 */
export function lightAnswer(argv: readonly string[], manifest: Manifest, pkg: PackageInfo): string | null {
  if (argv.length === 1 && argv[0] === '--help') return rootHelp(manifest, pkg);
  const id = argv[0];
  if (id === undefined || !Object.hasOwn(manifest.commands, id)) return null;
  if (argv.length === 2 && argv[1] === '--help') return commandHelp(manifest, id);
  if (id !== 'completion') return null;
  if (argv.length === 2 && Object.hasOwn(SCRIPTS, argv[1])) return SCRIPTS[argv[1]]();
  if (argv[1] !== '__complete') return null;
  // the words the dispatch reads for --help and -h (before a --) go to it: it decides
  const end = argv.indexOf('--');
  const options = end < 0 ? argv.slice(1) : argv.slice(1, end);
  if (options.includes('--help') || options.includes('-h')) return null;
  const words = argv[2] === '--' ? argv.slice(3) : argv.slice(2);
  // biome-ignore lint/plugin/double-assertion: the embedded manifest is oclif's, whose entries are CommandSpecs; its type here names only the fields the dispatch reads
  const commands = Object.values(manifest.commands) as unknown as CommandSpec[];
  const known = staticCandidates(analyze(words.length ? [...words] : [''], commands), commands);
  return known ? formatCobra(known.candidates, known.directive) : null;
}
