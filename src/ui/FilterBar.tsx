// The bottom line: the filter being typed (`/`), or the filter in force and the keys.

import type { LineItem } from './layout.js';
import { fitLineItems, Line, type Seg } from './line.js';
import type { View } from './state.js';

export interface FilterBarProps {
  filter: string;
  filtering: boolean;
  view: View;
  help: boolean;
  width: number;
}

const ALWAYS = Number.POSITIVE_INFINITY;

/** The keys of each view, most needed first after `? help` and `q quit`, which always stay. */
const KEYS: Record<'help' | 'detail' | 'list', [string, number][]> = {
  help: [
    ['Esc close', ALWAYS],
    ['q quit', ALWAYS],
  ],
  detail: [
    ['j/k pod', 6],
    ['Esc back', 7],
    ['s sort', 2],
    ['h history', 4],
    ['p pause', 3],
    ['? help', ALWAYS],
    ['q quit', ALWAYS],
  ],
  list: [
    ['j/k move', 7],
    ['Enter open', 6],
    ['/ filter', 5],
    ['s sort', 2],
    ['h history', 4],
    ['p pause', 3],
    ['? help', ALWAYS],
    ['q quit', ALWAYS],
  ],
};

/** The key line at `width`: the filter typed or in force, then the keys that fit (the least needed go first). */
function footerSegs(p: Omit<FilterBarProps, 'width'>, width = Number.POSITIVE_INFINITY): Seg[] {
  if (p.filtering) {
    return fitLineItems(
      [
        {
          segs: [{ text: '/', bold: true, color: 'cyan' }, { text: p.filter }, { text: '_', inverse: true }],
          keep: ALWAYS,
        },
        { segs: [{ text: '  Enter keep · Esc clear', dim: true }], keep: 2 },
        { segs: [{ text: ' · namespace/name substring', dim: true }], keep: 1 },
      ],
      width,
    );
  }
  const items: LineItem<Seg>[] = [];
  if (p.filter !== '')
    items.push({ segs: [{ text: 'filter ', dim: true }, { text: `"${p.filter}"`, color: 'cyan', bold: true }, { text: '  ' }], keep: ALWAYS });
  const keys = KEYS[p.help ? 'help' : p.view === 'detail' ? 'detail' : 'list'];
  keys.forEach(([text, keep], i) => {
    items.push({ segs: [{ text: i === 0 ? text : ` · ${text}`, dim: true }], keep });
  });
  return fitLineItems(items, width);
}

export function FilterBar(p: FilterBarProps) {
  return <Line segs={footerSegs(p, p.width)} width={p.width} />;
}
