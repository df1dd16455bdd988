#!/usr/bin/env node
// Realistic kube-apiserver audit logs of any size, for `history` at scale (issue 12):
//   node bench/gen-audit-log.mjs --out FILE [--bytes 1G] [--namespaces 50] [--rs 4] [--seed 7]
// and the same log as a managed cluster exports it (issue 19), for the reader's speed on documents:
//   node bench/gen-audit-log.mjs --from audit.jsonl --to gcloud|cloudwatch --out FILE [--bytes 1G]
// (gcloud: `gcloud logging read --format=json`, one pretty JSON array, newest first, keys sorted;
// cloudwatch: `aws logs filter-log-events --output json`, one pretty document, events grouped by
// stream. Events are taken from the start of the JSON lines until the document holds --bytes.)
// Lines have the shape of the real log in test/history/fixtures/demo-audit.jsonl (audit.k8s.io/v1,
// --audit-log-format=json, a policy that logs writes of pods and controllers at RequestResponse,
// Events at Metadata and no reads): users scale ReplicaSets up and down; the ReplicaSet controller
// creates pods (slow-start batches) and deletes the newest ones, and writes the status; the
// scheduler binds pods; kubelets patch their status to Running and ready, and remove deleted pods.
// Pod bodies carry managedFields as a real server returns them. Deterministic for one seed.
import { closeSync, createReadStream, createWriteStream, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
// the sandbox's deterministic PRNG and generateName alphabet (the bench runs on the build)
import { NAME_ALPHABET as ALPHABET, prng as rng } from '../dist/sandbox/util.js';

const args = process.argv.slice(2);
const arg = (name, def) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
const parseBytes = (s) => {
  const m = /^(\d+(?:\.\d+)?)([KMG]?)$/i.exec(s);
  if (!m) throw new Error(`--bytes: not a size: ${s}`);
  return Math.round(Number(m[1]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2].toUpperCase()]);
};

const RS_USER = 'system:serviceaccount:kube-system:replicaset-controller';
const KCM_AGENT = 'kube-controller-manager/v1.32.13 (linux/amd64) kubernetes/4cb5f07/system:serviceaccount:kube-system:replicaset-controller';

