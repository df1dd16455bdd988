// The bottom line: the filter being typed (`/`), or the filter in force and the keys.

import { Line, type Seg } from './line.js';
import type { View } from './state.js';

export interface FilterBarProps {
  filter: string;
  filtering: boolean;
  view: View;
  help: boolean;
  width: number;
}

export function footerSegs(p: Omit<FilterBarProps, 'width'>): Seg[] {
  if (p.filtering) {
    return [
      { text: '/', bold: true, color: 'cyan' },
      { text: p.filter },
      { text: '_', inverse: true },
      { text: '  Enter keep · Esc clear · namespace/name substring', dim: true },
    ];
  }
  const segs: Seg[] = [];
  if (p.filter !== '') segs.push({ text: 'filter ', dim: true }, { text: `"${p.filter}"`, color: 'cyan', bold: true }, { text: '  ' });
  const keys = p.help
    ? 'Esc close · q quit'
    : p.view === 'detail'
      ? 'j/k pod · Esc back · s sort · h history · p pause · ? help · q quit'
      : 'j/k move · Enter open · / filter · s sort · h history · p pause · ? help · q quit';
  segs.push({ text: keys, dim: true });
  return segs;
}

export function FilterBar(p: FilterBarProps) {
  return <Line segs={footerSegs(p)} width={p.width} />;
}
