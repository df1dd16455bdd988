import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Header, headerLines } from '../../src/ui/Header.js';
import { plainText } from '../../src/ui/line.js';
import { frameOf, loadExamples, META, NOW_MS, resize, width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('Header', () => {
  it('shows context, scope, mode, counts and the snapshot time', async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset', 'scale-down-ranking', 'invalid-selector'));
    const { lastFrame } = render(<Header meta={META} frame={frame} now={NOW_MS} paused={false} waiting={0} sort="name" filter="" shown={4} width={100} />);
    const [a, b] = lines(lastFrame());
    expect(a).toContain('context kind-dev');
    expect(a).toContain('all namespaces');
    expect(a).toContain('mode snapshot');
    expect(b).toContain('controllers 4');
    expect(b).toContain('drifted 2');
    expect(b).toContain('skipped 1');
    expect(b).toContain('pods 17');
    expect(b).toContain('snapshot at 2026-01-01T00:00:00Z');
    expect(b).toContain('sort name');
  });

  it('live: the last update time and how long ago; PAUSED with the updates waiting; the filtered count', async () => {
    const frame = frameOf(await loadExamples('drifted-replicaset'), { at: NOW_MS + 5_000 });
    const meta = { context: 'prod', scope: 'namespace shop', mode: 'read-only' as const };
    const { lastFrame, stdout } = render(
      <Header meta={meta} frame={frame} now={NOW_MS + 12_000} paused waiting={3} sort="drift" filter="web" shown={1} width={120} />,
    );
    resize(stdout, 120, 40);
    const [a, b] = lines(lastFrame());
    expect(a).toMatch(/^ PAUSED \(3 updates waiting\)/);
    expect(a).toContain('mode read-only');
    expect(b).toContain('(1 shown)');
    expect(b).toContain('updated 00:00:05 (7s ago)');
    expect(b).toContain('sort drift first');
  });

  it('before the first plan, and within 80 columns', () => {
    const [, b] = headerLines({ meta: META, frame: null, now: NOW_MS, paused: false, waiting: 0, sort: 'name', filter: '', shown: 0, width: 80 });
    expect(plainText(b)).toContain('waiting for the first snapshot');
    const { lastFrame } = render(
      <Header meta={{ ...META, context: 'x'.repeat(200) }} frame={null} now={NOW_MS} paused={false} waiting={0} sort="name" filter="" shown={0} width={80} />,
    );
    for (const l of lines(lastFrame())) expect(width(l)).toBeLessThanOrEqual(80);
  });
});
