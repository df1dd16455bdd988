import { describe, expect, it } from 'vitest';

import { controllerType, parseControllerTargets, parseOneTarget, parseTarget, resourceKind, typeOfNames } from '../../src/cli/targets.js';
import { UserError } from '../../src/errors.js';

describe('controller names as kubectl takes them', () => {
  it('NAME names either kind; TYPE/NAME one kind, in any of kubectl spellings', () => {
    expect(parseTarget('web')).toEqual({ kind: null, name: 'web' });
    for (const t of ['rs', 'replicaset', 'replicasets', 'replicaset.apps', 'ReplicaSets.apps', 'RS', 'rs.apps', 'rs.v1.apps', 'replicasets.v1.apps'])
      expect(parseTarget(`${t}/web`)).toEqual({ kind: 'ReplicaSet', name: 'web' });
    for (const t of ['rc', 'replicationcontroller', 'replicationcontrollers'])
      expect(parseTarget(`${t}/db`)).toEqual({ kind: 'ReplicationController', name: 'db' });
  });

  it('deploy/NAME and kubectl spellings of Deployments name the ReplicaSets a Deployment controls', () => {
    for (const t of ['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.apps', 'Deploy', 'DEPLOYMENTS.APPS', 'deploy.v1.apps'])
      expect(parseTarget(`${t}/web`)).toEqual({ kind: 'Deployment', name: 'web' });
    expect(() => parseTarget('deploy/')).toThrow('invalid controller name "deploy/": expected TYPE/NAME');
    // no served group or version: the server would not know the type either
    for (const t of ['deployments.extensions', 'rs.v1beta1.apps', 'rc.v1', 'replicasets.batch'])
      expect(() => parseTarget(`${t}/web`)).toThrow(`the server doesn't have a resource type "${t}"`);
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
      expect(() => parseTarget(`${t}/web`)).toThrow(`the server doesn't have a resource type "${t}"`);
    }
  });
});

describe("kubectl's TYPE NAME", () => {
  it('a TYPE then NAMEs names each NAME of that type, in any spelling', () => {
    expect(parseControllerTargets(['rs', 'web', 'api'], 'diff')).toEqual([
      { kind: 'ReplicaSet', name: 'web' },
      { kind: 'ReplicaSet', name: 'api' },
    ]);
    expect(parseControllerTargets(['replicationcontrollers', 'db'], 'diff')).toEqual([{ kind: 'ReplicationController', name: 'db' }]);
    expect(parseControllerTargets(['deployments.apps', 'web'], 'diff')).toEqual([{ kind: 'Deployment', name: 'web' }]);
    expect(parseOneTarget('rs.v1.apps', 'web', 'explain')).toEqual({ kind: 'ReplicaSet', name: 'web' });
    expect(parseOneTarget('pods', 'web-x2kq9', 'explain')).toEqual({ kind: 'Pod', name: 'web-x2kq9' });
    expect(parseOneTarget('po/web-x2kq9', undefined, 'history')).toEqual({ kind: 'Pod', name: 'web-x2kq9' });
  });

  it('a lone word is a NAME, even one spelled like a type; words that are no type are NAMEs each', () => {
    expect(parseControllerTargets(['rs'], 'diff')).toEqual([{ kind: null, name: 'rs' }]);
    expect(parseOneTarget('rs', undefined, 'explain')).toEqual({ kind: null, name: 'rs' });
    expect(parseControllerTargets(['web', 'rs/api'], 'diff')).toEqual([
      { kind: null, name: 'web' },
      { kind: 'ReplicaSet', name: 'api' },
    ]);
  });

  it("refuses in kubectl's words: an unknown type, a TYPE beside TYPE/NAME, pods where none are taken", () => {
    expect(() => parseOneTarget('foo', 'web', 'explain')).toThrow(/^the server doesn't have a resource type "foo"$/);
    expect(() => parseControllerTargets(['sts', 'web'], 'diff')).toThrow('"sts" is not one of them');
    expect(() => parseControllerTargets(['rs', 'rs/web'], 'diff')).toThrow(
      /^there is no need to specify a resource type as a separate argument when passing arguments in resource\/name form \(e\.g\. '.*diff resource\/<resource_name>'/,
    );
    expect(() => parseOneTarget('rs/web', 'api', 'explain')).toThrow('there is no need to specify a resource type');
    expect(() => parseControllerTargets(['pod', 'web-x'], 'diff')).toThrow('"pod" is not one of them');
    expect(() => parseControllerTargets(['pod/web-x'], 'diff')).toThrow('"pod" is not one of them');
  });

  it('pod/NAME, po/NAME, pods/NAME where pods are taken; an empty or nested pod name refused', () => {
    for (const t of ['pod', 'po', 'pods', 'Pod', 'PO', 'PODS'])
      expect(parseOneTarget(`${t}/web-x`, undefined, 'explain')).toEqual({ kind: 'Pod', name: 'web-x' });
    expect(() => parseOneTarget('pod/', undefined, 'explain')).toThrow('invalid pod name "pod/": expected pod/NAME');
    expect(() => parseOneTarget('po/a/b', undefined, 'explain')).toThrow('expected pod/NAME');
  });

  it('completion reads the TYPE the words begin with', () => {
    expect(typeOfNames(['rs'])).toBe('ReplicaSet');
    expect(typeOfNames(['deploy', 'web'])).toBe('Deployment');
    expect(typeOfNames(['rs/web'])).toBeUndefined();
    expect(typeOfNames(['web'])).toBeUndefined();
    expect(resourceKind('__proto__')).toBeUndefined();
  });
});
