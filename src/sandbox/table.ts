// Server-side printing: meta.k8s.io/v1 Table, with the columns kube-apiserver's printers use.
import type { Column, Kind as ResourceDef } from './kinds/kind.js';
import { labelSelectorString } from './labels.js';
import { sinceAge, type Obj } from './util.js';

export const col = (name: string, type: string, description: string, priority = 0, format = ''): Column => ({ name, type, format, description, priority });
export const NAME = col(
  'Name',
  'string',
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  0,
  'name',
);
export const AGE = col(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
);

const none = (v: unknown): string => (v === undefined || v === null || v === '' ? '<none>' : String(v));

export function podRow(o: Obj, now: number): unknown[] {
  const spec = o.spec ?? {};
  const st = o.status ?? {};
  const total = (spec.containers ?? []).length;
  let ready = 0;
  let restarts = 0;
  let lastRestart = 0;
  let reason: string = st.reason || st.phase || '';
  const statuses = (st.containerStatuses ?? []) as Obj[];
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const c = statuses[i];
    restarts += c.restartCount ?? 0;
    const fin = c.lastState?.terminated?.finishedAt;
    if (fin) lastRestart = Math.max(lastRestart, Date.parse(fin));
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
    else if (c.state?.terminated) reason = c.state.terminated.signal ? `Signal:${c.state.terminated.signal}` : `ExitCode:${c.state.terminated.exitCode}`;
    else if (c.ready && c.state?.running) {
      hasRunning = true;
      ready++;
    }
  }
  if (reason === 'Completed' && hasRunning) reason = 'Running';
  if (o.metadata.deletionTimestamp) reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartText = lastRestart ? `${restarts} (${sinceAge(new Date(lastRestart).toISOString(), now)} ago)` : String(restarts);
  const gates = (spec.readinessGates ?? []) as Obj[];
  const gateText = gates.length
    ? `${gates.filter((g) => ((st.conditions ?? []) as Obj[]).some((c) => c.type === g.conditionType && c.status === 'True')).length}/${gates.length}`
    : '<none>';
  return [
    o.metadata.name,
    `${ready}/${total}`,
    reason,
    restartText,
    sinceAge(o.metadata.creationTimestamp, now),
    none(st.podIP),
    none(spec.nodeName),
    none(st.nominatedNodeName),
    gateText,
  ];
}

