// The krew single executable (scripts/sea.mjs builds it) runs the same direct
// dispatch as dist/bundle/main.cjs. There is no oclif root inside an executable (no
// package.json, no command files to import), so what the dispatch leaves to oclif elsewhere is
// answered here, in the same words oclif uses for it today: no words or a help word (--help, -h,
// help) → the root help or the command's,
// --version → the client lines of `version` (as oclif's init hook has it answered elsewhere), an unknown command (or `help` of one) → kubectl's answer, as
// oclif's command_not_found hook gives it elsewhere (src/cli/unknown-command.ts).
import { displayName, formatCommandHelp, formatRootHelp, helpWidth } from '../cli/help.js';
import { versionAnswer } from '../cli/hooks/init.js';
import { flagsFirstMessage, unknownCommandMessage, visibleCommandNames } from '../cli/unknown-command.js';
import { liteConfig, type Manifest, type PackageInfo } from './light.js';

/** What the executable does with words the dispatch does not run. */
export function seaFallback(argv: string[], manifest: Manifest, pkg: PackageInfo): { stdout?: string; stderr?: string; status: number } {
  const config = liteConfig(manifest, pkg);
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (argv[0] === '--version') return { stdout: `${versionAnswer(pkg.version)}\n`, status: 0 };
  if (argv.length === 0 || words.includes('--help') || words.includes('-h') || argv[0] === 'help') {
    const subject = words.find((w) => !w.startsWith('-') && w !== 'help');
    const command = subject === undefined ? undefined : manifest.commands[subject];
    if (command) return { stdout: `${formatCommandHelp(command, displayName(), helpWidth()).trimEnd()}\n`, status: 0 };
    if (subject === undefined) return { stdout: `${formatRootHelp(config, config.commands, displayName(), helpWidth()).trimEnd()}\n`, status: 0 };
  }
  const names = visibleCommandNames(Object.values(manifest.commands));
  if (argv[0].startsWith('-') && argv[0] !== '-') return { stderr: flagsFirstMessage(argv, names, displayName()), status: 1 };
  const typed = argv[0] === 'help' ? (words.find((w) => w !== 'help' && !w.startsWith('-')) ?? 'help') : argv[0];
  return { stderr: unknownCommandMessage(typed, names, displayName()), status: 1 };
}
