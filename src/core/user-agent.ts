// rs-reconcile's User-Agent, in one place for the two sides that use it: the cluster adapter
// writes it on every request, and `history` reads it back from audit logs to tell rs-reconcile's
// controller writes and the rules they ran.
//   rs-reconcile (<os>/<arch>) node/<version>                          every client
//   … replicaset-controller/<identity>[ rules/v<minor>]                the controller's (run, reconcile)

/** The User-Agent of every rs-reconcile client on a platform (os and arch as Node names them). */
export function baseUserAgent(os: string, arch: string, nodeVersion: string): string {
  return `rs-reconcile (${os}/${arch}) node/${nodeVersion}`;
}

/**
 * A named client of rs-reconcile: `<base> <client>/<identity>`, as kube-controller-manager names
 * each controller's client. The controller also names the Kubernetes minor whose rules it runs
 * (`rules/v1.32`), as kube-controller-manager's version does: `history` applies those rules.
 */
export function clientUserAgent(base: string, client: string, identity: string, rulesVersion?: string): string {
  // a header value is visible ASCII: anything else in a host name would make the request fail
  return `${base} ${client}/${identity.replace(/[^\x21-\x7e]/g, '_')}${rulesVersion ? ` rules/v${rulesVersion}` : ''}`;
}

const CONTROLLER_AGENT = /^rs-reconcile \([^)]*\) node\/\S+ replicaset-controller\/\S+/;

/** Whether the User-Agent is rs-reconcile's controller client. */
export function isRsReconcileController(userAgent: string): boolean {
  return CONTROLLER_AGENT.test(userAgent);
}

/** The rules (`1.32`) rs-reconcile's controller client says it ran, or null. */
export function rsReconcileRules(userAgent: string): string | null {
  if (!CONTROLLER_AGENT.test(userAgent)) return null;
  return / rules\/v(1\.\d+)\b/.exec(userAgent)?.[1] ?? null;
}
