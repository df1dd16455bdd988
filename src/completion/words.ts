// What the word under the cursor asks for, read from the words before it as oclif's parser would
// read them, and the candidates known from the oclif manifest alone (commands, flags, fixed
// values): no I/O, so a TAB on these loads nothing else (src/main/light.ts answers them).

import type { Command } from '@oclif/core';
import { nameOrder } from '../core/order.js';

type CachedFlag = Command.Flag.Cached;

/** What a completion needs to know of a command (a subset of the oclif manifest entry). */
export interface CommandSpec {
  id: string;
  summary?: string;
  description?: string;
  hidden?: boolean;
  strict?: boolean;
  flags: Record<string, CachedFlag>;
  args: Record<string, { name: string; description?: string; options?: readonly string[]; hidden?: boolean }>;
}

/** cobra's ShellCompDirective bits. */
export const Directive = { Default: 0, Error: 1, NoSpace: 2, NoFileComp: 4 } as const;

export interface Candidate {
  value: string;
  description?: string;
}

/** What the word under the cursor is, after reading the words before it. */
export type Need =
  | { kind: 'none' }
  | { kind: 'commands'; prefix: string }
  | { kind: 'root-flags'; prefix: string }
  | { kind: 'flags'; command: CommandSpec; prefix: string; given: Set<string> }
  | { kind: 'flag-value'; command: CommandSpec; flag: CachedFlag; prefix: string; insertPrefix: string; context: WordsContext }
  | { kind: 'arg'; command: CommandSpec; arg: CommandSpec['args'][string]; prefix: string; context: WordsContext };

/** The flags found in the words (last value wins; repeatable ones collected). */
export interface WordsContext {
  values: Map<string, string[]>;
  positionals: string[];
}

/** The argument that names controllers (rs/NAME, rc/NAME, deploy/NAME): looked up. */
const CONTROLLER_ARG = 'name';
/**
 * The hidden second argument of a command that takes one object (explain, history): the NAME of
 * kubectl's `TYPE NAME`. Offered only after a TYPE (src/completion/engine.ts), the only order
 * that parses.
 */
export const NAME_OF_TYPE_ARG = 'name-of-type';

function findFlag(cmd: CommandSpec, token: string): CachedFlag | undefined {
  if (token.startsWith('--')) return cmd.flags[token.slice(2)];
  return Object.values(cmd.flags).find((f) => f.char === token.slice(1, 2));
}

const takesValue = (f: CachedFlag) => f.type === 'option';

/** Reads `words` (everything after the program name; the last one is being completed). */
export function analyze(words: string[], commands: CommandSpec[]): Need {
  const cur = words.length ? words[words.length - 1] : '';
  const before = words.slice(0, -1);
  const first = before.findIndex((w) => !w.startsWith('-'));
  if (first < 0) return cur.startsWith('-') ? { kind: 'root-flags', prefix: cur } : { kind: 'commands', prefix: cur };
  const command = commands.find((c) => c.id === before[first] || c.id.replace(/:/g, ' ') === before[first]);
  if (!command) return { kind: 'none' };

  const context: WordsContext = { values: new Map(), positionals: [] };
  const record = (f: CachedFlag, value: string) => context.values.set(f.name, [...(context.values.get(f.name) ?? []), value]);
  let pending: CachedFlag | undefined;
  let rest = false;
  for (const w of before.slice(first + 1)) {
    if (pending) {
      record(pending, w);
      pending = undefined;
    } else if (rest || w === '-' || !w.startsWith('-')) {
      context.positionals.push(w);
    } else if (w === '--') {
      rest = true;
    } else if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const f = findFlag(command, eq < 0 ? w : w.slice(0, eq));
      if (!f) continue;
      if (eq >= 0) record(f, w.slice(eq + 1));
      else if (takesValue(f)) pending = f;
      else record(f, 'true');
    } else {
      // -n shop, -nshop, -Ay (booleans may be grouped)
      for (let i = 1; i < w.length; i++) {
        const f = Object.values(command.flags).find((x) => x.char === w[i]);
        if (!f) break;
        if (takesValue(f)) {
          if (i + 1 < w.length) record(f, w.slice(i + 1));
          else pending = f;
          break;
        }
        record(f, 'true');
      }
    }
  }

  if (pending) return { kind: 'flag-value', command, flag: pending, prefix: cur, insertPrefix: '', context };
  if (!rest && cur.startsWith('--') && cur.includes('=')) {
    const eq = cur.indexOf('=');
    const f = findFlag(command, cur.slice(0, eq));
    if (!f || !takesValue(f)) return { kind: 'none' };
    return { kind: 'flag-value', command, flag: f, prefix: cur.slice(eq + 1), insertPrefix: cur.slice(0, eq + 1), context };
  }
  if (!rest && cur.startsWith('-')) {
    const given = new Set(
      [...context.values.keys()].filter((n) => !(command.flags[n]?.type === 'option' && (command.flags[n] as { multiple?: boolean }).multiple)),
    );
    return { kind: 'flags', command, prefix: cur, given };
  }
  const args = Object.values(command.args).filter((a) => !a.hidden || a.name === NAME_OF_TYPE_ARG);
  if (!args.length) return { kind: 'none' };
  const variadic = command.strict === false;
  const index = context.positionals.length;
  if (index >= args.length && !variadic) return { kind: 'none' };
  const arg = args[Math.min(index, args.length - 1)];
  // TYPE/NAME is a whole object: no NAME follows it
  if (arg.name === NAME_OF_TYPE_ARG && context.positionals[0]?.includes('/')) return { kind: 'none' };
  return { kind: 'arg', command, arg, prefix: cur, context };
}

