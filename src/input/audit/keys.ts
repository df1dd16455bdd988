// Reading a member of a JSON object from its raw bytes without parsing the object: the value of a
// key, found by a native search for `"key"` that is not inside a string (its quote is not
// escaped) and is followed by a colon. Used only where the layout makes the first (or last)
// such key the one wanted, and never to decide anything the parse of the entry could disagree with
// beyond its place in time order.

import { timeUsAt } from './time.js';

const cache = new Map<string, Buffer>();
const pat = (s: string): Buffer => {
  let b = cache.get(s);
  if (b === undefined) cache.set(s, (b = Buffer.from(s, 'latin1')));
  return b;
};

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The offset of the value of member `key` in b[s, e) (just past the colon and spaces), searching
 * forward for the first or backward for the last occurrence; -1 when there is none.
 */
export function valueAt(b: Buffer, s: number, e: number, key: string, last = false): number {
  const p = pat(`"${key}"`);
  let at = last ? b.lastIndexOf(p, e - p.length) : b.indexOf(p, s);
  while (at >= s && at + p.length <= e) {
    if (at === 0 || b[at - 1] !== 0x5c) {
      let i = at + p.length;
      while (i < e && isWs(b[i])) i++;
      if (b[i] === 0x3a) {
        i++;
        while (i < e && isWs(b[i])) i++;
        return i;
      }
    }
    at = last ? (at === 0 ? -1 : b.lastIndexOf(p, at - 1)) : b.indexOf(p, at + 1);
  }
  return -1;
}

/** The content of the string value of `key` (no escapes in it) as latin1 text, or null. */
export function stringOf(b: Buffer, s: number, e: number, key: string, last = false, max = 512): string | null {
  const v = valueAt(b, s, e, key, last);
  if (v < 0 || b[v] !== 0x22) return null;
  const lim = Math.min(e, v + 1 + max);
  for (let i = v + 1; i < lim; i++) {
    if (b[i] === 0x22) return b.toString('latin1', v + 1, i);
    if (b[i] === 0x5c) return null;
  }
  return null;
}

/** The time of string member `key` (µs), or NaN. */
export function timeOf(b: Buffer, s: number, e: number, key: string, last = false): number {
  const v = valueAt(b, s, e, key, last);
  return v >= 0 && b[v] === 0x22 ? timeUsAt(b, v + 1, e) : NaN;
}

/** The number value of member `key`, or NaN. */
export function numberOf(b: Buffer, s: number, e: number, key: string): number {
  const v = valueAt(b, s, e, key);
  if (v < 0) return NaN;
  let i = v;
  while (i < e && ((b[i] >= 0x30 && b[i] <= 0x39) || b[i] === 0x2d || b[i] === 0x2e)) i++;
  return i > v ? Number(b.toString('latin1', v, i)) : NaN;
}

/**
 * The time of an Event's stageTimestamp (else requestReceivedTimestamp) in b[s, e): written
 * plainly, or (`escaped`) inside a JSON string, as CloudWatch's `message` and AKS's
 * `properties.log` hold it. The last occurrence is the Event's own: bodies come before it, and
 * the annotations after it are strings.
 */
export function eventTimeOf(b: Buffer, s: number, e: number, escaped: boolean): number {
  for (const key of ['stageTimestamp', 'requestReceivedTimestamp']) {
    const p = pat(escaped ? `\\"${key}\\":\\"` : `"${key}":"`);
    let at = b.lastIndexOf(p, e - p.length);
    if (at >= s) return timeUsAt(b, at + p.length, e);
    if (!escaped) {
      // pretty-printed (jq): a space after the colon
      const q = pat(`"${key}": "`);
      at = b.lastIndexOf(q, e - q.length);
      if (at >= s) return timeUsAt(b, at + q.length, e);
    }
  }
  return NaN;
}
