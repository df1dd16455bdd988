// Protobuf request bodies decoded into the JSON objects the JSON path takes: bodies captured from
// the real kubectl v1.32 (checked against kubectl's own JSON for the same objects), bodies encoded
// here from the schema for every kind the sandbox decodes, and what malformed bodies get.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/sandbox/errors.js';
import { decodeOtherBody, decodeProtobufBody, MAX_VALUES, PROTOBUF } from '../../src/sandbox/protobuf/decode.js';
import { jsonFields, messageFields, messageNames, openApiName, protobufType, ROOT_KINDS, typeForKind } from '../../src/sandbox/protobuf/schema.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const PREFIX = Buffer.from('k8s\0', 'latin1');

/** A body as client-go's protobuf serializer writes it: k8s\0, then runtime.Unknown around the object. */
function body(apiVersion: string, kind: string, type: string, obj: Record<string, unknown>): Buffer {
  const T = protobufType(type);
  const raw = T.encode(T.fromObject(obj)).finish();
  const U = protobufType('runtime.Unknown');
  return Buffer.concat([PREFIX, U.encode(U.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish()]);
}

function decodeError(f: () => unknown): { code: number; reason?: string; message?: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, reason: e.status.reason, message: e.status.message };
    throw e;
  }
  throw new Error('expected a decode error');
}

const POD: [string, string] = ['v1', 'Pod'];
const asPod = { apiVersion: 'v1', kind: 'Pod' };

describe('bodies captured from kubectl v1.32 (create namespace, configmap, secret, deployment, serviceaccount)', () => {
  // each .pb is the body kubectl sent; each .json is `kubectl create … --dry-run=client -o json`
  // for the same command: the JSON encoding of the very object kubectl encoded in protobuf
  for (const [name, expected] of [
    ['namespace', { apiVersion: 'v1', kind: 'Namespace' }],
    ['configmap', { apiVersion: 'v1', kind: 'ConfigMap' }],
    ['secret', { apiVersion: 'v1', kind: 'Secret' }],
    ['deployment', { apiVersion: 'apps/v1', kind: 'Deployment' }],
    ['serviceaccount', { apiVersion: 'v1', kind: 'ServiceAccount' }],
  ] as const) {
    it(`create ${name}`, () => {
      const bytes = readFileSync(join(FIXTURES, `kubectl-create-${name}.pb`));
      const json = JSON.parse(readFileSync(join(FIXTURES, `kubectl-create-${name}.json`), 'utf8'));
      const decoded = decodeProtobufBody(bytes, expected);
      expect(decoded).toEqual(json);
      // same key order as encoding/json (kind and apiVersion first, then struct order)
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(json));
    });
  }

  it('the namespace body is exactly what kubectl create ns team means', () => {
    expect(decodeProtobufBody(readFileSync(join(FIXTURES, 'kubectl-create-namespace.pb')), { apiVersion: 'v1', kind: 'Namespace' })).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'team', creationTimestamp: null },
      spec: {},
      status: {},
    });
  });
});

