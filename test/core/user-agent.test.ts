import { describe, expect, it } from 'vitest';
import { baseUserAgent, clientUserAgent, isRsReconcileController, rsReconcileRules } from '../../src/core/user-agent.js';

describe("rs-reconcile's User-Agent: written once, read back by history", () => {
  const base = baseUserAgent('linux', 'x64', 'v20.19.0');

  it('names the platform, then the client and its identity, then the rules it runs', () => {
    expect(base).toBe('rs-reconcile (linux/x64) node/v20.19.0');
    expect(clientUserAgent(base, 'replicaset-controller', 'host 1\u00e9', '1.32')).toBe(
      'rs-reconcile (linux/x64) node/v20.19.0 replicaset-controller/host_1_ rules/v1.32',
    );
  });

  it('reads back what it writes: the controller client, and its rules', () => {
    for (const rules of ['1.24', '1.32', '1.36', '1.37']) {
      const ua = clientUserAgent(base, 'replicaset-controller', 'reconcile@ci-7', rules);
      expect(isRsReconcileController(ua)).toBe(true);
      expect(rsReconcileRules(ua)).toBe(rules);
    }
    const noRules = clientUserAgent(base, 'replicaset-controller', 'h');
    expect([isRsReconcileController(noRules), rsReconcileRules(noRules)]).toEqual([true, null]);
  });

  it('other clients, and other programs naming the same rules, are not the controller', () => {
    expect(isRsReconcileController(base)).toBe(false);
    expect(isRsReconcileController(clientUserAgent(base, 'leader-election', 'h'))).toBe(false);
    expect(rsReconcileRules('kubectl/v1.32.0 (linux/amd64) replicaset-controller/x rules/v1.32')).toBeNull();
  });
});
