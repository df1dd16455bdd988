// rs-reconcile's User-Agent, in one place for the two sides that use it: the cluster adapter
// writes it on every request, and `history` reads it back from audit logs to tell rs-reconcile's
// controller writes and the rules they ran.
//   rs-reconcile/v<version> (<os>/<arch>) kubernetes/<commit>          every client
//   … replicaset-controller/<identity>[ rules/v<minor>]                the controller's (run, reconcile)
// The first part has client-go's DefaultKubernetesUserAgent shape, so a kube-apiserver names the
// field manager of every write `rs-reconcile` (the User-Agent up to its first "/").
// Audit logs written before that shape carry `rs-reconcile (<os>/<arch>) node/<version>`: they
// are read as rs-reconcile's too.

/** The program name in the User-Agent (client-go's adjustCommand of os.Args[0]). */
const USER_AGENT_COMMAND = 'rs-reconcile';

/** client-go's adjustVersion: the version without its pre-release or build part, with Git's "v". */
export function userAgentVersion(version: string): string {
  const bare = version.trim().split('-', 1)[0] ?? '';
  if (bare === '') return 'unknown';
  return bare.startsWith('v') ? bare : `v${bare}`;
}

/** client-go's adjustCommit: the first 7 characters, "unknown" when empty ($Format when unstamped, as client-go's). */
function userAgentCommit(commit: string): string {
  return commit === '' ? 'unknown' : commit.slice(0, 7);
}

/** Go's GOOS for the platform as Node.js names it (win32 → windows). */
function goOs(platform: string): string {
  return platform === 'win32' ? 'windows' : platform === 'sunos' ? 'solaris' : platform;
}

/** Go's GOARCH for the architecture as Node.js names it (x64 → amd64). */
function goArch(arch: string): string {
  const names: Record<string, string> = { x64: 'amd64', ia32: '386', ppc64: 'ppc64le', mipsel: 'mipsle' };
  return names[arch] ?? arch;
}

/** The version of rs-reconcile as a build stamps it; the commit is client-go's unstamped "$Format:%H$" without a stamp. */
export interface ClientBuild {
  version: string;
  commit?: string;
  platform: string;
  arch: string;
}

/** The User-Agent of every rs-reconcile client: `rs-reconcile/v0.1.0 (linux/amd64) kubernetes/$Format`. */
export function baseUserAgent(build: ClientBuild): string {
  const commit = userAgentCommit(build.commit ?? '$Format:%H$');
  return `${USER_AGENT_COMMAND}/${userAgentVersion(build.version)} (${goOs(build.platform)}/${goArch(build.arch)}) kubernetes/${commit}`;
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

/** Today's shape (`rs-reconcile/v… (…) kubernetes/…`) and the earlier one (`rs-reconcile (…) node/v…`). */
const CONTROLLER_AGENT = /^rs-reconcile(?:\/\S+ \([^)]*\) kubernetes\/\S+| \([^)]*\) node\/\S+) replicaset-controller\/\S+/;

/** Whether the User-Agent is rs-reconcile's controller client. */
export function isRsReconcileController(userAgent: string): boolean {
  return CONTROLLER_AGENT.test(userAgent);
}

/** The rules (`1.32`) rs-reconcile's controller client says it ran, or null. */
export function rsReconcileRules(userAgent: string): string | null {
  if (!CONTROLLER_AGENT.test(userAgent)) return null;
  return / rules\/v(1\.\d+)\b/.exec(userAgent)?.[1] ?? null;
}