describe('every kind the sandbox serves, encoded from the schema', () => {
  it('a Pod: inline volume sources and probe handlers, IntOrString, Quantity, Time, int64, FieldsV1, nulls for absent slices', () => {
    const bytes = body('v1', 'Pod', 'core.v1.Pod', {
      metadata: {
        name: 'p1',
        namespace: 'shop',
        uid: 'u-1',
        generation: 3,
        creationTimestamp: { seconds: 1767225600 },
        deletionTimestamp: { seconds: 1767225660, nanos: 999 },
        deletionGracePeriodSeconds: 30,
        labels: { b: '2', a: '1' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true, blockOwnerDeletion: true }],
        finalizers: ['x/y'],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: { seconds: 1767225600 },
            fieldsType: 'FieldsV1',
            fieldsV1: { Raw: Buffer.from('{"f:metadata":{"f:labels":{}}}') },
          },
        ],
      },
      spec: {
        volumes: [
          { name: 'cache', volumeSource: { emptyDir: { medium: 'Memory', sizeLimit: { string: '1Gi' } } } },
          {
            name: 'cfg',
            volumeSource: { configMap: { localObjectReference: { name: 'app-config' }, items: [{ key: 'a', path: 'a.txt', mode: 420 }], defaultMode: 420 } },
          },
        ],
        containers: [
          {
            name: 'c',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'K', valueFrom: { secretKeyRef: { localObjectReference: { name: 's' }, key: 'k' } } }],
            resources: { limits: { cpu: { string: '500m' }, memory: { string: '128Mi' } }, requests: { cpu: { string: '250m' } } },
            readinessProbe: { handler: { httpGet: { path: '/healthz', port: { type: 1, strVal: 'http' } } }, initialDelaySeconds: 5 },
            livenessProbe: { handler: { tcpSocket: { port: { type: 0, intVal: 8080 } } }, periodSeconds: 10 },
            terminationMessagePath: '/dev/termination-log',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        nodeName: 'node-1',
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
            },
          },
        },
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 60 }],
      },
      status: {
        phase: 'Running',
        startTime: { seconds: 1767225601 },
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: {}, lastTransitionTime: { seconds: 1767225602 } }],
      },
    });
    expect(decodeProtobufBody(bytes, asPod)).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name: 'p1',
        namespace: 'shop',
        uid: 'u-1',
        generation: 3,
        creationTimestamp: '2026-01-01T00:00:00Z',
        // metav1.Time keeps seconds only
        deletionTimestamp: '2026-01-01T00:01:00Z',
        deletionGracePeriodSeconds: 30,
        labels: { a: '1', b: '2' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true, blockOwnerDeletion: true }],
        finalizers: ['x/y'],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2026-01-01T00:00:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': {} } },
          },
        ],
      },
      spec: {
        volumes: [
          { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
          { name: 'cfg', configMap: { name: 'app-config', items: [{ key: 'a', path: 'a.txt', mode: 420 }], defaultMode: 420 } },
        ],
        containers: [
          {
            name: 'c',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
            livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 10 },
            readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5 },
            terminationMessagePath: '/dev/termination-log',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        nodeName: 'node-1',
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
            },
          },
        },
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 60 }],
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:02Z' }],
        startTime: '2026-01-01T00:00:01Z',
      },
    });
  });

  it('a pod spec with no containers says containers: null, as encoding/json does for a nil slice without omitempty', () => {
    const obj = decodeProtobufBody(body('v1', 'Pod', 'core.v1.Pod', { metadata: { name: 'p' }, spec: {} }), asPod);
    expect(obj.spec).toEqual({ containers: null });
    expect(obj.status).toEqual({});
  });

  it('a Secret: bytes as base64, stringData, immutable', () => {
    const obj = decodeProtobufBody(
      body('v1', 'Secret', 'core.v1.Secret', {
        metadata: { name: 's' },
        immutable: true,
        data: { k: Buffer.from('v'), bin: Buffer.from([0, 255, 1]) },
        stringData: { x: 'y' },
        type: 'Opaque',
      }),
      { apiVersion: 'v1', kind: 'Secret' },
    );
    expect(obj).toEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 's', creationTimestamp: null },
      immutable: true,
      data: { bin: 'AP8B', k: 'dg==' },
      stringData: { x: 'y' },
      type: 'Opaque',
    });
  });

  it('a ConfigMap with binaryData', () => {
    const obj = decodeProtobufBody(
      body('v1', 'ConfigMap', 'core.v1.ConfigMap', { metadata: { name: 'c' }, data: { a: 'b' }, binaryData: { z: Buffer.from('hi') } }),
      { apiVersion: 'v1', kind: 'ConfigMap' },
    );
    expect(obj).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', creationTimestamp: null }, data: { a: 'b' }, binaryData: { z: 'aGk=' } });
  });

  it('an Event: MicroTime with 6 fractional digits, counts, series', () => {
    const obj = decodeProtobufBody(
      body('v1', 'Event', 'core.v1.Event', {
        metadata: { name: 'e1', namespace: 'default' },
        involvedObject: { kind: 'ReplicaSet', namespace: 'default', name: 'web', uid: 'u', apiVersion: 'apps/v1', resourceVersion: '7' },
        reason: 'SuccessfulCreate',
        message: 'Created pod: web-abcde',
        source: { component: 'replicaset-controller' },
        firstTimestamp: { seconds: 1767225600 },
        lastTimestamp: { seconds: 1767225610 },
        count: 2,
        type: 'Normal',
        eventTime: { seconds: 1767225600, nanos: 123456789 },
        series: { count: 2, lastObservedTime: { seconds: 1767225610, nanos: 5000 } },
        reportingComponent: 'replicaset-controller',
        reportingInstance: 'kcm-1',
      }),
      { apiVersion: 'v1', kind: 'Event' },
    );
    expect(obj).toEqual({
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'e1', namespace: 'default', creationTimestamp: null },
      involvedObject: { kind: 'ReplicaSet', namespace: 'default', name: 'web', uid: 'u', apiVersion: 'apps/v1', resourceVersion: '7' },
      reason: 'SuccessfulCreate',
      message: 'Created pod: web-abcde',
      source: { component: 'replicaset-controller' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:10Z',
      count: 2,
      type: 'Normal',
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2026-01-01T00:00:10.000005Z' },
      reportingComponent: 'replicaset-controller',
      reportingInstance: 'kcm-1',
    });
  });

  it('an Event without eventTime says eventTime: null (a zero MicroTime); reportingComponent has no omitempty', () => {
    const obj = decodeProtobufBody(body('v1', 'Event', 'core.v1.Event', { metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' } }), {
      apiVersion: 'v1',
      kind: 'Event',
    });
    expect(obj).toMatchObject({ firstTimestamp: null, lastTimestamp: null, eventTime: null, source: {}, involvedObject: { kind: 'Pod', name: 'p' } });
    expect(obj.reportingComponent).toBe('');
    expect(obj).not.toHaveProperty('action');
  });

  it('a Lease (MicroTime renewTime, int32 pointers)', () => {
    const obj = decodeProtobufBody(
      body('coordination.k8s.io/v1', 'Lease', 'coordination.v1.Lease', {
        metadata: { name: 'rs-reconcile', namespace: 'kube-system' },
        spec: {
          holderIdentity: 'me_1',
          leaseDurationSeconds: 15,
          acquireTime: { seconds: 1767225600, nanos: 1000 },
          renewTime: { seconds: 1767225605 },
          leaseTransitions: 0,
        },
      }),
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
    );
    expect(obj).toEqual({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'rs-reconcile', namespace: 'kube-system', creationTimestamp: null },
      spec: {
        holderIdentity: 'me_1',
        leaseDurationSeconds: 15,
        acquireTime: '2026-01-01T00:00:00.000001Z',
        renewTime: '2026-01-01T00:00:05.000000Z',
        leaseTransitions: 0,
      },
    });
  });

  it('a ReplicaSet, a ReplicationController and a Deployment (strategy with IntOrString percentages)', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const tjson = { metadata: { labels: { app: 'web' }, creationTimestamp: null }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] } };
    expect(
      decodeProtobufBody(
        body('apps/v1', 'ReplicaSet', 'apps.v1.ReplicaSet', {
          metadata: { name: 'web' },
          spec: { replicas: 0, minReadySeconds: 0, selector: { matchLabels: { app: 'web' } }, template },
        }),
        { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
      ),
    ).toEqual({
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', creationTimestamp: null },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: tjson },
      status: { replicas: 0 },
    });
    expect(
      decodeProtobufBody(
        body('v1', 'ReplicationController', 'core.v1.ReplicationController', {
          metadata: { name: 'rc' },
          spec: { replicas: 2, selector: { app: 'web' }, template },
        }),
        { apiVersion: 'v1', kind: 'ReplicationController' },
      ),
    ).toEqual({
      kind: 'ReplicationController',
      apiVersion: 'v1',
      metadata: { name: 'rc', creationTimestamp: null },
      spec: { replicas: 2, selector: { app: 'web' }, template: tjson },
      status: { replicas: 0 },
    });
    const dep = decodeProtobufBody(
      body('apps/v1', 'Deployment', 'apps.v1.Deployment', {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: { type: 1, strVal: '25%' }, maxSurge: { type: 0, intVal: 1 } } },
          revisionHistoryLimit: 10,
        },
      }),
      { apiVersion: 'apps/v1', kind: 'Deployment' },
    );
    expect(dep.spec).toEqual({
      selector: { matchLabels: { app: 'web' } },
      template: tjson,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      revisionHistoryLimit: 10,
    });
  });

  it('a Node (capacity quantities, taints with a Time), a Binding, a Scale, a ServiceAccount, DeleteOptions', () => {
    const node = decodeProtobufBody(
      body('v1', 'Node', 'core.v1.Node', {
        metadata: { name: 'n1' },
        spec: { podCIDR: '10.0.0.0/24', taints: [{ key: 'k', effect: 'NoExecute', timeAdded: { seconds: 1767225600 } }], unschedulable: true },
        status: {
          capacity: { pods: { string: '110' } },
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: { seconds: 1767225600 } }],
          nodeInfo: { kubeletVersion: 'v1.32.13' },
        },
      }),
      { apiVersion: 'v1', kind: 'Node' },
    );
    expect(node.spec).toEqual({ podCIDR: '10.0.0.0/24', unschedulable: true, taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }] });
    expect((node.status as Record<string, unknown>).capacity).toEqual({ pods: '110' });
    expect((node.status as Record<string, unknown>).conditions).toEqual([
      { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: null },
    ]);
    expect((node.status as Record<string, any>).nodeInfo).toMatchObject({ kubeletVersion: 'v1.32.13', machineID: '', kernelVersion: '' });

    expect(
      decodeProtobufBody(body('v1', 'Binding', 'core.v1.Binding', { metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } }), {
        apiVersion: 'v1',
        kind: 'Binding',
      }),
    ).toEqual({
      kind: 'Binding',
      apiVersion: 'v1',
      metadata: { name: 'p1', creationTimestamp: null },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(
      decodeProtobufBody(body('autoscaling/v1', 'Scale', 'autoscaling.v1.Scale', { metadata: { name: 'web', resourceVersion: '5' }, spec: { replicas: 3 } }), {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
      }),
    ).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', resourceVersion: '5', creationTimestamp: null },
      spec: { replicas: 3 },
      status: { replicas: 0 },
    });
    expect(
      decodeProtobufBody(
        body('v1', 'ServiceAccount', 'core.v1.ServiceAccount', {
          metadata: { name: 'sa' },
          automountServiceAccountToken: false,
          imagePullSecrets: [{ name: 'reg' }],
        }),
        { apiVersion: 'v1', kind: 'ServiceAccount' },
      ),
    ).toEqual({
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      metadata: { name: 'sa', creationTimestamp: null },
      imagePullSecrets: [{ name: 'reg' }],
      automountServiceAccountToken: false,
    });
    expect(
      decodeProtobufBody(
        body('meta.k8s.io/v1', 'DeleteOptions', 'meta.v1.DeleteOptions', {
          gracePeriodSeconds: 0,
          propagationPolicy: 'Foreground',
          preconditions: { uid: 'u' },
        }),
        { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' },
      ),
    ).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u' },
      propagationPolicy: 'Foreground',
    });
  });

  it('a body whose typeMeta is empty takes the endpoint’s kind and version (copyKindDefaults)', () => {
    const T = protobufType('autoscaling.v1.Scale');
    const U = protobufType('runtime.Unknown');
    const bytes = Buffer.concat([PREFIX, U.encode({ raw: T.encode(T.fromObject({ spec: { replicas: 2 } })).finish() }).finish()]);
    expect(decodeProtobufBody(bytes, { apiVersion: 'autoscaling/v1', kind: 'Scale' })).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
    });
  });
});

