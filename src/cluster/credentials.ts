// The TLS settings of the cluster and the credentials of the user, as client-go's transport takes
// them: checked before any request, each problem one line naming the kubeconfig field (where
// client-node would fail on every request with an OpenSSL message), and never a credential in a
// message. Token files are re-read as client-go re-reads them; exec plugins are prepared here and
// run by exec-credential.ts, not by client-node.

import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import type { KubeConfig, User } from '@kubernetes/client-node';
import { UserError, oneLine } from '../errors.js';
import type { ConnectionFlags } from './config-overrides.js';
import { EXEC_PROVIDER, ExecCredentialPlugin, defaultExecIO, parseExecConfig, type ExecClusterInfo, type ExecIO } from './exec-credential.js';
import { isObj } from '../core/guards.js';
import { fsReason, goBool, str, type Obj } from './kubeconfig-fields.js';

/** client-node's Authenticator (not exported from its index). */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

// ---------------------------------------------------------------------------------------------
// Token files (kubeconfig token-file and the service account token): re-read every minute and
// trimmed, as client-go's cached file token source does. client-node reads a token-file once,
// at load, and keeps a trailing newline that makes the header invalid.

const TOKEN_FILE_PROVIDER = 'rs-reconcile/token-file';
const TOKEN_REFRESH_MS = 60_000;

export class TokenFileAuthenticator implements Authenticator {
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

export function readToken(file: string): string {
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
export function checkServerTls(c: Obj, clusterName: string, flags: ConnectionFlags): void {
  if (flags.insecureSkipTlsVerify && flags.certificateAuthority) {
    throw new UserError(
      'specifying a root certificates file with the insecure flag is not allowed (--insecure-skip-tls-verify together with --certificate-authority)',
    );
  }
  const ca = str(c['certificate-authority']) ? 'certificate-authority' : str(c['certificate-authority-data']) ? 'certificate-authority-data' : null;
  if (c['insecure-skip-tls-verify'] === true && ca) {
    throw new UserError(
      `cluster "${clusterName}": specifying a root certificates file with the insecure flag is not allowed (insecure-skip-tls-verify is set together with ${ca})`,
    );
  }
  // clientcmd's validateClusterInfo reads the CA file before any request
  const caFile = str(c['certificate-authority']);
  if (caFile) {
    try {
      fs.readFileSync(caFile);
    } catch (err) {
      const owner = clusterName ? `cluster "${clusterName}"` : '--server';
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
export function prepareCredentials(
  user: Obj,
  userName: string,
  cluster: Obj,
  server: string,
  env: NodeJS.ProcessEnv,
  execIO: Partial<ExecIO> | undefined,
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
  return new ExecCredentialPlugin(execConfig, clusterInfo, { ...defaultExecIO(), env, ...execIO });
}
