import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { QueuePane } from '../../src/ui/QueuePane.js';
import type { LogEntry } from '../../src/services/watch/contract.js';
import { NOW_MS, resize } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('QueuePane', () => {
  it('workqueue depth, in flight, retries; expectations pending per controller; recent actions', () => {
    const queue = {
      queues: [
        { name: 'replicaset', depth: 3, inFlight: 1, retries: 2, adds: 40 },
        { name: 'replicationmanager', depth: 0, inFlight: 0, retries: 0, adds: 1 },
      ],
      expectations: [{ kind: 'ReplicaSet' as const, key: 'shop/web', add: 2, del: 0, ageMs: 3000 }],
    };
    const actions: LogEntry[] = [{ at: NOW_MS, level: 'action', text: 'rs shop/web: create pod web-x2k9p' }];
    const { lastFrame, stdout } = render(<QueuePane queue={queue} actions={actions} rows={4} width={120} />);
    resize(stdout, 120, 40);
    const out = lines(lastFrame());
    expect(out[0]).toMatch(/── Controller ─+/);
    expect(out[1]).toBe('replicaset depth 3 in flight 1 retries 2 adds 40   replicationmanager depth 0 in flight 0 retries 0 adds 1');
    expect(out[2]).toBe('expectations pending (1): rs/shop/web +2/-0 (3s)');
    expect(out[3]).toBe('00:00:00 rs shop/web: create pod web-x2k9p');
  });

  it('below 100 columns: short queue names, no adds', () => {
    const queue = {
      queues: [
        { name: 'replicaset', depth: 12, inFlight: 5, retries: 3, adds: 9999 },
        { name: 'replicationmanager', depth: 0, inFlight: 0, retries: 0, adds: 0 },
      ],
      expectations: [],
    };
    const { lastFrame } = render(<QueuePane queue={queue} actions={[]} rows={3} width={80} />);
    expect(lastFrame()!.split('\n')[1]).toBe('rs depth 12 in flight 5 retries 3   rc depth 0 in flight 0 retries 0');
  });

  it('before the controller starts, and nothing pending', () => {
    const { lastFrame } = render(<QueuePane queue={null} actions={[]} rows={4} width={80} />);
    expect(lastFrame()).toContain('workqueue: starting');
    expect(lastFrame()).toContain('expectations: none pending');
    expect(lastFrame()).toContain('no actions yet');
  });
});
