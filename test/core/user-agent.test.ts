import { describe, expect, it } from 'vitest';
import { baseUserAgent, clientUserAgent, isRsReconcileController, rsReconcileRules, userAgentVersion } from '../../src/core/user-agent.js';

describe("rs-reconcile's User-Agent: written once, read back by history", () => {
  const base = baseUserAgent({ version: '0.1.0', platform: 'linux', arch: 'x64' });

  it("has client-go's DefaultKubernetesUserAgent shape: command/version (GOOS/GOARCH) kubernetes/commit", () => {
    expect(base).toBe('rs-reconcile/v0.1.0 (linux/amd64) kubernetes/$Format');
    expect(baseUserAgent({ version: '1.2.3-rc.1+build', commit: '70d3cc986aa8221cd1dfb1121852688902d3bf53', platform: 'win32', arch: 'arm64' })).toBe(
      'rs-reconcile/v1.2.3 (windows/arm64) kubernetes/70d3cc9',
    );
    expect(baseUserAgent({ version: '', commit: '', platform: 'darwin', arch: 'ia32' })).toBe('rs-reconcile/unknown (darwin/386) kubernetes/unknown');
    expect(userAgentVersion('v2.0.0')).toBe('v2.0.0');
  });

  it('names the field manager rs-reconcile: the User-Agent up to its first "/"', () => {
    expect(base.split('/', 1)[0]).toBe('rs-reconcile');
    expect(clientUserAgent(base, 'replicaset-controller', 'h', '1.32').split('/', 1)[0]).toBe('rs-reconcile');
  });

  it('names the client and its identity, then the rules it runs', () => {
    expect(clientUserAgent(base, 'replicaset-controller', 'host 1\u00e9', '1.32')).toBe(
      'rs-reconcile/v0.1.0 (linux/amd64) kubernetes/$Format replicaset-controller/host_1_ rules/v1.32',
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

  it('reads the earlier shape of audit logs written before (rs-reconcile (os/arch) node/version)', () => {
    const old = 'rs-reconcile (linux/x64) node/v20.19.0 replicaset-controller/host_1 rules/v1.33';
    expect([isRsReconcileController(old), rsReconcileRules(old)]).toEqual([true, '1.33']);
  });

  it('other clients, and other programs naming the same rules, are not the controller', () => {
    expect(isRsReconcileController(base)).toBe(false);
    expect(isRsReconcileController(clientUserAgent(base, 'leader-election', 'h'))).toBe(false);
    expect(rsReconcileRules('kubectl/v1.32.0 (linux/amd64) replicaset-controller/x rules/v1.32')).toBeNull();
    expect(isRsReconcileController('rs-reconcile-fork/v1 (linux/amd64) kubernetes/x replicaset-controller/h')).toBe(false);
  });
});
