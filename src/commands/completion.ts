// `completion bash|zsh|fish|kubectl`: shell completion scripts, and the completion engine they call back:
// `completion __complete -- WORD... CURRENT` answers in cobra's format (one candidate per line,
// "value<TAB>description", then ":DIRECTIVE"), which is also what kubectl (1.26 and newer) expects
// from a kubectl_complete-<plugin> executable. Commands, flags and flag values come from the oclif
// manifest; namespace names (-n) and controller names (rs/NAME, rc/NAME, deploy/NAME) from the live
// cluster (read-only, short timeout) or from the snapshot files given with -f; contexts, clusters and users
// from the kubeconfig. Every failure is silent: no candidates.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Args, type Command } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { connection } from '../cli/flags.js';
import { RESOLVE_SCRIPT_DIR } from '../cli/shell.js';
import { controllerType, isDeploymentType } from '../cli/targets.js';
import type { ControllerName } from '../cluster/list-names.js';
import { nameOrder } from '../core/order.js';
import { controllerRef } from '../core/pod.js';
import { CONTROLLER_KINDS } from '../core/controller.js';
import type { OwnerReference } from '../core/types.js';
import { deploymentOf } from '../services/targets.js';
import { UserError } from '../errors.js';

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

const CONTROLLER_ARG = 'name';

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
    const given = new Set([...context.values.keys()].filter((n) => !(command.flags[n]?.type === 'option' && (command.flags[n] as { multiple?: boolean }).multiple)));
    return { kind: 'flags', command, prefix: cur, given };
  }
  const args = Object.values(command.args).filter((a) => !a.hidden);
  if (!args.length) return { kind: 'none' };
  const variadic = command.strict === false;
  const index = context.positionals.length;
  if (index >= args.length && !variadic) return { kind: 'none' };
  return { kind: 'arg', command, arg: args[Math.min(index, args.length - 1)], prefix: cur, context };
}

const startsWith = (prefix: string) => (c: Candidate) => c.value.startsWith(prefix);

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
      return { candidates: [{ value: '--help', description: 'show help' }, { value: '--version', description: 'show the version' }].filter(startsWith(need.prefix)), directive: Directive.NoFileComp };
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
        return { candidates: f.options.map((o) => ({ value: need.insertPrefix + o })).filter(startsWith(need.insertPrefix + need.prefix)), directive: Directive.NoFileComp };
      }
      if (FILE_FLAGS.has(f.name)) return { candidates: [], directive: Directive.Default };
      if (LOOKUP_FLAGS.has(f.name)) return null;
      return { candidates: [], directive: Directive.NoFileComp };
    }
    case 'arg': {
      if (need.arg.options?.length) return { candidates: need.arg.options.map((o) => ({ value: o })).filter(startsWith(need.prefix)), directive: Directive.NoFileComp };
      if (need.arg.name === CONTROLLER_ARG) return null;
      return { candidates: [], directive: Directive.NoFileComp };
    }
  }
}

/** Flags whose value is a path: the shell's own file completion. */
const FILE_FLAGS = new Set(['filename', 'kubeconfig', 'seed', 'audit-log']);
/** Flags whose values are looked up: in the cluster or the kubeconfig. */
const LOOKUP_FLAGS = new Set(['namespace', 'context', 'cluster', 'user', 'leader-elect-namespace']);

const last = (ctx: WordsContext, name: string) => ctx.values.get(name)?.at(-1);

/** Names of contexts, clusters or users in the kubeconfig files kubectl would read. */
export function kubeconfigNames(section: 'contexts' | 'clusters' | 'users', ctx: WordsContext, env: NodeJS.ProcessEnv = process.env): string[] {
  const explicit = last(ctx, 'kubeconfig');
  const files = explicit ? [explicit] : env.KUBECONFIG ? env.KUBECONFIG.split(delimiter).filter(Boolean) : [join(env.HOME || homedir(), '.kube', 'config')];
  const names = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // kubeconfig files are YAML (JSON is YAML too); only the names are needed
    const doc = parseYamlLoose(text) as Record<string, unknown> | null;
    const list = doc?.[section];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name) names.add(name);
    }
  }
  return [...names].sort();
}

