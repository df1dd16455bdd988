// The full-screen dashboard around a WatchFeed: alternate screen, ink app, clock ticks, queue
// sampling, and the terminal restored however it ends.

import { render, type Instance } from 'ink';
import type { Clock } from '../runtime/clock.js';
import { realClock } from '../runtime/clock.js';
import { App } from './App.js';
import { sizeOf } from './layout.js';
import { writeHistoryPage } from './history-page.js';
import { HISTORY_CAPACITY, initialState } from './state.js';
import type { WatchFeed } from '../services/watch/contract.js';
import { newsEntry } from './news.js';
import { WatchStore } from './store.js';
import { enterFullScreen } from './terminal.js';

export interface DashboardIO {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
  color: boolean;
  clock?: Clock;
  /** Ctrl-C pressed (a key in raw mode, not a signal): the command exits 130, as after SIGINT. */
  onInterrupt?: () => void;
  /** `w` in the history pane: the timeline page's script (without it, `w` says it cannot). */
  pageScript?: () => Promise<string>;
  /** Where `w` writes the page (default: the current directory). */
  pageDir?: string;
}

const TICK_MS = 1000;
const QUEUE_SAMPLE_MS = 500;
const STOP_GRACE_MS = 10_000;

/** `w`: the page written beside the dashboard; its path said in the pane and the log, and kept in `written`. */
function pageWriter(feed: WatchFeed, io: DashboardIO, store: WatchStore, clock: Clock, written: string[]) {
  return async (key: string, rows: Parameters<typeof writeHistoryPage>[2]): Promise<void> => {
    try {
      if (!io.pageScript) throw new Error('no page script was given to the dashboard');
      const file = await writeHistoryPage({ feed, pageScript: io.pageScript, dir: io.pageDir, kept: HISTORY_CAPACITY }, key, rows, clock.now());
      written.push(file);
      store.dispatch({ type: 'historyPage', level: 'info', text: `page written: ${file}` });
    } catch (err) {
      store.dispatch({ type: 'historyPage', level: 'error', text: `page not written: ${(err as Error).message}` });
    }
  };
}

/** Runs until q, Ctrl-C or a signal; rejects when the feed cannot start (after restoring the terminal). */
export async function runDashboard(feed: WatchFeed, io: DashboardIO): Promise<void> {
  const clock = io.clock ?? realClock;
  const store = new WatchStore(initialState(feed.meta, sizeOf(io.stdout), clock.now()), clock);
  const ac = new AbortController();
  const guard = enterFullScreen(io.stdout, { stdin: io.stdin, stderr: io.stderr, onSignal: () => ac.abort() });
  const timers: NodeJS.Timeout[] = [];
  let instance: Instance | null = null;
  let unsubscribe = () => {};
  let startError: unknown = null;
  /** The pages `w` wrote: said again on stderr once the screen is back. */
  const written: string[] = [];
  try {
    instance = render(<App store={store} color={io.color} onQuit={() => ac.abort()} onInterrupt={io.onInterrupt} />, {
      stdout: io.stdout,
      stdin: io.stdin,
      stderr: io.stderr,
      exitOnCtrlC: false,
      patchConsole: true,
    });
    const inst = instance;
    ac.signal.addEventListener('abort', () => inst.unmount(), { once: true });

    let paused = false;
    let pageSeq = 0;
    const writePage = pageWriter(feed, io, store, clock, written);
    unsubscribe = store.subscribe(() => {
      const s = store.getSnapshot();
      if (s.paused !== paused) {
        paused = s.paused;
        feed.setPaused(s.paused);
      }
      if (s.pageRequest && s.pageRequest.seq !== pageSeq) {
        pageSeq = s.pageRequest.seq;
        void writePage(s.pageRequest.key, s.history.get(s.pageRequest.key)?.toArray() ?? []);
      }
    });
    // the store publishes a tick only when the age shown changes (each second for the first minute after an update, then each minute)
    if (feed.live) timers.push(setInterval(() => store.dispatch({ type: 'tick', now: clock.now() }), TICK_MS));
    const sample = feed.queue;
    if (sample) timers.push(setInterval(() => store.dispatch({ type: 'queue', queue: sample() }), QUEUE_SAMPLE_MS));

    const exited = inst.waitUntilExit();
    feed
      .start(
        {
          frame: (frame) => store.dispatch({ type: 'snapshotChanged', frame }),
          log: (entry) => store.dispatch({ type: 'log', entry }),
          news: (at, news) => {
            const entry = newsEntry(at, news);
            if (entry) store.dispatch({ type: 'log', entry });
          },
          history: (key, row) => store.dispatch({ type: 'history', key, row }),
        },
        ac.signal,
      )
      .catch((err: unknown) => {
        if (ac.signal.aborted) return;
        startError = err;
        ac.abort();
      });
    await exited;
  } finally {
    ac.abort();
    for (const t of timers) clearInterval(t);
    unsubscribe();
    store.dispose();
    instance?.unmount();
    guard.restore();
    guard.dispose();
  }
  for (const file of written) io.stderr.write(`timeline page: ${file}\n`);
  await Promise.race([feed.stopped(), new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
  if (startError !== null) throw startError;
}
