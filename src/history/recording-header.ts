// The first line of a recording: its format's version, what was recorded, and the versions of
// the server and of the rules its writers ran (docs/recording-format.md). Pure.

export const RECORDING_API_VERSION = 'rs-reconcile/v1alpha1';
export const RECORDING_KIND = 'Recording';
/** The line format's version; a reader refuses a newer one. */
export const RECORDING_FORMAT_VERSION = 1;

/** The first line of every recording file. */
export interface RecordingHeader {
  apiVersion: typeof RECORDING_API_VERSION;
  kind: typeof RECORDING_KIND;
  version: number;
  /** When recording started (RFC 3339, UTC, milliseconds). */
  time: string;
  /** The namespace recorded, or null for all namespaces. */
  namespace: string | null;
  /** The kubeconfig context (or server) recorded, for people reading the file. */
  context: string;
  /** The server's /version when recording started; null when it did not say (absent in older recordings). */
  serverVersion?: RecordedServerVersion | null;
  /** The Kubernetes minor (`1.32`) whose rules rs-reconcile applies to that server (its `run` and `watch --reconcile`, unless --kube-version). */
  rulesVersion?: string | null;
}

/** A server's /version, as recorded. */
export interface RecordedServerVersion {
  gitVersion: string;
  major: string;
  minor: string;
}

/**
 * The rules a recording's writers ran, from its header: kube-controller-manager's are the
 * server's minor, rs-reconcile's the rules it applies to that server.
 */
export interface RecordedRules {
  server: string | null;
  rsReconcile: string | null;
}

/** The rules a header names, or null when it names none (a recording of an older rs-reconcile). */
export function recordedRules(h: RecordingHeader): RecordedRules | null {
  const minor =
    h.serverVersion && /^\d+$/.test(h.serverVersion.minor) && /^\d+$/.test(h.serverVersion.major) ? `${h.serverVersion.major}.${h.serverVersion.minor}` : null;
  const rules = typeof h.rulesVersion === 'string' && /^1\.\d+$/.test(h.rulesVersion) ? h.rulesVersion : null;
  if (minor === null && rules === null) return null;
  return { server: minor ?? rules, rsReconcile: rules ?? minor };
}

export function headerLine(
  time: string,
  namespace: string | null,
  context: string,
  versions: { serverVersion: RecordedServerVersion | null; rulesVersion: string | null } = { serverVersion: null, rulesVersion: null },
): RecordingHeader {
  return { apiVersion: RECORDING_API_VERSION, kind: RECORDING_KIND, version: RECORDING_FORMAT_VERSION, time, namespace, context, ...versions };
}