export async function generateAuditLog({ out, bytes = 1024 ** 3, namespaces = 50, rsPerNamespace = 4, seed = 7, onProgress } = {}) {
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const stream = createWriteStream(out);
  let written = 0;
  let lines = 0;
  let clock = Date.parse('2026-11-20T00:00:00Z') * 1000; // microseconds
  let rv = 1000;
  let ids = 0;
  const ts = (us) => new Date(Math.floor(us / 1000)).toISOString().replace(/\.(\d{3})Z$/, (_, ms) => `.${ms}${String(us % 1000).padStart(3, '0')}Z`);
  const sec = (us) => new Date(Math.floor(us / 1e6) * 1000).toISOString().replace('.000Z', 'Z');
  const uid = () => {
    const h = (++ids).toString(16).padStart(12, '0');
    return `${h.slice(0, 8)}-0000-4000-8000-${h.padStart(12, '0')}`;
  };
  // Pod uids fall as time goes on: among pods the ranking cannot tell apart by ready time (the
  // same log-scale bucket), upstream deletes the lower uid first, and that is then the newest pod,
  // the one this generator's controller deletes.
  let podIds = 0xffffffffffff;
  const podUid = () => `ffffffff-0000-4000-8000-${(podIds--).toString(16).padStart(12, '0')}`;

  async function emit(e) {
    const line = JSON.stringify(e) + '\n';
    written += Buffer.byteLength(line);
    lines++;
    if (!stream.write(line)) await new Promise((r) => stream.once('drain', r));
    if (onProgress && lines % 10000 === 0) onProgress(written, bytes);
  }

  function event({ verb, user, agent, resource, ns, name, sub, code = 200, req, resp, level = 'RequestResponse', uri }) {
    const received = (clock += 200 + Math.floor(random() * 3000));
    const done = received + 500 + Math.floor(random() * 4000);
    const group = resource === 'replicasets' ? 'apps' : undefined;
    const ref = {
      resource,
      namespace: ns,
      ...(name ? { name } : {}),
      ...(group ? { apiGroup: group } : {}),
      apiVersion: group ? 'v1' : 'v1',
      ...(sub ? { subresource: sub } : {}),
    };
    const e = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level,
      auditID: uid(),
      stage: 'ResponseComplete',
      requestURI: uri ?? `/${group ? `apis/${group}/v1` : 'api/v1'}/namespaces/${ns}/${resource}${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`,
      verb,
      user: {
        username: user,
        groups: user.startsWith('system:serviceaccount')
          ? ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']
          : ['system:masters', 'system:authenticated'],
      },
      sourceIPs: ['10.0.0.10'],
      userAgent: agent,
      objectRef: ref,
      responseStatus: { metadata: {}, code },
      ...(level === 'RequestResponse' && req ? { requestObject: req } : {}),
      ...(level === 'RequestResponse' && resp ? { responseObject: resp } : {}),
      requestReceivedTimestamp: ts(received),
      stageTimestamp: ts(done),
      annotations: {
        'authorization.k8s.io/decision': 'allow',
        'authorization.k8s.io/reason': user.startsWith('system:serviceaccount')
          ? 'RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller"'
          : '',
      },
    };
    return emit(e);
  }

  const template = (app) => ({
    metadata: { creationTimestamp: null, labels: { app, 'pod-template-hash': 'abc123' } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.10',
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  });

  // The cluster as the generator drives it.
  const all = [];
  for (let n = 0; n < namespaces; n++) {
    for (let r = 0; r < rsPerNamespace; r++) {
      const app = `app-${r}`;
      all.push({ ns: `team-${n}`, name: `${app}-7d4f8b9c6`, app, uid: uid(), replicas: 0, generation: 1, pods: [], status: { replicas: 0 } });
    }
  }
  const rsObject = (rs) => ({
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    metadata: {
      name: rs.name,
      namespace: rs.ns,
      uid: rs.uid,
      resourceVersion: String(++rv),
      generation: rs.generation,
      creationTimestamp: '2026-11-19T00:00:00Z',
      labels: { app: rs.app },
    },
    spec: { replicas: rs.replicas, selector: { matchLabels: { app: rs.app, 'pod-template-hash': 'abc123' } }, template: template(rs.app) },
    status: { ...rs.status },
  });
  const podObject = (rs, p) => {
    const t = template(rs.app);
    return {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name: p.name,
        generateName: `${rs.name}-`,
        namespace: rs.ns,
        uid: p.uid,
        resourceVersion: String(++rv),
        creationTimestamp: p.created,
        ...(p.deleting ? { deletionTimestamp: p.deleting, deletionGracePeriodSeconds: 30 } : {}),
        labels: t.metadata.labels,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.name, uid: rs.uid, controller: true, blockOwnerDeletion: true }],
        managedFields: [
          {
            manager: 'kube-controller-manager',
            operation: 'Update',
            apiVersion: 'v1',
            time: p.created,
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:metadata': {
                'f:generateName': {},
                'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
                'f:ownerReferences': { '.': {}, [`k:{"uid":"${rs.uid}"}`]: {} },
              },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"app"}': {
                    '.': {},
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:resources': { '.': {}, 'f:requests': { '.': {}, 'f:cpu': {}, 'f:memory': {} } },
                    'f:terminationMessagePath': {},
                    'f:terminationMessagePolicy': {},
                  },
                },
                'f:dnsPolicy': {},
                'f:enableServiceLinks': {},
                'f:restartPolicy': {},
                'f:schedulerName': {},
                'f:securityContext': {},
                'f:terminationGracePeriodSeconds': {},
              },
            },
          },
          ...(p.running
            ? [
                {
                  manager: 'kubelet',
                  operation: 'Update',
                  apiVersion: 'v1',
                  time: p.started,
                  fieldsType: 'FieldsV1',
                  fieldsV1: {
                    'f:status': {
                      'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} } },
                      'f:containerStatuses': {},
                      'f:hostIP': {},
                      'f:phase': {},
                      'f:podIP': {},
                      'f:startTime': {},
                    },
                  },
                  subresource: 'status',
                },
              ]
            : []),
        ],
      },
      spec: {
        ...t.spec,
        ...(p.node ? { nodeName: p.node } : {}),
        serviceAccountName: 'default',
        serviceAccount: 'default',
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: 0,
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      },
      status: p.running
        ? {
            phase: 'Running',
            conditions: [
              { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: p.started },
              { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: p.created },
            ],
            hostIP: '10.0.1.7',
            podIP: '10.244.1.9',
            startTime: p.started,
            containerStatuses: [
              {
                name: 'app',
                state: { running: { startedAt: p.started } },
                lastState: {},
                ready: true,
                restartCount: 0,
                image: 'registry.k8s.io/pause:3.10',
                imageID: 'registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a',
                containerID: 'containerd://4f0d',
                started: true,
              },
            ],
            qosClass: 'Burstable',
          }
        : { phase: 'Pending', qosClass: 'Burstable' },
    };
  };

  const ADMIN_AGENT = 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07';
  for (const rs of all)
    await event({
      verb: 'create',
      user: 'admin',
      agent: ADMIN_AGENT,
      resource: 'replicasets',
      ns: rs.ns,
      name: rs.name,
      code: 201,
      req: rsObject(rs),
      resp: rsObject(rs),
    });

  // What the controller counts is the pods of the sync's start (upstream computes the status from
  // the pods it listed before creating or deleting): `counted` is that list.
  const statusWrite = (rs, counted = rs.pods.filter((p) => !p.deleting)) => {
    const active = counted;
    rs.status = {
      replicas: active.length,
      fullyLabeledReplicas: active.length,
      readyReplicas: active.filter((p) => p.running).length,
      availableReplicas: active.filter((p) => p.running).length,
      observedGeneration: rs.generation,
    };
    const o = rsObject(rs);
    return event({ verb: 'update', user: RS_USER, agent: KCM_AGENT, resource: 'replicasets', ns: rs.ns, name: rs.name, sub: 'status', req: o, resp: o });
  };

  while (written < bytes) {
    const rs = pick(all);
    const to = Math.floor(random() * 12);
    if (to === rs.replicas) continue;
    // a user scales
    const scale = {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: rs.name, namespace: rs.ns, uid: rs.uid, resourceVersion: String(++rv) },
      spec: { replicas: to },
      status: { replicas: rs.status.replicas, selector: `app=${rs.app},pod-template-hash=abc123` },
    };
    await event({
      verb: 'patch',
      user: 'admin',
      agent: ADMIN_AGENT,
      resource: 'replicasets',
      ns: rs.ns,
      name: rs.name,
      sub: 'scale',
      req: { spec: { replicas: to } },
      resp: scale,
      uri: `/apis/apps/v1/namespaces/${rs.ns}/replicasets/${rs.name}/scale?fieldManager=kubectl-scale`,
    });
    rs.replicas = to;
    rs.generation++;
    const active = rs.pods.filter((p) => !p.deleting);
    if (to > active.length) {
      // the controller creates (slow-start batches), records Events at Metadata, writes the status
      for (let i = active.length; i < to; i++) {
        clock += 1_100_000; // a second apart: the ranking tells them apart by age
        const suffix = Array.from({ length: 5 }, () => pick([...ALPHABET])).join('');
        const p = { name: `${rs.name}-${suffix}`, uid: podUid(), created: sec(clock), node: null, running: false, deleting: null, started: null };
        rs.pods.push(p);
        const body = podObject(rs, p);
        await event({
          verb: 'create',
          user: RS_USER,
          agent: KCM_AGENT,
          resource: 'pods',
          ns: rs.ns,
          code: 201,
          req: { ...body, metadata: { ...body.metadata, name: undefined, uid: undefined, resourceVersion: undefined, managedFields: undefined } },
          resp: body,
        });
        await event({
          verb: 'create',
          user: RS_USER,
          agent: KCM_AGENT,
          resource: 'events',
          ns: rs.ns,
          name: `${rs.name}.${uid().slice(-16)}`,
          code: 201,
          level: 'Metadata',
        });
      }
      await statusWrite(rs, active);
      // the scheduler binds, the kubelets start them
      for (const p of rs.pods.filter((x) => !x.node && !x.deleting)) {
        p.node = `node-${Math.floor(random() * 20)}`;
        await event({
          verb: 'create',
          user: 'system:kube-scheduler',
          agent: 'kube-scheduler/v1.32.13',
          resource: 'pods',
          ns: rs.ns,
          name: p.name,
          sub: 'binding',
          code: 201,
          req: { kind: 'Binding', apiVersion: 'v1', metadata: { name: p.name, namespace: rs.ns, uid: p.uid }, target: { kind: 'Node', name: p.node } },
          resp: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
        });
      }
      for (const p of rs.pods.filter((x) => !x.running && !x.deleting)) {
        clock += 1_100_000;
        p.running = true;
        p.started = sec(clock);
        const body = podObject(rs, p);
        await event({
          verb: 'patch',
          user: `system:node:${p.node}`,
          agent: 'kubelet/v1.32.13 (linux/amd64) kubernetes/4cb5f07',
          resource: 'pods',
          ns: rs.ns,
          name: p.name,
          sub: 'status',
          req: { status: body.status },
          resp: body,
        });
      }
      await statusWrite(rs);
    } else {
      // the controller deletes the newest pods first (all running and ready: shorter ready time goes first)
      const victims = active.slice(to).reverse();
      for (const p of victims) {
        p.deleting = sec(clock);
        const body = podObject(rs, p);
        await event({
          verb: 'delete',
          user: RS_USER,
          agent: KCM_AGENT,
          resource: 'pods',
          ns: rs.ns,
          name: p.name,
          req: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: p.uid } },
          resp: body,
        });
        await event({
          verb: 'create',
          user: RS_USER,
          agent: KCM_AGENT,
          resource: 'events',
          ns: rs.ns,
          name: `${rs.name}.${uid().slice(-16)}`,
          code: 201,
          level: 'Metadata',
        });
      }
      await statusWrite(rs, active);
      // the kubelets remove them after their grace period
      for (const p of victims) {
        const body = { ...podObject(rs, p) };
        body.metadata.deletionGracePeriodSeconds = 0;
        await event({
          verb: 'delete',
          user: `system:node:${p.node}`,
          agent: 'kubelet/v1.32.13 (linux/amd64) kubernetes/4cb5f07',
          resource: 'pods',
          ns: rs.ns,
          name: p.name,
          req: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: p.uid } },
          resp: body,
        });
      }
      rs.pods = rs.pods.filter((p) => !p.deleting);
      await statusWrite(rs);
    }
  }
  await new Promise((r) => stream.end(r));
  return { bytes: written, lines };
}

