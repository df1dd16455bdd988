// The upstream controller emulated: which Kubernetes minor's rules, with which feature gates.
// --kube-version decides; else the server's own version; else (no server, or one that cannot
// say) the newest rules known. Small on purpose: `version --client` loads it without the planner.

import { behaviourFor, minorFromServer, NEWEST_MINOR, parseFeatureGates, parseKubeVersion, type Behaviour } from '../core/versions.js';
import { UserError } from '../errors.js';

/** The flags that choose the behaviour (--kube-version, --feature-gates). */
export interface BehaviourOptions {
  kubeVersion?: string;
  featureGates?: string;
}

/** Why this version: --kube-version, the server's own, or the newest (no server version known). */
export type BehaviourSource = 'kube-version' | 'server' | 'newest';

export interface ResolvedBehaviour {
  behaviour: Behaviour;
  from: BehaviourSource;
}

/**
 * The behaviour for a server of minor version `serverMinor` (null: none known). `notices` gets
 * what the user should hear: a server newer or older than the rules known, a gate's warning.
 * An invalid --kube-version or --feature-gates is the user's error.
 */
export function chooseBehaviour(model: BehaviourOptions, serverMinor: string | null, notices: string[]): Behaviour {
  let minor = NEWEST_MINOR;
  if (model.kubeVersion !== undefined) {
    const v = parseKubeVersion(model.kubeVersion);
    if (!v.ok) throw new UserError(v.error);
    minor = v.minor;
  } else if (serverMinor !== null) {
    const m = minorFromServer(serverMinor);
    if (m.note) notices.push(m.note);
    minor = m.minor;
  }
  const gates = parseFeatureGates(model.featureGates);
  if (!gates.ok) throw new UserError(gates.error);
  const b = behaviourFor(minor, gates.gates);
  // kube-controller-manager's own words for a gate it does not know (component-base's flag error)
  if (b.error) throw new UserError(`invalid argument ${JSON.stringify(model.featureGates)} for "--feature-gates" flag: ${b.error}`);
  notices.push(...b.warnings);
  return b.behaviour;
}

/**
 * The sequence every command that talks to a cluster runs: with --kube-version the server is not
 * asked; else `askServer` reads its minor version (null: it could not say, and the caller chose
 * to go on), and the behaviour is that version's, or the newest.
 */
export async function resolveBehaviour(model: BehaviourOptions, notices: string[], askServer: () => Promise<string | null>): Promise<ResolvedBehaviour> {
  const serverMinor = model.kubeVersion === undefined ? await askServer() : null;
  const behaviour = chooseBehaviour(model, serverMinor, notices);
  const from: BehaviourSource = model.kubeVersion !== undefined ? 'kube-version' : serverMinor !== null ? 'server' : 'newest';
  return { behaviour, from };
}
