// OpenShift: the kube-apiserver's Events as they are, behind a node name (`oc adm node-logs
// --role=master --path=kube-apiserver/audit.log`: "<node> <event>" lines) or in a must-gather's
// audit_logs/ tree (plain JSON lines, told by where they are found, not by their content).
// OpenShift's Default audit profile logs writes at level Metadata.

import { auditExport } from './format.js';
import { EVENT_ENTRIES } from './kube-apiserver.js';

const NO_BODIES = "request and response bodies (OpenShift's Default audit profile; WriteRequestBodies logs them)";

export const openshiftNodeLogs = auditExport({
  name: 'openshift-node-logs',
  description: 'OpenShift oc adm node-logs output ("<node> <event>" lines)',
  recognise: {
    precedence: 38,
    firstLine: (line) => /^[A-Za-z0-9][-A-Za-z0-9._]* +\{/.test(line) && /"kind"\s*:\s*"Event"/.test(line.slice(0, 400)),
  },
  entries: EVENT_ENTRIES,
  prefix: 'node',
  bodiesMissing: NO_BODIES,
});

export const openshiftMustGather = auditExport({
  name: 'openshift-must-gather',
  description: 'OpenShift must-gather audit logs (audit_logs/**/<node>-audit.log.gz)',
  recognise: { precedence: 80, inMustGather: 'kube-apiserver' },
  entries: EVENT_ENTRIES,
  serverOrder: true,
  bodiesMissing: NO_BODIES,
});