// ---- the same log as managed clusters export it -------------------------------------------------

const GRPC_OF_HTTP = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 10, 422: 3, 429: 8, 500: 13, 503: 14, 504: 4 };

const sortKeys = (o) =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/** An audit.k8s.io/v1 Event as GKE's Cloud Logging LogEntry (reference/cloud-audit-formats.md §1.2). */
export function logEntryOfEvent(e) {
  const ref = e.objectRef ?? {};
  const group = ref.apiGroup || 'core';
  const name = ref.name ?? e.responseObject?.metadata?.name;
  const method = `io.k8s.${group}.${ref.apiVersion ?? 'v1'}.${ref.resource}${ref.subresource ? `.${ref.subresource}` : ''}.${e.verb}`;
  const resourceName = `${group}/${ref.apiVersion ?? 'v1'}/${ref.namespace !== undefined ? `namespaces/${ref.namespace}/` : ''}${ref.resource}${name ? `/${name}` : ''}${ref.subresource ? `/${ref.subresource}` : ''}`;
  const code = e.responseStatus?.code ?? 200;
  const type = (o) => (o?.kind ? `${group}.k8s.io/${ref.apiVersion ?? 'v1'}.${o.kind}` : undefined);
  const payload = {
    '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
    authenticationInfo: { principalEmail: e.user?.username },
    authorizationInfo: [{ granted: true, permission: method, resource: resourceName }],
    methodName: method,
    requestMetadata: { callerIp: e.sourceIPs?.[0], callerSuppliedUserAgent: e.userAgent },
    resourceName,
    serviceName: 'k8s.io',
    status: code < 300 ? {} : { code: GRPC_OF_HTTP[code] ?? 2, message: e.responseStatus?.message ?? '' },
    ...(e.requestObject ? { request: { ...e.requestObject, '@type': type(e.requestObject) } } : {}),
    ...(e.responseObject ? { response: { ...e.responseObject, '@type': type(e.responseObject) } } : {}),
  };
  const dataAccess = ref.subresource === 'status';
  return sortKeys({
    insertId: e.auditID,
    labels: e.annotations,
    logName: `projects/acme-prod/logs/cloudaudit.googleapis.com%2F${dataAccess ? 'data_access' : 'activity'}`,
    operation: { first: true, id: e.auditID, last: true, producer: 'k8s.io' },
    protoPayload: sortKeys(payload),
    receiveTimestamp: e.stageTimestamp,
    resource: { labels: { cluster_name: 'prod-1', location: 'europe-west1', project_id: 'acme-prod' }, type: 'k8s_cluster' },
    severity: code < 300 ? 'NOTICE' : 'ERROR',
    timestamp: e.stageTimestamp,
  });
}