describe('what the server answers for other bodies', () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace' };

  it('415 for a media type the server does not decode, listing the ones it does', () => {
    for (const ct of ['text/plain', 'application/x-yaml', 'application/cbor']) {
      expect(decodeError(() => decodeOtherBody(Buffer.from('{}'), ct, ns))).toEqual({
        code: 415,
        reason: 'UnsupportedMediaType',
        message:
          'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      });
    }
  });

  it('415 without protobuf in the list for a kind the schema does not have (as for a custom resource)', () => {
    expect(decodeError(() => decodeOtherBody(Buffer.from('k8s\0'), PROTOBUF, { apiVersion: 'batch/v1', kind: 'Job' })).message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    );
  });

  it('JSON, YAML and no Content-Type are left to the JSON path', () => {
    for (const ct of ['', 'application/json', 'application/yaml']) expect(decodeOtherBody(Buffer.from('{}'), ct, ns)).toBeUndefined();
  });

  it('400 with the serializer’s words for a body that is not protobuf, empty, or only the prefix', () => {
    expect(decodeError(() => decodeProtobufBody(Buffer.from('{"kind":"Namespace"}'), ns))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message:
        'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace"})',
    });
    expect(decodeError(() => decodeProtobufBody(Buffer.alloc(0), ns)).message).toBe(
      'the object provided is unrecognized (must be of type Namespace): empty data (<empty>)',
    );
    expect(decodeError(() => decodeProtobufBody(PREFIX, ns)).message).toBe(
      'the object provided is unrecognized (must be of type Namespace): empty body (6b387300)',
    );
  });

  it('400 for a truncated envelope and for a truncated object', () => {
    const good = readFileSync(join(FIXTURES, 'kubectl-create-namespace.pb'));
    expect(decodeError(() => decodeProtobufBody(good.subarray(0, 10), ns)).message).toBe(
      'the object provided is unrecognized (must be of type Namespace): unexpected EOF (6b3873000a0f0a027631)',
    );
    // cut inside raw, with the envelope's length fixed up so only the object is short
    const T = protobufType('core.v1.Namespace');
    const raw = T.encode(T.fromObject({ metadata: { name: 'team' } })).finish();
    const U = protobufType('runtime.Unknown');
    const bytes = Buffer.concat([PREFIX, U.encode({ typeMeta: { apiVersion: 'v1', kind: 'Namespace' }, raw: raw.subarray(0, raw.length - 2) }).finish()]);
    expect(decodeError(() => decodeProtobufBody(bytes, ns))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'Namespace in version "v1" cannot be handled as a Namespace: unexpected EOF',
    });
  });

  it('400 for a kind the server has no type for', () => {
    const U = protobufType('runtime.Unknown');
    const bytes = Buffer.concat([PREFIX, U.encode({ typeMeta: { apiVersion: 'v1', kind: 'Gadget' }, raw: new Uint8Array(0) }).finish()]);
    expect(decodeError(() => decodeProtobufBody(bytes, asPod)).message).toBe(
      'Gadget in version "v1" cannot be handled as a Pod: no kind "Gadget" is registered for version "v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it('400 for FieldsV1 that is not JSON', () => {
    const bytes = body(...POD, 'core.v1.Pod', { metadata: { name: 'p', managedFields: [{ manager: 'm', fieldsV1: { Raw: Buffer.from('{nope') } }] } });
    expect(decodeError(() => decodeProtobufBody(bytes, asPod)).message).toMatch(
      /^Pod in version "v1" cannot be handled as a Pod: json: error calling MarshalJSON: /,
    );
  });

  it('any bytes after the prefix: an object or a 400, never another error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (tail) => {
        try {
          decodeProtobufBody(Buffer.concat([PREFIX, tail]), asPod);
        } catch (e) {
          return e instanceof ApiError && e.code === 400;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('a body of more than MAX_VALUES tiny messages: a 400 before anything is built', () => {
    const many = (n: number) => body(...POD, 'core.v1.Pod', { metadata: { name: 'p' }, spec: { containers: Array.from({ length: n }, () => ({})) } });
    expect(decodeError(() => decodeProtobufBody(many(MAX_VALUES + 1), asPod))).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: `Pod in version "v1" cannot be handled as a Pod: proto: more than ${MAX_VALUES} nested messages and list or map entries`,
    });
    // metadata and spec are two of them
    expect((decodeProtobufBody(many(MAX_VALUES - 2), asPod).spec as { containers: unknown[] }).containers).toHaveLength(MAX_VALUES - 2);
  });

  it('deeply nested groups of unknown fields: a 400, not a crash', () => {
    // field 15, wire type 3 (start group), 200k deep: protobufjs skips unknown groups recursively
    const bytes = Buffer.concat([PREFIX, Buffer.alloc(200_000, 0x7b)]);
    expect(decodeError(() => decodeProtobufBody(bytes, asPod)).code).toBe(400);
  });
});

