// Names that a TAB looks up: namespaces of the live cluster, controllers (rs/NAME, rc/NAME,
// deploy/NAME) of the live cluster or of the snapshot files given with -f. Read-only, one list
// call; the modules that talk to a cluster or read files are loaded only here.

import type { ConnectionFlags } from '../cluster/config-overrides.js';
import type { ControllerName } from '../cluster/list-names.js';
import { CONTROLLER_KINDS } from '../core/controller.js';
import { nameOrder } from '../core/order.js';
import { controllerRef } from '../core/pod.js';
import type { ControllerKind, OwnerReference } from '../core/types.js';
import { lastValue, startsWith, type Candidate, type WordsContext } from './words.js';

/**
 * How kubectl spells controller types (rs, replicasets.apps, deploy…) and which Deployment owns a
 * ReplicaSet: the commands' own rules (src/cli/targets.ts, src/services/targets.ts), handed in by
 * the caller so completion offers exactly what the commands accept.
 */
export interface ControllerSpellings {
  controllerType(type: string): ControllerKind | undefined;
  isDeploymentType(type: string): boolean;
  deploymentOf(ref: OwnerReference | undefined): { name: string } | undefined;
}

export interface LookupIO {
  env?: NodeJS.ProcessEnv;
  /** Per-request timeout handed to the connection (kubectl syntax); default 2s. */
  requestTimeout?: string;
}

/** The connection flags kubectl would use, from the words typed so far. */
export function connectionFrom(ctx: WordsContext, requestTimeout: string): ConnectionFlags {
  return {
    kubeconfig: lastValue(ctx, 'kubeconfig'),
    context: lastValue(ctx, 'context'),
    cluster: lastValue(ctx, 'cluster'),
    user: lastValue(ctx, 'user'),
    server: lastValue(ctx, 'server'),
    tlsServerName: lastValue(ctx, 'tls-server-name'),
    certificateAuthority: lastValue(ctx, 'certificate-authority'),
    insecureSkipTlsVerify: lastValue(ctx, 'insecure-skip-tls-verify') === 'true',
    clientCertificate: lastValue(ctx, 'client-certificate'),
    clientKey: lastValue(ctx, 'client-key'),
    token: lastValue(ctx, 'token'),
    username: lastValue(ctx, 'username'),
    password: lastValue(ctx, 'password'),
    as: lastValue(ctx, 'as'),
    asGroups: ctx.values.get('as-group'),
    asUid: lastValue(ctx, 'as-uid'),
    requestTimeout: lastValue(ctx, 'request-timeout') ?? requestTimeout,
    disableCompression: lastValue(ctx, 'disable-compression') === 'true',
  };
}

/** A TAB writes nothing on the terminal: no "waiting for the server" line. */
const QUIET = { waitingNotice: null };

/** Namespace names of the live cluster (one cheap list). */
export async function liveNamespaces(ctx: WordsContext, io: LookupIO = {}): Promise<string[]> {
  const { connect } = await import('../cluster/kubeconfig.js');
  const { listNamespaceNames } = await import('../cluster/list-names.js');
  return listNamespaceNames(connect(connectionFrom(ctx, io.requestTimeout ?? '2s'), io.env ?? process.env, QUIET));
}

/** ReplicaSets and ReplicationControllers in scope: from -f files, else the live cluster. */
export async function controllerNames(ctx: WordsContext, io: LookupIO = {}): Promise<ControllerName[]> {
  const all = lastValue(ctx, 'all-namespaces') === 'true';
  // -f a,b is -f a -f b (kubectl's StringSlice, as the commands parse it)
  const files = ctx.values
    .get('filename')
    ?.flatMap((f) => f.split(','))
    .map((f) => f.trim())
    .filter((f) => f !== '-' && f !== '');
  if (files?.length) {
    const { loadSnapshotFiles } = await import('../input/snapshot-files.js');
    const { snapshot } = await loadSnapshotFiles(files, { allowEmpty: true }); // no names, no error, while typing
    const ns = all ? undefined : lastValue(ctx, 'namespace');
    const meta = (o: { metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerReference[] | null } }) => ({
      name: o.metadata?.name ?? '',
      namespace: o.metadata?.namespace ?? 'default',
      controllerRef: o.metadata ? controllerRef({ metadata: o.metadata }) : undefined,
    });
    return CONTROLLER_KINDS.flatMap((k) => snapshot.controllers[k.kind].map((o) => ({ kind: k.kind, ...meta(o) }))).filter(
      (c) => c.name && (ns === undefined || c.namespace === ns),
    );
  }
  const { connect } = await import('../cluster/kubeconfig.js');
  const { listControllerNames } = await import('../cluster/list-names.js');
  const conn = connect({ ...connectionFrom(ctx, io.requestTimeout ?? '2s'), namespace: lastValue(ctx, 'namespace') }, io.env ?? process.env, QUIET);
  return listControllerNames(conn, all ? null : conn.namespace);
}

/**
 * rs/NAME, rc/NAME and deploy/NAME (the Deployments owning ReplicaSets), or TYPE/NAME in the type
 * the user started typing; unique, sorted.
 */
export function controllerCandidates(names: ControllerName[], prefix: string, showNamespace: boolean, spell: ControllerSpellings): Candidate[] {
  const slash = prefix.indexOf('/');
  const typed = slash >= 0 ? prefix.slice(0, slash) : null;
  const deployments = typed === null || spell.isDeploymentType(typed);
  const onlyKind = typed === null ? null : spell.controllerType(typed);
  if (typed !== null && !onlyKind && !deployments) return [];
  const seen = new Map<string, Set<string>>();
  const add = (value: string, namespace: string) => {
    if (!seen.has(value)) seen.set(value, new Set());
    seen.get(value)!.add(namespace);
  };
  for (const c of names) {
    const deployment = deployments ? spell.deploymentOf(c.controllerRef) : undefined;
    if (deployment && c.kind === 'ReplicaSet') add(`${typed ?? 'deploy'}/${deployment.name}`, c.namespace);
    if (typed !== null && (!onlyKind || c.kind !== onlyKind)) continue;
    add(`${typed ?? (c.kind === 'ReplicaSet' ? 'rs' : 'rc')}/${c.name}`, c.namespace);
  }
  return [...seen]
    .map(([value, ns]) => ({ value, description: showNamespace ? [...ns].sort().join(', ') : undefined }))
    .filter(startsWith(prefix))
    .sort((a, b) => nameOrder(a.value, b.value));
}
