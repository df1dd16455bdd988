// The krew single executable (issue 20, item 9; scripts/sea.mjs builds it) runs the same direct
// dispatch as dist/bundle/main.cjs. There is no oclif root inside an executable (no
// package.json, no command files to import), so what the dispatch leaves to oclif elsewhere is
// answered here, in the same words oclif uses for it today: no words or a help word (--help, -h,
// help) → the root help or the command's,
// --version → the user agent line, anything else → oclif's "command … not found".
import { displayName, formatCommandHelp, formatRootHelp, helpWidth } from '../cli/help.js';
import { liteConfig, type Manifest, type PackageInfo } from './dispatch.js';

/** What the executable does with words the dispatch does not run. */
export function seaFallback(argv: string[], manifest: Manifest, pkg: PackageInfo): { stdout?: string; stderr?: string; status: number } {
  const config = liteConfig(manifest, pkg);
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (argv[0] === '--version') return { stdout: `${config.userAgent}\n`, status: 0 };
  if (argv.length === 0 || words.includes('--help') || words.includes('-h') || argv[0] === 'help') {
    const subject = words.find((w) => !w.startsWith('-') && w !== 'help');
    const command = subject === undefined ? undefined : manifest.commands[subject];
    if (command) return { stdout: `${formatCommandHelp(command as never, displayName(), helpWidth()).trimEnd()}\n`, status: 0 };
    if (subject === undefined) return { stdout: `${formatRootHelp(config, config.commands as never, displayName(), helpWidth()).trimEnd()}\n`, status: 0 };
  }
  return { stderr: ` ›   Error: command ${argv[0]} not found\n`, status: 2 };
}
