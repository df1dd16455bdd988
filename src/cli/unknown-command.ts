// A command name that is not one of ours, answered as kubectl (cobra) answers it:
//
//   error: unknown command "explian" for "kubectl rs-reconcile"
//
//   Did you mean this?
//   	explain
//
//   Run 'kubectl rs-reconcile --help' for usage.
//
// exit status 1. And `help [COMMAND]`, which cobra gives every program. The words are here, with
// no oclif import, so every way in answers the same: oclif's command_not_found hook
// (hooks/command-not-found.ts), the help class for `explian --help`, and the single executable.

import { displayName } from './program-name.js';

/** Levenshtein distance, case-insensitive, as cobra's ld(s, t, ignoreCase=true). */
export function levenshtein(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[t.length];
}

/** cobra's SuggestionsFor: names within distance 2, or starting with what was typed, in name order. */
export function suggestionsFor(typed: string, names: readonly string[]): string[] {
  const lower = typed.toLowerCase();
  return [...names].sort().filter((n) => levenshtein(typed, n) <= 2 || n.toLowerCase().startsWith(lower));
}

/** The whole message, every line ending in a newline (cobra's words and layout). */
export function unknownCommandMessage(typed: string, names: readonly string[], program: string): string {
  const suggestions = suggestionsFor(typed, names);
  const didYouMean = suggestions.length ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}` : '';
  return `error: unknown command ${JSON.stringify(typed)} for ${JSON.stringify(program)}${didYouMean}\nRun '${program} --help' for usage.\n`;
}

/** The commands a user may be pointed to (not the hidden ones). */
export function visibleCommandNames(commands: ReadonlyArray<{ id: string; hidden?: boolean }>): string[] {
  return commands.filter((c) => !c.hidden).map((c) => c.id.replace(/:/g, ' '));
}

/**
 * Flags before the command (`-n shop diff`): cobra's unknown-flag line, and where the command
 * goes when one was given later.
 */
export function flagsFirstMessage(argv: readonly string[], names: readonly string[], program: string): string {
  const flag = argv[0];
  const line = /^-[^-]/.test(flag)
    ? `unknown shorthand flag: '${flag.slice(1, 2)}' in ${flag.replace(/=.*$/, '')}`
    : `unknown flag: ${flag.replace(/=.*$/, '')}`;
  const at = argv.findIndex((a) => names.includes(a));
  const hint = at > 0 ? ` (the command goes first: ${program} ${[argv[at], ...argv.slice(0, at), ...argv.slice(at + 1)].join(' ')})` : '';
  return `error: ${line}${hint}\nRun '${program} --help' for usage.\n`;
}

/** Writes the unknown-command error and sets exit status 1, as cobra does. */
export function reportUnknownCommand(typed: string, commands: ReadonlyArray<{ id: string; hidden?: boolean }>): void {
  process.stderr.write(unknownCommandMessage(typed, visibleCommandNames(commands), displayName()));
  process.exitCode = 1;
}