const STREAMS = ['kube-apiserver-audit-0c5e1d8f2a9b4e6f8a1d3c5b7e9f0a2c', 'kube-apiserver-audit-71976ca11bea5d3083393f7d32dab75b'];

/** An Event as one CloudWatch event of `aws logs filter-log-events` (its stream: one of two API servers). */
export function cloudWatchEventOf(e, line) {
  const ms = Date.parse(e.stageTimestamp);
  return {
    logStreamName: STREAMS[line % 2],
    timestamp: ms,
    message: JSON.stringify(e),
    ingestionTime: ms + 1500,
    eventId: String(38471234567890n + BigInt(line)).padStart(56, '3'),
  };
}

/** `JSON.stringify(v, null, indent)`, every line moved right by `by` spaces. */
const pretty = (v, indent, by) => JSON.stringify(v, null, indent).replace(/\n/g, `\n${' '.repeat(by)}`);

/**
 * The JSON lines of `from` as a gcloud array or a CloudWatch document of about `bytes` (events
 * from the start of the log until it holds that much). Memory: one line; the parts are spooled.
 */
export async function convertAuditLog({ from, out, to, bytes = 1024 ** 3 }) {
  if (to !== 'gcloud' && to !== 'cloudwatch') throw new Error(`--to: gcloud or cloudwatch, not ${to}`);
  const tmp = mkdtempSync(join(tmpdir(), 'gen-audit-'));
  // gcloud: elements in log order into one spool, written out backwards; cloudwatch: one spool a stream
  const spools = (to === 'gcloud' ? ['all'] : STREAMS).map((_, i) => ({ path: join(tmp, `part-${i}`), fd: 0, size: 0, offs: [], lens: [] }));
  for (const sp of spools) sp.fd = openSync(sp.path, 'w+');
  let written = 0;
  let events = 0;
  const rl = createInterface({ input: createReadStream(from), crlfDelay: Infinity });
  for await (const l of rl) {
    if (l === '') continue;
    const e = JSON.parse(l);
    const text = to === 'gcloud' ? `  ${pretty(logEntryOfEvent(e), 2, 2)}` : `        ${pretty(cloudWatchEventOf(e, events), 4, 8)}`;
    const b = Buffer.from(text);
    const sp = spools[to === 'gcloud' ? 0 : events % 2];
    writeSync(sp.fd, b, 0, b.length, sp.size);
    sp.offs.push(sp.size);
    sp.lens.push(b.length);
    sp.size += b.length;
    written += b.length + 2;
    events++;
    if (written >= bytes) break;
  }
  rl.close();
  const fd = openSync(out, 'w');
  const put = (s) => writeSync(fd, typeof s === 'string' ? Buffer.from(s) : s);
  put(to === 'gcloud' ? '[\n' : '{\n    "events": [\n');
  let first = true;
  for (const sp of spools) {
    const n = sp.offs.length;
    for (let k = 0; k < n; k++) {
      const i = to === 'gcloud' ? n - 1 - k : k;
      const b = Buffer.allocUnsafe(sp.lens[i]);
      readSync(sp.fd, b, 0, b.length, sp.offs[i]);
      if (!first) put(',\n');
      first = false;
      put(b);
    }
    closeSync(sp.fd);
  }
  put(to === 'gcloud' ? '\n]\n' : '\n    ],\n    "searchedLogStreams": []\n}\n');
  closeSync(fd);
  rmSync(tmp, { recursive: true, force: true });
  return { events, bytes: written };
}

if (import.meta.url === `file://${process.argv[1]}` && args.includes('--to')) {
  const out = arg('--out');
  const from = arg('--from');
  if (!out || !from) {
    console.error('usage: node bench/gen-audit-log.mjs --from audit.jsonl --to gcloud|cloudwatch --out FILE [--bytes 1G]');
    process.exit(2);
  }
  const r = await convertAuditLog({ from, out, to: arg('--to'), bytes: parseBytes(arg('--bytes', '1G')) });
  console.error(`wrote ${out}: ${r.events} events, ${(r.bytes / 1024 ** 2).toFixed(0)} MiB`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const out = arg('--out');
  if (!out) {
    console.error('usage: node bench/gen-audit-log.mjs --out FILE [--bytes 1G] [--namespaces 50] [--rs 4] [--seed 7]');
    process.exit(2);
  }
  const r = await generateAuditLog({
    out,
    bytes: parseBytes(arg('--bytes', '1G')),
    namespaces: Number(arg('--namespaces', '50')),
    rsPerNamespace: Number(arg('--rs', '4')),
    seed: Number(arg('--seed', '7')),
  });
  console.error(`wrote ${out}: ${r.lines} lines, ${(r.bytes / 1024 ** 2).toFixed(0)} MiB`);
}
