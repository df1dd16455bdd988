// Reading one snapshot source (a file, a device, a pipe, stdin) into memory, safely: at most
// `--max-input-size` bytes, and only if it starts like text.
//
// A device such as /dev/zero has no size (stat says 0) and never ends, and a pipe may not end
// either: the size is counted while reading, and reading stops (the stream destroyed) as soon as
// the limit is passed. A regular file over the limit is refused from its size, before reading.
// Binary data (NUL bytes, control characters, invalid UTF-8) is refused from the first chunk.

import { constants as bufferConstants, isUtf8 } from 'node:buffer';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';

import { fileParseError, fileReadError, UserError } from '../errors.js';

/**
 * The default limit: 512Mi. A snapshot of 150,000 pods (`kubectl get rs,pods -A -o json`) is
 * about 350 MB; and 512Mi is about the longest string V8 can hold, so YAML (which is read as one
 * string) cannot be much larger anyway.
 */
export const DEFAULT_MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** The most one Buffer can hold. */
const MAX_BUFFER_BYTES = bufferConstants.MAX_LENGTH;

/** How much of the start of a source is checked for binary data. */
export const TEXT_CHECK_BYTES = 64 * 1024;

const SUFFIXES: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * A byte count written as a Kubernetes quantity: `512Mi`, `2Gi`, `100M`, `1e9`, `1048576`.
 * Fractions round up to whole bytes (`1.5Ki` is 1536).
 */
export function parseByteQuantity(text: string, flag = '--max-input-size'): number {
  const m = /^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:([KMGTPE]i|[kMGTPE])?|[eE]([0-9]+))$/.exec(text.trim());
  const bad = (why: string) => new UserError(`invalid ${flag} ${JSON.stringify(text)}: ${why}`);
  if (!m) throw bad('expected a quantity of bytes such as 512Mi, 2Gi or 100M');
  const [, number, suffix, exponent] = m;
  const multiplier = exponent !== undefined ? 10 ** Number(exponent) : SUFFIXES[suffix ?? ''];
  if (multiplier === undefined) throw bad('expected a quantity of bytes such as 512Mi, 2Gi or 100M');
  const bytes = Math.ceil(Number(number) * multiplier);
  if (!(bytes > 0)) throw bad('must be more than 0');
  if (bytes > MAX_BUFFER_BYTES) throw bad(`at most ${formatBytes(MAX_BUFFER_BYTES)} can be read`);
  return bytes;
}

/** `512Mi`, `1.5Gi`, `100000 bytes`: a size for messages, in the binary units kubectl prints. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['Gi', 2 ** 30],
    ['Mi', 2 ** 20],
    ['Ki', 2 ** 10],
  ] as const) {
    if (n >= size) {
      const v = n / size;
      return Number.isInteger(v) ? `${v}${unit}` : `${v.toFixed(1)}${unit}`;
    }
  }
  return `${n} byte${n === 1 ? '' : 's'}`;
}

function tooLarge(label: string, limit: number, size?: number): UserError {
  const what =
    size === undefined ? `stopped reading at the input limit of ${formatBytes(limit)}` : `${formatBytes(size)}, over the input limit of ${formatBytes(limit)}`;
  return fileReadError(label, `too large: ${what} (raise it with --max-input-size)`);
}

function notText(label: string, offset: number): UserError {
  return fileParseError(label, `not a text file (binary data at byte ${offset}): expected YAML or JSON`);
}

/** A C0 control character that text does not hold: all but tab, line feed and carriage return. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;

/**
 * The offset of the first byte in `b` that text (YAML or JSON, UTF-8) cannot hold: NUL and the
 * other C0 control characters but tab, line feed and carriage return, or invalid UTF-8; -1 if
 * none. A sequence cut off by the end of `b` is fine unless `final`. Content with a UTF-16 byte
 * order mark is text (it is converted later).
 */
export function firstBinaryByte(b: Uint8Array, final: boolean): number {
  const n = b.length;
  if (n >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))) return -1;
  // Text, the common case, is told by two native scans; the loop below, which finds where binary
  // data starts, runs only when one of them fails (a sequence cut off by the end of `b` included).
  if (isUtf8(b) && !CONTROL.test(Buffer.from(b.buffer, b.byteOffset, n).toString('latin1'))) return -1;
  let i = 0;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) {
      if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
      i++;
      continue;
    }
    // A multi-byte sequence: its length from the lead byte, and the range of its second byte
    // (which rules out overlong forms, surrogates and code points past U+10FFFF).
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k < len; k++) {
      if (i + k >= n) return final ? i : -1;
      const d = b[i + k];
      if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) return i;
    }
    i += len;
  }
  return -1;
}

