import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { LogPane } from '../../src/ui/LogPane.js';
import { RingBuffer } from '../../src/ui/ring.js';
import type { LogEntry } from '../../src/services/watch/contract.js';
import { NOW_MS, width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('LogPane', () => {
  const entries = (n: number): LogEntry[] =>
    Array.from({ length: n }, (_, i) => ({ at: NOW_MS + i * 1000, level: 'change' as const, text: `pod shop/web-${i} added` }));

  it('the newest lines of the ring buffer, newest at the bottom', () => {
    const ring = new RingBuffer<LogEntry>(50);
    for (const e of entries(120)) ring.push(e);
    const { lastFrame } = render(<LogPane entries={ring.last(4)} total={120} rows={4} width={80} paused={false} />);
    const out = lines(lastFrame());
    expect(out[0]).toMatch(/^── Log ─+$/);
    expect(out.slice(1)).toEqual(['00:01:57 pod shop/web-117 added', '00:01:58 pod shop/web-118 added', '00:01:59 pod shop/web-119 added']);
  });

  it('empty, paused, and long lines cut to the width', () => {
    expect(render(<LogPane entries={[]} total={0} rows={3} width={80} paused />).lastFrame()).toMatch(/Log \(paused\)[\s\S]*no changes yet/);
    const { lastFrame } = render(<LogPane entries={[{ at: NOW_MS, level: 'error', text: 'x'.repeat(300) }]} total={1} rows={2} width={80} paused={false} />);
    for (const l of lines(lastFrame())) expect(width(l)).toBeLessThanOrEqual(80);
  });
});
