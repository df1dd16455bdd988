// `version`: the tool, Node.js, the server's version (when a cluster is configured and answers in
// time) and the upstream controller behaviour emulated against it. An unreachable or missing
// cluster is reported, never an error: `version` must work offline. Run as a kubectl plugin,
// kubectl 1.37+ passes its own path in KUBECTL_PATH: that kubectl's client version is shown too
// (never required; without KUBECTL_PATH nothing is run).

import { clientVersionLines } from '../core/client-version.js';
import type { ConnectionFlags } from '../cluster/config-overrides.js';
import { behaviourFeatures, type BehaviourFeature } from '../core/messages.js';
import { NEWEST_VERSION, OLDEST_MINOR } from '../core/versions.js';
import { oneLine } from '../errors.js';
import { resolveBehaviour, type BehaviourSource } from './behaviour.js';

/** How long `version` waits for the server when --request-timeout is not given. */
export const VERSION_TIMEOUT_MS = 5000;

export type ServerInfo =
  | { reachable: true; gitVersion: string; major: string; minor: string; context: string; server: string }
  | { reachable: false; reason: string; context?: string; server?: string };

/** The kubectl that runs this plugin (KUBECTL_PATH), and its client version or why it is not known. */
export type KubectlInfo = { path: string; gitVersion: string } | { path: string; reason: string };

export interface VersionReport {
  rsReconcile: string;
  node: string;
  /** null when kubectl did not say where it is (no KUBECTL_PATH). */
  kubectl: KubectlInfo | null;
  /** null with --client: the server was not asked. */
  server: ServerInfo | null;
  controllerBehaviour: {
    newest: string;
    oldest: string;
    source: string;
    emulated: {
      version: string;
      /** Why this version: --kube-version, the server's own, or the newest (no server). */
      from: BehaviourSource;
      gates: Record<string, boolean>;
      features: BehaviourFeature[];
      notes: string[];
    };
  };
}

export interface VersionOptions {
  client: boolean;
  connection: ConnectionFlags;
  kubeVersion?: string;
  featureGates?: string;
  env?: NodeJS.ProcessEnv;
  /** Wait for the server at most this long (default: --request-timeout, else VERSION_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** The server's /version, or why it is not known; settles within the timeout whatever happens. */
export async function serverInfo(connection: ConnectionFlags, env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<ServerInfo> {
  let where: { context?: string; server?: string } = {};
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const { connect } = await import('../cluster/kubeconfig.js');
    const { getServerVersion } = await import('../cluster/read.js');
    const conn = connect(connection, env);
    where = { context: conn.contextName, server: conn.server };
    const limit = timeoutMs ?? (conn.requestTimeoutMs || VERSION_TIMEOUT_MS);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ac.abort();
        reject(new Error(`no answer from ${conn.server} within ${limit / 1000}s`));
      }, limit);
    });
    const v = await Promise.race([getServerVersion(conn, { signal: ac.signal }), timeout]);
    return { reachable: true, gitVersion: v.gitVersion, major: v.major, minor: v.minor, context: conn.contextName, server: conn.server };
  } catch (err) {
    return { reachable: false, reason: oneLine(err), ...where };
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

/**
 * `$KUBECTL_PATH version --client -o json`: the client version of the kubectl that runs this
 * plugin. Settles within the timeout; a kubectl that fails or says nothing usable is reported.
 */
export async function kubectlInfo(env: NodeJS.ProcessEnv, timeoutMs = VERSION_TIMEOUT_MS): Promise<KubectlInfo | null> {
  const path = env.KUBECTL_PATH;
  if (!path) return null;
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(path, ['version', '--client', '-o', 'json'], { env, timeout: timeoutMs, maxBuffer: 1 << 20, encoding: 'utf8' }, (err, stdout) => {
      if (err) {
        const why = err.killed ? `no answer within ${timeoutMs / 1000}s` : oneLine(err);
        return resolve({ path, reason: why });
      }
      try {
        const gitVersion = (JSON.parse(stdout) as { clientVersion?: { gitVersion?: unknown } }).clientVersion?.gitVersion;
        if (typeof gitVersion === 'string' && gitVersion) return resolve({ path, gitVersion });
      } catch {
        // not JSON: reported below
      }
      resolve({ path, reason: `${path} version --client -o json printed no clientVersion.gitVersion` });
    });
  });
}

export async function versionReport(tool: string, opts: VersionOptions): Promise<VersionReport> {
  const env = opts.env ?? process.env;
  const [server, kubectl] = await Promise.all([opts.client ? null : serverInfo(opts.connection, env, opts.timeoutMs), kubectlInfo(env, opts.timeoutMs)]);
  const notes: string[] = [];
  // the server was asked above whatever --kube-version says: its version is shown either way.
  // An invalid --kube-version or --feature-gates is the user's error, as in every other command.
  const { behaviour, from } = await resolveBehaviour(opts, notes, async () => (server?.reachable ? server.minor : null));
  return {
    rsReconcile: tool,
    node: process.version,
    kubectl,
    server,
    controllerBehaviour: {
      newest: NEWEST_VERSION,
      oldest: `1.${OLDEST_MINOR}`,
      source: 'kubernetes/kubernetes pkg/controller/replicaset',
      emulated: { version: behaviour.version, from, gates: { ...behaviour.gates }, features: behaviourFeatures(behaviour), notes },
    },
  };
}

/** The report for a person, kubectl version's style ("Server Version: v1.32.4"). */
export function versionText(r: VersionReport): string {
  const lines = clientVersionLines(r.rsReconcile, r.node);
  const k = r.kubectl;
  if (k) lines.push('gitVersion' in k ? `Kubectl Version: ${k.gitVersion} (${k.path})` : `Kubectl Version: unknown: ${k.reason}`);
  const s = r.server;
  if (s?.reachable) lines.push(`Server Version: ${s.gitVersion || `${s.major}.${s.minor}`}${s.context ? ` (context ${s.context})` : ''}`);
  else if (s) lines.push(`Server Version: unknown: ${s.reason}`);
  const e = r.controllerBehaviour.emulated;
  const why =
    e.from === 'kube-version'
      ? 'as --kube-version asks'
      : e.from === 'server'
        ? "the server's version"
        : s
          ? 'the newest, as no server answered'
          : 'the newest (--client: no server asked)';
  lines.push(`Controller behaviour: upstream ${e.version}, ${why} (rs-reconcile emulates ${r.controllerBehaviour.oldest}–${r.controllerBehaviour.newest})`);
  for (const f of e.features) lines.push(`  ${f.on ? 'on ' : 'off'}  ${f.name} (${f.source}): ${f.description}`);
  for (const n of e.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}
