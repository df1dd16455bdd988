// The completion engine behind `completion __complete`: reads the words, answers from the
// manifest when it can (words.ts), else looks names up (names.ts, the kubeconfig through
// src/cluster) within a time limit. Every failure is silent: no candidates.

import { kubeconfigNames } from '../cluster/kubeconfig-files.js';
import { controllerCandidates, controllerNames, liveNamespaces, type ControllerSpellings, type LookupIO } from './names.js';
import { analyze, Directive, lastValue, NAME_OF_TYPE_ARG, staticCandidates, startsWith, type Candidate, type CommandSpec } from './words.js';

export interface CompleteIO extends LookupIO {
  /** A lookup that takes longer gives no candidates (default 3000 ms). */
  timeoutMs?: number;
  /** How controller types are spelled (needed only for controller names). */
  spellings: ControllerSpellings;
}

/** Whether a word is a TYPE of controllers (rs, replicasets.apps, deploy…) in kubectl's spelling. */
function isControllerType(word: string, spell: CompleteIO['spellings']): boolean {
  return spell.controllerType(word) !== undefined || spell.isDeploymentType(word);
}

/** Completes `words`; lookups that fail or take longer than `timeoutMs` give no candidates. */
export async function complete(
  words: string[],
  commands: CommandSpec[],
  io: CompleteIO,
): Promise<{ candidates: Candidate[]; directive: number; timedOut: boolean }> {
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
          : kubeconfigNames(name === 'context' ? 'contexts' : name === 'cluster' ? 'clusters' : 'users', lastValue(need.context, 'kubeconfig'), io.env);
      return values.map((v) => ({ value: need.insertPrefix + v })).filter(startsWith(need.insertPrefix + need.prefix));
    }
    if (need.kind === 'arg') {
      // after kubectl's TYPE (rs, deploy…): the NAMEs of that type, bare; a second word of a
      // one-object command follows nothing else
      const first = need.context.positionals[0];
      const type = first !== undefined && !first.includes('/') && isControllerType(first, io.spellings) ? first : undefined;
      if (need.arg.name === NAME_OF_TYPE_ARG && type === undefined) return [];
      const typed = new Set(need.context.positionals);
      const showNamespace = lastValue(need.context, 'all-namespaces') === 'true';
      const names = await controllerNames(need.context, io);
      if (type === undefined) return controllerCandidates(names, need.prefix, showNamespace, io.spellings).filter((c) => !typed.has(c.value));
      return controllerCandidates(names, `${type}/${need.prefix}`, showNamespace, io.spellings)
        .map((c) => ({ ...c, value: c.value.slice(type.length + 1) }))
        .filter((c) => !typed.has(c.value));
    }
    return [];
  })().catch(() => [] as Candidate[]);
  const result = await Promise.race([lookup, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') return { candidates: [], directive: Directive.NoFileComp, timedOut: true };
  return { candidates: result, directive: Directive.NoFileComp, timedOut: false };
}
