// `--help` as kubectl prints it: the summary, the long description, "Examples:" with a "#" comment
// per example, the options with their defaults ("-o, --output='':"), "Usage:" and a pointer line.
// Invoked as a kubectl plugin the program is called "kubectl rs-reconcile" (src/cli/program-name.ts).
//
// oclif loads this class only to show help (package.json oclif.helpClass), from the manifest: no
// command module is imported for --help.

import { Help, type Command, type Interfaces } from '@oclif/core';
import { nameOrder } from '../core/order.js';
import { displayName } from './program-name.js';
import { reportUnknownCommand } from './unknown-command.js';

export { displayName };

/** A command as the manifest holds it: all that help reads (no module is loaded for help). */
type Loadable = Command.Cached;
type CachedFlag = Command.Flag.Cached;

/** Replaces oclif's `<%= config.bin %>` in examples with the name the user typed. */
export function substituteBin(text: string, name: string): string {
  return text.replace(/<%=\s*config\.bin\s*%>/g, name);
}

/** The usage line: `diff [NAME...] [flags]`, `explain NAME [flags]`. */
export function usageOf(cmd: Pick<Loadable, 'id' | 'args' | 'strict'>): string {
  const parts = [cmd.id.replace(/:/g, ' ')];
  const args = Object.values(cmd.args ?? {}).filter((a) => !a.hidden);
  args.forEach((a, i) => {
    const name = a.name.toUpperCase();
    const last = i === args.length - 1;
    const variadic = last && cmd.strict === false;
    parts.push(a.required ? (variadic ? `${name} [${name}...]` : name) : variadic ? `[${name}...]` : `[${name}]`);
  });
  parts.push('[flags]');
  return parts.join(' ');
}

function quoteDefault(flag: CachedFlag): string {
  if (flag.type === 'boolean') return String(flag.default === true);
  if (flag.type === 'option' && flag.multiple) return Array.isArray(flag.default) ? `[${flag.default.join(',')}]` : '[]';
  const d = flag.default;
  if (d === undefined || d === null) return "''";
  if (typeof d === 'number') return String(d);
  return `'${String(d)}'`;
}

/** kubectl's flag heading: `-o, --output='':` or `--burst-replicas=500:`. */
export function flagSignature(flag: CachedFlag): string {
  const long = `--${flag.name}=${quoteDefault(flag)}:`;
  return flag.char ? `-${flag.char}, ${long}` : long;
}

/** The flag's description as a sentence, with its allowed values. */
export function flagText(flag: CachedFlag): string {
  let text = (flag.summary || flag.description || '').trim();
  if (text) text = text[0].toUpperCase() + text.slice(1);
  if (text && !/[.!?]$/.test(text)) text += '.';
  if (flag.type === 'option' && flag.options?.length) text += `${text ? ' ' : ''}One of: ${flag.options.join('|')}.`;
  if (flag.type === 'option' && flag.multiple && !/repeatable/i.test(text)) text += `${text ? ' ' : ''}Repeatable.`;
  return text;
}

/** Greedy word wrap of `text` to `width` columns, every line prefixed with `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        out.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(indent + line);
  }
  return out.join('\n');
}

const GROUP_TITLES: Record<string, string> = {
  '': 'Options',
  'WHAT-IF': 'What-if options',
  RECONCILE: 'Reconcile options',
  CLUSTER: 'Cluster connection options',
  // the flags of every command (BaseCommand.baseFlags): --debug
  GLOBAL: 'Global options',
};
const GROUP_ORDER = ['', 'WHAT-IF', 'RECONCILE', 'CLUSTER', 'GLOBAL'];

/** The option sections of a command, kubectl style, grouped by helpGroup. */
export function formatFlags(flags: Record<string, CachedFlag>, width: number): string {
  const groups = new Map<string, CachedFlag[]>();
  for (const f of Object.values(flags)) {
    if (f.hidden) continue;
    const g = (f.helpGroup ?? '').toUpperCase();
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(f);
  }
  const order = [...GROUP_ORDER.filter((g) => groups.has(g)), ...[...groups.keys()].filter((g) => !GROUP_ORDER.includes(g)).sort()];
  const sections: string[] = [];
  for (const g of order) {
    const list = groups.get(g)!.sort((a, b) => nameOrder(a.name, b.name));
    const title = GROUP_TITLES[g] ?? `${g[0]}${g.slice(1).toLowerCase()} options`;
    const body = list.map((f) => {
      const text = flagText(f);
      return `    ${flagSignature(f)}${text ? '\n' + wrap(text, width, '        ') : ''}`;
    });
    sections.push(`${title}:\n${body.join('\n\n')}`);
  }
  return sections.join('\n\n');
}

function examplesOf(cmd: Pick<Loadable, 'examples'>, name: string): string {
  const blocks = (cmd.examples ?? []).map((e) => {
    const { description, command } = typeof e === 'string' ? { description: '', command: e } : e;
    const lines = substituteBin(command, name)
      .split('\n')
      .map((l) => `  ${l}`);
    return (description ? [`  # ${description}`, ...lines] : lines).join('\n');
  });
  return blocks.join('\n\n');
}