let yamlParse: ((text: string) => unknown) | undefined;
function parseYamlLoose(text: string): unknown {
  try {
    // yaml is a dependency already (snapshots), loaded only when a kubeconfig must be read
    yamlParse ??= (createRequire(import.meta.url)('yaml') as { parse: (t: string) => unknown }).parse;
    return yamlParse(text);
  } catch {
    return null;
  }
}

/** The connection flags kubectl would use, from the words typed so far. */
export function connectionFrom(ctx: WordsContext, requestTimeout: string) {
  return connection({
    kubeconfig: last(ctx, 'kubeconfig'),
    context: last(ctx, 'context'),
    cluster: last(ctx, 'cluster'),
    user: last(ctx, 'user'),
    as: last(ctx, 'as'),
    'as-group': ctx.values.get('as-group'),
    'request-timeout': last(ctx, 'request-timeout') ?? requestTimeout,
  });
}

export interface LookupIO {
  env?: NodeJS.ProcessEnv;
  /** Per-request timeout handed to the connection (kubectl syntax); default 2s. */
  requestTimeout?: string;
}

/** Namespace names of the live cluster (one cheap list). */
export async function liveNamespaces(ctx: WordsContext, io: LookupIO = {}): Promise<string[]> {
  const { connect } = await import('../cluster/kubeconfig.js');
  const { listNamespaceNames } = await import('../cluster/list-names.js');
  return listNamespaceNames(connect(connectionFrom(ctx, io.requestTimeout ?? '2s'), io.env ?? process.env));
}

/** ReplicaSets and ReplicationControllers in scope: from -f files, else the live cluster. */
export async function controllerNames(ctx: WordsContext, io: LookupIO = {}): Promise<ControllerName[]> {
  const all = last(ctx, 'all-namespaces') === 'true';
  const files = ctx.values.get('filename')?.filter((f) => f !== '-');
  if (files?.length) {
    const { loadSnapshotFiles } = await import('../input/snapshot-files.js');
    const { snapshot } = await loadSnapshotFiles(files, { allowEmpty: true }); // no names, no error, while typing
    const ns = all ? undefined : last(ctx, 'namespace');
    const meta = (o: { metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerReference[] | null } }) => ({
      name: o.metadata?.name ?? '',
      namespace: o.metadata?.namespace ?? 'default',
      controllerRef: o.metadata ? controllerRef({ metadata: o.metadata }) : undefined,
    });
    return CONTROLLER_KINDS.flatMap((k) => snapshot.controllers[k.kind].map((o) => ({ kind: k.kind, ...meta(o) }))).filter((c) => c.name && (ns === undefined || c.namespace === ns));
  }
  const { connect } = await import('../cluster/kubeconfig.js');
  const { listControllerNames } = await import('../cluster/list-names.js');
  const conn = connect({ ...connectionFrom(ctx, io.requestTimeout ?? '2s'), namespace: last(ctx, 'namespace') }, io.env ?? process.env);
  return listControllerNames(conn, all ? null : conn.namespace);
}

/**
 * rs/NAME, rc/NAME and deploy/NAME (the Deployments owning ReplicaSets), or TYPE/NAME in the type
 * the user started typing; unique, sorted.
 */
