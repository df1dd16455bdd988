// run --controllers: a comma list of kube-controller-manager's controller names, `all` for each.
import { describe, expect, it } from 'vitest';
import { parseControllers } from '../../src/commands/run.js';
import { UserError } from '../../src/errors.js';

describe('run --controllers', () => {
  it('all is every controller, the deployment controller included', () => {
    expect([...parseControllers('all')].sort()).toEqual(['deployment', 'replicaset', 'replicationcontroller']);
  });

  it("a comma list, as kube-controller-manager's --controllers", () => {
    expect([...parseControllers('replicaset,deployment')].sort()).toEqual(['deployment', 'replicaset']);
    expect([...parseControllers(' deployment ')]).toEqual(['deployment']);
    expect([...parseControllers('replicationcontroller')]).toEqual(['replicationcontroller']);
  });

  it('an unknown name or an empty list is one clear error', () => {
    expect(() => parseControllers('replicaset,daemonset')).toThrow(UserError);
    expect(() => parseControllers('replicaset,daemonset')).toThrow('unknown controller "daemonset"');
    expect(() => parseControllers(',')).toThrow('expected a comma list');
  });
});
