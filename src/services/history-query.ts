// `history --print-query CLOUD`: the query that makes a cloud's log engine select what `history`
// reads (src/history/queries.ts), for the scope, target and window the command was given.

import { cloudAuditQuery, QUERY_CLOUDS, type QueryCloud } from '../history/queries.js';
import type { HistoryTarget } from './history-service.js';

export { QUERY_CLOUDS };

export interface HistoryQueryOptions {
  cloud: QueryCloud;
  /** undefined: every namespace (-A). */
  namespace?: string;
  target?: HistoryTarget;
  sinceMs?: number;
  untilMs?: number;
}

/** The text to print: comment header, the query, the command that writes it to audit.json. */
export function historyQuery(o: HistoryQueryOptions): string {
  return cloudAuditQuery(o);
}
