// The stop of a piece of work that many parts of it listen on (each informer, each wait for a
// cache, each controller's workers, a watch's sources): more listeners than the 10 at which
// Node.js prints a leak warning on stderr, across the dashboard, by design.
import { setMaxListeners } from 'node:events';

/** A signal that `stop` aborts (with its reason), taking any number of listeners; `stop` gets one. */
export function fanOutSignal(stop: AbortSignal): AbortSignal {
  const own = new AbortController();
  setMaxListeners(0, own.signal);
  if (stop.aborted) own.abort(stop.reason);
  else stop.addEventListener('abort', () => own.abort(stop.reason), { once: true });
  return own.signal;
}