/**
 * Reads a stream (a device, a pipe, stdin) to its end: at most `limit` bytes, refusing binary
 * data in its first TEXT_CHECK_BYTES. On a problem the stream is destroyed at once.
 */
export async function readStreamLimited(stream: NodeJS.ReadableStream, label: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let checked = false;
  const check = (final: boolean) => {
    checked = true;
    const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const at = firstBinaryByte(head.subarray(0, TEXT_CHECK_BYTES), final || head.length > TEXT_CHECK_BYTES);
    if (at >= 0) throw notText(label, at);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      total += b.length;
      if (total > limit) throw tooLarge(label, limit);
      chunks.push(b);
      if (!checked && total >= TEXT_CHECK_BYTES) check(false);
    }
  } catch (e) {
    // Leaving the loop early destroys the stream; make sure of it (stdin included).
    (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    throw e;
  }
  if (!checked) check(true);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * Files up to this size are read with synchronous calls: their read takes well under a
 * millisecond, and node:fs/promises (with the readline and stream modules it loads) is a
 * measurable part of `diff -f` on a small snapshot (docs/startup.md). Larger files are
 * read through a FileHandle, so the event loop runs (a spinner, Ctrl-C) while the disk works.
 */
export const SYNC_READ_BYTES = 4 * 1024 * 1024;

/** One read the file reader asks for; it is answered with the bytes read. */
interface ReadAt {
  buf: Buffer;
  offset: number;
  length: number;
  position: number;
}

/**
 * The reading of a regular file of `size` bytes, as reads asked for (synchronous or not, the
 * caller does them): into one buffer of that size, checked for binary data after its first
 * chunk; a file that grows while being read is read on, still within the limit.
 */
function* fileReads(label: string, size: number, limit: number): Generator<ReadAt, Buffer, number> {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const want = got === 0 ? Math.min(size, TEXT_CHECK_BYTES) : size - got;
    const bytesRead = yield { buf, offset: got, length: want, position: got };
    if (bytesRead === 0) break; // it shrank
    if (got === 0) {
      const at = firstBinaryByte(buf.subarray(0, bytesRead), bytesRead >= size);
      if (at >= 0) throw notText(label, at);
    }
    got += bytesRead;
  }
  if (got < size) return buf.subarray(0, got);
  // Anything past the size stat gave (a file still being written): read on, within the limit.
  const chunks = [buf];
  let total = got;
  for (;;) {
    const more = Buffer.allocUnsafe(TEXT_CHECK_BYTES);
    const bytesRead = yield { buf: more, offset: 0, length: more.length, position: total };
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > limit) throw tooLarge(label, limit);
    chunks.push(more.subarray(0, bytesRead));
  }
  return chunks.length === 1 ? buf : Buffer.concat(chunks, total);
}

/**
 * Reads a regular file of `size` bytes (from stat): refused before reading when over `limit`;
 * read into one buffer of that size, checked for binary data after its first chunk. A file that
 * grows while being read is read on, still within the limit.
 */
export async function readFileLimited(path: string, label: string, size: number, limit: number): Promise<Buffer> {
  if (size > limit) throw tooLarge(label, limit, size);
  // Files that say nothing of their size (/proc, some mounts) are read as streams.
  if (size === 0) return readStreamLimited(createReadStream(path), label, limit);
  const reads = fileReads(label, size, limit);
  if (size <= SYNC_READ_BYTES) {
    const fd = openSync(path, 'r');
    try {
      for (let step = reads.next(); ; ) {
        if (step.done) return step.value;
        const r = step.value;
        step = reads.next(readSync(fd, r.buf, r.offset, r.length, r.position));
      }
    } finally {
      closeSync(fd);
    }
  }
  const { open } = await import('node:fs/promises');
  const fh = await open(path, 'r');
  try {
    for (let step = reads.next(); ; ) {
      if (step.done) return step.value;
      const r = step.value;
      step = reads.next((await fh.read(r.buf, r.offset, r.length, r.position)).bytesRead);
    }
  } finally {
    await fh.close();
  }
}
