// The writes of audit logs, for `history`: read on a thread of their own when the input is big
// enough to pay for one (parsing JSON is most of a big log's time, and the replay is the rest: on
// two cores they overlap), else in this thread. Either way the same writes in the same order,
// the same errors, and the same coverage.
import { existsSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fileParseError, UserError } from '../errors.js';
import { AuditFormatError, writeOfAuditEvent } from '../history/audit-event.js';
import { projectWrite } from '../history/project.js';
import type { ApiWrite } from '../history/types.js';
import { readAuditLogs } from '../input/audit-log.js';
import { AUDIT_FORMATS, isAuditFormat, oneTimeAnEntry } from '../input/audit/formats/index.js';
import { AuditCoverage, FACTS } from '../input/audit/coverage.js';
import { entryError } from '../input/audit/sources.js';
import { HISTORY_WRITES } from '../input/audit/filter.js';

export interface ReaderRequest {
  files: string[];
  format?: string;
  spoolDir?: string;
}

/** What the reading found, in the terms the history's coverage needs. */
export interface ReadSummary {
  format: string | null;
  truncated: number;
  duplicates: number;
  missing: string[];
  /** GKE export without Data Access entries: pods/status writes cannot be in it. */
  gkeWithoutDataAccess: boolean;
  /** Documents cut off and other warnings, one line each. */
  notices: string[];
}

export interface ReadWrite {
  write: ApiWrite;
  /** The log time the write was read at (ms), for the merge of events. */
  at: number;
}

export type WorkerMessage =
  | { kind: 'batch'; json: string }
  | { kind: 'progress'; read: number; total: number }
  | { kind: 'done'; summary: ReadSummary }
  | { kind: 'error'; message: string; user: boolean; stack?: string };

/** The writes of the inputs, read in this thread, in order; returns what the reading found. */
export async function* readWrites(req: ReaderRequest, onBytes?: (read: number, total: number) => void): AsyncGenerator<ReadWrite, ReadSummary> {
  const format = req.format;
  if (format !== undefined && !isAuditFormat(format)) throw new UserError(`--audit-log-format: "${format}" is not one of ${AUDIT_FORMATS.join(', ')}`);
  const coverage = new AuditCoverage();
  // the filter lets the reader leave unparsed what the history certainly does not read (reads, other resources)
  for await (const line of readAuditLogs(req.files, { onBytes, format, coverage, filter: HISTORY_WRITES, spoolDir: req.spoolDir })) {
    let w: ApiWrite | null;
    try {
      w = writeOfAuditEvent(line.value);
    } catch (e) {
      if (e instanceof AuditFormatError) throw entryError(line, e.message);
      throw e;
    }
    if (!w) continue;
    // a format that logs one time an entry (GKE's converted Event has it as both): when it was received is not known
    if (oneTimeAnEntry(line.format)) w.finished = undefined;
    yield { write: projectWrite(w), at: line.atUs / 1000 };
  }
  // a format forced on a file of another shape reads nothing from it: that is a mistake, not an empty log
  if (format !== undefined) {
    for (const f of coverage.files) {
      if (f.entries === 0 && f.ignored > 0)
        throw fileParseError(
          f.file,
          `no entry reads as ${format} (${f.ignored} of another shape): leave out --audit-log-format to recognise the format from the content`,
        );
    }
  }
  const missing = coverage.missing;
  return {
    format: coverage.format,
    truncated: coverage.truncated,
    duplicates: coverage.duplicates,
    missing,
    gkeWithoutDataAccess: missing.includes(FACTS.gkeDataAccess),
    notices: [...coverage.cutOff, ...coverage.notices],
  };
}

/** Below this many bytes of input a thread costs more than it saves. */
const WORKER_MIN_BYTES = 16 * 1024 * 1024;

/** Batches the reading thread may send ahead of the replay (memory: this many times 256 writes). */
const CREDIT = 8;

/** The worker as a data: URL, which the single-file build (scripts/single-file.mjs) embeds: no file is beside it. */
declare const __RS_HISTORY_WORKER__: string | undefined;

/** The worker's script beside this module's (dist/services/) or the bundle's chunk; null when there is none (tests run the sources). */
function workerScript(): URL | null {
  if (typeof __RS_HISTORY_WORKER__ === 'string') return new URL(__RS_HISTORY_WORKER__);
  for (const rel of ['./history-reader-worker.js', '../chunks/history-reader-worker.js', './chunks/history-reader-worker.js']) {
    const url = new URL(rel, import.meta.url);
    if (url.protocol === 'file:' && existsSync(url)) return url;
  }
  return null;
}

function inputBytes(files: string[]): number {
  let n = 0;
  for (const f of files) {
    try {
      const s = statSync(f);
      // a directory: worth a thread (must-gather and sink folders are big)
      n += s.isDirectory() ? WORKER_MIN_BYTES : s.size;
    } catch {
      // the reader says what is wrong with it
    }
  }
  return n;
}

/**
 * The writes of the audit inputs, in order; `done` receives what the reading found once it ends.
 * On a thread of its own when the input is big and the worker script is there (`thread: false`
 * forces this thread).
 */
export async function* auditWrites(
  req: ReaderRequest,
  opts: { onBytes?: (read: number, total: number) => void; thread?: boolean },
  done: (s: ReadSummary) => void,
): AsyncGenerator<ReadWrite> {
  const script = opts.thread === false ? null : workerScript();
  if (script === null || inputBytes(req.files) < WORKER_MIN_BYTES) {
    done(yield* readWrites(req, opts.onBytes));
    return;
  }
  const worker = new Worker(script, { workerData: req });
  const inbox: WorkerMessage[] = [];
  let wake: (() => void) | null = null;
  let failed: Error | null = null;
  worker.on('message', (m: WorkerMessage) => {
    inbox.push(m);
    wake?.();
  });
  worker.on('error', (e) => {
    failed = e;
    wake?.();
  });
  worker.on('exit', (code) => {
    // after its last message (done, or an error) this is nothing: those are read first
    failed ??= new Error(code !== 0 ? `the audit log reader stopped with exit code ${code}` : 'the audit log reader stopped before the end of the log');
    wake?.();
  });
  worker.postMessage({ credit: CREDIT });
  try {
    for (;;) {
      while (inbox.length === 0 && failed === null) await new Promise<void>((r) => (wake = r));
      wake = null;
      const m = inbox.shift();
      if (m === undefined) throw failed!;
      if (m.kind === 'batch') {
        worker.postMessage({ credit: 1 });
        yield* JSON.parse(m.json) as ReadWrite[];
      } else if (m.kind === 'progress') opts.onBytes?.(m.read, m.total);
      else if (m.kind === 'error') throw m.user ? new UserError(m.message) : Object.assign(new Error(m.message), { stack: m.stack });
      else {
        done(m.summary);
        return;
      }
    }
  } finally {
    await worker.terminate();
  }
}
