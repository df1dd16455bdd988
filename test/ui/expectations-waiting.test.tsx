// Reconcile mode: a controller held back by its own expectations (creates or deletes it issued,
// not yet seen by the informer) is waiting for them, not skipped: the plan says
// ExpectationsPending, and the dashboard and the plain stream say what it waits for.

import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ReplicaSetController, type Listers } from '../../src/controller/controller.js';
import type { ControllerAPI } from '../../src/runtime/api.js';
import { FakeClock } from '../../src/runtime/clock.js';
import { expectationsPendingBy, expectationsSatisfiedBy } from '../../src/services/watch/reconcile.js';
import { planFrame } from '../../src/services/watch/frame.js';
import { controllerRows } from './fixtures.js';
import { ControllersPane } from '../../src/ui/ControllersPane.js';
import { DetailPane, whyText } from '../../src/ui/DetailPane.js';
import { Header } from '../../src/ui/Header.js';
import { plainLine, PlainStream } from '../../src/ui/plain.js';
import { awaitedBy, skipLabel } from '../../src/ui/state.js';
import { behaviour, loadExamples, NOW_MS, resize } from './fixtures.js';

const quiet = { info() {}, error() {}, v: () => ({ info() {} }) };
const listers: Listers = {
  pods: { inNamespace: () => [], controlledBy: () => [], orphans: () => [], withLabel: () => [] },
  controllers: { get: () => undefined, inNamespace: () => [], all: () => [], ownedBy: () => [] },
};

async function waitingFrame() {
  const clock = new FakeClock(NOW_MS);
  const rs = new ReplicaSetController({ kind: 'ReplicaSet', listers, api: {} as ControllerAPI, behaviour, burstReplicas: 500, clock, log: quiet });
  const rc = new ReplicaSetController({ kind: 'ReplicationController', listers, api: {} as ControllerAPI, behaviour, burstReplicas: 500, clock, log: quiet });
  rs.expectations.expectCreations('shop/shop-web', 1); // its create is not seen yet
  rs.expectations.expectDeletions('search/search-5f7c9', ['search/a', 'search/b']);
  const controllers = [rs, rc];
  const snap = await loadExamples('drifted-replicaset', 'scale-down-ranking', 'invalid-selector');
  return planFrame(snap, {
    behaviour,
    nowMs: NOW_MS,
    at: NOW_MS,
    source: 'cluster',
    scope: { namespace: null, targets: [] },
    expectationsSatisfied: expectationsSatisfiedBy(controllers),
    expectationsPending: expectationsPendingBy(controllers),
  });
}

describe('waiting for its creates (or deletes), not skipped', () => {
  it('the frame says what each held-back controller waits for', async () => {
    const frame = await waitingFrame();
    const byName = (n: string) => frame.plan.controllers.find((c) => c.name === n)!;
    expect(byName('shop-web').skip?.reason).toBe('ExpectationsPending');
    expect(awaitedBy(frame, byName('shop-web'))).toBe('creates');
    expect(awaitedBy(frame, byName('search-5f7c9'))).toBe('deletes');
    expect(awaitedBy(frame, byName('broken'))).toBeNull();
    expect(skipLabel(frame, byName('shop-web'))).toBe('waiting for its creates');
    expect(skipLabel(frame, byName('search-5f7c9'))).toBe('waiting for its deletes');
    expect(skipLabel(frame, byName('broken'))).toBe('skipped: InvalidSelector');
    expect(skipLabel(frame, byName('frontend'))).toBeNull();
  });

  it('expectationsPendingBy: what is still expected, over the controllers held back', () => {
    const clock = new FakeClock(NOW_MS);
    const rs = new ReplicaSetController({ kind: 'ReplicaSet', listers, api: {} as ControllerAPI, behaviour, burstReplicas: 500, clock, log: quiet });
    rs.expectations.expectCreations('shop/web', 3);
    rs.expectations.creationObserved('shop/web');
    rs.expectations.expectCreations('shop/done', 1);
    rs.expectations.creationObserved('shop/done');
    const pending = expectationsPendingBy([rs]);
    expect(pending('shop/web')).toEqual({ add: 2, del: 0 });
    expect(pending('shop/done')).toEqual({ add: 0, del: 0 });
    expect(pending('shop/none')).toEqual({ add: 0, del: 0 });
  });

  it('header, list, detail and plain stream: waiting, with only the invalid selector skipped', async () => {
    const frame = await waitingFrame();
    const meta = { context: 'prod', scope: 'all namespaces', mode: 'reconcile' as const };
    const h = render(<Header meta={meta} frame={frame} now={NOW_MS} paused={false} waiting={0} sort="name" filter="" shown={4} width={140} />);
    resize(h.stdout, 140, 40);
    const second = (h.lastFrame() ?? '').split('\n')[1];
    expect(second).toContain('waiting 2');
    expect(second).toContain('skipped 1');

    const order = frame.plan.controllers.map((_, i) => i);
    const list = render(<ControllersPane frame={frame} rows={controllerRows(order)} top={0} cursor={0} height={6} width={100} showNamespace filter="" />);
    const rows = (list.lastFrame() ?? '').split('\n');
    expect(rows.find((l) => l.includes('shop/shop-web'))).toMatch(/^ {2}~ /);
    expect(rows.find((l) => l.includes('web/broken'))).toMatch(/^ {2}! /);

    const web = frame.plan.controllers.find((c) => c.name === 'shop-web')!;
    const detail = render(
      <DetailPane controller={web} model={frame.explain(web)} awaited={awaitedBy(frame, web)} podCursor={0} podTop={0} rows={14} width={100} />,
    );
    resize(detail.stdout, 100, 40);
    expect(detail.lastFrame()).toContain('waiting for its creates');
    expect(detail.lastFrame()).not.toContain('skipped');
    expect(whyText(web, undefined, 'creates')).toMatch(/^waiting for its creates: earlier creates or deletes/);

    const stream = new PlainStream();
    const lines = stream.update(frame.plan, 'T', frame.waiting);
    expect(lines.find((l) => l.includes('shop/shop-web'))).toMatch(/ waiting-for=creates$/);
    expect(lines.find((l) => l.includes('search/search-5f7c9'))).toMatch(/ waiting-for=deletes$/);
    expect(lines.find((l) => l.includes('web/broken'))).toMatch(/ skipped=InvalidSelector$/);
    expect(plainLine(web, 'creates and deletes')).toMatch(/ waiting-for=creates,deletes$/);
  });
});
