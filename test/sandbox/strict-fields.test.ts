// fieldValidation=Strict at every depth: the field tables of the API types (from upstream's
// generated.proto) know every field, so a real object passes whole and a misspelt field anywhere
// is named as the strict decoder names it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/sandbox/resources.js';
import { unknownFields } from '../../src/sandbox/validation.js';
import { typeForKind } from '../../src/sandbox/protobuf/schema.js';
import { apiVersionOf } from '../../src/sandbox/resources.js';

const res = (name: string) => RESOURCES.find((r) => r.name === name)!;

const deployment = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'kubectl-create-deployment.json'), 'utf8'));

const richPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    labels: { a: 'b' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u', controller: true }],
    managedFields: [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:anything': {} } } }],
  },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'i',
        readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
        resources: { limits: { cpu: '1' } },
        env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      },
    ],
    volumes: [
      { name: 'v', configMap: { name: 'cm', items: [{ key: 'k', path: 'p' }] } },
      { name: 'e', emptyDir: { sizeLimit: '1Gi' } },
    ],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { a: 'b' } } } },
        ],
      },
    },
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
    overhead: { cpu: '10m' },
  },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }],
  },
};

describe('unknown fields at every depth', () => {
  it('every served kind has its field table', () => {
    for (const r of RESOURCES) expect(typeForKind(apiVersionOf(r), r.kind), r.name).toBeDefined();
  });

  it('a real object, deep fields included, has none', () => {
    expect(unknownFields(res('pods'), richPod)).toEqual([]);
    expect(unknownFields(res('deployments'), deployment)).toEqual([]);
  });

  it('names a misspelt field wherever it is, in the order of the body', () => {
    const pod = structuredClone(richPod) as any;
    pod.spec.containers[0].readinessProbe.httpGet.paht = '/';
    pod.spec.volumes[1].emptyDir.size = '1Gi';
    pod.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologykey = 'x';
    pod.metadata.labelz = {};
    expect(unknownFields(res('pods'), pod)).toEqual([
      'metadata.labelz',
      'spec.containers[0].readinessProbe.httpGet.paht',
      'spec.volumes[1].emptyDir.size',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologykey',
    ]);
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'r' },
      spec: {
        selector: { matchLabels: { a: 'b' }, matchExpresions: [] },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocoll: 'TCP' }] }] } },
      },
    };
    expect(unknownFields(res('replicasets'), rs)).toEqual(['spec.selector.matchExpresions', 'spec.template.spec.containers[0].ports[0].protocoll']);
  });
});