export function controllerCandidates(names: ControllerName[], prefix: string, showNamespace: boolean): Candidate[] {
  const slash = prefix.indexOf('/');
  const typed = slash >= 0 ? prefix.slice(0, slash) : null;
  const deployments = typed === null || isDeploymentType(typed);
  const onlyKind = typed === null ? null : controllerType(typed);
  if (typed !== null && !onlyKind && !deployments) return [];
  const seen = new Map<string, Set<string>>();
  const add = (value: string, namespace: string) => {
    if (!seen.has(value)) seen.set(value, new Set());
    seen.get(value)!.add(namespace);
  };
  for (const c of names) {
    const deployment = deployments ? deploymentOf(c.controllerRef) : undefined;
    if (deployment && c.kind === 'ReplicaSet') add(`${typed ?? 'deploy'}/${deployment.name}`, c.namespace);
    if (typed !== null && (!onlyKind || c.kind !== onlyKind)) continue;
    add(`${typed ?? (c.kind === 'ReplicaSet' ? 'rs' : 'rc')}/${c.name}`, c.namespace);
  }
  return [...seen]
    .map(([value, ns]) => ({ value, description: showNamespace ? [...ns].sort().join(', ') : undefined }))
    .filter(startsWith(prefix))
    .sort((a, b) => nameOrder(a.value, b.value));
}