describe('the schema', () => {
  it('every message a field names is in the table, and field numbers are unique per message', () => {
    const names = new Set(messageNames());
    for (const m of names) {
      const fields = messageFields(m)!;
      expect(new Set(fields.map((f) => f.number)).size, m).toBe(fields.length);
      for (const f of fields)
        if (!['string', 'bool', 'int32', 'int64', 'bytes'].includes(f.type)) expect(names.has(f.type), `${m}.${f.json} → ${f.type}`).toBe(true);
    }
    for (const t of Object.values(ROOT_KINDS)) expect(names.has(t), t).toBe(true);
  });

  it('upstream field numbers for a few well-known fields', () => {
    const num = (t: string, json: string) => messageFields(t)!.find((f) => f.json === json)?.number;
    expect(num('core.v1.PodSpec', 'containers')).toBe(2);
    expect(num('core.v1.PodSpec', 'nodeName')).toBe(10);
    expect(num('core.v1.Container', 'image')).toBe(2);
    expect(num('meta.v1.ObjectMeta', 'managedFields')).toBe(17);
    expect(num('apps.v1.DeploymentSpec', 'progressDeadlineSeconds')).toBe(9);
    expect(num('core.v1.Event', 'eventTime')).toBe(10);
    expect(messageFields('core.v1.Volume')!.find((f) => f.inline)).toMatchObject({ proto: 'volumeSource', number: 2, type: 'core.v1.VolumeSource' });
  });

  it('jsonFields: inlined structs flattened, list/map/nullable/special value types', () => {
    const vol = jsonFields('core.v1.Volume')!;
    expect([...vol.keys()]).toContain('emptyDir');
    expect([...vol.keys()]).toContain('name');
    expect(vol.has('volumeSource')).toBe(false);
    const c = jsonFields('core.v1.Container')!;
    expect(c.get('ports')).toEqual({
      name: 'ports',
      value: { kind: 'object', type: 'core.v1.ContainerPort' },
      list: true,
      map: false,
      nullable: true,
      omitEmpty: true,
    });
    expect(c.get('name')).toEqual({ name: 'name', value: { kind: 'string' }, list: false, map: false, nullable: false, omitEmpty: false });
    expect(jsonFields('core.v1.ResourceRequirements')!.get('limits')!.value).toEqual({ kind: 'special', special: 'Quantity' });
    expect(jsonFields('core.v1.HTTPGetAction')!.get('port')!.value).toEqual({ kind: 'special', special: 'IntOrString' });
    expect(jsonFields('core.v1.Secret')!.get('data')).toMatchObject({ value: { kind: 'bytes' }, map: true });
    expect(jsonFields('core.v1.Probe')!.has('httpGet')).toBe(true);
    expect(jsonFields('meta.v1.Time')).toBeUndefined();
    expect(jsonFields('no.such.Type')).toBeUndefined();
  });

  it('kinds, and OpenAPI names', () => {
    expect(typeForKind('apps/v1', 'Deployment')).toBe('apps.v1.Deployment');
    expect(typeForKind('v1', 'Deployment')).toBeUndefined();
    expect(typeForKind('apps/v1', 'DeleteOptions')).toBe('meta.v1.DeleteOptions');
    expect(openApiName('core.v1.Pod')).toBe('io.k8s.api.core.v1.Pod');
    expect(openApiName('meta.v1.ObjectMeta')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(openApiName('intstr.IntOrString')).toBe('io.k8s.apimachinery.pkg.util.intstr.IntOrString');
  });
});
