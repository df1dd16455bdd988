import { describe, expect, it } from 'vitest';
import { ReplicaSetController, type Listers } from '../../../src/controller/controller.js';
import { actionText } from '../../../src/render/watch-log.js';
import type { ControllerAPI } from '../../../src/runtime/api.js';
import { FakeClock } from '../../../src/runtime/clock.js';
import { actionReporter } from '../../../src/services/run-service.js';
import { expectationsSatisfiedBy, queueInfo, uiLogger } from '../../../src/services/watch/reconcile.js';
import { behaviour, NOW_MS } from '../../ui/fixtures.js';

describe('reconcile mode: what the controller machinery shows', () => {
  const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };
  // no objects: only the queues and expectations are looked at
  const listers: Listers = {
    pods: { inNamespace: () => [], controlledBy: () => [], orphans: () => [], withLabel: () => [] },
    controllers: { get: () => undefined, inNamespace: () => [], all: () => [], ownedBy: () => [] },
  };
  const api = {} as ControllerAPI;

  it('queueInfo samples the real workqueues and expectations; expectationsSatisfiedBy asks every controller', () => {
    const clock = new FakeClock(NOW_MS);
    const rs = new ReplicaSetController({ kind: 'ReplicaSet', listers, api, behaviour, burstReplicas: 500, clock, log: quiet });
    const rc = new ReplicaSetController({ kind: 'ReplicationController', listers, api, behaviour, burstReplicas: 500, clock, log: quiet });
    rs.queue.add('shop/web');
    rs.queue.add('shop/api');
    rs.queue.addRateLimited('shop/db');
    rs.expectations.expectCreations('shop/web', 3);
    clock.advance(2000);
    rc.expectations.expectDeletions('legacy/db', ['legacy/db-1']);
    const q = queueInfo([rs, rc]);
    expect(q.queues).toEqual([
      { name: 'replicaset', depth: 3, inFlight: 0, retries: 1, adds: 3 }, // the rate-limited add landed after its delay
      { name: 'replicationmanager', depth: 0, inFlight: 0, retries: 0, adds: 0 },
    ]);
    expect(q.expectations).toEqual([
      { kind: 'ReplicationController', key: 'legacy/db', add: 0, del: 1, ageMs: 0 },
      { kind: 'ReplicaSet', key: 'shop/web', add: 3, del: 0, ageMs: 2000 },
    ]);
    const satisfied = expectationsSatisfiedBy([rs, rc]);
    expect(satisfied('shop/web')).toBe(false);
    expect(satisfied('legacy/db')).toBe(false);
    expect(satisfied('shop/other')).toBe(true);
  });

  it('the controller log as log lines (klog -v 0)', () => {
    const lines: string[] = [];
    const log = uiLogger((level, text) => lines.push(`${level} ${text}`));
    log.info('Caches are synced', { controllers: 'ReplicaSet' });
    log.error('informer error', { err: 'boom' });
    log.v(2).info('Finished syncing');
    log.v(0).info('shown');
    expect(lines).toEqual(['info Caches are synced controllers=ReplicaSet', 'error informer error err=boom', 'info shown']);
  });

  it('the controller reports its actions as values: a dashboard that hears them gets no action text in the log', () => {
    const logged: string[] = [];
    const log = uiLogger((level, text) => logged.push(`${level} ${text}`));
    const heard: string[] = [];
    const created = { action: 'create' as const, pod: 'web-1', ok: true };
    const failed = { action: 'delete' as const, pod: 'web-2', ok: false, code: 500, error: 'boom' };
    const toPane = actionReporter({ log, onAction: (kind, key, a) => heard.push(actionText(kind, key, a).text) });
    toPane('ReplicaSet', 'shop/web', created);
    toPane('ReplicaSet', 'shop/web', failed);
    expect(heard).toEqual(['rs shop/web: create pod web-1', 'rs shop/web: delete pod web-2 failed (500): boom']);
    expect(logged).toEqual([]);
    // `run` gives no onAction: its log has every action, as kube-controller-manager's has
    const toLog = actionReporter({ log });
    toLog('ReplicaSet', 'shop/web', created);
    toLog('ReplicaSet', 'shop/web', failed);
    expect(logged).toEqual(['info ReplicaSet shop/web: create pod web-1', 'error ReplicaSet shop/web: delete pod web-2 failed code=500 err=boom']);
  });
});
