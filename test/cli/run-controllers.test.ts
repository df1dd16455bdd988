// run --controllers: a comma list of kube-controller-manager's controller names, * (or all) for each, -NAME to leave one out.
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

  it("kube-controller-manager's own names, * for all and -NAME to leave one out", () => {
    expect([...parseControllers('replicaset-controller,deployment-controller')].sort()).toEqual(['deployment', 'replicaset']);
    expect([...parseControllers('*,-replicationcontroller')].sort()).toEqual(['deployment', 'replicaset']);
    expect([...parseControllers('replicaset,-replicaset-controller,deployment')]).toEqual(['deployment']);
    expect([...parseControllers('*')].sort()).toEqual(['deployment', 'replicaset', 'replicationcontroller']);
  });

  it('an unknown name, an empty list or one that leaves nothing is one clear error', () => {
    expect(() => parseControllers('replicaset,daemonset')).toThrow(UserError);
    expect(() => parseControllers('replicaset,daemonset')).toThrow('unknown controller "daemonset"');
    expect(() => parseControllers('*,-daemonset-controller')).toThrow('unknown controller "daemonset-controller"');
    expect(() => parseControllers(',')).toThrow('expected a comma list');
    expect(() => parseControllers('-*')).toThrow('leaves nothing out');
    // without *, only the names given run: -NAME alone leaves none
    expect(() => parseControllers('-deployment-controller')).toThrow('leaves no controller to run');
  });
});
