import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { UserError } from '../../src/errors.js';
import {
  DEFAULT_MAX_INPUT_BYTES,
  firstBinaryByte,
  formatBytes,
  parseByteQuantity,
  readFileLimited,
  readStreamLimited,
  SYNC_READ_BYTES,
  TEXT_CHECK_BYTES,
} from '../../src/input/read-input.js';
import { loadSnapshotFiles } from '../../src/input/snapshot-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'read-input-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<UserError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected an error');
}

/** An endless stream of text, counting how much was pulled from it and whether it was destroyed. */
function endless(chunk: Buffer): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const stream = new Readable({
    read() {
      pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('parseByteQuantity', () => {
  it.each([
    ['512Mi', 512 * 2 ** 20],
    ['2Gi', 2 * 2 ** 30],
    ['100M', 100e6],
    ['1k', 1000],
    ['1Ki', 1024],
    ['1.5Ki', 1536],
    ['1048576', 1048576],
    ['1e6', 1e6],
    ['0.5', 1],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseByteQuantity(text)).toBe(bytes);
  });

  it.each([['x'], ['12 apples'], ['-1Mi'], ['1ki'], ['Mi'], ['']])('refuses %j', (text) => {
    expect(() => parseByteQuantity(text)).toThrow(/^invalid --max-input-size ".*": expected a quantity of bytes such as 512Mi, 2Gi or 100M$/);
  });

  it('refuses 0 and more than a buffer can hold', () => {
    expect(() => parseByteQuantity('0')).toThrow('invalid --max-input-size "0": must be more than 0');
    expect(() => parseByteQuantity('5Ei')).toThrow(/^invalid --max-input-size "5Ei": at most \d/);
  });

  it('formats sizes in binary units', () => {
    expect(formatBytes(DEFAULT_MAX_INPUT_BYTES)).toBe('512Mi');
    expect(formatBytes(1536)).toBe('1.5Ki');
    expect(formatBytes(10)).toBe('10 bytes');
  });
});

describe('firstBinaryByte', () => {
  const b = (...bytes: number[]) => Uint8Array.from(bytes);
  it('accepts text: ASCII, tabs and line breaks, UTF-8 of every length', () => {
    expect(firstBinaryByte(Buffer.from('a: b\tc\r\nd: "é€😀"\n'), true)).toBe(-1);
  });
  it('finds NUL and other control characters', () => {
    expect(firstBinaryByte(Buffer.from('abc\0def'), true)).toBe(3);
    expect(firstBinaryByte(Buffer.from('ab\x1b[0m'), true)).toBe(2);
  });
  it('finds invalid UTF-8: stray continuation bytes, overlong forms, surrogates, past U+10FFFF', () => {
    expect(firstBinaryByte(b(0x61, 0x80), true)).toBe(1);
    expect(firstBinaryByte(b(0xc0, 0xaf), true)).toBe(0);
    expect(firstBinaryByte(b(0xe0, 0x80, 0xaf), true)).toBe(0);
    expect(firstBinaryByte(b(0xed, 0xa0, 0x80), true)).toBe(0);
    expect(firstBinaryByte(b(0xf4, 0x90, 0x80, 0x80), true)).toBe(0);
    expect(firstBinaryByte(b(0x61, 0xe2, 0x82, 0x41), true)).toBe(1);
  });
  it('accepts a sequence cut by the end of a chunk, unless the input ends there', () => {
    expect(firstBinaryByte(b(0x61, 0xe2, 0x82), false)).toBe(-1);
    expect(firstBinaryByte(b(0x61, 0xe2, 0x82), true)).toBe(1);
  });
  it('leaves UTF-16 with a byte order mark to the decoder', () => {
    expect(firstBinaryByte(Buffer.from('\ufeffa: b', 'utf16le'), true)).toBe(-1);
  });
  it('agrees with a strict UTF-8 decoder: the bytes before the offset are text, and only text has none', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const isText = (bytes: Uint8Array) => {
      try {
        return !/[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(decoder.decode(bytes));
      } catch {
        return false;
      }
    };
    // text with now and then a byte that may break it: a control character, a stray or cut sequence
    const piece = fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map((t) => Buffer.from(t, 'utf8')) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
    );
    const input = fc.array(piece, { maxLength: 12 }).map((parts) => Uint8Array.from(Buffer.concat(parts)));
    fc.assert(
      fc.property(input, (bytes) => {
        fc.pre(!(bytes[0] === 0xff && bytes[1] === 0xfe) && !(bytes[0] === 0xfe && bytes[1] === 0xff));
        const at = firstBinaryByte(bytes, true);
        expect(at === -1).toBe(isText(bytes));
        if (at >= 0) expect(isText(bytes.subarray(0, at))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('readStreamLimited', () => {
  it('reads a stream within the limit', async () => {
    const r = await readStreamLimited(Readable.from([Buffer.from('a: '), 'b\n']), '<stdin>', 5);
    expect(r.toString()).toBe('a: b\n');
  });

  it('stops an endless stream just past the limit and destroys it', async () => {
    const { stream, pulled } = endless(Buffer.alloc(16 * 1024, 'a: b\n'));
    const e = await failure(readStreamLimited(stream, '<stdin>', 1024 * 1024));
    expect(e.message).toBe('error reading <stdin>: too large: stopped reading at the input limit of 1Mi (raise it with --max-input-size)');
    expect(stream.destroyed).toBe(true);
    // What was read is bounded by the limit (and what the stream had buffered ahead).
    expect(pulled()).toBeLessThan(1024 * 1024 + 4 * 16 * 1024 + stream.readableHighWaterMark);
  });

  it('refuses an endless stream of NUL bytes (/dev/zero) at its first chunk', async () => {
    const { stream, pulled } = endless(Buffer.alloc(TEXT_CHECK_BYTES));
    const e = await failure(readStreamLimited(stream, '/dev/zero', DEFAULT_MAX_INPUT_BYTES));
    expect(e.message).toBe('error parsing /dev/zero: not a text file (binary data at byte 0): expected YAML or JSON');
    expect(stream.destroyed).toBe(true);
    expect(pulled()).toBeLessThan(8 * TEXT_CHECK_BYTES);
  });

  it('checks the first bytes even when they come in small chunks', async () => {
    const text = Buffer.from('kind: List\n');
    const bad = Buffer.concat([text, Buffer.from([0xff, 0xfe, 0x00])]);
    const e = await failure(readStreamLimited(Readable.from([bad.subarray(0, 3), bad.subarray(3)]), 'x.yaml', 100));
    expect(e.message).toBe(`error parsing x.yaml: not a text file (binary data at byte ${text.length}): expected YAML or JSON`);
  });

  it('joins a UTF-8 character split across chunks', async () => {
    const euro = Buffer.from('a: €\n');
    const r = await readStreamLimited(Readable.from([euro.subarray(0, 4), euro.subarray(4)]), '<stdin>', 100);
    expect(r.toString()).toBe('a: €\n');
  });
});

describe('readFileLimited', () => {
  it('refuses a regular file over the limit from its size, before reading it', async () => {
    const f = join(dir, 'big.json');
    await writeFile(f, '{}'.padEnd(3000, ' '));
    // The size given is what stat said: the file is not read at all (its content is fine).
    const e = await failure(readFileLimited(f, 'big.json', 3 * 1024 * 1024, 2 * 1024 * 1024));
    expect(e.message).toBe('error reading big.json: too large: 3Mi, over the input limit of 2Mi (raise it with --max-input-size)');
  });

  it('reads a file within the limit, and on past the size stat gave', async () => {
    const f = join(dir, 'grown.yaml');
    await writeFile(f, 'a: b\nc: d\n');
    expect((await readFileLimited(f, 'grown.yaml', 10, 100)).toString()).toBe('a: b\nc: d\n');
    expect((await readFileLimited(f, 'grown.yaml', 5, 100)).toString()).toBe('a: b\nc: d\n');
    const e = await failure(readFileLimited(f, 'grown.yaml', 5, 8));
    expect(e.message).toBe('error reading grown.yaml: too large: stopped reading at the input limit of 8 bytes (raise it with --max-input-size)');
  });

  it('reads a file over SYNC_READ_BYTES through a file handle alike: whole, on past its size, within the limit', async () => {
    const f = join(dir, 'large.yaml');
    const text = 'a: b\n'.repeat(Math.ceil((SYNC_READ_BYTES + TEXT_CHECK_BYTES + 3) / 5));
    await writeFile(f, text);
    const size = Buffer.byteLength(text);
    expect((await readFileLimited(f, 'large.yaml', size, size)).toString()).toBe(text);
    expect((await readFileLimited(f, 'large.yaml', SYNC_READ_BYTES + 1, size)).toString()).toBe(text);
    const e = await failure(readFileLimited(f, 'large.yaml', SYNC_READ_BYTES + 1, size - 1));
    expect(e.message).toMatch(/^error reading large\.yaml: too large: stopped reading at the input limit of /);
  });

  it('refuses binary content at its first bytes', async () => {
    const f = join(dir, 'image.png');
    await writeFile(f, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const e = await failure(readFileLimited(f, 'image.png', 8, 100));
    expect(e.message).toBe('error parsing image.png: not a text file (binary data at byte 0): expected YAML or JSON');
  });
});

describe('loadSnapshotFiles within limits', () => {
  it('applies maxInputBytes to files (from stat) and stdin (while reading)', async () => {
    const f = join(dir, 'pod.json');
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u' } });
    await writeFile(f, text);
    await expect(loadSnapshotFiles([f], { maxInputBytes: text.length })).resolves.toMatchObject({ files: [f] });
    const e1 = await failure(loadSnapshotFiles([f], { maxInputBytes: text.length - 1 }));
    expect(e1.message).toMatch(/pod\.json: too large: \d+ bytes, over the input limit of \d+ bytes/);
    const e2 = await failure(loadSnapshotFiles(['-'], { stdin: endless(Buffer.from(text)).stream, maxInputBytes: 4096 }));
    expect(e2.message).toBe('error reading <stdin>: too large: stopped reading at the input limit of 4Ki (raise it with --max-input-size)');
  });

  it('reads devices as streams: /dev/zero is refused as binary', async () => {
    const e = await failure(loadSnapshotFiles(['/dev/zero']));
    expect(e.message).toBe('error parsing /dev/zero: not a text file (binary data at byte 0): expected YAML or JSON');
  });

  it('refuses binary data on stdin', async () => {
    const e = await failure(loadSnapshotFiles(['-'], { stdin: Readable.from([Buffer.from('{"a":\0}')]) }));
    expect(e.message).toBe('error parsing <stdin>: not a text file (binary data at byte 5): expected YAML or JSON');
  });
});
