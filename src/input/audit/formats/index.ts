// The audit exports `history --audit-log` reads, in the order --help and messages list them.
// Adding one: its module under formats/ (an `AuditExport`: see format.ts) and one line here; its
// name is the contract's `coverage.format` too, so docs/history-format.md lists it (see
// docs/how-it-works.md, "Where to change what").

import { aksEventHub, aksLogAnalytics, aksStorage } from './aks.js';
import { eksCloudwatch, eksLogsInsights, eksS3Export } from './eks.js';
import type { AuditExport } from './format.js';
import { gkeBigquery, gkeCloudLogging } from './gke.js';
import { kubeApiserver } from './kube-apiserver.js';
import { openshiftMustGather, openshiftNodeLogs } from './openshift.js';

const BUILT_IN = [
  kubeApiserver,
  gkeCloudLogging,
  gkeBigquery,
  eksCloudwatch,
  eksS3Export,
  eksLogsInsights,
  aksStorage,
  aksEventHub,
  aksLogAnalytics,
  openshiftNodeLogs,
  openshiftMustGather,
] as const;

/** A format's name: the contract's CoverageFormat but 'events' and 'recording'. */
export type AuditFormat = (typeof BUILT_IN)[number]['name'];

/** Every export recognition, reading and coverage ask (a test adds a throw-away one). */
export const AUDIT_EXPORTS: AuditExport[] = [...BUILT_IN];

/** The names, for --audit-log-format's choices. */
export const AUDIT_FORMATS: readonly AuditFormat[] = BUILT_IN.map((x) => x.name);

/** The export of that name (undefined for none). */
export const exportOf = (name: string): AuditExport | undefined => AUDIT_EXPORTS.find((x) => x.name === name);

export function isAuditFormat(s: string): s is AuditFormat {
  return exportOf(s) !== undefined;
}

/** Whether the format logs one time an entry, so that when a write was received is not known. */
export const oneTimeAnEntry = (format: string): boolean => exportOf(format)?.oneTimeAnEntry === true;
