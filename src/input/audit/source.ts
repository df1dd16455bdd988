// The bytes of one input: a plain file read with positioned reads, or a gzip file (told by its
// magic bytes 1f 8b) or a pipe read as a stream. Inputs read twice (the entries of a file that is
// not in time order are indexed, then read in time order) are read again from the file itself
// when it is plain, else from a spool: the decompressed bytes written once to a private temporary
// file, removed when the input is done or the process exits.

import { closeSync, createReadStream, fstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';

export const CHUNK_BYTES = 1024 * 1024;

/** A stream that ended early: a gzip file cut short (a download stopped mid-way). */
export class CutShort extends Error {}

export class ByteReader {
  /** Bytes of the file read so far (compressed ones for gzip), for progress. */
  fileBytesRead = 0;
  /** Decompressed bytes handed out so far. */
  offset = 0;
  readonly size: number;
  readonly gzip: boolean;
  /** A plain regular file: read again at any offset. */
  readonly seekable: boolean;
  private fd: number;
  private it: AsyncIterator<Buffer> | null = null;
  private stream: NodeJS.ReadableStream | null = null;
  private raw: ReturnType<typeof createReadStream> | null = null;
  private queued: Buffer[] = [];
  private ended = false;
  /** Why the stream ended early while peeking (a gzip file cut short or corrupt), if it did. */
  peekError: string | null = null;

  private constructor(
    readonly file: string,
    fd: number,
    size: number,
    regular: boolean,
    gzip: boolean,
  ) {
    this.fd = fd;
    this.size = size;
    this.gzip = gzip;
    this.seekable = regular && !gzip;
  }

  /** Opens `file` (errors as thrown by node:fs: ENOENT, EISDIR, EACCES). */
  static open(file: string): ByteReader {
    const fd = openSync(file, 'r');
    try {
      const st = fstatSync(fd);
      let gzip = false;
      if (st.isFile()) {
        const magic = Buffer.alloc(2);
        gzip = readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
      }
      const r = new ByteReader(file, fd, st.isFile() ? st.size : 0, st.isFile(), gzip);
      if (!r.seekable) r.startStream();
      return r;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  private startStream(): void {
    // the stream owns the fd from here on: it closes it once its reads are done (closing it
    // here could hand its number to the next file opened while a read is still pending)
    const raw = createReadStream('', { fd: this.fd, autoClose: true, highWaterMark: CHUNK_BYTES });
    this.raw = raw;
    raw.on('data', (b: Buffer | string) => (this.fileBytesRead += b.length));
    // a pipe's first two bytes are not read ahead: it is told gzip by the stream's own first chunk
    this.stream = this.gzip ? raw.pipe(createGunzip({ chunkSize: 256 * 1024 })) : raw;
    if (this.gzip) raw.on('error', (e) => (this.stream as NodeJS.ReadableStream & { destroy(e: Error): void }).destroy(e));
    this.it = (this.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /**
   * Reads up to `max` bytes into `buf` at `at`; 0 at the end. Plain files are read synchronously
   * (no event-loop turn per chunk); streams as they come.
   */
  async readInto(buf: Buffer, at: number, max: number): Promise<number> {
    if (this.seekable) {
      const n = readSync(this.fd, buf, at, max, this.offset);
      this.offset += n;
      this.fileBytesRead += n;
      return n;
    }
    let chunk = this.queued.shift();
    if (chunk === undefined) {
      if (this.ended) return 0;
      let r: IteratorResult<Buffer>;
      try {
        r = await this.it!.next();
      } catch (e) {
        this.ended = true;
        if ((e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' || /unexpected end of file/.test((e as Error).message))
          throw new CutShort((e as Error).message);
        throw e;
      }
      if (r.done) {
        this.ended = true;
        return 0;
      }
      chunk = r.value;
    }
    if (chunk.length > max) {
      this.queued.unshift(chunk.subarray(max));
      chunk = chunk.subarray(0, max);
    }
    chunk.copy(buf, at);
    this.offset += chunk.length;
    return chunk.length;
  }

  /** The first `n` bytes (fewer at the end), read without moving on. */
  async peek(n: number): Promise<Buffer> {
    if (this.seekable) {
      const b = Buffer.allocUnsafe(Math.min(n, this.size));
      const got = readSync(this.fd, b, 0, b.length, 0);
      return b.subarray(0, got);
    }
    const parts: Buffer[] = [...this.queued];
    let have = parts.reduce((s, p) => s + p.length, 0);
    while (have < n && !this.ended) {
      let r: IteratorResult<Buffer>;
      try {
        r = await this.it!.next();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' || /unexpected end of file/.test((e as Error).message)) {
          this.ended = true;
          this.peekError = (e as Error).message;
          break;
        }
        throw e;
      }
      if (r.done) {
        this.ended = true;
        break;
      }
      parts.push(r.value);
      have += r.value.length;
    }
    this.queued = parts;
    const all = Buffer.concat(parts);
    return all.subarray(0, Math.min(n, all.length));
  }

  /** The last `n` bytes of a plain file (null for streams). */
  tail(n: number): Buffer | null {
    if (!this.seekable) return null;
    const len = Math.min(n, this.size);
    const b = Buffer.allocUnsafe(len);
    const got = readSync(this.fd, b, 0, len, this.size - len);
    return b.subarray(0, got);
  }

  /** A positioned read of the file itself (seekable files only). */
  pread(buf: Buffer, at: number, len: number, pos: number): number {
    return readSync(this.fd, buf, at, len, pos);
  }

  close(): void {
    if (this.fd < 0) return;
    if (this.raw !== null) {
      (this.stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
      this.raw.destroy();
    } else closeSync(this.fd);
    this.fd = -1;
  }
}

// ---- spools ----------------------------------------------------------------------------------

let spoolDir: string | null = null;
let spoolSeq = 0;
let spoolsOpen = 0;
let exitHook = false;

function removeSpoolDir(): void {
  if (spoolDir !== null) rmSync(spoolDir, { recursive: true, force: true });
  spoolDir = null;
}

/** A private temporary file the decompressed bytes of one input are written to, and read back from. */
export class Spool {
  private fd: number;
  readonly path: string;
  length = 0;

  constructor(dir?: string) {
    if (spoolDir === null) {
      spoolDir = mkdtempSync(join(dir ?? tmpdir(), 'rs-reconcile-audit-'));
      if (!exitHook) {
        exitHook = true;
        process.once('exit', removeSpoolDir);
      }
    }
    this.path = join(spoolDir, `spool-${++spoolSeq}`);
    this.fd = openSync(this.path, 'w+', 0o600);
    spoolsOpen++;
  }

  write(b: Uint8Array, s: number, e: number): void {
    let at = s;
    while (at < e) at += writeSync(this.fd, b, at, e - at, this.length + (at - s));
    this.length += e - s;
  }

  pread(buf: Buffer, at: number, len: number, pos: number): number {
    return readSync(this.fd, buf, at, len, pos);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
    rmSync(this.path, { force: true });
    // the directory lives while a spool does (the exit hook is for a process that ends mid-read)
    if (--spoolsOpen === 0) removeSpoolDir();
  }
}

// ---- positioned reads in time order ----------------------------------------------------------

export interface Positioned {
  pread(buf: Buffer, at: number, len: number, pos: number): number;
}

const REGION_BYTES = 1024 * 1024;
const REGIONS = 4;
const LOOKAHEAD = 512;

/**
 * Reads entries at given offsets, in the order a sort put them: a miss reads one region holding
 * this entry and those of the next few that lie within a MiB of it (so a file read backwards, or
 * two interleaved runs, costs a few large reads), and keeps the last few regions.
 */
export class RegionReader {
  private regions: { pos: number; buf: Buffer }[] = [];

  constructor(private readonly src: Positioned) {}

  /** The bytes [pos, pos + len); `upcoming(k)` gives the k-th next entry's [pos, len] (or null). */
  read(pos: number, len: number, upcoming: (k: number) => [number, number] | null): Buffer {
    for (const r of this.regions) {
      if (pos >= r.pos && pos + len <= r.pos + r.buf.length) return r.buf.subarray(pos - r.pos, pos - r.pos + len);
    }
    let lo = pos;
    let hi = pos + len;
    if (len < REGION_BYTES) {
      for (let k = 1; k <= LOOKAHEAD; k++) {
        const u = upcoming(k);
        if (u === null) break;
        const nlo = Math.min(lo, u[0]);
        const nhi = Math.max(hi, u[0] + u[1]);
        if (nhi - nlo <= REGION_BYTES) {
          lo = nlo;
          hi = nhi;
        }
      }
    }
    const buf = Buffer.allocUnsafe(hi - lo);
    let got = 0;
    while (got < buf.length) {
      const n = this.src.pread(buf, got, buf.length - got, lo + got);
      if (n === 0) break;
      got += n;
    }
    if (got < hi - lo) throw new Error(`short read at byte ${lo + got}`);
    this.regions.push({ pos: lo, buf });
    if (this.regions.length > REGIONS) this.regions.shift();
    return buf.subarray(pos - lo, pos - lo + len);
  }
}
