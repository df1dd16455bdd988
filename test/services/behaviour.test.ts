// resolveBehaviour: the one sequence that picks the upstream controller emulated. Its three
// outcomes: --kube-version (the server is not asked), the server's version, the newest.
import { describe, expect, it } from 'vitest';
import { NEWEST_MINOR, NEWEST_VERSION, OLDEST_MINOR } from '../../src/core/versions.js';
import { UserError } from '../../src/errors.js';
import { chooseBehaviour, resolveBehaviour } from '../../src/services/behaviour.js';

const never = async (): Promise<string | null> => {
  throw new Error('the server must not be asked');
};

describe('resolveBehaviour', () => {
  it('--kube-version: that version, and the server is never asked', async () => {
    const notices: string[] = [];
    const r = await resolveBehaviour({ kubeVersion: `1.${OLDEST_MINOR + 2}` }, notices, never);
    expect(r.from).toBe('kube-version');
    expect(r.behaviour.version).toBe(`1.${OLDEST_MINOR + 2}`);
  });

  it("no --kube-version: the server's minor version decides", async () => {
    let asked = 0;
    const r = await resolveBehaviour({}, [], async () => {
      asked++;
      return String(NEWEST_MINOR - 3);
    });
    expect(asked).toBe(1);
    expect(r.from).toBe('server');
    expect(r.behaviour.version).toBe(`1.${NEWEST_MINOR - 3}`);
  });

  it('a server that cannot say: the newest rules', async () => {
    const r = await resolveBehaviour({}, [], async () => null);
    expect(r.from).toBe('newest');
    expect(r.behaviour.version).toBe(NEWEST_VERSION);
  });

  it('a server newer than the rules known: the newest, and a notice says so', async () => {
    const notices: string[] = [];
    const r = await resolveBehaviour({}, notices, async () => String(NEWEST_MINOR + 5));
    expect(r.from).toBe('server');
    expect(r.behaviour.version).toBe(NEWEST_VERSION);
    expect(notices.join('\n')).toContain(`1.${NEWEST_MINOR + 5}`);
  });

  it('a 1.37 server: its own rules, without a notice; a 1.38 server: the 1.37 rules, with one notice', async () => {
    const at37: string[] = [];
    const r37 = await resolveBehaviour({}, at37, async () => '37');
    expect([r37.from, r37.behaviour.version, at37]).toEqual(['server', '1.37', []]);
    const at38: string[] = [];
    const r38 = await resolveBehaviour({}, at38, async () => '38+');
    expect([r38.from, r38.behaviour.version]).toEqual(['server', '1.37']);
    expect(at38).toEqual(['the server runs 1.38; rs-reconcile knows upstream behaviour up to 1.37 and explains as that']);
  });

  it("the server's failure is the caller's to tolerate: it propagates", async () => {
    await expect(
      resolveBehaviour({}, [], async () => {
        throw new Error('connection refused');
      }),
    ).rejects.toThrow('connection refused');
  });

  it("an invalid --kube-version or --feature-gates is the user's error", async () => {
    await expect(resolveBehaviour({ kubeVersion: 'banana' }, [], never)).rejects.toBeInstanceOf(UserError);
    await expect(resolveBehaviour({ featureGates: 'NoSuchGate=maybe' }, [], async () => null)).rejects.toBeInstanceOf(UserError);
  });

  it('feature gates apply whatever chose the version', async () => {
    const on = chooseBehaviour({}, null, []);
    const gate = Object.keys(on.gates)[0];
    expect(gate).toBeDefined();
    const flipped = !on.gates[gate as keyof typeof on.gates];
    const r = await resolveBehaviour({ featureGates: `${gate}=${flipped}` }, [], async () => null);
    expect(r.behaviour.gates[gate as keyof typeof on.gates]).toBe(flipped);
  });
});
