// The change a rollout starts from, as kubectl set image / scale / rollout undo leave the Deployment.
import { describe, expect, it } from 'vitest';
import { applyRolloutChange } from '../../../src/core/deployment/rollout-change.js';
import { deploy, rs } from './helpers.js';

const d = () => deploy({ replicas: 4, image: 'nginx:1.27', generation: 3 });
const history = [
  rs({ name: 'web-new', replicas: 4, revision: 3, image: 'nginx:1.27' }),
  rs({ name: 'web-old', replicas: 0, revision: 2, image: 'nginx:1.26' }),
  rs({ name: 'web-older', replicas: 0, revision: 1, image: 'nginx:1.25' }),
];

describe('applyRolloutChange', () => {
  it('set image: the named container, or * for all; generation bumped', () => {
    const r = applyRolloutChange(d(), history, { image: { c: 'nginx:1.28' } });
    expect(r.ok && r.deployment.spec.template?.spec?.containers?.[0].image).toBe('nginx:1.28');
    expect(r.ok && r.deployment.metadata.generation).toBe(4);
    const all = applyRolloutChange(d(), history, { image: { '*': 'nginx:1.29' } });
    expect(all.ok && all.deployment.spec.template?.spec?.containers?.[0].image).toBe('nginx:1.29');
  });

  it("set image on a container that does not exist: kubectl's error", () => {
    expect(applyRolloutChange(d(), history, { image: { sidecar: 'x' } })).toEqual({ ok: false, error: 'unable to find container named "sidecar"' });
  });

  it('a template label the selector no longer matches is refused as the API server refuses it', () => {
    const r = applyRolloutChange(d(), history, { templateLabels: { app: 'other' } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain('`selector` does not match template `labels`');
    const ok = applyRolloutChange(d(), history, { templateLabels: { track: 'canary' } });
    expect(ok.ok && ok.deployment.spec.template?.metadata?.labels).toEqual({ app: 'web', track: 'canary' });
  });

  it("rollout undo: the previous revision's template without its pod-template-hash; --to-revision; no history", () => {
    const prev = applyRolloutChange(d(), history, { undo: { toRevision: 0 } });
    expect(prev.ok && prev.deployment.spec.template).toEqual({
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] },
    });
    const first = applyRolloutChange(d(), history, { undo: { toRevision: 1 } });
    expect(first.ok && first.deployment.spec.template?.spec?.containers?.[0].image).toBe('nginx:1.25');
    expect(applyRolloutChange(d(), history, { undo: { toRevision: 7 } })).toEqual({ ok: false, error: 'unable to find specified revision 7 in history' });
    expect(applyRolloutChange(d(), history.slice(0, 1), { undo: { toRevision: 0 } })).toEqual({
      ok: false,
      error: 'no rollout history found for deployment "web"',
    });
    expect(applyRolloutChange(d(), history, { undo: { toRevision: 3 } })).toEqual({
      ok: false,
      error: 'skipped rollback (current template already matches revision 3)',
    });
  });

  it('a change that changes nothing is said, not foreseen', () => {
    const r = applyRolloutChange(d(), history, { replicas: 4 });
    expect(r.ok).toBe(false);
    const scaled = applyRolloutChange(d(), history, { replicas: 6 });
    expect(scaled.ok && scaled.deployment.spec.replicas).toBe(6);
  });
});
