import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { HELP_LINES, HelpOverlay } from '../../src/ui/HelpOverlay.js';
import { width } from './fixtures.js';

const lines = (frame: string | undefined) => (frame ?? '').split('\n');

describe('HelpOverlay', () => {
  it('lists every key and the column abbreviations, cut to the rows and width', () => {
    const { lastFrame } = render(<HelpOverlay rows={40} width={100} />);
    for (const [k] of HELP_LINES) if (k) expect(lastFrame()).toContain(k);
    expect(lastFrame()).toContain('cycle the sort: name, drift first, desired');
    const small = render(<HelpOverlay rows={5} width={60} />);
    const out = lines(small.lastFrame());
    expect(out).toHaveLength(5);
    for (const l of out) expect(width(l)).toBeLessThanOrEqual(60);
  });
});
