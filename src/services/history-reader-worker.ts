// The thread that reads audit logs for `history` (history-reader.ts): files read, entries parsed
// and turned into writes, bodies cut to what the replay reads, sent in order in batches, as far
// ahead of the replay as the credit it gives. The replay runs on the main thread meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { readWrites, type ReaderRequest, type ReadWrite, type WorkerMessage } from './history-reader.js';

/** Writes a batch: big enough to make a message cheap, small enough to keep the replay busy early. */
const BATCH = 256;

const port = parentPort!;
const req = workerData as ReaderRequest;
let credit = 0;
let wake: (() => void) | null = null;
port.on('message', (m: { credit?: number }) => {
  credit += m.credit ?? 0;
  wake?.();
});
const post = (m: WorkerMessage) => port.postMessage(m);

try {
  let batch: ReadWrite[] = [];
  let lastProgress = 0;
  const it = readWrites(req, (read, total) => {
    const now = Date.now();
    if (now - lastProgress >= 100) {
      lastProgress = now;
      post({ kind: 'progress', read, total });
    }
  });
  for (;;) {
    const r = await it.next();
    if (r.done) {
      if (batch.length > 0) post({ kind: 'batch', json: JSON.stringify(batch) });
      post({ kind: 'done', summary: r.value });
      break;
    }
    batch.push(r.value);
    if (batch.length < BATCH) continue;
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    credit--;
    // as JSON text: copied as bytes and parsed at the other end, faster than a structured clone
    post({ kind: 'batch', json: JSON.stringify(batch) });
    batch = [];
  }
} catch (e) {
  post({ kind: 'error', message: (e as Error).message, user: (e as { exitCode?: unknown }).exitCode !== undefined, stack: (e as Error).stack });
}
