// Loading cluster snapshots: whatever `kubectl get rs,rc,pods -A -o yaml|json` prints, from
// files, directories (like `kubectl -f DIR`: its .yaml/.yml/.json files, sorted by name, not
// recursive) or stdin, into the `Snapshot` the planner reads.
//
// The format is detected by content, as kubectl's decoder does: JSON (one document, several, or
// NDJSON) when it opens with a brace or bracket, YAML (multi-document, `---`) otherwise. JSON is never
// parsed whole (see json-source.ts), so a snapshot of a big cluster loads in about the time of
// one JSON.parse of it, with a fraction of the memory. Every problem is a one-line UserError
// naming the file, the line and the field. Each source is read within --max-input-size and
// refused if it is not text (read-input.ts); a field given twice in one object is refused, as
// the API server's strict decoding refuses it.

import { createReadStream, readdirSync, type Stats, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

import { controllerObjectsOf } from '../core/controller.js';
import type { Snapshot } from '../core/types.js';
import { fileParseError, fileReadError, NoObjectsError, UserError } from '../errors.js';
import { Progress, SnapshotBuilder, type Sink, type Steps } from './ingest.js';
import { ingestJson } from './json-source.js';
import { skipWhitespace } from './json-scan.js';
import { DEFAULT_MAX_INPUT_BYTES, readFileLimited, readStreamLimited } from './read-input.js';
import { ingestYaml } from './yaml-source.js';

export interface LoadResult {
  snapshot: Snapshot;
  /** Objects of other kinds (Service, StatefulSet…), counted by kind. */
  skippedKinds: Record<string, number>;
  /** Files read, in order (`<stdin>` for `-`). */
  files: string[];
}

export interface LoadOptions {
  /** Read for the path `-` (default: process.stdin). */
  stdin?: NodeJS.ReadableStream;
  /** Relative paths are resolved against this (default: process.cwd()); messages show them as given. */
  cwd?: string;
  /** Called at most ~10 times a second while reading, and once at the end. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** Most bytes read from one source (a file, stdin); default DEFAULT_MAX_INPUT_BYTES (512Mi). */
  maxInputBytes?: number;
  /** Accept input holding no object at all (default: refused with NoObjectsError). */
  allowEmpty?: boolean;
}

/** How stdin is named in messages and in `files`. */
export const STDIN_LABEL = '<stdin>';

/** Extensions `kubectl -f DIR` reads. */
const SNAPSHOT_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** UTF-8 bytes of the content (UTF-16 with a byte-order mark is converted) and where it starts. */
function decode(buf: Buffer): { b: Buffer; start: number } {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
    return { b: Buffer.from(buf.toString('utf16le', 2), 'utf8'), start: 0 };
  }
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    const swapped = Buffer.from(buf.subarray(2, buf.length - (buf.length % 2)));
    swapped.swap16();
    return { b: Buffer.from(swapped.toString('utf16le'), 'utf8'), start: 0 };
  }
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  return { b: buf, start: bom ? 3 : 0 };
}

function* ingestBuffer(buf: Buffer, file: string, sink: Sink, progress?: Progress): Steps {
  const { b, start } = decode(buf);
  const first = skipWhitespace(b, start, b.length);
  if (first >= b.length) return;
  // Like kubectl's decoder: content that opens with a brace or bracket is JSON, unless it has a
  // YAML document marker (JSON documents `---`-separated are YAML; a line of JSON never starts
  // with `---`, as a JSON string cannot hold a raw line break).
  if ((b[first] === 0x7b || b[first] === 0x5b) && b.indexOf('\n---', first) < 0) {
    yield* ingestJson(b, first, file, sink, progress);
    return;
  }
  let text: string;
  try {
    text = b.toString('utf8', start);
  } catch {
    throw fileParseError(file, `too large to read as YAML (${b.length} bytes); use -o json for big snapshots`);
  }
  yield* ingestYaml(text, file, sink, progress);
}

function result(sink: SnapshotBuilder, files: string[]): LoadResult {
  return { snapshot: sink.snapshot, skippedKinds: sink.skippedKinds(), files };
}

function isEmpty(r: LoadResult): boolean {
  const s = r.snapshot;
  return s.pods.length + controllerObjectsOf(s).length + (s.deployments?.length ?? 0) === 0 && Object.keys(r.skippedKinds).length === 0;
}

