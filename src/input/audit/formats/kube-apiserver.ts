// kube-apiserver's own audit log: audit.k8s.io/v1 Events, one JSON object a line, as
// --audit-log-path writes them with --audit-log-format=json. The Event every other export is
// read back to, and the entries OpenShift's exports hold as they are.

import { EntryError, type EntryReader } from '../entry.js';
import { eventOutside, hasTruncatedMark, markTruncated, recoverCutEvent } from '../event.js';
import { isObj } from '../../../core/guards.js';
import { eventTimeOf } from '../keys.js';
import { auditExport, memberString, type EntryOps } from './format.js';

export const METADATA_BODIES = 'request and response bodies: the audit policy logged these writes at level Metadata (RequestResponse logs them)';

const readEvent: EntryReader = (text, ctx) => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new EntryError(`not a JSON audit event (${(err as Error).message.split('\n')[0]})`);
  }
  if (isObj(v) && v.annotations !== undefined && hasTruncatedMark(v)) {
    markTruncated(v);
    ctx.truncated = true;
  }
  return v as Record<string, any>;
};

/** An Event as kube-apiserver wrote it. */
export const EVENT_ENTRIES: EntryOps = {
  read: readEvent,
  recover: (text, ctx) => recoverCutEvent(text, ctx.fallbackUs),
  rawTime: (b, s, e) => eventTimeOf(b, s, e, false),
  outside: (b, s, e, f) => eventOutside(b, s, e, f),
};

export const kubeApiserver = auditExport({
  name: 'kube-apiserver',
  description: 'kube-apiserver audit log (JSON lines, --audit-log-format=json)',
  recognise: {
    precedence: 90,
    entry: (m) => memberString(m, 'kind') === 'Event' && (memberString(m, 'apiVersion') ?? '').startsWith('audit.k8s.io/'),
  },
  entries: EVENT_ENTRIES,
  serverOrder: true,
  bodiesMissing: METADATA_BODIES,
});
