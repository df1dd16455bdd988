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

function sameStyle(a: Seg, b: Seg): boolean {
  return a.color === b.color && !!a.bold === !!b.bold && !!a.dim === !!b.dim && !!a.inverse === !!b.inverse;
}

/**
 * Segments wrapped at `width` visible characters, as a terminal wraps a line that is too long:
 * nothing is cut, the rest goes on the next line. Names and reasons are what people copy, so a
 * row that does not fit takes two lines rather than losing characters.
 */
export function wrapSegs(segs: Seg[], width: number): Seg[][] {
  const w = Math.max(1, width);
  const lines: Seg[][] = [[]];
  let room = w;
  for (const s of segs) {
    let chars = [...sanitize(s.text)];
    while (chars.length > 0) {
      if (room === 0) {
        lines.push([]);
        room = w;
      }
      const take = chars.slice(0, room);
      lines[lines.length - 1].push({ ...s, text: take.join('') });
      room -= take.length;
      chars = chars.slice(take.length);
    }
  }
  return lines;
}

/** Neighbours with the same style as one segment: fewer ink nodes to lay out and write. */
export function mergeSegs(segs: Seg[]): Seg[] {
  const out: Seg[] = [];
  for (const s of segs) {
    if (s.text === '') continue;
    const last = out[out.length - 1];
    if (last && sameStyle(last, s)) out[out.length - 1] = { ...last, text: last.text + s.text };
    else out.push(s);
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
  const fitted = mergeSegs((inverse ? padSegs(segs, width) : fitSegs(segs, width)).map((s) => (color ? s : { ...s, color: undefined, dim: undefined })));
  if (fitted.length === 0) return <Text> </Text>;
  if (fitted.length === 1 && !fitted[0].color && !fitted[0].bold && !fitted[0].dim && !fitted[0].inverse) {
    return (
      <Text wrap="truncate-end" inverse={inverse}>
        {fitted[0].text}
      </Text>
    );
  }
  return (
    <Text wrap="truncate-end" inverse={inverse}>
      {fitted.map((s, i) => (
        <Text key={i} color={s.color} bold={s.bold} dimColor={s.dim} inverse={s.inverse}>
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
