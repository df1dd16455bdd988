import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { FilterBar } from '../../src/ui/FilterBar.js';

describe('FilterBar', () => {
  it('while typing, with a filter kept, and the keys of each view', () => {
    expect(render(<FilterBar filter="web" filtering view="list" help={false} width={80} />).lastFrame()).toMatch(/^\/web_ {2}Enter keep · Esc clear/);
    expect(render(<FilterBar filter="web" filtering={false} view="list" help={false} width={100} />).lastFrame()).toMatch(
      /^filter "web" {2}j\/k move · Enter open · \/ filter/,
    );
    expect(render(<FilterBar filter="" filtering={false} view="detail" help={false} width={80} />).lastFrame()).toMatch(/^j\/k pod · Esc back/);
    expect(render(<FilterBar filter="" filtering={false} view="list" help width={80} />).lastFrame()).toMatch(/^Esc close · q quit/);
  });
});
