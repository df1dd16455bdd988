// kubectl's connection flags over the kubeconfig, as clientcmd's ConfigOverrides are merged by its
// DirectClientConfig (getCluster, getAuthInfo) and by inClusterClientConfig: which field each
// flag replaces, and what it clears with it. Impersonation (--as, --as-group, --as-uid) is an
// override too, on either transport.

import { UserError } from '../errors.js';
import { str, type Obj } from './kubeconfig-fields.js';

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

/**
 * The cluster flags over the selected cluster, as clientcmd's getCluster merges them: each flag
 * set replaces its field; --insecure-skip-tls-verify or --certificate-authority replaces all of
 * the kubeconfig's trust (the CA file, the CA data and the skip), so `--insecure-skip-tls-verify`
 * clears a kubeconfig's CA; --server or --tls-server-name replaces the kubeconfig's server name.
 */
export function applyClusterFlags(cluster: Obj, flags: ConnectionFlags): void {
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
export function hasUserFlags(flags: ConnectionFlags): boolean {
  return Boolean(flags.token || flags.clientCertificate || flags.clientKey || flags.username || flags.password);
}

/**
 * The user flags over the selected user, as clientcmd's getAuthInfo merges them. --token is the
 * user's bearer token and stands in for the kubeconfig's other token sources and plugins
 * (token-file, auth-provider, exec); --client-certificate and --client-key replace the file and
 * the inline data of the kubeconfig.
 */
export function applyUserFlags(user: Obj, flags: ConnectionFlags): void {
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
export function applyInClusterFlags(cluster: Obj, user: Obj | null, flags: ConnectionFlags): void {
  if (flags.server) cluster.server = flags.server;
  if (flags.certificateAuthority) cluster['certificate-authority'] = flags.certificateAuthority;
  if (flags.token && user) {
    user.token = flags.token;
    delete user['token-file'];
  }
}

/** Who the requests act as: Impersonate-User, -Group and -Uid. */
export interface Impersonation {
  user: string | undefined;
  groups: string[];
  uid: string | undefined;
}

/**
 * --as, --as-group and --as-uid, else the selected user's as, as-groups and as-uid; groups or a
 * UID without a user to impersonate are refused, as kubectl refuses them.
 */
export function impersonation(flags: ConnectionFlags, user: Obj | null): Impersonation {
  let impersonateUser = flags.as || undefined;
  let groups = flags.asGroups?.filter((g) => g !== '') ?? [];
  let uid = flags.asUid || undefined;
  if (user) {
    impersonateUser ??= str(user.as);
    if (groups.length === 0 && Array.isArray(user['as-groups'])) groups = user['as-groups'].map(String);
    uid ??= str(user['as-uid']);
  }
  if (groups.length > 0 && !impersonateUser) {
    throw new UserError('--as-group needs --as: groups can be impersonated only together with a user');
  }
  if (uid && !impersonateUser) {
    throw new UserError('--as-uid needs --as: a UID can be impersonated only together with a user');
  }
  return { user: impersonateUser, groups, uid };
}
