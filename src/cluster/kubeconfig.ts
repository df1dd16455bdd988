// Resolves a connection the way kubectl does (client-go's clientcmd loading rules):
//   --kubeconfig FILE, else every file of KUBECONFIG merged (first file wins per name, missing
//   files skipped), else ~/.kube/config, else the pod's service account (in-cluster);
//   --context / --cluster / --user / -n override the kubeconfig, --as / --as-group / --as-uid
//   impersonate, and kubectl's other connection flags (--server, --token, --certificate-authority,
//   --insecure-skip-tls-verify, --tls-server-name, --client-certificate, --client-key, --username,
//   --password, --disable-compression) override the selected cluster's and user's fields as
//   clientcmd's DirectClientConfig merges ConfigOverrides (config-overrides.ts).
//
// Files are parsed and merged here, and client-node gets only the selected context, cluster and
// user: its own loader resolves no relative token-file, refuses duplicate names when merging,
// and throws on any malformed entry, even one the selected context never uses.
//
// Credentials follow client-go too: used over https only, checked before any request (client
// certificates, CA with insecure-skip-tls-verify, exec blocks), and never put in a message
// (credentials.ts). Exec plugins are run by exec-credential.ts, not by client-node.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError, oneLine } from '../errors.js';
import { ClusterKubeConfig, type TransportLimits } from './http.js';
import { ExecAuthenticator, type ExecCredentialPlugin, type ExecIO } from './exec-credential.js';
import { parseDurationMs } from '../core/duration.js';
import { kubeconfigFiles, parseKubeconfigYaml } from './kubeconfig-files.js';
import { applyClusterFlags, applyInClusterFlags, applyUserFlags, hasUserFlags, impersonation, type ConnectionFlags } from './config-overrides.js';
import { TokenFileAuthenticator, checkServerTls, prepareCredentials, readToken } from './credentials.js';
import { isObj } from '../core/guards.js';
import { fsReason, goBool, str, type Obj } from './kubeconfig-fields.js';

export interface Connection {
  /** A ClusterKubeConfig when made by connect(): its API clients carry impersonation and timeout. */
  kc: KubeConfig;
  /** The context in use; "" when --cluster/--user were given without any context. */
  contextName: string;
  /** Effective namespace: the flag, else the context's namespace, else "default". */
  namespace: string;
  server: string;
  requestTimeoutMs: number | null;
}

export interface ConnectOptions {
  /** Where the pod's service account files are (tests point it at a temp dir). */
  serviceAccountDir?: string;
  /** How exec credential plugins are run (tests capture their stderr). */
  execIO?: Partial<ExecIO>;
  /**
   * Where the line "Waiting for the API server at …" goes when an answer is slow; default: stderr
   * when it is a terminal, else nowhere (a pipe or a log file gets no progress chatter).
   */
  waitingNotice?: ((line: string) => void) | null;
  /** The transport's limits (default client-go's: TRANSPORT_LIMITS); tests shorten them. */
  transportLimits?: TransportLimits;
}