/** The whole help of one command. */
export function formatCommandHelp(cmd: Loadable, name: string, width: number): string {
  const out: string[] = [];
  const summary = cmd.summary ?? cmd.description?.split('\n\n')[0] ?? '';
  if (summary) out.push(wrap(substituteBin(summary, name), width, ''));
  if (cmd.description && cmd.description !== summary) {
    out.push(
      substituteBin(cmd.description, name)
        .split('\n')
        .map((l) => (l ? ` ${l}` : ''))
        .join('\n'),
    );
  }
  const examples = examplesOf(cmd, name);
  if (examples) out.push(`Examples:\n${examples}`);
  const flags = formatFlags(cmd.flags ?? {}, width);
  if (flags) out.push(flags);
  out.push(`Usage:\n  ${name} ${usageOf(cmd)}`);
  out.push(`Use "${name} --help" for a list of commands.`);
  return out.join('\n\n') + '\n';
}

const COMMAND_GROUPS: Array<[string, string[]]> = [
  ['Explain and audit (read-only)', ['explain', 'diff', 'watch']],
  ['Tell what the controller did (read-only)', ['history', 'record']],
  ['Act on a cluster', ['reconcile', 'run']],
  ['Try it without a cluster', ['sandbox']],
];

/** The help of the whole CLI: commands grouped as kubectl groups its own, then usage. */
export function formatRootHelp(config: Pick<Interfaces.Config, 'pjson'>, commands: Loadable[], name: string, width: number): string {
  const visible = commands.filter((c) => !c.hidden).sort((a, b) => nameOrder(a.id, b.id));
  const pad = Math.max(...visible.map((c) => c.id.length), 8) + 3;
  const row = (c: Loadable) => {
    const head = `  ${c.id.replace(/:/g, ' ').padEnd(pad)}`;
    const text = c.summary ?? c.description?.split('\n')[0] ?? '';
    return head + wrap(text, width, ' '.repeat(head.length)).trimStart();
  };
  const out: string[] = [];
  const description = String(config.pjson.description ?? '').trim();
  out.push(wrap(description ? `${description.replace(/\.$/, '')}.` : name, width, ''));
  const placed = new Set<string>();
  for (const [title, ids] of COMMAND_GROUPS) {
    const list = visible.filter((c) => ids.includes(c.id));
    if (!list.length) continue;
    list.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    for (const c of list) placed.add(c.id);
    out.push(`${title}:\n${list.map(row).join('\n')}`);
  }
  const rest = visible.filter((c) => !placed.has(c.id));
  // cobra's `help` command (answered by src/cli/unknown-command.ts, no command of its own)
  const help = `  ${'help'.padEnd(pad)}Help about any command`;
  out.push(`Other commands:\n${[...rest.map(row), help].join('\n')}`);
  out.push(
    [
      'Examples:',
      '  # Why did my ReplicaSet pick those pods? (the live cluster, read-only)',
      `  ${name} explain rs/web-7d4f8 -n shop`,
      '',
      '  # Audit a saved snapshot: exit status 1 when anything would change',
      '  kubectl get rs,rc,pods -A -o yaml > snap.yaml',
      `  ${name} diff -f snap.yaml -A`,
    ].join('\n'),
  );
  // the flags every command takes, as kubectl's root help points to its global options
  const globals = Object.fromEntries(Object.entries(visible[0]?.flags ?? {}).filter(([, f]) => (f.helpGroup ?? '').toUpperCase() === 'GLOBAL'));
  const globalSection = formatFlags(globals, width);
  if (globalSection) out.push(globalSection);
  out.push(`Usage:\n  ${name} [command] [flags]`);
  out.push(`Use "${name} <command> --help" for more information about a given command.`);
  return out.join('\n\n') + '\n';
}

export function helpWidth(stream: NodeJS.WriteStream = process.stdout): number {
  const cols = stream.isTTY ? stream.columns : undefined;
  return Math.max(60, Math.min(cols || 100, 120));
}

/** The command word help is asked about (`diff` of `diff -h`, `help diff`), as oclif finds it; undefined for the root. */
export function helpSubject(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (arg === '--help' || arg === '-h' || arg === 'help') continue;
    return arg.startsWith('-') ? undefined : arg;
  }
  return undefined;
}

export default class KubectlHelp extends Help {
  /** Help for a command that does not exist is kubectl's unknown-command error, not oclif's. */
  override async showHelp(argv: string[]): Promise<void> {
    const subject = helpSubject(argv);
    if (subject !== undefined && !this.config.findCommand(subject) && !this.config.findTopic(subject)) {
      reportUnknownCommand(subject, this.config.commands);
      return;
    }
    return super.showHelp(argv);
  }

  protected override async showRootHelp(): Promise<void> {
    this.log(formatRootHelp(this.config, this.config.commands, displayName(), helpWidth()).trimEnd());
  }

  override async showCommandHelp(command: Loadable): Promise<void> {
    this.log(formatCommandHelp(command, displayName(), helpWidth()).trimEnd());
  }

  protected override async showTopicHelp(topic: Interfaces.Topic): Promise<void> {
    const name = displayName();
    const prefix = `${topic.name}:`;
    const commands = this.config.commands.filter((c) => c.id.startsWith(prefix) && !c.hidden);
    this.log(formatRootHelp({ pjson: { ...this.config.pjson, description: topic.description ?? '' } }, commands, name, helpWidth()).trimEnd());
  }
}
