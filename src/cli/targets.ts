// Controller names as kubectl accepts them: NAME, rs/NAME, replicaset/NAME, replicasets.apps/NAME,
// rs.v1.apps/NAME, rc/NAME, replicationcontroller/NAME …, deploy/NAME for the ReplicaSets a
// Deployment controls, and kubectl's `TYPE NAME…` (every NAME of that one type).

import { CONTROLLER_KINDS } from '../core/controller.js';
import type { ControllerKind } from '../core/types.js';
import { UserError } from '../errors.js';
import type { Target } from '../services/targets.js';
import { displayName } from './program-name.js';

/** What a resource type of the command line names: a controller kind, Deployments, or pods. */
export type ResourceKind = ControllerKind | 'Deployment' | 'Pod';

/** One kind as kubectl spells it: short name, singular, plural, and the group and version it is served in. */
interface Spelling {
  kind: ResourceKind;
  names: readonly string[];
  group: string;
  version: string;
}

const SPELLINGS: readonly Spelling[] = [
  ...CONTROLLER_KINDS.map((k) => ({ kind: k.kind, names: [k.shortName, k.kind.toLowerCase(), k.resource], group: k.group, version: k.version })),
  { kind: 'Deployment', names: ['deploy', 'deployment', 'deployments'], group: 'apps', version: 'v1' },
  { kind: 'Pod', names: ['po', 'pod', 'pods'], group: '', version: 'v1' },
];

/**
 * The kind a resource type names, as kubectl's RESTMapper resolves it (case-insensitive):
 * RESOURCE, RESOURCE.GROUP or RESOURCE.VERSION.GROUP, RESOURCE being the short name, the singular
 * or the plural (rs, replicaset.apps, replicasets.v1.apps, rs.v1.apps). A core-group kind has no
 * group to name (pods, rc, replicationcontrollers.v1 is no type).
 */
export function resourceKind(type: string): ResourceKind | undefined {
  const parts = type.toLowerCase().split('.');
  const [resource, ...rest] = parts;
  const spelling = SPELLINGS.find((s) => s.names.includes(resource));
  if (!spelling || rest.length > 2) return undefined;
  if (rest.length === 0) return spelling.kind;
  const [version, group] = rest.length === 2 ? rest : [undefined, rest[0]];
  if (spelling.group === '' || group !== spelling.group) return undefined;
  return version === undefined || version === spelling.version ? spelling.kind : undefined;
}

/** Whether TYPE (of TYPE/NAME) names Deployments. */
export function isDeploymentType(type: string): boolean {
  return resourceKind(type) === 'Deployment';
}

/** The kind a TYPE of TYPE/NAME names (rs, replicasets.apps, rc…), or undefined. */
export function controllerType(type: string): ControllerKind | undefined {
  const kind = resourceKind(type);
  return kind === 'Deployment' || kind === 'Pod' ? undefined : kind;
}

/**
 * Resources every cluster serves that this CLI does not explain: naming one is a mistake of kind,
 * not of spelling, and is told so. Any other type is one the server would not know either.
 */
const OTHER_BUILTIN_TYPES = new Set(
  [
    'sts statefulset statefulsets ds daemonset daemonsets job jobs cj cronjob cronjobs svc service services',
    'cm configmap configmaps secret secrets no node nodes ns namespace namespaces pvc persistentvolumeclaim persistentvolumeclaims',
    'pv persistentvolume persistentvolumes sa serviceaccount serviceaccounts ing ingress ingresses ev event events ep endpoints',
    'hpa horizontalpodautoscaler horizontalpodautoscalers pdb poddisruptionbudget poddisruptionbudgets',
  ]
    .join(' ')
    .split(' '),
);

/** The one-line refusal of a type that names no controller, in kubectl's words where kubectl has them. */
function unknownType(type: string, pods: boolean): UserError {
  if (OTHER_BUILTIN_TYPES.has(type.toLowerCase().split('.')[0]) || (!pods && resourceKind(type) === 'Pod'))
    return new UserError(
      `rs-reconcile explains ReplicaSets (rs/NAME), ReplicationControllers (rc/NAME) and Deployments (deploy/NAME, through their ReplicaSets), and "${type}" is not one of them`,
    );
  return new UserError(`the server doesn't have a resource type "${type}"`);
}

