// Resolves a connection the way kubectl does (client-go's clientcmd loading rules):
//   --kubeconfig FILE, else every file of KUBECONFIG merged (first file wins per name, missing
//   files skipped), else ~/.kube/config, else the pod's service account (in-cluster);
//   --context / --cluster / --user / -n override the kubeconfig, --as / --as-group / --as-uid
//   impersonate, and kubectl's other connection flags (--server, --token, --certificate-authority,
//   --insecure-skip-tls-verify, --tls-server-name, --client-certificate, --client-key, --username,
//   --password, --disable-compression) override the selected cluster's and user's fields as
//   clientcmd's DirectClientConfig merges ConfigOverrides (applyClusterFlags, applyUserFlags).
//
// Files are parsed and merged here, and client-node gets only the selected context, cluster and
// user: its own loader resolves no relative token-file, refuses duplicate names when merging,
// and throws on any malformed entry, even one the selected context never uses.
//
// Credentials follow client-go too: used over https only, checked before any request (client
// certificates, CA with insecure-skip-tls-verify, exec blocks), and never put in a message. Exec
// plugins are run by exec-credential.ts, not by client-node.

import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import YAML from 'yaml';
import type { KubeConfig, User } from '@kubernetes/client-node';
import { UserError, oneLine } from '../errors.js';
import { ClusterKubeConfig, type TransportLimits } from './http.js';
import {
  EXEC_PROVIDER,
  ExecAuthenticator,
  ExecCredentialPlugin,
  defaultExecIO,
  parseExecConfig,
  type ExecClusterInfo,
  type ExecIO,
} from './exec-credential.js';
import { parseDurationMs } from '../core/duration.js';
import { kubeconfigFiles } from './kubeconfig-files.js';

export interface ConnectionFlags {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  namespace?: string;
  /** --server: the selected cluster's server; works without any kubeconfig. */
  server?: string;
  tlsServerName?: string;
  certificateAuthority?: string;
  insecureSkipTlsVerify?: boolean;
  clientCertificate?: string;
  clientKey?: string;
  /** --token: the user's bearer token, instead of any other token or plugin of the kubeconfig's user. */
  token?: string;
  username?: string;
  password?: string;
  as?: string;
  asGroups?: string[];
  asUid?: string;
  /** kubectl syntax: "0" (no limit), "30s", "1m", "500ms", or a bare number of seconds. */
  requestTimeout?: string;
  disableCompression?: boolean;
}

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

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const IN_CLUSTER_CONTEXT = 'in-cluster';

type Obj = Record<string, unknown>;
/** client-node's Authenticator (not exported from its index). */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

interface RawConfig {
  clusters: Map<string, Obj>;
  users: Map<string, Obj>;
  contexts: Map<string, Obj>;
  currentContext: string;
  files: string[];
}

const emptyConfig = (): RawConfig => ({ clusters: new Map(), users: new Map(), contexts: new Map(), currentContext: '', files: [] });

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

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

function fsReason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // "ENOENT: no such file or directory, open '/x'" → "no such file or directory"
  return msg.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
}

/**
 * kubectl decodes YAML into typed Go structs: `name: y` or `namespace: 1234` stay strings there,
 * where a plain YAML 1.1 or 1.2 parse would make a boolean or a number. So every scalar is read
 * as a string (the failsafe schema), a plain null/~/empty becomes null, and the few boolean
 * fields are converted by goBool.
 */
function parseYaml(text: string): unknown {
  const doc = YAML.parseDocument(text, { schema: 'failsafe', uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (node.type === 'PLAIN' && /^(~|null|Null|NULL|)$/.test(String(node.value))) node.value = null;
    },
  });
  return doc.toJS();
}

