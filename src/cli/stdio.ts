// Standard output and error written as file descriptors when they are no terminal.
//
// process.stdout and process.stderr are made on first use: for a file or /dev/null a
// SyncWriteStream, for a pipe a net.Socket, for a terminal a tty.WriteStream. Either way Node.js
// 20 loads node:stream and its internal modules for them, a start-up cost of every command
// (docs/startup.md has the measurement), only to write a few lines. A file, a pipe or /dev/null
// is written here with fs.writeSync instead: synchronous as the streams are for files and (on
// Linux) pipes, so the two stay in the order they were written. A terminal keeps its stream (its
// isTTY, its columns, its colours), and so does Windows, whose consoles and pipes are not plain
// descriptors.

import { fstatSync, statSync, writeSync } from 'node:fs';

type Fd = 1 | 2;

const plain: Partial<Record<Fd, boolean>> = {};
const gone: Partial<Record<Fd, boolean>> = {};
let devNull: number | undefined;

/**
 * Whether `fd` is certainly no terminal, known without node:tty (which loads node:net): anything
 * but a character device (a file, a pipe, a socket), or the character device /dev/null. Node.js
 * makes process.stdout a tty.WriteStream exactly when isatty(1) holds, and only a character
 * device is a terminal; any other character device is left to the stream to tell.
 */
export function isPlainFd(fd: Fd): boolean {
  let known = plain[fd];
  if (known === undefined) {
    known = false;
    if (process.platform !== 'win32') {
      try {
        const st = fstatSync(fd);
        if (!st.isCharacterDevice()) known = true;
        else {
          devNull ??= statSync('/dev/null').rdev;
          known = st.rdev === devNull;
        }
      } catch {
        known = false; // the stream decides, as before
      }
    }
    plain[fd] = known;
  }
  return known;
}

const stream = (fd: Fd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

/** The stream of `fd` when it is a terminal, else undefined (without making the stream for a file or pipe). */
export function terminalStream(fd: Fd): NodeJS.WriteStream | undefined {
  if (isPlainFd(fd)) return undefined;
  const s = stream(fd);
  return s.isTTY === true ? s : undefined;
}

/** A millisecond's wait without spinning, for a non-blocking pipe that is full. */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}

/**
 * Writes `text` to `fd` whole. A pipe another process left non-blocking answers EAGAIN when it is
 * full (the write is tried again after a millisecond) and may take part of a write (the rest is
 * written next). A reader that went away (EPIPE, `| head`) ends the writing quietly, as the
 * streams' EPIPE handling did: false from then on. Other errors are thrown.
 */
export function writeFd(fd: Fd, text: string): boolean {
  if (gone[fd]) return false;
  if (text === '') return true;
  if (!isPlainFd(fd)) {
    stream(fd).write(text);
    return true;
  }
  const buf = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < buf.length) {
    try {
      done += writeSync(fd, buf, done, buf.length - done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') pause();
      else if (code === 'EPIPE') {
        gone[fd] = true;
        return false;
      } else throw e;
    }
  }
  return true;
}

let waiting: Array<(s: NodeJS.WriteStream) => void> | undefined;

/**
 * Calls `fn` with process.stdout when something first asks for it (at once if that cannot be
 * told), so a handler can be put on it without making it for a command that never uses it.
 */
export function whenStdoutMade(fn: (s: NodeJS.WriteStream) => void): void {
  if (waiting) {
    waiting.push(fn);
    return;
  }
  const d = Object.getOwnPropertyDescriptor(process, 'stdout');
  const get = d?.get;
  if (!get || !d.configurable) {
    fn(process.stdout);
    return;
  }
  waiting = [fn];
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: d.enumerable,
    get() {
      Object.defineProperty(process, 'stdout', d); // Node.js's own getter again
      const s = get.call(process) as NodeJS.WriteStream;
      const fns = waiting ?? [];
      waiting = undefined;
      for (const f of fns) f(s);
      return s;
    },
  });
}