/** Parses one snapshot held in memory (YAML, JSON or NDJSON); `fileLabel` names it in messages. */
export function parseSnapshotText(text: string, fileLabel: string): LoadResult {
  const sink = new SnapshotBuilder();
  const steps = ingestBuffer(Buffer.from(text, 'utf8'), fileLabel, sink);
  while (!steps.next().done) {
    // Nothing is yielded without a progress callback.
  }
  return result(sink, [fileLabel]);
}

interface Source {
  label: string;
  /** Absolute path; undefined for stdin. */
  path?: string;
  /** From stat: 0 for stdin, devices and pipes, whose size is only known once read. */
  size: number;
  /** A regular file (else a device, a pipe, a socket: read as a stream). */
  regular: boolean;
}

/**
 * The sources the paths name. Synchronous calls: a stat and a directory listing take
 * microseconds, and loading node:fs/promises is a part of a small `diff -f` (docs/startup.md).
 */
function expand(paths: string[], cwd: string): Source[] {
  const sources: Source[] = [];
  let stdinSeen = false;
  for (const p of paths) {
    if (p === '-') {
      if (stdinSeen) throw new UserError('"-" (stdin) can be given only once');
      stdinSeen = true;
      sources.push({ label: STDIN_LABEL, size: 0, regular: false });
      continue;
    }
    const abs = resolve(cwd, p);
    let st: Stats;
    try {
      st = statSync(abs);
    } catch (e) {
      throw fileReadError(p, e);
    }
    if (!st.isDirectory()) {
      const regular = st.isFile();
      sources.push({ label: p, path: abs, size: regular ? st.size : 0, regular });
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch (e) {
      throw fileReadError(p, e);
    }
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (!SNAPSHOT_EXTENSIONS.has(extname(name))) continue;
      const entry = join(abs, name);
      let entryStat: Stats | undefined;
      try {
        entryStat = statSync(entry);
      } catch {
        entryStat = undefined; // a dangling link is no snapshot
      }
      if (entryStat?.isFile()) sources.push({ label: join(p, name), path: entry, size: entryStat.size, regular: true });
    }
  }
  return sources;
}

/** The bytes of one source, within the limit (see read-input.ts). */
/** `stdin` is asked for only when the source is stdin: process.stdin costs a stream's set-up on first use (docs/startup.md). */
async function readSource(source: Source, limit: number, stdin: () => NodeJS.ReadableStream): Promise<Buffer> {
  if (source.path === undefined) return readStreamLimited(stdin(), source.label, limit);
  try {
    if (source.regular) return await readFileLimited(source.path, source.label, source.size, limit);
    return await readStreamLimited(createReadStream(source.path), source.label, limit);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw fileReadError(source.label, e);
  }
}

const nextTurn = () => new Promise<void>((done) => setImmediate(done));

/**
 * Reads snapshots from files, directories and `-` (stdin, once), in order. Objects other than
 * Pods, ReplicaSets and ReplicationControllers are counted in `skippedKinds`; an object seen
 * again (same kind, namespace and name) replaces the earlier one. Problems are `UserError`s.
 */
export async function loadSnapshotFiles(paths: string[], opts: LoadOptions = {}): Promise<LoadResult> {
  const sources = expand(paths, opts.cwd ?? process.cwd());
  const progress = opts.onProgress
    ? new Progress(
        opts.onProgress,
        sources.reduce((sum, s) => sum + s.size, 0),
      )
    : undefined;
  const sink = new SnapshotBuilder();
  const files: string[] = [];
  const limit = opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  for (const source of sources) {
    const buf = await readSource(source, limit, () => opts.stdin ?? process.stdin);
    if (progress) progress.total += buf.length - source.size; // stdin, devices, a file that changed
    files.push(source.label);
    // Let the event loop run (a spinner, a signal) whenever a progress report was made.
    for (const steps = ingestBuffer(buf, source.label, sink, progress); !steps.next().done; ) await nextTurn();
    progress?.fileDone(buf.length);
  }
  progress?.finish();
  const loaded = result(sink, files);
  if (!opts.allowEmpty && isEmpty(loaded)) throw new NoObjectsError(files);
  return loaded;
}