/** Completes `words`; lookups that fail or take longer than `timeoutMs` give no candidates. */
export async function complete(words: string[], commands: CommandSpec[], io: LookupIO & { timeoutMs?: number } = {}): Promise<{ candidates: Candidate[]; directive: number; timedOut: boolean }> {
  const need = analyze(words, commands);
  const known = staticCandidates(need, commands);
  if (known) return { ...known, timedOut: false };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), io.timeoutMs ?? 3000);
  });
  const lookup = (async (): Promise<Candidate[]> => {
    if (need.kind === 'flag-value') {
      const name = need.flag.name;
      const values =
        name === 'namespace' || name === 'leader-elect-namespace'
          ? await liveNamespaces(need.context, io)
          : kubeconfigNames(name === 'context' ? 'contexts' : name === 'cluster' ? 'clusters' : 'users', need.context, io.env);
      return values.map((v) => ({ value: need.insertPrefix + v })).filter(startsWith(need.insertPrefix + need.prefix));
    }
    if (need.kind === 'arg') {
      const names = await controllerNames(need.context, io);
      const typed = new Set(need.context.positionals);
      return controllerCandidates(names, need.prefix, last(need.context, 'all-namespaces') === 'true').filter((c) => !typed.has(c.value));
    }
    return [];
  })().catch(() => [] as Candidate[]);
  const result = await Promise.race([lookup, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') return { candidates: [], directive: Directive.NoFileComp, timedOut: true };
  return { candidates: result, directive: Directive.NoFileComp, timedOut: false };
}

/** cobra's __complete output. */
export function formatCobra(candidates: Candidate[], directive: number): string {
  const clean = (s: string) => s.replace(/[\t\n]+/g, ' ');
  return candidates.map((c) => (c.description ? `${clean(c.value)}\t${clean(c.description)}` : clean(c.value))).join('\n') + (candidates.length ? '\n' : '') + `:${directive}\n`;
}

const PROGRAMS = ['kubectl-rs_reconcile', 'rs-reconcile'];

export function bashScript(): string {
  return `# bash completion for kubectl-rs_reconcile and rs-reconcile            -*- shell-script -*-
# Load it in the current shell:
#   source <(kubectl-rs_reconcile completion bash)
# or for every new shell:
#   kubectl-rs_reconcile completion bash > ~/.local/share/bash-completion/completions/kubectl-rs_reconcile
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

__rs_reconcile_complete() {
    local line="\${COMP_LINE:0:COMP_POINT}"
    local -a words=()
    read -r -a words <<< "$line"
    local cur=""
    if [[ $line != *[[:space:]] && \${#words[@]} -gt 0 ]]; then
        cur="\${words[\${#words[@]}-1]}"
        unset 'words[\${#words[@]}-1]'
    fi
    local out
    out=$("\${words[0]}" completion __complete -- "\${words[@]:1}" "$cur" 2>/dev/null) || return 0
    local directive=4 item
    local -a candidates=()
    while IFS= read -r item; do
        case $item in
            :[0-9]*) directive=\${item#:} ;;
            '') ;;
            *) candidates+=("\${item%%$'\\t'*}") ;;
        esac
    done <<< "$out"
    COMPREPLY=()
    (( directive & 1 )) && return 0
    local c
    for c in "\${candidates[@]}"; do
        [[ $c == "$cur"* ]] && COMPREPLY+=("$c")
    done
    # bash splits words at = and : (COMP_WORDBREAKS): replace only the part after the last one
    if [[ $cur == *[=:]* ]]; then
        local strip="\${cur%"\${cur##*[=:]}"}"
        local i
        for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]="\${COMPREPLY[i]#"$strip"}"; done
    fi
    if (( \${#COMPREPLY[@]} == 0 )); then
        # no candidates: file names, unless the directive says no (bash 4+ only)
        if (( directive & 4 )) && type compopt >/dev/null 2>&1; then compopt +o default 2>/dev/null; fi
        return 0
    fi
    if (( directive & 2 )) && type compopt >/dev/null 2>&1; then compopt -o nospace 2>/dev/null; fi
    return 0
}

complete -o default -F __rs_reconcile_complete ${PROGRAMS.join(' ')}
`;
}

export function zshScript(): string {
  return `#compdef ${PROGRAMS.join(' ')}
# zsh completion for kubectl-rs_reconcile and rs-reconcile.
# Load it in the current shell (after compinit):
#   source <(kubectl-rs_reconcile completion zsh)
# or for every new shell, in a directory of your $fpath:
#   kubectl-rs_reconcile completion zsh > "\${fpath[1]}/_kubectl_rs_reconcile"
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

_kubectl_rs_reconcile() {
  local out item value desc directive=4
  local -a candidates
  out=$(\${words[1]} completion __complete -- "\${(@)words[2,CURRENT-1]}" "\${words[CURRENT]}" 2>/dev/null) || return 1
  for item in "\${(@f)out}"; do
    case $item in
      :[0-9]*) directive=\${item#:} ;;
      '') ;;
      *)
        value=\${item%%$'\\t'*}
        desc=''
        [[ $item == *$'\\t'* ]] && desc=\${item#*$'\\t'}
        candidates+=("\${value//:/\\\\:}\${desc:+:$desc}")
        ;;
    esac
  done
  (( directive & 1 )) && return 1
  if (( \${#candidates} )); then
    if (( directive & 2 )); then
      _describe -t values 'values' candidates -S ''
    else
      _describe -t values 'values' candidates
    fi
    return
  fi
  (( directive & 4 )) || _files
}

if [[ "\${funcstack[1]}" == _kubectl_rs_reconcile ]]; then
  _kubectl_rs_reconcile "$@"
else
  compdef _kubectl_rs_reconcile ${PROGRAMS.join(' ')}
fi
`;
}

export function fishScript(): string {
  return `# fish completion for kubectl-rs_reconcile and rs-reconcile
# Load it in the current shell:
#   kubectl-rs_reconcile completion fish | source
# or for every new shell:
#   kubectl-rs_reconcile completion fish > ~/.config/fish/completions/kubectl-rs_reconcile.fish
#   (and a copy named rs-reconcile.fish: fish loads a completion file by the command's name)
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

# Asks the program for candidates; true when they are the answer (some, or no file names wanted),
# false to leave the word to fish's own file completion.
function __rs_reconcile_prepare
    set -g __rs_reconcile_results
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($words[1] completion __complete -- $words[2..-1] "$cur" 2>/dev/null)
    or return 1
    set -l directive 4
    for item in $out
        if string match -qr '^:[0-9]+$' -- $item
            set directive (string sub -s 2 -- $item)
        else if test -n "$item"
            # "value<TAB>description" is fish's own format for a candidate with a description
            set -a __rs_reconcile_results $item
        end
    end
    # directive bits: 1 error (nothing), 4 no file names
    if test (math "$directive % 2") -ne 0
        set -g __rs_reconcile_results
        return 0
    end
    test (count $__rs_reconcile_results) -gt 0; and return 0
    test (math "floor($directive / 4) % 2") -ne 0
end

${PROGRAMS.map((p) => `complete -c ${p} -e\ncomplete -c ${p} -n __rs_reconcile_prepare -f -k -a '$__rs_reconcile_results'`).join('\n')}
`;
}

/** The kubectl_complete-rs_reconcile helper: kubectl (1.26+) runs it to complete the plugin. */
export function kubectlHelperScript(): string {
  return `#!/bin/sh
# kubectl_complete-rs_reconcile: kubectl (1.26 and newer) runs this executable, found on PATH, to
# complete "kubectl rs-reconcile ...": it passes the words after "rs-reconcile" (the last one is
# the word being completed) and reads cobra's format back. Put it next to kubectl-rs_reconcile.
${RESOLVE_SCRIPT_DIR}
if [ -x "$dir/kubectl-rs_reconcile" ]; then
  exec "$dir/kubectl-rs_reconcile" completion __complete -- "$@"
fi
exec kubectl-rs_reconcile completion __complete -- "$@"
`;
}

export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash, zsh, fish, or the kubectl plugin helper)';
  static override description = `Completes commands, flags, values of -o and the other flags with fixed values, namespace names
for -n and controller names (rs/NAME, rc/NAME, and deploy/NAME for the Deployments owning
ReplicaSets) for the NAME arguments. Names come from the live cluster (read-only, with the
connection flags already typed, at most 3 seconds), or from the snapshot files already given with
-f; nothing is completed when the cluster cannot be reached.

bash, zsh and fish complete the kubectl-rs_reconcile and rs-reconcile programs. For
"kubectl rs-reconcile <TAB>" kubectl 1.26 and newer run an executable named
kubectl_complete-rs_reconcile from PATH: "completion kubectl" prints it (the krew archive and
the npm package already include it).`;

  static override examples = [
    { description: 'bash, in the current shell', command: 'source <(<%= config.bin %> completion bash)' },
    { description: 'zsh, for every new shell', command: '<%= config.bin %> completion zsh > "${fpath[1]}/_kubectl_rs_reconcile"' },
    { description: 'fish, in the current shell', command: '<%= config.bin %> completion fish | source' },
    {
      description: 'kubectl rs-reconcile <TAB>: the helper next to the plugin',
      command: '<%= config.bin %> completion kubectl > "$(dirname "$(command -v kubectl-rs_reconcile)")/kubectl_complete-rs_reconcile"\nchmod +x "$(dirname "$(command -v kubectl-rs_reconcile)")/kubectl_complete-rs_reconcile"',
    },
  ];

  static override args = {
    shell: Args.string({ description: 'the shell: bash, zsh, fish, or kubectl for the kubectl_complete-rs_reconcile helper', options: ['bash', 'zsh', 'fish', 'kubectl'], required: true }),
  };

  async run(): Promise<void> {
    if (this.argv[0] === '__complete') {
      this.parsed = true;
      return this.completeWords(this.argv[1] === '--' ? this.argv.slice(2) : this.argv.slice(1));
    }
    const { args } = await this.parse(Completion);
    if (args.shell === 'bash') this.print(bashScript());
    else if (args.shell === 'zsh') this.print(zshScript());
    else if (args.shell === 'fish') this.print(fishScript());
    else if (args.shell === 'kubectl') this.print(kubectlHelperScript());
    else throw new UserError(`unsupported shell ${JSON.stringify(args.shell)}: use bash, zsh, fish or kubectl`);
  }

  private async completeWords(words: string[]): Promise<void> {
    const commands = this.config.commands as unknown as CommandSpec[];
    const { candidates, directive, timedOut } = await complete(words.length ? words : [''], commands);
    const text = formatCobra(candidates, directive);
    // A lookup still in flight (a slow cluster, a credential plugin) must not hold the shell.
    await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
    if (timedOut) process.exit(0);
  }
}