function defaultWaitingNotice(): ((line: string) => void) | undefined {
  return process.stderr.isTTY ? (line) => void process.stderr.write(`${line}\n`) : undefined;
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const IN_CLUSTER_CONTEXT = 'in-cluster';

interface RawConfig {
  clusters: Map<string, Obj>;
  users: Map<string, Obj>;
  contexts: Map<string, Obj>;
  currentContext: string;
  files: string[];
}

const emptyConfig = (): RawConfig => ({ clusters: new Map(), users: new Map(), contexts: new Map(), currentContext: '', files: [] });

// ---------------------------------------------------------------------------------------------
// --request-timeout

/** kubectl's --request-timeout: milliseconds, or null for "no limit" ("0", "0s" or unset). */
export function parseRequestTimeout(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const ms = parseDurationMs(value, 's');
  if (ms === null) throw invalidTimeout(value);
  return ms === 0 ? null : ms;
}

function invalidTimeout(value: string): UserError {
  return new UserError(`invalid --request-timeout "${value}": use a whole number of seconds or a number with a unit (e.g. 500ms, 30s, 1m)`);
}

/** 200 → "200ms", 30000 → "30s", for messages. */
export function formatTimeout(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

// ---------------------------------------------------------------------------------------------
// Loading files

function resolvePath(dir: string, value: unknown): unknown {
  return typeof value === 'string' && value !== '' && !path.isAbsolute(value) ? path.join(dir, value) : value;
}

function readEntries(doc: Obj, key: 'clusters' | 'users' | 'contexts', inner: string, file: string): Obj[] {
  const list = doc[key];
  if (list === undefined || list === null) return [];
  const fail = (why: string) => new UserError(`error loading config file "${file}": ${why}`);
  if (!Array.isArray(list)) throw fail(`${key} must be a list`);
  return list.map((entry: unknown, i) => {
    if (!isObj(entry) || !str(entry.name)) throw fail(`${key}[${i}].name is missing`);
    if (entry[inner] !== undefined && entry[inner] !== null && !isObj(entry[inner])) {
      throw fail(`${key}[${i}].${inner} must be a mapping`);
    }
    return entry;
  });
}

/** One kubeconfig file, relative paths made absolute against its directory (as client-go does). */
function loadFile(file: string, mustExist: boolean): RawConfig | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (!mustExist && (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UserError(`cannot read kubeconfig "${file}": ${fsReason(err)}`);
  }
  let doc: unknown;
  try {
    doc = parseKubeconfigYaml(text);
  } catch (err) {
    throw new UserError(`error loading config file "${file}": ${oneLine(err)}`);
  }
  const config = emptyConfig();
  config.files.push(file);
  if (doc === null || doc === undefined) return config;
  if (!isObj(doc)) throw new UserError(`error loading config file "${file}": not a kubeconfig (expected a YAML mapping)`);

  const dir = path.dirname(path.resolve(file));
  for (const entry of readEntries(doc, 'clusters', 'cluster', file)) {
    const cluster: Obj = { ...((entry.cluster as Obj | undefined) ?? {}) };
    cluster['certificate-authority'] = resolvePath(dir, cluster['certificate-authority']);
    cluster['insecure-skip-tls-verify'] = goBool(cluster['insecure-skip-tls-verify']);
    if (!config.clusters.has(entry.name as string)) config.clusters.set(entry.name as string, cluster);
  }
  for (const entry of readEntries(doc, 'users', 'user', file)) {
    const user: Obj = { ...((entry.user as Obj | undefined) ?? {}) };
    for (const key of ['client-certificate', 'client-key', 'token-file']) user[key] = resolvePath(dir, user[key]);
    if (isObj(user.exec)) {
      const command = user.exec.command;
      user.exec = {
        ...user.exec,
        provideClusterInfo: goBool(user.exec.provideClusterInfo),
        command: typeof command === 'string' && command.includes(path.sep) ? resolvePath(dir, command) : command,
      };
    }
    if (!config.users.has(entry.name as string)) config.users.set(entry.name as string, user);
  }
  for (const entry of readEntries(doc, 'contexts', 'context', file)) {
    if (!config.contexts.has(entry.name as string)) config.contexts.set(entry.name as string, { ...((entry.context as Obj | undefined) ?? {}) });
  }
  config.currentContext = str(doc['current-context']) ?? '';
  return config;
}

/** client-go's merge: the first file to set a name (or current-context) wins. */
function merge(into: RawConfig, from: RawConfig): void {
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    for (const [name, value] of from[key]) if (!into[key].has(name)) into[key].set(name, value);
  }
  if (!into.currentContext) into.currentContext = from.currentContext;
  into.files.push(...from.files);
}

function loadKubeconfig(flags: ConnectionFlags, env: NodeJS.ProcessEnv): RawConfig {
  if (flags.kubeconfig) return loadFile(flags.kubeconfig, true) as RawConfig;
  const merged = emptyConfig();
  const files = kubeconfigFiles(env);
  const seen = new Set<string>();
  for (const file of files) {
    const abs = path.resolve(file);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const loaded = loadFile(file, false);
    if (loaded) merge(merged, loaded);
  }
  return merged;
}

const isEmpty = (c: RawConfig) => c.clusters.size === 0 && c.users.size === 0 && c.contexts.size === 0 && !c.currentContext;

// ---------------------------------------------------------------------------------------------
// Connecting

/**
 * No kubeconfig, no --server and not in a pod: clientcmd's ErrEmptyConfig, with the ways to go
 * on (rs-reconcile reads snapshots too, and brings its own API server).
 */
export const NO_CONFIGURATION =
  'no configuration has been provided, try setting KUBECONFIG or passing --kubeconfig or --server (no ~/.kube/config found, and not running in a pod); ' +
  'without a cluster, read a snapshot with -f SNAPSHOT (kubectl get rs,rc,pods -o yaml), or start a local API server with `kubectl rs-reconcile sandbox`';

interface Selected {
  contextName: string;
  cluster: Obj;
  clusterName: string;
  user: Obj | null;
  userName: string;
  namespace: string | undefined;
}

function select(config: RawConfig, flags: ConnectionFlags): Selected {
  const contextName = flags.context || config.currentContext;
  const ctx = contextName ? config.contexts.get(contextName) : undefined;
  if (contextName && !ctx) throw new UserError(`context "${contextName}" does not exist in the kubeconfig`);
  const clusterName = flags.cluster || str(ctx?.cluster);
  const userName = flags.user || str(ctx?.user) || '';
  const user = userName ? config.users.get(userName) : null;
  if (userName && !user) throw new UserError(`user "${userName}" does not exist in the kubeconfig`);
  if (!clusterName && flags.server) {
    // clientcmd requires no cluster entry when none is named: --server alone is a cluster
    return { contextName, cluster: {}, clusterName: '', user: user ? { ...user } : null, userName, namespace: str(ctx?.namespace) };
  }
  if (!clusterName) {
    if (!contextName) {
      throw new UserError(`no context is selected: ${config.files.join(', ')} sets no current-context; pass --context (or --cluster)`);
    }
    throw new UserError(`context "${contextName}" names no cluster`);
  }
  const cluster = config.clusters.get(clusterName);
  if (!cluster) throw new UserError(`cluster "${clusterName}" does not exist in the kubeconfig`);
  return {
    contextName: flags.context || config.currentContext,
    cluster: { ...cluster },
    clusterName,
    user: user ? { ...user } : null,
    userName,
    namespace: str(ctx?.namespace),
  };
}

function inClusterPossible(env: NodeJS.ProcessEnv, dir: string): boolean {
  if (!env.KUBERNETES_SERVICE_HOST || !env.KUBERNETES_SERVICE_PORT) return false;
  try {
    return fs.statSync(path.join(dir, 'token')).isFile();
  } catch {
    return false;
  }
}

function inCluster(env: NodeJS.ProcessEnv, dir: string): Selected {
  const host = env.KUBERNETES_SERVICE_HOST as string;
  const server = `https://${net.isIPv6(host) ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT}`;
  const ca = path.join(dir, 'ca.crt');
  const cluster: Obj = { server, ...(fs.existsSync(ca) ? { 'certificate-authority': ca } : {}) };
  const user: Obj = {};
  try {
    readToken(path.join(dir, 'token'));
  } catch (err) {
    throw new UserError(`in-cluster configuration: ${oneLine(err)}`);
  }
  user['token-file'] = path.join(dir, 'token');
  let namespace = str(env.POD_NAMESPACE);
  if (!namespace) {
    try {
      namespace = str(fs.readFileSync(path.join(dir, 'namespace'), 'utf8').trim());
    } catch {
      namespace = undefined;
    }
  }
  return { contextName: IN_CLUSTER_CONTEXT, cluster, clusterName: IN_CLUSTER_CONTEXT, user, userName: IN_CLUSTER_CONTEXT, namespace };
}

/** client-go's DefaultServerURL: a server without a scheme gets https when TLS is configured. */
function serverUrl(sel: Selected, flags: ConnectionFlags): string {
  const raw = str(sel.cluster.server);
  if (!raw) throw new UserError(`cluster "${sel.clusterName}" has no server address`);
  const source = flags.server ? '--server' : `cluster "${sel.clusterName}"`;
  let server = raw;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(server)) {
    const c = sel.cluster;
    const u = sel.user ?? {};
    const tls =
      c['certificate-authority'] ||
      c['certificate-authority-data'] ||
      c['insecure-skip-tls-verify'] === true ||
      c['tls-server-name'] ||
      u['client-certificate'] ||
      u['client-certificate-data'];
    server = `${tls ? 'https' : 'http'}://${server}`;
  }
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UserError(`${source} has an invalid server address "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UserError(`${source} has an unsupported server address "${raw}" (only http and https)`);
  }
  return server.replace(/\/+$/, '');
}

/** The context, cluster and user in use, the flags over them: from the kubeconfig, else the pod's service account. */
function selectWithFlags(flags: ConnectionFlags, env: NodeJS.ProcessEnv, saDir: string): Selected {
  const config = loadKubeconfig(flags, env);
  if (isEmpty(config) && !flags.context && !flags.cluster && !flags.user && !flags.server) {
    if (!inClusterPossible(env, saDir)) throw new UserError(NO_CONFIGURATION);
    const sel = inCluster(env, saDir);
    applyInClusterFlags(sel.cluster, sel.user, flags);
    return sel;
  }
  const sel = select(config, flags);
  applyClusterFlags(sel.cluster, flags);
  if (hasUserFlags(flags)) {
    sel.user ??= {};
    applyUserFlags(sel.user, flags);
  }
  return sel;
}

/**
 * The cluster as the transport uses it. clientcmd reads the user's credentials and the cluster's
 * TLS settings only when the transport is TLS ("only try to read the auth information if we are
 * secure"): against an http:// server kubectl sends no token, no basic auth and no client
 * certificate, runs no exec plugin or auth-provider, and the request goes out anonymous. Same
 * here: no credential crosses plain HTTP.
 */
function transportCluster(sel: Selected, server: string, flags: ConnectionFlags): Obj {
  const cluster: Obj = { ...sel.cluster, server };
  if (server.startsWith('https:')) checkServerTls(sel.cluster, sel.clusterName, flags);
  else {
    for (const key of ['certificate-authority', 'certificate-authority-data', 'tls-server-name']) delete cluster[key];
    // client-node refuses plain http unless TLS verification is "skipped"; there is no TLS to skip.
    cluster['insecure-skip-tls-verify'] = true;
  }
  return cluster;
}

/** Whose credentials a message about them names. */
function credentialsLabel(sel: Selected): string {
  if (sel.contextName) return `context "${sel.contextName}"`;
  if (sel.userName) return `user "${sel.userName}"`;
  return sel.user ? 'the credential flags' : 'the anonymous user';
}

export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env, options: ConnectOptions = {}): Connection {
  const requestTimeoutMs = parseRequestTimeout(flags.requestTimeout);
  const sel = selectWithFlags(flags, env, options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR);
  const server = serverUrl(sel, flags);
  const cluster = transportCluster(sel, server, flags);
  const secure = server.startsWith('https:');

  const user = secure ? sel.user : null;
  // a user of flags alone (--token, --client-certificate…) is named by them in messages
  const exec: ExecCredentialPlugin | null = user ? prepareCredentials(user, sel.userName || '(flags)', cluster, server, env, options.execIO) : null;
  // Impersonation is not a credential: clientcmd applies it on either transport.
  const as = impersonation(flags, sel.user);

  const namespace = flags.namespace || sel.namespace || 'default';
  const clusterKey = sel.clusterName || 'server';
  const contextKey = sel.contextName || `${clusterKey}/${sel.userName}`;
  // a user made of flags alone (--token, --client-certificate…) has no name in any kubeconfig
  const userKey = sel.user ? sel.userName || 'flags' : 'anonymous';
  const kc = new ClusterKubeConfig({
    impersonateUser: as.user,
    impersonateGroups: as.groups,
    impersonateUid: as.uid,
    requestTimeoutMs,
    disableCompression: goBool(cluster['disable-compression']) === true,
    server,
    contextName: sel.contextName,
    waitingNotice: options.waitingNotice === undefined ? defaultWaitingNotice() : (options.waitingNotice ?? undefined),
    limits: options.transportLimits,
    credentialsLabel: credentialsLabel(sel),
    // client-go runs the plugin again after a 401: the credential may have been revoked early.
    onUnauthorized: exec ? () => exec.invalidate() : undefined,
  });
  kc.addAuthenticator(new TokenFileAuthenticator());
  if (exec) kc.addAuthenticator(new ExecAuthenticator(exec));
  kc.loadFromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: clusterKey, cluster }],
      // Always a user, if only an empty one: without a user client-node skips the cluster's CA.
      users: [{ name: userKey, user: user ?? {} }],
      contexts: [{ name: contextKey, context: { cluster: clusterKey, user: userKey, namespace } }],
      'current-context': contextKey,
    }),
  );
  return { kc, contextName: sel.contextName, namespace, server, requestTimeoutMs };
}
