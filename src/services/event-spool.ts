// The events of a history, kept on disk rather than in memory: a log of a GiB can explain
// hundreds of thousands of writes, and the history's memory is for the objects that exist.
// Written once as JSON lines to a private temporary file, read back as often as the views need.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const FLUSH_BYTES = 1 << 20;

/** Between two items: the record separator, which JSON text never holds unescaped. */
const SEPARATOR = '\x1e';

// Spools still open when the process exits (an error, process.exit after Ctrl-C): their files go too.
const open = new Set<EventSpool<unknown>>();
const closeAll = (): void => {
  for (const s of open) s.close();
};

/** A list the machine views write item by item (`lazy`, as render/list-stream.ts recognises it). */
export class EventSpool<T> implements Iterable<T> {
  readonly lazy = true;
  length = 0;
  private readonly dir: string;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private written = 0;

  constructor(parent = tmpdir()) {
    this.dir = mkdtempSync(join(parent, 'rs-reconcile-history-'));
    this.fd = openSync(join(this.dir, 'events.jsonl'), 'w+', 0o600);
    if (open.size === 0) process.once('exit', closeAll);
    open.add(this);
  }

  push(item: T): void {
    // kept as -o json writes it two levels down, so that view copies it as it is (jsonAtDepth2)
    const line = JSON.stringify([[item]], null, 2).slice(10, -6) + SEPARATOR;
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.length++;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const b = Buffer.from(this.pending.join(''));
    writeSync(this.fd, b, 0, b.length, this.written);
    this.written += b.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const text of this.texts()) yield JSON.parse(text) as T;
  }

  /** Each item's JSON as JSON.stringify(…, null, 2) writes it two levels down (in a list in a document). */
  jsonAtDepth2(): Iterable<string> {
    return this.texts();
  }

  private *texts(): Generator<string> {
    this.flush();
    const chunk = Buffer.alloc(FLUSH_BYTES);
    const decoder = new StringDecoder('utf8'); // a character may straddle two reads
    let pos = 0;
    let rest = '';
    while (pos < this.written) {
      const n = readSync(this.fd, chunk, 0, chunk.length, pos);
      if (n <= 0) break;
      pos += n;
      const text = rest + decoder.write(chunk.subarray(0, n));
      const items = text.split(SEPARATOR);
      rest = items.pop() ?? '';
      for (const l of items) if (l !== '') yield l;
    }
    if (rest !== '') yield rest;
  }

  /** Removes the file (once; again is nothing); reading afterwards is a bug. */
  close(): void {
    if (!open.delete(this)) return;
    if (open.size === 0) process.removeListener('exit', closeAll);
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
