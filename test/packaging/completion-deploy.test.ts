// Completion of deploy/NAME: the Deployments that control ReplicaSets in scope, from their owner
// references (live or -f), next to rs/NAME and rc/NAME.
import { describe, expect, it } from 'vitest';

import { spellings } from '../../src/commands/completion.js';
import { controllerNames, controllerCandidates } from '../../src/completion/names.js';
import type { ControllerName } from '../../src/cluster/list-names.js';

const ref = (name: string, kind = 'Deployment', apiVersion = 'apps/v1') => ({ apiVersion, kind, name, uid: `uid-${name}`, controller: true });

describe('deploy/NAME completion', () => {
  const names: ControllerName[] = [
    { kind: 'ReplicaSet', name: 'web-1', namespace: 'a', controllerRef: ref('web') },
    { kind: 'ReplicaSet', name: 'web-2', namespace: 'b', controllerRef: ref('web') },
    { kind: 'ReplicaSet', name: 'solo', namespace: 'a' },
    { kind: 'ReplicaSet', name: 'crd-1', namespace: 'a', controllerRef: ref('crd', 'Deployment', 'example.io/v1') },
    { kind: 'ReplicationController', name: 'db', namespace: 'a' },
  ];

  it('offers deploy/NAME once per Deployment, and in the type being typed', () => {
    expect(controllerCandidates(names, '', false, spellings).map((c) => c.value)).toEqual([
      'deploy/web',
      'rc/db',
      'rs/crd-1',
      'rs/solo',
      'rs/web-1',
      'rs/web-2',
    ]);
    expect(controllerCandidates(names, 'deployment/', true, spellings)).toEqual([{ value: 'deployment/web', description: 'a, b' }]);
    expect(controllerCandidates(names, 'deployments.apps/w', false, spellings)).toEqual([{ value: 'deployments.apps/web' }]);
    expect(controllerCandidates(names, 'rs/', false, spellings).map((c) => c.value)).toEqual(['rs/crd-1', 'rs/solo', 'rs/web-1', 'rs/web-2']);
  });

  it('reads the owners from -f snapshots', async () => {
    const file = new URL('../../examples/deployment-rollout.yaml', import.meta.url).pathname;
    const found = await controllerNames({ values: new Map([['filename', [file]]]), positionals: [] });
    expect(controllerCandidates(found, 'deploy/', false, spellings)).toEqual([{ value: 'deploy/checkout' }]);
  });
});