/** go-yaml's booleans (YAML 1.1: y, yes, on, true … in their case variants). */
function goBool(value: unknown): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  return /^(y|Y|yes|Yes|YES|on|On|ON|true|True|TRUE)$/.test(String(value));
}

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
    doc = parseYaml(text);
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
// Token files (kubeconfig token-file and the service account token): re-read every minute and
// trimmed, as client-go's cached file token source does. client-node reads a token-file once,
// at load, and keeps a trailing newline that makes the header invalid.

const TOKEN_FILE_PROVIDER = 'rs-reconcile/token-file';
const TOKEN_REFRESH_MS = 60_000;

class TokenFileAuthenticator implements Authenticator {
  private cache = new Map<string, { token: string; readAt: number }>();

  isAuthProvider(user: User): boolean {
    return user.authProvider?.name === TOKEN_FILE_PROVIDER;
  }

  async applyAuthentication(user: User, opts: { headers?: unknown }): Promise<void> {
    const file = String(user.authProvider?.config?.path);
    let entry = this.cache.get(file);
    if (!entry || Date.now() - entry.readAt > TOKEN_REFRESH_MS) {
      entry = { token: readToken(file), readAt: Date.now() };
      this.cache.set(file, entry);
    }
    const headers = (opts.headers ?? (opts.headers = {})) as Record<string, string>;
    headers.Authorization = `Bearer ${entry.token}`;
  }
}

function readToken(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`cannot read token file "${file}": ${fsReason(err)}`);
  }
}

function useTokenFile(user: Obj, file: string): void {
  readToken(file); // fail now, with the file's name, rather than on the first request
  user['auth-provider'] = { name: TOKEN_FILE_PROVIDER, config: { path: file } };
}

// ---------------------------------------------------------------------------------------------
// TLS settings and client certificates, checked before any request: a bad one is one line naming
// the kubeconfig field, where client-node would fail on every request with an OpenSSL message.

/** client-go's transport.TLSConfigFor refuses a CA together with insecure-skip-tls-verify (no silently unverified TLS). */
function checkServerTls(sel: Selected, flags: ConnectionFlags): void {
  const c = sel.cluster;
  if (flags.insecureSkipTlsVerify && flags.certificateAuthority) {
    throw new UserError(
      'specifying a root certificates file with the insecure flag is not allowed (--insecure-skip-tls-verify together with --certificate-authority)',
    );
  }
  const ca = str(c['certificate-authority']) ? 'certificate-authority' : str(c['certificate-authority-data']) ? 'certificate-authority-data' : null;
  if (c['insecure-skip-tls-verify'] === true && ca) {
    throw new UserError(
      `cluster "${sel.clusterName}": specifying a root certificates file with the insecure flag is not allowed (insecure-skip-tls-verify is set together with ${ca})`,
    );
  }
  // clientcmd's validateClusterInfo reads the CA file before any request
  const caFile = str(c['certificate-authority']);
  if (caFile) {
    try {
      fs.readFileSync(caFile);
    } catch (err) {
      const owner = sel.clusterName ? `cluster "${sel.clusterName}"` : '--server';
      throw new UserError(`unable to read certificate-authority ${caFile} for ${owner}: ${fsReason(err)}`);
    }
  }
}

/** The bytes of a file-or-data pair of fields (`client-key` / `client-key-data`), data winning as in client-go. */
function pemField(user: Obj, field: string, userName: string): { bytes: Buffer; name: string } | null {
  const fail = (why: string) => new UserError(`user "${userName}": ${why}`);
  const data = str(user[`${field}-data`]);
  if (data) {
    if (!/^[A-Za-z0-9+/\s]*=?=?\s*$/.test(data)) throw fail(`${field}-data is not valid base64`);
    return { bytes: Buffer.from(data, 'base64'), name: `${field}-data` };
  }
  const file = str(user[field]);
  if (!file) return null;
  try {
    return { bytes: fs.readFileSync(file), name: `${field} "${file}"` };
  } catch (err) {
    throw fail(`cannot read ${field} "${file}": ${fsReason(err)}`);
  }
}

