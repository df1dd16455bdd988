// One screen line made of styled segments. Lines are cut to the width here (counted in code
// points, after removing control characters), so a frame never wraps or overflows; colour is
// dropped entirely when the colour level is 0 (NO_COLOR, not a terminal).

import { Text } from 'ink';
import { createContext, useContext } from 'react';
import { sanitize } from '../render/text.js';

export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export const ColorContext = createContext<boolean>(true);

export const ELLIPSIS = '…';

/** Visible length in code points. */
export function len(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Segments cut to `width` visible characters (the last one ending in "…" when cut). */
export function fitSegs(segs: Seg[], width: number): Seg[] {
  const out: Seg[] = [];
  let room = Math.max(0, width);
  const total = segs.reduce((n, s) => n + len(s.text), 0);
  const cut = total > room;
  if (cut) room = Math.max(0, room - 1);
  for (const s of segs) {
    if (room <= 0) break;
    const text = sanitize(s.text);
    const chars = [...text];
    if (chars.length <= room) {
      out.push({ ...s, text });
      room -= chars.length;
    } else {
      out.push({ ...s, text: chars.slice(0, room).join('') });
      room = 0;
    }
  }
  if (cut && width > 0) {
    const last = out[out.length - 1];
    if (last) out[out.length - 1] = { ...last, text: last.text + ELLIPSIS };
    else out.push({ text: ELLIPSIS });
  }
  return out;
}

/** Pads (or cuts) to exactly `width`, for full-width bars such as the selected row. */
export function padSegs(segs: Seg[], width: number, style: Omit<Seg, 'text'> = {}): Seg[] {
  const fitted = fitSegs(segs, width);
  const used = fitted.reduce((n, s) => n + len(s.text), 0);
  return used < width ? [...fitted, { ...style, text: ' '.repeat(width - used) }] : fitted;
}

export function plainText(segs: Seg[]): string {
  return segs.map((s) => s.text).join('');
}

export function Line({ segs, width, inverse }: { segs: Seg[]; width: number; inverse?: boolean }) {
  const color = useContext(ColorContext);
  const fitted = inverse ? padSegs(segs, width) : fitSegs(segs, width);
  if (fitted.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end" inverse={inverse}>
      {fitted.map((s, i) => (
        <Text key={i} color={color ? s.color : undefined} bold={s.bold} dimColor={color ? s.dim : undefined} inverse={s.inverse}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

/** A section title: `── Title ───────` across the width. */
export function titleSegs(title: string, width: number, extra?: Seg[]): Seg[] {
  const head: Seg[] = [{ text: '── ', dim: true }, { text: title, bold: true }, ...(extra ?? [])];
  const used = head.reduce((n, s) => n + len(s.text), 0) + 1;
  return [...head, { text: ' ' + '─'.repeat(Math.max(0, width - used)), dim: true }];
}