export const startsWith = (prefix: string) => (c: Candidate) => c.value.startsWith(prefix);

/** Flags whose value is a path: the shell's own file completion. */
const FILE_FLAGS = new Set(['filename', 'kubeconfig', 'seed', 'audit-log']);
/** Flags whose values are looked up: in the cluster or the kubeconfig. */
const LOOKUP_FLAGS = new Set(['namespace', 'context', 'cluster', 'user', 'leader-elect-namespace']);

/** Candidates known without any I/O, or null when the need requires a lookup. */
export function staticCandidates(need: Need, commands: CommandSpec[]): { candidates: Candidate[]; directive: number } | null {
  switch (need.kind) {
    case 'none':
      return { candidates: [], directive: Directive.NoFileComp };
    case 'commands':
      return {
        candidates: commands
          .filter((c) => !c.hidden)
          .map((c) => ({ value: c.id.replace(/:/g, ' '), description: c.summary ?? c.description?.split('\n')[0] }))
          .filter(startsWith(need.prefix))
          .sort((a, b) => nameOrder(a.value, b.value)),
        directive: Directive.NoFileComp,
      };
    case 'root-flags':
      return {
        candidates: [
          { value: '--help', description: 'show help' },
          { value: '--version', description: 'show the version' },
        ].filter(startsWith(need.prefix)),
        directive: Directive.NoFileComp,
      };
    case 'flags': {
      const out: Candidate[] = [];
      for (const f of Object.values(need.command.flags).sort((a, b) => nameOrder(a.name, b.name))) {
        if (f.hidden || need.given.has(f.name)) continue;
        const description = (f.summary || f.description || '').split('\n')[0];
        out.push({ value: `--${f.name}`, description });
        if (f.char && !need.prefix.startsWith('--')) out.push({ value: `-${f.char}`, description });
      }
      return { candidates: out.filter(startsWith(need.prefix)), directive: Directive.NoFileComp };
    }
    case 'flag-value': {
      const f = need.flag;
      if (f.type === 'option' && f.options?.length) {
        return {
          candidates: f.options.map((o) => ({ value: need.insertPrefix + o })).filter(startsWith(need.insertPrefix + need.prefix)),
          directive: Directive.NoFileComp,
        };
      }
      if (FILE_FLAGS.has(f.name)) return { candidates: [], directive: Directive.Default };
      if (LOOKUP_FLAGS.has(f.name)) return null;
      return { candidates: [], directive: Directive.NoFileComp };
    }
    case 'arg': {
      if (need.arg.options?.length)
        return { candidates: need.arg.options.map((o) => ({ value: o })).filter(startsWith(need.prefix)), directive: Directive.NoFileComp };
      if (need.arg.name === CONTROLLER_ARG || need.arg.name === NAME_OF_TYPE_ARG) return null;
      return { candidates: [], directive: Directive.NoFileComp };
    }
  }
}

/** The last value given for a flag in the words. */
export const lastValue = (ctx: WordsContext, name: string) => ctx.values.get(name)?.at(-1);