/**
 * A client certificate and its key, as client-go's tls.X509KeyPair takes them: both present,
 * both PEM, the key the certificate's own.
 */
function checkClientCertificate(user: Obj, userName: string): void {
  const cert = pemField(user, 'client-certificate', userName);
  if (!cert) return;
  const fail = (why: string) => new UserError(`user "${userName}": ${why}`);
  const key = pemField(user, 'client-key', userName);
  if (!key) throw fail(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method`);
  let certificate: X509Certificate;
  try {
    if (!cert.bytes.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM block');
    certificate = new X509Certificate(cert.bytes);
  } catch {
    throw fail(`${cert.name} is not a PEM certificate`);
  }
  let privateKey: KeyObject;
  try {
    if (!key.bytes.includes('-----BEGIN')) throw new Error('no PEM block');
    privateKey = createPrivateKey(key.bytes);
  } catch {
    throw fail(`${key.name} is not an unencrypted PEM private key`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw fail(`${cert.name} and ${key.name} do not match (the private key is not the certificate's)`);
  }
  // client-node would read the file where client-go uses the data: hand it only what client-go uses.
  for (const field of ['client-certificate', 'client-key']) if (str(user[`${field}-data`])) delete user[field];
}

/** What a plugin with provideClusterInfo is told about the cluster (client-go's rest.ExecClusterConfig). */
function execClusterInfo(cluster: Obj, server: string, userName: string): ExecClusterInfo {
  const info: ExecClusterInfo = { server };
  if (str(cluster['tls-server-name'])) info['tls-server-name'] = cluster['tls-server-name'] as string;
  if (cluster['insecure-skip-tls-verify'] === true) info['insecure-skip-tls-verify'] = true;
  if (str(cluster['proxy-url'])) info['proxy-url'] = cluster['proxy-url'] as string;
  if (goBool(cluster['disable-compression'])) info['disable-compression'] = true;
  const caData = str(cluster['certificate-authority-data']);
  const caFile = str(cluster['certificate-authority']);
  if (caData) info['certificate-authority-data'] = caData;
  else if (caFile) {
    try {
      info['certificate-authority-data'] = fs.readFileSync(caFile).toString('base64');
    } catch (err) {
      throw new UserError(`user "${userName}": failed to load CA bundle for execProvider: cannot read "${caFile}": ${fsReason(err)}`);
    }
  }
  const extensions = Array.isArray(cluster.extensions) ? cluster.extensions : [];
  const ext = extensions.find((e: unknown) => isObj(e) && e.name === 'client.authentication.k8s.io/exec') as Obj | undefined;
  if (ext && ext.extension !== undefined) info.config = ext.extension;
  return info;
}

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

/**
 * The cluster flags over the selected cluster, as clientcmd's getCluster merges them: each flag
 * set replaces its field; --insecure-skip-tls-verify or --certificate-authority replaces all of
 * the kubeconfig's trust (the CA file, the CA data and the skip), so `--insecure-skip-tls-verify`
 * clears a kubeconfig's CA; --server or --tls-server-name replaces the kubeconfig's server name.
 */
function applyClusterFlags(cluster: Obj, flags: ConnectionFlags): void {
  if (flags.server) cluster.server = flags.server;
  if (flags.disableCompression) cluster['disable-compression'] = 'true';
  if (flags.insecureSkipTlsVerify || flags.certificateAuthority) {
    cluster['insecure-skip-tls-verify'] = flags.insecureSkipTlsVerify === true;
    cluster['certificate-authority'] = flags.certificateAuthority;
    delete cluster['certificate-authority-data'];
  }
  if (flags.tlsServerName || flags.server) cluster['tls-server-name'] = flags.tlsServerName;
}

/** Whether a user flag is set: then the request has a user even when the kubeconfig names none. */
function hasUserFlags(flags: ConnectionFlags): boolean {
  return Boolean(flags.token || flags.clientCertificate || flags.clientKey || flags.username || flags.password);
}

/**
 * The user flags over the selected user, as clientcmd's getAuthInfo merges them. --token is the
 * user's bearer token and stands in for the kubeconfig's other token sources and plugins
 * (token-file, auth-provider, exec); --client-certificate and --client-key replace the file and
 * the inline data of the kubeconfig.
 */
function applyUserFlags(user: Obj, flags: ConnectionFlags): void {
  if (flags.token) {
    user.token = flags.token;
    for (const key of ['token-file', 'auth-provider', 'exec']) delete user[key];
  }
  if (flags.clientCertificate) {
    user['client-certificate'] = flags.clientCertificate;
    delete user['client-certificate-data'];
  }
  if (flags.clientKey) {
    user['client-key'] = flags.clientKey;
    delete user['client-key-data'];
  }
  if (flags.username) user.username = flags.username;
  if (flags.password) user.password = flags.password;
}

/** The flags inClusterClientConfig takes over the service account: --server, --token, --certificate-authority. */
function applyInClusterFlags(sel: Selected, flags: ConnectionFlags): void {
  if (flags.server) sel.cluster.server = flags.server;
  if (flags.certificateAuthority) sel.cluster['certificate-authority'] = flags.certificateAuthority;
  if (flags.token && sel.user) {
    sel.user.token = flags.token;
    delete sel.user['token-file'];
  }
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

/**
 * client-go knows one auth-provider, oidc: gcp and azure were removed in 1.26 (client-node would
 * still run gcp's cmd-path through a shell and quote its output in errors), and any other name is
 * an error, not an anonymous request.
 */
function checkAuthProvider(provider: Obj, userName: string): void {
  const name = str(provider.name) ?? '';
  const fail = (why: string) => new UserError(`user "${userName}": ${why}`);
  if (name === 'gcp') {
    throw fail(
      'The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details',
    );
  }
  if (name === 'azure') {
    throw fail(
      'The azure auth plugin has been removed. Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead. See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details',
    );
  }
  if (name !== 'oidc') throw fail(`no Auth Provider found for name "${name}"`);
}

/**
 * The user's credentials as client-go picks them (over TLS only): an inline token wins over
 * token-file; a token or basic auth means the exec plugin is never run; a client certificate is
 * checked now. Returns the exec plugin to run, if any; client-node gets the rest.
 */
function prepareCredentials(
  user: Obj,
  userName: string,
  cluster: Obj,
  server: string,
  env: NodeJS.ProcessEnv,
  options: ConnectOptions,
): ExecCredentialPlugin | null {
  const fail = (why: string) => new UserError(`user "${userName}": ${why}`);
  const authProvider = user['auth-provider'];
  const hasExec = user.exec !== undefined && user.exec !== null;
  if (hasExec && authProvider !== undefined && authProvider !== null) {
    throw fail(`authProvider cannot be provided in combination with an exec plugin for ${userName}`);
  }
  if (isObj(authProvider)) checkAuthProvider(authProvider, userName);
  const execConfig = hasExec ? parseExecConfig(user.exec, userName) : null;
  // client-node's ExecAuth must never see the block: it would run the plugin its own way.
  delete user.exec;

  const tokenFile = str(user['token-file']);
  delete user['token-file'];
  let hasToken = str(user.token) !== undefined;
  if (tokenFile && !hasToken && (authProvider === undefined || authProvider === null)) {
    try {
      useTokenFile(user, tokenFile);
    } catch (err) {
      throw fail(oneLine(err));
    }
    hasToken = true;
  }
  checkClientCertificate(user, userName);

  // client-go's exec authenticator stands aside when the user has a token or basic auth.
  const hasBasicAuth = str(user.username) !== undefined || str(user.password) !== undefined;
  if (!execConfig || hasToken || hasBasicAuth) return null;
  user['auth-provider'] = { name: EXEC_PROVIDER, config: {} };
  const clusterInfo = execConfig.provideClusterInfo ? execClusterInfo(cluster, server, userName) : { server };
  return new ExecCredentialPlugin(execConfig, clusterInfo, { ...defaultExecIO(), env, ...options.execIO });
}

export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env, options: ConnectOptions = {}): Connection {
  const requestTimeoutMs = parseRequestTimeout(flags.requestTimeout);
  const saDir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;

  const config = loadKubeconfig(flags, env);
  let sel: Selected;
  if (isEmpty(config) && !flags.context && !flags.cluster && !flags.user && !flags.server) {
    if (!inClusterPossible(env, saDir)) throw new UserError(NO_CONFIGURATION);
    sel = inCluster(env, saDir);
    applyInClusterFlags(sel, flags);
  } else {
    sel = select(config, flags);
    applyClusterFlags(sel.cluster, flags);
    if (hasUserFlags(flags)) {
      sel.user ??= {};
      applyUserFlags(sel.user, flags);
    }
  }

  const server = serverUrl(sel, flags);
  // clientcmd reads the user's credentials and the cluster's TLS settings only when the transport
  // is TLS ("only try to read the auth information if we are secure"): against an http:// server
  // kubectl sends no token, no basic auth and no client certificate, runs no exec plugin or
  // auth-provider, and the request goes out anonymous. Same here: no credential crosses plain HTTP.
  const secure = server.startsWith('https:');
  const cluster: Obj = { ...sel.cluster, server };
  if (secure) checkServerTls(sel, flags);
  else {
    for (const key of ['certificate-authority', 'certificate-authority-data', 'tls-server-name']) delete cluster[key];
    // client-node refuses plain http unless TLS verification is "skipped"; there is no TLS to skip.
    cluster['insecure-skip-tls-verify'] = true;
  }

  let impersonateUser = flags.as || undefined;
  let impersonateGroups = flags.asGroups?.filter((g) => g !== '') ?? [];
  let impersonateUid = flags.asUid || undefined;
  let user: Obj | null = null;
  let exec: ExecCredentialPlugin | null = null;
  if (sel.user) {
    // Impersonation is not a credential: clientcmd applies it on either transport.
    impersonateUser ??= str(sel.user.as);
    if (impersonateGroups.length === 0 && Array.isArray(sel.user['as-groups'])) impersonateGroups = sel.user['as-groups'].map(String);
    impersonateUid ??= str(sel.user['as-uid']);
    if (secure) {
      user = sel.user;
      // a user of flags alone (--token, --client-certificate…) is named by them in messages
      exec = prepareCredentials(user, sel.userName || '(flags)', cluster, server, env, options);
    }
  }
  if (impersonateGroups.length > 0 && !impersonateUser) {
    throw new UserError('--as-group needs --as: groups can be impersonated only together with a user');
  }
  if (impersonateUid && !impersonateUser) {
    throw new UserError('--as-uid needs --as: a UID can be impersonated only together with a user');
  }

  const namespace = flags.namespace || sel.namespace || 'default';
  const clusterKey = sel.clusterName || 'server';
  const contextKey = sel.contextName || `${clusterKey}/${sel.userName}`;
  // a user made of flags alone (--token, --client-certificate…) has no name in any kubeconfig
  const userKey = sel.user ? sel.userName || 'flags' : 'anonymous';
  const kc = new ClusterKubeConfig({
    impersonateUser,
    impersonateGroups,
    impersonateUid,
    requestTimeoutMs,
    disableCompression: goBool(cluster['disable-compression']) === true,
    server,
    contextName: sel.contextName,
    waitingNotice: options.waitingNotice === undefined ? defaultWaitingNotice() : (options.waitingNotice ?? undefined),
    limits: options.transportLimits,
    credentialsLabel: sel.contextName
      ? `context "${sel.contextName}"`
      : sel.userName
        ? `user "${sel.userName}"`
        : sel.user
          ? 'the credential flags'
          : 'the anonymous user',
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
