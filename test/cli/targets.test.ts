import { describe, expect, it } from 'vitest';

import { controllerType, parseTarget } from '../../src/cli/targets.js';
import { UserError } from '../../src/errors.js';

describe('controller names as kubectl takes them', () => {
  it('NAME names either kind; TYPE/NAME one kind, in any of kubectl spellings', () => {
    expect(parseTarget('web')).toEqual({ kind: null, name: 'web' });
    for (const t of ['rs', 'replicaset', 'replicasets', 'replicaset.apps', 'ReplicaSets.apps', 'RS'])
      expect(parseTarget(`${t}/web`)).toEqual({ kind: 'ReplicaSet', name: 'web' });
    for (const t of ['rc', 'replicationcontroller', 'replicationcontrollers'])
      expect(parseTarget(`${t}/db`)).toEqual({ kind: 'ReplicationController', name: 'db' });
  });

  it('deploy/NAME and kubectl spellings of Deployments name the ReplicaSets a Deployment controls', () => {
    for (const t of ['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.apps', 'Deploy', 'DEPLOYMENTS.APPS'])
      expect(parseTarget(`${t}/web`)).toEqual({ kind: 'Deployment', name: 'web' });
    expect(() => parseTarget('deploy/')).toThrow('invalid controller name "deploy/": expected TYPE/NAME');
    expect(() => parseTarget('deployments.extensions/web')).toThrow(`"deployments.extensions" is not one of them`);
  });

  it('refuses other types, empty names and nested slashes in one line', () => {
    expect(() => parseTarget('sts/web')).toThrow(
      `rs-reconcile explains ReplicaSets (rs/NAME), ReplicationControllers (rc/NAME) and Deployments (deploy/NAME, through their ReplicaSets), and "sts" is not one of them`,
    );
    expect(() => parseTarget('')).toThrow(UserError);
    expect(() => parseTarget('rs/')).toThrow('invalid controller name "rs/": expected TYPE/NAME');
    expect(() => parseTarget('rs/a/b')).toThrow('expected TYPE/NAME');
  });

  it('is not fooled by names of Object.prototype', () => {
    for (const t of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(controllerType(t)).toBeUndefined();
      expect(() => parseTarget(`${t}/web`)).toThrow(`"${t}" is not one of them`);
    }
  });
});
