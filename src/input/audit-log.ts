// Files of JSON lines read in one streaming pass: plain or gzip (told by its first bytes, as rotated
// logs are compressed by logrotate), several files merged in time order. Memory holds one line per
// file. Audit logs as kube-apiserver writes them (--audit-log-format=json: one audit.k8s.io/v1 Event
// a line), and recordings (`record`, docs/recording-format.md).

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { UserError } from '../errors.js';
import { formatBytes } from './read-input.js';

/** The longest line read (a pod body with its managedFields is a few KiB; a list response is more). */
export const DEFAULT_MAX_AUDIT_LINE_BYTES = 64 * 1024 * 1024;

export interface AuditLine {
  file: string;
  line: number;
  /** The parsed JSON object of the line. */
  value: unknown;
  /** The time the merge orders by (JsonLinesKind.timeOf). */
  at: string;
}

/** What the files hold, for the merge order and for messages. */
export interface JsonLinesKind {
  /** "audit log", "recording": `cannot read audit log FILE`. */
  noun: string;
  /** "a JSON audit event": `FILE:3: not a JSON audit event (…)`. */
  lineNoun: string;
  /** What a too long line suggests: `…: not an audit log written with --audit-log-format=json?`. */
  tooLongHint: string;
  /** The time a line is merged by ('' when it has none). */
  timeOf(value: any): string;
}

/** Audit events are merged by stageTimestamp (when the server answered), else requestReceivedTimestamp. */
export const AUDIT_LOG: JsonLinesKind = {
  noun: 'audit log',
  lineNoun: 'a JSON audit event',
  tooLongHint: 'not an audit log written with --audit-log-format=json?',
  timeOf: (v) => (typeof v?.stageTimestamp === 'string' ? v.stageTimestamp : typeof v?.requestReceivedTimestamp === 'string' ? v.requestReceivedTimestamp : ''),
};

export interface AuditReadOptions {
  maxLineBytes?: number;
  /** Called with bytes read so far (compressed bytes for gzip files), for progress. */
  onBytes?: (read: number, total: number) => void;
}

/** One line naming the file and why it cannot be read. */
function cannotRead(kind: JsonLinesKind, file: string, e: unknown): UserError {
  return new UserError(`cannot read ${kind.noun} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
}

/** The lines of one file, in file order; blank lines are skipped. */
async function* linesOf(file: string, kind: JsonLinesKind, opts: AuditReadOptions, total: { read: number; size: number }): AsyncGenerator<AuditLine> {
  const max = opts.maxLineBytes ?? DEFAULT_MAX_AUDIT_LINE_BYTES;
  let head: Buffer;
  try {
    head = await firstBytes(file);
  } catch (e) {
    throw cannotRead(kind, file, e);
  }
  const raw = createReadStream(file);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const count = (n: number) => {
    total.read += n;
    opts.onBytes?.(total.read, total.size);
  };
  // Progress counts the bytes of the file: compressed ones for gzip (counted as the pipe reads them).
  if (gzip) raw.on('data', (b: Buffer | string) => count(b.length));
  const stream: NodeJS.ReadableStream = gzip ? raw.pipe(createGunzip()) : raw;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const parse = (buf: Buffer): AuditLine | null => {
    lineNo++;
    const text = buf.toString('utf8').trim();
    if (text === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new UserError(`${file}:${lineNo}: not ${kind.lineNoun} (${(e as Error).message.split('\n')[0]})`);
    }
    return { file, line: lineNo, value, at: kind.timeOf(value) };
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!gzip) count(chunk.length);
      let start = 0;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, i);
        const whole = pendingBytes ? Buffer.concat([...pending, part]) : part;
        pending = [];
        pendingBytes = 0;
        const l = parse(whole);
        if (l) yield l;
        start = i + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > max) throw new UserError(`${file}:${lineNo + 1}: a line longer than ${formatBytes(max)}: ${kind.tooLongHint}`);
      }
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`cannot read ${kind.noun} ${file}: ${(e as Error).message}`);
  } finally {
    raw.destroy();
  }
  if (pendingBytes) {
    const l = parse(Buffer.concat(pending));
    if (l) yield l;
  }
}

async function firstBytes(file: string): Promise<Buffer> {
  const s = createReadStream(file, { start: 0, end: 1 });
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/**
 * Every line of every audit log, merged by time: each file in its own order (the order the server
 * wrote it), and across files the earliest next line first, so rotated files (audit.log.1.gz,
 * audit.log) and the logs of several API servers interleave as they happened.
 */
export function readAuditLogs(files: string[], opts: AuditReadOptions = {}): AsyncGenerator<AuditLine> {
  return readJsonLines(files, AUDIT_LOG, opts);
}

/** Every line of every file of `kind`, merged by time as readAuditLogs does. */
export async function* readJsonLines(files: string[], kind: JsonLinesKind, opts: AuditReadOptions = {}): AsyncGenerator<AuditLine> {
  const total = { read: 0, size: 0 };
  for (const f of files) {
    try {
      total.size += (await stat(f)).size;
    } catch (e) {
      throw cannotRead(kind, f, e);
    }
  }
  const its = files.map((f) => linesOf(f, kind, opts, total));
  const heads: (AuditLine | null)[] = [];
  for (const it of its) heads.push((await it.next()).value ?? null);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h && (pick === -1 || h.at < heads[pick]!.at)) pick = i;
    }
    if (pick === -1) return;
    yield heads[pick]!;
    heads[pick] = (await its[pick].next()).value ?? null;
  }
}
