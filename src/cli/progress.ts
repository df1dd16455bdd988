// Progress on stderr for long work, only when stderr is a terminal (nothing extra otherwise).

import type { Progress } from '../services/progress.js';
import { terminalStream } from './stdio.js';

const SILENT: Progress = { update() {}, done() {} };

/** `stream` undefined: stderr when it is a terminal (found without making process.stderr for a file or pipe). */
export function progressOn(stream: NodeJS.WriteStream | undefined = terminalStream(2), intervalMs = 100): Progress {
  if (!stream?.isTTY) return SILENT;
  let last = 0;
  let shown = false;
  return {
    update(text: string) {
      // process.hrtime needs no module; performance.now() loads node:perf_hooks on Node.js 20
      const [sec, ns] = process.hrtime();
      const t = sec * 1e3 + ns / 1e6;
      if (t - last < intervalMs) return;
      last = t;
      shown = true;
      stream.write(`\r\x1b[K${text}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