function containersAndImages(tmpl: Obj | undefined): [string, string] {
  const cs = (tmpl?.spec?.containers ?? []) as Obj[];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

export function replicaRow(o: Obj, now: number, rc: boolean): unknown[] {
  const [names, images] = containersAndImages(o.spec?.template);
  const sel = rc
    ? Object.entries((o.spec?.selector ?? {}) as Record<string, string>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`)
        .join(',')
    : labelSelectorString(o.spec?.selector);
  return [
    o.metadata.name,
    o.spec?.replicas ?? 0,
    o.status?.replicas ?? 0,
    o.status?.readyReplicas ?? 0,
    sinceAge(o.metadata.creationTimestamp, now),
    names,
    images,
    none(sel),
  ];
}

export function deploymentRow(o: Obj, now: number): unknown[] {
  const [names, images] = containersAndImages(o.spec?.template);
  const st = o.status ?? {};
  return [
    o.metadata.name,
    `${st.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
    st.updatedReplicas ?? 0,
    st.availableReplicas ?? 0,
    sinceAge(o.metadata.creationTimestamp, now),
    names,
    images,
    labelSelectorString(o.spec?.selector),
  ];
}

export const count = (m: unknown): number => (m && typeof m === 'object' ? Object.keys(m).length : 0);

export function nodeRow(o: Obj, now: number): unknown[] {
  const conds = (o.status?.conditions ?? []) as Obj[];
  const ready = conds.find((c) => c.type === 'Ready');
  let status = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown';
  if (o.spec?.unschedulable) status += ',SchedulingDisabled';
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  const addr = (t: string) => none(((o.status?.addresses ?? []) as Obj[]).find((a) => a.type === t)?.address);
  const info = o.status?.nodeInfo ?? {};
  return [
    o.metadata.name,
    status,
    roles.length ? roles.join(',') : '<none>',
    sinceAge(o.metadata.creationTimestamp, now),
    info.kubeletVersion ?? '',
    addr('InternalIP'),
    addr('ExternalIP'),
    none(info.osImage),
    none(info.kernelVersion),
    none(info.containerRuntimeVersion),
  ];
}

export function eventRow(o: Obj, now: number): unknown[] {
  const first = o.firstTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp;
  const last = o.series?.lastObservedTime ?? o.lastTimestamp ?? o.eventTime ?? first;
  let lastSeen = sinceAge(last, now);
  if (o.series) lastSeen = `${sinceAge(o.series.lastObservedTime, now)} (x${o.series.count} over ${sinceAge(o.eventTime, now)})`;
  else if ((o.count ?? 1) > 1) lastSeen = `${sinceAge(last, now)} (x${o.count} over ${sinceAge(first, now)})`;
  const inv = o.involvedObject ?? {};
  const source = o.source?.component ? (o.source.host ? `${o.source.component}, ${o.source.host}` : o.source.component) : (o.reportingComponent ?? '');
  return [
    lastSeen,
    o.type ?? '',
    o.reason ?? '',
    `${String(inv.kind ?? '').toLowerCase()}/${inv.name ?? ''}`,
    inv.fieldPath ?? '',
    source,
    String(o.message ?? '').trim(),
    sinceAge(first, now),
    o.count ?? 1,
    o.metadata.name,
  ];
}

/** The columns of kube-apiserver's printers (pkg/printers/internalversion AddHandlers), by resource. */
export const COLUMNS: Record<string, Column[]> = {
  pods: [
    NAME,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE,
    col('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    col(
      'Node',
      'string',
      'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.',
      1,
    ),
    col(
      'Nominated Node',
      'string',
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
      1,
    ),
    col('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
  ],
  replicasets: [
    NAME,
    col('Desired', 'integer', 'Replicas is the number of desired pods.'),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    AGE,
    col('Containers', 'string', 'Names of each container in the template.', 1),
    col('Images', 'string', 'Images referenced by each container in the template.', 1),
    col('Selector', 'string', 'Selector is a label query over pods that should match the replica count.', 1),
  ],
  nodes: [
    NAME,
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    AGE,
    col('Version', 'string', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
    col('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available.', 1),
    col('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    col('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    col('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  namespaces: [NAME, col('Status', 'string', 'The status of the namespace'), AGE],
  events: [
    col('Last Seen', 'string', 'The last time an event was observed.'),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    col('Object', 'string', 'The object that this event is about.'),
    col('Subobject', 'string', 'Subobject of the object that this event is about.', 1),
    col('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    col('Message', 'string', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'string', 'The first time an event was observed.', 1),
    col('Count', 'string', 'The number of times this event has occurred.', 1),
    col('Name', 'string', 'The name of this event.', 1, 'name'),
  ],
  leases: [NAME, col('Holder', 'string', 'The holder of the lease.'), AGE],
  deployments: [
    NAME,
    col('Ready', 'string', 'Number of the pod with ready state'),
    col('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    AGE,
    col('Containers', 'string', 'Names of each container in the template.', 1),
    col('Images', 'string', 'Images referenced by each container in the template.', 1),
    col(
      'Selector',
      'string',
      "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      1,
    ),
  ],
  configmaps: [
    NAME,
    col(
      'Data',
      'string',
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    AGE,
  ],
  secrets: [
    NAME,
    col(
      'Type',
      'string',
      'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
    ),
    col(
      'Data',
      'string',
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    AGE,
  ],
  serviceaccounts: [
    NAME,
    col(
      'Secrets',
      'string',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. More info: https://kubernetes.io/docs/concepts/configuration/secret',
    ),
    AGE,
  ],
};

/** One row of the kind's table convertor; a kind without one prints Name and Age. */
function tableRow(res: ResourceDef, o: Obj, now = Date.now()): unknown[] {
  return res.row ? res.row(o, now) : [o.metadata.name, sinceAge(o.metadata.creationTimestamp, now)];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

function rowObject(o: Obj, include: IncludeObject): Obj | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return o;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}

export function toTable(res: ResourceDef, items: Obj[], listMeta: Obj, include: IncludeObject): Obj {
  const now = Date.now();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: res.columns ?? [NAME, AGE],
    rows: items.map((o) => {
      const row: Obj = { cells: tableRow(res, o, now) };
      const obj = rowObject(o, include);
      if (obj) row.object = obj;
      return row;
    }),
  };
}

/** Whether the Accept header asks for a Table (kubectl get does). */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  const first = accept.split(',')[0];
  return /as=Table/.test(first) && /g=meta\.k8s\.io/.test(first);
}
