import { loadYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { describeValue, FieldError, formatPath, slimController, slimPod, validateController, validatePod } from '../../src/input/objects.js';
import { formatTime, isRfc3339 } from '../../src/input/timestamps.js';

describe('isRfc3339 (what metav1.Time accepts)', () => {
  it.each([
    '2025-12-01T09:00:00Z',
    '2024-02-29T23:59:59Z',
    '2000-02-29T00:00:00Z',
    '2025-06-01T12:00:00.1Z',
    '2025-06-01T12:00:00.123456789Z',
    '2025-06-01T12:00:00+02:00',
    '2025-06-01T12:00:00.5-07:30',
    '0001-01-01T00:00:00Z',
  ])('accepts %s', (s) => {
    expect(isRfc3339(s)).toBe(true);
  });

  it.each([
    '',
    'yesterday',
    '2025-12-01',
    '2025-12-01 09:00:00Z',
    '2025-12-01T09:00:00',
    '2025-12-01t09:00:00z',
    '2025-13-01T00:00:00Z',
    '2025-00-01T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-12-01T24:00:00Z',
    '2025-12-01T23:60:00Z',
    '2025-12-01T23:59:60Z',
    '2025-12-01T09:00:00.Z',
    '2025-12-01T09:00:00+0200',
    '2025-12-01T09:00:00+24:00',
    '2025-12-01T09:00:00Z ',
    '+2025-12-01T09:00:00Z',
    '2025-1a-01T09:00:00Z',
  ])('rejects %j', (s) => {
    expect(isRfc3339(s)).toBe(false);
  });

  it('formats Dates as the API server does', () => {
    expect(formatTime(new Date('2025-01-02T03:04:05Z'))).toBe('2025-01-02T03:04:05Z');
    expect(formatTime(new Date('2025-01-02T03:04:05.250Z'))).toBe('2025-01-02T03:04:05.250Z');
  });
});

describe('messages', () => {
  it('formats paths like a reader would write them', () => {
    expect(formatPath(['spec', 'replicas'])).toBe('spec.replicas');
    expect(formatPath(['status', 'conditions', 1, 'type'])).toBe('status.conditions[1].type');
    expect(formatPath(['metadata', 'labels', 'app.kubernetes.io/name'])).toBe('metadata.labels["app.kubernetes.io/name"]');
    expect(formatPath(['items', 3])).toBe('items[3]');
    expect(formatPath([])).toBe('');
  });

  it('describes values briefly, on one line', () => {
    expect(describeValue('three')).toBe('string "three"');
    expect(describeValue('a\nb')).toBe('string "a\\nb"');
    expect(describeValue(1.5)).toBe('number 1.5');
    expect(describeValue(false)).toBe('boolean false');
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1])).toBe('a list');
    expect(describeValue({})).toBe('a mapping');
  });

  it('throws FieldErrors carrying the path', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'u' }, status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 3 }] } };
    try {
      validatePod(pod);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FieldError);
      expect((e as FieldError).path).toEqual(['status', 'conditions', 1, 'type']);
      expect((e as FieldError).message).toBe('status.conditions[1].type must be a string, got number 3');
    }
    // The shared path array of a list is not left pointing at a later element.
    expect(() => validateController({ kind: 'ReplicaSet', metadata: { name: 'r', uid: 'u' }, spec: { replicas: -3 } }, 'ReplicaSet')).toThrow(
      'spec.replicas must not be negative, got -3',
    );
  });
});

const rawPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    generateName: 'web-',
    namespace: 'shop',
    uid: 'p-uid',
    resourceVersion: '7',
    generation: 1,
    creationTimestamp: '2025-12-01T09:00:00Z',
    deletionTimestamp: '2025-12-01T10:00:00Z',
    deletionGracePeriodSeconds: 30,
    labels: { app: 'web' },
    annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
    finalizers: ['example.com/keep'],
    managedFields: [{ manager: 'kubelet' }],
  },
  spec: {
    nodeName: 'node-1',
    containers: [{ name: 'web', image: 'web:1' }],
    initContainers: [
      { name: 'sidecar', image: 'proxy', restartPolicy: 'Always' },
      { name: 'setup', image: 'setup' },
    ],
    volumes: [{ name: 'v' }],
  },
  status: {
    phase: 'Running',
    podIP: '10.0.0.1',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-12-01T09:00:00Z', lastProbeTime: null },
      { type: 'Ready', status: 'True', lastTransitionTime: '2025-12-01T09:00:30Z', lastProbeTime: null },
    ],
    containerStatuses: [{ name: 'web', ready: true, restartCount: 3, image: 'web:1', imageID: 'sha', state: { running: {} } }],
    initContainerStatuses: [{ name: 'sidecar', ready: true, restartCount: 1, started: true }],
  },
};

const slimmedPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-1',
    generateName: 'web-',
    namespace: 'shop',
    uid: 'p-uid',
    resourceVersion: '7',
    creationTimestamp: '2025-12-01T09:00:00Z',
    deletionTimestamp: '2025-12-01T10:00:00Z',
    deletionGracePeriodSeconds: 30,
    labels: { app: 'web' },
    annotations: { 'controller.kubernetes.io/pod-deletion-cost': '10' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
    finalizers: ['example.com/keep'],
  },
  spec: { nodeName: 'node-1', initContainers: [{ name: 'sidecar', restartPolicy: 'Always' }, { name: 'setup' }] },
  status: {
    phase: 'Running',
    conditions: rawPod.status.conditions,
    containerStatuses: [{ name: 'web', ready: true, restartCount: 3 }],
    initContainerStatuses: [{ name: 'sidecar', ready: true, restartCount: 1 }],
  },
};

const rawReplicaSet = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'rs-uid',
    generation: 4,
    resourceVersion: '9',
    creationTimestamp: '2025-11-01T00:00:00Z',
    annotations: { 'deployment.kubernetes.io/revision': '2' },
    managedFields: [{ manager: 'kube-controller-manager' }],
  },
  spec: {
    replicas: 3,
    minReadySeconds: 10,
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] },
    template: {
      metadata: { labels: { app: 'web' }, creationTimestamp: null },
      spec: { containers: [{ name: 'web', image: 'web:1', ports: [{ containerPort: 80 }] }] },
    },
  },
  status: {
    replicas: 3,
    fullyLabeledReplicas: 3,
    readyReplicas: 2,
    availableReplicas: 2,
    observedGeneration: 4,
    conditions: [{ type: 'ReplicaFailure', status: 'False', lastTransitionTime: '2025-11-02T00:00:00Z', reason: 'x', message: 'y' }],
  },
};

describe('slimPod', () => {
  it('keeps what the controller reads and drops the rest', () => {
    expect(slimPod(rawPod)).toStrictEqual(slimmedPod);
  });

  it('drops the spec and status when absent, and defaults kind, apiVersion and namespace', () => {
    expect(slimPod({ metadata: { name: 'a', uid: 'b' } })).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a', namespace: 'default', uid: 'b' },
    });
  });

  it('turns the Dates of a @kubernetes/client-node object into API timestamps', () => {
    const typed = loadYaml<object>(JSON.stringify(rawPod));
    expect((typed as { metadata: { creationTimestamp: unknown } }).metadata.creationTimestamp).toBeInstanceOf(Date);
    expect(slimPod(typed)).toEqual(slimmedPod);
    expect(JSON.parse(JSON.stringify(slimPod(typed)))).toEqual(slimmedPod);
  });

  it('does not change its input', () => {
    const copy = structuredClone(rawPod);
    slimPod(copy);
    expect(copy).toStrictEqual(rawPod);
    const typed = loadYaml<{ status: { conditions: Array<{ lastTransitionTime: unknown }> } }>(JSON.stringify(rawPod));
    slimPod(typed);
    expect(typed.status.conditions[0].lastTransitionTime).toBeInstanceOf(Date);
  });
});

describe('slimController', () => {
  it('keeps metadata (with generation), the whole spec and the status', () => {
    const { managedFields: _dropped, ...metadata } = rawReplicaSet.metadata;
    expect(slimController(rawReplicaSet, 'ReplicaSet')).toStrictEqual({ ...rawReplicaSet, metadata });
  });

  it('takes the kind from the object, or the argument for API list items', () => {
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r', uid: 'u' }, spec: { selector: { app: 'x' } } };
    expect(slimController(rc).kind).toBe('ReplicationController');
    const { kind: _k, apiVersion: _a, ...item } = rc;
    expect(slimController(item, 'ReplicationController')).toMatchObject({ apiVersion: 'v1', kind: 'ReplicationController' });
    expect(slimController({ metadata: { name: 'x', uid: 'y' } })).toStrictEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'x', namespace: 'default', uid: 'y' },
      spec: {},
    });
  });

  it('drops null counts but keeps a null terminatingReplicas', () => {
    const out = slimController(
      { metadata: { name: 'x', uid: 'y' }, spec: { replicas: null }, status: { replicas: null, terminatingReplicas: null } },
      'ReplicaSet',
    );
    expect(out.spec).toStrictEqual({});
    expect(out.status).toStrictEqual({ terminatingReplicas: null });
  });

  it('turns the Dates of a @kubernetes/client-node object into API timestamps, template included', () => {
    const raw = structuredClone(rawReplicaSet);
    (raw.spec.template.metadata as Record<string, unknown>).creationTimestamp = '2025-10-10T10:10:10Z';
    const typed = loadYaml<object>(JSON.stringify(raw));
    const { managedFields: _dropped, ...metadata } = raw.metadata;
    expect(JSON.parse(JSON.stringify(slimController(typed, 'ReplicaSet')))).toEqual({ ...raw, metadata });
    expect(slimController(typed, 'ReplicaSet').spec.template?.metadata?.creationTimestamp).toBe('2025-10-10T10:10:10Z');
  });
});
