// One screen line made of styled segments. Lines are cut to the width here (counted in code
// points, after removing control characters), so a frame never wraps or overflows; colour is
// dropped entirely when the colour level is 0 (NO_COLOR, not a terminal).

import { Text } from 'ink';
import { createContext, useContext } from 'react';
import { sanitize } from '../render/text.js';
import { fitItems, type LineItem } from './layout.js';

export interface Seg {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export const ColorContext = createContext<boolean>(true);

const ELLIPSIS = '…';

/** Visible length in code points: the UTF-16 length less one per surrogate pair (a lone surrogate counts as one, as `for…of` does). */
export function len(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) continue;
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      n--;
      i++;
    }
  }
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
 * Segments wrapped at word boundaries to `width` visible characters, for sentences (reasons,
 * messages, log lines): a line breaks at a space, the spaces at the break are dropped, and the
 * lines after the first start with `indent` spaces. A word longer than a whole line is the only
 * thing broken. Nothing is lost: the words of the lines, in order, are the words of the segments.
 */
export function wrapSegs(segs: Seg[], width: number, indent = 0): Seg[][] {
  const w = Math.max(1, width);
  const pad = Math.min(Math.max(0, indent), w - 1);
  // words with their style; a word may span segments (`#1 ` then `name`: two words; `a` `b`: one)
  const words: Seg[][] = [];
  /** Spaces before each word in the text (kept inside a line; at a break they go). */
  const gaps: number[] = [];
  let open = false;
  let gap = 0;
  for (const s of segs) {
    for (const part of sanitize(s.text).split(/( +)/)) {
      if (part === '') continue;
      if (part.startsWith(' ')) {
        open = false;
        gap += part.length;
        continue;
      }
      if (open) words[words.length - 1].push({ ...s, text: part });
      else {
        gaps.push(gap);
        words.push([{ ...s, text: part }]);
        open = true;
      }
      gap = 0;
    }
  }
  const lines: Seg[][] = [[]];
  let used = 0;
  let start = 0; // where the words of the current line begin
  const newLine = () => {
    lines.push(pad > 0 ? [{ text: ' '.repeat(pad) }] : []);
    used = start = pad;
  };
  words.forEach((word, i) => {
    const size = word.reduce((n, s) => n + len(s.text), 0);
    // the spaces before the first word of the text are its indentation; other line starts drop them
    const space = i === 0 ? Math.min(gaps[0], w - 1) : used > start ? gaps[i] : 0;
    if (i === 0 && space > 0) start = space;
    if (used + space + size <= w) {
      if (space) lines[lines.length - 1].push({ text: ' '.repeat(space) });
      lines[lines.length - 1].push(...word);
      used += space + size;
      return;
    }
    if (used > start) newLine();
    else if (i === 0 && space > 0) {
      lines[0].push({ text: ' '.repeat(space) });
      used = space;
    }
    // a word wider than a whole line: broken where the line ends, the only split there is
    for (const s of word) {
      let chars = [...s.text];
      while (chars.length > 0) {
        if (used >= w) newLine();
        const take = chars.slice(0, w - used);
        lines[lines.length - 1].push({ ...s, text: take.join('') });
        used += take.length;
        chars = chars.slice(take.length);
      }
    }
  });
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

/** The items of a line that fit `width`; the line starts with its first item's words, not the spaces that parted it from a dropped one. */
export function fitLineItems(items: LineItem<Seg>[], width: number): Seg[] {
  const segs = fitItems(items, width, (x) => x.reduce((n, s) => n + len(s.text), 0));
  if (segs.length === 0 || segs[0] === items[0]?.segs[0]) return segs;
  return [{ ...segs[0], text: segs[0].text.trimStart() }, ...segs.slice(1)];
}

/** A section title: `── Title ───────` across the width; the extras that do not fit go, the last first. */
export function titleSegs(title: string, width: number, extra?: Seg[]): Seg[] {
  const items: LineItem<Seg>[] = [
    { segs: [{ text: '── ', dim: true }], keep: Number.POSITIVE_INFINITY },
    { segs: [{ text: title, bold: true }], keep: Number.POSITIVE_INFINITY },
    ...(extra ?? []).map((s, i) => ({ segs: [s], keep: -i })),
  ];
  // the closing rule needs a space and at least two dashes
  const head = fitItems(items, width - 3, (segs) => segs.reduce((n, s) => n + len(s.text), 0));
  const used = head.reduce((n, s) => n + len(s.text), 0) + 1;
  return [...head, { text: ' ' + '─'.repeat(Math.max(0, width - used)), dim: true }];
}