/** What one command-line word names: a controller target, or a pod (where pods are taken). */
export type NamedObject = Target | { kind: 'Pod'; name: string };

function named(kind: ResourceKind | null, name: string, word: string): NamedObject {
  if (!name || name.includes('/'))
    throw new UserError(
      kind === 'Pod' ? `invalid pod name ${JSON.stringify(word)}: expected pod/NAME` : `invalid controller name ${JSON.stringify(word)}: expected TYPE/NAME`,
    );
  return { kind, name } as NamedObject;
}

/** NAME or TYPE/NAME, one word (pods refused). */
export function parseTarget(arg: string): Target {
  return parseWord(arg, false) as Target;
}

function parseWord(arg: string, pods: boolean): NamedObject {
  const slash = arg.indexOf('/');
  if (slash < 0) {
    if (!arg) throw new UserError('a controller name must not be empty');
    return { kind: null, name: arg };
  }
  const type = arg.slice(0, slash);
  const kind = resourceKind(type);
  if (!kind || (kind === 'Pod' && !pods)) throw unknownType(type, pods);
  return named(kind, arg.slice(slash + 1), arg);
}

/**
 * The objects the arguments name, as kubectl reads resource arguments: `TYPE NAME…` (every NAME of
 * that type) or one TYPE/NAME (or a bare NAME: either controller kind) per word. A lone word is
 * always a NAME: a controller may be called "rs". `pods`: whether pod/NAME is taken (explain,
 * history); `command`: the command's name, for the hint of kubectl's mixed-form error.
 */
function parseTargets(words: readonly string[], { pods = false, command }: { pods?: boolean; command: string }): NamedObject[] {
  const [first, ...names] = words;
  if (first === undefined) return [];
  const typeKind = names.length && !first.includes('/') ? resourceKind(first) : undefined;
  if (names.length && !first.includes('/') && typeKind === undefined && looksLikeType(first)) throw unknownType(first, pods);
  if (typeKind === undefined) return words.map((w) => parseWord(w, pods));
  if (typeKind === 'Pod' && !pods) throw unknownType(first, pods);
  return names.map((n) => {
    if (n.includes('/')) throw mixedForms(command);
    return named(typeKind, n, `${first}/${n}`);
  });
}

/** kubectl's refusal of a TYPE word beside TYPE/NAME words. */
function mixedForms(command: string): UserError {
  return new UserError(
    `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. '${displayName()} ${command} resource/<resource_name>' instead of '${displayName()} ${command} resource resource/<resource_name>')`,
  );
}

/** A first word that is a resource type of another kind (sts, svc.v1…), as kubectl would read it before NAMEs. */
function looksLikeType(word: string): boolean {
  return OTHER_BUILTIN_TYPES.has(word.toLowerCase().split('.')[0]);
}

/** The controllers the arguments name (diff, reconcile, watch): no pods. */
export function parseControllerTargets(words: readonly string[], command: string): Target[] {
  return parseTargets(words, { command }) as Target[];
}

/**
 * The one object of a command that takes one (explain, history): NAME, TYPE/NAME or TYPE NAME.
 * `second` is the NAME after a TYPE; any other second word is refused.
 */
export function parseOneTarget(first: string, second: string | undefined, command: string, pods = true): NamedObject {
  if (second === undefined) return parseWord(first, pods);
  // two words: kubectl's TYPE NAME, whatever the first one is
  if (first.includes('/')) throw mixedForms(command);
  if (resourceKind(first) === undefined) throw unknownType(first, pods);
  return parseTargets([first, second], { pods, command })[0];
}

/**
 * The TYPE of `TYPE NAME…` that the words before the cursor begin with, or undefined (the next
 * word is then a NAME or TYPE/NAME of its own): what completion offers after it.
 */
export function typeOfNames(positionals: readonly string[]): ResourceKind | undefined {
  const first = positionals[0];
  if (first === undefined || first.includes('/')) return undefined;
  return resourceKind(first);
}
